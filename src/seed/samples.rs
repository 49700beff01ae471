//! The files of the demo and benchmark data sets: small real sample files made once with
//! ordinary tools and shipped in the binary (`assets/seed/`, see its README), SVGs from two
//! text templates, and ZIP archives from the zip crate.

/// A one-page A4 promotional flyer (German text, Helvetica, WinAnsi encoding).
pub const FLYER_PDF: &[u8] = include_bytes!("../../assets/seed/flyer.pdf");
/// A one-page A4 price list.
pub const PRICE_LIST_PDF: &[u8] = include_bytes!("../../assets/seed/preisliste.pdf");

/// A 240 × 120 PNG banner in one of the brand colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Banner {
    Green,
    Blue,
    Purple,
    Pink,
}

impl Banner {
    pub const ALL: [Banner; 4] = [Banner::Green, Banner::Blue, Banner::Purple, Banner::Pink];

    pub fn png(self) -> &'static [u8] {
        match self {
            Banner::Green => include_bytes!("../../assets/seed/banner-gruen.png"),
            Banner::Blue => include_bytes!("../../assets/seed/banner-blau.png"),
            Banner::Purple => include_bytes!("../../assets/seed/banner-lila.png"),
            Banner::Pink => include_bytes!("../../assets/seed/banner-pink.png"),
        }
    }
}

/// A ZIP archive with the files stored as they are (PNGs do not shrink).
pub fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in entries {
        writer.start_file(*name, options).expect("in memory");
        writer.write_all(bytes).expect("in memory");
    }
    writer.finish().expect("in memory").into_inner()
}

/// An SVG poster with a headline and a subline on a coloured background.
pub fn svg_poster(headline: &str, subline: &str, color: &str) -> String {
    let (headline, subline) = (xml_escape(headline), xml_escape(subline));
    let font =
        r##"font-family="Helvetica, Arial, sans-serif" fill="#ffffff" text-anchor="middle""##;
    [
        r#"<?xml version="1.0" encoding="UTF-8"?>"#.to_string(),
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="420" height="594" viewBox="0 0 420 594">"#
            .to_string(),
        format!(r#"<rect width="420" height="594" fill="{color}"/>"#),
        r##"<rect x="24" y="24" width="372" height="546" fill="none" stroke="#ffffff" stroke-width="4"/>"##
            .to_string(),
        format!(r#"<text x="210" y="270" font-size="30" font-weight="bold" {font}>{headline}</text>"#),
        format!(r#"<text x="210" y="320" font-size="16" {font}>{subline}</text>"#),
        "</svg>\n".to_string(),
    ]
    .join("\n")
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::files::content_type;

    /// What a reader relies on first: the PDF header, a cross-reference table that `startxref`
    /// points at, and the end marker.
    pub(crate) fn assert_pdf(bytes: &[u8]) {
        assert!(bytes.starts_with(b"%PDF-1."));
        assert!(bytes.trim_ascii_end().ends_with(b"%%EOF"));
        let text = String::from_utf8_lossy(bytes);
        let xref_at: usize = text
            .rsplit("startxref")
            .next()
            .and_then(|tail| tail.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("startxref offset");
        assert!(bytes[xref_at..].starts_with(b"xref"));
        assert_eq!(content_type("pdf", bytes), Some("application/pdf"));
    }

    /// The PNG signature, a 240 px wide header (banners 120, logos 80 high) and the end chunk;
    /// the CRC of each chunk.
    pub(crate) fn assert_png(bytes: &[u8]) {
        assert_eq!(content_type("png", bytes), Some("image/png"));
        let mut at = 8;
        let mut kinds = Vec::new();
        while at < bytes.len() {
            let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            let crc = u32::from_be_bytes(bytes[at + 8 + len..at + 12 + len].try_into().unwrap());
            assert_eq!(crc, crc32fast::hash(&bytes[at + 4..at + 8 + len]));
            kinds.push(bytes[at + 4..at + 8].to_vec());
            at += 12 + len;
        }
        assert_eq!(&bytes[16..20], [0, 0, 0, 240]);
        assert!(
            [[0, 0, 0, 80], [0, 0, 0, 120]].contains(&<[u8; 4]>::try_from(&bytes[20..24]).unwrap())
        );
        assert_eq!(kinds.first().map(Vec::as_slice), Some(&b"IHDR"[..]));
        assert_eq!(kinds.last().map(Vec::as_slice), Some(&b"IEND"[..]));
    }

    #[test]
    fn the_shipped_samples_are_valid_files() {
        assert_pdf(FLYER_PDF);
        assert_pdf(PRICE_LIST_PDF);
        for banner in Banner::ALL {
            assert_png(banner.png());
        }
    }

    #[test]
    fn svgs_escape_their_text() {
        let poster = svg_poster("Müller & Söhne", "<neu>", "#0d6efd");
        assert!(poster.contains(">Müller &amp; Söhne</text>"));
        assert!(poster.contains(">&lt;neu&gt;</text>"));
    }
}
