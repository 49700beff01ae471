//! `/files/{id}/{name}`: stored files, served only to users allowed to see them (never a
//! public folder; see `services::catalog::files`), with Range, ETag and a UTF-8 download name; and
//! `/previews/{id}/{size}`: their previews, with exactly the same rights.

use axum::extract::State;
use axum::http::{HeaderMap, Method};
use axum::response::Response;

use crate::api::catalog::delivery::{Delivery, respond};
use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Path};
use crate::services;
use crate::state::AppState;
use crate::storage::serve::Piece;

#[utoipa::path(
    get,
    path = "/files/{id}/{name}",
    operation_id = "getFile",
    tag = "files",
    summary = "Download a file",
    description = "Serves a stored file with the content type judged at upload, `Content-Length`, single `Range` requests (206, 416), `If-Range`, `ETag` (the SHA-256) with `If-None-Match` (304), `Last-Modified` with `If-Modified-Since`, `Content-Disposition: attachment` with an RFC 6266 `filename*` (UTF-8 names survive), `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy. `name` chooses the download name when it is one of the file's names in a package the user sees.\n\n**Wer darf:** Provider-Logos jeder angemeldete Benutzer; andere Dateien `GS-Aktionsportal-Admin`, Inhaber einer Rolle aus den `allowedRoles` des Anbieters eines Pakets mit der Datei, und Kunden, die ein Paket mit der Datei sehen (Kriterium eines Kontakts ihrer Kundennummer); alle anderen bekommen 404 wie bei einer nicht vorhandenen Datei.",
    params(("id" = i64, Path, description = "The upload's id; not a number or unknown: 404."), ("name" = String, Path, description = "The file name as in `path` (percent-encoded); names the download when it is one of the file's names.")),
    responses(
        (status = 200, description = "The file.", body = String, content_type = "*/*", headers(("Content-Length" = String), ("ETag" = String), ("Last-Modified" = String), ("Content-Disposition" = String), ("Accept-Ranges" = String))),
        (status = 206, description = "The requested range of the file.", body = String, content_type = "*/*"),
        (status = 304, description = "Not modified (`If-None-Match` or `If-Modified-Since`)."),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 416, description = "The requested range is not satisfiable."),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "SignedIn"}))),
)]
pub async fn serve(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path((id, name)): Path<(i64, String)>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let file = services::catalog::files::download(
        &state.db,
        &state.files,
        &state.statistics,
        &user,
        id,
        &name,
    )
    .await?;
    let mut delivery = delivery_of(file, crate::metrics::Sent::File);
    delivery.tally = delivery
        .tally
        .map(|tally| tally.followed_from_mail(&crate::auth::mail_visit::packages(&headers)));
    Ok(respond(&method, &headers, delivery))
}

fn delivery_of(file: services::catalog::files::Download, sent: crate::metrics::Sent) -> Delivery {
    Delivery {
        pieces: vec![Piece::File {
            source: file.source,
            offset: 0,
            len: file.len,
        }],
        len: file.len,
        etag: file.etag,
        last_modified: file.last_modified,
        content_type: file.content_type,
        file_name: file.name,
        cache: file.cache,
        inline: file.inline,
        tally: file.tally,
        sent,
    }
}

#[utoipa::path(
    get,
    path = "/previews/{id}/{size}",
    operation_id = "getPreview",
    tag = "files",
    summary = "A file's preview",
    description = "The thumbnail (`thumb.jpg`, about 320 px wide, at most 40 KB) or the large preview (`large.jpg`, about 1,200 px wide) of a stored picture, SVG drawing or PDF (its first page), as JPEG. Made after upload; a file without a preview (yet), like videos, office files and archives, answers 404. `ETag`, `Cache-Control: private, max-age=31536000, immutable` (an upload's bytes never change), `Content-Disposition: inline`.\n\n**Wer darf:** genau wer die Datei selbst laden darf (`GET /files/{id}/{name}`); alle anderen bekommen 404 wie bei einer nicht vorhandenen Datei.",
    params(("id" = i64, Path, description = "The upload's id; not a number or unknown: 404."), ("size" = String, Path, description = "`thumb.jpg` or `large.jpg`; anything else: 404.")),
    responses(
        (status = 200, description = "The preview.", body = String, content_type = "image/jpeg", headers(("Content-Length" = String), ("ETag" = String), ("Cache-Control" = String))),
        (status = 206, description = "The requested range of the preview.", body = String, content_type = "image/jpeg"),
        (status = 304, description = "Not modified (`If-None-Match` or `If-Modified-Since`)."),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 416, description = "The requested range is not satisfiable."),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "SignedIn"}))),
)]
pub async fn preview(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path((id, size)): Path<(i64, String)>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let size = crate::domain::files::PreviewSize::parse(&size).ok_or(ApiError::NotFound)?;
    let file = services::catalog::files::preview(&state.db, &state.files, &user, id, size).await?;
    Ok(respond(
        &method,
        &headers,
        delivery_of(file, crate::metrics::Sent::Preview),
    ))
}

#[utoipa::path(
    get,
    path = "/mail-bilder/{id}/{tag}",
    operation_id = "getMailPicture",
    tag = "files",
    summary = "A picture in a package's mail",
    description = "The thumbnail (JPEG, about 320 px wide) of a provider's logo or of a package's file, as a package's announcement shows it. Mail programs load pictures without a session, so the address itself is the key: `tag` is made from the upload's secret storage key (256 bits of SHA-256, never shown elsewhere), and only mails carry it. `Cache-Control: public, max-age=86400`, `ETag`, Range.\n\n**Wer darf:** jeder mit der Adresse aus einer Mail; ein falsches `tag`, eine andere Datei oder eine ohne Vorschau bekommen 404.",
    params(("id" = i64, Path, description = "The upload's id; not a number or unknown: 404."), ("tag" = String, Path, description = "The picture's tag from the mail; any other: 404.")),
    responses(
        (status = 200, description = "The picture.", body = String, content_type = "image/jpeg", headers(("Content-Length" = String), ("ETag" = String), ("Cache-Control" = String))),
        (status = 206, description = "The requested range of the picture.", body = String, content_type = "image/jpeg"),
        (status = 304, description = "Not modified (`If-None-Match` or `If-Modified-Since`)."),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 416, description = "The requested range is not satisfiable."),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
pub async fn mail_picture(
    State(state): State<AppState>,
    Path((id, tag)): Path<(i64, String)>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let file = services::catalog::files::mail_picture(&state.db, &state.files, id, &tag).await?;
    Ok(respond(
        &method,
        &headers,
        delivery_of(file, crate::metrics::Sent::Preview),
    ))
}
