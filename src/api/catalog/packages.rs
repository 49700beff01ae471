//! Download packages (spec §7 "Downloads and files") and the package ZIP. Each handler reads
//! the request and calls one service function; the rights are decided there.

use axum::Router;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, Method};
use axum::response::{Json as JsonResponse, Response};
use axum::routing::{get, patch, post};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::catalog::delivery::{Delivery, respond};
use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Json, Path, Query, parse_json};
use crate::api::operations::kept;
use crate::auth::require::require;
use crate::domain::input::id_of_text;
use crate::domain::permissions::Capability;
use crate::domain::user::DataVersionRead;
use crate::services::catalog::files::{self as file_service, ZipSelection};
use crate::services::catalog::packages::{
    self, DuplicateInput, PackageInput, PackageListQuery, PackageView,
};
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

#[utoipa::path(
    get,
    path = "/api/downloads/",
    operation_id = "listDownloads",
    tag = "downloads",
    summary = "Page of packages (admin list)",
    description = "Every package for the admin area (spec §2), filtered and sorted; archived packages only with `archived=true`. Each answer carries `badge` and `mayManage`.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`).",
    params(PackageListQuery),
    responses(
        (status = 200, description = "One page and the total. `ETag` names the answer; it is kept for this user's view until anything it shows changes.", body = crate::services::catalog::packages::PackagePage, content_type = "application/json"),
        (status = 304, description = "Not modified: `If-None-Match` names the current answer."),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn admin_page(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    read: Option<Extension<DataVersionRead>>,
    Query(query): Query<PackageListQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let params = query.params()?;
    let answer = state
        .within_list_time(packages::admin_answer(
            &state.db,
            &state.answers,
            read.map(|r| r.0),
            &user,
            &params,
        ))
        .await?;
    Ok(kept::json(answer, &headers, kept::REVALIDATE))
}

#[utoipa::path(
    get,
    path = "/api/downloads/contact/",
    operation_id = "listCustomerDownloads",
    tag = "downloads",
    summary = "Page of the customer's packages",
    description = "The packages the signed-in user sees, with the customer filters of spec §2 (`tagsIds`, `searchMethode`). Of a package whose provider the user may not manage, `Provider.allowedRoles` is empty and `Lists`/`listsIds` hold only the lists a contact of the user's customer number is on. Sichtbar sind: für `GS-Aktionsportal-Admin` alle Pakete; sonst die Pakete von Anbietern, in deren `allowedRoles` eine Rolle des Benutzers steht, und die Pakete, die einem Kriterium zugeordnet sind, auf dem ein Kontakt mit der Kundennummer des Benutzers steht. Andere antworten 404 wie nicht vorhandene.\n\n**Wer darf:** Kundenansicht (`GS-Provision`, `GS-Aktionsportal`, `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator`; Capability `CustomerDownloads`).",
    params(PackageListQuery),
    responses(
        (status = 200, description = "One page and the total. `ETag` names the answer; it is kept for this user's view until anything it shows changes.", body = crate::services::catalog::packages::PackagePage, content_type = "application/json"),
        (status = 304, description = "Not modified: `If-None-Match` names the current answer."),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "CustomerDownloads"}))),
)]
async fn customer_page(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<PackageListQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let params = query.params()?;
    let answer = state
        .within_list_time(packages::customer_answer(
            &state.db,
            &state.answers,
            &user,
            &params,
        ))
        .await?;
    Ok(kept::json(answer, &headers, kept::REVALIDATE))
}

#[utoipa::path(
    get,
    path = "/api/downloads/tags/",
    operation_id = "listTags",
    tag = "downloads",
    summary = "All tags",
    description = "Every tag with its icon (for the customer's tag filter). A further path segment (`/api/downloads/tags/{optional}`) is accepted and ignored.\n\n**Wer darf:** Kundenansicht (`GS-Provision`, `GS-Aktionsportal`, `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator`; Capability `CustomerDownloads`).",
    responses(
        (status = 200, description = "The tags by name.", body = Vec<crate::services::catalog::packages::Tag>, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "CustomerDownloads"}))),
)]
async fn tags(State(state): State<AppState>) -> Result<JsonResponse<Vec<packages::Tag>>, ApiError> {
    Ok(JsonResponse(packages::tags(&state.db).await?))
}

#[utoipa::path(
    get,
    path = "/api/download/{id}",
    operation_id = "getDownload",
    tag = "downloads",
    summary = "One package",
    description = "The package with its provider, files, tags and lists. The admin area sees every package; others as in the customer list. Of a package whose provider the user may not manage, `Provider.allowedRoles` is empty and `Lists`/`listsIds` hold only the lists a contact of the user's customer number is on. Sichtbar sind: für `GS-Aktionsportal-Admin` alle Pakete; sonst die Pakete von Anbietern, in deren `allowedRoles` eine Rolle des Benutzers steht, und die Pakete, die einem Kriterium zugeordnet sind, auf dem ein Kontakt mit der Kundennummer des Benutzers steht. Andere antworten 404 wie nicht vorhandene.\n\n**Wer darf:** Kundenansicht (`GS-Provision`, `GS-Aktionsportal`, `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator`; Capability `CustomerDownloads`).",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    responses(
        (status = 200, description = "The package.", body = crate::services::catalog::packages::PackageView, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "CustomerDownloads"}))),
)]
async fn one(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<PackageView>, ApiError> {
    Ok(JsonResponse(packages::get(&state.db, &user, id).await?))
}

#[utoipa::path(
    post,
    path = "/api/download/",
    operation_id = "createDownload",
    tag = "downloads",
    summary = "Create a package",
    description = "Creates a package with its lists and the uploaded files (`uploadsToInsert`, ids from `POST /api/upload/`). An upload may be added only when it is the user's own fresh upload (uploaded by them and in no package yet) or is already in a package of a provider the user may manage (Admin: any); otherwise 403 `forbidden` with a German message, and nothing changes.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters (`may_manage_provider`); sonst 403.",
    request_body(content = PackageInput, content_type = "application/json"),
    responses(
        (status = 200, description = "The new package.", body = crate::services::catalog::packages::PackageView, content_type = "application/json"),
        (status = 400, response = crate::api::responses::DownloadInvalid),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"})), ("x-rule-statuses" = json!([400]))),
)]
async fn create(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Json(input): Json<PackageInput>,
) -> Result<JsonResponse<PackageView>, ApiError> {
    Ok(JsonResponse(
        packages::create(&state.db, &user, &input).await?,
    ))
}

#[utoipa::path(
    post,
    path = "/api/download/duplicate",
    operation_id = "duplicateDownload",
    tag = "downloads",
    summary = "Copy a package",
    description = "With `id`: a copy of that package holding the same stored files (no bytes are copied) with their names and tags, and the same lists, named with \" (Kopie)\" and valid from the first to the last day of the next month (a valid `name`, `startAt` and `endAt` in the body win). Without `id`: a package created from the body like `POST /api/download/`, with its rule for the uploads.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters (`may_manage_provider`); sonst 403.",
    request_body(content = DuplicateInput, content_type = "application/json"),
    responses(
        (status = 200, description = "The copy.", body = crate::services::catalog::packages::PackageView, content_type = "application/json"),
        (status = 400, response = crate::api::responses::DownloadInvalid),
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
async fn duplicate(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Json(input): Json<DuplicateInput>,
) -> Result<JsonResponse<PackageView>, ApiError> {
    Ok(JsonResponse(
        packages::duplicate(&state.db, &user, &input).await?,
    ))
}

#[utoipa::path(
    put,
    path = "/api/download/{id}",
    operation_id = "updateDownload",
    tag = "downloads",
    summary = "Edit a package",
    description = "Changes name and dates, renames, tags and orders files (`Uploads`), takes files out (`uploadsToDelete`; files no package uses any more leave the disk), adds uploads (`uploadsToInsert`: the user's own fresh uploads or files already in a package of a provider the user may manage, Admin any; else 403 and nothing changes) and sets the lists (`listsIds` is the new set; without it the current lists minus `uncheckedListsIds`). One transaction.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    request_body(content = PackageInput, content_type = "application/json"),
    responses(
        (status = 200, description = "The package after the edit.", body = crate::services::catalog::packages::PackageView, content_type = "application/json"),
        (status = 400, response = crate::api::responses::DownloadInvalid),
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
async fn update(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(input): Json<PackageInput>,
) -> Result<JsonResponse<PackageView>, ApiError> {
    Ok(JsonResponse(
        packages::update(&state.db, &state.files, &user, id, &input).await?,
    ))
}

#[utoipa::path(
    patch,
    path = "/api/download/changeArchiveStatus/{id}",
    operation_id = "changeArchiveStatus",
    tag = "downloads",
    summary = "Archive or restore a package",
    description = "Without a body the package switches state; `{\"archived\": true|false}` sets it. Archiving sets `archivedAt`, restoring clears it.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    request_body(content = Option<ArchiveChange>, content_type = "application/json"),
    responses(
        (status = 200, description = "The new state.", body = ArchiveStatus, content_type = "application/json"),
        (status = 400, description = "A body that is not `{\"archived\": true|false}` (or `null`).", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Das Feld „archived“ hat nicht das erwartete Format.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"}))),
)]
async fn change_archive_status(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    body: axum::body::Bytes,
) -> Result<JsonResponse<ArchiveStatus>, ApiError> {
    // No body toggles; `{"archived": true|false}` sets.
    let wanted = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        parse_json::<Option<ArchiveChange>>(&body)
            .map_err(ApiError::validation)?
            .and_then(|change| change.archived)
    };
    let archived = packages::change_archive_status(&state.db, &user, id, wanted).await?;
    Ok(JsonResponse(ArchiveStatus { id, archived }))
}

/// Body of `PATCH /api/download/changeArchiveStatus/{id}`: no body, or no `archived`, toggles.
#[derive(Deserialize, ToSchema)]
struct ArchiveChange {
    archived: Option<bool>,
}

#[derive(Serialize, ToSchema)]
struct ArchiveStatus {
    id: i64,
    archived: bool,
}

#[utoipa::path(
    delete,
    path = "/api/download/{id}",
    operation_id = "deleteDownload",
    tag = "downloads",
    summary = "Delete a package",
    description = "Deletes the package; its files leave the database and the disk when no other package uses them.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`) und zusätzlich `GS-Aktionsportal-Admin` oder eine Rolle aus den `allowedRoles` des Anbieters (`may_manage_provider`); sonst 403.",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    responses(
        (status = 200, description = "Deleted.", body = PackageDeleted, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea", "providerRole": "Admin or one of the provider's allowedRoles (may_manage_provider)"}))),
)]
async fn remove(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
) -> Result<JsonResponse<PackageDeleted>, ApiError> {
    packages::delete(&state.db, &state.files, &user, id).await?;
    Ok(JsonResponse(PackageDeleted { id, deleted: true }))
}

#[derive(Serialize, ToSchema)]
// The spec's word for a package stays the schema name of the REST contract.
#[schema(as = DownloadDeleted)]
struct PackageDeleted {
    id: i64,
    deleted: bool,
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
        &state.statistics,
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
            inline: false,
            tally: Some(
                plan.tally
                    .followed_from_mail(&crate::auth::mail_visit::packages(headers)),
            ),
            sent: crate::metrics::Sent::Zip,
        },
    ))
}

#[utoipa::path(
    get,
    path = "/api/download/{id}/zip",
    operation_id = "downloadZip",
    tag = "downloads",
    summary = "The package as a ZIP",
    description = "All files of the package, streamed by the server with flat memory at any size; single `Range` requests with `If-Range` resume an interrupted download. Sichtbar sind: für `GS-Aktionsportal-Admin` alle Pakete; sonst die Pakete von Anbietern, in deren `allowedRoles` eine Rolle des Benutzers steht, und die Pakete, die einem Kriterium zugeordnet sind, auf dem ein Kontakt mit der Kundennummer des Benutzers steht. Andere antworten 404 wie nicht vorhandene.\n\n**Wer darf:** Kundenansicht (`GS-Provision`, `GS-Aktionsportal`, `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator`; Capability `CustomerDownloads`).",
    params(("id" = i64, Path, description = "Numeric id; an id that is not a number answers 404 `not_found`.")),
    responses(
        (status = 200, description = "The ZIP: stored entries (no compression) in a folder per package name, UTF-8 names, ZIP64 above 4 GiB; `Content-Length` is exact, `ETag` changes when a file or name changes; named `YYYY-MM-DD_<product> Aktionsportal.zip` in `Content-Disposition`.", body = String, content_type = "application/zip"),
        (status = 206, description = "The requested range (a resumed download).", body = String, content_type = "application/zip"),
        (status = 304, description = "Not modified (`If-None-Match` / `If-Modified-Since`)."),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 416, description = "The requested range is not satisfiable."),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "CustomerDownloads"}))),
)]
async fn package_zip(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    send_zip(&state, &user, ZipSelection::Package(id), &method, &headers).await
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct FilesQuery {
    /// Pairs `packageId:uploadId` separated by commas (`12:5,12:6`), at most 10,000.
    #[param(value_type = String, pattern = "^ *0*[1-9][0-9]{0,17}:0*[1-9][0-9]{0,17} *(, *0*[1-9][0-9]{0,17}:0*[1-9][0-9]{0,17} *){0,9999}$")]
    files: Option<String>,
}

/// The pairs of `files` (what its pattern describes); none selected when empty.
fn pairs(text: &str) -> Result<Vec<(i64, i64)>, ApiError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|item| {
            let (package, file) = item.trim_matches(' ').split_once(':').ok_or(())?;
            let package = id_of_text(package).ok_or(())?;
            let file = id_of_text(file).ok_or(())?;
            Ok((package, file))
        })
        .collect::<Result<Vec<_>, ()>>()
        .map_err(|_| {
            ApiError::validation(
                "files muss aus Paaren Download-Id:Datei-Id bestehen, z. B. 12:5,12:6.",
            )
        })
}

#[utoipa::path(
    get,
    path = "/api/downloads/zip",
    operation_id = "downloadFilesZip",
    tag = "downloads",
    summary = "Chosen files as a ZIP",
    description = "The chosen files of one or more packages (`files=12:5,12:6,13:9`: package id and upload id) like `GET /api/download/{id}/zip`; at most 10,000 files. Sichtbar sind: für `GS-Aktionsportal-Admin` alle Pakete; sonst die Pakete von Anbietern, in deren `allowedRoles` eine Rolle des Benutzers steht, und die Pakete, die einem Kriterium zugeordnet sind, auf dem ein Kontakt mit der Kundennummer des Benutzers steht. Andere antworten 404 wie nicht vorhandene.\n\n**Wer darf:** Kundenansicht (`GS-Provision`, `GS-Aktionsportal`, `GS-Aktionsportal-Admin`, `GS-Aktionsportal-BU-Moderator`; Capability `CustomerDownloads`).",
    params(FilesQuery),
    responses(
        (status = 200, description = "The ZIP: stored entries (no compression) in a folder per package name, UTF-8 names, ZIP64 above 4 GiB; `Content-Length` is exact, `ETag` changes when a file or name changes; named `YYYY-MM-DD_<product> Aktionsportal.zip` in `Content-Disposition`.", body = String, content_type = "application/zip"),
        (status = 206, description = "The requested range (a resumed download).", body = String, content_type = "application/zip"),
        (status = 304, description = "Not modified (`If-None-Match` / `If-Modified-Since`)."),
        (status = 400, description = "No or malformed selection.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Es wurden keine Dateien ausgewählt.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 416, description = "The requested range is not satisfiable."),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "CustomerDownloads"}))),
)]
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
        assert!(pairs("12:5,,12:6").is_err(), "no empty pairs");
        assert_eq!(pairs("").unwrap(), vec![]);
    }
}
