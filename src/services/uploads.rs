//! Uploaded files: storing them (temporary file, database row, then rename into place) and
//! how the API refers to them.

use serde::{Deserialize, Serialize};

use crate::db::{self, Db};
use crate::services::error::{ServiceError, ServiceResult};
use crate::storage::FileStore;

/// Largest provider logo accepted.
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// An upload as other answers embed it (`Upload` in spec §3).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct UploadRef {
    pub id: i64,
    pub name: String,
    /// Site-relative URL that serves the file to users allowed to see it.
    pub path: String,
}

/// The URL path under which an upload is served.
pub fn file_path(id: i64, name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("/files/{id}/{safe}")
}

pub fn upload_ref(upload: &db::uploads::Upload) -> UploadRef {
    UploadRef {
        id: upload.id,
        name: upload.name.clone(),
        path: file_path(upload.id, &upload.name),
    }
}

/// The image type of `bytes`, judged by content (never by name): PNG, JPEG, GIF or WebP.
/// SVG is refused: it can carry scripts.
pub fn image_type(bytes: &[u8]) -> Option<(&'static str, &'static str)> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(("image/png", "png"))
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(("image/jpeg", "jpg"))
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some(("image/gif", "gif"))
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some(("image/webp", "webp"))
    } else {
        None
    }
}

/// A display name: the client's name without any path, or a generated one.
fn clean_name(name: Option<&str>, ext: &str) -> String {
    let base = name
        .and_then(|n| n.rsplit(['/', '\\']).next())
        .map(|n| {
            n.trim()
                .chars()
                .filter(|c| !c.is_control())
                .take(200)
                .collect::<String>()
        })
        .filter(|n| !n.is_empty() && n != "." && n != "..");
    match base {
        Some(name) if name.to_lowercase().ends_with(&format!(".{ext}")) => name,
        Some(name) => format!(
            "{}.{ext}",
            name.rsplit_once('.')
                .map_or(name.as_str(), |(stem, _)| stem)
        ),
        None => format!("logo.{ext}"),
    }
}

/// Stores an image (a provider logo) and returns how to refer to it.
pub async fn store_image(
    db: &Db,
    files: &FileStore,
    bytes: &[u8],
    name: Option<&str>,
) -> ServiceResult<UploadRef> {
    if bytes.is_empty() {
        return Err(ServiceError::Invalid(format!(
            "Die Datei {} muss größer als 0 KB sein.",
            name.unwrap_or("ohne Namen")
        )));
    }
    let (content_type, ext) = image_type(bytes).ok_or_else(|| {
        ServiceError::Invalid(
            "Nur Bilder (PNG, JPEG, GIF oder WebP) können als Logo hochgeladen werden.".into(),
        )
    })?;
    let staged = files
        .stage_bytes(bytes, ext)
        .await
        .map_err(anyhow::Error::from)?;
    let upload = db::uploads::create(
        db,
        &db::uploads::NewUpload {
            name: clean_name(name, ext),
            storage_key: staged.key().to_string(),
            ext: ext.into(),
            size: bytes.len() as i64,
            content_type: content_type.into(),
        },
    )
    .await?;
    if let Err(err) = staged.persist().await {
        // Without its file the row is useless: remove it again.
        let _ = db::uploads::delete(db, upload.id).await;
        return Err(ServiceError::Internal(err.into()));
    }
    Ok(upload_ref(&upload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_recognised_by_content() {
        assert_eq!(
            image_type(b"\x89PNG\r\n\x1a\nrest"),
            Some(("image/png", "png"))
        );
        assert_eq!(
            image_type(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some(("image/jpeg", "jpg"))
        );
        assert_eq!(
            image_type(b"RIFF\0\0\0\0WEBPVP8 "),
            Some(("image/webp", "webp"))
        );
        assert_eq!(image_type(b"<svg onload=alert(1)>"), None);
        assert_eq!(image_type(b"%PDF-1.4"), None);
    }

    #[test]
    fn names_lose_paths_and_get_the_real_extension() {
        assert_eq!(clean_name(Some("C:\\Bilder\\logo.PNG"), "png"), "logo.PNG");
        assert_eq!(clean_name(Some("../../etc/passwd"), "png"), "passwd.png");
        assert_eq!(clean_name(Some("bild.exe"), "gif"), "bild.gif");
        assert_eq!(clean_name(None, "jpg"), "logo.jpg");
    }

    #[test]
    fn file_paths_are_url_safe() {
        assert_eq!(file_path(7, "Logo Süd.png"), "/files/7/Logo_S_d.png");
    }
}
