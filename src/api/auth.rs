//! Authentication calls of spec §7: login (local form or OpenID Connect), the OpenID
//! callback, logout, and the calls that tell the islands who is signed in.

use axum::extract::rejection::FormRejection;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Form, Json, Router};
use serde::Deserialize;

use crate::auth::local::{self, LoginError};
use crate::auth::session;
use crate::domain::access::{RETURN_PARAM, safe_return_path, start_page};
use crate::domain::user::{CurrentUser, User};
use crate::error::ApiError;
use crate::server::client::Client;
use crate::services;
use crate::state::AppState;

/// The server login endpoint (spec §7).
pub const LOGIN_PATH: &str = "/api/auth/login";

/// The logout endpoint (spec §7); GET as the spec defines it, POST from the confirmation.
pub const LOGOUT_PATH: &str = "/api/auth/logout";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/login", post(login))
        .route("/auth/callback", get(callback))
        .route("/auth/logout", post(logout))
        .route("/auth/responseUserData", get(response_user_data))
        .route("/login/user", get(login_user))
}

/// The page to return to, from the `next` query parameter, when it is a safe one.
fn return_target(request: &Request) -> Option<String> {
    request.uri().query().and_then(|query| {
        url::form_urlencoded::parse(query.as_bytes())
            .find(|(key, _)| key == RETURN_PARAM)
            .and_then(|(_, value)| safe_return_path(&value))
    })
}

/// `GET /api/auth/login`: to the OpenID provider when one is configured, else the local
/// login form (rendered by `render`, the SSR handler).
pub async fn login_page<F, Fut>(state: AppState, request: Request, render: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: std::future::Future<Output = Response>,
{
    let Some(oidc) = &state.oidc else {
        return render(request).await;
    };
    match oidc
        .start_login(&state.db, return_target(&request).as_deref())
        .await
    {
        Ok(url) => Redirect::to(&url).into_response(),
        Err(err) => {
            tracing::error!(error = %err, "OpenID login could not start");
            Redirect::to(LOGIN_FAILED).into_response()
        }
    }
}

const LOGIN_FAILED: &str = "/login-failed";

#[derive(Deserialize)]
pub struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// The OpenID provider sends the browser back here with a code, or an error when the user
/// cancelled or was refused; every failure lands on /login-failed.
async fn callback(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<CallbackQuery>,
) -> Response {
    let Some(oidc) = &state.oidc else {
        return Redirect::to(LOGIN_FAILED).into_response();
    };
    let outcome = match (&query.code, &query.state, &query.error) {
        (_, _, Some(error)) => Err(crate::auth::oidc::OidcError::Denied(
            error.chars().take(100).collect(),
        )),
        (Some(code), Some(login_state), None) => {
            oidc.finish_login(&state.db, code, login_state).await
        }
        _ => Err(crate::auth::oidc::OidcError::UnknownState),
    };
    let finished = match outcome {
        Ok(finished) => finished,
        Err(err) => {
            tracing::warn!(error = %err, "OpenID login failed");
            return Redirect::to(LOGIN_FAILED).into_response();
        }
    };
    let user = &finished.user;
    match session::create(&state.db, None, &finished.subject, user, chrono::Utc::now()).await {
        Ok(token) => {
            tracing::info!("OpenID login");
            // Checked when stored; checked again in case the row was written otherwise.
            let target = finished
                .return_to
                .as_deref()
                .and_then(safe_return_path)
                .unwrap_or_else(|| start_page(user).to_string());
            with_session_cookie(Redirect::to(&target).into_response(), &token, client.https)
        }
        Err(err) => {
            tracing::error!(error = %err, "session could not be stored");
            Redirect::to(LOGIN_FAILED).into_response()
        }
    }
}

fn with_session_cookie(mut response: Response, token: &str, secure: bool) -> Response {
    if let Ok(value) = HeaderValue::from_str(&session::cookie_for(token, secure)) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}

#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    login: String,
    #[serde(default)]
    password: String,
    /// The page to return to after signing in.
    #[serde(default)]
    next: String,
}

/// Where the login form shows an error; the code selects the German message. The page to
/// return to is kept for the next try.
fn back_to_form(code: &str, next: Option<&str>) -> Response {
    let mut target = format!("{LOGIN_PATH}?fehler={code}");
    if let Some(next) = next {
        target.push_str(&format!(
            "&{RETURN_PARAM}={}",
            url::form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>()
        ));
    }
    Redirect::to(&target).into_response()
}

async fn login(
    State(state): State<AppState>,
    client: Client,
    form: Result<Form<LoginForm>, FormRejection>,
) -> Response {
    // Anything but the urlencoded form is treated like wrong credentials: one message.
    let Ok(Form(form)) = form else {
        return back_to_form("zugangsdaten", None);
    };
    // With an OpenID provider, local accounts do not sign in: send the browser there.
    if state.oidc.is_some() {
        return Redirect::to(LOGIN_PATH).into_response();
    }
    let next = safe_return_path(&form.next);
    let next = next.as_deref();
    match local::login(
        &state.db,
        &state.hashing,
        &form.login,
        &form.password,
        client.ip,
    )
    .await
    {
        Ok((token, user)) => with_session_cookie(
            Redirect::to(next.unwrap_or(start_page(&user))).into_response(),
            &token,
            client.https,
        ),
        Err(LoginError::InvalidCredentials) => back_to_form("zugangsdaten", next),
        Err(LoginError::Throttled(wait)) => back_to_form(
            &format!("gesperrt&minuten={}", wait.as_secs().div_ceil(60).max(1)),
            next,
        ),
        Err(LoginError::Busy) => back_to_form("ausgelastet", next),
        Err(LoginError::Internal(err)) => {
            tracing::error!(error = ?err, "login failed");
            back_to_form("intern", next)
        }
    }
}

/// `GET /api/auth/logout`: ends the session when the user asked for it on our own pages;
/// a link from another site only gets a confirmation page (rendered by `render`), so that
/// no other site can sign our users out.
pub async fn logout_page<F, Fut>(state: AppState, request: Request, render: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: std::future::Future<Output = Response>,
{
    if crate::auth::csrf::is_same_site_navigation(request.headers()) {
        logout(State(state), request.headers().clone())
            .await
            .into_response()
    } else {
        render(request).await
    }
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let token = session::token_from_headers(&headers);
    services::accounts::sign_out(&state.db, token.as_deref()).await?;
    // Also end the session at the provider when it supports RP-initiated logout.
    let target = match &state.oidc {
        Some(oidc) => oidc.logout_url().await.unwrap_or_else(|| "/login".into()),
        None => "/login".into(),
    };
    let mut response = Redirect::to(&target).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static(session::CLEAR_COOKIE),
    );
    Ok(response)
}

async fn response_user_data(
    Extension(current): Extension<CurrentUser>,
) -> Result<Json<User>, ApiError> {
    current.0.map(Json).ok_or(ApiError::Unauthorized {
        code: "unauthorized_login",
    })
}

async fn login_user(Extension(current): Extension<CurrentUser>) -> Result<Json<User>, ApiError> {
    current.0.map(Json).ok_or(ApiError::Unauthorized {
        code: "not_logged_in",
    })
}
