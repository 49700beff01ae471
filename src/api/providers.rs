//! Providers and their lists (spec §7 "Providers, folders, lists").

use axum::extract::State;
use axum::routing::{get, post, put};
use axum::{Router, response::Json as JsonResponse};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::extract::{AuthUser, Json, PageQuery, Path, Query};
use crate::auth::require::require;
use crate::domain::lists::ListFilter;
use crate::domain::permissions::Capability;
use crate::error::ApiError;
use crate::services::lists::{self, ListView};
use crate::services::providers::{self, ProviderInput, ProviderView};
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

async fn of_contact(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<Value>, ApiError> {
    let content = providers::of_contact(&state.db, &user, id).await?;
    Ok(JsonResponse(
        json!({ "content": content, "count": content.len() }),
    ))
}

#[derive(Serialize)]
pub struct Page<T> {
    pub content: Vec<T>,
    pub count: i64,
}

async fn page(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(q): Query<PageQuery>,
) -> Result<JsonResponse<Page<ProviderView>>, ApiError> {
    let (content, count) = providers::page(
        &state.db,
        &user,
        q.search(),
        q.ascending(),
        q.limit(),
        q.offset(),
    )
    .await?;
    Ok(JsonResponse(Page { content, count }))
}

async fn create(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Json(input): Json<ProviderInput>,
) -> Result<JsonResponse<ProviderView>, ApiError> {
    Ok(JsonResponse(
        providers::create(&state.db, &state.marketing, &user, &input).await?,
    ))
}

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

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeleteQuery {
    #[serde(default)]
    delete_brevo_folders: bool,
}

async fn remove(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(q): Query<DeleteQuery>,
) -> Result<JsonResponse<Value>, ApiError> {
    providers::delete(
        &state.db,
        &state.marketing,
        &state.files,
        &user,
        id,
        q.delete_brevo_folders,
    )
    .await?;
    Ok(JsonResponse(
        json!({ "message": "Erfolgreich entfernt", "id": id }),
    ))
}

/// Paging plus the status filter. (No `#[serde(flatten)]`: query strings lose their types
/// through it.)
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListsQuery {
    limit: Option<i64>,
    offset: Option<i64>,
    sort: Option<String>,
    search: Option<String>,
    active_status: Option<bool>,
    inactive_status: Option<bool>,
}

async fn lists_page(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(q): Query<ListsQuery>,
) -> Result<JsonResponse<Page<ListView>>, ApiError> {
    let page = PageQuery {
        limit: q.limit,
        offset: q.offset,
        sort: q.sort,
        sort_by: None,
        search: q.search,
    };
    let filter = ListFilter {
        active: q.active_status.unwrap_or(false),
        inactive: q.inactive_status.unwrap_or(false),
        search: Some(page.search().to_string()).filter(|s| !s.is_empty()),
        ascending: page.ascending(),
    };
    let (content, count) =
        lists::page(&state.db, &user, id, &filter, page.limit(), page.offset()).await?;
    Ok(JsonResponse(Page { content, count }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NewList {
    #[serde(default)]
    name: String,
    brevo_list_id: Option<i64>,
}

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
