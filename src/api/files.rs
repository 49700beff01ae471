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
    let file = services::files::download(&state.db, &state.files, &user, id, &name).await?;
    Ok(respond(
        &method,
        &headers,
        Delivery {
            pieces: vec![Piece::File {
                path: file.path,
                offset: 0,
                len: file.len,
            }],
            len: file.len,
            etag: file.etag,
            last_modified: file.last_modified,
            content_type: file.content_type,
            file_name: file.name,
            cache: file.cache,
        },
    ))
}
