//! Page data, loaded before a page renders.
//!
//! Pages never await. Everything a page shows from the database is loaded first by an
//! ordinary axum handler, which tokio drives to completion one query after another, each
//! query giving its pooled connection back before the next one asks for it. The loaded
//! values reach the page through the request's extensions (`app::loaded`), and rendering is
//! synchronous.
//!
//! Why: a `Suspend` inside the SSR stream used to hold a pooled connection while the renderer
//! waited on another part of the same page (the admin menu) that needed one as well; with as
//! many concurrent requests as the pool has connections, every request waited on the others
//! until the pool timed out. The Leptos context carries [`super::PageEnv`], which has no
//! database handle, so a page cannot start a query of its own.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::Extension;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, RawQuery};
use axum::extract::{Request, State};
use axum::handler::Handler;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use axum::routing::MethodRouter;
use leptos::prelude::{AnyView, IntoAny};
use leptos::view;

use super::layout::AdminMenu;
use super::loaded::{PageView, insert};
use super::pages::{
    catalog::admin_downloads, catalog::admin_tags, catalog::customer, contacts::admin_contacts,
    contacts::contact_editor, contacts::contact_start, contacts::double_opt_in,
    contacts::unsubscribe, insight::admin_audit, insight::admin_statistics, marketing::providers,
};
use crate::domain::user::{CurrentUser, User};
use crate::services::catalog::packages::PackageListQuery;
use crate::state::AppState;

/// The Leptos SSR handler: renders the app for a request.
pub type Render =
    Arc<dyn Fn(Request) -> Pin<Box<dyn Future<Output = Response> + Send>> + Send + Sync>;

fn user_of(request: &Request) -> Option<User> {
    request
        .extensions()
        .get::<CurrentUser>()
        .and_then(|current| current.0.clone())
}

/// A `GET` that loads with `handler` and then renders `view`.
fn page<H, T>(handler: H, view: fn() -> AnyView) -> MethodRouter<AppState>
where
    H: Handler<T, AppState>,
    T: 'static,
{
    get(handler).layer(Extension(PageView(view)))
}

/// The pages that show data from the database: the one place their paths are declared, each
/// with its loader and its component. Every other page is routed by the app itself and
/// renders without loading anything.
pub fn router(render: Render) -> Router<AppState> {
    Router::new()
        .route(
            "/user/downloads",
            page(customer_downloads, || {
                view! { <customer::Downloads/> }.into_any()
            }),
        )
        .route(
            "/user/verify-double-opt-in/{token}",
            page(double_opt_in_link, || {
                view! { <double_opt_in::VerifyDoubleOptIn/> }.into_any()
            }),
        )
        .route(
            "/abmelden/{token}",
            page(unsubscribe_link, || {
                view! { <unsubscribe::Unsubscribe/> }.into_any()
            }),
        )
        .route(
            "/admin/contacts",
            page(admin_contacts, || {
                view! { <admin_contacts::Contacts/> }.into_any()
            }),
        )
        .route(
            crate::domain::access::CONTACT_START_PATH,
            page(contact_start, || {
                view! { <contact_start::ContactStart/> }.into_any()
            }),
        )
        .route(
            "/admin/contact/edit/{customer_number}",
            page(contact_edit, || {
                view! { <contact_editor::ContactEdit/> }.into_any()
            }),
        )
        .route(
            "/admin/provider/{id}",
            page(provider, || view! { <providers::Provider/> }.into_any()),
        )
        .route(
            "/admin/downloads",
            page(admin_downloads, || {
                view! { <admin_downloads::Downloads/> }.into_any()
            }),
        )
        .route(
            "/admin/download/add",
            page(download_add, || {
                view! { <admin_downloads::DownloadAdd/> }.into_any()
            }),
        )
        .route(
            "/admin/download/edit/{id}",
            page(download_edit, || {
                view! { <admin_downloads::DownloadEdit/> }.into_any()
            }),
        )
        .route(
            "/admin/statistics",
            page(statistics, || {
                view! { <admin_statistics::Statistics/> }.into_any()
            }),
        )
        .route(
            "/admin/audit",
            page(audit, || view! { <admin_audit::Audit/> }.into_any()),
        )
        .route(
            "/admin/tags",
            page(tags, || view! { <admin_tags::Tags/> }.into_any()),
        )
        .layer(Extension(render))
}

async fn statistics(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    if let Some(props) = admin_statistics::load(&state, user.as_ref()).await {
        insert(&mut request, props);
    }
    render(request).await
}

async fn tags(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    if let Some(props) = admin_tags::load(user.as_ref()) {
        insert(&mut request, props);
    }
    render(request).await
}

async fn audit(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    query: Result<Query<admin_audit::AuditPageQuery>, QueryRejection>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    let query = query.map(|Query(q)| q).unwrap_or_default();
    if let Some(screen) = admin_audit::load(&state, user.as_ref(), query).await {
        insert(&mut request, screen);
    }
    render(request).await
}

/// The double opt-in page: what the link stands for (looking changes nothing).
async fn double_opt_in_link(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    Path(token): Path<String>,
    mut request: Request,
) -> Response {
    let link_state = crate::services::contacts::double_opt_in::link_state(&state.db, &token)
        .await
        .unwrap_or_else(|err| {
            tracing::error!(error = %err, "double opt-in link not looked up");
            crate::services::contacts::double_opt_in::LinkState::Invalid
        });
    insert(
        &mut request,
        double_opt_in::LinkPage {
            state: link_state,
            token,
        },
    );
    render(request).await
}

async fn unsubscribe_link(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    Path(token): Path<String>,
    mut request: Request,
) -> Response {
    let link_state = crate::services::contacts::unsubscribe::link_state(&state.db, &token)
        .await
        .unwrap_or_else(|err| {
            tracing::error!(error = %err, "unsubscribe link not looked up");
            crate::services::contacts::unsubscribe::UnsubscribeState::Invalid
        });
    insert(
        &mut request,
        unsubscribe::UnsubscribePage {
            state: link_state,
            token,
        },
    );
    render(request).await
}

async fn admin_contacts(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    query: Result<Query<crate::services::contacts::ContactQuery>, QueryRejection>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    let query = query.map(|Query(q)| q).unwrap_or_default();
    if let Some(page) = admin_contacts::load(&state, user.as_ref(), query).await {
        insert(&mut request, page);
    }
    render(request).await
}

async fn customer_downloads(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    RawQuery(raw): RawQuery,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    // Read by hand: the filter form without JavaScript repeats `providerIds` and `tagsIds`.
    let (query, shown) = customer::list_url::parse_page_query(raw.as_deref());
    let open = customer::opened::open_request(raw.as_deref());
    if let Some(page) = customer::load_downloads(&state, user.as_ref(), query, shown).await {
        insert(&mut request, page);
    }
    if let Some(open) = open
        && let Some(opened) = customer::opened::load(&state, user.as_ref(), open).await
    {
        insert(&mut request, opened);
    }
    // Following a mail's link: this visit's downloads of the package count as the mail's.
    let cookie = open.filter(|open| open.from_mail).map(|open| {
        let https = request
            .extensions()
            .get::<crate::server::client::Client>()
            .is_some_and(|client| client.https);
        crate::auth::mail_visit::cookie_after_following(request.headers(), open.package, https)
    });
    let mut response = render(request).await;
    if let Some(cookie) = cookie.and_then(|c| axum::http::HeaderValue::from_str(&c).ok()) {
        response
            .headers_mut()
            .append(axum::http::header::SET_COOKIE, cookie);
    }
    response
}

/// The URL's list parameters; malformed ones count as none.
fn list_query(query: Result<Query<PackageListQuery>, QueryRejection>) -> PackageListQuery {
    query.map(|Query(q)| q).unwrap_or_default()
}

async fn admin_downloads(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    query: Result<Query<PackageListQuery>, QueryRejection>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    if let Some(page) =
        admin_downloads::load_downloads(&state, user.as_ref(), list_query(query)).await
    {
        insert(&mut request, page);
    }
    render(request).await
}

async fn contact_edit(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    Path(customer_number): Path<String>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    if let Some(props) =
        contact_editor::load_contact_editor(&state, user.as_ref(), &customer_number).await
    {
        insert(&mut request, props);
    }
    render(request).await
}

/// The contact editor's start page; a known customer number typed in goes to its editor.
async fn contact_start(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    query: Result<Query<contact_start::StartQuery>, QueryRejection>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    let query = query.map(|Query(q)| q).unwrap_or_default();
    match contact_start::load(&state, user.as_ref(), query).await {
        Some(contact_start::StartAnswer::Editor(path)) => {
            return (
                [(
                    axum::http::header::CACHE_CONTROL,
                    axum::http::HeaderValue::from_static("no-store"),
                )],
                axum::response::Redirect::to(&path),
            )
                .into_response();
        }
        Some(contact_start::StartAnswer::Page(page)) => insert(&mut request, page),
        None => {}
    }
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    render(request).await
}

async fn download_add(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    if let Some(page) = admin_downloads::load_download_form(&state, user.as_ref(), None).await {
        insert(&mut request, page);
    }
    render(request).await
}

async fn download_edit(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    id: Option<Path<String>>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    let id = id.map(|Path(id)| id).unwrap_or_default();
    if let Some(page) = admin_downloads::load_download_form(&state, user.as_ref(), Some(&id)).await
    {
        insert(&mut request, page);
    }
    render(request).await
}

async fn provider(
    State(state): State<AppState>,
    Extension(render): Extension<Render>,
    id: Option<Path<String>>,
    mut request: Request,
) -> Response {
    let user = user_of(&request);
    insert(&mut request, AdminMenu::load(&state, user.as_ref()).await);
    let id = id.map(|Path(id)| id).unwrap_or_default();
    let page: providers::ProviderScreen =
        providers::load_provider(&state, user.as_ref(), &id).await;
    insert(&mut request, page);
    render(request).await
}
