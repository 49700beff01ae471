//! `/files/{id}/{name}`: uploaded files, served only to users allowed to see them (never a
//! public folder), with Range and Last-Modified support.

use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeFile;

use super::extract::{AuthUser, Path};
use crate::error::ApiError;
use crate::services;
use crate::startup::AppState;

pub async fn serve(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path((id, _name)): Path<(i64, String)>,
    request: Request,
) -> Result<Response, ApiError> {
    let upload = services::files::readable(&state.db, &user, id).await?;
    let path = state
        .files
        .path_of(&upload.storage_key)
        .ok_or(ApiError::NotFound)?;
    let mut response = ServeFile::new(path)
        .oneshot(request)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .into_response();
    if response.status().is_success()
        && let Ok(value) = HeaderValue::from_str(&upload.content_type)
    {
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, value);
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, max-age=3600"),
        );
        headers.insert(
            "x-content-type-options",
            HeaderValue::from_static("nosniff"),
        );
        // A file is never a page of ours: no scripts, even in an SVG opened directly.
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
        );
    }
    Ok(response)
}
