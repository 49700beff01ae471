//! Import candidates of the planning system (issue 12): whether its service is connected,
//! and the CSV import (preview, import). Admin area.

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Json as JsonResponse, Response};
use axum::routing::{get, post};
use serde_json::json;

use crate::api::error::ApiError;
use crate::api::extract::AuthUser;
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::services::contacts::planning::{self, MAX_CSV_BYTES};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/planning/status", get(status))
        .route("/planning/csv/preview", post(preview))
        .route("/planning/csv/import", post(import))
        .route_layer(require(Capability::AdminArea))
}

#[utoipa::path(
    get,
    path = "/api/planning/status",
    operation_id = "getPlanningStatus",
    tag = "contacts",
    summary = "Whether a planning system is connected",
    description = "Whether the planning system's service is configured and how many candidates CSV imports hold.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`).",
    responses(
        (status = 200, description = "The status.", body = crate::services::contacts::planning::Status, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
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

#[utoipa::path(
    post,
    path = "/api/planning/csv/preview",
    operation_id = "previewPlanningCsv",
    tag = "contacts",
    summary = "Check a CSV file of import candidates",
    description = "What an import of the file would take, and every line that cannot be taken (with its line number). Changes nothing.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`).",
    request_body(content = String, content_type = "text/csv", description = "The raw file (at most 5 MB): semicolon-separated, UTF-8 or Windows-1252, a header with the columns `Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail` in any order (case ignored); `Anrede` is Firma, Herr, Frau, Divers or 0–4.", example = json!("Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail\n100555;Müller GmbH;Herr;Max;Müller;max@example.de\n")),
    responses(
        (status = 200, description = "The preview.", body = crate::services::contacts::planning::CsvPreview, content_type = "application/json"),
        (status = 400, description = "An empty file.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Die Datei ist leer.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 413, description = "The file is larger than 5 MB.", body = crate::api::responses::PayloadTooLargeError, content_type = "application/json", example = json!({"message": "Die Datei ist größer als 5 MB oder wurde nicht vollständig gesendet.", "code": "payload_too_large"})),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400]))),
)]
async fn preview(body: Body) -> Result<Response, ApiError> {
    let bytes = file(body).await?;
    Ok(JsonResponse(planning::preview(&bytes)?).into_response())
}

#[utoipa::path(
    post,
    path = "/api/planning/csv/import",
    operation_id = "importPlanningCsv",
    tag = "contacts",
    summary = "Import a CSV file of import candidates",
    description = "Replaces the candidates of every customer number in the file by the file's. A file with any bad line imports nothing (`invalid_csv`, with the lines).\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`).",
    request_body(content = String, content_type = "text/csv", description = "The raw file (at most 5 MB): semicolon-separated, UTF-8 or Windows-1252, a header with the columns `Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail` in any order (case ignored); `Anrede` is Firma, Herr, Frau, Divers or 0–4.", example = json!("Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail\n100555;Müller GmbH;Herr;Max;Müller;max@example.de\n")),
    responses(
        (status = 200, description = "Imported.", body = crate::services::contacts::planning::Imported, content_type = "application/json"),
        (status = 400, description = "`invalid_csv`: bad lines (the first 200 in `errors`, all counted in `errorCount`); `validation_error`: an empty file or one without contacts. Nothing was imported.", body = crate::api::responses::CsvRefused, content_type = "application/json", example = json!({"message": "Die Datei enthält fehlerhafte Zeilen; es wurde nichts importiert. Bitte korrigieren Sie die genannten Zeilen und importieren Sie die Datei erneut.", "code": "invalid_csv", "errors": [{"line": 3, "message": "Die Kundennummer muss eine Zahl sein."}], "errorCount": 1})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 413, description = "The file is larger than 5 MB.", body = crate::api::responses::PayloadTooLargeError, content_type = "application/json", example = json!({"message": "Die Datei ist größer als 5 MB oder wurde nicht vollständig gesendet.", "code": "payload_too_large"})),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400]))),
)]
async fn import(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    body: Body,
) -> Result<Response, ApiError> {
    let bytes = file(body).await?;
    Ok(match planning::import(&state.db, &user, &bytes).await? {
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
