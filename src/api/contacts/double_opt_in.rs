//! Double opt-in (spec §7 "Contacts", "SMTP"): the confirmation mail to one contact or to
//! all pending ones, the mass mail's progress, and the confirmation by link or form.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json as JsonResponse, Response};
use axum::routing::{patch, post};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Path};
use crate::auth::require::require;
use crate::domain::double_opt_in::FAILED;
use crate::domain::permissions::Capability;
use crate::server::client::Client;
use crate::services::contacts::double_opt_in;
use crate::services::error::ServiceError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    // The mass mail: the admin area (spec §6).
    let mass = Router::new()
        .route("/smtp/emails", post(send_all).get(mail_job))
        .route_layer(require(Capability::AdminArea));
    // One contact's mail, from the contact editor (Admin, BU-Moderator, BU-DOI).
    let one = Router::new()
        .route("/smtp/email/{email}", post(send_one))
        .route_layer(require(Capability::ContactEdit));
    // The link from the mail: no login (spec §2).
    let public = Router::new().route(
        "/contacts/confirm-double-opt-in/{token}",
        patch(confirm_double_opt_in),
    );
    mass.merge(one).merge(public)
}

/// 200 when confirmed; 404 with the page's failure text for an unknown or expired link.
#[utoipa::path(
    patch,
    path = "/api/contacts/confirm-double-opt-in/{token}",
    operation_id = "confirmDoubleOptIn",
    tag = "double-opt-in",
    summary = "Confirm an email (double opt-in)",
    description = "Confirms the contact of a link from the confirmation mail (spec §2) and records when and from which address; a contact who has confirmed already is answered 200 again. The marketing service gets `DOUBLE_OPT-IN` = 1 first; when it cannot take it now, the confirmation is recorded anyway and the update is kept for a retry (`GET /api/contacts/marketing-retries`). Refused for other sites like every state-changing call.\n\n**Wer darf:** jeder, auch ohne Anmeldung.",
    security(),
    params(("token" = String, Path, description = "The token of the mail's link (`/user/verify-double-opt-in/{token}`): 64 lower-case hex digits.")),
    responses(
        (status = 200, description = "Confirmed.", body = DoubleOptInConfirmed, content_type = "application/json", example = json!({"code": "DOUBLE_OPT-IN_CONFIRMED", "message": "Ihre E-Mail-Adresse wurde erfolgreich bestätigt."})),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, description = "The link is unknown, expired or not a token (also the bare contact id).", body = DoubleOptInFailed, content_type = "application/json", example = json!({"code": "double_opt_in_failed", "message": "Die E-Mail konnte nicht bestätigt werden oder gefunden werden!"})),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
async fn confirm_double_opt_in(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let address = client.ip.to_string();
    let by = double_opt_in::Confirming {
        address: &address,
        user_agent: headers
            .get(header::USER_AGENT)
            .and_then(|value| value.to_str().ok()),
    };
    match double_opt_in::confirm(&state.db, &state.marketing, &token, by).await {
        Ok(()) => Ok(JsonResponse(DoubleOptInConfirmed {
            code: "DOUBLE_OPT-IN_CONFIRMED",
            message: crate::domain::double_opt_in::VERIFIED,
        })
        .into_response()),
        Err(ServiceError::NotFound) => Ok((
            StatusCode::NOT_FOUND,
            JsonResponse(DoubleOptInFailed {
                code: "double_opt_in_failed",
                message: FAILED,
            }),
        )
            .into_response()),
        Err(err) => Err(err.into()),
    }
}

#[derive(Serialize, ToSchema)]
struct DoubleOptInConfirmed {
    #[schema(value_type = String, examples("DOUBLE_OPT-IN_CONFIRMED"))]
    code: &'static str,
    #[schema(value_type = String, examples("Ihre E-Mail-Adresse wurde erfolgreich bestätigt."))]
    message: &'static str,
}

/// The link is unknown, expired or not a token; the page's failure text.
#[derive(Serialize, ToSchema)]
struct DoubleOptInFailed {
    #[schema(value_type = String, examples("double_opt_in_failed"))]
    code: &'static str,
    #[schema(value_type = String)]
    message: &'static str,
}

#[utoipa::path(
    post,
    path = "/api/smtp/email/{email}",
    operation_id = "sendDoubleOptInMail",
    tag = "double-opt-in",
    summary = "Send the confirmation mail to one contact",
    description = "Sends the double opt-in mail with a new link (valid `AP_DOUBLE_OPT_IN_VALID_DAYS` days) to the contact with this email (no body). A contact who has confirmed already gets nothing (`status` 200, `DOUBLE_OPT-IN_ALREADY_DONE`).\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`).",
    params(("email" = String, Path, description = "The contact's email address (percent-encoded); no contact with it: 404.", example = "anna@example.de")),
    responses(
        (status = 200, description = "Sent (`status` 201) or confirmed already (`status` 200).", body = crate::services::contacts::double_opt_in::SendAnswer, content_type = "application/json", example = json!({"status": 201, "messageId": "<doi-7-3f9a0c1d2e4b5a69@example.de>", "code": "DOUBLE_OPT-IN_SENT", "message": "Double-Opt-In an anna@example.de gesendet."})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 409, description = "The email is blocked (unblock it first), or a confirmation mail went to it less than a minute ago.", body = crate::api::responses::MailRefused, content_type = "application/json", example = json!({"message": "anna@example.de ist gesperrt. Bitte heben Sie die Sperre auf, bevor Sie die Bestätigung erneut senden.", "code": "email_blacklisted"})),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, description = "The mail was not sent (mail server or marketing service refused or unreachable).", body = crate::api::responses::MarketingServiceError, content_type = "application/json", example = json!({"message": "Der Mailserver hat die E-Mail nicht angenommen. Bitte versuchen Sie es später erneut.", "code": "marketing_service_error"})),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"}))),
)]
async fn send_one(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(email): Path<String>,
) -> Result<JsonResponse<double_opt_in::SendAnswer>, ApiError> {
    let settings = &state.mail_settings;
    Ok(JsonResponse(
        double_opt_in::send_one(&state.db, &state.mailer, settings, &user, &email).await?,
    ))
}

#[utoipa::path(
    post,
    path = "/api/smtp/emails",
    operation_id = "sendDoubleOptInMails",
    tag = "double-opt-in",
    summary = "Send the confirmation mail to all pending contacts",
    description = "Starts a job that mails every contact who has not confirmed and is not blocked (no body), paced to `AP_MAIL_PER_SECOND`; while one runs, that job is answered (`job_running`). Only in production; elsewhere nothing is sent (`function_only_in_production_available`).\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`).",
    responses(
        (status = 200, description = "Started, running already, or not available here.", body = crate::services::contacts::double_opt_in::MassAnswer, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn send_all(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
) -> Result<JsonResponse<double_opt_in::MassAnswer>, ApiError> {
    Ok(JsonResponse(
        double_opt_in::send_all(&state.db, &state.mail_settings, &state.mail_jobs, &user).await?,
    ))
}

/// The newest mass mail and how far it has come.
#[utoipa::path(
    get,
    path = "/api/smtp/emails",
    operation_id = "getDoubleOptInMailJob",
    tag = "double-opt-in",
    summary = "Progress of the mail to all pending contacts",
    description = "The newest mail job (running or done) with its item counts.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`).",
    responses(
        (status = 200, description = "The newest job, or `null`.", body = crate::services::contacts::double_opt_in::MailJobState, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn mail_job(
    State(state): State<AppState>,
) -> Result<JsonResponse<double_opt_in::MailJobState>, ApiError> {
    Ok(JsonResponse(double_opt_in::MailJobState {
        job: double_opt_in::latest_job(&state.db).await?,
    }))
}

/// The form of the confirmation page (`/user/verify-double-opt-in/{token}`).
#[derive(serde::Deserialize, ToSchema)]
#[allow(dead_code)]
struct ConfirmForm {
    /// The token of the link (64 hex digits; another value confirms nothing).
    token: String,
}

/// `POST /api/fn/confirm-double-opt-in` is the Leptos server function of the confirmation page
/// (`app::pages::contacts::double_opt_in`), routed by Leptos; this item only carries its description,
/// since `api` does not reach into `app`.
#[utoipa::path(
    post,
    path = "/api/fn/confirm-double-opt-in",
    operation_id = "confirmDoubleOptInForm",
    tag = "double-opt-in",
    summary = "Confirm an email (the confirmation page's form)",
    description = "The Leptos server function behind the form of the page `/user/verify-double-opt-in/{token}` (works without JavaScript): confirms like `PATCH /api/contacts/confirm-double-opt-in/{token}`, then returns to the link's page, which shows the result. An unknown or expired token confirms nothing and is not an error here (the page says so). Not under the API's time limit. Refused for other sites like every state-changing call.\n\n**Wer darf:** jeder, auch ohne Anmeldung.",
    security(),
    request_body(content = ConfirmForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 200, description = "Done (clients that do not accept `text/html`, e.g. the page's script); the page to show next is in `Location` and the `serverfnredirect` header is set.", body = Option<String>, content_type = "application/json", headers(("Location" = String, description = "`/user/verify-double-opt-in/{token}` (the token's hex digits only)."))),
        (status = 302, description = "Done (a browser form post: `Accept` contains `text/html`); back to the link's page.", headers(("Location" = String, description = "`/user/verify-double-opt-in/{token}` (the token's hex digits only)."))),
        (status = 400, description = "Arguments that cannot be read (no `token`).", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Die Anfrage enthält ungültige Angaben.", "code": "validation_error"})),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 500, description = "Confirming failed for another reason (logged); Leptos' error encoding.", body = String, content_type = "text/plain", example = json!("ServerError|Die E-Mail konnte nicht bestätigt werden oder gefunden werden!")),
    ),
    extensions(("x-access" = json!({"capability": null})), ("x-rule-statuses" = json!([400]))),
)]
#[allow(dead_code)]
fn confirm_double_opt_in_form_doc() {}
