//! A package's mails (issue 37): the settings of its announcement and of the notice before
//! its end, and the preview of the announcement. Each handler calls one service function; the
//! rights are decided there.

use axum::Router;
use axum::extract::State;
use axum::response::Json as JsonResponse;
use axum::routing::{get, post};

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Json, PackageIdsQuery, Path, Query};
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::services::catalog::announcements::{
    self, AnnouncementInput, AnnouncementStatus, AnnouncementView, FailedMail, MailFrame,
    MailPreview,
};
use crate::services::contacts::package_mails::{self, TestMailSent};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/download/{id}/announcement", get(settings).put(save))
        .route("/download/{id}/announcement/preview", post(preview))
        .route("/download/{id}/announcement/failures", get(failures))
        .route("/download/{id}/announcement/test-mail", post(test_mail))
        .route("/download/{id}/announcement/again", post(again))
        .route(
            "/download/{id}/announcement/preview.html",
            get(preview_page),
        )
        .route("/announcements", get(statuses))
        .route_layer(require(Capability::AdminArea))
}

#[utoipa::path(
    get,
    path = "/api/download/{id}/announcement",
    operation_id = "getAnnouncement",
    tag = "downloads",
    summary = "A package's announcement and end notice",
    description = "The settings of the package's mails (\"Ankündigung per E-Mail\"), with how many addresses an announcement reaches now. A package without saved settings (`saved: false`) sends nothing; the fields then show the German template a new announcement starts with.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters des Pakets (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "The package's id; an id that is not a number answers 404 `not_found`.")),
    responses(
        (status = 200, description = "The settings.", body = AnnouncementView, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"}))),
)]
async fn settings(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<AnnouncementView>, ApiError> {
    Ok(JsonResponse(
        announcements::settings(&state.db, &user, id).await?,
    ))
}

#[utoipa::path(
    put,
    path = "/api/download/{id}/announcement",
    operation_id = "saveAnnouncement",
    tag = "downloads",
    summary = "Save a package's announcement and end notice",
    description = "Stores the settings, audited. An unknown placeholder is refused (400, naming it). Switching the announcement on for a package that has started and was not announced sends it at once, so it needs `confirmStarted: true` (else 409 `confirmation_required`, naming how many contacts it reaches).\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters des Pakets (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "The package's id; an id that is not a number answers 404 `not_found`.")),
    request_body(content = AnnouncementInput, content_type = "application/json"),
    responses(
        (status = 200, description = "The settings as stored.", body = AnnouncementView, content_type = "application/json"),
        (status = 400, description = "A subject or text that is not allowed (an unknown placeholder, too long) or reminder days outside 0-60; the German message says why.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Den Platzhalter „{Produkt}“ gibt es nicht. Möglich sind {Paket}, {Anbieter}, {Gültig ab} und {Gültig bis}.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 409, description = "The package has started: confirm the sending.", body = crate::api::responses::AnnouncementUnconfirmed, content_type = "application/json"),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"})), ("x-rule-statuses" = json!([400, 409]))),
)]
async fn save(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(input): Json<AnnouncementInput>,
) -> Result<JsonResponse<AnnouncementView>, ApiError> {
    Ok(JsonResponse(
        announcements::save(&state.db, &user, id, &input).await?,
    ))
}

#[utoipa::path(
    post,
    path = "/api/download/{id}/announcement/preview",
    operation_id = "previewAnnouncement",
    tag = "downloads",
    summary = "The announcement as it will be sent",
    description = "Fills the subject and text given (saved or not) with the package's facts and frames them as the mail is sent: the plain-text and the HTML part, with the button \"Zum Paket\" and the link \"Abmelden\". Changes nothing.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters des Pakets (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "The package's id; an id that is not a number answers 404 `not_found`.")),
    request_body(content = AnnouncementInput, content_type = "application/json"),
    responses(
        (status = 200, description = "The mail.", body = MailPreview, content_type = "application/json"),
        (status = 400, description = "A subject or text that is not allowed (an unknown placeholder, too long) or reminder days outside 0-60; the German message says why.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Den Platzhalter „{Produkt}“ gibt es nicht. Möglich sind {Paket}, {Anbieter}, {Gültig ab} und {Gültig bis}.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"})), ("x-rule-statuses" = json!([400]))),
)]
async fn preview(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(input): Json<AnnouncementInput>,
) -> Result<JsonResponse<MailPreview>, ApiError> {
    Ok(JsonResponse(
        announcements::preview(&state.db, &user, id, &input, &frame_of(&state)).await?,
    ))
}

/// The page of `GET /api/download/{id}/announcement/failures`.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct FailuresParams {
    /// Mails per page, 1–1000 (default 20).
    #[param(minimum = 1, maximum = 1000)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    limit: Option<i64>,
    /// Mails to skip, from 0.
    #[param(minimum = 0)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    offset: Option<i64>,
}

#[utoipa::path(
    get,
    path = "/api/download/{id}/announcement/failures",
    operation_id = "getAnnouncementFailures",
    tag = "downloads",
    summary = "The failed mails of a package's announcement",
    description = "The addresses the announcement could not reach, with the reason the mail server or Brevo gave and the attempts made; also those waiting for another attempt after a passing failure (`state` `pending`). By contact, a page. Empty before the announcement was queued.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters des Pakets (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "The package's id; an id that is not a number answers 404 `not_found`."), FailuresParams),
    responses(
        (status = 200, description = "The failed mails.", body = Vec<FailedMail>, content_type = "application/json"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"})), ("x-rule-statuses" = json!([400]))),
)]
async fn failures(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(page): Query<FailuresParams>,
) -> Result<JsonResponse<Vec<FailedMail>>, ApiError> {
    Ok(JsonResponse(
        announcements::failures(&state.db, &user, id, page.limit, page.offset).await?,
    ))
}

#[utoipa::path(
    post,
    path = "/api/download/{id}/announcement/test-mail",
    operation_id = "sendAnnouncementTestMail",
    tag = "downloads",
    summary = "Send the announcement to me (test mail)",
    description = "\"Testmail an mich\": sends the announcement with the subject and text given (saved or not), as the preview shows it, to the signed-in user's own address, through the portal's mail way (Brevo, SMTP or the outbox folder). Nobody else is mailed, and nothing is stored.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters des Pakets (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "The package's id; an id that is not a number answers 404 `not_found`.")),
    request_body(content = AnnouncementInput, content_type = "application/json"),
    responses(
        (status = 200, description = "Sent to the user's own address.", body = TestMailSent, content_type = "application/json"),
        (status = 400, description = "A subject or text that is not allowed, reminder days outside 0-60, or an account without an email address; the German message says why.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Den Platzhalter „{Produkt}“ gibt es nicht. Möglich sind {Paket}, {Anbieter}, {Gültig ab} und {Gültig bis}.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"})), ("x-rule-statuses" = json!([400]))),
)]
async fn test_mail(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(input): Json<AnnouncementInput>,
) -> Result<JsonResponse<TestMailSent>, ApiError> {
    Ok(JsonResponse(
        package_mails::send_test(
            &state.db,
            &state.mailer,
            &state.mail_settings,
            &user,
            id,
            &input,
        )
        .await?,
    ))
}

/// The subject and text of `GET /api/download/{id}/announcement/preview.html`.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct PreviewText {
    /// The subject, as in the body of the preview (placeholders allowed).
    #[param(max_length = 150)]
    subject: String,
    /// The short text, as in the body of the preview.
    #[param(max_length = 2000)]
    text: String,
}

#[utoipa::path(
    get,
    path = "/api/download/{id}/announcement/preview.html",
    operation_id = "previewAnnouncementPage",
    tag = "downloads",
    summary = "The announcement's HTML part as a page (for the preview's frame)",
    description = "The HTML part of the announcement with the subject and text given, as `POST .../preview` answers it, served as a page of its own so that the form can show it in a frame: with a policy that allows the mail's inline styles and images and nothing that runs (`Content-Security-Policy: ...; sandbox`), framed only by the portal (`X-Frame-Options: SAMEORIGIN`). Changes nothing.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters des Pakets (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "The package's id; an id that is not a number answers 404 `not_found`."), PreviewText),
    responses(
        (status = 200, description = "The mail's HTML part.", body = String, content_type = "text/html"),
        (status = 400, description = "A subject or text that is not allowed (an unknown placeholder, too long), or one missing; the German message says why.", body = crate::api::responses::ValidationError, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"})), ("x-rule-statuses" = json!([400]))),
)]
async fn preview_page(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(text): Query<PreviewText>,
) -> Result<axum::response::Response, ApiError> {
    use axum::http::header;
    use axum::response::IntoResponse;
    let input = AnnouncementInput {
        announce: true,
        subject: text.subject,
        text: text.text,
        reminder_days: 0,
        confirm_started: false,
    };
    let mail = announcements::preview(&state.db, &user, id, &input, &frame_of(&state)).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (
                header::CONTENT_SECURITY_POLICY,
                crate::headers::MAIL_PREVIEW_POLICY,
            ),
            (header::X_FRAME_OPTIONS, "SAMEORIGIN"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        mail.html,
    )
        .into_response())
}

/// What the mails of this portal are framed with.
fn frame_of(state: &AppState) -> MailFrame {
    MailFrame {
        link_base: state.config.link_base(),
        product_name: state.config.product_name.clone(),
        sender: state.config.sender_details(),
    }
}

#[utoipa::path(
    post,
    path = "/api/download/{id}/announcement/again",
    operation_id = "announceAgain",
    tag = "downloads",
    summary = "Announce a package again (to the addresses not reached)",
    description = "\"Erneut ankündigen\" (the form asks first): queues the announcement again for the addresses it has not reached: the confirmed, unblocked contacts of the package's lists that were added since, and those whose mail failed (tried anew). Addresses it reached get nothing. No body.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters des Pakets (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "The package's id; an id that is not a number answers 404 `not_found`.")),
    responses(
        (status = 200, description = "Queued again; the settings with the mails per state.", body = AnnouncementView, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 409, description = "The announcement has not gone out yet, or the package is archived or has ended.", body = crate::api::responses::AnnouncementNotSent, content_type = "application/json", example = json!({"message": "Die Ankündigung wurde noch nicht versendet.", "code": "conflict"})),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"})), ("x-rule-statuses" = json!([409]))),
)]
async fn again(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<AnnouncementView>, ApiError> {
    let view = announcements::announce_again(&state.db, &user, id).await?;
    state.mail_jobs.notify_one();
    Ok(JsonResponse(view))
}

#[utoipa::path(
    get,
    path = "/api/announcements",
    operation_id = "getAnnouncementStatuses",
    tag = "downloads",
    summary = "How the announcements of packages stand",
    description = "For the admin downloads list: per package whose announcement was queued, when, and its mails per state (\"Angekündigt am … an N Kontakte (M gesendet, K fehlgeschlagen)\"). Packages not announced yet, and for a moderator those of other providers, are left out.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`); Moderatoren sehen nur die Pakete der Anbieter, die sie verwalten.",
    params(PackageIdsQuery),
    responses(
        (status = 200, description = "One entry per announced package.", body = Vec<AnnouncementStatus>, content_type = "application/json"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400]))),
)]
async fn statuses(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<PackageIdsQuery>,
) -> Result<JsonResponse<Vec<AnnouncementStatus>>, ApiError> {
    Ok(JsonResponse(
        announcements::statuses(&state.db, &user, &query.ids()?).await?,
    ))
}
