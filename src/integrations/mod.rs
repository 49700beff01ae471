//! Clients of third parties: Brevo, the content site, the mail server, the planning system.

pub mod brevo;
pub mod content_site;
pub mod mail;
pub mod planning;

/// An error and its sources on one line, for logs (never for answers).
pub fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
