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
use crate::startup::AppState;

/// Resolves the session cookie into `CurrentUser` for everything behind this layer.
/// A broken database does not fail the request here; the page or call decides.
pub async fn load_current_user(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let user = match session::token_from_headers(request.headers()) {
        Some(token) => match session::user_for_token(&state.db, &token, chrono::Utc::now()).await {
            Ok(user) => user,
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
