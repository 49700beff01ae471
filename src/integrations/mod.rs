//! Clients of third parties: Brevo, the content site, the mail server, the planning system.

pub mod brevo;
pub mod content_site;
pub mod mail;
pub mod planning;

/// Why a third party's answer could not be read.
#[derive(Debug)]
pub enum BodyError {
    /// Longer than the caller takes.
    TooLarge,
    Transport(reqwest::Error),
}

/// Reads a whole answer, but at most `max` bytes: a third party (or whatever answers in its
/// place) must not be able to fill our memory.
pub async fn read_body(mut response: reqwest::Response, max: usize) -> Result<Vec<u8>, BodyError> {
    if response
        .content_length()
        .is_some_and(|len| len > max as u64)
    {
        return Err(BodyError::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(BodyError::Transport)? {
        if body.len() + chunk.len() > max {
            return Err(BodyError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

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
