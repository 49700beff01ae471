//! Changes to single lists and the sync of a provider's lists (spec §7).

use axum::Router;
use axum::extract::State;
use axum::response::Json as JsonResponse;
use axum::routing::{delete, get, patch};
use serde::Deserialize;
use serde_json::{Value, json};

use super::extract::{AuthUser, Json, Path};
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::error::ApiError;
use crate::services::lists::{self, FOLDER_WARNING, ListView, StatusChange};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/lists/name/{id}", patch(rename))
        .route("/lists/status/{id}", patch(status))
        .route("/lists/{id}", delete(remove))
        // A GET that changes data (spec §7): not when another site sends the browser.
        .route(
            "/sync/providers/{id}",
            get(sync).layer(axum::middleware::from_fn(crate::auth::csrf::same_site_only)),
        )
        .route_layer(require(Capability::AdminArea))
}

#[derive(Deserialize)]
struct NameBody {
    #[serde(default)]
    name: String,
}

async fn rename(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<NameBody>,
) -> Result<JsonResponse<ListView>, ApiError> {
    Ok(JsonResponse(
        lists::rename(&state.db, &state.marketing, &user, id, &body.name).await?,
    ))
}

#[derive(Deserialize)]
struct StatusBody {
    active: bool,
}

/// Answers 200 in both outcomes: spec §4 reads `code` (change_folder_warning changes nothing).
async fn status(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<StatusBody>,
) -> Result<JsonResponse<Value>, ApiError> {
    Ok(JsonResponse(
        match lists::set_status(&state.db, &state.marketing, &user, id, body.active).await? {
            StatusChange::Changed(list) => json!({ "code": "status_changed", "content": list }),
            StatusChange::FoldersMissing => {
                json!({ "code": "change_folder_warning", "message": FOLDER_WARNING })
            }
        },
    ))
}

async fn remove(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<Value>, ApiError> {
    lists::delete(&state.db, &state.marketing, &user, id).await?;
    Ok(JsonResponse(
        json!({ "message": "Erfolgreich entfernt", "id": id }),
    ))
}

async fn sync(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<Value>, ApiError> {
    let content = lists::sync_provider(&state.db, &state.marketing, &user, id).await?;
    Ok(JsonResponse(json!({ "content": content })))
}
