//! Leptos SSR: the page shell, the route table of spec §2, and the helpers pages share.
//! Rendered on the server only; interactive parts are React islands (see `island`).

pub mod island;
pub mod layout;
pub mod pages;

use axum::http::{HeaderValue, StatusCode, header};
use leptos::prelude::*;
use leptos_meta::{MetaTags, Title, provide_meta_context};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{SsrMode, path};

use crate::domain::access::{GuardOutcome, LOGIN_PATH, PageAccess, UNAUTHORIZED_PATH, guard};
use crate::domain::user::{CurrentUser, User};
use crate::startup::AppState;
use pages::{admin, customer, public};

/// The HTML document around every page: styles and the islands loader from the vite build.
pub fn shell(state: AppState) -> impl IntoView {
    let assets = state.assets.clone();
    let styles = assets
        .styles
        .into_iter()
        .map(|href| view! { <link rel="stylesheet" href=href/> })
        .collect_view();
    let script = assets
        .script
        .map(|src| view! { <script type="module" src=src></script> });
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
            <body>
                <App/>
            </body>
        </html>
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let title = format!("{} Aktionsportal", app_state().config.product_name);
    view! {
        <Title text=title/>
        <Router>
            // Admin pages load their data before the first byte is sent (no streaming script).
            <Routes fallback=public::NotFound>
                <Route path=path!("/user/downloads") view=customer::Downloads/>
                <Route path=path!("/user/verify-double-opt-in/:contact_id") view=customer::VerifyDoubleOptIn/>
                <Route path=path!("/admin/contacts") view=admin::Contacts ssr=SsrMode::Async/>
                <Route path=path!("/admin/contact/edit/:customer_number") view=admin::ContactEdit ssr=SsrMode::Async/>
                <Route path=path!("/admin/provider/:id") view=admin::Provider ssr=SsrMode::Async/>
                <Route path=path!("/admin/downloads") view=admin::Downloads ssr=SsrMode::Async/>
                <Route path=path!("/admin/download/add") view=admin::DownloadAdd ssr=SsrMode::Async/>
                <Route path=path!("/admin/download/edit/:id") view=admin::DownloadEdit ssr=SsrMode::Async/>
                <Route path=path!("/login") view=public::Login/>
                <Route path=path!("/api/auth/login") view=public::LocalLogin/>
                <Route path=path!("/login-failed") view=public::LoginFailed/>
                <Route path=path!("/unauthorized") view=public::Unauthorized/>
                <Route path=path!("/serverDown") view=public::ServerDown/>
            </Routes>
        </Router>
    }
}

/// The application state, provided to every render.
pub fn app_state() -> AppState {
    expect_context::<AppState>()
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
            redirect_to(LOGIN_PATH);
            false
        }
        GuardOutcome::Unauthorized => {
            redirect_to(UNAUTHORIZED_PATH);
            false
        }
    }
}
