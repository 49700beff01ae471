//! Customer groups (spec §3 "Customer group"): the contact editor loads and saves all
//! contacts of one customer number as one unit.

use axum::Router;
use axum::extract::State;
use axum::response::Json as JsonResponse;
use axum::routing::get;

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Json, Path};
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::services::contacts::customer_groups::{self, CustomerGroup, CustomerGroupInput};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    // The contact editor (Admin, BU-Moderator, BU-DOI).
    Router::new()
        .route(
            "/contacts/customer-number/{number}",
            get(by_customer_number).put(save_customer_group),
        )
        .route_layer(require(Capability::ContactEdit))
}

#[utoipa::path(
    get,
    path = "/api/contacts/customer-number/{number}",
    operation_id = "getContactsByCustomerNumber",
    tag = "contacts",
    summary = "The contacts of a customer number",
    description = "Every contact with this customer number and, under `imports`, the company and the import candidates: from the planning system's service (`AP_PLANNING_URL`, see `x-external-contracts`) and from imported CSV files, without those that are contacts of the group already. A planning system that is not connected, slow (over `AP_PLANNING_TIMEOUT_SECS`) or failing gives `imports.message`, never an error.\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`).",
    params(("number" = i64, Path, minimum = 1, maximum = 1000000000000000000i64, description = "The customer number; not a positive whole number: 400.", example = 100555)),
    responses(
        (status = 200, description = "The contacts, the company and the candidates.", body = crate::services::contacts::customer_groups::CustomerGroup, content_type = "application/json"),
        (status = 400, description = "Not a positive whole number.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Die Kundennummer muss eine Zahl sein.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
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
        (status = 200, description = "Saved; the group after the save.", body = crate::services::contacts::customer_groups::CustomerGroup, content_type = "application/json"),
        (status = 400, description = "A field, a contact that is not of the group, an unknown list, or no criterion; nothing was changed.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Es muss mindestens ein Kriterium ausgewählt werden.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 409, description = "`email_exists`: an email twice in the group, or used under another customer number (the message names it). `changed_meanwhile`: a contact was changed or removed by someone else meanwhile. Nothing was changed.", body = crate::api::responses::GroupConflict, content_type = "application/json", example = json!({"message": "E-Mail doppelt vorhanden!", "code": "email_exists"})),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, description = "Brevo refused a step or was down; the steps already done there were undone (what could not be undone at once is retried, see `GET /api/contacts/marketing-retries`); nothing was saved.", body = crate::api::responses::MarketingServiceError, content_type = "application/json", example = json!({"message": "Brevo hat eine Änderung abgelehnt oder war nicht erreichbar; es wurde nichts gespeichert. 2 bereits in Brevo ausgeführte Änderung(en) wurden zurückgenommen.", "code": "marketing_service_error"})),
        (status = 503, response = crate::api::responses::Timeout),
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
