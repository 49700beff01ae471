//! Errors of the Brevo client and the mapping of Brevo's error answers
//! (`{code, message, metadata?}`, `shared/reference/external-apis.md` §1.2).

use serde::Deserialize;
use serde_json::Value;

/// What went wrong talking to Brevo.
///
/// The `Display` texts are English and meant for logs; they never contain the API key, and the
/// client never puts request URLs (which may hold email addresses) into them.
/// [`BrevoError::user_message`] gives the German text for toasts.
#[derive(Debug, thiserror::Error)]
pub enum BrevoError {
    /// Brevo answered with an error body: HTTP status, Brevo's `code` and `message`.
    /// `duplicate` is set when Brevo says the object (usually a contact's email) already exists.
    #[error("Brevo rejected the request (HTTP {status}, {code}): {message}")]
    Api {
        status: u16,
        code: String,
        message: String,
        duplicate: bool,
    },
    /// 404 (`document_not_found`); callers often treat this as "already gone".
    #[error("Brevo object not found ({code}): {message}")]
    NotFound { code: String, message: String },
    /// Still 429 after all retries (or the limit resets later than the client waits).
    #[error("Brevo rate limit exceeded")]
    RateLimited,
    /// Timeout, connection error or 5xx (after the retries that were allowed).
    #[error("Brevo is unavailable: {0}")]
    Unavailable(String),
    /// A success answer whose body is not what the API describes.
    #[error("unexpected answer from Brevo: {0}")]
    InvalidResponse(String),
}

impl BrevoError {
    /// The kind of failure, as the metrics label a call's outcome.
    pub fn kind(&self) -> &'static str {
        match self {
            BrevoError::Api { .. } => "rejected",
            BrevoError::NotFound { .. } => "not_found",
            BrevoError::RateLimited => "rate_limited",
            BrevoError::Unavailable(_) => "unavailable",
            BrevoError::InvalidResponse(_) => "invalid_response",
        }
    }

    /// German text for a toast or an error page.
    pub fn user_message(&self) -> String {
        match self {
            BrevoError::Api { status: 401, .. } => {
                "Brevo hat den API-Schlüssel abgelehnt. Bitte prüfen Sie die Konfiguration."
                    .to_owned()
            }
            BrevoError::Api { code, message, .. } => {
                format!("Brevo hat die Anfrage abgelehnt: {message} ({code})")
            }
            BrevoError::NotFound { .. } => "Der Eintrag wurde in Brevo nicht gefunden.".to_owned(),
            BrevoError::RateLimited => {
                "Zu viele Anfragen an Brevo. Bitte versuchen Sie es in einer Minute erneut."
                    .to_owned()
            }
            BrevoError::Unavailable(_) => "Der Marketing-Dienst (Brevo) ist nicht erreichbar. \
                 Bitte versuchen Sie es später erneut."
                .to_owned(),
            BrevoError::InvalidResponse(_) => "Der Marketing-Dienst (Brevo) hat unerwartet \
                 geantwortet. Bitte versuchen Sie es später erneut."
                .to_owned(),
        }
    }

    /// True for [`BrevoError::NotFound`].
    /// Brevo could not be reached or did not answer in time (as opposed to refusing).
    pub fn is_unavailable(&self) -> bool {
        matches!(self, BrevoError::Unavailable(_) | BrevoError::RateLimited)
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, BrevoError::NotFound { .. })
    }

    /// True when Brevo reported a duplicate (e.g. the email belongs to another contact).
    pub fn is_duplicate(&self) -> bool {
        matches!(
            self,
            BrevoError::Api {
                duplicate: true,
                ..
            }
        )
    }

    /// True when trying again later may succeed (rate limit, outage); false when the request
    /// itself was refused.
    pub fn is_transient(&self) -> bool {
        matches!(self, BrevoError::RateLimited | BrevoError::Unavailable(_))
    }
}

/// Brevo's error body. Both fields are required by the spec, but a lenient parse keeps a
/// half-filled body useful.
#[derive(Debug, Default, Deserialize)]
struct BrevoErrorBody {
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    metadata: Option<Value>,
}

/// Whether an error body says "already exists".
///
/// Brevo signals a duplicate email with `metadata.duplicate_identifiers`, with the code
/// `duplicate_parameter`, or (older and some newer answers) only in the message text, sometimes
/// under the code `invalid_parameter`; so all three are checked (external-apis §1.2).
pub(crate) fn is_duplicate(code: &str, message: &str, metadata: Option<&Value>) -> bool {
    let has_identifiers = metadata
        .and_then(|m| m.get("duplicate_identifiers"))
        .and_then(Value::as_array)
        .is_some_and(|ids| !ids.is_empty());
    let message = message.to_lowercase();
    has_identifiers
        || code == "duplicate_parameter"
        || message.contains("already exist")
        || message.contains("already associated")
}

/// Maps a non-success answer (status outside 2xx) to an error. Never copies raw body text into
/// the error (it could hold personal data); only Brevo's `code` and `message` fields.
pub(crate) fn error_from_response(status: u16, body: &[u8]) -> BrevoError {
    let parsed = serde_json::from_slice::<BrevoErrorBody>(body)
        .ok()
        .filter(|b| b.code.is_some() || b.message.is_some());
    let reason = reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("unknown status");
    let (code, message, metadata) = match parsed {
        Some(b) => (
            b.code.unwrap_or_else(|| format!("http_{status}")),
            b.message.unwrap_or_else(|| reason.to_owned()),
            b.metadata,
        ),
        None => (
            format!("http_{status}"),
            format!("{reason} (answer without a JSON error body)"),
            None,
        ),
    };
    match status {
        404 => BrevoError::NotFound { code, message },
        429 => BrevoError::RateLimited,
        500..=599 => BrevoError::Unavailable(format!("HTTP {status} ({code}): {message}")),
        _ => BrevoError::Api {
            status,
            duplicate: is_duplicate(&code, &message, metadata.as_ref()),
            code,
            message,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(status: u16, body: Value) -> BrevoError {
        error_from_response(status, body.to_string().as_bytes())
    }

    #[test]
    fn maps_brevo_error_body() {
        let err = map(
            401,
            json!({"code": "unauthorized", "message": "Key not found"}),
        );
        match err {
            BrevoError::Api {
                status,
                code,
                message,
                duplicate,
            } => {
                assert_eq!(status, 401);
                assert_eq!(code, "unauthorized");
                assert_eq!(message, "Key not found");
                assert!(!duplicate);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn not_found_rate_limit_and_server_errors() {
        let err = map(
            404,
            json!({"code": "document_not_found", "message": "Contact does not exist"}),
        );
        assert!(matches!(&err, BrevoError::NotFound { code, .. } if code == "document_not_found"));
        assert!(err.is_not_found());
        assert!(matches!(map(429, json!({})), BrevoError::RateLimited));
        let err = map(503, json!({"code": "x", "message": "down"}));
        assert!(matches!(&err, BrevoError::Unavailable(m) if m.contains("503")));
        assert!(err.is_transient());
    }

    #[test]
    fn duplicate_detection_variants() {
        // New wording with metadata.
        let err = map(
            400,
            json!({"code": "duplicate_parameter",
                   "message": "Unable to create contact, email is already associated with another Contact",
                   "metadata": {"duplicate_identifiers": ["email"]}}),
        );
        assert!(err.is_duplicate());
        // Same message under invalid_parameter, no metadata.
        let err = map(
            400,
            json!({"code": "invalid_parameter",
                   "message": "Unable to create contact, email is already associated with another Contact"}),
        );
        assert!(err.is_duplicate());
        // Old wording.
        assert!(
            map(
                400,
                json!({"code": "duplicate_parameter", "message": "Contact already exist"})
            )
            .is_duplicate()
        );
        // Metadata alone.
        assert!(is_duplicate(
            "invalid_parameter",
            "whatever",
            Some(&json!({"duplicate_identifiers": ["ext_id"]}))
        ));
        // Not duplicates.
        assert!(!is_duplicate(
            "invalid_parameter",
            "Contact already in list and/or does not exist",
            None
        ));
        assert!(!is_duplicate(
            "invalid_parameter",
            "x",
            Some(&json!({"duplicate_identifiers": []}))
        ));
    }

    #[test]
    fn non_json_error_body_still_useful() {
        let err = error_from_response(400, b"<html><body>Bad Request</body></html>");
        match &err {
            BrevoError::Api { code, message, .. } => {
                assert_eq!(code, "http_400");
                assert!(message.contains("Bad Request"), "{message}");
                assert!(!message.contains("<html>"));
            }
            other => panic!("unexpected {other:?}"),
        }
        let err = error_from_response(502, b"");
        assert!(matches!(&err, BrevoError::Unavailable(m) if m.contains("502")));
        // A JSON body of another shape is treated like a non-JSON one.
        let err = error_from_response(403, br#"{"error":"nope"}"#);
        assert!(matches!(&err, BrevoError::Api { code, .. } if code == "http_403"));
    }

    #[test]
    fn user_messages_are_german() {
        let unavailable = BrevoError::Unavailable("timeout".into()).user_message();
        assert_eq!(
            unavailable,
            "Der Marketing-Dienst (Brevo) ist nicht erreichbar. Bitte versuchen Sie es später erneut."
        );
        let api = BrevoError::Api {
            status: 400,
            code: "invalid_parameter".into(),
            message: "name is missing".into(),
            duplicate: false,
        };
        assert_eq!(
            api.user_message(),
            "Brevo hat die Anfrage abgelehnt: name is missing (invalid_parameter)"
        );
        assert!(
            BrevoError::RateLimited
                .user_message()
                .starts_with("Zu viele Anfragen an Brevo.")
        );
    }
}
