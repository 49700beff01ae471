//! Contacts (spec §7 "Contacts"): the admin table, the contact editor's lookups and single
//! saves, blocking and deleting. Customer groups, double opt-in mails, the sync and the
//! marketing retries have their own modules. Each handler reads the request and calls one
//! service function.

pub mod customer_groups;
pub mod double_opt_in;
pub mod planning;
pub mod unsubscribe;

use axum::Router;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json as JsonResponse, Response};
use axum::routing::{get, patch, post, put};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Json, Path, Query};
use crate::api::operations::kept;
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::domain::user::DataVersionRead;
use crate::services::contacts::{self, ContactBody, ContactQuery, ContactView};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    // The contacts table: the admin area (spec §6).
    let table = Router::new()
        .route("/contacts", get(page))
        .route("/contacts/providers/{provider_ids}", get(page_of_providers))
        .route_layer(require(Capability::AdminArea));
    // The contact editor (Admin, BU-Moderator, BU-DOI).
    let editor = Router::new()
        .route("/contacts", post(create))
        .route("/contacts/{id}", put(update))
        .route("/contacts/email/{email}", get(by_email))
        .route("/contacts/{id}/lists", get(lists_of))
        .route("/contacts/lists", get(lists_without_ids))
        .route("/contacts/lists/{contact_ids}", get(lists_of_many))
        .route_layer(require(Capability::ContactEdit));
    // Blocking and deleting (Admin, BU-Moderator).
    let details = Router::new()
        .route("/contacts/{id}", axum::routing::delete(remove))
        .route("/contacts/email-blacklist/{id}", patch(toggle_blacklist))
        .route_layer(require(Capability::ContactDetails));
    // Requests of the people the data is about (issue 25): the admin alone.
    let requests = Router::new()
        // It writes an audit entry in the admin's name: not from another site's page.
        .route(
            "/contacts/{id}/export",
            get(export).layer(axum::middleware::from_fn(crate::auth::csrf::same_site_only)),
        )
        .route("/contacts/{id}/erase", post(erase))
        .route_layer(require(Capability::AdminOnly));
    table.merge(editor).merge(details).merge(requests)
}

#[utoipa::path(
    get,
    path = "/api/contacts/{id}/export",
    operation_id = "exportContactData",
    tag = "contacts",
    summary = "Everything stored about a contact (DSGVO Art. 15, 20)",
    description = "One JSON document to save: the contact with its Brevo id and proof of consent, the consent text it confirmed, its company, its lists, its mails of mail jobs, every other place that keeps something about it (`stored`: the rows an erasure removes) and the audit log's entries that name it (the entries an erasure rewrites). The request itself is written to the audit log (`export`), so it is refused with 403 `cross_site_request` when another site sent the browser (`Sec-Fetch-Site` other than `same-origin`/`none`).\n\n**Wer darf:** `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    params(("id" = i64, Path, description = "The contact's id; not a number or unknown: 404.")),
    responses(
        (status = 200, description = "The document, as an attachment `Kontakt-{id}.json`.", body = crate::services::contacts::data_subject::ContactExport, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"}))),
)]
async fn export(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    let document =
        crate::services::contacts::data_subject::export(&state.db, &state.mailer, &user, id)
            .await?;
    let disposition =
        crate::api::catalog::delivery::content_disposition(&format!("Kontakt-{id}.json"), false);
    Ok((
        [
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        JsonResponse(document),
    )
        .into_response())
}

#[utoipa::path(
    post,
    path = "/api/contacts/{id}/erase",
    operation_id = "eraseContact",
    tag = "contacts",
    summary = "Erase a contact for good (DSGVO Art. 17)",
    description = "Deletes the contact in the marketing service first (Brevo `DELETE /v3/contacts/{identifier}`; one it does not know counts as deleted). When that fails, nothing here changes (502 with a German message). Then the portal's copies of mails to it in the outbox folder, and in one transaction the contact, its list memberships, its double opt-in links and proof of consent, its mails of mail jobs, waiting changes for the marketing service and import candidates with its address, its customer group when no other contact is in it, and every personal value in the audit log's entries about it (they read \"gelöscht\"; who changed what and when stays). The erasure is written to the audit log (`erase`). No request body.\n\n**Wer darf:** `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    params(("id" = i64, Path, description = "The contact's id; not a number or unknown: 404.")),
    responses(
        (status = 200, description = "Erased; what went.", body = crate::services::contacts::data_subject::ErasureReport, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"}))),
)]
async fn erase(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<crate::services::contacts::data_subject::ErasureReport>, ApiError> {
    let report = crate::services::contacts::data_subject::erase(
        &state.db,
        &state.marketing,
        &state.mailer,
        &user,
        id,
    )
    .await?;
    Ok(JsonResponse(report))
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
        (status = 400, response = crate::api::responses::ContactQueryInvalid),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn page(
    State(state): State<AppState>,
    read: Option<Extension<DataVersionRead>>,
    Query(query): Query<ContactQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let params = query.params(crate::domain::time::now())?;
    let answer = state
        .within_list_time(contacts::page_answer(
            &state.db,
            &state.answers,
            read.map(|r| r.0),
            &params,
        ))
        .await?;
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
        (status = 400, response = crate::api::responses::ContactQueryInvalid),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn page_of_providers(
    State(state): State<AppState>,
    read: Option<Extension<DataVersionRead>>,
    Path(provider_ids): Path<String>,
    Query(query): Query<ContactQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let mut params = query.params(crate::domain::time::now())?;
    params.filter.provider_ids = Some(contacts::provider_ids(&provider_ids)?);
    let answer = state
        .within_list_time(contacts::page_answer(
            &state.db,
            &state.answers,
            read.map(|r| r.0),
            &params,
        ))
        .await?;
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
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
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
    path = "/api/contacts/{id}/lists",
    operation_id = "listsOfContact",
    tag = "contacts",
    summary = "A contact's lists",
    description = "The lists (criteria) the contact is on, each with its provider.\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`).",
    params(("id" = i64, Path, description = "The contact's id; not a number or unknown: 404.")),
    responses(
        (status = 200, description = "The lists.", body = AssignedListPage, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
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
        (status = 400, response = crate::api::responses::NoContactIds),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
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
        (status = 400, response = crate::api::responses::NoContactIds),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
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
        (status = 400, response = crate::api::responses::ContactInvalid),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 409, response = crate::api::responses::ContactConflict),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
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
        (status = 400, response = crate::api::responses::ContactInvalid),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 409, response = crate::api::responses::ContactConflict),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
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
        (status = 200, description = "Deleted.", body = crate::api::Removed, content_type = "application/json", example = json!({"message": "Erfolgreich entfernt", "id": 7})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 409, response = crate::api::responses::MarketingRetryPending),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactDetails"}))),
)]
async fn remove(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<crate::api::Removed>, ApiError> {
    contacts::delete(&state.db, &state.marketing, &user, id).await?;
    Ok(JsonResponse(crate::api::Removed::new(id)))
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
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 409, response = crate::api::responses::MarketingRetryPending),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactDetails"}))),
)]
async fn toggle_blacklist(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<ContactView>, ApiError> {
    Ok(JsonResponse(
        contacts::toggle_blacklist(&state.db, &state.marketing, &user, id).await?,
    ))
}
