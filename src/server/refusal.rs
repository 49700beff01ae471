//! The answers the request layers give before any handler runs: no login, no right, a request
//! from another site, a call that took too long. They have the API's error form
//! `{ "message", "code" }`; `api::error::ApiError` answers these cases with the same words.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// 401: no session.
    NotLoggedIn,
    /// 403: the roles lack the capability.
    Forbidden,
    /// 403: a state-changing request from another site (CSRF protection).
    CrossSite,
    /// 503: the call did not answer within the time limit.
    Timeout,
}

impl Refusal {
    pub fn status(self) -> StatusCode {
        match self {
            Refusal::NotLoggedIn => StatusCode::UNAUTHORIZED,
            Refusal::Forbidden | Refusal::CrossSite => StatusCode::FORBIDDEN,
            Refusal::Timeout => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Refusal::NotLoggedIn => "not_logged_in",
            Refusal::Forbidden => "forbidden",
            Refusal::CrossSite => "cross_site_request",
            Refusal::Timeout => "timeout",
        }
    }

    /// The German text the user reads.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::NotLoggedIn => "Sie sind nicht angemeldet.",
            Refusal::Forbidden => "Ihnen fehlt die Berechtigung für diese Aktion.",
            Refusal::CrossSite => {
                "Die Anfrage wurde abgelehnt, weil sie nicht vom Aktionsportal selbst stammt."
            }
            Refusal::Timeout => {
                "Die Anfrage hat zu lange gedauert. Bitte versuchen Sie es in Kürze erneut."
            }
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "message": self.message(), "code": self.code() });
        (self.status(), Json(body)).into_response()
    }
}
