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
use crate::services::marketing::lists::ListView;
use crate::services::marketing::providers::ProviderView;
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
pub enum ProviderScreen {
    Found(Box<ProviderCriteriaProps>),
    Missing,
    Forbidden,
    Failed,
}

/// Loads the provider and the first page of its lists (nothing for users the guard refuses).
pub async fn load_provider(state: &AppState, user: Option<&User>, id: &str) -> ProviderScreen {
    let Some(user) = user.filter(|u| Capability::AdminArea.allows(u)) else {
        return ProviderScreen::Forbidden;
    };
    let Ok(id) = id.parse::<i64>() else {
        return ProviderScreen::Missing;
    };
    let loaded = async {
        let provider = services::marketing::providers::managed(&state.db, user, id).await?;
        let provider = services::marketing::providers::view(&state.db, provider).await?;
        let (content, count) = services::marketing::lists::page(
            &state.db,
            user,
            id,
            &ListFilter::default(),
            PAGE_SIZE,
            0,
        )
        .await?;
        Ok::<_, ServiceError>(ProviderCriteriaProps {
            provider,
            lists: ListsPage { content, count },
            is_admin: Capability::AdminOnly.allows(user),
        })
    };
    match loaded.await {
        Ok(props) => ProviderScreen::Found(Box::new(props)),
        Err(ServiceError::Forbidden) => ProviderScreen::Forbidden,
        Err(ServiceError::NotFound) => ProviderScreen::Missing,
        Err(err) => {
            tracing::error!(error = %err, "provider page");
            ProviderScreen::Failed
        }
    }
}

/// The criteria (lists) of one provider; the first page is embedded in the island's props.
#[component]
pub fn Provider() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::AdminArea)) {
        return ().into_any();
    }
    let page = loaded::<ProviderScreen>();
    let content = match page.as_deref() {
        Some(ProviderScreen::Found(props)) => {
            let name = props.provider.name.clone();
            view! {
                <Island name="ProviderCriteria" props=props_json(props)>
                    <h2 class="h4">{name}</h2>
                    <p>"Dieser Bereich benötigt JavaScript."</p>
                </Island>
            }
            .into_any()
        }
        Some(ProviderScreen::Forbidden) => {
            redirect_to(UNAUTHORIZED_PATH);
            return ().into_any();
        }
        Some(ProviderScreen::Missing) | None => {
            set_status(StatusCode::NOT_FOUND);
            view! { <div class="alert alert-warning" data-testid="provider-missing">"Anbieter existiert nicht!"</div> }.into_any()
        }
        Some(ProviderScreen::Failed) => unexpected_error(),
    };
    view! { <AdminLayout title="Kriterien">{content}</AdminLayout> }.into_any()
}
