//! The customer view (spec §2 "Customer downloads page", "Double opt-in page").

pub mod list_url;
mod markup;
pub mod opened;

use list_url::ListState;

use leptos::prelude::*;
use leptos::tachys::html::InertElement;

use crate::app::admit;
use crate::app::island::{Island, props_json};
use crate::app::layout::{Layout, list_too_slow, unexpected_error};
use crate::app::loaded::loaded;
use crate::domain::access::PageAccess;
use crate::domain::paging::PAGE_SIZE;
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::services;
use crate::services::catalog::packages::Tag;
use crate::services::catalog::packages::{
    CustomerView, PackageListQuery, PackagePage, ProviderRef,
};
use crate::services::error::ServiceError;
use crate::state::AppState;

/// Most rows the page shows without JavaScript ("Weitere laden" adds 20, spec §9).
const MAX_ROWS: i64 = 1000;

/// What the customer's downloads table starts with (island `CustomerDownloads`, issue 10).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomerDownloadsProps {
    /// The first page for `query`.
    pub page: PackagePage,
    /// The URL's search, filters and sort.
    pub query: PackageListQuery,
    /// For the tag filter.
    pub tags: Vec<Tag>,
    /// The providers whose packages the user sees (the provider filter).
    pub providers: Vec<ProviderRef>,
    pub product_name: String,
    /// Selections up to this size are zipped in the browser, larger ones by the server.
    pub browser_zip_limit_mb: u64,
}

/// The customer's packages for the page, loaded before it renders: the island's HTML.
pub enum CustomerDownloads {
    Loaded(String),
    /// The list took longer than `AP_LIST_TIME_LIMIT_MS`.
    TooSlow,
    Failed,
}

/// Loads the first page for the URL's search, filters and sort (the defaults when they are
/// malformed); `?anzahl=` shows more rows without JavaScript (see `list_url::parse_page_query`).
/// Nothing for users the guard refuses.
///
/// The island (props and the rows' HTML, about 260 KB for 20 packages) is rendered once per
/// viewer, URL and data version and kept (`services::operations::answers`): a page load is then a few
/// small queries and a copy.
pub async fn load_downloads(
    state: &AppState,
    user: Option<&User>,
    mut query: PackageListQuery,
    shown: Option<i64>,
) -> Option<CustomerDownloads> {
    let user = user.filter(|u| Capability::CustomerDownloads.allows(u))?;
    query.limit = Some(shown.unwrap_or(PAGE_SIZE).clamp(PAGE_SIZE, MAX_ROWS));
    query.offset = None;
    let params = match query.params() {
        Ok(params) => params,
        Err(_) => {
            query = PackageListQuery::default();
            query.params().ok()?
        }
    };
    let loaded = async {
        // Opening the page is a visit (what is new is counted from the visit before it).
        let view = CustomerView::of(&state.db, &state.answers, user, true).await?;
        let key = view.key("customer-page", &query);
        let (db, answers) = (&state.db, &state.answers);
        // The URL's search and filters are any list's: bounded like the API's (the visit
        // above is recorded either way).
        let island = state
            .within_list_time(answers.bytes(key, async {
                // Three independent reads, each its own connection.
                let params =
                    services::catalog::packages::customer_params(db, answers, &view, user, &params)
                        .await?;
                let (page, tags, providers) = tokio::try_join!(
                    services::catalog::packages::customer_page(db, answers, &view, user, &params),
                    services::catalog::packages::tags_at(db, answers, view.stamp),
                    services::catalog::packages::providers_in_view(db, answers, &view, user),
                )?;
                let props = CustomerDownloadsProps {
                    page,
                    tags: tags.to_vec(),
                    providers: providers.to_vec(),
                    query: query.clone(),
                    product_name: state.config.product_name.clone(),
                    browser_zip_limit_mb: state.config.browser_zip_limit_mb,
                };
                Ok(render_island(&props).into_bytes())
            }))
            .await?;
        Ok::<_, ServiceError>(String::from_utf8_lossy(&island.body).into_owned())
    };
    Some(match loaded.await {
        Ok(island) => CustomerDownloads::Loaded(island),
        Err(ServiceError::TooSlow) => CustomerDownloads::TooSlow,
        Err(err) => {
            tracing::error!(error = %err, "customer downloads page");
            CustomerDownloads::Failed
        }
    })
}

/// The `CustomerDownloads` island with the toolbar, filters and first rows as HTML, readable
/// and usable without JavaScript; the island takes over with the same markup and the same data
/// in its props.
fn render_island(props: &CustomerDownloadsProps) -> String {
    let state = ListState::of(&props.query);
    let list = if props.page.content.is_empty() && props.page.count == 0 {
        if state.is_default() {
            markup::no_packages()
        } else {
            markup::no_matches(&state)
        }
    } else {
        markup::table(&props.page.content, props.page.count, &state, &props.tags)
    };
    let toolbar = markup::toolbar(&state, &props.tags, &props.providers);
    let chip = markup::new_since_visit_chip(&state, props.page.new_since_visit.as_ref());
    Owner::new().with(|| {
        view! {
            <Island name="CustomerDownloads" props=props_json(props)>
                <div class="ap-customer-downloads">{toolbar}{chip}{list}</div>
            </Island>
        }
        .to_html()
    })
}

/// The customer's packages (spec §2 "Customer downloads page"): the toolbar, filters and
/// first rows as HTML, readable and usable without JavaScript; the `CustomerDownloads` island
/// takes over with the same markup and the same data in its props.
#[component]
pub fn Downloads() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::CustomerDownloads)) {
        return ().into_any();
    }
    let loaded = loaded::<CustomerDownloads>();
    let content = match loaded.as_deref() {
        Some(CustomerDownloads::Loaded(island)) => InertElement::new(island.clone()).into_any(),
        Some(CustomerDownloads::TooSlow) => list_too_slow(),
        Some(CustomerDownloads::Failed) | None => unexpected_error(),
    };
    view! {
        <Layout>
            <h1 class="h3 mb-3">"Aktionsportal Netzvermarktung"</h1>
            <opened::Opened/>
            {content}
        </Layout>
    }
    .into_any()
}
