//! Providers and their lists (spec §7 "Providers, folders, lists").

use axum::extract::State;
use axum::routing::{get, post, put};
use axum::{Router, response::Json as JsonResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Json, PageQuery, Path, Query};
use crate::auth::require::require;
use crate::domain::lists::ListFilter;
use crate::domain::paging::MAX_PAGE_SIZE;
use crate::domain::permissions::Capability;
use crate::services::marketing::lists::ProviderWithLists;
use crate::services::marketing::lists::{self, ListView};
use crate::services::marketing::providers::{self, ProviderInput, ProviderView};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    let admin_only = Router::new()
        .route("/providers", post(create))
        .route("/providers/{id}", put(update).delete(remove))
        .route_layer(require(Capability::AdminOnly));
    let admin_area = Router::new()
        .route("/providers", get(page))
        .route("/providers/{id}/lists", get(lists_page).post(create_list))
        .route_layer(require(Capability::AdminArea));
    let contact_edit = Router::new()
        .route("/providers/contact/{id}", get(of_contact))
        .route_layer(require(Capability::ContactEdit));
    admin_only.merge(admin_area).merge(contact_edit)
}

#[utoipa::path(
    get,
    path = "/api/providers/contact/{id}",
    operation_id = "providersOfContact",
    tag = "providers",
    summary = "A contact's lists grouped by provider",
    description = "For the contact with this id: the providers the user may manage that hold at least one of the contact's lists, each with those lists in `Lists` (the criteria side panel).\n\n**Wer darf:** Kontaktbearbeiter, also `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator` oder `GS-Aktionsportal-BU-DOI` (Capability `ContactEdit`); die Antwort enthält nur Anbieter, die der Benutzer verwalten darf (Admins: alle, sonst Rolle in `allowedRoles`).",
    params(("id" = i64, Path, description = "The contact's id; not a number or unknown: 404.")),
    responses(
        (status = 200, description = "Providers with the contact's lists.", body = ContactProviderPage, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "ContactEdit"}))),
)]
async fn of_contact(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<ContactProviderPage>, ApiError> {
    let content = crate::services::marketing::lists::of_contact(&state.db, &user, id).await?;
    let count = content.len();
    Ok(JsonResponse(ContactProviderPage { content, count }))
}

#[derive(Serialize, ToSchema)]
pub struct ContactProviderPage {
    content: Vec<ProviderWithLists>,
    /// Number of entries in `content` (not paged).
    count: usize,
}

#[derive(Serialize, ToSchema)]
pub struct ProviderPage {
    content: Vec<ProviderView>,
    /// All matching providers.
    count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct ListPage {
    content: Vec<ListView>,
    /// All matching lists.
    count: i64,
}

#[utoipa::path(
    get,
    path = "/api/providers/",
    operation_id = "listProviders",
    tag = "providers",
    summary = "Page of providers",
    description = "The providers the user may manage (admins: all; others: those with one of the user's roles in `allowedRoles`), newest first, filtered by name. `sort` and `sortBy` are accepted and ignored.\n\n**Wer darf:** Admin-Bereich, also `GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator` (Capability `AdminArea`).",
    params(PageQuery),
    responses(
        (status = 200, description = "One page and the total.", body = ProviderPage, content_type = "application/json"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn page(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(q): Query<PageQuery>,
) -> Result<JsonResponse<ProviderPage>, ApiError> {
    let paging = q.paging(MAX_PAGE_SIZE)?;
    let (content, count) = providers::page(
        &state.db,
        &user,
        &q.search(),
        paging.ascending,
        paging.limit,
        paging.offset,
    )
    .await?;
    Ok(JsonResponse(ProviderPage { content, count }))
}

#[utoipa::path(
    post,
    path = "/api/providers/",
    operation_id = "createProvider",
    tag = "providers",
    summary = "Create a provider",
    description = "Creates a provider. `uploadId` must name an uploaded picture the user may use (as for a package's files). Folder ids that name existing folders must exist; `\"auto\"` creates a folder in the marketing service first (undone again if a later step fails).\n\n**Wer darf:** nur `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    request_body(content = crate::services::marketing::providers::ProviderInput, content_type = "application/json"),
    responses(
        (status = 200, description = "The created provider.", body = crate::services::marketing::providers::ProviderView, content_type = "application/json"),
        (status = 400, description = "Invalid input with the German message of spec §5: name length (\"Der Name muss mindestens 2 Zeichen lang sein.\"), roles (\"Es muss mindestens eine Gruppe eingetragen werden!\", \"… existiert bereits in der Liste!\"), folders (\"Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!\", unknown or equal folders), logo not an uploaded image, a name already taken (\"Ein Anbieter mit dem Namen … existiert bereits!\"), or a malformed body.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Die Anfrage hat nicht das erwartete Format.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"})), ("x-rule-statuses" = json!([400]))),
)]
async fn create(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Json(input): Json<ProviderInput>,
) -> Result<JsonResponse<ProviderView>, ApiError> {
    Ok(JsonResponse(
        providers::create(&state.db, &state.marketing, &user, &input).await?,
    ))
}

#[utoipa::path(
    put,
    path = "/api/providers/{id}",
    operation_id = "updateProvider",
    tag = "providers",
    summary = "Change a provider",
    description = "Same fields as `POST /api/providers/`. When a folder changes, the provider's lists are moved into the new folder in the marketing service first.\n\n**Wer darf:** nur `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    request_body(content = crate::services::marketing::providers::ProviderInput, content_type = "application/json"),
    responses(
        (status = 200, description = "The changed provider.", body = crate::services::marketing::providers::ProviderView, content_type = "application/json"),
        (status = 400, description = "Invalid input as for `POST /api/providers/`, or a malformed body.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Die Anfrage hat nicht das erwartete Format.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"})), ("x-rule-statuses" = json!([400]))),
)]
async fn update(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(input): Json<ProviderInput>,
) -> Result<JsonResponse<ProviderView>, ApiError> {
    Ok(JsonResponse(
        providers::update(&state.db, &state.marketing, &user, id, &input).await?,
    ))
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
struct DeleteQuery {
    /// Also delete the provider's marketing folders (spec §9: default false).
    #[serde(default)]
    delete_brevo_folders: bool,
}

#[utoipa::path(
    delete,
    path = "/api/providers/{id}/",
    operation_id = "deleteProvider",
    tag = "providers",
    summary = "Delete a provider",
    description = "Deletes the provider with its lists (and downloads); with `deleteBrevoFolders=true` its active and inactive marketing folders are deleted first (in Brevo together with the lists inside them).\n\n**Wer darf:** nur `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`."), DeleteQuery),
    responses(
        (status = 200, description = "Deleted.", body = crate::api::Removed, content_type = "application/json", example = json!({"message": "Erfolgreich entfernt", "id": 3})),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"}))),
)]
async fn remove(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(q): Query<DeleteQuery>,
) -> Result<JsonResponse<crate::api::Removed>, ApiError> {
    providers::delete(
        &state.db,
        &state.marketing,
        &state.files,
        &user,
        id,
        q.delete_brevo_folders,
    )
    .await?;
    Ok(JsonResponse(crate::api::Removed::new(id)))
}

/// Paging plus the status filter. (No `#[serde(flatten)]`: query strings lose their types
/// through it.)
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
struct ListsQuery {
    /// Page size; default 20 (spec §9), clamped to 1–1000.
    #[param(minimum = 1, maximum = 1000)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    limit: Option<i64>,
    /// Entries to skip; negative values count as 0.
    #[param(minimum = 0)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    offset: Option<i64>,
    /// `ASC` or `DESC` (default), any letter case; anything else answers 400.
    #[param(value_type = Option<crate::domain::paging::SortOrder>, inline)]
    sort: Option<String>,
    /// Part of the name, any letter case; trimmed, empty means no filter.
    search: Option<String>,
    /// Include active lists.
    active_status: Option<bool>,
    /// Include inactive lists.
    inactive_status: Option<bool>,
}

#[utoipa::path(
    get,
    path = "/api/providers/{id}/lists/",
    operation_id = "listProviderLists",
    tag = "lists",
    summary = "Page of a provider's lists",
    description = "The provider's lists with live subscriber and blocked counts, by id (newest first unless `sort=ASC`), filtered by status and name. Neither `activeStatus` nor `inactiveStatus` true means both (spec §4).\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich Verwaltungsrecht am Anbieter: Admins immer, alle anderen nur mit einer Rolle aus dessen `allowedRoles` (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`."), ListsQuery),
    responses(
        (status = 200, description = "One page and the total.", body = ListPage, content_type = "application/json"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"}))),
)]
async fn lists_page(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(q): Query<ListsQuery>,
) -> Result<JsonResponse<ListPage>, ApiError> {
    let page = PageQuery {
        limit: q.limit,
        offset: q.offset,
        sort: q.sort,
        sort_by: None,
        search: q.search,
    };
    let paging = page.paging(MAX_PAGE_SIZE)?;
    let filter = ListFilter {
        active: q.active_status.unwrap_or(false),
        inactive: q.inactive_status.unwrap_or(false),
        search: Some(page.search()).filter(|s| !s.is_empty()),
        ascending: paging.ascending,
    };
    let (content, count) = state
        .within_list_time(lists::page(
            &state.db,
            &user,
            id,
            &filter,
            paging.limit,
            paging.offset,
        ))
        .await?;
    Ok(JsonResponse(ListPage { content, count }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({"name": "Flyer Herbst"}))]
struct NewList {
    #[serde(default)]
    #[schema(min_length = 5, max_length = 50)]
    name: String,
    /// Links an existing marketing-service list instead of creating one in the provider's
    /// active folder (not possible in local mode).
    brevo_list_id: Option<i64>,
}

#[utoipa::path(
    post,
    path = "/api/providers/{id}/lists",
    operation_id = "createList",
    tag = "lists",
    summary = "Create a list of a provider",
    description = "Creates a list (active) in the provider's active marketing folder, or — with `brevoListId` — links an existing marketing-service list.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich Verwaltungsrecht am Anbieter: Admins immer, alle anderen nur mit einer Rolle aus dessen `allowedRoles` (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    request_body(content = NewList, content_type = "application/json"),
    responses(
        (status = 200, description = "The created list.", body = crate::services::marketing::lists::ListView, content_type = "application/json"),
        (status = 400, description = "Name not 5–50 characters, `brevoListId` in local mode (\"Ohne Marketing-Dienst können keine Listen verknüpft werden.\"), or a malformed body.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Die Anfrage hat nicht das erwartete Format.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 409, description = "`list_exists`: the marketing-service list is already a criterion. `change_folder_warning`: the provider has no active folder to create the list in.", body = crate::api::responses::ListConflict, content_type = "application/json", example = json!({"message": "Diese Liste ist bereits als Kriterium angelegt.", "code": "list_exists"})),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"})), ("x-rule-statuses" = json!([400]))),
)]
async fn create_list(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<NewList>,
) -> Result<JsonResponse<ListView>, ApiError> {
    Ok(JsonResponse(
        lists::create(
            &state.db,
            &state.marketing,
            &user,
            id,
            &body.name,
            body.brevo_list_id,
        )
        .await?,
    ))
}
