//! Who is asking: server-side sessions behind an HttpOnly cookie, and the request
//! extension that carries the signed-in user to pages and calls.

pub mod csrf;
pub mod local;
pub mod oidc;
pub mod password;
pub mod require;
pub mod session;
pub mod throttle;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::domain::user::CurrentUser;
use crate::state::AppState;

/// Resolves the session cookie into `CurrentUser` for everything behind this layer.
/// When the database cannot be reached, a signed-in user is not taken for a stranger (which
/// would send them to the login): the request is answered 503 at once.
pub async fn load_current_user(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let user = match session::token_from_headers(request.headers()) {
        Some(token) => match session::user_for_token(&state.db, &token, chrono::Utc::now()).await {
            Ok(user) => user,
            Err(err) if crate::db::is_unavailable(&err) => {
                tracing::warn!(error = %err, "session lookup failed: database unavailable");
                return database_unavailable(request.uri().path());
            }
            Err(err) => {
                tracing::warn!(error = %err, "session lookup failed");
                None
            }
        },
        None => None,
    };
    request.extensions_mut().insert(CurrentUser(user));
    next.run(request).await
}

/// 503 while the database is away: JSON for calls, a short German page for pages.
fn database_unavailable(path: &str) -> Response {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    let message = crate::error::DATABASE_UNAVAILABLE;
    if path.starts_with("/api/") || path.starts_with("/files/") {
        let body = serde_json::json!({ "message": message, "code": "database_unavailable" });
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "30")],
            axum::Json(body),
        )
            .into_response();
    }
    let page = format!(
        "<!DOCTYPE html><html lang=\"de\"><head><meta charset=\"utf-8\"><title>Nicht \
         erreichbar</title></head><body><main><h1>Gerade nicht erreichbar</h1><p>{message}</p>\
         <p><a href=\"\">Seite neu laden</a></p></main></body></html>"
    );
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::RETRY_AFTER, "30"),
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        ],
        page,
    )
        .into_response()
}
