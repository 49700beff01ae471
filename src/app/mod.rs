//! Leptos SSR: the page shell, the route table of spec §2, and the helpers pages share.
//! Rendered on the server only; interactive parts are React islands (see `island`).

pub mod data;
pub mod island;
pub mod layout;
pub mod loaded;
pub mod pages;

use axum::http::{HeaderValue, StatusCode, header};
use leptos::prelude::*;
use leptos_meta::{MetaTags, Title, provide_meta_context};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::assets::EntryAssets;
use crate::config::Config;
use crate::domain::access::{
    GuardOutcome, LOGIN_PATH, PageAccess, UNAUTHORIZED_PATH, guard, login_path_returning_to,
    start_page,
};
use crate::domain::user::{CurrentUser, User};
use crate::integrations::content_site::MenuService;
use crate::state::AppState;
use pages::accounts::public;

/// What pages may use while rendering: the configuration, the content-site menus and the
/// islands build. Deliberately no database handle: pages get their data loaded before they
/// render (see [`data`]).
#[derive(Clone)]
pub struct PageEnv(AppState);

impl PageEnv {
    pub fn new(state: AppState) -> PageEnv {
        PageEnv(state)
    }

    pub fn config(&self) -> &Config {
        &self.0.config
    }

    pub fn menus(&self) -> &MenuService {
        &self.0.menus
    }

    pub fn assets(&self) -> &EntryAssets {
        &self.0.assets
    }
}

/// The HTML document around every page: styles and the islands loader from the vite build.
pub fn shell(env: PageEnv) -> impl IntoView {
    content_security_policy(env.config());
    let assets = env.assets().clone();
    let styles = assets
        .styles
        .into_iter()
        .map(|href| view! { <link rel="stylesheet" href=href/> })
        .collect_view();
    let script = assets
        .script
        .map(|src| view! { <script type="module" src=src></script> });
    let toast_position = env.config().toast_position.as_str();
    view! {
        <!DOCTYPE html>
        <html lang="de">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <link rel="icon" href="/static/favicon.svg" type="image/svg+xml"/>
                {styles}
                {script}
                <MetaTags/>
            </head>
            // The islands' toasts read their corner from the body.
            <body class="ap-body" data-toast-position=toast_position>
                <App/>
            </body>
        </html>
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let title = format!("{} Aktionsportal", page_env().config().product_name);
    view! {
        <Title text=title/>
        <Router>
            // Pages never wait for data while they render: the pages with data are routed,
            // loaded and chosen in `data`, and come through the fallback.
            <Routes fallback=data_page_or_not_found>
                <Route path=path!("/login") view=public::Login/>
                <Route path=path!("/api/auth/login") view=public::LocalLogin/>
                <Route path=path!("/api/auth/logout") view=public::ConfirmLogout/>
                <Route path=path!("/login-failed") view=public::LoginFailed/>
                <Route path=path!("/unauthorized") view=public::Unauthorized/>
                <Route path=path!("/serverDown") view=public::ServerDown/>
            </Routes>
        </Router>
    }
}

/// The page `data` loaded for this path, or the 404 page.
fn data_page_or_not_found() -> AnyView {
    loaded::loaded_page().unwrap_or_else(|| view! { <public::NotFound/> }.into_any())
}

/// What the page being rendered may use (provided to every render).
pub fn page_env() -> PageEnv {
    expect_context::<PageEnv>()
}

/// The page's Content-Security-Policy: only our own scripts and styles, plus the inline
/// scripts Leptos' stream writes, which carry this request's nonce.
fn content_security_policy(config: &Config) {
    let Some(response) = use_context::<leptos_axum::ResponseOptions>() else {
        return;
    };
    let nonce = leptos::nonce::use_nonce().map(|n| n.to_string());
    let policy = crate::headers::page_policy(nonce.as_deref(), config.oidc_issuer.as_deref());
    if let Ok(value) = HeaderValue::from_str(&policy) {
        response.insert_header(header::CONTENT_SECURITY_POLICY, value);
    }
}

/// The signed-in user of this request, resolved by the session layer.
pub fn current_user() -> Option<User> {
    use_context::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<CurrentUser>().cloned())
        .and_then(|current| current.0)
}

/// Sets the HTTP status of the page being rendered.
pub fn set_status(status: StatusCode) {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(status);
    }
}

/// Answers the page with a 302 to `path`, whatever the client accepts
/// (`leptos_axum::redirect` only does so for requests that accept HTML).
pub fn redirect_to(path: &str) {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(StatusCode::FOUND);
        if let Ok(location) = HeaderValue::from_str(path) {
            response.insert_header(header::LOCATION, location);
        }
    }
}

/// Sets headers that keep a page out of shared caches (pages that depend on the user).
pub fn no_store() {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.insert_header(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
}

/// Applies the guard of spec §2 to the page being rendered: true when the current user may
/// see it; otherwise the answer becomes the redirect to the login page or to /unauthorized
/// and the page renders nothing.
pub fn admit(access: PageAccess) -> bool {
    no_store();
    match guard(access, current_user().as_ref()) {
        GuardOutcome::Allow => true,
        GuardOutcome::Login => {
            // Back to this page after signing in.
            let here = use_context::<axum::http::request::Parts>()
                .and_then(|parts| parts.uri.path_and_query().map(|pq| pq.to_string()))
                .unwrap_or_default();
            redirect_to(&login_path_returning_to(&here));
            false
        }
        GuardOutcome::Unauthorized => {
            redirect_to(UNAUTHORIZED_PATH);
            false
        }
    }
}

/// `GET /`: the start page of the signed-in user's roles (spec §2 sends everyone to
/// /user/downloads, which BU-DOI may not open). Without a user the login, which then picks
/// the start page itself: a remembered /user/downloads would not fit every role either.
pub async fn start_redirect(
    current: Option<axum::Extension<CurrentUser>>,
) -> impl axum::response::IntoResponse {
    let user = current.and_then(|axum::Extension(current)| current.0);
    let target = user.as_ref().map_or(LOGIN_PATH, start_page);
    // The answer depends on the session: no shared cache may keep it.
    (
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        axum::response::Redirect::to(target),
    )
}
