//! The HTTP layer's error: every failed call answers `{ "message", "code" }` with the right
//! status. Causes of 500s are logged, never sent.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("nicht angemeldet")]
    Unauthorized { code: &'static str },
    #[error("keine Berechtigung")]
    Forbidden,
    /// Not allowed, with the German reason.
    #[error("{message}")]
    Refused { message: String },
    /// A state-changing request from another site (CSRF protection).
    #[error("fremde Herkunft")]
    CrossSite,
    #[error("nicht gefunden")]
    NotFound,
    #[error("{message}")]
    Validation { message: String },
    #[error("{message}")]
    Conflict { code: &'static str, message: String },
    /// The marketing service refused or could not be reached; nothing was changed.
    #[error("{message}")]
    Upstream { message: String },
    #[error("{message}")]
    PayloadTooLarge { message: String },
    #[error("{message}")]
    Unprocessable { message: String },
    /// An uploaded file over the size limit (spec §8: warning with fileName and limitSizeMB).
    #[error("Datei zu groß")]
    UploadTooLarge {
        file_name: String,
        limit_size_mb: u64,
    },
    /// Uploaded files with extensions that are not allowed (spec §8: warning with
    /// filesOverExtLimit, allowedExtArray and fileExtensions).
    #[error("Dateityp nicht erlaubt")]
    ExtensionNotAllowed {
        files_over_ext_limit: Vec<String>,
        file_extensions: Vec<String>,
        allowed_ext_array: Vec<String>,
    },
    /// The client sent its request body too slowly (or stopped sending).
    #[error("zu langsam gesendet")]
    SlowRequest,
    /// The call took longer than the request time limit.
    #[error("Zeitüberschreitung")]
    Timeout,
    /// The database or the file store cannot be reached (503, with its code).
    #[error("{message}")]
    Unavailable { code: &'static str, message: String },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

use crate::server::refusal::Refusal;
use crate::services::error::{DATABASE_UNAVAILABLE, FILE_STORE_UNAVAILABLE, LIST_TOO_SLOW};

impl ApiError {
    pub fn validation(message: impl Into<String>) -> Self {
        ApiError::Validation {
            message: message.into(),
        }
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        ApiError::Conflict {
            code: "conflict",
            message: message.into(),
        }
    }

    fn status_code_message(&self) -> (StatusCode, &'static str, String) {
        match self {
            ApiError::Unauthorized { code } => (
                StatusCode::UNAUTHORIZED,
                code,
                Refusal::NotLoggedIn.message().into(),
            ),
            ApiError::Forbidden => refused(Refusal::Forbidden),
            ApiError::Refused { message } => (StatusCode::FORBIDDEN, "forbidden", message.clone()),
            ApiError::CrossSite => refused(Refusal::CrossSite),
            ApiError::NotFound => (
                StatusCode::NOT_FOUND,
                "not_found",
                "Kein Eintrag gefunden!".into(),
            ),
            ApiError::Validation { message } => {
                (StatusCode::BAD_REQUEST, "validation_error", message.clone())
            }
            ApiError::Conflict { code, message } => (StatusCode::CONFLICT, code, message.clone()),
            ApiError::Upstream { message } => (
                StatusCode::BAD_GATEWAY,
                "marketing_service_error",
                message.clone(),
            ),
            ApiError::PayloadTooLarge { message } => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                message.clone(),
            ),
            ApiError::Unprocessable { message } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "unprocessable",
                message.clone(),
            ),
            ApiError::UploadTooLarge {
                file_name,
                limit_size_mb,
            } => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                format!(
                    "Die Datei {file_name} ist zu groß. Erlaubt sind höchstens {limit_size_mb} MB."
                ),
            ),
            ApiError::ExtensionNotAllowed {
                files_over_ext_limit,
                allowed_ext_array,
                ..
            } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "file_extension_not_allowed",
                format!(
                    "Diese Dateien haben einen nicht erlaubten Dateityp: {}. Erlaubt sind: {}.",
                    files_over_ext_limit.join(", "),
                    allowed_ext_array.join(", ")
                ),
            ),
            ApiError::SlowRequest => (
                StatusCode::REQUEST_TIMEOUT,
                "request_timeout",
                "Die Daten der Anfrage kamen zu langsam oder unvollständig an. Bitte versuchen Sie es erneut."
                    .into(),
            ),
            ApiError::Timeout => refused(Refusal::Timeout),
            ApiError::Unavailable { code, message } => {
                (StatusCode::SERVICE_UNAVAILABLE, code, message.clone())
            }
            ApiError::Internal(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                "Ein unerwarteter Fehler ist aufgetreten!".into(),
            ),
        }
    }
}

/// A refusal of the request layers, in the same words.
fn refused(refusal: Refusal) -> (StatusCode, &'static str, String) {
    (refusal.status(), refusal.code(), refusal.message().into())
}

impl From<crate::services::error::ServiceError> for ApiError {
    fn from(err: crate::services::error::ServiceError) -> Self {
        use crate::services::error::ServiceError;
        match err {
            ServiceError::NotFound => ApiError::NotFound,
            ServiceError::Forbidden => ApiError::Forbidden,
            ServiceError::Refused(message) => ApiError::Refused { message },
            ServiceError::Invalid(message) => ApiError::Validation { message },
            ServiceError::Conflict { code, message } => ApiError::Conflict { code, message },
            ServiceError::Marketing(err) => {
                tracing::warn!(error = %err, "marketing service call failed");
                ApiError::Upstream {
                    message: err.user_message(),
                }
            }
            ServiceError::Upstream(message) => ApiError::Upstream { message },
            ServiceError::DatabaseUnavailable(err) => {
                tracing::warn!(error = %err, "database unavailable");
                ApiError::Unavailable {
                    code: "database_unavailable",
                    message: DATABASE_UNAVAILABLE.into(),
                }
            }
            ServiceError::FileStoreUnavailable(err) => {
                tracing::warn!(error = %err, "file store unavailable");
                ApiError::Unavailable {
                    code: "file_store_unavailable",
                    message: FILE_STORE_UNAVAILABLE.into(),
                }
            }
            // The code of the request time limit, which these calls already describe.
            ServiceError::TooSlow => ApiError::Unavailable {
                code: "timeout",
                message: LIST_TOO_SLOW.into(),
            },
            ServiceError::Internal(err) => ApiError::Internal(err),
        }
    }
}

impl From<crate::services::catalog::uploads::UploadError> for ApiError {
    fn from(err: crate::services::catalog::uploads::UploadError) -> Self {
        use crate::services::catalog::uploads::UploadError;
        match err {
            UploadError::TooLarge {
                file_name,
                limit_size_mb,
            } => ApiError::UploadTooLarge {
                file_name,
                limit_size_mb,
            },
            UploadError::ExtensionNotAllowed {
                files_over_ext_limit,
                file_extensions,
                allowed_ext_array,
            } => ApiError::ExtensionNotAllowed {
                files_over_ext_limit,
                file_extensions,
                allowed_ext_array,
            },
            UploadError::Service(err) => err.into(),
        }
    }
}

/// Body of every error answer of the API (built in [`ApiError::into_response`]). `message` is
/// German and meant for the user; `code` is stable and meant for programs.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    #[schema(examples("Kein Eintrag gefunden!"))]
    pub message: String,
    pub code: ErrorCode,
}

/// Every `code` an error answer can carry, with its status: `not_logged_in` /
/// `unauthorized_login` 401, `forbidden` / `cross_site_request` 403, `not_found` /
/// `double_opt_in_failed` / `unsubscribe_link_unknown` 404, `validation_error` / `invalid_csv` 400, `request_timeout` 408,
/// `payload_too_large` 413, `unprocessable` / `file_extension_not_allowed` 422, `conflict` /
/// `list_active` / `list_exists` / `change_folder_warning` / `email_exists` /
/// `email_blacklisted` / `double_opt_in_recently_sent` / `marketing_retry_pending` /
/// `changed_meanwhile` / `sync_running` / `marketing_not_connected` / `tag_exists` 409,
/// `internal_error` 500,
/// `marketing_service_error` 502, `timeout` / `database_unavailable` /
/// `file_store_unavailable` 503.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)] // describes the codes; the answers carry them as strings
pub enum ErrorCode {
    NotLoggedIn,
    UnauthorizedLogin,
    Forbidden,
    CrossSiteRequest,
    NotFound,
    DoubleOptInFailed,
    UnsubscribeLinkUnknown,
    ValidationError,
    RequestTimeout,
    PayloadTooLarge,
    Unprocessable,
    FileExtensionNotAllowed,
    Conflict,
    ListActive,
    ListExists,
    ChangeFolderWarning,
    EmailExists,
    EmailBlacklisted,
    DoubleOptInRecentlySent,
    MarketingRetryPending,
    InternalError,
    MarketingServiceError,
    Timeout,
    InvalidCsv,
    SyncRunning,
    MarketingNotConnected,
    ChangedMeanwhile,
    DatabaseUnavailable,
    FileStoreUnavailable,
    TagExists,
    ConfirmationRequired,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!(error = ?cause, "request failed");
        }
        let (status, code, message) = self.status_code_message();
        let mut body = serde_json::json!({ "message": message, "code": code });
        match self {
            ApiError::UploadTooLarge {
                file_name,
                limit_size_mb,
            } => {
                body["fileName"] = file_name.into();
                body["limitSizeMB"] = limit_size_mb.into();
            }
            ApiError::ExtensionNotAllowed {
                files_over_ext_limit,
                file_extensions,
                allowed_ext_array,
            } => {
                body["filesOverExtLimit"] = files_over_ext_limit.into();
                body["fileExtensions"] = file_extensions.into();
                body["allowedExtArray"] = allowed_ext_array.into();
            }
            _ => {}
        }
        (status, Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_hide_their_cause() {
        let err = ApiError::Internal(anyhow::anyhow!("password=geheim in SQL"));
        let (status, code, message) = err.status_code_message();
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(code, "internal_error");
        assert!(!message.contains("geheim"));
    }

    #[test]
    fn unauthorized_carries_the_calls_code() {
        let err = ApiError::Unauthorized {
            code: "not_logged_in",
        };
        let (status, code, _) = err.status_code_message();
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(code, "not_logged_in");
    }
}
