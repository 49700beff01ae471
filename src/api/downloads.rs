//! Download packages (spec §7 "Downloads and files") and the package ZIP. Each handler reads
//! the request and calls one service function; the rights are decided there.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, Method};
use axum::response::{Json as JsonResponse, Response};
use axum::routing::{get, patch, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::delivery::{Delivery, respond};
use super::extract::{AuthUser, Json, Path, Query};
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::error::ApiError;
use crate::services::downloads::{self, DownloadPage, DownloadView, ListQuery};
use crate::services::files::{self as file_service, ZipSelection};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    let staff = Router::new()
        .route("/downloads", get(admin_page))
        .route("/download", post(create))
        .route("/download/duplicate", post(duplicate))
        .route("/download/{id}", axum::routing::put(update).delete(remove))
        .route(
            "/download/changeArchiveStatus/{id}",
            patch(change_archive_status),
        )
        .route_layer(require(Capability::AdminArea));
    let customers = Router::new()
        .route("/downloads/contact", get(customer_page))
        .route("/downloads/tags", get(tags))
        .route("/downloads/tags/{optional}", get(tags))
        .route("/download/{id}", get(one))
        .route_layer(require(Capability::CustomerDownloads));
    staff.merge(customers)
}

/// The streamed ZIPs: no request time limit (they take as long as the download).
pub fn zip_router() -> Router<AppState> {
    Router::new()
        .route("/download/{id}/zip", get(package_zip))
        .route("/downloads/zip", get(files_zip))
        .route_layer(require(Capability::CustomerDownloads))
}

async fn admin_page(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<ListQuery>,
) -> Result<JsonResponse<DownloadPage>, ApiError> {
    Ok(JsonResponse(
        downloads::admin_page(&state.db, &state.package_counts, &user, &query.params()?).await?,
    ))
}

async fn customer_page(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<ListQuery>,
) -> Result<JsonResponse<DownloadPage>, ApiError> {
    Ok(JsonResponse(
        downloads::customer_page(&state.db, &state.package_counts, &user, &query.params()?).await?,
    ))
}

async fn tags(State(state): State<AppState>) -> Result<JsonResponse<Value>, ApiError> {
    Ok(JsonResponse(json!(downloads::tags(&state.db).await?)))
}

async fn one(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<DownloadView>, ApiError> {
    Ok(JsonResponse(downloads::get(&state.db, &user, id).await?))
}

async fn create(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Json(body): Json<Value>,
) -> Result<JsonResponse<DownloadView>, ApiError> {
    Ok(JsonResponse(
        downloads::create(&state.db, &user, &body).await?,
    ))
}

async fn duplicate(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Json(body): Json<Value>,
) -> Result<JsonResponse<DownloadView>, ApiError> {
    Ok(JsonResponse(
        downloads::duplicate(&state.db, &user, &body).await?,
    ))
}

async fn update(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<Value>,
) -> Result<JsonResponse<DownloadView>, ApiError> {
    Ok(JsonResponse(
        downloads::update(&state.db, &state.files, &user, id, &body).await?,
    ))
}

async fn change_archive_status(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    body: axum::body::Bytes,
) -> Result<JsonResponse<Value>, ApiError> {
    // No body toggles; `{"archived": true|false}` sets.
    let wanted = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|b| b.get("archived").and_then(Value::as_bool));
    let archived = downloads::change_archive_status(&state.db, &user, id, wanted).await?;
    Ok(JsonResponse(json!({ "id": id, "archived": archived })))
}

async fn remove(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<Value>, ApiError> {
    downloads::delete(&state.db, &state.files, &user, id).await?;
    Ok(JsonResponse(json!({ "id": id, "deleted": true })))
}

async fn send_zip(
    state: &AppState,
    user: &crate::domain::user::User,
    selection: ZipSelection,
    method: &Method,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let plan = file_service::plan_zip(
        &state.db,
        &state.files,
        user,
        &selection,
        &state.config.product_name,
    )
    .await?;
    Ok(respond(
        method,
        headers,
        Delivery {
            len: plan.layout.len,
            pieces: plan.layout.pieces,
            etag: plan.etag,
            last_modified: plan.last_modified,
            content_type: "application/zip".into(),
            file_name: plan.file_name,
            cache: "private, no-cache",
        },
    ))
}

async fn package_zip(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    send_zip(&state, &user, ZipSelection::Package(id), &method, &headers).await
}

#[derive(Deserialize)]
struct FilesQuery {
    /// `download:upload` pairs separated by commas, e.g. `12:5,12:6,13:9`.
    files: Option<String>,
}

fn pairs(text: &str) -> Result<Vec<(i64, i64)>, ApiError> {
    text.split(',')
        .filter(|item| !item.trim().is_empty())
        .map(|item| {
            let (package, file) = item.trim().split_once(':').ok_or(())?;
            let package = package.parse::<i64>().map_err(|_| ())?;
            let file = file.parse::<i64>().map_err(|_| ())?;
            if package > 0 && file > 0 {
                Ok((package, file))
            } else {
                Err(())
            }
        })
        .collect::<Result<Vec<_>, ()>>()
        .map_err(|_| {
            ApiError::validation(
                "files muss aus Paaren Download-Id:Datei-Id bestehen, z. B. 12:5,12:6.",
            )
        })
}

async fn files_zip(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<FilesQuery>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let selection = pairs(query.files.as_deref().unwrap_or(""))?;
    send_zip(
        &state,
        &user,
        ZipSelection::Files(selection),
        &method,
        &headers,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zip_selections_are_pairs() {
        assert_eq!(pairs("12:5,12:6").unwrap(), vec![(12, 5), (12, 6)]);
        assert!(pairs("12").is_err());
        assert!(pairs("12:x").is_err());
        assert!(pairs("0:1").is_err());
        assert_eq!(pairs("").unwrap(), vec![]);
    }
}
