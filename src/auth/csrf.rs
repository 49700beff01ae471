//! Refuses state-changing requests that a browser sends on behalf of another site.
//! Browsers mark every request with `Sec-Fetch-Site` and cross-site POSTs with `Origin`;
//! clients that send neither (curl, server-to-server) are not browsers and cannot be tricked.

use axum::extract::Request;
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::server::refusal::Refusal;

/// The decision for one request, from its method and headers alone.
pub fn is_allowed(method: &Method, headers: &HeaderMap) -> bool {
    if matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    ) {
        return true;
    }
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        // "none" is a navigation the user typed or bookmarked.
        return matches!(site, "same-origin" | "none");
    }
    match headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        None => true,
        Some(origin) => {
            let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
            let origin_host = origin
                .strip_prefix("https://")
                .or_else(|| origin.strip_prefix("http://"));
            matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
        }
    }
}

/// Whether a navigation or fetch came from our own pages (or was typed by the user): the
/// test for the GETs that change state because the spec defines them as GET. Clients that
/// send no fetch metadata (curl, older browsers) pass, as for writes.
pub fn is_same_site_navigation(headers: &HeaderMap) -> bool {
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        Some(site) => matches!(site, "same-origin" | "none"),
        None => true,
    }
}

/// Route layer for GETs that change state: refused when another site sent the browser.
pub async fn same_site_only(request: Request, next: Next) -> Response {
    if is_same_site_navigation(request.headers()) {
        next.run(request).await
    } else {
        tracing::warn!(path = %request.uri().path(), "cross-site GET with side effects refused");
        Refusal::CrossSite.into_response()
    }
}

pub async fn protect(request: Request, next: Next) -> Response {
    if is_allowed(request.method(), request.headers()) {
        next.run(request).await
    } else {
        tracing::warn!(method = %request.method(), path = %request.uri().path(), "cross-site request refused");
        Refusal::CrossSite.into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_static(v));
        }
        map
    }

    #[test]
    fn reads_are_always_allowed() {
        assert!(is_allowed(
            &Method::GET,
            &headers(&[("sec-fetch-site", "cross-site")])
        ));
    }

    #[test]
    fn same_origin_writes_pass_and_cross_site_writes_do_not() {
        assert!(is_allowed(
            &Method::POST,
            &headers(&[("sec-fetch-site", "same-origin")])
        ));
        assert!(!is_allowed(
            &Method::POST,
            &headers(&[("sec-fetch-site", "cross-site")])
        ));
        assert!(!is_allowed(
            &Method::DELETE,
            &headers(&[("sec-fetch-site", "same-site")])
        ));
    }

    #[test]
    fn origin_must_match_the_host_when_fetch_metadata_is_missing() {
        let same = headers(&[
            ("origin", "http://portal.example.de"),
            ("host", "portal.example.de"),
        ]);
        assert!(is_allowed(&Method::PUT, &same));
        let other = headers(&[
            ("origin", "https://evil.example"),
            ("host", "portal.example.de"),
        ]);
        assert!(!is_allowed(&Method::PATCH, &other));
        assert!(!is_allowed(
            &Method::POST,
            &headers(&[("origin", "null"), ("host", "portal.example.de")])
        ));
    }

    #[test]
    fn state_changing_gets_only_from_our_own_pages() {
        assert!(is_same_site_navigation(&headers(&[(
            "sec-fetch-site",
            "same-origin"
        )])));
        assert!(is_same_site_navigation(&headers(&[(
            "sec-fetch-site",
            "none"
        )])));
        assert!(!is_same_site_navigation(&headers(&[(
            "sec-fetch-site",
            "cross-site"
        )])));
        assert!(!is_same_site_navigation(&headers(&[(
            "sec-fetch-site",
            "same-site"
        )])));
        assert!(is_same_site_navigation(&HeaderMap::new()));
    }

    #[test]
    fn clients_without_browser_headers_pass() {
        assert!(is_allowed(&Method::POST, &HeaderMap::new()));
    }
}
