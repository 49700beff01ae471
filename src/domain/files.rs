//! What an uploaded file is: its extension, whether the portal takes it, and whether its
//! first bytes fit that extension. The content type a file is served with comes from here,
//! never from what the client claimed.

/// The lower-case extension of a file name (without the dot), when it has a usable one.
pub fn extension_of(name: &str) -> Option<String> {
    let (stem, ext) = name.rsplit_once('.')?;
    let ext = ext.to_ascii_lowercase();
    (!stem.trim().is_empty()
        && (1..=16).contains(&ext.len())
        && ext
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
    .then_some(ext)
}

/// True for an extension the store accepts: 1–16 characters of `[a-z0-9]`.
pub fn valid_ext(ext: &str) -> bool {
    (1..=16).contains(&ext.len())
        && ext
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// True for a key that stays inside the store: relative, made of `[a-z0-9./]` only, no empty
/// segment and no segment starting with a dot (which rules out `.`, `..` and the staging
/// folder).
pub fn is_valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 255
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'/')
        && key
            .split('/')
            .all(|segment| !segment.is_empty() && !segment.starts_with('.'))
}

/// Whether a file with this extension is an archive the portal unpacks.
pub fn is_archive(ext: &str) -> bool {
    ext == "zip"
}

/// Office documents are ZIP containers too, but are kept as they are.
fn is_office(ext: &str) -> bool {
    matches!(ext, "docx" | "xlsx" | "pptx")
}

fn starts(head: &[u8], prefix: &[u8]) -> bool {
    head.starts_with(prefix)
}

fn is_zip(head: &[u8]) -> bool {
    starts(head, b"PK\x03\x04") || starts(head, b"PK\x05\x06")
}

/// An ISO base media file (MP4, MOV): a box whose type at offset 4 is `ftyp` (or, in old
/// QuickTime files, another top-level atom).
fn media_brand(head: &[u8]) -> Option<&[u8]> {
    let kind = head.get(4..8)?;
    match kind {
        b"ftyp" => head.get(8..12),
        b"moov" | b"mdat" | b"wide" | b"free" | b"skip" => Some(b"qt  "),
        _ => None,
    }
}

/// The content type for a file with extension `ext` whose first bytes are `head`, or `None`
/// when the bytes are not what the extension says (a renamed file, or a disguised one).
/// Extensions this function does not know are served as opaque bytes.
pub fn content_type(ext: &str, head: &[u8]) -> Option<&'static str> {
    let found = match ext {
        "pdf" => head
            .windows(5)
            .take(1024)
            .any(|w| w == b"%PDF-")
            .then_some("application/pdf"),
        "jpg" | "jpeg" => starts(head, &[0xFF, 0xD8, 0xFF]).then_some("image/jpeg"),
        "png" => starts(head, b"\x89PNG\r\n\x1a\n").then_some("image/png"),
        "gif" => (starts(head, b"GIF87a") || starts(head, b"GIF89a")).then_some("image/gif"),
        "webp" => (head.len() >= 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WEBP")
            .then_some("image/webp"),
        "mp4" | "m4v" => media_brand(head).map(|_| "video/mp4"),
        "mov" => media_brand(head).map(|_| "video/quicktime"),
        "zip" => is_zip(head).then_some("application/zip"),
        "docx" => is_zip(head)
            .then_some("application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        "xlsx" => is_zip(head)
            .then_some("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        "pptx" => is_zip(head)
            .then_some("application/vnd.openxmlformats-officedocument.presentationml.presentation"),
        "txt" => (!head.contains(&0)).then_some("text/plain; charset=utf-8"),
        "csv" => (!head.contains(&0)).then_some("text/csv; charset=utf-8"),
        "eps" => (starts(head, b"%!PS-Adobe") || starts(head, &[0xC5, 0xD0, 0xD3, 0xC6]))
            .then_some("application/postscript"),
        "ai" => {
            if head.windows(5).take(1024).any(|w| w == b"%PDF-") {
                Some("application/pdf")
            } else {
                starts(head, b"%!PS-Adobe").then_some("application/postscript")
            }
        }
        "indd" => starts(
            head,
            &[
                0x06, 0x06, 0xED, 0xF5, 0xD8, 0x1D, 0x46, 0xE5, 0xBD, 0x31, 0xEF, 0xE7, 0xFE, 0x74,
                0xB7, 0x1D,
            ],
        )
        .then_some("application/x-indesign"),
        "psd" => starts(head, b"8BPS").then_some("image/vnd.adobe.photoshop"),
        _ => Some("application/octet-stream"),
    };
    // Text must really be text; a "text" file that is an archive or a program is not.
    found.filter(|_| !(matches!(ext, "txt" | "csv") && (is_zip(head) || starts(head, b"MZ"))))
}

/// The Bootstrap icon of a file type (the customer page shows it where a file has no
/// preview); islands/src/lib/fileIcon.ts says the same.
pub fn type_icon(ext: &str) -> &'static str {
    match ext {
        "pdf" => "bi-file-earmark-pdf",
        "jpg" | "jpeg" | "png" | "gif" | "webp" | "svg" | "psd" | "ai" | "eps" | "indd" => {
            "bi-file-earmark-image"
        }
        "mp4" | "m4v" | "mov" => "bi-file-earmark-play",
        "zip" => "bi-file-earmark-zip",
        "docx" => "bi-file-earmark-word",
        "xlsx" => "bi-file-earmark-excel",
        "csv" => "bi-file-earmark-spreadsheet",
        "pptx" => "bi-file-earmark-ppt",
        "txt" => "bi-file-earmark-text",
        _ => "bi-file-earmark",
    }
}

/// Whether the bytes are an archive of their own (a ZIP inside an upload that is not an
/// office document): archives in archives are refused.
pub fn is_nested_archive(ext: &str, head: &[u8]) -> bool {
    is_archive(ext) || (is_zip(head) && !is_office(ext))
}

/// One of a file's two previews.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreviewSize {
    /// About 320 px wide.
    Thumb,
    /// About 1,200 px wide.
    Large,
}

impl PreviewSize {
    /// The last segment of a preview's URL.
    pub fn file_name(self) -> &'static str {
        match self {
            PreviewSize::Thumb => "thumb.jpg",
            PreviewSize::Large => "large.jpg",
        }
    }

    pub fn parse(name: &str) -> Option<PreviewSize> {
        [PreviewSize::Thumb, PreviewSize::Large]
            .into_iter()
            .find(|size| size.file_name() == name)
    }
}

/// The site-relative URL of a preview of upload `id`.
pub fn preview_path(id: i64, size: PreviewSize) -> String {
    format!("/previews/{id}/{}", size.file_name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_has_an_icon() {
        assert_eq!(type_icon("pdf"), "bi-file-earmark-pdf");
        assert_eq!(type_icon("mov"), "bi-file-earmark-play");
        assert_eq!(type_icon("docx"), "bi-file-earmark-word");
        assert_eq!(type_icon("unbekannt"), "bi-file-earmark");
    }

    #[test]
    fn extensions_are_lower_case_and_need_a_name() {
        assert_eq!(extension_of("Flyer Herbst.PDF").as_deref(), Some("pdf"));
        assert_eq!(extension_of("archiv.tar.gz").as_deref(), Some("gz"));
        assert_eq!(extension_of("ohne"), None);
        assert_eq!(extension_of(".pdf"), None);
        assert_eq!(extension_of("x.p df"), None);
        assert_eq!(extension_of("x.ü"), None);
    }

    #[test]
    fn bytes_must_fit_the_extension() {
        assert_eq!(content_type("pdf", b"%PDF-1.7\n"), Some("application/pdf"));
        assert_eq!(content_type("pdf", b"<html><script>"), None);
        assert_eq!(
            content_type("jpg", &[0xFF, 0xD8, 0xFF, 0xE0]),
            Some("image/jpeg")
        );
        assert_eq!(content_type("png", b"GIF89a"), None);
        assert_eq!(
            content_type("mp4", b"\0\0\0\x18ftypmp42"),
            Some("video/mp4")
        );
        assert_eq!(
            content_type("mov", b"\0\0\0\x14ftypqt  "),
            Some("video/quicktime")
        );
        assert_eq!(content_type("mp4", b"not a video"), None);
        assert_eq!(
            content_type("docx", b"PK\x03\x04rest"),
            Some("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        );
        assert_eq!(
            content_type("txt", "Grüße\n".as_bytes()),
            Some("text/plain; charset=utf-8")
        );
        assert_eq!(content_type("txt", b"PK\x03\x04"), None);
        assert_eq!(content_type("csv", b"a;b\0"), None);
        assert_eq!(
            content_type("psd", b"8BPS\0\x01"),
            Some("image/vnd.adobe.photoshop")
        );
        assert_eq!(content_type("ai", b"%PDF-1.5"), Some("application/pdf"));
        assert_eq!(
            content_type("eps", b"%!PS-Adobe-3.0 EPSF-3.0"),
            Some("application/postscript")
        );
        assert_eq!(
            content_type("xyz", b"anything"),
            Some("application/octet-stream")
        );
    }

    #[test]
    fn archives_inside_archives_are_recognised() {
        assert!(is_nested_archive("zip", b"PK\x03\x04"));
        assert!(is_nested_archive("pdf", b"PK\x03\x04"));
        assert!(!is_nested_archive("docx", b"PK\x03\x04"));
        assert!(!is_nested_archive("pdf", b"%PDF-1.4"));
    }
}
