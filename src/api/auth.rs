//! Authentication calls of spec §7. `GET /api/auth/login` is the SSR login page
//! (`app::pages::login`); the form posts back here.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
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

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/login", post(login))
        .route("/auth/logout", get(logout))
        .route("/auth/responseUserData", get(response_user_data))
        .route("/login/user", get(login_user))
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
    Form(form): Form<LoginForm>,
) -> Response {
    match local::login(
        &state.db,
        &state.throttle,
        &form.login,
        &form.password,
        client.ip(),
    )
    .await
    {
        Ok((token, user)) => {
            let cookie = session::cookie_for(&token, state.uses_https(&headers));
            let mut response = Redirect::to(start_page(&user)).into_response();
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().insert(header::SET_COOKIE, value);
            }
            response
        }
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
    let mut response = Redirect::to("/login").into_response();
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
