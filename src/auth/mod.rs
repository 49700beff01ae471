//! Who is asking: server-side sessions behind an HttpOnly cookie, and the request
//! extension that carries the signed-in user to pages and calls.

pub mod cleanup;
pub mod csrf;
pub mod local;
pub mod mail_visit;
pub mod oidc;
pub mod password;
pub mod require;
pub mod session;
pub mod throttle;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::db::Db;
use crate::domain::user::CurrentUser;

/// Resolves the session cookie into `CurrentUser` for everything behind this layer.
/// When the database cannot be reached, a signed-in user is not taken for a stranger (which
/// would send them to the login): the request is answered 503 at once.
pub async fn load_current_user(State(db): State<Db>, mut request: Request, next: Next) -> Response {
    let signed_in = match session::token_from_headers(request.headers()) {
        Some(token) => match session::user_for_token(&db, &token, chrono::Utc::now()).await {
            Ok(signed_in) => signed_in,
            Err(err) if crate::db::is_unavailable(&err) => {
                tracing::warn!(error = %err, "session lookup failed: database unavailable");
                // The server-down page needs no user; every other request is answered here.
                if request.uri().path() != SERVER_DOWN_PATH {
                    return database_unavailable(request.uri().path());
                }
                None
            }
            Err(err) => {
                tracing::warn!(error = %err, "session lookup failed");
                None
            }
        },
        None => None,
    };
    let user = signed_in.map(|(user, version)| {
        request.extensions_mut().insert(version);
        user
    });
    request.extensions_mut().insert(CurrentUser(user));
    next.run(request).await
}

/// Spec §2's page for a server that cannot serve (10-second countdown back to `/`).
pub const SERVER_DOWN_PATH: &str = "/serverDown";

/// While the database is away: 503 JSON for calls; pages lead to the server-down page
/// (spec §2), which answers 503 itself.
fn database_unavailable(path: &str) -> Response {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    let message = crate::domain::outage::DATABASE_UNAVAILABLE;
    if ["/api/", "/files/", "/previews/"]
        .iter()
        .any(|prefix| path.starts_with(prefix))
    {
        let body = serde_json::json!({ "message": message, "code": "database_unavailable" });
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "30")],
            axum::Json(body),
        )
            .into_response();
    }
    (
        StatusCode::SEE_OTHER,
        [
            (header::RETRY_AFTER, "30"),
            (header::LOCATION, SERVER_DOWN_PATH),
            (header::CACHE_CONTROL, "no-store"),
        ],
    )
        .into_response()
}
