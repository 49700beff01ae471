//! Rules of a package's mails (issue 37): the announcement's subject and text with their
//! placeholders, the days of the notice before the end, the sender's legal details, and the
//! two mails as they are sent (plain text and HTML, each with the way to unsubscribe).

use super::double_opt_in::{MailContent, escape};
use super::text::is_invisible;
use unicode_normalization::UnicodeNormalization;

/// The placeholders a subject or text may hold, as written there (between braces).
pub const PLACEHOLDERS: [&str; 4] = ["Paket", "Anbieter", "Gültig ab", "Gültig bis"];

/// The template a new announcement starts from.
pub const DEFAULT_SUBJECT: &str = "Neu im Aktionsportal: {Paket}";
pub const DEFAULT_TEXT: &str = "ab {Gültig ab} finden Sie im Aktionsportal das neue Paket \
„{Paket}“ von {Anbieter}. Es gilt bis {Gültig bis}.\n\nAlle Dateien können Sie einzeln oder \
als ZIP-Datei herunterladen.";

/// A package's facts as the placeholders give them (dates in German time, `dd.mm.yyyy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageFacts {
    pub name: String,
    pub provider: String,
    pub start: String,
    pub end: String,
}

impl PackageFacts {
    fn value(&self, placeholder: &str) -> &str {
        match placeholder {
            "Paket" => &self.name,
            "Anbieter" => &self.provider,
            "Gültig ab" => &self.start,
            _ => &self.end,
        }
    }
}

/// One piece of a template: text as written, or a known placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
enum TemplatePart {
    Text(String),
    Placeholder(&'static str),
}

/// A subject or text whose placeholders are all known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    source: String,
    pieces: Vec<TemplatePart>,
}

impl Template {
    /// Splits `source` into text and placeholders; an unknown or unclosed placeholder is
    /// refused with a German message that names it.
    fn parse(source: String) -> Result<Template, String> {
        let mut pieces = Vec::new();
        let mut rest = source.as_str();
        while let Some(open) = rest.find('{') {
            if open > 0 {
                pieces.push(TemplatePart::Text(rest[..open].to_string()));
            }
            let after = &rest[open + 1..];
            let Some(close) = after
                .find(['}', '{'])
                .filter(|&i| after[i..].starts_with('}'))
            else {
                let shown: String = after.chars().take(20).collect();
                return Err(format!(
                    "Der Platzhalter „{{{shown}“ wird nicht mit „}}“ geschlossen. {}",
                    known_placeholders()
                ));
            };
            let name = &after[..close];
            let Some(known) = PLACEHOLDERS.iter().find(|known| **known == name.trim()) else {
                return Err(format!(
                    "Den Platzhalter „{{{name}}}“ gibt es nicht. {}",
                    known_placeholders()
                ));
            };
            pieces.push(TemplatePart::Placeholder(known));
            rest = &after[close + 1..];
        }
        if !rest.is_empty() {
            pieces.push(TemplatePart::Text(rest.to_string()));
        }
        Ok(Template { source, pieces })
    }

    /// The template as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The text with each placeholder replaced by the package's fact.
    pub fn fill(&self, facts: &PackageFacts) -> String {
        self.pieces
            .iter()
            .map(|piece| match piece {
                TemplatePart::Text(text) => text.as_str(),
                TemplatePart::Placeholder(name) => facts.value(name),
            })
            .collect()
    }
}

fn known_placeholders() -> String {
    "Möglich sind {Paket}, {Anbieter}, {Gültig ab} und {Gültig bis}.".to_string()
}

/// The announcement's subject (one line, 3 to 150 characters) and text (up to 2,000
/// characters, with line breaks), both with known placeholders only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnouncementText {
    pub subject: Template,
    pub text: Template,
}

impl AnnouncementText {
    pub const SUBJECT_MIN: usize = 3;
    pub const SUBJECT_MAX: usize = 150;
    pub const TEXT_MAX: usize = 2000;

    pub fn parse(subject: &str, text: &str) -> Result<AnnouncementText, String> {
        let subject =
            super::text::bounded(subject, "Der Betreff", Self::SUBJECT_MIN, Self::SUBJECT_MAX)?;
        let text = multi_line(text, "Der Text", Self::TEXT_MAX)?;
        Ok(AnnouncementText {
            subject: Template::parse(subject)?,
            text: Template::parse(text)?,
        })
    }

    pub fn default_template() -> AnnouncementText {
        AnnouncementText::parse(DEFAULT_SUBJECT, DEFAULT_TEXT).expect("the default is valid")
    }
}

/// A text of several lines: line ends as `\n`, each line trimmed at its end, no invisible
/// characters, not empty, at most `max` characters.
fn multi_line(value: &str, field: &str, max: usize) -> Result<String, String> {
    let normalised: String = value.replace("\r\n", "\n").nfc().collect();
    let lines: Vec<&str> = normalised.trim().lines().map(str::trim_end).collect();
    let text = lines.join("\n");
    if text.chars().any(|c| c != '\n' && is_invisible(c)) {
        return Err(format!(
            "{field} darf keine Steuerzeichen oder unsichtbaren Formatierungszeichen enthalten."
        ));
    }
    if text.is_empty() {
        return Err(format!("{field} darf nicht leer sein."));
    }
    if text.chars().count() > max {
        return Err(format!("{field} darf höchstens {max} Zeichen lang sein."));
    }
    Ok(text)
}

/// Days before a package's end on which its takers are told ("Erinnerung vor Ablauf");
/// 0 switches the notice off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReminderDays(u16);

impl ReminderDays {
    pub const DEFAULT: ReminderDays = ReminderDays(3);
    pub const MAX: u16 = 60;

    pub fn parse(days: i64) -> Result<ReminderDays, String> {
        u16::try_from(days)
            .ok()
            .filter(|days| *days <= Self::MAX)
            .map(ReminderDays)
            .ok_or_else(|| {
                format!(
                    "Die Erinnerung vor Ablauf muss zwischen 0 und {} Tagen liegen (0 schaltet sie aus).",
                    Self::MAX
                )
            })
    }

    pub fn get(self) -> u16 {
        self.0
    }

    pub fn is_off(self) -> bool {
        self.0 == 0
    }

    /// Whether the notice before an end on German day `end_day` is due on German day
    /// `today`: from the day this many days before the end on (a package saved later than
    /// that is told at once), never when switched off.
    pub fn is_due(self, today: chrono::NaiveDate, end_day: chrono::NaiveDate) -> bool {
        !self.is_off() && today + chrono::Duration::days(i64::from(self.0)) >= end_day
    }
}

/// The sender's legal details (Impressum, DDG §5), as configured; each non-empty line is
/// printed under every mail that advertises.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SenderDetails {
    pub lines: Vec<String>,
}

/// The unsubscribe link's token in the preview and the test mail, which reach no contact: its
/// page says what the link does in a mail that is sent.
pub const PREVIEW_UNSUBSCRIBE_TOKEN: &str = "vorschau";

/// The links every advertising mail carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailLinks {
    /// The package opened on the customer page.
    pub package: String,
    /// The page that unsubscribes (one click by POST, a button for a GET).
    pub unsubscribe: String,
}

/// The announcement as sent: the filled subject and text, the package's logo and preview
/// images (absolute URLs, at most four shown), the button "Zum Paket" and the footer.
pub fn announcement_mail(
    template: &AnnouncementText,
    facts: &PackageFacts,
    images: &MailImages,
    links: &MailLinks,
    sender: &SenderDetails,
    product_name: &str,
) -> MailContent {
    let subject = template.subject.fill(facts);
    let body = template.text.fill(facts);
    let text = format!(
        "Guten Tag,\n\n{body}\n\nZum Paket: {package}\n\n{footer}",
        package = links.package,
        footer = text_footer(links, sender, product_name),
    );
    let paragraphs: String = body
        .split("\n\n")
        .map(|paragraph| format!("<p>{}</p>", escape(paragraph).replace('\n', "<br>")))
        .collect();
    let logo = images
        .logo
        .as_deref()
        .map(|src| {
            format!(
                "<p><img src=\"{}\" alt=\"{}\" style=\"max-height:48px;max-width:200px\"></p>",
                escape(src),
                escape(&facts.provider)
            )
        })
        .unwrap_or_default();
    let previews: String = images
        .previews
        .iter()
        .take(4)
        .map(|src| {
            format!(
                "<img src=\"{}\" alt=\"\" width=\"120\" style=\"margin:0 8px 8px 0;border:1px solid #dee2e6;vertical-align:top\">",
                escape(src)
            )
        })
        .collect();
    let previews = wrapped("p", &previews);
    let html = html_page(
        &subject,
        &format!(
            "{logo}<p>Guten Tag,</p>{paragraphs}\
             <p><strong>{name}</strong><br>Gültig vom {start} bis {end}</p>{previews}\
             <p>{button}</p>{footer}",
            name = escape(&facts.name),
            start = escape(&facts.start),
            end = escape(&facts.end),
            button = button(&links.package, "Zum Paket"),
            footer = html_footer(links, sender, product_name),
        ),
    );
    MailContent {
        subject,
        text,
        html,
    }
}

/// Images an announcement shows, as absolute URLs a mail program may load.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MailImages {
    pub logo: Option<String>,
    pub previews: Vec<String>,
}

/// The notice before the end to the contacts of a customer number that took the package:
/// it names the package, its end in German time and the files taken, and says the material
/// must not be used after the end (UWG §5).
pub fn end_notice_mail(
    facts: &PackageFacts,
    files: &[String],
    links: &MailLinks,
    sender: &SenderDetails,
    product_name: &str,
) -> MailContent {
    let subject = format!("Endet am {}: {}", facts.end, facts.name);
    let intro = format!(
        "das Paket „{}“ von {} endet am {}. Bitte verwenden Sie das Material danach nicht mehr: \
         Werbung für ein beendetes Angebot ist irreführend.",
        facts.name, facts.provider, facts.end
    );
    let taken = if files.is_empty() {
        "Sie haben Dateien aus diesem Paket heruntergeladen.".to_string()
    } else {
        "Sie haben diese Dateien aus dem Paket heruntergeladen:".to_string()
    };
    let file_lines: String = files.iter().map(|name| format!("- {name}\n")).collect();
    let text = format!(
        "Guten Tag,\n\n{intro}\n\n{taken}\n{file_lines}\nZum Paket: {package}\n\n{footer}",
        package = links.package,
        footer = text_footer(links, sender, product_name),
    );
    let file_items: String = files
        .iter()
        .map(|name| format!("<li>{}</li>", escape(name)))
        .collect();
    let file_list = wrapped("ul", &file_items);
    let html = html_page(
        &subject,
        &format!(
            "<p>Guten Tag,</p><p>{intro}</p><p>{taken}</p>{file_list}<p>{button}</p>{footer}",
            intro = escape(&intro),
            taken = escape(&taken),
            button = button(&links.package, "Zum Paket"),
            footer = html_footer(links, sender, product_name),
        ),
    );
    MailContent {
        subject,
        text,
        html,
    }
}

fn text_footer(links: &MailLinks, sender: &SenderDetails, product_name: &str) -> String {
    let legal: String = sender
        .lines
        .iter()
        .map(|line| format!("{line}\n"))
        .collect();
    format!(
        "Mit freundlichen Grüßen\nIhr {product_name} Aktionsportal\n\n--\n{legal}\n\
         Sie erhalten diese E-Mail, weil Sie der Zusendung von Aktionen zugestimmt haben. \
         Abmelden: {unsubscribe}\n",
        unsubscribe = links.unsubscribe,
    )
}

fn html_footer(links: &MailLinks, sender: &SenderDetails, product_name: &str) -> String {
    let legal: Vec<String> = sender.lines.iter().map(|line| escape(line)).collect();
    format!(
        "<p>Mit freundlichen Grüßen<br>Ihr {product} Aktionsportal</p>\
         <hr style=\"border:0;border-top:1px solid #dee2e6\">\
         <p style=\"font-size:13px;color:#495057\">{legal}</p>\
         <p style=\"font-size:13px;color:#495057\">Sie erhalten diese E-Mail, weil Sie der \
         Zusendung von Aktionen zugestimmt haben. <a href=\"{unsubscribe}\" \
         style=\"color:#004b87\">Abmelden</a></p>",
        product = escape(product_name),
        legal = legal.join("<br>"),
        unsubscribe = escape(&links.unsubscribe),
    )
}

/// `inner` in the element `tag`, or nothing when `inner` is empty.
fn wrapped(tag: &str, inner: &str) -> String {
    if inner.is_empty() {
        String::new()
    } else {
        format!("<{tag}>{inner}</{tag}>")
    }
}

fn button(href: &str, label: &str) -> String {
    format!(
        "<a href=\"{}\" style=\"display:inline-block;padding:10px 18px;background:#004b87;\
         color:#ffffff;text-decoration:none;border-radius:4px\">{}</a>",
        escape(href),
        escape(label)
    )
}

fn html_page(subject: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"de\"><head><meta charset=\"utf-8\"><title>{}</title></head>\
         <body style=\"font-family:Arial,sans-serif;color:#212529;line-height:1.5\">{body}</body></html>\n",
        escape(subject)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> PackageFacts {
        PackageFacts {
            name: "Frühjahr <Glasfaser>".into(),
            provider: "Glasfaser Nord".into(),
            start: "01.03.2027".into(),
            end: "31.03.2027".into(),
        }
    }

    fn links() -> MailLinks {
        MailLinks {
            package: "https://portal.example/user/downloads?paket=7".into(),
            unsubscribe: "https://portal.example/abmelden/abc".into(),
        }
    }

    #[test]
    fn every_placeholder_is_filled_with_the_packages_fact() {
        let template = AnnouncementText::parse(
            "{Paket} von {Anbieter}",
            "Von {Gültig ab} bis {Gültig bis}: {Paket}.\n\nZweiter {Paket}",
        )
        .unwrap();
        assert_eq!(
            template.subject.fill(&facts()),
            "Frühjahr <Glasfaser> von Glasfaser Nord"
        );
        assert_eq!(
            template.text.fill(&facts()),
            "Von 01.03.2027 bis 31.03.2027: Frühjahr <Glasfaser>.\n\nZweiter Frühjahr <Glasfaser>"
        );
    }

    #[test]
    fn an_unknown_placeholder_is_refused_by_its_name() {
        let error = AnnouncementText::parse("Neu: {Produkt}", "Text").unwrap_err();
        assert!(error.contains("„{Produkt}“ gibt es nicht"), "{error}");
        assert!(error.contains("{Gültig bis}"), "{error}");
        let error = AnnouncementText::parse("Neu", "Ab {gültig ab}").unwrap_err();
        assert!(error.contains("„{gültig ab}“"), "{error}");
    }

    #[test]
    fn an_unclosed_brace_is_refused() {
        let error = AnnouncementText::parse("Neu: {Paket", "Text").unwrap_err();
        assert!(error.contains("nicht mit „}“ geschlossen"), "{error}");
        let error = AnnouncementText::parse("Neu", "{Paket {Anbieter}").unwrap_err();
        assert!(error.contains("nicht mit „}“ geschlossen"), "{error}");
    }

    #[test]
    fn a_closing_brace_alone_is_text() {
        let template = AnnouncementText::parse("Neu :-}", "Text }").unwrap();
        assert_eq!(template.subject.fill(&facts()), "Neu :-}");
    }

    #[test]
    fn subject_and_text_are_bounded_and_cleaned() {
        assert!(AnnouncementText::parse("ab", "Text").is_err());
        assert!(AnnouncementText::parse(&"x".repeat(151), "Text").is_err());
        assert!(AnnouncementText::parse("Neu", "  \n ").is_err());
        assert!(AnnouncementText::parse("Neu", &"x".repeat(2001)).is_err());
        assert!(AnnouncementText::parse("Neu", "Text\u{202e}").is_err());
        assert!(AnnouncementText::parse("Neu\nZeile", "Text").is_err());
        let template = AnnouncementText::parse(" Neu ", "Zeile  \r\n\r\nAbsatz\n").unwrap();
        assert_eq!(template.subject.as_str(), "Neu");
        assert_eq!(template.text.as_str(), "Zeile\n\nAbsatz");
    }

    #[test]
    fn the_default_template_is_valid() {
        let template = AnnouncementText::default_template();
        assert_eq!(
            template.subject.fill(&facts()),
            "Neu im Aktionsportal: Frühjahr <Glasfaser>"
        );
    }

    #[test]
    fn reminder_days_are_0_to_60() {
        assert!(ReminderDays::parse(0).unwrap().is_off());
        assert_eq!(ReminderDays::parse(60).unwrap().get(), 60);
        assert!(ReminderDays::parse(61).is_err());
        assert!(ReminderDays::parse(-1).is_err());
        assert_eq!(ReminderDays::DEFAULT.get(), 3);
    }

    #[test]
    fn the_end_notice_is_due_from_its_day_before_the_end_on() {
        let day = |d: u32| chrono::NaiveDate::from_ymd_opt(2026, 12, d).unwrap();
        let three = ReminderDays::parse(3).unwrap();
        assert!(!three.is_due(day(1), day(5)));
        assert!(three.is_due(day(2), day(5)));
        assert!(three.is_due(day(4), day(5)));
        assert!(!ReminderDays::parse(0).unwrap().is_due(day(5), day(5)));
    }

    #[test]
    fn the_announcement_has_both_parts_with_link_unsubscribe_and_legal_details() {
        let sender = SenderDetails {
            lines: vec![
                "Muster GmbH, Hauptstr. 1, 12345 Berlin".into(),
                "HRB 1234".into(),
            ],
        };
        let images = MailImages {
            logo: Some("https://portal.example/logo.png".into()),
            previews: (0..6)
                .map(|i| format!("https://portal.example/p/{i}"))
                .collect(),
        };
        let mail = announcement_mail(
            &AnnouncementText::default_template(),
            &facts(),
            &images,
            &links(),
            &sender,
            "Muster",
        );
        assert_eq!(mail.subject, "Neu im Aktionsportal: Frühjahr <Glasfaser>");
        assert!(
            mail.text
                .contains("Zum Paket: https://portal.example/user/downloads?paket=7")
        );
        assert!(
            mail.text
                .contains("Abmelden: https://portal.example/abmelden/abc")
        );
        assert!(mail.text.contains("HRB 1234"));
        assert!(mail.html.contains("Frühjahr &lt;Glasfaser&gt;"));
        assert!(!mail.html.contains("<Glasfaser>"));
        assert!(mail.html.contains(">Zum Paket</a>"));
        assert!(mail.html.contains(">Abmelden</a>"));
        assert_eq!(mail.html.matches("https://portal.example/p/").count(), 4);
        assert!(mail.html.contains("Muster GmbH, Hauptstr. 1"));
    }

    #[test]
    fn the_end_notice_names_the_end_and_the_files_taken() {
        let mail = end_notice_mail(
            &facts(),
            &["Flyer A4.pdf".into(), "Plakat <A1>.pdf".into()],
            &links(),
            &SenderDetails::default(),
            "Muster",
        );
        assert_eq!(mail.subject, "Endet am 31.03.2027: Frühjahr <Glasfaser>");
        assert!(mail.text.contains("endet am 31.03.2027"));
        assert!(mail.text.contains("- Flyer A4.pdf\n- Plakat <A1>.pdf\n"));
        assert!(mail.text.contains("nicht mehr"));
        assert!(mail.html.contains("<li>Plakat &lt;A1&gt;.pdf</li>"));
        assert!(mail.html.contains(">Abmelden</a>"));
    }
}
