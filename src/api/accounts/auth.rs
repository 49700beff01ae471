//! Authentication calls of spec §7: login (local form or OpenID Connect), the OpenID
//! callback, logout, and the calls that tell the islands who is signed in.

use axum::extract::rejection::FormRejection;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Form, Json, Router};
use serde::Deserialize;

use crate::api::error::ApiError;
use crate::auth::local::{self, LoginError};
use crate::auth::throttle::{self, GateError};
use crate::auth::{oidc, session};
use crate::domain::access::{RETURN_PARAM, safe_return_path, start_page};
use crate::domain::user::{CurrentUser, User};
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
#[utoipa::path(
    get,
    path = "/api/auth/login",
    operation_id = "loginPage",
    tag = "auth",
    summary = "Login form, or redirect to the OpenID provider",
    description = "Without `AP_OIDC_ISSUER`: the server-rendered local login form (HTML), which posts to `POST /api/auth/login`; a user who is already signed in is sent to the start page (302). With an OpenID provider configured: a redirect (303) to its authorization endpoint (authorization code flow with PKCE and nonce), setting the HttpOnly, SameSite=Lax cookie `ap_login` that binds the login to this browser (kept when the browser has one); or to `/login-failed` when the login cannot start, and to `/login-failed?fehler=zu-viele&minuten=N` after 20 logins started from one address within 15 minutes and not finished.\n\n**Wer darf:** jeder, auch ohne Anmeldung.",
    security((), ("sessionCookie" = [])),
    params(
        ("fehler" = Option<String>, Query, description = "Set by `POST /api/auth/login` after a failure; selects the German message the form shows: `zugangsdaten`, `gesperrt`, `ausgelastet` or `intern`."),
        ("minuten" = Option<String>, Query, description = "With `fehler=gesperrt`: minutes until the next attempt, shown on the page (1–15; anything else shows 15)."),
    ),
    responses(
        (status = 200, description = "The local login form (no OpenID provider configured).", body = String, content_type = "text/html"),
        (status = 302, description = "Local form, already signed in: to the start page.", headers(("Location" = String, description = "`/user/downloads` or `/admin/contacts`."))),
        (status = 303, description = "OpenID provider configured: to its authorization endpoint, or to `/login-failed`.", headers(("Location" = String, description = "The provider's authorization URL, `/login-failed` or `/login-failed?fehler=zu-viele&minuten=N`."), ("Set-Cookie" = String, description = "With the provider's URL: `ap_login=…; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=900` (plus `; Secure` behind https)."))),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
pub async fn login_page<F, Fut>(
    state: AppState,
    client: Client,
    request: Request,
    render: F,
) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: std::future::Future<Output = Response>,
{
    let Some(oidc) = &state.oidc else {
        return render(request).await;
    };
    // Each start writes a row: a flood of starts is refused like a flood of guesses.
    match throttle::reserve_login_start(&state.db, client.ip).await {
        Ok(()) => {}
        Err(GateError::Throttled(wait)) => {
            let minutes = wait.as_secs().div_ceil(60).max(1);
            return Redirect::to(&format!("{LOGIN_FAILED}?fehler=zu-viele&minuten={minutes}"))
                .into_response();
        }
        Err(err) => {
            tracing::error!(error = %err, "OpenID login start not counted");
            return Redirect::to(LOGIN_FAILED).into_response();
        }
    }
    let browser = oidc::browser_binding(request.headers());
    match oidc
        .start_login(&state.db, return_target(&request).as_deref(), &browser)
        .await
    {
        Ok(url) => with_cookie(
            Redirect::to(&url).into_response(),
            &oidc::browser_cookie(&browser, client.https),
        ),
        Err(err) => {
            tracing::error!(error = %err, "OpenID login could not start");
            Redirect::to(LOGIN_FAILED).into_response()
        }
    }
}

const LOGIN_FAILED: &str = "/login-failed";

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    /// Set by the provider when the user cancelled or was refused.
    error: Option<String>,
}

/// The OpenID provider sends the browser back here with a code, or an error when the user
/// cancelled or was refused; every failure lands on /login-failed.
#[utoipa::path(
    get,
    path = "/api/auth/callback",
    operation_id = "loginCallback",
    tag = "auth",
    summary = "OpenID Connect redirect URI",
    description = "The OpenID provider sends the browser back here. With a valid `code` and `state`, in the browser that started the login (its `ap_login` cookie), a session is created and the browser goes to the start page; every failure (no provider configured, `error` from the provider, unknown or expired `state`, another browser, refused token, session not stored) goes to `/login-failed`. A `state` is used once.\n\n**Wer darf:** jeder, auch ohne Anmeldung.",
    security(),
    params(CallbackQuery),
    responses(
        (status = 303, description = "To the start page with the session cookie, or to `/login-failed`.", headers(("Location" = String, description = "`/user/downloads`, `/admin/contacts` or `/login-failed`."), ("Set-Cookie" = String, description = "On success: the `ap_session` cookie."))),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
async fn callback(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    Query(query): Query<CallbackQuery>,
) -> Response {
    let Some(oidc) = &state.oidc else {
        return Redirect::to(LOGIN_FAILED).into_response();
    };
    let browser = session::cookie_value(&headers, oidc::BROWSER_COOKIE);
    let outcome = match (&query.code, &query.state, &query.error) {
        (_, _, Some(error)) => Err(oidc::OidcError::Denied(error.chars().take(100).collect())),
        (Some(code), Some(login_state), None) => {
            oidc.finish_login(&state.db, code, login_state, browser.as_deref())
                .await
        }
        _ => Err(oidc::OidcError::UnknownState),
    };
    let finished = match outcome {
        Ok(finished) => finished,
        Err(err) => {
            tracing::warn!(error = %err, "OpenID login failed");
            return Redirect::to(LOGIN_FAILED).into_response();
        }
    };
    let user = &finished.user;
    match session::create(&state.db, None, user, chrono::Utc::now()).await {
        Ok(token) => {
            tracing::info!("OpenID login");
            if let Err(err) = throttle::login_finished(&state.db, client.ip).await {
                tracing::warn!(error = %err, "finished login start not given back");
            }
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

fn with_session_cookie(response: Response, token: &str, secure: bool) -> Response {
    with_cookie(response, &session::cookie_for(token, secure))
}

fn with_cookie(mut response: Response, cookie: &str) -> Response {
    if let Ok(value) = HeaderValue::from_str(cookie) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct LoginForm {
    #[serde(default)]
    #[schema(max_length = 100)]
    login: String,
    #[serde(default)]
    #[schema(format = Password, max_length = 1024)]
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

#[utoipa::path(
    post,
    path = "/api/auth/login",
    operation_id = "login",
    tag = "auth",
    summary = "Sign in with a local account",
    description = "The local login form's target. A request without the form answers 400; otherwise 303: on success to the start page (`/admin/contacts` for admin-area users without the customer view, else `/user/downloads`) with the session cookie `ap_session` set (HttpOnly, SameSite=Lax, Secure behind https); on failure back to the form with `?fehler=zugangsdaten` (wrong login or password), `?fehler=gesperrt&minuten=N` (too many failed attempts for the account or the address) or `?fehler=intern`. The answer does not differ between unknown logins and wrong passwords.\n\n**Wer darf:** jeder, auch ohne Anmeldung.",
    security(),
    request_body(content = LoginForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 303, description = "Signed in (to the start page) or refused (back to the form).", headers(("Location" = String, description = "`/user/downloads`, `/admin/contacts`, or `/api/auth/login?fehler=…`."), ("Set-Cookie" = String, description = "On success: `ap_session=…; Path=/; HttpOnly; SameSite=Lax; Max-Age=…` (plus `; Secure` behind https)."))),
        (status = 400, description = "No form in the request (not `application/x-www-form-urlencoded`), or a login or password longer than stated.", body = crate::api::responses::ValidationError, content_type = "application/json", example = json!({"message": "Die Anmeldung erwartet ein Formular (application/x-www-form-urlencoded) mit login und password.", "code": "validation_error"})),
        (status = 403, description = "The form was posted from another site.", body = crate::api::responses::CrossSiteRequest, content_type = "application/json", example = json!({"message": "Die Anfrage wurde abgelehnt, weil sie nicht vom Aktionsportal selbst stammt.", "code": "cross_site_request"})),
        (status = 408, response = crate::api::responses::SlowRequest),
        (status = 413, response = crate::api::responses::PayloadTooLarge),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
async fn login(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    form: Result<Form<LoginForm>, FormRejection>,
) -> Response {
    // A request without the form is no login attempt (browsers always send the form).
    let Ok(Form(form)) = form else {
        return ApiError::validation(
            "Die Anmeldung erwartet ein Formular (application/x-www-form-urlencoded) mit login \
             und password.",
        )
        .into_response();
    };
    // The bounds the description states; longer values are no credentials anyone holds.
    if form.login.chars().count() > 100 || form.password.chars().count() > 1024 {
        return ApiError::validation(
            "Login (höchstens 100 Zeichen) oder Passwort (höchstens 1024 Zeichen) ist zu lang.",
        )
        .into_response();
    }
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
        Ok((token, user)) => {
            // No session fixation: a session the browser brought along ends here, and the new
            // one replaces its cookie.
            let previous = session::token_from_headers(&headers);
            if let Err(err) = services::accounts::sign_out(&state.db, previous.as_deref()).await {
                tracing::warn!(error = %err, "ending the previous session failed");
            }
            with_session_cookie(
                Redirect::to(next.unwrap_or(start_page(&user))).into_response(),
                &token,
                client.https,
            )
        }
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
#[utoipa::path(
    get,
    path = "/api/auth/logout",
    operation_id = "logout",
    tag = "auth",
    summary = "Sign out",
    description = "Ends the session (deletes it on the server) and clears the cookie; with an OpenID provider that offers RP-initiated logout, the browser goes on to its end-session endpoint, else to `/login`. Only for requests from the portal's own pages (`Sec-Fetch-Site` `same-origin` or `none`, or clients that send no fetch metadata): when another site sent the browser here, the answer is a confirmation page whose button posts to `POST /api/auth/logout`, and the session lives on.\n\n**Wer darf:** jeder, auch ohne Anmeldung.",
    security((), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The confirmation page (another site sent the browser here); nothing was ended.", body = String, content_type = "text/html"),
        (status = 303, description = "Signed out.", headers(("Location" = String, description = "`/login`, or the provider's end-session URL."), ("Set-Cookie" = String, description = "`ap_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`."))),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
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

#[utoipa::path(
    post,
    path = "/api/auth/logout",
    operation_id = "logoutConfirmed",
    tag = "auth",
    summary = "Sign out (from the confirmation page)",
    description = "Ends the session like `GET /api/auth/logout` from the portal's own pages; the target of the confirmation page's form. Refused for other sites like every state-changing call.\n\n**Wer darf:** jeder, auch ohne Anmeldung.",
    security((), ("sessionCookie" = [])),
    responses(
        (status = 303, description = "Signed out.", headers(("Location" = String, description = "`/login`, or the provider's end-session URL."), ("Set-Cookie" = String, description = "`ap_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`."))),
        (status = 403, response = crate::api::responses::ForbiddenOrCrossSite),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
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

#[utoipa::path(
    get,
    path = "/api/auth/responseUserData",
    operation_id = "responseUserData",
    tag = "auth",
    summary = "The signed-in user",
    description = "Answers the signed-in user; 401 with code `unauthorized_login` means not signed in (spec §7).\n\n**Wer darf:** jeder angemeldete Benutzer (Capability `SignedIn`).",
    responses(
        (status = 200, description = "The signed-in user.", body = crate::domain::user::User, content_type = "application/json"),
        (status = 401, description = "Not signed in.", body = crate::api::responses::UnauthorizedLogin, content_type = "application/json", example = json!({"message": "Sie sind nicht angemeldet.", "code": "unauthorized_login"})),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "SignedIn"}))),
)]
async fn response_user_data(
    Extension(current): Extension<CurrentUser>,
) -> Result<Json<User>, ApiError> {
    current.0.map(Json).ok_or(ApiError::Unauthorized {
        code: "unauthorized_login",
    })
}

#[utoipa::path(
    get,
    path = "/api/login/user",
    operation_id = "loginUser",
    tag = "auth",
    summary = "The signed-in user (login check)",
    description = "Answers the signed-in user; 401 with code `not_logged_in` makes the islands send the browser to the login (spec §4, §7).\n\n**Wer darf:** jeder angemeldete Benutzer (Capability `SignedIn`).",
    responses(
        (status = 200, description = "The signed-in user.", body = crate::domain::user::User, content_type = "application/json"),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "SignedIn"}))),
)]
async fn login_user(Extension(current): Extension<CurrentUser>) -> Result<Json<User>, ApiError> {
    current.0.map(Json).ok_or(ApiError::Unauthorized {
        code: "not_logged_in",
    })
}
