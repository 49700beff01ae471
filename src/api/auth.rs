//! Authentication calls of spec §7: login (local form or OpenID Connect), the OpenID
//! callback, logout, and the calls that tell the islands who is signed in.

use std::net::SocketAddr;

use axum::extract::rejection::FormRejection;
use axum::extract::{ConnectInfo, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Form, Json, Router};
use serde::Deserialize;

use crate::auth::local::{self, LoginError};
use crate::auth::session;
use crate::db;
use crate::domain::access::start_page;
use crate::domain::user::{CurrentUser, User};
use crate::error::ApiError;
use crate::startup::AppState;

/// The server login endpoint (spec §7).
pub const LOGIN_PATH: &str = "/api/auth/login";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/login", post(login))
        .route("/auth/callback", get(callback))
        .route("/auth/logout", get(logout))
        .route("/auth/responseUserData", get(response_user_data))
        .route("/login/user", get(login_user))
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
    match oidc.start_login(&state.db).await {
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
    headers: HeaderMap,
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
    let (subject, user) = match outcome {
        Ok(found) => found,
        Err(err) => {
            tracing::warn!(error = %err, "OpenID login failed");
            return Redirect::to(LOGIN_FAILED).into_response();
        }
    };
    match session::create(&state.db, None, &subject, &user, chrono::Utc::now()).await {
        Ok(token) => {
            tracing::info!("OpenID login");
            with_session_cookie(
                Redirect::to(start_page(&user)).into_response(),
                &token,
                state.uses_https(&headers),
            )
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
}

/// Where the login form shows an error; the code selects the German message.
fn back_to_form(code: &str) -> Response {
    Redirect::to(&format!("/api/auth/login?fehler={code}")).into_response()
}

async fn login(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    form: Result<Form<LoginForm>, FormRejection>,
) -> Response {
    // Anything but the urlencoded form is treated like wrong credentials: one message.
    let Ok(Form(form)) = form else {
        return back_to_form("zugangsdaten");
    };
    // With an OpenID provider, local accounts do not sign in: send the browser there.
    if state.oidc.is_some() {
        return Redirect::to(LOGIN_PATH).into_response();
    }
    match local::login(
        &state.db,
        &state.throttle,
        &form.login,
        &form.password,
        client.ip(),
    )
    .await
    {
        Ok((token, user)) => with_session_cookie(
            Redirect::to(start_page(&user)).into_response(),
            &token,
            state.uses_https(&headers),
        ),
        Err(LoginError::InvalidCredentials) => back_to_form("zugangsdaten"),
        Err(LoginError::Throttled(wait)) => back_to_form(&format!(
            "gesperrt&minuten={}",
            wait.as_secs().div_ceil(60).max(1)
        )),
        Err(LoginError::Internal(err)) => {
            tracing::error!(error = ?err, "login failed");
            back_to_form("intern")
        }
    }
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = session::token_from_headers(&headers) {
        db::sessions::delete(&state.db, &db::sessions::hash_token(&token)).await?;
    }
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
