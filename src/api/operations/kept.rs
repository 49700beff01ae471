//! Kept answers (`services::operations::answers`) as HTTP: the body is sent without a copy, with its
//! `ETag`; a request whose `If-None-Match` names it gets 304 without a body.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::services::operations::answers::Answer;

/// Package lists: a browser may keep one for this user and ask again with `If-None-Match`.
pub const REVALIDATE: &str = "private, no-cache";
/// Lists with other people's personal data (contacts): never written to a browser's cache.
pub const NO_STORE: &str = "no-store";

/// The kept JSON answer, or 304 when `headers` already name it.
pub fn json(answer: Arc<Answer>, headers: &HeaderMap, cache_control: &'static str) -> Response {
    let etag = HeaderValue::from_str(&answer.etag).ok();
    let unchanged = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|value| answer.matches(value));
    let mut response = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = body(answer).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    };
    let headers = response.headers_mut();
    if let Some(etag) = etag {
        headers.insert(header::ETAG, etag);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    response
}

/// The kept bytes as a response body, without a copy.
pub fn body(answer: Arc<Answer>) -> Body {
    Body::from(Bytes::from_owner(Owner(answer)))
}

/// Lets an answer's `Arc` own the bytes of a response body.
struct Owner(Arc<Answer>);

impl AsRef<[u8]> for Owner {
    fn as_ref(&self) -> &[u8] {
        &self.0.body
    }
}
