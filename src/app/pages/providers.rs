//! A provider's page (`/admin/provider/{id}`, spec §2 "Kriterien"): the island
//! `ProviderCriteria` with the provider and the first page of its lists.

use leptos::prelude::*;

use axum::http::StatusCode;

use crate::app::island::{Island, props_json};
use crate::app::layout::{AdminLayout, unexpected_error};
use crate::app::loaded::loaded;
use crate::app::{admit, redirect_to, set_status};
use crate::domain::access::{PageAccess, UNAUTHORIZED_PATH};
use crate::domain::lists::ListFilter;
use crate::domain::paging::PAGE_SIZE;
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::services;
use crate::services::error::ServiceError;
use crate::services::lists::ListView;
use crate::services::providers::ProviderView;
use crate::state::AppState;

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderCriteriaProps {
    provider: ProviderView,
    lists: ListsPage,
    is_admin: bool,
}

#[derive(serde::Serialize)]
struct ListsPage {
    content: Vec<ListView>,
    count: i64,
}

/// What the provider page shows, loaded before it renders.
pub enum ProviderPage {
    Found(Box<ProviderCriteriaProps>),
    Missing,
    Forbidden,
    Failed,
}

/// Loads the provider and the first page of its lists (nothing for users the guard refuses).
pub async fn load_provider(state: &AppState, user: Option<&User>, id: &str) -> ProviderPage {
    let Some(user) = user.filter(|u| Capability::AdminArea.allows(u)) else {
        return ProviderPage::Forbidden;
    };
    let Ok(id) = id.parse::<i64>() else {
        return ProviderPage::Missing;
    };
    let loaded = async {
        let provider = services::providers::managed(&state.db, user, id).await?;
        let provider = services::providers::view(&state.db, provider).await?;
        let (content, count) =
            services::lists::page(&state.db, user, id, &ListFilter::default(), PAGE_SIZE, 0)
                .await?;
        Ok::<_, ServiceError>(ProviderCriteriaProps {
            provider,
            lists: ListsPage { content, count },
            is_admin: Capability::AdminOnly.allows(user),
        })
    };
    match loaded.await {
        Ok(props) => ProviderPage::Found(Box::new(props)),
        Err(ServiceError::Forbidden) => ProviderPage::Forbidden,
        Err(ServiceError::NotFound) => ProviderPage::Missing,
        Err(err) => {
            tracing::error!(error = %err, "provider page");
            ProviderPage::Failed
        }
    }
}

/// The criteria (lists) of one provider; the first page is embedded in the island's props.
#[component]
pub fn Provider() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::AdminArea)) {
        return ().into_any();
    }
    let page = loaded::<ProviderPage>();
    let content = match page.as_deref() {
        Some(ProviderPage::Found(props)) => {
            let name = props.provider.name.clone();
            view! {
                <Island name="ProviderCriteria" props=props_json(props)>
                    <h2 class="h4">{name}</h2>
                    <p>"Dieser Bereich benötigt JavaScript."</p>
                </Island>
            }
            .into_any()
        }
        Some(ProviderPage::Forbidden) => {
            redirect_to(UNAUTHORIZED_PATH);
            return ().into_any();
        }
        Some(ProviderPage::Missing) | None => {
            set_status(StatusCode::NOT_FOUND);
            view! { <div class="alert alert-warning" data-testid="provider-missing">"Anbieter existiert nicht!"</div> }.into_any()
        }
        Some(ProviderPage::Failed) => unexpected_error(),
    };
    view! { <AdminLayout title="Kriterien">{content}</AdminLayout> }.into_any()
}
