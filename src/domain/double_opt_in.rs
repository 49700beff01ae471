//! The double opt-in mail (spec §1, §4): a German confirmation request with the link, as
//! plain text and HTML, and the messages of the confirmation page.

/// What the confirmation page says when a link is unknown, expired or cannot be confirmed
/// (spec §2 "Double opt-in page", verbatim).
pub const FAILED: &str = "Die E-Mail konnte nicht bestätigt werden oder gefunden werden!";

/// The page's message after confirming.
pub const VERIFIED: &str = "Ihre E-Mail-Adresse wurde erfolgreich bestätigt.";

/// What a contact consents to on the confirmation page. Each confirmation records the
/// version of the text it was shown ([`consent_version`]), and the texts are kept, so the
/// consent can be proven after the page's words change (DSGVO Art. 7(1)).
pub const CONSENT_TEXT: &str = "Bitte bestätigen Sie, dass Sie Aktionen und Werbematerial über das Aktionsportal erhalten möchten.";

/// The version of a consent text: the hex SHA-256 of its words.
pub fn consent_version(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Characters of a confirming request's `User-Agent` kept at most.
pub const USER_AGENT_MAX_CHARS: usize = 512;

/// The `User-Agent` to keep as proof: control characters dropped, at most
/// [`USER_AGENT_MAX_CHARS`]; `None` when nothing is left.
pub fn kept_user_agent(raw: &str) -> Option<String> {
    let kept: String = raw
        .chars()
        .filter(|c| !c.is_control())
        .take(USER_AGENT_MAX_CHARS)
        .collect();
    let kept = kept.trim();
    (!kept.is_empty()).then(|| kept.to_owned())
}

/// Seconds before the confirmation page continues to the portal (spec §9).
pub const COUNTDOWN_SECONDS: u32 = 5;

/// The path of a confirmation link (spec §2: `/user/verify-double-opt-in/{…}`); the token
/// takes the place of the contact id, which would be guessable.
pub fn link_path(token: &str) -> String {
    format!("/user/verify-double-opt-in/{token}")
}

/// A composed mail: subject, plain text and HTML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailContent {
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// Who the mail greets.
pub struct Recipient<'a> {
    /// Salutation code (spec §3): 2 Herr, 3 Frau; others greet by full name.
    pub salutation: i16,
    pub firstname: &'a str,
    pub lastname: &'a str,
}

impl Recipient<'_> {
    fn greeting(&self) -> String {
        let full = format!("{} {}", self.firstname, self.lastname);
        match self.salutation {
            2 => format!("Sehr geehrter Herr {}", self.lastname),
            3 => format!("Sehr geehrte Frau {}", self.lastname),
            _ if full.trim().is_empty() => "Guten Tag".to_string(),
            _ => format!("Guten Tag {}", full.trim()),
        }
    }
}

/// The confirmation request. `link` is the absolute confirmation URL; `valid_days` how long
/// it works.
pub fn confirmation_mail(
    recipient: &Recipient<'_>,
    product_name: &str,
    link: &str,
    valid_days: i64,
) -> MailContent {
    let greeting = recipient.greeting();
    let subject =
        format!("Bitte bestätigen Sie Ihre E-Mail-Adresse für das {product_name} Aktionsportal");
    let validity = match valid_days {
        1 => "einen Tag".to_string(),
        days => format!("{days} Tage"),
    };
    let text = format!(
        "{greeting},\n\n\
         bitte bestätigen Sie Ihre E-Mail-Adresse, damit wir Ihnen Aktionen und Werbematerial \
         im {product_name} Aktionsportal bereitstellen dürfen:\n\n\
         {link}\n\n\
         Der Link ist {validity} gültig. Wenn Sie diese E-Mail nicht erwartet haben, können Sie \
         sie einfach löschen; ohne Bestätigung erhalten Sie von uns keine weiteren Nachrichten.\n\n\
         Mit freundlichen Grüßen\nIhr {product_name} Aktionsportal\n"
    );
    let (greeting, product, link_html) = (escape(&greeting), escape(product_name), escape(link));
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"de\"><head><meta charset=\"utf-8\"><title>{subject_html}</title></head>\
         <body style=\"font-family:Arial,sans-serif;color:#212529;line-height:1.5\">\
         <p>{greeting},</p>\
         <p>bitte bestätigen Sie Ihre E-Mail-Adresse, damit wir Ihnen Aktionen und Werbematerial \
         im {product} Aktionsportal bereitstellen dürfen.</p>\
         <p><a href=\"{link_html}\" style=\"display:inline-block;padding:10px 18px;background:#0b5ed7;\
         color:#ffffff;text-decoration:none;border-radius:4px\">E-Mail-Adresse bestätigen</a></p>\
         <p>Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:<br>\
         <a href=\"{link_html}\">{link_html}</a></p>\
         <p>Der Link ist {validity} gültig. Wenn Sie diese E-Mail nicht erwartet haben, können Sie \
         sie einfach löschen; ohne Bestätigung erhalten Sie von uns keine weiteren Nachrichten.</p>\
         <p>Mit freundlichen Grüßen<br>Ihr {product} Aktionsportal</p></body></html>\n",
        subject_html = escape(&subject),
    );
    MailContent {
        subject,
        text,
        html,
    }
}

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consent_versions_name_their_words() {
        assert_eq!(consent_version(CONSENT_TEXT), consent_version(CONSENT_TEXT));
        assert_ne!(
            consent_version(CONSENT_TEXT),
            consent_version("Andere Worte.")
        );
        assert_eq!(consent_version(CONSENT_TEXT).len(), 64);
    }

    #[test]
    fn user_agents_are_kept_bounded_and_printable() {
        assert_eq!(
            kept_user_agent("  Mozilla/5.0\r\n "),
            Some("Mozilla/5.0".into())
        );
        assert_eq!(kept_user_agent("\u{7}"), None);
        assert_eq!(
            kept_user_agent(&"ä".repeat(2000)).map(|s| s.chars().count()),
            Some(USER_AGENT_MAX_CHARS)
        );
    }

    fn recipient(salutation: i16) -> Recipient<'static> {
        Recipient {
            salutation,
            firstname: "Jürgen",
            lastname: "Müller <b>",
        }
    }

    #[test]
    fn greets_by_salutation() {
        assert_eq!(recipient(2).greeting(), "Sehr geehrter Herr Müller <b>");
        assert_eq!(recipient(3).greeting(), "Sehr geehrte Frau Müller <b>");
        assert_eq!(recipient(4).greeting(), "Guten Tag Jürgen Müller <b>");
        let nobody = Recipient {
            salutation: 0,
            firstname: "",
            lastname: " ",
        };
        assert_eq!(nobody.greeting(), "Guten Tag");
    }

    #[test]
    fn the_mail_carries_the_link_in_both_parts_and_escapes_names() {
        let link = "https://portal.example.de/user/verify-double-opt-in/abc?x=1&y=2";
        let mail = confirmation_mail(&recipient(2), "Netzvermarktung", link, 7);
        assert!(mail.subject.contains("Netzvermarktung Aktionsportal"));
        assert!(mail.text.contains(link));
        assert!(mail.text.contains("7 Tage gültig"));
        assert!(
            mail.html
                .contains("https://portal.example.de/user/verify-double-opt-in/abc?x=1&amp;y=2")
        );
        assert!(mail.html.contains("Müller &lt;b&gt;"));
        assert!(!mail.html.contains("<b>"));
        assert!(
            confirmation_mail(&recipient(2), "X", link, 1)
                .text
                .contains("einen Tag")
        );
    }

    #[test]
    fn links_carry_the_token() {
        assert_eq!(link_path("ab12"), "/user/verify-double-opt-in/ab12");
    }
}
