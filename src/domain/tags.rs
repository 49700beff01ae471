//! Tags (issue 25): a name of 2 to 40 characters, unique without regard to case, and an icon
//! that is either a Bootstrap icon from the picker's choice or a small uploaded image, kept in
//! the tag itself as a `data:` URL (so every instance, export and backup has it, and the pages'
//! `img-src` already allows it).

use base64::Engine;

use super::files::content_type;
use super::text::bounded;

/// The name as stored: cleaned and 2 to 40 characters long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagName(String);

impl TagName {
    pub const MIN: usize = 2;
    pub const MAX: usize = 40;

    pub fn parse(value: &str) -> Result<TagName, String> {
        bounded(value, "Der Name des Tags", Self::MIN, Self::MAX).map(TagName)
    }

    /// The same name, as uniqueness compares it.
    pub fn same_as(&self, other: &str) -> bool {
        self.0.to_lowercase() == other.trim().to_lowercase()
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// The Bootstrap icons the picker offers (`bi bi-<name>`): symbols for kinds of promotional
/// material.
pub const ICON_CHOICES: &[&str] = &[
    "file-earmark-pdf",
    "file-earmark-image",
    "file-earmark-play",
    "file-earmark-text",
    "file-earmark-zip",
    "file-earmark-slides",
    "file-earmark-spreadsheet",
    "image",
    "images",
    "camera",
    "film",
    "play-btn",
    "music-note-beamed",
    "share",
    "instagram",
    "facebook",
    "linkedin",
    "youtube",
    "whatsapp",
    "envelope",
    "megaphone",
    "newspaper",
    "book",
    "printer",
    "card-image",
    "postcard",
    "easel",
    "display",
    "phone",
    "tablet",
    "tag",
    "star",
    "heart",
    "lightning",
    "sun",
    "house",
    "shop",
    "gift",
    "percent",
    "calendar-event",
    "geo-alt",
    "globe",
    "people",
    "person-badge",
    "award",
    "trophy",
    "info-circle",
    "question-circle",
];

/// The largest uploaded icon image, in bytes (an icon is shown 16 pixels wide).
pub const MAX_IMAGE_BYTES: usize = 16 * 1024;

/// The image types an uploaded icon may have (no SVG: it can carry scripts).
const IMAGE_TYPES: &[(&str, &str)] = &[
    ("image/png", "png"),
    ("image/jpeg", "jpg"),
    ("image/gif", "gif"),
    ("image/webp", "webp"),
];

/// The icon as stored: `bi bi-<name>` of [`ICON_CHOICES`], or `data:image/…;base64,…` of an
/// image whose bytes are of its type and at most [`MAX_IMAGE_BYTES`]. `current` is the tag's
/// icon so far: it may stay as it is even when it is neither (tags made before this screen).
pub fn parse_icon(value: &str, current: Option<&str>) -> Result<String, String> {
    let value = value.trim();
    if current.is_some_and(|current| current == value) {
        return Ok(value.to_owned());
    }
    if let Some(name) = value.strip_prefix("bi bi-") {
        return if ICON_CHOICES.contains(&name) {
            Ok(value.to_owned())
        } else {
            Err("Bitte wählen Sie ein Symbol aus der Liste.".into())
        };
    }
    if let Some(rest) = value.strip_prefix("data:") {
        return image_icon(rest);
    }
    Err(
        "Bitte wählen Sie ein Symbol oder laden Sie ein Bild (PNG, JPEG, GIF oder WebP) hoch."
            .into(),
    )
}

/// Whether a stored icon is an uploaded image (a `data:` URL of one of the allowed types).
pub fn is_image_icon(icon: &str) -> bool {
    icon.strip_prefix("data:")
        .and_then(|rest| rest.split_once(";base64,"))
        .is_some_and(|(mime, data)| {
            IMAGE_TYPES.iter().any(|(known, _)| *known == mime)
                && data
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        })
}

fn image_icon(rest: &str) -> Result<String, String> {
    let wrong = || "Das Bild muss eine PNG-, JPEG-, GIF- oder WebP-Datei sein.".to_owned();
    let (declared, data) = rest.split_once(";base64,").ok_or_else(wrong)?;
    let (mime, ext) = IMAGE_TYPES
        .iter()
        .find(|(mime, _)| mime.eq_ignore_ascii_case(declared))
        .ok_or_else(wrong)?;
    // Checked on the text first, so a huge upload is refused before it is decoded.
    if data.len() > MAX_IMAGE_BYTES.div_ceil(3) * 4 {
        return Err(too_big());
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|_| wrong())?;
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(too_big());
    }
    if content_type(ext, &bytes) != Some(*mime) {
        return Err(wrong());
    }
    Ok(format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    ))
}

fn too_big() -> String {
    format!(
        "Das Bild darf höchstens {} KB groß sein.",
        MAX_IMAGE_BYTES / 1024
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    fn data_url(mime: &str, bytes: &[u8]) -> String {
        format!(
            "data:{mime};base64,{}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        )
    }

    #[test]
    fn names_are_two_to_forty_characters() {
        assert_eq!(TagName::parse("  Flyer ").unwrap().into_inner(), "Flyer");
        assert!(TagName::parse("F").unwrap_err().contains("mindestens 2"));
        assert!(
            TagName::parse(&"x".repeat(41))
                .unwrap_err()
                .contains("höchstens 40")
        );
        assert!(TagName::parse(&"ä".repeat(40)).is_ok());
        assert!(TagName::parse("   ").is_err());
        assert!(
            TagName::parse("Fly\u{200b}er").is_err(),
            "invisible characters are refused"
        );
        assert!(TagName::parse("Plakat").unwrap().same_as(" PLAKAT"));
        assert!(TagName::parse("Übersicht").unwrap().same_as("übersicht"));
    }

    #[test]
    fn icons_are_a_choice_of_the_picker_or_a_small_image() {
        assert_eq!(parse_icon(" bi bi-star ", None).unwrap(), "bi bi-star");
        assert!(parse_icon("bi bi-nicht-da", None).is_err());
        assert!(parse_icon("bi bi-star\" onload=\"x", None).is_err());
        assert!(parse_icon("https://example.de/x.png", None).is_err());
        // A tag's earlier icon may stay.
        assert_eq!(
            parse_icon("https://example.de/x.png", Some("https://example.de/x.png")).unwrap(),
            "https://example.de/x.png"
        );
        let png = data_url("image/png", PNG);
        assert_eq!(parse_icon(&png, None).unwrap(), png);
        assert!(is_image_icon(&png));
        assert!(!is_image_icon("data:image/svg+xml;base64,PHN2Zy8+"));
        assert!(!is_image_icon("data:image/png;base64,\"><script>"));
        assert_eq!(parse_icon(&data_url("IMAGE/PNG", PNG), None).unwrap(), png);
        // The bytes must be of the declared type; SVG and HTML are no images here.
        assert!(parse_icon(&data_url("image/jpeg", PNG), None).is_err());
        assert!(parse_icon(&data_url("image/svg+xml", b"<svg/>"), None).is_err());
        assert!(parse_icon("data:text/html;base64,PGI+", None).is_err());
        assert!(parse_icon("data:image/png;base64,***", None).is_err());
        let mut big = PNG.to_vec();
        big.resize(MAX_IMAGE_BYTES + 1, 0);
        assert!(
            parse_icon(&data_url("image/png", &big), None)
                .unwrap_err()
                .contains("16 KB")
        );
        big.truncate(MAX_IMAGE_BYTES);
        assert!(parse_icon(&data_url("image/png", &big), None).is_ok());
    }
}
