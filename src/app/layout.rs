//! Header, footer and the admin menu around every page (spec §2 "Layout").

use chrono::{Datelike, Utc};
use leptos::prelude::*;
use serde::Serialize;

use super::island::{Island, props_json};
use super::loaded::loaded;
use super::{current_user, page_env};
use crate::domain::access::AREAS;
use crate::domain::branding::logo_for;
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::integrations::content_site::MenuItem;
use crate::state::AppState;

pub const LOGIN_URL: &str = "/api/auth/login";
pub const LOGOUT_URL: &str = "/api/auth/logout";

/// The page frame: header, the page's own content, footer.
#[component]
pub fn Layout(children: Children) -> impl IntoView {
    view! {
        <Header/>
        <main class="ap-main container py-4">{children()}</main>
        <Footer/>
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AdminMenuProps<'a> {
    providers: &'a [ProviderLink],
    is_admin: bool,
    current_path: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ProviderLink {
    id: i64,
    name: String,
}

/// The admin menu's data: the providers the user may see (spec §2 "Layout"), loaded before
/// the page renders (see `data`).
#[derive(Clone, Debug, Default)]
pub struct AdminMenu {
    providers: Vec<ProviderLink>,
}

impl AdminMenu {
    pub async fn load(state: &AppState, user: Option<&User>) -> AdminMenu {
        // Only the admin area has a menu: every entry leads into it, so a contact editor
        // without it (BU-DOI) would meet /unauthorized behind each one.
        let Some(user) = user.filter(|u| Capability::AdminArea.allows(u)) else {
            return AdminMenu::default();
        };
        let providers =
            crate::services::marketing::providers::visible_kept(&state.db, &state.answers, user)
                .await
                .unwrap_or_else(|err| {
                    tracing::error!(error = %err, "providers for the admin menu");
                    Default::default()
                });
        AdminMenu {
            providers: providers
                .iter()
                .map(|p| ProviderLink {
                    id: p.id,
                    name: p.name.clone(),
                })
                .collect(),
        }
    }
}

/// What a page shows when its data could not be loaded (logged where it failed): a 500.
/// A page whose list took longer than `AP_LIST_TIME_LIMIT_MS`: 503 with the API's words.
pub fn list_too_slow() -> AnyView {
    crate::app::set_status(axum::http::StatusCode::SERVICE_UNAVAILABLE);
    view! { <div class="alert alert-warning" role="alert">{crate::domain::outage::LIST_TOO_SLOW}</div> }
        .into_any()
}

pub fn unexpected_error() -> AnyView {
    crate::app::set_status(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
    view! { <div class="alert alert-danger">"Ein unerwarteter Fehler ist aufgetreten!"</div> }
        .into_any()
}

/// Frame of the admin pages: the admin menu (with the providers the user may see) above the
/// page content.
#[component]
pub fn AdminLayout(title: &'static str, children: Children) -> impl IntoView {
    let user = current_user();
    let is_admin = user
        .as_ref()
        .is_some_and(|u| Capability::AdminOnly.allows(u));
    // BU-DOI alone reaches only the contact editor; the menu's entries are all admin area.
    let admin_area = user
        .as_ref()
        .is_some_and(|u| Capability::AdminArea.allows(u));
    let current_path = use_context::<axum::http::request::Parts>()
        .map(|parts| parts.uri.path().to_string())
        .unwrap_or_default();
    let menu = loaded::<AdminMenu>().unwrap_or_default();
    let fallback_links = menu
        .providers
        .iter()
        .map(|p| view! { <a class="nav-link" href=format!("/admin/provider/{}", p.id)>{p.name.clone()}</a> })
        .collect_view();
    let props = props_json(&AdminMenuProps {
        providers: &menu.providers,
        is_admin,
        current_path,
    });
    view! {
        <Layout>
            {admin_area.then(|| view! {
                <Island name="AdminMenu" props=props class="mb-4">
                    <nav class="ap-admin-menu nav nav-pills" aria-label="Adminmenü">
                        <a class="nav-link" href="/admin/contacts"><i class="bi bi-people"></i>" Händler"</a>
                        {fallback_links}
                        {is_admin.then(|| view! { <span class="nav-link">"Neuer Anbieter"</span> })}
                        <a class="nav-link" href="/admin/downloads"><i class="bi bi-download"></i>" Downloads"</a>
                        <a class="nav-link" href="/admin/statistics"><i class="bi bi-bar-chart"></i>" Statistik"</a>
                        {is_admin.then(|| view! { <a class="nav-link" href="/admin/tags"><i class="bi bi-tags"></i>" Tags"</a> })}
                        {is_admin.then(|| view! { <a class="nav-link" href="/admin/audit"><i class="bi bi-journal-text"></i>" Protokoll"</a> })}
                    </nav>
                </Island>
            })}
            <h1 class="h3 mb-3">{title}</h1>
            {children()}
        </Layout>
    }
}

/// A link of the account menu to an area of the portal.
#[derive(Clone, Debug, Serialize)]
struct AreaLink {
    label: &'static str,
    href: &'static str,
    icon: &'static str,
}

/// The account menu's links: every area the user may work in (BU-DOI: "Kontakte
/// bearbeiten"), and both views for the roles spec §2 shows them to (Developer, Admin,
/// BU-Moderator).
fn area_links(user: &User) -> Vec<AreaLink> {
    let view_links = Capability::ViewLinks.allows(user);
    AREAS
        .iter()
        .filter(|area| {
            area.capability.allows(user)
                || (view_links && area.capability != Capability::ContactEdit)
        })
        .map(|area| AreaLink {
            label: area.label,
            href: area.path,
            icon: area.icon,
        })
        .collect()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AccountMenuProps<'a> {
    user: Option<&'a User>,
    links: &'a [AreaLink],
    login_url: &'static str,
    logout_url: &'static str,
}

#[component]
fn Header() -> impl IntoView {
    let env = page_env();
    let logo = logo_for(Utc::now());
    let menu = env.menus().header_menu().unwrap_or_default();
    let user = current_user();
    let links = user.as_ref().map(area_links).unwrap_or_default();
    let props = props_json(&AccountMenuProps {
        user: user.as_ref(),
        links: &links,
        login_url: LOGIN_URL,
        logout_url: LOGOUT_URL,
    });
    let customer_center = env.config().customer_center_url.clone();
    view! {
        <header class="ap-header border-bottom bg-white">
            <div class="container d-flex flex-wrap align-items-center gap-3 py-2">
                <a class="ap-logo me-3" href="/">
                    <img src=logo alt="Aktionsportal" width=crate::domain::branding::logo_width(logo)
                        height="48"/>
                </a>
                <nav class="ap-site-menu flex-grow-1" aria-label="Hauptmenü">
                    {menu_list(menu)}
                </nav>
                <a class="btn btn-outline-primary btn-sm" href=customer_center>
                    <i class="bi bi-shop"></i>" Kundencenter"
                </a>
                <Island name="AccountMenu" props=props class="ap-account">
                    <AccountFallback user=user links=links/>
                </Island>
            </div>
        </header>
    }
    .into_any()
}

/// The my-account dropdown without JavaScript: a `<details>` whose toggle has the size of the
/// `AccountMenu` island's button (nothing moves when the island takes over), holding the
/// profile, the links to the user's areas and the logout link, or the login link.
#[component]
fn AccountFallback(user: Option<User>, links: Vec<AreaLink>) -> impl IntoView {
    let panel = match user {
        Some(user) => {
            let links = (!links.is_empty()).then(|| {
                let items = links
                    .into_iter()
                    .map(|link| {
                        view! {
                            <a class="dropdown-item rounded" href=link.href>
                                <i class=format!("bi {} me-2", link.icon) aria-hidden="true"></i>{link.label}
                            </a>
                        }
                    })
                    .collect_view();
                view! { <hr class="dropdown-divider"/>{items} }
            });
            view! {
                <p class="fw-semibold mb-1">{user.name}</p>
                {user
                    .customer_number
                    .map(|n| view! { <p class="mb-1 small">{format!("Kundennummer: {n}")}</p> })}
                <p class="mb-2 small text-body-secondary text-break">{user.email}</p>
                {links}
                <hr class="dropdown-divider"/>
                <a class="dropdown-item rounded" href=LOGOUT_URL>
                    <i class="bi bi-box-arrow-right me-2" aria-hidden="true"></i>"Abmelden"
                </a>
            }
            .into_any()
        }
        None => view! {
            <p class="mb-2">"Sie sind nicht angemeldet."</p>
            <a class="btn btn-primary w-100" href=LOGIN_URL>
                <i class="bi bi-box-arrow-in-right me-1" aria-hidden="true"></i>"Anmelden"
            </a>
        }
        .into_any(),
    };
    view! {
        <details class="dropdown ap-account-menu ap-account-fallback">
            <summary class="btn btn-outline-secondary dropdown-toggle">
                <i class="bi bi-person-circle me-1" aria-hidden="true"></i>"Mein Konto"
            </summary>
            <div class="dropdown-menu dropdown-menu-end show p-3 ap-account-panel" data-bs-popper="static">
                {panel}
            </div>
        </details>
    }
}

/// A nested `<ul>` of content-site menu items; submenus open on hover and focus (CSS only).
fn menu_list(items: Vec<MenuItem>) -> AnyView {
    if items.is_empty() {
        return ().into_any();
    }
    view! {
        <ul class="ap-menu">
            {items
                .into_iter()
                .map(|item| {
                    let has_children = !item.children.is_empty();
                    view! {
                        <li class:ap-has-children=has_children>
                            <a href=item.url>{item.title}</a>
                            {menu_list(item.children)}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
    .into_any()
}

#[component]
fn Footer() -> impl IntoView {
    let env = page_env();
    let config = env.config();
    let socials: Vec<_> = [
        ("Facebook", "bi-facebook", &config.social_facebook_url),
        ("Instagram", "bi-instagram", &config.social_instagram_url),
        ("YouTube", "bi-youtube", &config.social_youtube_url),
        ("LinkedIn", "bi-linkedin", &config.social_linkedin_url),
    ]
    .into_iter()
    .filter_map(|(name, icon, url)| url.clone().map(|url| (name, icon, url)))
    .collect();
    // Without configured links the column is left out rather than shown empty.
    let socials = (!socials.is_empty()).then(|| {
        let links = socials
            .into_iter()
            .map(|(name, icon, url)| {
                view! {
                    <a class="ap-social me-3" href=url title=name aria-label=name rel="noopener">
                        <i class=format!("bi {icon}")></i>
                    </a>
                }
            })
            .collect_view();
        view! {
            <div class="col-sm-6 col-lg-3">
                <h2 class="h6">"Folgen Sie uns"</h2>
                <div class="ap-socials fs-4">{links}</div>
            </div>
        }
        .into_any()
    });
    let footer_menu = env
        .menus()
        .footer_menu()
        .unwrap_or_default()
        .into_iter()
        .map(|item| view! { <li class="list-inline-item"><a href=item.url>{item.title}</a></li> })
        .collect_view();
    let customer_center = config.customer_center_url.clone();
    let partner_signup = config.partner_signup_url.clone();
    let year = Utc::now().year();
    let product = config.product_name.clone();
    view! {
        <footer class="ap-footer mt-5">
            <div class="container py-4">
                <div class="row g-4">
                    {socials}
                    <div class="col-sm-6 col-lg-3">
                        <h2 class="h6">"Service"</h2>
                        <ul class="list-unstyled">
                            <li><a href=customer_center>"Kundencenter"</a></li>
                            <li><a href=partner_signup>"Partner werden"</a></li>
                        </ul>
                    </div>
                    <div class="col-sm-6 col-lg-3">
                        <h2 class="h6">"Aktionsportal"</h2>
                        <ul class="list-unstyled">
                            <li><a href="/user/downloads">"Downloads"</a></li>
                            <li><a href="/login">"Anmelden"</a></li>
                        </ul>
                    </div>
                    <div class="col-sm-6 col-lg-3">
                        <h2 class="h6">"Hilfe"</h2>
                        <ul class="list-unstyled">
                            <li><a href="/unauthorized">"Zugang beantragen"</a></li>
                        </ul>
                    </div>
                </div>
                <ul class="ap-footer-menu list-inline mt-3 mb-0 small">{footer_menu}</ul>
                <p class="small mt-2 mb-0">{format!("© {year} {product} Aktionsportal")}</p>
            </div>
        </footer>
    }
    .into_any()
}
