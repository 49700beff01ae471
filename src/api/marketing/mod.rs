//! Folders and lists as the marketing service has them (the provider modals' selectors and
//! the import of existing lists). Folders: Admin only; a folder's lists also for the admin
//! area when the folder is one of a provider the user manages (the provider screen's import).

pub mod brevo_sync;
pub mod lists;
pub mod marketing_retries;
pub mod providers;

use axum::Router;
use axum::extract::State;
use axum::response::Json as JsonResponse;
use axum::routing::get;
use serde::Serialize;
use utoipa::{IntoParams, ToSchema};

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Path, Query};
use crate::auth::require::require;
use crate::domain::paging::Paging;
use crate::domain::permissions::Capability;
use crate::state::AppState;
use serde::Deserialize;

pub fn router() -> Router<AppState> {
    let folders_only = Router::new()
        .route("/brevo/folders", get(folders))
        .route_layer(require(Capability::AdminOnly));
    let lists = Router::new()
        .route("/brevo/folder/{id}/lists", get(folder_lists))
        .route_layer(require(Capability::AdminArea));
    folders_only.merge(lists)
}

#[utoipa::path(
    get,
    path = "/api/brevo/folders/",
    operation_id = "listFolders",
    tag = "marketing",
    summary = "Page of marketing folders",
    description = "The folders of the marketing service (Brevo; in local mode the portal's own), for the provider modals' folder selectors. `sort`, `sortBy` and `search` are accepted and ignored.\n\n**Wer darf:** nur `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    params(FolderQuery),
    responses(
        (status = 200, description = "One page and the total.", body = FolderPage, content_type = "application/json", example = json!({"folders": [{"id": 12, "name": "Glasfaser Süd (aktiv)"}], "count": 1})),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"}))),
)]
async fn folders(
    State(state): State<AppState>,
    Query(q): Query<FolderQuery>,
) -> Result<JsonResponse<FolderPage>, ApiError> {
    let paging = q.paging()?;
    let (folders, count) = state
        .marketing
        .folders(&state.db, paging.limit, paging.offset)
        .await?;
    Ok(JsonResponse(FolderPage { folders, count }))
}

#[utoipa::path(
    get,
    path = "/api/brevo/folder/{id}/lists/",
    operation_id = "listFolderLists",
    tag = "marketing",
    summary = "Page of a marketing folder's lists",
    description = "The lists in a Brevo folder as Brevo has them (the provider screen's import of existing lists), newest first, oldest first with `sort=ASC`; `sortBy` is accepted and ignored. In local mode always empty (`{\"lists\": [], \"count\": 0}`).\n\n**Wer darf:** `GS-Aktionsportal-Admin` jeden Ordner; `GS-Aktionsportal-BU-Moderator` die Ordner der Anbieter, in deren `allowedRoles` eine seiner Rollen steht (sonst 403).",
    params(("id" = i64, Path, description = "The Brevo folder id; not a number: 404. An id Brevo does not know answers 502."), FolderQuery),
    responses(
        (status = 200, description = "One page and the folder's total.", body = BrevoListPage, content_type = "application/json", example = json!({"lists": [{"id": 17, "name": "Flyer Herbst", "totalSubscribers": 120, "totalBlacklisted": 2, "folderId": 12}], "count": 1})),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 502, response = crate::api::responses::MarketingError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "plus": "Admin any folder; others only the active or inactive folder of a provider one of their roles is in the allowedRoles of"}))),
)]
async fn folder_lists(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(q): Query<FolderQuery>,
) -> Result<JsonResponse<BrevoListPage>, ApiError> {
    let paging = q.paging()?;
    let (lists, count) = crate::services::marketing::lists::folder_lists_page(
        &state.db,
        &state.marketing,
        &user,
        id,
        paging.ascending,
        paging.limit,
        paging.offset,
    )
    .await?;
    Ok(JsonResponse(BrevoListPage { lists, count }))
}

/// Paging of the marketing service's folders and lists: at most 50 a page (Brevo's maximum).
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct FolderQuery {
    /// Page size; default 50, 1–50 (Brevo's maximum; others answer 400).
    #[param(minimum = 1, maximum = 50)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    limit: Option<i64>,
    /// Entries to skip; from 0 (negative answers 400).
    #[param(minimum = 0)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    offset: Option<i64>,
    /// The lists of a folder: `ASC` or `DESC` (default), any letter case; anything else
    /// answers 400.
    #[param(value_type = Option<crate::domain::paging::SortOrder>, inline)]
    sort: Option<String>,
}

impl FolderQuery {
    /// The page, 50 entries unless asked for fewer (Brevo's maximum).
    fn paging(&self) -> Result<Paging, ApiError> {
        Paging::parse(
            Some(self.limit.unwrap_or(FOLDER_PAGE_SIZE)),
            self.offset,
            self.sort.as_deref(),
            FOLDER_PAGE_SIZE,
        )
        .map_err(ApiError::validation)
    }
}

/// Brevo's largest page of folders or lists.
const FOLDER_PAGE_SIZE: i64 = 50;

#[derive(Serialize, ToSchema)]
pub struct FolderPage {
    folders: Vec<crate::services::marketing::FolderItem>,
    /// Number of folders in all pages.
    count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct BrevoListPage {
    lists: Vec<crate::integrations::brevo::BrevoList>,
    /// Number of lists in the folder.
    count: i64,
}
