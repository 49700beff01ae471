//! `/healthz`: 200 when the database answers, 503 otherwise (for load balancers and monitors).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use crate::state::AppState;

#[utoipa::path(
    get,
    path = "/healthz",
    operation_id = "healthz",
    tag = "system",
    summary = "Health check",
    description = "For load balancers and monitors: 200 when the database answers, 503 otherwise.\n\n**Wer darf:** jeder, auch ohne Anmeldung.",
    security(),
    responses(
        (status = 200, description = "Healthy.", body = Health, content_type = "application/json", example = json!({"status": "ok", "database": "ok"})),
        (status = 503, description = "The database is unreachable.", body = Health, content_type = "application/json", example = json!({"status": "error", "database": "unreachable"})),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
pub async fn healthz(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    match state.db.ping().await {
        Ok(()) => (
            StatusCode::OK,
            Json(Health {
                status: "ok",
                database: "ok",
            }),
        ),
        Err(err) => {
            tracing::error!(error = %err, "health check: database unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(Health {
                    status: "error",
                    database: "unreachable",
                }),
            )
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `error`.
    #[schema(value_type = String)]
    status: &'static str,
    /// `ok` or `unreachable`.
    #[schema(value_type = String)]
    database: &'static str,
}
