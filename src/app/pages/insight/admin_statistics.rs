//! The statistics screen (`/admin/statistics`, issue 24): the island `AdminStatistics` with
//! the providers the user may choose and today's German date; it loads the figures itself.

use leptos::prelude::*;
use serde::Serialize;

use crate::app::admit;
use crate::app::island::{Island, props_json};
use crate::app::layout::{AdminLayout, unexpected_error};
use crate::app::loaded::loaded;
use crate::domain::access::PageAccess;
use crate::domain::permissions::Capability;
use crate::domain::time::berlin_date;
use crate::domain::user::User;
use crate::services;
use crate::state::AppState;

/// A provider to choose.
#[derive(Clone, Debug, Serialize)]
pub struct ProviderChoice {
    id: i64,
    name: String,
}

/// What the island starts with.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminStatisticsProps {
    /// Admins also see who took a package.
    is_admin: bool,
    /// The providers the user manages (all for the admin).
    providers: Vec<ProviderChoice>,
    /// Today in Germany, `YYYY-MM-DD`: the default range ends here.
    today: String,
}

/// Loads the props; `None` without the right or when loading failed (logged).
pub async fn load(state: &AppState, user: Option<&User>) -> Option<AdminStatisticsProps> {
    let user = user.filter(|u| Capability::AdminArea.allows(u))?;
    match services::catalog::packages::providers_to_manage(&state.db, user).await {
        Ok(providers) => Some(AdminStatisticsProps {
            is_admin: Capability::AdminOnly.allows(user),
            providers: providers
                .into_iter()
                .map(|p| ProviderChoice {
                    id: p.id,
                    name: p.name,
                })
                .collect(),
            today: berlin_date(chrono::Utc::now())
                .format("%Y-%m-%d")
                .to_string(),
        }),
        Err(err) => {
            tracing::error!(error = %err, "statistics page");
            None
        }
    }
}

#[component]
pub fn Statistics() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::AdminArea)) {
        return ().into_any();
    }
    let content = match loaded::<AdminStatisticsProps>() {
        Some(props) => view! {
            <Island name="AdminStatistics" props=props_json(&*props)>
                <p>"Dieser Bereich benötigt JavaScript."</p>
            </Island>
        }
        .into_any(),
        None => unexpected_error(),
    };
    view! { <AdminLayout title="Statistik">{content}</AdminLayout> }.into_any()
}
