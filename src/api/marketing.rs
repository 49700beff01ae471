//! Folders and lists as the marketing service has them (the provider modals' selectors and
//! the import of existing lists). Admin only.

use axum::Router;
use axum::extract::State;
use axum::response::Json as JsonResponse;
use axum::routing::get;
use serde_json::{Value, json};

use super::extract::{PageQuery, Path, Query};
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::error::ApiError;
use crate::startup::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/brevo/folders", get(folders))
        .route("/brevo/folder/{id}/lists", get(folder_lists))
        .route_layer(require(Capability::AdminOnly))
}

async fn folders(
    State(state): State<AppState>,
    Query(q): Query<PageQuery>,
) -> Result<JsonResponse<Value>, ApiError> {
    let limit = q.limit.unwrap_or(50).clamp(1, 50);
    let (folders, count) = state
        .marketing
        .folders(&state.db, limit, q.offset())
        .await?;
    Ok(JsonResponse(json!({ "folders": folders, "count": count })))
}

async fn folder_lists(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<PageQuery>,
) -> Result<JsonResponse<Value>, ApiError> {
    let limit = q.limit.unwrap_or(50).clamp(1, 50);
    let (lists, count) = state
        .marketing
        .folder_lists_page(id, q.ascending(), limit, q.offset())
        .await?;
    Ok(JsonResponse(json!({ "lists": lists, "count": count })))
}
