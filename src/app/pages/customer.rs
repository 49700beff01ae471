//! The customer view (spec §2 "Customer downloads page", "Double opt-in page").

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use axum::http::StatusCode;

use crate::app::data::loaded;
use crate::app::layout::Layout;
use crate::app::{admit, set_status};
use crate::db::tags::Tag;
use crate::domain::access::PageAccess;
use crate::domain::badges::Badge;
use crate::domain::format;
use crate::domain::paging::PAGE_SIZE;
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::services;
use crate::services::downloads::{DownloadPage, DownloadView, ListQuery, ProviderRef};
use crate::services::error::ServiceError;
use crate::startup::AppState;

/// Most rows the page shows without JavaScript ("Weitere laden" adds 20, spec §9).
const MAX_ROWS: i64 = 1000;

/// What the customer's downloads table starts with (island `CustomerDownloads`, issue 10).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomerDownloadsProps {
    /// The first page for `query`.
    pub page: DownloadPage,
    /// The URL's search, filters and sort.
    pub query: ListQuery,
    /// For the tag filter.
    pub tags: Vec<Tag>,
    /// The providers whose packages the user sees (the provider filter).
    pub providers: Vec<ProviderRef>,
    pub product_name: String,
    /// Selections up to this size are zipped in the browser, larger ones by the server.
    pub browser_zip_limit_mb: u64,
}

/// The customer's packages for the page, loaded before it renders.
pub enum CustomerDownloads {
    Loaded(Box<CustomerDownloadsProps>),
    Failed,
}

/// Loads the first page for the URL's search, filters and sort (the defaults when they are
/// malformed); `?anzahl=` shows more rows without JavaScript. Nothing for users the guard
/// refuses.
pub async fn load_downloads(
    state: &AppState,
    user: Option<&User>,
    mut query: ListQuery,
    shown: Option<i64>,
) -> Option<CustomerDownloads> {
    let user = user.filter(|u| Capability::CustomerDownloads.allows(u))?;
    query.limit = Some(shown.unwrap_or(PAGE_SIZE).clamp(PAGE_SIZE, MAX_ROWS));
    query.offset = None;
    let params = match query.params() {
        Ok(params) => params,
        Err(_) => {
            query = ListQuery::default();
            query.params().ok()?
        }
    };
    let loaded = async {
        Ok::<_, ServiceError>(CustomerDownloadsProps {
            page: services::downloads::customer_page(
                &state.db,
                &state.package_counts,
                user,
                &params,
            )
            .await?,
            tags: services::downloads::tags(&state.db).await?,
            providers: services::downloads::providers_in_view(&state.db, user).await?,
            query,
            product_name: state.config.product_name.clone(),
            browser_zip_limit_mb: state.config.browser_zip_limit_mb,
        })
    };
    Some(match loaded.await {
        Ok(props) => CustomerDownloads::Loaded(Box::new(props)),
        Err(err) => {
            tracing::error!(error = %err, "customer downloads page");
            CustomerDownloads::Failed
        }
    })
}

fn badge_view(badge: Option<Badge>) -> AnyView {
    let Some(badge) = badge else {
        return ().into_any();
    };
    let (class, label) = match badge {
        Badge::New => ("ap-badge ap-badge-new", "NEU"),
        Badge::Upcoming => ("ap-badge ap-badge-upcoming", "BEVORSTEHENDE"),
        Badge::EndingSoon => ("ap-badge ap-badge-ending-soon", "LÄUFT IN KÜRZE AB"),
        Badge::Finished => ("ap-badge ap-badge-finished", "BEENDET"),
        Badge::Archived => ("ap-badge ap-badge-archived", "ARCHIVIERT"),
    };
    view! { <span class=class>{label}</span> }.into_any()
}

fn package_row(package: &DownloadView) -> AnyView {
    let provider = match &package.provider.upload {
        Some(logo) => view! {
            <img class="ap-provider-logo" src=logo.path.clone() alt=package.provider.name.clone()/>
        }
        .into_any(),
        None => view! { <span>{package.provider.name.clone()}</span> }.into_any(),
    };
    let files = if package.uploads.is_empty() {
        view! {
            <span class="text-warning-emphasis">
                <i class="bi bi-exclamation-triangle" aria-hidden="true"></i>" Keine Dateien"
            </span>
        }
        .into_any()
    } else {
        let items = package
            .uploads
            .iter()
            .map(|file| {
                let label = format!("{} herunterladen", file.name);
                view! {
                    <li>
                        <a href=file.path.clone() download=file.name.clone() aria-label=label>
                            <i class="bi bi-download" aria-hidden="true"></i>" "{file.name.clone()}
                        </a>
                        " "<span class="text-secondary small">{format::file_size(file.size)}</span>
                        " "{badge_view(file.badge)}
                    </li>
                }
            })
            .collect_view();
        let zip = format!("/api/download/{}/zip", package.id);
        view! {
            <ul class="list-unstyled mb-1 ap-file-list">{items}</ul>
            <a class="small" href=zip>
                <i class="bi bi-file-earmark-zip" aria-hidden="true"></i>" Alle Dateien als ZIP"
            </a>
        }
        .into_any()
    };
    view! {
        <tr class:ap-row-archived=package.archived>
            <td>{provider}</td>
            <td>{package.name.clone()}" "{badge_view(package.badge)}</td>
            <td>{format::date_time(package.start_at)}</td>
            <td>{format::date_time(package.end_at)}</td>
            <td>{format::date_time(package.updated_at)}</td>
            <td>{files}</td>
        </tr>
    }
    .into_any()
}

/// The customer's packages (spec §2 "Customer downloads page"): readable and usable without
/// JavaScript; the downloads-table island of the customer page builds on it.
#[component]
pub fn Downloads() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::CustomerDownloads)) {
        return ().into_any();
    }
    let loaded = loaded::<CustomerDownloads>();
    let content = match loaded.as_deref() {
        Some(CustomerDownloads::Loaded(props)) if props.page.content.is_empty() => view! {
            <div class="alert alert-info" role="status">
                <h2 class="h5">"Noch keine Download-Pakete"</h2>
                <p class="mb-0">"Für Ihre Kundennummer sind derzeit keine Download-Pakete freigegeben. \
                    Sobald neues Werbematerial für Sie bereitsteht, finden Sie es hier. \
                    Bei Fragen hilft Ihnen Ihr Ansprechpartner gerne weiter."</p>
            </div>
        }
        .into_any(),
        Some(CustomerDownloads::Loaded(props)) => {
            let page = &props.page;
            let shown = props.query.limit.unwrap_or(PAGE_SIZE);
            let rows = page.content.iter().map(package_row).collect_view();
            let loaded_count = page.content.len();
            let more = (page.count > shown).then(|| {
                let next = format!("?anzahl={}", shown + PAGE_SIZE);
                view! { <a class="btn btn-outline-primary" href=next>"Weitere laden"</a> }
            });
            let end = (page.count <= shown).then(|| {
                view! { <p class="text-secondary mb-0">"Keine weiteren Downloads vorhanden."</p> }
            });
            view! {
                <div class="table-responsive">
                    <table class="table align-middle ap-downloads-table">
                        <caption class="visually-hidden">"Ihre Download-Pakete"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Anbieter"</th>
                                <th scope="col">"Bezeichnung"</th>
                                <th scope="col">"Gültig ab"</th>
                                <th scope="col">"Gültig bis"</th>
                                <th scope="col">"Geändert"</th>
                                <th scope="col">"Dateien"</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <div class="d-flex align-items-center gap-3">
                    <span data-testid="loaded-total">{format!("{loaded_count}/{}", page.count)}</span>
                    {more}
                    {end}
                </div>
            }
            .into_any()
        }
        Some(CustomerDownloads::Failed) | None => {
            set_status(StatusCode::INTERNAL_SERVER_ERROR);
            view! { <div class="alert alert-danger">"Ein unerwarteter Fehler ist aufgetreten!"</div> }
                .into_any()
        }
    };
    view! {
        <Layout>
            <h1 class="h3 mb-3">"Aktionsportal Netzvermarktung"</h1>
            {content}
        </Layout>
    }
    .into_any()
}

/// Double opt-in confirmation: no login needed. Filled by the double opt-in issue.
#[component]
pub fn VerifyDoubleOptIn() -> impl IntoView {
    let params = use_params_map();
    let has_contact =
        params.with_untracked(|p| p.get("contact_id").is_some_and(|id| !id.is_empty()));
    view! {
        <Layout>
            <section class="ap-card-page card mx-auto">
                <div class="card-body p-4 text-center">
                    <h1 class="h3">"E-Mail-Adresse bestätigen"</h1>
                    {if has_contact {
                        "Die Bestätigung Ihrer E-Mail-Adresse ist in Kürze hier möglich."
                    } else {
                        "Die E-Mail konnte nicht bestätigt werden oder gefunden werden!"
                    }}
                </div>
            </section>
        </Layout>
    }
}
