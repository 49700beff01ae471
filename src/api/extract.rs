//! Extractors whose rejections answer like every other error: `{message, code}` in German.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::domain::paging::{MAX_PAGE_SIZE, PAGE_SIZE};
use crate::error::ApiError;
use crate::server::limits::is_slow_body;

/// Query parameters; malformed ones give 400.
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| Query(q.0))
            .map_err(|e| {
                tracing::debug!(rejection = %e.body_text(), "query rejected");
                ApiError::validation("Die Adresse enthält ungültige Parameter.")
            })
    }
}

/// Path parameters; an id that is not a number names no record, so 404.
pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| Path(p.0))
            .map_err(|_| ApiError::NotFound)
    }
}

/// A JSON body; a missing content type or malformed JSON gives 400, a body over the limit
/// 413, a body that arrives too slowly 408.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        axum::Json::<T>::from_request(request, state)
            .await
            .map(|j| Json(j.0))
            .map_err(|rejection| {
                tracing::debug!(rejection = %rejection.body_text(), "body rejected");
                if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::PayloadTooLarge {
                        message: format!(
                            "Die Anfrage ist zu groß. Erlaubt sind höchstens {} MB.",
                            JSON_BODY_LIMIT / (1024 * 1024)
                        ),
                    }
                } else if is_slow_body(&rejection) {
                    ApiError::SlowRequest
                } else {
                    ApiError::validation("Die Anfrage hat nicht das erwartete Format.")
                }
            })
    }
}

/// The largest JSON body accepted (axum's default body limit).
pub const JSON_BODY_LIMIT: usize = 2 * 1024 * 1024;

/// The signed-in user; without one, 401 with code `not_logged_in`.
pub struct AuthUser(pub crate::domain::user::User);

impl<S: Send + Sync> FromRequestParts<S> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<crate::domain::user::CurrentUser>()
            .and_then(|current| current.0.clone())
            .map(AuthUser)
            .ok_or(ApiError::Unauthorized {
                code: "not_logged_in",
            })
    }
}

/// Paging and filter parameters the list calls share (spec §3 "Paging", §9).
#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Page size; default 20 (spec §9), clamped to 1–1000.
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
    /// Entries to skip; negative values count as 0.
    #[param(minimum = 0)]
    pub offset: Option<i64>,
    /// `ASC` or `DESC` (default), any letter case; anything but `asc` means descending.
    #[param(value_type = Option<crate::domain::paging::SortOrder>, inline)]
    pub sort: Option<String>,
    /// Read by the lists that sort by more than one column; the calls documented with these
    /// parameters sort by id and do not read it.
    #[param(ignore)]
    pub sort_by: Option<String>,
    /// Part of the name, any letter case; trimmed, empty means no filter.
    pub search: Option<String>,
}

impl PageQuery {
    pub fn limit(&self) -> i64 {
        self.limit.unwrap_or(PAGE_SIZE).clamp(1, MAX_PAGE_SIZE)
    }

    pub fn offset(&self) -> i64 {
        self.offset.unwrap_or(0).max(0)
    }

    pub fn ascending(&self) -> bool {
        self.sort
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case("asc"))
    }

    pub fn search(&self) -> &str {
        self.search.as_deref().unwrap_or("").trim()
    }
}
