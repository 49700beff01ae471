//! `POST /api/unsubscribe/{token}`: the one-click unsubscribe of advertising mails (issue 37,
//! RFC 8058): the address of every package mail's `List-Unsubscribe` header, and what the
//! button of the page `/abmelden/{token}` posts to.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json as JsonResponse, Redirect, Response};
use axum::routing::post;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::extract::Path;
use crate::services::contacts::unsubscribe::{self, DONE, UNKNOWN};
use crate::services::error::ServiceError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/unsubscribe/{token}", post(unsubscribe_by_link))
}

/// The body a mail program sends (RFC 8058); the page's button sends the same. Not needed.
#[derive(ToSchema)]
#[allow(dead_code)]
struct OneClickForm {
    /// `One-Click`.
    #[schema(rename = "List-Unsubscribe")]
    list_unsubscribe: String,
}

#[derive(Serialize, ToSchema)]
struct Unsubscribed {
    #[schema(value_type = String, examples("UNSUBSCRIBED"))]
    code: &'static str,
    #[schema(value_type = String)]
    message: &'static str,
}

#[utoipa::path(
    post,
    path = "/api/unsubscribe/{token}",
    operation_id = "unsubscribe",
    tag = "double-opt-in",
    summary = "Unsubscribe from advertising mails (one click)",
    description = "The address of every package mail's `List-Unsubscribe` header (with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`), and what the button of the page behind the mail's visible \"Abmelden\" link (`/abmelden/{token}`, whose GET changes nothing, so mail scanners unsubscribe nobody) posts to. Blocks the address of the link's contact exactly as the admin's \"E-Mail sperren\" does, mirrored to Brevo (kept for a retry when Brevo cannot take it now). It sets the block, it never toggles: a second POST answers 200 and changes nothing. The body is not needed. No sign-in and no `Origin` needed (a mail program's POST has none).\n\n**Wer darf:** jeder, auch ohne Anmeldung, mit dem Link einer Werbe-E-Mail.",
    security(),
    params(("token" = String, Path, description = "The link's token (64 lower-case hex digits).")),
    request_body(content = OneClickForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 200, description = "Unsubscribed (or already).", body = Unsubscribed, content_type = "application/json", example = json!({"code": "UNSUBSCRIBED", "message": "Sie sind abgemeldet. Sie erhalten keine Werbe-E-Mails des Aktionsportals mehr."})),
        (status = 303, description = "A browser's form post (`Accept` contains `text/html`): done, back to the link's page, which says so.", headers(("Location" = String, description = "`/abmelden/{token}` (the token's hex digits only)."))),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, description = "An unknown link, or one whose contact was deleted; nothing changed.", body = Unsubscribed, content_type = "application/json", example = json!({"code": "unsubscribe_link_unknown", "message": "Dieser Abmeldelink ist ungültig. Bitte wenden Sie sich an Ihren Ansprechpartner."})),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
async fn unsubscribe_by_link(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let answer = match unsubscribe::unsubscribe(&state.db, &state.marketing, &token).await {
        Ok(()) => (
            StatusCode::OK,
            Unsubscribed {
                code: "UNSUBSCRIBED",
                message: DONE,
            },
        ),
        Err(ServiceError::NotFound) => (
            StatusCode::NOT_FOUND,
            Unsubscribed {
                code: "unsubscribe_link_unknown",
                message: UNKNOWN,
            },
        ),
        Err(err) => return Err(err.into()),
    };
    let from_page = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"));
    if from_page {
        return Ok(Redirect::to(&unsubscribe::page_path(&token)).into_response());
    }
    Ok((answer.0, JsonResponse(answer.1)).into_response())
}
