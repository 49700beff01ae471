//! Changes to single lists and the sync of a provider's lists (spec §7).

use axum::Router;
use axum::extract::State;
use axum::response::Json as JsonResponse;
use axum::routing::{delete, get, patch};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Json, Path};
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::services::marketing::lists::{self, FOLDER_WARNING, ListView, StatusChange};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/lists/name/{id}", patch(rename))
        .route("/lists/status/{id}", patch(status))
        .route("/lists/{id}", delete(remove))
        // A GET that changes data (spec §7): not when another site sends the browser.
        .route(
            "/sync/providers/{id}",
            get(sync).layer(axum::middleware::from_fn(crate::auth::csrf::same_site_only)),
        )
        .route_layer(require(Capability::AdminArea))
}

#[derive(Deserialize, ToSchema)]
#[schema(as = ListName, example = json!({"name": "Flyer Herbst 2025"}))]
struct NameBody {
    #[serde(default)]
    #[schema(min_length = 5, max_length = 100)]
    name: String,
}

#[utoipa::path(
    patch,
    path = "/api/lists/name/{id}",
    operation_id = "renameList",
    tag = "lists",
    summary = "Rename a list",
    description = "Renames the list in the marketing service, then in the portal.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich Verwaltungsrecht am Anbieter: Admins immer, alle anderen nur mit einer Rolle aus dessen `allowedRoles` (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    request_body(content = NameBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The renamed list.", body = crate::services::marketing::lists::ListView, content_type = "application/json"),
        (status = 400, description = "Name not 5–100 characters, or a malformed body.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Die Anfrage hat nicht das erwartete Format.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"}))),
)]
async fn rename(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<NameBody>,
) -> Result<JsonResponse<ListView>, ApiError> {
    Ok(JsonResponse(
        lists::rename(&state.db, &state.marketing, &user, id, &body.name).await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[schema(as = ListStatus, example = json!({"active": false}))]
struct StatusBody {
    active: bool,
}

/// Answers 200 in both outcomes: spec §4 reads `code` (change_folder_warning changes nothing).
#[utoipa::path(
    patch,
    path = "/api/lists/status/{id}",
    operation_id = "setListStatus",
    tag = "lists",
    summary = "Activate or deactivate a list",
    description = "Moves the list into the provider's active or inactive marketing folder and records the new status. Both outcomes answer 200; read `code` (spec §4): `status_changed` with the list in `content`, or `change_folder_warning` with a `message` when the provider's folders are not both set — then nothing changed.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich Verwaltungsrecht am Anbieter: Admins immer, alle anderen nur mit einer Rolle aus dessen `allowedRoles` (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    request_body(content = StatusBody, content_type = "application/json"),
    responses(
        (status = 200, description = "`status_changed` or `change_folder_warning`.", body = StatusAnswer, content_type = "application/json"),
        (status = 400, description = "Body missing, not `Content-Type: application/json`, or malformed JSON (\"Die Anfrage hat nicht das erwartete Format.\"); `active` is required.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Die Anfrage hat nicht das erwartete Format.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"}))),
)]
async fn status(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<StatusBody>,
) -> Result<JsonResponse<StatusAnswer>, ApiError> {
    Ok(JsonResponse(
        match lists::set_status(&state.db, &state.marketing, &user, id, body.active).await? {
            StatusChange::Changed(content) => StatusAnswer::Changed { content },
            StatusChange::FoldersMissing => StatusAnswer::FolderWarning {
                message: FOLDER_WARNING,
            },
        },
    ))
}

/// The answer of a status change, told apart by `code`.
#[derive(Serialize, ToSchema)]
#[serde(tag = "code")]
enum StatusAnswer {
    /// The list now has the requested status (also when it had it already).
    #[serde(rename = "status_changed")]
    Changed { content: ListView },
    /// The provider's active and inactive folders are not both set; nothing changed (spec §4).
    #[serde(rename = "change_folder_warning")]
    FolderWarning {
        #[schema(value_type = String)]
        message: &'static str,
    },
}

#[utoipa::path(
    delete,
    path = "/api/lists/{id}",
    operation_id = "deleteList",
    tag = "lists",
    summary = "Delete a list",
    description = "Deletes an inactive list in the marketing service, then in the portal. Active lists cannot be deleted (spec §4).\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich Verwaltungsrecht am Anbieter: Admins immer, alle anderen nur mit einer Rolle aus dessen `allowedRoles` (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    responses(
        (status = 200, description = "Deleted.", body = crate::api::Removed, content_type = "application/json", example = json!({"message": "Erfolgreich entfernt", "id": 4})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 409, description = "The list is still active.", body = crate::api::responses::ListActive, content_type = "application/json", example = json!({"message": "Nur inaktive Kriterien können gelöscht werden. Bitte deaktivieren Sie das Kriterium zuerst.", "code": "list_active"})),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"}))),
)]
async fn remove(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<crate::api::Removed>, ApiError> {
    lists::delete(&state.db, &state.marketing, &user, id).await?;
    Ok(JsonResponse(crate::api::Removed::new(id)))
}

#[utoipa::path(
    get,
    path = "/api/sync/providers/{id}",
    operation_id = "syncProviderLists",
    tag = "lists",
    summary = "Sync a provider's lists from the marketing service",
    description = "Imports the lists found in the provider's active and inactive folders (new ones are created, known ones renamed and given their folder's status; lists linked to another provider stay there) and answers all the provider's lists. Changes data although it is a GET (spec §7), so it is refused with 403 `cross_site_request` when another site sent the browser (`Sec-Fetch-Site` other than `same-origin`/`none`). In local mode nothing is imported.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich Verwaltungsrecht am Anbieter: Admins immer, alle anderen nur mit einer Rolle aus dessen `allowedRoles` (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    responses(
        (status = 200, description = "The provider's lists after the sync.", body = SyncResult, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"}))),
)]
async fn sync(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<SyncResult>, ApiError> {
    let content = lists::sync_provider(&state.db, &state.marketing, &user, id).await?;
    Ok(JsonResponse(SyncResult { content }))
}

#[derive(Serialize, ToSchema)]
struct SyncResult {
    /// All the provider's lists after the sync, newest first (at most 1000).
    content: Vec<ListView>,
}
