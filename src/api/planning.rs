//! Import candidates of the planning system (issue 12): whether its service is connected,
//! and the CSV import (preview, import). Admin area.

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Json as JsonResponse, Response};
use axum::routing::{get, post};
use serde_json::json;

use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::error::ApiError;
use crate::services::planning::{self, MAX_CSV_BYTES};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/planning/status", get(status))
        .route("/planning/csv/preview", post(preview))
        .route("/planning/csv/import", post(import))
        .route_layer(require(Capability::AdminArea))
}

async fn status(State(state): State<AppState>) -> Result<Response, ApiError> {
    let status = planning::status(&state.db, state.planning.is_some()).await?;
    Ok(JsonResponse(status).into_response())
}

/// The raw file, refused past the limit before it is all read.
async fn file(body: Body) -> Result<axum::body::Bytes, ApiError> {
    axum::body::to_bytes(body, MAX_CSV_BYTES + 1)
        .await
        .map_err(|_| ApiError::PayloadTooLarge {
            message: format!(
                "Die Datei ist größer als {} MB oder wurde nicht vollständig gesendet.",
                MAX_CSV_BYTES / 1024 / 1024
            ),
        })
}

async fn preview(body: Body) -> Result<Response, ApiError> {
    let bytes = file(body).await?;
    Ok(JsonResponse(planning::preview(&bytes)?).into_response())
}

async fn import(State(state): State<AppState>, body: Body) -> Result<Response, ApiError> {
    let bytes = file(body).await?;
    Ok(match planning::import(&state.db, &bytes).await? {
        Ok(done) => JsonResponse(done).into_response(),
        Err(bad) => (
            StatusCode::BAD_REQUEST,
            JsonResponse(json!({
                "code": "invalid_csv",
                "message": planning::BAD_FILE,
                "errors": bad.errors,
                "errorCount": bad.error_count,
            })),
        )
            .into_response(),
    })
}
