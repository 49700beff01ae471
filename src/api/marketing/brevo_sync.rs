//! The sync (glossary): Brevo's contacts read into the portal, streamed to the sync manager.

use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::api::error::ApiError;
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::services::marketing::brevo_sync;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    // The sync manager (Admin only); a GET that changes data, so same-site only.
    Router::new()
        .route(
            "/syncContactsFromBrevo",
            get(sync_from_brevo)
                .layer(axum::middleware::from_fn(crate::auth::csrf::same_site_only)),
        )
        .route_layer(require(Capability::AdminOnly))
}

/// Streams the sync's results as JSON objects, one per line, as they come.
#[utoipa::path(
    get,
    path = "/api/syncContactsFromBrevo",
    operation_id = "syncContactsFromBrevo",
    tag = "contacts",
    summary = "Sync contacts from Brevo into the portal (streamed)",
    description = "Pages through Brevo's contacts changed since the start of the last completed run (`modifiedSince`; all on the first run), creates or updates ours (found by Brevo id, else email) with their block, confirmation and memberships of the lists both sides know; contacts without a valid email or customer number (`KUNDENNUMMER`) are skipped. The answer streams one `SyncEvent` per line as it happens: `start`, a `page` per page, `skipped` per contact not taken, then `done` or `error`. One run at a time, also across instances; a run that stopped (error, crash) resumes at its next page with the next start, and running it again changes nothing that is in sync already. A closed connection does not stop the run. Refused from other sites' pages (it changes data although it is a GET, as spec §7 defines it).\n\n**Wer darf:** nur `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    responses(
        (status = 200, description = "The stream of results, one JSON object per line.", body = crate::services::marketing::brevo_sync::Event, content_type = "application/x-ndjson", example = json!("{\"result\":\"start\",\"message\":\"Synchronisierung gestartet: Kontakte aus Brevo, alle.\",\"modifiedSince\":null,\"resumed\":false}\n")),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 409, description = "`sync_running`: another run is going on. `marketing_not_connected`: no Brevo API key (local mode).", body = crate::api::responses::SyncRefused, content_type = "application/json", example = json!({"message": "Es läuft bereits eine Synchronisierung. Bitte warten Sie, bis sie abgeschlossen ist.", "code": "sync_running"})),
        (status = 500, response = crate::api::responses::InternalError),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"}))),
)]
async fn sync_from_brevo(State(state): State<AppState>) -> Result<Response, ApiError> {
    let held = brevo_sync::acquire(&state.db, &state.marketing).await?;
    let (sender, receiver) = tokio::sync::mpsc::channel(64);
    tokio::spawn(brevo_sync::run(
        state.db.clone(),
        held,
        state.config.brevo_sync_page_size,
        sender,
    ));
    let lines = futures_util::stream::unfold(receiver, |mut receiver| async move {
        let event = receiver.recv().await?;
        let mut line = serde_json::to_vec(&event).unwrap_or_default();
        line.push(b'\n');
        Some((Ok::<_, std::convert::Infallible>(line), receiver))
    });
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "application/x-ndjson"),
            (axum::http::header::CACHE_CONTROL, "no-store"),
            // Proxies must pass each line on at once.
            (
                axum::http::HeaderName::from_static("x-accel-buffering"),
                "no",
            ),
        ],
        axum::body::Body::from_stream(lines),
    )
        .into_response())
}
