//! `GET /api/upload-requirements/` and `POST /api/upload/` (spec §7, §8): files arrive as
//! multipart fields `files[i]` (and an optional `newName`) and are streamed to the file store
//! as they arrive; nothing is held in memory.

use axum::Router;
use axum::extract::multipart::{Field, MultipartError, MultipartRejection};
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::response::Json as JsonResponse;
use axum::routing::{get, post};
use serde::Serialize;

use super::extract::AuthUser;
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::error::ApiError;
use crate::server::limits::is_slow_body;
use crate::services::uploads::{UploadAnswer, UploadBatch};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/upload", post(upload))
        .route("/upload-requirements", get(requirements))
        .route_layer(require(Capability::AdminArea))
        // Each file is limited while it streams (413 naming the file), not the request.
        .layer(DefaultBodyLimit::disable())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Requirements {
    #[serde(rename = "limitSizeMB")]
    limit_size_mb: u64,
    allowed_ext_array: Vec<String>,
}

async fn requirements(State(state): State<AppState>) -> JsonResponse<Requirements> {
    JsonResponse(Requirements {
        limit_size_mb: state.uploads.limit_size_mb,
        allowed_ext_array: state.uploads.allowed_ext.clone(),
    })
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

async fn upload(
    State(state): State<AppState>,
    AuthUser(_user): AuthUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<JsonResponse<UploadAnswer>, ApiError> {
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
    Ok(JsonResponse(batch.commit(&state.db).await?))
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
