//! Text that people type: trimmed, Unicode-normalised (NFC), and free of characters that
//! cannot be seen or that change how text around them is shown (control characters, zero-width
//! and bidi-override characters). Every name the portal stores goes through [`clean`].

use unicode_normalization::UnicodeNormalization;

/// Why a text was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextError {
    /// Nothing left after trimming.
    Empty,
    /// A control, format or line/paragraph-separator character.
    InvisibleCharacter,
}

impl TextError {
    /// The German message, naming the field (e.g. "Der Name").
    pub fn message(self, field: &str) -> String {
        match self {
            TextError::Empty => format!("{field} darf nicht leer sein."),
            TextError::InvisibleCharacter => format!(
                "{field} darf keine Steuerzeichen oder unsichtbaren Formatierungszeichen enthalten."
            ),
        }
    }
}

/// A search text as lists take it: without the characters no stored name holds (control and
/// invisible ones, among them NUL, which PostgreSQL refuses in text), trimmed, at most 200
/// characters; empty means no search.
pub fn search_text(value: &str) -> String {
    let visible: String = value.chars().filter(|c| !is_invisible(*c)).collect();
    visible.trim().chars().take(200).collect()
}

/// The text trimmed and in NFC, or why it cannot be used.
pub fn clean(value: &str) -> Result<String, TextError> {
    let normalised: String = value.trim().nfc().collect();
    if normalised.chars().any(is_invisible) {
        return Err(TextError::InvisibleCharacter);
    }
    if normalised.is_empty() {
        return Err(TextError::Empty);
    }
    Ok(normalised)
}

/// A name cleaned (see [`clean`]) and `min` to `max` characters long, or the German message
/// naming `field` (e.g. "Der Name"); an empty text counts as too short.
pub fn bounded(value: &str, field: &str, min: usize, max: usize) -> Result<String, String> {
    let value = match clean(value) {
        Ok(value) => value,
        Err(TextError::Empty) => String::new(),
        Err(err) => return Err(err.message(field)),
    };
    let count = value.chars().count();
    if count < min {
        Err(format!("{field} muss mindestens {min} Zeichen lang sein."))
    } else if count > max {
        Err(format!("{field} darf höchstens {max} Zeichen lang sein."))
    } else {
        Ok(value)
    }
}

/// Control characters (Cc), format characters (Cf: soft hyphen, zero-width space and joiners,
/// bidi marks and overrides, byte-order mark, tags, …) and the line and paragraph separators.
pub fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c as u32,
            0x00AD
                | 0x0600..=0x0605
                | 0x061C
                | 0x06DD
                | 0x070F
                | 0x0890..=0x0891
                | 0x08E2
                | 0x180E
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x2064
                | 0x2066..=0x206F
                | 0xFEFF
                | 0xFFF9..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0001
                | 0xE0020..=0xE007F
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_texts_lose_what_no_name_holds() {
        assert_eq!(search_text(" M\u{0}ül\u{17}ler "), "Müller");
        assert_eq!(search_text(&"x".repeat(300)).len(), 200);
        assert_eq!(search_text("\u{0}"), "");
    }

    #[test]
    fn names_are_trimmed_and_normalised() {
        assert_eq!(clean("  Süd  ").unwrap(), "Süd");
        // "u" + combining diaeresis becomes the single character "ü".
        assert_eq!(clean("Su\u{0308}d").unwrap(), "S\u{00FC}d");
        assert_eq!(
            clean("Glasfaser & Strom (2026)").unwrap(),
            "Glasfaser & Strom (2026)"
        );
    }

    #[test]
    fn invisible_and_control_characters_are_refused() {
        for hostile in [
            "\u{200B}\u{200B}\u{200B}",
            "Name\u{0007}",
            "Na\u{001B}[31mme",
            "Name\0",
            "\u{202E}emaN",
            "Na\u{200D}me",
            "Na\u{00AD}me",
            "Name\u{2028}zwei",
            "\u{FEFF}Name",
            "Tag\u{E0041}",
            "Zeile\nzwei",
        ] {
            assert_eq!(
                clean(hostile),
                Err(TextError::InvisibleCharacter),
                "{hostile:?}"
            );
        }
    }

    #[test]
    fn blank_text_is_empty() {
        assert_eq!(clean("   "), Err(TextError::Empty));
        assert_eq!(
            clean("\u{3000}"),
            Err(TextError::Empty),
            "ideographic space is whitespace"
        );
        assert_eq!(
            TextError::Empty.message("Der Name"),
            "Der Name darf nicht leer sein."
        );
    }
}
