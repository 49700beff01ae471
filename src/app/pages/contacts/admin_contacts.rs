//! The admin contacts screen (`/admin/contacts`, spec §2): the island `AdminContacts` with
//! the first page for the URL's parameters in its props.

use leptos::prelude::*;
use serde::Serialize;

use crate::app::admit;
use crate::app::island::{Island, props_json};
use crate::app::layout::{AdminLayout, list_too_slow, unexpected_error};
use crate::app::loaded::loaded;
use crate::domain::access::PageAccess;
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::services::contacts::double_opt_in::{self, JobView};
use crate::services::contacts::{self, ContactQuery};
use crate::services::error::ServiceError;
use crate::state::AppState;

/// The list the table is limited to (`?liste=`), for the heading.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListFilterInfo {
    pub id: i64,
    pub name: String,
    pub provider_id: i64,
    pub provider_name: String,
}

/// What the island starts with.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminContactsProps {
    /// The first page for `query`: the kept answer of `GET /api/contacts` for it, as is.
    page: Box<serde_json::value::RawValue>,
    query: ContactQuery,
    list: Option<ListFilterInfo>,
    /// Sync manager and the admin-only entries of the More menu.
    is_admin: bool,
    /// Block, unblock and delete (Admin, BU-Moderator).
    may_edit_details: bool,
    /// Whether the double opt-in mail to all pending contacts is available here.
    production: bool,
    /// Contacts still to confirm: those a mail can go to, and all.
    pending_count: i64,
    pending_total: i64,
    /// The newest mass mail.
    job: Option<JobView>,
    /// Changes that still have to reach Brevo.
    marketing_retries: i64,
    /// `brevo` or `local`.
    marketing: &'static str,
}

pub enum AdminContactsPage {
    Loaded(Box<AdminContactsProps>),
    /// The list took longer than `AP_LIST_TIME_LIMIT_MS`.
    TooSlow,
    Failed,
}

/// Loads the first page for the URL's parameters (the defaults when they are malformed).
pub async fn load(
    state: &AppState,
    user: Option<&User>,
    query: ContactQuery,
) -> Option<AdminContactsPage> {
    let user = user.filter(|u| Capability::AdminArea.allows(u))?;
    let now = crate::domain::time::now();
    let (query, params) = match query.params(now) {
        Ok(params) => (query, params),
        Err(_) => (
            ContactQuery::default(),
            ContactQuery::default().params(now).ok()?,
        ),
    };
    let loaded = async {
        let stamp = state.answers.stamp(&state.db).await?;
        // The URL's search and filters are any list's: bounded like the API's.
        let answer = state
            .within_list_time(contacts::page_answer_at(
                &state.db,
                &state.answers,
                stamp,
                &params,
            ))
            .await?;
        let page = answer.raw_json()?;
        let list = match params.filter.list_id {
            Some(id) => contacts::list_info(&state.db, id)
                .await?
                .map(|info| ListFilterInfo {
                    id: info.0,
                    name: info.1,
                    provider_id: info.2,
                    provider_name: info.3,
                }),
            None => None,
        };
        let (pending_count, pending_total) =
            contacts::pending_counts(&state.db, &state.answers, stamp).await?;
        let job = double_opt_in::latest_job(&state.db).await?;
        let marketing_retries =
            crate::services::marketing::contact_mirror::open_retry_count(&state.db).await?;
        Ok::<_, ServiceError>(AdminContactsProps {
            page,
            query,
            list,
            is_admin: Capability::AdminOnly.allows(user),
            may_edit_details: Capability::ContactDetails.allows(user),
            production: state.config.production,
            pending_count,
            pending_total,
            job,
            marketing_retries,
            marketing: match state.marketing {
                crate::services::marketing::Marketing::Brevo(_) => "brevo",
                crate::services::marketing::Marketing::Local => "local",
            },
        })
    };
    Some(match loaded.await {
        Ok(props) => AdminContactsPage::Loaded(Box::new(props)),
        Err(ServiceError::TooSlow) => AdminContactsPage::TooSlow,
        Err(err) => {
            tracing::error!(error = %err, "admin contacts page");
            AdminContactsPage::Failed
        }
    })
}

#[component]
pub fn Contacts() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::AdminArea)) {
        return ().into_any();
    }
    let content = match loaded::<AdminContactsPage>().as_deref() {
        Some(AdminContactsPage::Loaded(props)) => view! {
            <Island name="AdminContacts" props=props_json(props)>
                <p>"Dieser Bereich benötigt JavaScript."</p>
            </Island>
        }
        .into_any(),
        Some(AdminContactsPage::TooSlow) => list_too_slow(),
        Some(AdminContactsPage::Failed) | None => unexpected_error(),
    };
    view! { <AdminLayout title="Händler">{content}</AdminLayout> }.into_any()
}
