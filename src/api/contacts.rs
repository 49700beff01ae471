//! Contacts and double opt-in mails (spec §7 "Contacts"). Each handler reads the request and
//! calls one service function.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Json as JsonResponse, Response};
use axum::routing::{get, patch, post, put};
use serde::Serialize;
use utoipa::ToSchema;

use super::extract::{AuthUser, Json, Path, Query};
use super::kept;
use crate::api::error::ApiError;
use crate::auth::require::require;
use crate::domain::double_opt_in::FAILED;
use crate::domain::permissions::Capability;
use crate::server::client::Client;
use crate::services::contacts::{self, ContactBody, ContactQuery, ContactView};
use crate::services::customer_groups::{self, CustomerGroup, CustomerGroupInput};
use crate::services::error::ServiceError;
use crate::services::{brevo_sync, contact_mirror, double_opt_in};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    // The contacts table and the mass mail: the admin area (spec §6).
    let table = Router::new()
        .route("/contacts", get(page))
        .route("/contacts/providers/{provider_ids}", get(page_of_providers))
        .route("/contacts/marketing-retries", get(marketing_retries))
        .route("/smtp/emails", post(send_all).get(mail_job))
        .route_layer(require(Capability::AdminArea));
    // The sync manager (Admin only).
    let sync = Router::new()
        .route(
            "/syncContactsFromBrevo",
            get(sync_from_brevo)
                .layer(axum::middleware::from_fn(crate::auth::csrf::same_site_only)),
        )
        .route_layer(require(Capability::AdminOnly));
    // The contact editor (Admin, BU-Moderator, BU-DOI).
    let editor = Router::new()
        .route("/contacts", post(create))
        .route("/contacts/{id}", put(update))
        .route("/contacts/email/{email}", get(by_email))
        .route(
            "/contacts/customer-number/{number}",
            get(by_customer_number).put(save_customer_group),
        )
        .route("/contacts/{id}/lists", get(lists_of))
        .route("/contacts/lists", get(lists_without_ids))
        .route("/contacts/lists/{contact_ids}", get(lists_of_many))
        .route("/smtp/email/{email}", post(send_one))
        .route_layer(require(Capability::ContactEdit));
    // Blocking and deleting (Admin, BU-Moderator).
    let details = Router::new()
        .route("/contacts/{id}", axum::routing::delete(remove))
        .route("/contacts/email-blacklist/{id}", patch(toggle_blacklist))
        .route_layer(require(Capability::ContactDetails));
    // The link from the mail: no login (spec §2).
    let public = Router::new().route(
        "/contacts/confirm-double-opt-in/{token}",
        patch(confirm_double_opt_in),
    );
    table.merge(sync).merge(editor).merge(details).merge(public)
}

#[utoipa::path(
    get,
    path = "/api/contacts",
    operation_id = "listContacts",
    tag = "contacts",
    summary = "Page of contacts (admin list)",
    description = "The contacts table of the admin area (spec §2), filtered, sorted and paged; each contact with its list ids.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`).",
    params(ContactQuery),
    responses(
        (status = 200, description = "One page and the total. `ETag` names the answer.", body = crate::services::contacts::ContactPage, content_type = "application/json"),
        (status = 304, description = "Not modified: `If-None-Match` names the current answer."),
        (status = 400, response = super::openapi::ContactQueryInvalid),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::Forbidden),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn page(
    State(state): State<AppState>,
    Query(query): Query<ContactQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let params = query.params(crate::domain::time::now())?;
    let answer = contacts::page_answer(&state.db, &state.answers, &params).await?;
    Ok(kept::json(answer, &headers, kept::NO_STORE))
}

#[utoipa::path(
    get,
    path = "/api/contacts/providers/{providerIds}",
    operation_id = "listContactsOfProviders",
    tag = "contacts",
    summary = "Page of contacts on the lists of some providers",
    description = "As `GET /api/contacts`, limited to contacts on a list of one of these providers (the path's ids win over a `providerIds` query parameter).\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`).",
    params(("providerIds" = crate::domain::input::IdsText, Path, description = "JSON array of provider ids (or ids separated by commas), at most 1000; anything else answers 400 (\"Die Anbieter müssen als Liste von Ids angegeben werden.\")."), ContactQuery),
    responses(
        (status = 200, description = "One page and the total. `ETag` names the answer.", body = crate::services::contacts::ContactPage, content_type = "application/json"),
        (status = 304, description = "Not modified: `If-None-Match` names the current answer."),
        (status = 400, response = super::openapi::ContactQueryInvalid),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::Forbidden),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn page_of_providers(
    State(state): State<AppState>,
    Path(provider_ids): Path<String>,
    Query(query): Query<ContactQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let mut params = query.params(crate::domain::time::now())?;
    params.filter.provider_ids = Some(contacts::provider_ids(&provider_ids)?);
    let answer = contacts::page_answer(&state.db, &state.answers, &params).await?;
    Ok(kept::json(answer, &headers, kept::NO_STORE))
}

/// A contact with this email, or an empty object (spec §7).
#[utoipa::path(
    get,
    path = "/api/contacts/email/{email}",
    operation_id = "getContactByEmail",
    tag = "contacts",
    summary = "The contact with an email",
    description = "The contact with this email (any letter case, trimmed), or an empty object when there is none or the address is not valid.\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`).",
    params(("email" = String, Path, description = "The email address (percent-encoded).", example = "anna@example.de")),
    responses(
        (status = 200, description = "The contact, or `{}`.", body = ContactOrNothing, content_type = "application/json"),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::Forbidden),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"}))),
)]
async fn by_email(
    State(state): State<AppState>,
    Path(email): Path<String>,
) -> Result<JsonResponse<ContactOrNothing>, ApiError> {
    Ok(JsonResponse(
        match contacts::by_email(&state.db, &email).await? {
            Some(contact) => ContactOrNothing::Contact(Box::new(contact)),
            None => ContactOrNothing::Nothing(NoContact {}),
        },
    ))
}

/// A contact, or `{}` when there is none.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
enum ContactOrNothing {
    Contact(Box<ContactView>),
    Nothing(NoContact),
}

/// No contact has the email: an empty object.
#[derive(Serialize, ToSchema)]
#[schema(max_properties = 0)]
struct NoContact {}

#[utoipa::path(
    get,
    path = "/api/contacts/customer-number/{number}",
    operation_id = "getContactsByCustomerNumber",
    tag = "contacts",
    summary = "The contacts of a customer number",
    description = "Every contact with this customer number and, under `imports`, the company and the import candidates: from the planning system's service (`AP_PLANNING_URL`, see `x-external-contracts`) and from imported CSV files, without those that are contacts of the group already. A planning system that is not connected, slow (over `AP_PLANNING_TIMEOUT_SECS`) or failing gives `imports.message`, never an error.\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`).",
    params(("number" = i64, Path, minimum = 1, maximum = 1000000000000000000i64, description = "The customer number; not a positive whole number: 400.", example = 100555)),
    responses(
        (status = 200, description = "The contacts, the company and the candidates.", body = crate::services::customer_groups::CustomerGroup, content_type = "application/json"),
        (status = 400, description = "Not a positive whole number.", body = super::openapi::ValidationError, content_type = "application/json", example = json!({"message": "Die Kundennummer muss eine Zahl sein.", "code": "validation_error"})),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::Forbidden),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"}))),
)]
async fn by_customer_number(
    State(state): State<AppState>,
    Path(number): Path<String>,
) -> Result<JsonResponse<CustomerGroup>, ApiError> {
    Ok(JsonResponse(
        customer_groups::load(&state.db, state.planning.as_ref(), &number).await?,
    ))
}

/// The contact editor's save: the customer group as one unit.
#[utoipa::path(
    put,
    path = "/api/contacts/customer-number/{number}",
    operation_id = "saveCustomerGroup",
    tag = "contacts",
    summary = "Save a customer group (the contact editor)",
    description = "Applies the customer group as one unit (see `CustomerGroupInput`). Checked completely first: fields of each contact (the first error, naming the contact), no email twice in the group ('E-Mail doppelt vorhanden!'), none used by another customer number, at least one criterion unless BU-DOI. BU-DOI may create contacts (e.g. from import candidates) and keep the group's lists, but not change salutation or names, remove contacts or add lists (403). With Brevo, each contact is changed there first; when Brevo refuses a step, the steps before it are undone and the answer is 502 saying so; nothing is saved. Answers the group as `GET` does.\n\n**Wer darf:** Kontaktbearbeiter (Capability `ContactEdit`; die Einschränkungen für BU-DOI siehe oben).",
    params(("number" = i64, Path, minimum = 1, maximum = 1000000000000000000i64, description = "The customer number; must match `customerNumber` of the body.", example = 100555)),
    request_body(content = CustomerGroupInput, content_type = "application/json", example = json!({"customerNumber": 100555, "companyName": "Müller GmbH", "listsIds": [1], "uncheckedListsIds": [], "contacts": [{"id": 1, "email": "kontakt@example.de", "salutation": 2, "firstname": "Max", "lastname": "Müller"}, {"email": "neu@example.de", "salutation": 3, "firstname": "Nina", "lastname": "Neu"}], "alphaPlanContacts": []})),
    responses(
        (status = 200, description = "Saved; the group after the save.", body = crate::services::customer_groups::CustomerGroup, content_type = "application/json"),
        (status = 400, description = "A field, a contact that is not of the group, an unknown list, or no criterion; nothing was changed.", body = super::openapi::ValidationError, content_type = "application/json", example = json!({"message": "Es muss mindestens ein Kriterium ausgewählt werden.", "code": "validation_error"})),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 409, description = "`email_exists`: an email twice in the group, or used under another customer number (the message names it). `changed_meanwhile`: a contact was changed or removed by someone else meanwhile. Nothing was changed.", body = super::openapi::GroupConflict, content_type = "application/json", example = json!({"message": "E-Mail doppelt vorhanden!", "code": "email_exists"})),
        (status = 413, response = super::openapi::PayloadTooLarge),
        (status = 500, response = super::openapi::InternalError),
        (status = 502, description = "Brevo refused a step or was down; the steps already done there were undone (what could not be undone at once is retried, see `GET /api/contacts/marketing-retries`); nothing was saved.", body = super::openapi::MarketingServiceError, content_type = "application/json", example = json!({"message": "Brevo hat eine Änderung abgelehnt oder war nicht erreichbar; es wurde nichts gespeichert. 2 bereits in Brevo ausgeführte Änderung(en) wurden zurückgenommen.", "code": "marketing_service_error"})),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"})), ("x-rule-statuses" = json!([400]))),
)]
async fn save_customer_group(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(number): Path<String>,
    Json(body): Json<CustomerGroupInput>,
) -> Result<JsonResponse<CustomerGroup>, ApiError> {
    Ok(JsonResponse(
        customer_groups::save(
            &state.db,
            &state.marketing,
            state.planning.as_ref(),
            &user,
            &number,
            &body,
        )
        .await?,
    ))
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
        (status = 200, description = "The stream of results, one JSON object per line.", body = crate::services::brevo_sync::Event, content_type = "application/x-ndjson", example = json!("{\"result\":\"start\",\"message\":\"Synchronisierung gestartet: Kontakte aus Brevo, alle.\",\"modifiedSince\":null,\"resumed\":false}\n")),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 409, description = "`sync_running`: another run is going on. `marketing_not_connected`: no Brevo API key (local mode).", body = super::openapi::SyncRefused, content_type = "application/json", example = json!({"message": "Es läuft bereits eine Synchronisierung. Bitte warten Sie, bis sie abgeschlossen ist.", "code": "sync_running"})),
        (status = 500, response = super::openapi::InternalError),
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

#[utoipa::path(
    get,
    path = "/api/contacts/{id}/lists",
    operation_id = "listsOfContact",
    tag = "contacts",
    summary = "A contact's lists",
    description = "The lists (criteria) the contact is on, each with its provider.\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`).",
    params(("id" = i64, Path, description = "The contact's id; not a number or unknown: 404.")),
    responses(
        (status = 200, description = "The lists.", body = AssignedListPage, content_type = "application/json"),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::Forbidden),
        (status = 404, response = super::openapi::NotFound),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"}))),
)]
async fn lists_of(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<JsonResponse<AssignedListPage>, ApiError> {
    let content = contacts::lists_of(&state.db, id).await?;
    Ok(JsonResponse(AssignedListPage {
        count: content.len() as i64,
        content,
    }))
}

#[derive(Serialize, ToSchema)]
struct AssignedListPage {
    /// Number of lists.
    count: i64,
    content: Vec<contacts::AssignedListView>,
}

#[utoipa::path(
    get,
    path = "/api/contacts/lists",
    operation_id = "listsOfContactsWithoutIds",
    tag = "contacts",
    summary = "Lists of contacts (no ids given)",
    description = "The form of `GET /api/contacts/lists/{contactIds}` without ids: always 400.\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`).",
    responses(
        (status = 400, response = super::openapi::NoContactIds),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::Forbidden),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"})), ("x-rule-statuses" = json!([400]))),
)]
async fn lists_without_ids() -> ApiError {
    ApiError::validation(contacts::NO_CONTACT_IDS)
}

#[utoipa::path(
    get,
    path = "/api/contacts/lists/{contactIds}",
    operation_id = "listsOfContacts",
    tag = "contacts",
    summary = "Lists of several contacts",
    description = "The lists (criteria) any of these contacts is on, each with its provider and the contacts (of those asked for) on it.\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`).",
    params(("contactIds" = crate::domain::input::IdsText, Path, description = "JSON array of contact ids (or ids separated by commas), at most 1000; empty or anything else answers 400.", example = "[1,2]")),
    responses(
        (status = 200, description = "The lists.", body = AssignedListPage, content_type = "application/json"),
        (status = 400, response = super::openapi::NoContactIds),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::Forbidden),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"}))),
)]
async fn lists_of_many(
    State(state): State<AppState>,
    Path(contact_ids): Path<String>,
) -> Result<JsonResponse<AssignedListPage>, ApiError> {
    let (content, count) = contacts::lists_of_many(&state.db, Some(&contact_ids)).await?;
    Ok(JsonResponse(AssignedListPage { count, content }))
}

#[utoipa::path(
    post,
    path = "/api/contacts",
    operation_id = "createContact",
    tag = "contacts",
    summary = "Create a contact",
    description = "Creates the contact (and its company when the customer number is new; an existing company keeps its name) on the given lists, in the marketing service first; `doubleOptIn` starts `false`. An email the marketing service knows already is taken over there.\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`); Kriterien nur von Anbietern, die der Benutzer verwalten darf (`GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters, `may_manage_provider`), und mit `GS-Aktionsportal-BU-DOI` allein nur Kriterien, die die Kundennummer schon hat; sonst 403.",
    request_body(content = ContactBody, content_type = "application/json"),
    responses(
        (status = 201, description = "The new contact.", body = crate::services::contacts::ContactView, content_type = "application/json"),
        (status = 400, response = super::openapi::ContactInvalid),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 408, response = super::openapi::SlowRequest),
        (status = 409, response = super::openapi::ContactConflict),
        (status = 413, response = super::openapi::PayloadTooLarge),
        (status = 500, response = super::openapi::InternalError),
        (status = 502, response = super::openapi::MarketingError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"})), ("x-rule-statuses" = json!([400]))),
)]
async fn create(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Json(body): Json<ContactBody>,
) -> Result<(StatusCode, JsonResponse<ContactView>), ApiError> {
    let contact = contacts::create(&state.db, &state.marketing, &user, &body).await?;
    Ok((StatusCode::CREATED, JsonResponse(contact)))
}

#[utoipa::path(
    put,
    path = "/api/contacts/{id}",
    operation_id = "updateContact",
    tag = "contacts",
    summary = "Edit a contact",
    description = "Same fields as `POST /api/contacts` plus `uncheckedListsIds`: lists in `listsIds` are assigned, those in `uncheckedListsIds` taken off; other lists stay. The marketing service is changed first (a contact it does not know is created there). Without Capability `ContactDetails` (`GS-Aktionsportal-BU-DOI`) salutation, first and last name must stay as they are, and no list may be added or taken off (else 403); the email may change. Another `customerNumber` moves the contact into that customer's group: only with Capability `ContactDetails` and when the user may manage every list the contact is on (else 403 `forbidden` with a German message, nothing changes); the company of that customer number keeps its name (`companyName` creates it when it is new, and renames only the contact's own company). A new `email` starts unconfirmed: `doubleOptIn` becomes `false` here and in the marketing service, and the links mailed to the old address no longer confirm.\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`); Kriterien nur von Anbietern, die der Benutzer verwalten darf (`may_manage_provider`), und Anrede und Namen nur mit `GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`; sonst 403.",
    params(("id" = i64, Path, description = "The contact's id; not a number or unknown: 404.")),
    request_body(content = ContactBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The contact after the edit.", body = crate::services::contacts::ContactView, content_type = "application/json"),
        (status = 400, response = super::openapi::ContactInvalid),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 404, response = super::openapi::NotFound),
        (status = 408, response = super::openapi::SlowRequest),
        (status = 409, response = super::openapi::ContactConflict),
        (status = 413, response = super::openapi::PayloadTooLarge),
        (status = 500, response = super::openapi::InternalError),
        (status = 502, response = super::openapi::MarketingError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"})), ("x-rule-statuses" = json!([400]))),
)]
async fn update(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<ContactBody>,
) -> Result<JsonResponse<ContactView>, ApiError> {
    Ok(JsonResponse(
        contacts::update(&state.db, &state.marketing, &user, id, &body).await?,
    ))
}

#[utoipa::path(
    delete,
    path = "/api/contacts/{id}",
    operation_id = "deleteContact",
    tag = "contacts",
    summary = "Delete a contact",
    description = "Deletes the contact in the marketing service (one it does not know counts as deleted) and here.\n\n**Wer darf:** `GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator` (Capability `ContactDetails`); `GS-Aktionsportal-BU-DOI` bekommt 403.",
    params(("id" = i64, Path, description = "The contact's id; not a number or unknown: 404.")),
    responses(
        (status = 200, description = "Deleted.", body = super::Removed, content_type = "application/json", example = json!({"message": "Erfolgreich entfernt", "id": 7})),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 404, response = super::openapi::NotFound),
        (status = 409, response = super::openapi::MarketingRetryPending),
        (status = 500, response = super::openapi::InternalError),
        (status = 502, response = super::openapi::MarketingError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactDetails"}))),
)]
async fn remove(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<JsonResponse<super::Removed>, ApiError> {
    contacts::delete(&state.db, &state.marketing, id).await?;
    Ok(JsonResponse(super::Removed::new(id)))
}

#[utoipa::path(
    patch,
    path = "/api/contacts/email-blacklist/{id}",
    operation_id = "toggleContactBlacklist",
    tag = "contacts",
    summary = "Block or unblock a contact's email",
    description = "Switches `emailBlacklisted` (no body), in the marketing service first.\n\n**Wer darf:** `GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator` (Capability `ContactDetails`); `GS-Aktionsportal-BU-DOI` bekommt 403.",
    params(("id" = i64, Path, description = "The contact's id; not a number or unknown: 404.")),
    responses(
        (status = 200, description = "The contact after the change.", body = crate::services::contacts::ContactView, content_type = "application/json"),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 404, response = super::openapi::NotFound),
        (status = 409, response = super::openapi::MarketingRetryPending),
        (status = 500, response = super::openapi::InternalError),
        (status = 502, response = super::openapi::MarketingError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactDetails"}))),
)]
async fn toggle_blacklist(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<JsonResponse<ContactView>, ApiError> {
    Ok(JsonResponse(
        contacts::toggle_blacklist(&state.db, &state.marketing, id).await?,
    ))
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
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 404, description = "The link is unknown, expired or not a token (also the bare contact id).", body = DoubleOptInFailed, content_type = "application/json", example = json!({"code": "double_opt_in_failed", "message": "Die E-Mail konnte nicht bestätigt werden oder gefunden werden!"})),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
async fn confirm_double_opt_in(
    State(state): State<AppState>,
    client: Client,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let address = client.ip.to_string();
    match double_opt_in::confirm(&state.db, &state.marketing, &token, Some(&address)).await {
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
        (status = 200, description = "Sent (`status` 201) or confirmed already (`status` 200).", body = crate::services::double_opt_in::SendAnswer, content_type = "application/json", example = json!({"status": 201, "messageId": "<doi-7-3f9a0c1d2e4b5a69@example.de>", "code": "DOUBLE_OPT-IN_SENT", "message": "Double-Opt-In an anna@example.de gesendet."})),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 404, response = super::openapi::NotFound),
        (status = 409, description = "The email is blocked (unblock it first), or a confirmation mail went to it less than a minute ago.", body = super::openapi::MailRefused, content_type = "application/json", example = json!({"message": "anna@example.de ist gesperrt. Bitte heben Sie die Sperre auf, bevor Sie die Bestätigung erneut senden.", "code": "email_blacklisted"})),
        (status = 500, response = super::openapi::InternalError),
        (status = 502, description = "The mail was not sent (mail server or marketing service refused or unreachable).", body = super::openapi::MarketingServiceError, content_type = "application/json", example = json!({"message": "Der Mailserver hat die E-Mail nicht angenommen. Bitte versuchen Sie es später erneut.", "code": "marketing_service_error"})),
        (status = 503, response = super::openapi::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"}))),
)]
async fn send_one(
    State(state): State<AppState>,
    Path(email): Path<String>,
) -> Result<JsonResponse<double_opt_in::SendAnswer>, ApiError> {
    Ok(JsonResponse(
        double_opt_in::send_one(&state.db, &state.mailer, &state.mail_settings, &email).await?,
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
        (status = 200, description = "Started, running already, or not available here.", body = crate::services::double_opt_in::MassAnswer, content_type = "application/json"),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
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
        (status = 200, description = "The newest job, or `null`.", body = crate::services::double_opt_in::MailJobState, content_type = "application/json"),
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::Forbidden),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
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
        (status = 401, response = super::openapi::NotLoggedIn),
        (status = 403, response = super::openapi::Forbidden),
        (status = 500, response = super::openapi::InternalError),
        (status = 503, response = super::openapi::Timeout),
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

/// The form of the confirmation page (`/user/verify-double-opt-in/{token}`).
#[derive(serde::Deserialize, ToSchema)]
#[allow(dead_code)]
struct ConfirmForm {
    /// The token of the link (64 hex digits; another value confirms nothing).
    token: String,
}

/// `POST /api/fn/confirm-double-opt-in` is the Leptos server function of the confirmation page
/// (`app::pages::double_opt_in`), routed by Leptos; this item only carries its description,
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
        (status = 400, description = "Arguments that cannot be read (no `token`).", body = super::openapi::ValidationError, content_type = "application/json", example = json!({"message": "Die Anfrage enthält ungültige Angaben.", "code": "validation_error"})),
        (status = 403, response = super::openapi::ForbiddenOrCrossSite),
        (status = 500, description = "Confirming failed for another reason (logged); Leptos' error encoding.", body = String, content_type = "text/plain", example = json!("ServerError|Die E-Mail konnte nicht bestätigt werden oder gefunden werden!")),
    ),
    extensions(("x-access" = json!({"capability": null})), ("x-rule-statuses" = json!([400]))),
)]
#[allow(dead_code)]
fn confirm_double_opt_in_form_doc() {}
