//! Server-side enforcement for API routes: each route declares the capability it needs
//! where it is routed, e.g. `.route_layer(require(Capability::AdminArea))`.

use std::future::Future;
use std::pin::Pin;

use axum::extract::{Request, State};
use axum::middleware::{FromFnLayer, Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};

use crate::domain::permissions::Capability;
use crate::domain::user::{CurrentUser, User};
use crate::server::refusal::Refusal;

/// The signed-in user or the API's 401 (code `not_logged_in`).
pub fn signed_in(request: &Request) -> Result<User, Refusal> {
    request
        .extensions()
        .get::<CurrentUser>()
        .and_then(|current| current.0.clone())
        .ok_or(Refusal::NotLoggedIn)
}

/// Checks a capability for one request: 401 without a user, 403 without the roles.
pub fn check(capability: Capability, request: &Request) -> Result<User, Refusal> {
    let user = signed_in(request)?;
    if capability.allows(&user) {
        Ok(user)
    } else {
        Err(Refusal::Forbidden)
    }
}

type Enforce =
    fn(State<Capability>, Request, Next) -> Pin<Box<dyn Future<Output = Response> + Send>>;

fn enforce(
    State(capability): State<Capability>,
    request: Request,
    next: Next,
) -> Pin<Box<dyn Future<Output = Response> + Send>> {
    Box::pin(async move {
        match check(capability, &request) {
            Ok(_) => next.run(request).await,
            Err(err) => err.into_response(),
        }
    })
}

/// A route layer that lets through only users with `capability`.
pub fn require(
    capability: Capability,
) -> FromFnLayer<Enforce, Capability, (State<Capability>, Request)> {
    from_fn_with_state(capability, enforce as Enforce)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::body::Body;
    use axum::routing::post;
    use tower::ServiceExt;

    async fn status(roles: Option<&[&str]>) -> u16 {
        let app = Router::new()
            .route("/geheim", post(|| async { "ok" }))
            .route_layer(require(Capability::AdminOnly));
        let mut request = Request::post("/geheim").body(Body::empty()).unwrap();
        let user = roles.map(|roles| User {
            name: "n".into(),
            customer_number: None,
            email: "e@example.de".into(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
            subject: "test:n".into(),
        });
        request.extensions_mut().insert(CurrentUser(user));
        app.oneshot(request).await.unwrap().status().as_u16()
    }

    #[tokio::test]
    async fn routes_enforce_their_capability() {
        assert_eq!(status(None).await, 401);
        assert_eq!(status(Some(&["GS-Aktionsportal-BU-Moderator"])).await, 403);
        assert_eq!(status(Some(&["GS-Aktionsportal-Admin"])).await, 200);
    }
}
