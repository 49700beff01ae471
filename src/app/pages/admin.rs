//! Admin screens (spec §2). Each renders its frame with the right title; the tables, forms
//! and modals are islands that later issues fill in.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::api::extract::PAGE_SIZE;
use crate::app::island::{Island, props_json};
use crate::app::layout::AdminLayout;
use crate::app::{admit, app_state, current_user};
use crate::db::lists::ListFilter;
use crate::domain::access::PageAccess;
use crate::domain::permissions::Capability;
use crate::services;
use crate::services::error::ServiceError;
use crate::services::lists::ListView;
use crate::services::providers::ProviderView;

/// An admin page frame: guard, admin menu, title and the island placeholder.
#[component]
fn AdminFrame(
    title: &'static str,
    access: PageAccess,
    #[prop(optional)] subtitle: Option<String>,
) -> impl IntoView {
    if !admit(access) {
        return ().into_any();
    }
    let props = props_json(&serde_json::json!({ "title": title }));
    view! {
        <AdminLayout title=title>
            {subtitle.map(|s| view! { <p class="text-secondary">{s}</p> })}
            <Island name="AdminPlaceholder" props=props>
                <p>"Dieser Bereich benötigt JavaScript."</p>
            </Island>
        </AdminLayout>
    }
    .into_any()
}

fn param(name: &'static str) -> String {
    use_params_map().with_untracked(|p| p.get(name).unwrap_or_default())
}

#[component]
pub fn Contacts() -> impl IntoView {
    view! { <AdminFrame title="Händler" access=PageAccess::Requires(Capability::AdminArea)/> }
}

#[component]
pub fn ContactEdit() -> impl IntoView {
    let subtitle = format!("Kundennummer: {}", param("customer_number"));
    view! { <AdminFrame title="Kontakte bearbeiten" access=PageAccess::Requires(Capability::ContactEdit) subtitle=subtitle/> }
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ProviderCriteriaProps {
    provider: ProviderView,
    lists: ListsPage,
    is_admin: bool,
}

#[derive(serde::Serialize)]
struct ListsPage {
    content: Vec<ListView>,
    count: i64,
}

/// The criteria (lists) of one provider; the first page is embedded in the island's props.
#[component]
pub fn Provider() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::AdminArea)) {
        return ().into_any();
    }
    let state = app_state();
    let user = current_user();
    let id = param("id").parse::<i64>().ok();
    let response = use_context::<leptos_axum::ResponseOptions>();
    let content = Suspend::new(async move {
        let (Some(user), Some(id)) = (user, id) else {
            return missing_provider(response.as_ref());
        };
        let loaded = async {
            let provider = services::providers::managed(&state.db, &user, id).await?;
            let provider = services::providers::view(&state.db, provider).await?;
            let (content, count) =
                services::lists::page(&state.db, &user, id, &ListFilter::default(), PAGE_SIZE, 0)
                    .await?;
            Ok::<_, ServiceError>((provider, ListsPage { content, count }))
        };
        match loaded.await {
            Ok((provider, lists)) => {
                let props = props_json(&ProviderCriteriaProps {
                    provider: provider.clone(),
                    is_admin: Capability::AdminOnly.allows(&user),
                    lists,
                });
                view! {
                    <Island name="ProviderCriteria" props=props>
                        <h2 class="h4">{provider.name}</h2>
                        <p>"Dieser Bereich benötigt JavaScript."</p>
                    </Island>
                }
                .into_any()
            }
            Err(ServiceError::Forbidden) => {
                if let Some(response) = &response {
                    response.set_status(axum::http::StatusCode::FOUND);
                    response.insert_header(
                        axum::http::header::LOCATION,
                        axum::http::HeaderValue::from_static(
                            crate::domain::access::UNAUTHORIZED_PATH,
                        ),
                    );
                }
                ().into_any()
            }
            Err(ServiceError::NotFound) => missing_provider(response.as_ref()),
            Err(err) => {
                tracing::error!(error = %err, "provider page");
                if let Some(response) = &response {
                    response.set_status(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
                }
                view! { <div class="alert alert-danger">"Ein unerwarteter Fehler ist aufgetreten!"</div> }.into_any()
            }
        }
    });
    view! {
        <AdminLayout title="Kriterien">
            <Suspense fallback=|| ()>{content}</Suspense>
        </AdminLayout>
    }
    .into_any()
}

fn missing_provider(response: Option<&leptos_axum::ResponseOptions>) -> AnyView {
    if let Some(response) = response {
        response.set_status(axum::http::StatusCode::NOT_FOUND);
    }
    view! { <div class="alert alert-warning" data-testid="provider-missing">"Anbieter existiert nicht!"</div> }.into_any()
}

#[component]
pub fn Downloads() -> impl IntoView {
    view! { <AdminFrame title="Downloads" access=PageAccess::Requires(Capability::AdminArea)/> }
}

#[component]
pub fn DownloadAdd() -> impl IntoView {
    view! { <AdminFrame title="Download anlegen" access=PageAccess::Requires(Capability::AdminArea)/> }
}

#[component]
pub fn DownloadEdit() -> impl IntoView {
    let subtitle = format!("Download-ID: {}", param("id"));
    view! { <AdminFrame title="Download bearbeiten" access=PageAccess::Requires(Capability::AdminArea) subtitle=subtitle/> }
}
