//! `/files/{id}/{name}`: stored files, served only to users allowed to see them (never a
//! public folder; see `services::files`), with Range, ETag and a UTF-8 download name.

use axum::extract::State;
use axum::http::{HeaderMap, Method};
use axum::response::Response;

use super::delivery::{Delivery, respond};
use super::extract::{AuthUser, Path};
use crate::error::ApiError;
use crate::services;
use crate::state::AppState;
use crate::storage::serve::Piece;

pub async fn serve(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path((id, name)): Path<(i64, String)>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let file = services::files::readable(&state.db, &user, id, &name).await?;
    let path = state
        .files
        .path_of(&file.upload.storage_key)
        .ok_or(ApiError::NotFound)?;
    let len = file.upload.size.max(0) as u64;
    let etag = file
        .upload
        .sha256
        .clone()
        .unwrap_or_else(|| format!("{}-{len}", file.upload.id));
    Ok(respond(
        &method,
        &headers,
        Delivery {
            pieces: vec![Piece::File {
                path,
                offset: 0,
                len,
            }],
            len,
            etag,
            last_modified: file.upload.created_at,
            content_type: file.upload.content_type,
            file_name: file.name,
            cache: if file.is_logo {
                "private, max-age=3600"
            } else {
                "private, no-cache"
            },
        },
    ))
}
