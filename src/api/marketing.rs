//! Folders and lists as the marketing service has them (the provider modals' selectors and
//! the import of existing lists). Folders: Admin only; a folder's lists also for the admin
//! area when the folder is one of a provider the user manages (the provider screen's import).

use axum::Router;
use axum::extract::State;
use axum::response::Json as JsonResponse;
use axum::routing::get;
use serde_json::{Value, json};

use super::extract::{AuthUser, PageQuery, Path, Query};
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::error::ApiError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    let folders_only = Router::new()
        .route("/brevo/folders", get(folders))
        .route_layer(require(Capability::AdminOnly));
    let lists = Router::new()
        .route("/brevo/folder/{id}/lists", get(folder_lists))
        .route_layer(require(Capability::AdminArea));
    folders_only.merge(lists)
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
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(q): Query<PageQuery>,
) -> Result<JsonResponse<Value>, ApiError> {
    let limit = q.limit.unwrap_or(50).clamp(1, 50);
    let (lists, count) = crate::services::lists::folder_lists_page(
        &state.db,
        &state.marketing,
        &user,
        id,
        q.ascending(),
        limit,
        q.offset(),
    )
    .await?;
    Ok(JsonResponse(json!({ "lists": lists, "count": count })))
}
