//! The service layer's error; the API layer maps it to statuses and `{message, code}`.

use crate::integrations::brevo::BrevoError;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("nicht gefunden")]
    NotFound,
    #[error("keine Berechtigung")]
    Forbidden,
    /// Not allowed, with the German reason for the user (403).
    #[error("{0}")]
    Refused(String),
    /// Invalid input, with the German message for the user.
    #[error("{0}")]
    Invalid(String),
    /// The request contradicts the current state (e.g. deleting an active list).
    #[error("{message}")]
    Conflict { code: &'static str, message: String },
    /// The marketing service refused or was unreachable; nothing was changed.
    #[error(transparent)]
    Marketing(#[from] BrevoError),
    /// Another third party (the mail server) refused or could not be reached, with the
    /// German message for the user.
    #[error("{0}")]
    Upstream(String),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for ServiceError {
    fn from(err: sqlx::Error) -> Self {
        ServiceError::Internal(err.into())
    }
}

/// The answer while the bucket of the files cannot be reached (503).
pub const FILE_STORE_UNAVAILABLE: &str =
    "Der Dateispeicher ist gerade nicht erreichbar. Bitte versuchen Sie es in einer Minute erneut.";

/// The answer while the database cannot be reached (503).
pub const DATABASE_UNAVAILABLE: &str =
    "Die Datenbank ist gerade nicht erreichbar. Bitte versuchen Sie es in einer Minute erneut.";

pub type ServiceResult<T> = Result<T, ServiceError>;
