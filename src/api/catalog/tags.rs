//! Tag management (issue 25): `GET/POST /api/tags`, `PUT/DELETE /api/tags/{id}`, admin only.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Json as JsonResponse;
use axum::routing::{get, put};

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Json, Path};
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::services::catalog::tags::{self, TagInput, TagView};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tags", get(list).post(create))
        .route("/tags/{id}", put(update).delete(remove))
        .route_layer(require(Capability::AdminOnly))
}

#[utoipa::path(
    get,
    path = "/api/tags",
    operation_id = "listManagedTags",
    tag = "tags",
    summary = "Every tag, with its uses",
    description = "The tags by name, each with how many files of packages carry it (the tag screen). The download form and the customer page read `GET /api/downloads/tags/{optional}`.\n\n**Wer darf:** `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    responses(
        (status = 200, description = "The tags.", body = Vec<TagView>, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"}))),
)]
async fn list(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
) -> Result<JsonResponse<Vec<TagView>>, ApiError> {
    Ok(JsonResponse(tags::list(&state.db, &user).await?))
}

#[utoipa::path(
    post,
    path = "/api/tags",
    operation_id = "createTag",
    tag = "tags",
    summary = "Create a tag",
    description = "A name of 2 to 40 characters that no other tag has (without regard to case), and an icon: a Bootstrap icon of the picker (`bi bi-…`) or an uploaded image as a `data:` URL (PNG, JPEG, GIF or WebP, at most 16 KB).\n\n**Wer darf:** `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    request_body(content = TagInput, content_type = "application/json"),
    responses(
        (status = 201, description = "Created.", body = TagView, content_type = "application/json"),
        (status = 400, description = "A name or icon that is not allowed; the German message says why.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Der Name des Tags muss mindestens 2 Zeichen lang sein.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 409, description = "`tag_exists`: another tag has the name.", body = crate::api::responses::TagConflict, content_type = "application/json", example = json!({"message": "Einen Tag „Flyer“ gibt es bereits.", "code": "tag_exists"})),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"})), ("x-rule-statuses" = json!([400]))),
)]
async fn create(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Json(body): Json<TagInput>,
) -> Result<(StatusCode, JsonResponse<TagView>), ApiError> {
    let tag = tags::create(&state.db, &user, &body).await?;
    Ok((StatusCode::CREATED, JsonResponse(tag)))
}

#[utoipa::path(
    put,
    path = "/api/tags/{id}",
    operation_id = "updateTag",
    tag = "tags",
    summary = "Rename a tag or change its icon",
    description = "As `POST /api/tags`; the tag's icon so far may also stay as it is.\n\n**Wer darf:** `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    params(("id" = i64, Path, description = "The tag's id; not a number or unknown: 404.")),
    request_body(content = TagInput, content_type = "application/json"),
    responses(
        (status = 200, description = "Changed.", body = TagView, content_type = "application/json"),
        (status = 400, description = "A name or icon that is not allowed; the German message says why.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Bitte wählen Sie ein Symbol aus der Liste.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 409, description = "`tag_exists`: another tag has the name.", body = crate::api::responses::TagConflict, content_type = "application/json", example = json!({"message": "Einen Tag „Flyer“ gibt es bereits.", "code": "tag_exists"})),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"})), ("x-rule-statuses" = json!([400]))),
)]
async fn update(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<TagInput>,
) -> Result<JsonResponse<TagView>, ApiError> {
    Ok(JsonResponse(
        tags::update(&state.db, &user, id, &body).await?,
    ))
}

#[utoipa::path(
    delete,
    path = "/api/tags/{id}",
    operation_id = "deleteTag",
    tag = "tags",
    summary = "Delete a tag",
    description = "Deletes the tag and takes it off every file that carries it (the screen asks first and names how many). No request body.\n\n**Wer darf:** `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    params(("id" = i64, Path, description = "The tag's id; not a number or unknown: 404.")),
    responses(
        (status = 200, description = "Deleted.", body = crate::api::Removed, content_type = "application/json", example = json!({"message": "Erfolgreich entfernt", "id": 3})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"}))),
)]
async fn remove(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<crate::api::Removed>, ApiError> {
    let id = tags::delete(&state.db, &user, id).await?;
    Ok(JsonResponse(crate::api::Removed::new(id)))
}
