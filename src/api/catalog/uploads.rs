//! `GET /api/upload-requirements/` and `POST /api/upload/` (spec §7, §8): files arrive as
//! multipart fields `files[i]` (and an optional `newName`) and are streamed to the file store
//! as they arrive; nothing is held in memory.

use axum::Router;
use axum::extract::multipart::{Field, MultipartError, MultipartRejection};
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::response::Json as JsonResponse;
use axum::routing::{get, post};
use serde::Serialize;

use crate::api::error::ApiError;
use crate::api::extract::AuthUser;
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::server::limits::is_slow_body;
use crate::services::catalog::uploads::{UploadAnswer, UploadBatch};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/upload", post(upload))
        .route("/upload-requirements", get(requirements))
        .route_layer(require(Capability::AdminArea))
        // Each file is limited while it streams (413 naming the file), not the request.
        .layer(DefaultBodyLimit::disable())
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct UploadRequirements {
    /// Largest file in MiB (`AP_UPLOAD_LIMIT_MB`).
    #[serde(rename = "limitSizeMB")]
    limit_size_mb: u64,
    /// Allowed extensions, lower case without the dot (`AP_UPLOAD_ALLOWED_EXTENSIONS`).
    allowed_ext_array: Vec<String>,
}

#[utoipa::path(
    get,
    path = "/api/upload-requirements/",
    operation_id = "uploadRequirements",
    tag = "uploads",
    summary = "Upload limits",
    description = "The size limit and the allowed extensions the server enforces.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`).",
    responses(
        (status = 200, description = "The limits.", body = UploadRequirements, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"}))),
)]
async fn requirements(State(state): State<AppState>) -> JsonResponse<UploadRequirements> {
    JsonResponse(UploadRequirements {
        limit_size_mb: state.uploads.limit_size_mb,
        allowed_ext_array: state.uploads.allowed_ext.clone(),
    })
}

/// Multipart body of `POST /api/upload/`: fields `files[0]`, `files[1]`, … (any other field
/// name: 400) and an optional `newName`. Every file is streamed to the file store as it
/// arrives; its type is judged by its first bytes, which must fit its extension. A `.zip` is unpacked: each
/// entry becomes a file checked like an upload; an archive with paths leaving it, links,
/// encrypted or nested archives, more than `AP_ZIP_MAX_ENTRIES` entries, more than the size
/// limit unpacked, or a compression ratio above `AP_ZIP_MAX_RATIO` is refused, naming the
/// archive. (Describes what [`upload`] reads field by field.)
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[allow(dead_code)]
struct UploadForm {
    #[serde(rename = "files[0]")]
    #[schema(value_type = Option<String>, content_media_type = "application/octet-stream")]
    files: Option<String>,
    /// Name for the (single) file instead of its own; 5–255 characters, the extension is added
    /// when missing.
    #[serde(rename = "newName")]
    new_name: Option<String>,
}

/// The field names of spec §7: `files[i]` and `newName`.
fn is_upload_field(name: &str) -> bool {
    name == "newName"
        || name
            .strip_prefix("files[")
            .and_then(|rest| rest.strip_suffix(']'))
            .is_some_and(|index| {
                (1..=4).contains(&index.len()) && index.bytes().all(|b| b.is_ascii_digit())
            })
}

fn read_error(err: MultipartError) -> ApiError {
    if is_slow_body(&err) {
        ApiError::SlowRequest
    } else {
        ApiError::validation("Die hochgeladenen Daten sind unvollständig.")
    }
}

/// A short text field, read up to 1 KB (a longer one is refused, not buffered).
async fn short_text(field: &mut Field<'_>) -> Result<String, ApiError> {
    let mut text = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(read_error)? {
        text.extend_from_slice(&chunk);
        if text.len() > 1024 {
            return Err(ApiError::validation("Der neue Dateiname ist zu lang."));
        }
    }
    String::from_utf8(text).map_err(|_| ApiError::validation("Der neue Dateiname ist ungültig."))
}

#[utoipa::path(
    post,
    path = "/api/upload/",
    operation_id = "uploadImage",
    tag = "uploads",
    summary = "Upload files",
    description = "Stores every `files[i]` part (streamed to the file store (disk, or the bucket of `AP_S3_BUCKET` as a multipart upload) with bounded memory while size, SHA-256, CRC-32 and type are measured) and answers the first file's fields plus all files in `uploads`. A ZIP archive is unpacked into its files. All files are stored together or none: a refused or broken upload leaves no row and no file. The uploads are attached to packages by `POST /api/download/` and `PUT /api/download/{id}`; uploads no package uses are removed after a day.\n\n**Wer darf:** Admin-Bereich (`GS-Aktionsportal-Admin` oder `GS-Aktionsportal-BU-Moderator`, Capability `AdminArea`).",
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The stored files.", body = crate::services::catalog::uploads::UploadAnswer, content_type = "application/json"),
        (status = 400, description = "No file, an empty file (\"Die Datei … muss größer als 0 KB sein.\"), content that does not fit the extension (\"Der Inhalt der Datei … passt nicht zu ihrer Endung ….\"), a refused archive (\"Das Archiv … wurde abgelehnt: …\"), a field other than `files[i]` and `newName`, or a broken multipart body.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Es wurde keine Datei hochgeladen.", "code": "validation_error"})),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 413, response = crate::api::responses::UploadTooLarge),
        (status = 422, response = crate::api::responses::ExtensionNotAllowed),
        (status = 500, response = crate::api::responses::InternalError),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400, 413, 422]))),
)]
async fn upload(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<JsonResponse<UploadAnswer>, ApiError> {
    let answer = receive(&state, &user, multipart).await;
    match &answer {
        Ok(stored) => {
            for file in &stored.uploads {
                crate::metrics::upload_stored(file.size.max(0) as u64);
            }
        }
        Err(_) => crate::metrics::upload_refused(),
    }
    answer.map(JsonResponse)
}

/// Reads the form's files into one batch and stores it.
async fn receive(
    state: &AppState,
    user: &crate::domain::user::User,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<UploadAnswer, ApiError> {
    let mut multipart = multipart.map_err(|_| {
        ApiError::validation("Bitte laden Sie die Datei als Formular (multipart/form-data) hoch.")
    })?;
    let mut batch = UploadBatch::new(&state.files, &state.uploads);
    while let Some(mut field) = multipart.next_field().await.map_err(read_error)? {
        let name = field.name().unwrap_or("").to_string();
        if !is_upload_field(&name) {
            return Err(ApiError::validation(
                "Der Upload enthält ein unbekanntes Feld. Erlaubt sind files[0], files[1], … und newName.",
            ));
        }
        if name == "newName" {
            let text = short_text(&mut field).await?;
            batch.set_new_name(&text);
            continue;
        }
        let file_name = field.file_name().map(str::to_string);
        // A refused type is skipped here and reported with all others at the end.
        let Some(mut file) = batch.begin(file_name.as_deref()).await? else {
            continue;
        };
        while let Some(chunk) = field.chunk().await.map_err(read_error)? {
            batch.write(&mut file, &chunk).await?;
        }
        batch.finish(file).await?;
    }
    let stored = batch.commit(&state.db, user).await?;
    state.previews.wake();
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::is_upload_field;

    #[test]
    fn only_the_documented_field_names_are_accepted() {
        for good in ["files[0]", "files[12]", "newName"] {
            assert!(is_upload_field(good), "{good}");
        }
        for bad in [
            "files",
            "files[]",
            "files[a]",
            "file[0]",
            "files[0]x",
            "newname",
            "",
            "files[00000]",
        ] {
            assert!(!is_upload_field(bad), "{bad}");
        }
    }
}
