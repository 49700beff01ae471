//! `POST /api/upload/`: stores an uploaded image (a provider logo) and answers its id.
//! Download files are added to this call by the downloads work.

use axum::Router;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::response::Json as JsonResponse;
use axum::routing::post;

use super::extract::AuthUser;
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::error::ApiError;
use crate::server::limits::is_slow_body;
use crate::services::uploads::{self, MAX_IMAGE_BYTES, UploadRef};
use crate::startup::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/upload", post(upload))
        .route_layer(require(Capability::AdminArea))
        // Room for the multipart framing around the largest accepted image.
        .layer(DefaultBodyLimit::max(MAX_IMAGE_BYTES + 64 * 1024))
}

fn too_large() -> ApiError {
    ApiError::PayloadTooLarge {
        message: format!(
            "Die Datei ist zu groß. Erlaubt sind höchstens {} MB.",
            MAX_IMAGE_BYTES / (1024 * 1024)
        ),
    }
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

async fn upload(
    State(state): State<AppState>,
    AuthUser(_user): AuthUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<JsonResponse<UploadRef>, ApiError> {
    let mut multipart = multipart.map_err(|_| {
        ApiError::validation("Bitte laden Sie die Datei als Formular (multipart/form-data) hoch.")
    })?;
    let mut new_name: Option<String> = None;
    let mut file: Option<(Option<String>, Vec<u8>)> = None;
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(err) if err.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(too_large());
            }
            Err(err) if is_slow_body(&err) => return Err(ApiError::SlowRequest),
            Err(_) => {
                return Err(ApiError::validation(
                    "Die hochgeladenen Daten sind unvollständig.",
                ));
            }
        };
        let name = field.name().unwrap_or("").to_string();
        if !is_upload_field(&name) {
            return Err(ApiError::validation(
                "Der Upload enthält ein unbekanntes Feld. Erlaubt sind files[0], files[1], … und newName.",
            ));
        }
        if name == "newName" {
            new_name = field
                .text()
                .await
                .ok()
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty());
        } else if file.is_none() {
            let file_name = field.file_name().map(str::to_string);
            let bytes = match field.bytes().await {
                Ok(bytes) => bytes,
                Err(err) if err.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                    return Err(too_large());
                }
                Err(err) if is_slow_body(&err) => return Err(ApiError::SlowRequest),
                Err(_) => {
                    return Err(ApiError::validation(
                        "Die Datei konnte nicht gelesen werden.",
                    ));
                }
            };
            if bytes.len() > MAX_IMAGE_BYTES {
                return Err(too_large());
            }
            file = Some((file_name, bytes.to_vec()));
        }
    }
    let (file_name, bytes) =
        file.ok_or_else(|| ApiError::validation("Es wurde keine Datei hochgeladen."))?;
    let name = new_name.or(file_name);
    Ok(JsonResponse(
        uploads::store_image(&state.db, &state.files, &bytes, name.as_deref()).await?,
    ))
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
