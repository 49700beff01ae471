//! `GET /api/openapi.json`: the OpenAPI 3.1 description of this API (`openapi.json` at the
//! repository root, compiled into the binary). `tests/openapi.rs` keeps it honest.

use axum::http::header;
use axum::response::IntoResponse;

/// The document as shipped with this build.
pub const DOCUMENT: &str = include_str!("../../openapi.json");

pub async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT)
}
