//! Marketing retries (glossary): changes of contacts that could not reach Brevo at once and
//! are retried in the background, shown to admins until done.

use axum::Router;
use axum::extract::State;
use axum::response::Json as JsonResponse;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::services::marketing::contact_mirror;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    // The admin area (spec §6).
    Router::new()
        .route("/contacts/marketing-retries", get(marketing_retries))
        .route_layer(require(Capability::AdminArea))
}

/// Changes that still have to reach Brevo (visible to admins until done).
#[utoipa::path(
    get,
    path = "/api/contacts/marketing-retries",
    operation_id = "listMarketingRetries",
    tag = "contacts",
    summary = "Changes still to reach the marketing service",
    description = "Contact changes the marketing service (Brevo) could not take yet (e.g. a confirmation while it was unreachable, or an undo that failed); they are retried and shown until done.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`).",
    responses(
        (status = 200, description = "The oldest open retries and their number.", body = MarketingRetryPage, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn marketing_retries(
    State(state): State<AppState>,
) -> Result<JsonResponse<MarketingRetryPage>, ApiError> {
    let (content, count) = contact_mirror::open_retries(&state.db).await?;
    Ok(JsonResponse(MarketingRetryPage { content, count }))
}

#[derive(Serialize, ToSchema)]
struct MarketingRetryPage {
    /// The oldest open retries.
    content: Vec<contact_mirror::MarketingRetry>,
    /// All open retries.
    count: i64,
}
