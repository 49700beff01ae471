//! Security headers on every answer: a Content-Security-Policy on pages (our own scripts and
//! styles only, no framing), `nosniff`, a same-origin referrer, no caching of JSON (it carries
//! personal data), and HSTS when the portal is reached over https.

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::server::client::Client;

/// The policy of an HTML page. `nonce` allows the few inline scripts Leptos' stream writes;
/// `oidc_issuer` is where the login may continue after a form (the logout confirmation).
pub fn page_policy(nonce: Option<&str>, oidc_issuer: Option<&str>) -> String {
    let scripts = match nonce {
        Some(nonce) => format!("script-src 'self' 'nonce-{nonce}'"),
        None => "script-src 'self'".to_string(),
    };
    let form_action = match oidc_issuer.and_then(origin_of) {
        Some(origin) => format!("form-action 'self' {origin}"),
        None => "form-action 'self'".to_string(),
    };
    format!(
        "default-src 'self'; {scripts}; style-src 'self'; img-src 'self' data: https:; \
         font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
         {form_action}; frame-ancestors 'none'"
    )
}

/// The policy of a mail shown in a frame of the portal (the announcement's preview): its own
/// inline styles and images, nothing that runs, sandboxed, and framed only by the portal.
pub const MAIL_PREVIEW_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; \
     img-src 'self' https: data:; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'self'; sandbox";

/// `scheme://host[:port]` of a URL, or `None` when it has no usable origin.
fn origin_of(url: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url).ok()?;
    let host = parsed.host_str()?;
    if !matches!(parsed.scheme(), "http" | "https") || host.contains(['\'', ';', ' ']) {
        return None;
    }
    Some(match parsed.port() {
        Some(port) => format!("{}://{host}:{port}", parsed.scheme()),
        None => format!("{}://{host}", parsed.scheme()),
    })
}

fn is_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"))
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"))
}

/// Adds the headers to whatever the inner service answered; headers a handler set itself
/// (a page's nonce policy, a file's sandbox policy, the assets' long cache) are kept.
pub async fn secure(request: Request, next: Next) -> Response {
    let https = request
        .extensions()
        .get::<Client>()
        .is_some_and(|client| client.https);
    let mut response = next.run(request).await;
    let html = is_html(response.headers());
    let json = is_json(response.headers());
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if html {
        // A handler may allow its own page in frames of the portal (a mail's preview).
        if !headers.contains_key(header::X_FRAME_OPTIONS) {
            headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        }
        if !headers.contains_key(header::CONTENT_SECURITY_POLICY)
            && let Ok(value) = HeaderValue::from_str(&page_policy(None, None))
        {
            headers.insert(header::CONTENT_SECURITY_POLICY, value);
        }
    }
    if json && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if https {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_allow_only_our_scripts_and_no_framing() {
        let policy = page_policy(Some("abc123"), None);
        assert!(
            policy.contains("script-src 'self' 'nonce-abc123';"),
            "{policy}"
        );
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(policy.contains("style-src 'self';"));
        assert!(!policy.contains("unsafe-inline"));
        assert!(page_policy(None, None).contains("script-src 'self';"));
    }

    #[test]
    fn the_identity_provider_may_receive_forms() {
        let policy = page_policy(None, Some("https://login.example.de/realms/partner"));
        assert!(
            policy.contains("form-action 'self' https://login.example.de;"),
            "{policy}"
        );
        let policy = page_policy(None, Some("http://127.0.0.1:4444/x"));
        assert!(policy.contains("form-action 'self' http://127.0.0.1:4444;"));
        assert!(page_policy(None, Some("kein url")).contains("form-action 'self';"));
    }
}
