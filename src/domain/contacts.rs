//! Rules of contacts (spec §3 "Contact", §5 "Contact create"): validated customer numbers,
//! company and person names, email addresses and salutations, with the German messages of
//! the contact form's fields (Kundennummer, Firma, E-Mail, Anrede, Vorname, Nachname).

use super::text::{self, TextError};

/// A customer number: a positive whole number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CustomerNumber(i64);

impl CustomerNumber {
    pub const MESSAGE: &'static str = "Die Kundennummer muss eine Zahl sein.";

    /// A number as a request gave it (see [`crate::domain::input::IdInput`]); `None` when it
    /// gave none or no usable one.
    pub fn new(value: Option<i64>) -> Result<CustomerNumber, String> {
        value
            .filter(|n| *n > 0)
            .map(CustomerNumber)
            .ok_or_else(|| Self::MESSAGE.to_string())
    }

    /// From text (a path, a CSV file, the planning system, Brevo): digits, spaces around them
    /// ignored.
    pub fn parse_text(text: &str) -> Result<CustomerNumber, String> {
        Self::new(text.trim().parse::<i64>().ok())
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

/// The longest name (company, first and last name), in characters.
pub const NAME_MAX_CHARS: usize = 100;

/// A name from another system (the planning system, Brevo) cut to what a name may hold:
/// trimmed, at most `NAME_MAX_CHARS` characters. Such names are taken, not refused.
pub fn clip_name(text: &str) -> String {
    text.trim().chars().take(NAME_MAX_CHARS).collect()
}

/// A name of 1 to 100 characters (company, first and last name).
fn name(value: Option<&str>, field: &str, missing: &str) -> Result<String, String> {
    let value = value.unwrap_or("");
    match text::clean(value) {
        Err(TextError::Empty) => Err(missing.to_string()),
        Err(err) => Err(err.message(field)),
        Ok(clean) if clean.chars().count() > NAME_MAX_CHARS => {
            Err(format!("{field} darf höchstens 100 Zeichen lang sein."))
        }
        Ok(clean) => Ok(clean),
    }
}

/// The company (Firma): 1 to 100 characters.
pub fn company_name(value: Option<&str>) -> Result<String, String> {
    name(value, "Die Firma", "Bitte geben Sie eine Firma an.")
}

/// A first name (Vorname): 1 to 100 characters.
pub fn first_name(value: Option<&str>) -> Result<String, String> {
    name(value, "Der Vorname", "Bitte geben Sie einen Vornamen an.")
}

/// A last name (Nachname): 1 to 100 characters.
pub fn last_name(value: Option<&str>) -> Result<String, String> {
    name(value, "Der Nachname", "Bitte geben Sie einen Nachnamen an.")
}

/// An email address, trimmed and lower-cased (the form in which it is stored and compared).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub const MESSAGE: &'static str = "Bitte geben Sie eine gültige E-Mail-Adresse an.";

    /// One `@`, a local part and a domain with a dot, no spaces or control characters, at
    /// most 254 characters: what mail servers take, without pretending to check deliverability.
    pub fn parse(value: &str) -> Result<Email, String> {
        let email = value.trim().to_lowercase();
        let invalid = || Self::MESSAGE.to_string();
        if email.is_empty() || email.len() > 254 {
            return Err(invalid());
        }
        if email.chars().any(|c| {
            c.is_whitespace()
                || text::is_invisible(c)
                || matches!(c, '<' | '>' | ',' | ';' | '"' | '\\')
        }) {
            return Err(invalid());
        }
        let (local, domain) = email.split_once('@').ok_or_else(invalid)?;
        if local.is_empty()
            || local.len() > 64
            || domain.contains('@')
            || local.starts_with('.')
            || local.ends_with('.')
            || local.contains("..")
        {
            return Err(invalid());
        }
        let labels: Vec<&str> = domain.split('.').collect();
        let valid_label = |label: &&str| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        };
        if labels.len() < 2 || !labels.iter().all(valid_label) {
            return Err(invalid());
        }
        Ok(Email(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// Salutation codes (spec §3, §9): none 0, Firma 1, Herr 2, Frau 3, Diverses 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Salutation(i16);

impl Salutation {
    pub const MESSAGE: &'static str = "Bitte wählen Sie eine Anrede (Anrede wählen).";
    /// No salutation (0).
    pub const NONE: Salutation = Salutation(0);

    /// A code as a request gave it (see [`crate::domain::input::SalutationInput`]).
    pub fn from_code(code: Option<i16>) -> Result<Salutation, String> {
        code.filter(|n| (0..=4).contains(n))
            .map(Salutation)
            .ok_or_else(|| Self::MESSAGE.to_string())
    }

    /// From text: spec §3's German word (Firma, Herr, Frau, Divers/Diverses; empty is none)
    /// or its number, as CSV files, the planning system and Brevo's ANREDE hold it.
    pub fn parse_text(text: &str) -> Result<Salutation, String> {
        let code = match text.trim().to_lowercase().as_str() {
            "" | "keine" => 0,
            "firma" => 1,
            "herr" => 2,
            "frau" => 3,
            "divers" | "diverses" => 4,
            other => {
                return Salutation::from_code(other.parse::<i16>().ok()).map_err(|_| {
                    format!(
                        "Unbekannte Anrede „{}“ (Firma, Herr, Frau oder Divers).",
                        text.trim()
                    )
                });
            }
        };
        Ok(Salutation(code))
    }

    pub fn code(self) -> i16 {
        self.0
    }

    /// The German word, as the marketing service's ANREDE attribute holds it.
    pub fn label(self) -> &'static str {
        match self.0 {
            1 => "Firma",
            2 => "Herr",
            3 => "Frau",
            4 => "Diverses",
            _ => "",
        }
    }
}

/// The refusal of an email that another customer already uses (spec §5, §8).
pub fn email_taken_message(email: &str, customer_number: i64) -> String {
    format!("Die E-Mail {email} ist bereits unter der Kundennummer {customer_number} registriert.")
}

/// The form in which emails are stored and compared: trimmed, lower-case.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_outside_are_trimmed_and_cut_to_what_a_name_holds() {
        assert_eq!(clip_name("  Anna "), "Anna");
        let long = "ä".repeat(NAME_MAX_CHARS + 5);
        assert_eq!(clip_name(&long).chars().count(), NAME_MAX_CHARS);
        assert!(first_name(Some(&clip_name(&long))).is_ok());
    }

    #[test]
    fn customer_numbers_are_positive_numbers() {
        assert_eq!(CustomerNumber::new(Some(100001)).unwrap().get(), 100001);
        assert_eq!(CustomerNumber::parse_text(" 42 ").unwrap().get(), 42);
        for bad in ["abc", "0", "-3", "1.5", ""] {
            assert_eq!(
                CustomerNumber::parse_text(bad).unwrap_err(),
                CustomerNumber::MESSAGE
            );
        }
        assert!(CustomerNumber::new(Some(0)).is_err());
        assert!(CustomerNumber::new(None).is_err());
    }

    #[test]
    fn names_are_1_to_100_characters() {
        assert_eq!(company_name(Some(" Müller GmbH ")).unwrap(), "Müller GmbH");
        assert_eq!(
            company_name(Some("")).unwrap_err(),
            "Bitte geben Sie eine Firma an."
        );
        assert_eq!(
            first_name(None).unwrap_err(),
            "Bitte geben Sie einen Vornamen an."
        );
        assert!(last_name(Some(&"x".repeat(100))).is_ok());
        assert_eq!(
            last_name(Some(&"x".repeat(101))).unwrap_err(),
            "Der Nachname darf höchstens 100 Zeichen lang sein."
        );
        assert!(first_name(Some("Ma\u{200B}x")).is_err());
    }

    #[test]
    fn emails_are_checked_and_normalised() {
        assert_eq!(
            Email::parse(" Max.Muster@Example.DE ").unwrap().as_str(),
            "max.muster@example.de"
        );
        assert!(Email::parse("vertrieb+aktion@mueller-soehne.example.de").is_ok());
        assert!(
            Email::parse("jürgen@müller.de").is_ok(),
            "international addresses"
        );
        for bad in [
            "",
            "ohne-at",
            "a@b",
            "@example.de",
            "a@@example.de",
            "a b@example.de",
            "a@example..de",
            ".a@example.de",
            "a.@example.de",
            "a..b@example.de",
            "a@-example.de",
            "\"a\"@example.de",
            "a@exam\nple.de",
            "a\u{202E}@example.de",
        ] {
            assert_eq!(Email::parse(bad).unwrap_err(), Email::MESSAGE, "{bad:?}");
        }
        assert!(Email::parse(&format!("{}@example.de", "a".repeat(65))).is_err());
    }

    #[test]
    fn salutations_are_0_to_4() {
        assert_eq!(Salutation::from_code(Some(2)).unwrap().label(), "Herr");
        assert_eq!(Salutation::parse_text("1").unwrap().label(), "Firma");
        assert_eq!(Salutation::from_code(Some(0)).unwrap().label(), "");
        assert!(Salutation::from_code(Some(5)).is_err());
        assert!(Salutation::from_code(None).is_err());
    }

    #[test]
    fn a_taken_email_names_the_customer_number() {
        assert_eq!(
            email_taken_message("max@example.de", 100002),
            "Die E-Mail max@example.de ist bereits unter der Kundennummer 100002 registriert."
        );
    }
}
