//! Outgoing mail: Brevo's transactional email when an API key is set, otherwise SMTP
//! (lettre), otherwise `.eml` files in an outbox folder under the data folder, so that a
//! fresh start without any mail server can still show what would have been sent.

use std::path::PathBuf;
use std::time::Duration;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde_json::{Map, Value};

use super::brevo::{BrevoClient, BrevoError, EmailAddress, TransactionalEmail};

/// How SMTP connections are secured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpSecurity {
    /// Plain connection upgraded with STARTTLS (required), usually port 587.
    Starttls,
    /// TLS from the first byte, usually port 465.
    Tls,
    /// No encryption: only for a relay on the same host or in tests.
    None,
}

/// The SMTP server's settings.
#[derive(Clone, Debug)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    pub security: SmtpSecurity,
    pub user: Option<String>,
    pub password: Option<String>,
    /// The longest one mail may take, from connecting to the server's last answer. lettre's
    /// own timeout covers only the connect; a server that accepts and then says nothing
    /// would otherwise hold the sender for ever.
    pub timeout: Duration,
}

/// One mail to one recipient.
#[derive(Clone, Debug)]
pub struct OutgoingMail {
    pub to_email: String,
    pub to_name: Option<String>,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Our own Message-ID (`<…@…>`); a mail sent again after a crash carries the same one.
    pub message_id: String,
    /// Values for Brevo's template of the double opt-in mail (`{{ params.NAME }}`): only that
    /// mail has them, and only it is sent with `AP_BREVO_DOI_TEMPLATE_ID` when one is set.
    pub template_params: Option<Map<String, Value>>,
    /// Further header fields, e.g. `List-Unsubscribe` (names of ASCII letters and dashes).
    pub headers: Vec<(&'static str, String)>,
    /// Brevo's tags of the mail (e.g. the package it announces); SMTP leaves them out.
    pub tags: Vec<String>,
}

impl OutgoingMail {
    /// The header fields of RFC 8058's one-click unsubscribe: a POST to `url` unsubscribes.
    pub fn one_click_unsubscribe(url: &str) -> Vec<(&'static str, String)> {
        vec![
            ("List-Unsubscribe", format!("<{url}>")),
            ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click".into()),
        ]
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error(transparent)]
    Brevo(#[from] BrevoError),
    #[error("SMTP: {message}")]
    Smtp {
        message: String,
        /// The server answered 4xx (try again later), or could not be reached.
        transient: bool,
        /// The server answered with a reply code (it refused the mail): not a connection lost
        /// after the mail may have been taken.
        replied: bool,
    },
    #[error("SMTP: no answer within {0:?}")]
    SmtpTimeout(Duration),
    #[error("outbox: {0}")]
    Outbox(String),
    #[error("invalid address: {0}")]
    Address(String),
}

impl MailError {
    /// Whether trying again later may succeed: Brevo's rate limit or its being unavailable,
    /// an SMTP server's 4xx answer or no answer at all.
    pub fn is_passing(&self) -> bool {
        match self {
            MailError::Brevo(err) => {
                matches!(err, BrevoError::RateLimited | BrevoError::Unavailable(_))
            }
            MailError::Smtp { transient, .. } => *transient,
            MailError::SmtpTimeout(_) => true,
            MailError::Outbox(_) | MailError::Address(_) => false,
        }
    }

    /// Whether the mail certainly reached nobody: Brevo or the SMTP server refused it with an
    /// answer, or it never left. A timeout, a lost connection or Brevo's 5xx leave it open
    /// (the mail may have been taken before the answer was lost), so what the mail carries,
    /// such as its unsubscribe link, must stay valid.
    pub fn certainly_not_sent(&self) -> bool {
        match self {
            MailError::Brevo(err) => matches!(
                err,
                BrevoError::Api { .. } | BrevoError::NotFound { .. } | BrevoError::RateLimited
            ),
            MailError::Smtp { replied, .. } => *replied,
            MailError::SmtpTimeout(_) => false,
            MailError::Outbox(_) | MailError::Address(_) => true,
        }
    }

    /// German text for the admin.
    pub fn user_message(&self) -> String {
        match self {
            MailError::Brevo(err) => err.user_message(),
            MailError::Smtp { .. } => {
                "Der Mailserver ist nicht erreichbar oder hat die E-Mail nicht angenommen. Bitte \
                 versuchen Sie es später erneut."
                    .into()
            }
            MailError::SmtpTimeout(_) => {
                "Der Mailserver antwortet nicht rechtzeitig. Bitte versuchen Sie es später erneut."
                    .into()
            }
            MailError::Outbox(_) => "Die E-Mail konnte nicht abgelegt werden.".into(),
            MailError::Address(_) => {
                "Die E-Mail-Adresse wird vom Mailversand nicht angenommen.".into()
            }
        }
    }
}

#[derive(Clone)]
pub enum Mailer {
    Brevo {
        client: BrevoClient,
        /// A Brevo template for the confirmation mail; without one our own text is sent.
        template_id: Option<i64>,
        sender: EmailAddress,
    },
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: Mailbox,
        /// The whole conversation for one mail.
        deadline: Duration,
        /// Where the server is, for the log.
        server: String,
    },
    Outbox {
        dir: PathBuf,
        from: Mailbox,
    },
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.describe().as_str())
    }
}

impl Mailer {
    pub fn brevo(client: BrevoClient, template_id: Option<i64>, sender: EmailAddress) -> Mailer {
        Mailer::Brevo {
            client,
            template_id,
            sender,
        }
    }

    pub fn smtp(settings: &SmtpSettings, from: Mailbox) -> Result<Mailer, MailError> {
        let builder = match settings.security {
            SmtpSecurity::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&settings.host),
            SmtpSecurity::Starttls => {
                AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&settings.host)
            }
            SmtpSecurity::None => Ok(AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(
                &settings.host,
            )),
        }
        .map_err(|e| MailError::Smtp {
            message: e.to_string(),
            transient: false,
            replied: false,
        })?;
        let mut builder = builder.port(settings.port).timeout(Some(settings.timeout));
        if let (Some(user), Some(password)) = (&settings.user, &settings.password) {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(Mailer::Smtp {
            transport: builder.build(),
            from,
            deadline: settings.timeout,
            server: format!("{}:{}", settings.host, settings.port),
        })
    }

    pub fn outbox(dir: PathBuf, from: Mailbox) -> Mailer {
        Mailer::Outbox { dir, from }
    }

    /// Where mail goes, for logs and the admin (no secrets).
    pub fn describe(&self) -> String {
        match self {
            Mailer::Brevo { template_id, .. } => match template_id {
                Some(id) => format!("Brevo (Vorlage {id})"),
                None => "Brevo".into(),
            },
            Mailer::Smtp { server, .. } => format!("SMTP {server}"),
            Mailer::Outbox { dir, .. } => format!("Ablage {}", dir.display()),
        }
    }

    /// Sends the mail; returns the message id the receiving side knows it by.
    pub async fn send(&self, mail: &OutgoingMail) -> Result<String, MailError> {
        match self {
            Mailer::Brevo {
                client,
                template_id,
                sender,
            } => {
                let to = vec![EmailAddress::new(
                    mail.to_email.clone(),
                    mail.to_name.clone(),
                )];
                let mut headers: Map<String, Value> = mail
                    .headers
                    .iter()
                    .map(|(name, value)| (name.to_string(), Value::from(value.clone())))
                    .collect();
                // Our Message-ID stays the same when a mail is sent again (a passing failure,
                // a crash after the call): Brevo then takes the repeated call for the first.
                headers.insert(
                    "Idempotency-Key".into(),
                    Value::from(mail.message_id.trim_matches(['<', '>'])),
                );
                let headers = Some(headers);
                let tags = (!mail.tags.is_empty()).then(|| mail.tags.clone());
                let body = match (template_id, &mail.template_params) {
                    (Some(id), Some(params)) => TransactionalEmail {
                        sender: sender.clone(),
                        to,
                        template_id: Some(*id),
                        params: Some(params.clone()),
                        headers,
                        tags,
                        ..TransactionalEmail::default()
                    },
                    _ => TransactionalEmail {
                        sender: sender.clone(),
                        to,
                        subject: Some(mail.subject.clone()),
                        html_content: Some(mail.html.clone()),
                        text_content: Some(mail.text.clone()),
                        headers,
                        tags,
                        ..TransactionalEmail::default()
                    },
                };
                Ok(client.send_email(&body).await?)
            }
            Mailer::Smtp {
                transport,
                from,
                deadline,
                ..
            } => {
                let message = build_message(mail, from)?;
                tokio::time::timeout(*deadline, transport.send(message))
                    .await
                    .map_err(|_| MailError::SmtpTimeout(*deadline))?
                    .map_err(|e| MailError::Smtp {
                        message: e.to_string(),
                        transient: !e.is_permanent(),
                        replied: e.status().is_some(),
                    })?;
                Ok(mail.message_id.clone())
            }
            Mailer::Outbox { dir, from } => {
                let message = build_message(mail, from)?;
                tokio::fs::create_dir_all(dir)
                    .await
                    .map_err(|e| MailError::Outbox(e.to_string()))?;
                AsyncFileTransport::<Tokio1Executor>::new(dir)
                    .send(message)
                    .await
                    .map_err(|e| MailError::Outbox(e.to_string()))?;
                Ok(mail.message_id.clone())
            }
        }
    }
}

impl Mailer {
    /// The outbox's mails to `email` (file names, oldest first); empty for the other ways of
    /// sending, which keep no copy here.
    pub async fn outbox_mails_to(&self, email: &str) -> Result<Vec<PathBuf>, MailError> {
        let Mailer::Outbox { dir, .. } = self else {
            return Ok(Vec::new());
        };
        let (dir, email) = (dir.clone(), email.to_lowercase());
        tokio::task::spawn_blocking(move || mails_to(&dir, &email))
            .await
            .map_err(|e| MailError::Outbox(e.to_string()))?
            .map_err(|e| MailError::Outbox(e.to_string()))
    }

    /// Deletes the outbox's mails to `email` (a contact's erasure); how many went.
    pub async fn forget_mails_to(&self, email: &str) -> Result<usize, MailError> {
        let files = self.outbox_mails_to(email).await?;
        for file in &files {
            match tokio::fs::remove_file(file).await {
                Ok(()) => {}
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => return Err(MailError::Outbox(err.to_string())),
            }
        }
        Ok(files.len())
    }
}

/// The `.eml` files in `dir` whose `To:` header names `email` (lower-case). Only the header
/// block of each file is read.
fn mails_to(dir: &std::path::Path, email: &str) -> std::io::Result<Vec<PathBuf>> {
    use std::io::Read;
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(err),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry?;
        let path = entry.path();
        if path.extension().is_none_or(|ext| ext != "eml") {
            continue;
        }
        let mut head = Vec::new();
        std::fs::File::open(&path)?
            .take(MAX_HEADER_BYTES)
            .read_to_end(&mut head)?;
        // Whole addresses only: a mail to `anna.mueller@…` is not one to `a.mueller@…`.
        if crate::domain::erasure::names_address(
            &recipients_line(&String::from_utf8_lossy(&head)),
            email,
        ) {
            let modified = entry.metadata()?.modified()?;
            found.push((modified, path));
        }
    }
    found.sort();
    Ok(found.into_iter().map(|(_, path)| path).collect())
}

/// How much of a mail file is read to find its header (lettre writes a few hundred bytes).
const MAX_HEADER_BYTES: u64 = 64 * 1024;

/// The `To:` header of a mail, unfolded and lower-cased ("" without one).
fn recipients_line(mail: &str) -> String {
    let header = mail.split("\r\n\r\n").next().unwrap_or_default();
    let header = header.split("\n\n").next().unwrap_or_default();
    let mut lines: Vec<String> = Vec::new();
    for line in header.lines() {
        match lines.last_mut() {
            Some(last) if line.starts_with([' ', '\t']) => last.push_str(line),
            _ => lines.push(line.to_owned()),
        }
    }
    lines
        .into_iter()
        .find(|line| {
            line.get(..3)
                .is_some_and(|name| name.eq_ignore_ascii_case("to:"))
        })
        .map(|line| line.to_lowercase())
        .unwrap_or_default()
}

/// A multipart/alternative message: plain text first, HTML second.
fn build_message(mail: &OutgoingMail, from: &Mailbox) -> Result<Message, MailError> {
    let to_address = mail
        .to_email
        .parse()
        .map_err(|e: lettre::address::AddressError| MailError::Address(e.to_string()))?;
    let to = Mailbox::new(mail.to_name.clone(), to_address);
    let mut builder = Message::builder();
    for (name, value) in &mail.headers {
        builder = builder.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str(name),
            value.clone(),
        ));
    }
    builder
        .from(from.clone())
        .to(to)
        .subject(mail.subject.clone())
        .message_id(Some(mail.message_id.clone()))
        .multipart(
            MultiPart::alternative()
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_PLAIN)
                        .body(mail.text.clone()),
                )
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(mail.html.clone()),
                ),
        )
        .map_err(|e| MailError::Address(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_answer_or_no_departure_makes_certain_a_mail_reached_nobody() {
        let brevo = |err| MailError::Brevo(err);
        let refused = BrevoError::Api {
            status: 400,
            code: "invalid_parameter".into(),
            message: "email is not valid".into(),
            duplicate: false,
        };
        assert!(brevo(refused).certainly_not_sent());
        assert!(brevo(BrevoError::RateLimited).certainly_not_sent());
        // Brevo's 5xx or no answer: the mail may have been taken.
        assert!(
            !brevo(BrevoError::Unavailable("no answer within 10s".into())).certainly_not_sent()
        );
        assert!(!brevo(BrevoError::InvalidResponse("no messageId".into())).certainly_not_sent());
        let smtp = |replied| MailError::Smtp {
            message: "451 try later".into(),
            transient: true,
            replied,
        };
        assert!(smtp(true).certainly_not_sent(), "the server refused it");
        assert!(
            !smtp(false).certainly_not_sent(),
            "the connection broke off"
        );
        assert!(!MailError::SmtpTimeout(Duration::from_secs(12)).certainly_not_sent());
        assert!(MailError::Outbox("voll".into()).certainly_not_sent());
    }

    fn mail() -> OutgoingMail {
        OutgoingMail {
            to_email: "jürgen@example.de".into(),
            to_name: Some("Jürgen Müller".into()),
            subject: "Bitte bestätigen Sie Ihre E-Mail-Adresse".into(),
            text: "Link: https://portal.example.de/user/verify-double-opt-in/abc".into(),
            html: "<p>Link</p>".into(),
            message_id: "<doi-1-2@aktionsportal>".into(),
            template_params: Some(Map::new()),
            headers: OutgoingMail::one_click_unsubscribe("https://portal.example.de/abmelden/t"),
            tags: Vec::new(),
        }
    }

    #[tokio::test]
    async fn the_outbox_keeps_a_readable_mail() {
        let dir = tempfile::tempdir().unwrap();
        let from: Mailbox = "Aktionsportal <portal@example.de>".parse().unwrap();
        let mailer = Mailer::outbox(dir.path().join("outbox"), from);
        let id = mailer.send(&mail()).await.unwrap();
        assert_eq!(id, "<doi-1-2@aktionsportal>");
        let files: Vec<_> = std::fs::read_dir(dir.path().join("outbox"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].extension().unwrap(), "eml");
        let text = std::fs::read_to_string(&files[0]).unwrap();
        assert!(
            text.contains("Message-ID: <doi-1-2@aktionsportal>"),
            "{text}"
        );
        assert!(text.contains("multipart/alternative"));
        assert!(text.contains("verify-double-opt-in/abc"));
        assert!(
            text.contains("List-Unsubscribe: <https://portal.example.de/abmelden/t>")
                && text.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
            "the header fields the mail was given: {text}"
        );
    }

    #[tokio::test]
    async fn the_outbox_finds_and_forgets_the_mails_to_one_address() {
        let dir = tempfile::tempdir().unwrap();
        let from: Mailbox = "Aktionsportal <portal@example.de>".parse().unwrap();
        let mailer = Mailer::outbox(dir.path().join("outbox"), from);
        assert!(
            mailer
                .outbox_mails_to("x@example.de")
                .await
                .unwrap()
                .is_empty()
        );
        mailer.send(&mail()).await.unwrap();
        mailer.send(&mail()).await.unwrap();
        let mut other = mail();
        other.to_email = "bernd@example.de".into();
        other.text = "Kopie an jürgen@example.de".into();
        mailer.send(&other).await.unwrap();
        assert_eq!(
            mailer
                .outbox_mails_to("JÜRGEN@example.de")
                .await
                .unwrap()
                .len(),
            2
        );
        // Addresses that merely contain jürgen's, or add a +tag, are other people's.
        for address in [
            "hans.jürgen@example.de",
            "jürgen+news@example.de",
            "jürgen@example.dev",
        ] {
            let mut near = mail();
            near.to_email = address.into();
            mailer.send(&near).await.unwrap();
        }
        assert_eq!(
            mailer.forget_mails_to("jürgen@example.de").await.unwrap(),
            2
        );
        let left: Vec<_> = std::fs::read_dir(dir.path().join("outbox"))
            .unwrap()
            .collect();
        assert_eq!(left.len(), 4, "the mails to someone else stay");
        assert_eq!(
            mailer
                .outbox_mails_to("bernd@example.de")
                .await
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn the_recipient_line_is_unfolded() {
        let mail = "From: a@b.de\r\nTo: =?utf-8?b?SsO8cmdlbg==?=\r\n <Juergen@Example.de>\r\n\r\nTo: x@y.de";
        assert_eq!(
            recipients_line(mail),
            "to: =?utf-8?b?sso8cmdlbg==?= <juergen@example.de>"
        );
        assert_eq!(recipients_line("Subject: x\r\n\r\nbody"), "");
    }

    #[test]
    fn a_bad_address_is_refused_before_sending() {
        let from: Mailbox = "portal@example.de".parse().unwrap();
        let mut bad = mail();
        bad.to_email = "kein at".into();
        assert!(matches!(
            build_message(&bad, &from),
            Err(MailError::Address(_))
        ));
    }
}
