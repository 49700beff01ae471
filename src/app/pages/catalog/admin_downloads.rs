//! The admin downloads (spec §2): the list (`/admin/downloads`, island `AdminDownloads`) and
//! the download form (`/admin/download/add`, `/admin/download/edit/{id}`, island
//! `DownloadForm`).

use std::sync::Arc;

use leptos::prelude::*;

use axum::http::StatusCode;

use crate::app::island::{Island, props_json};
use crate::app::layout::{AdminLayout, list_too_slow, unexpected_error};
use crate::app::loaded::loaded;
use crate::app::{admit, redirect_to, set_status};
use crate::domain::access::{PageAccess, UNAUTHORIZED_PATH};
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::services;
use crate::services::catalog::packages::{PackageListQuery, PackageView, ProviderRef};
use crate::services::error::ServiceError;
use crate::state::AppState;

/// What the admin downloads list starts with (island `AdminDownloads`).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminDownloadsProps {
    /// The first page for `query`: the kept answer of `GET /api/downloads/` for it, as is.
    page: Box<serde_json::value::RawValue>,
    query: PackageListQuery,
    /// The providers the user may see (the filter panel).
    providers: Arc<Vec<ProviderRef>>,
    is_admin: bool,
    product_name: String,
    browser_zip_limit_mb: u64,
}

/// The admin downloads list, loaded before it renders.
pub enum AdminDownloadsPage {
    Loaded(Box<AdminDownloadsProps>),
    /// The list took longer than `AP_LIST_TIME_LIMIT_MS`.
    TooSlow,
    Failed,
}

/// Loads the first page for the URL's parameters (the defaults when they are malformed).
pub async fn load_downloads(
    state: &AppState,
    user: Option<&User>,
    query: PackageListQuery,
) -> Option<AdminDownloadsPage> {
    let user = user.filter(|u| Capability::AdminArea.allows(u))?;
    let (query, params) = match query.params() {
        Ok(params) => (query, params),
        Err(_) => (
            PackageListQuery::default(),
            PackageListQuery::default().params().ok()?,
        ),
    };
    let loaded = async {
        let (db, answers) = (&state.db, &state.answers);
        let stamp = answers.stamp(db).await?;
        let answer =
            services::catalog::packages::admin_answer_at(db, answers, stamp, user, &params).await?;
        let page = answer.raw_json()?;
        let providers =
            services::catalog::packages::providers_to_manage_at(db, answers, stamp, user).await?;
        Ok::<_, ServiceError>(AdminDownloadsProps {
            page,
            query,
            providers,
            is_admin: Capability::AdminOnly.allows(user),
            product_name: state.config.product_name.clone(),
            browser_zip_limit_mb: state.config.browser_zip_limit_mb,
        })
    };
    // The URL's search and sort are any list's: bounded like the API's.
    Some(match state.within_list_time(loaded).await {
        Ok(props) => AdminDownloadsPage::Loaded(Box::new(props)),
        Err(ServiceError::TooSlow) => AdminDownloadsPage::TooSlow,
        Err(err) => {
            tracing::error!(error = %err, "admin downloads page");
            AdminDownloadsPage::Failed
        }
    })
}

#[component]
pub fn Downloads() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::AdminArea)) {
        return ().into_any();
    }
    let page = loaded::<AdminDownloadsPage>();
    let content = match page.as_deref() {
        Some(AdminDownloadsPage::Loaded(props)) => view! {
            <Island name="AdminDownloads" props=props_json(props)>
                <p>"Dieser Bereich benötigt JavaScript."</p>
            </Island>
        }
        .into_any(),
        Some(AdminDownloadsPage::TooSlow) => list_too_slow(),
        Some(AdminDownloadsPage::Failed) | None => unexpected_error(),
    };
    view! { <AdminLayout title="Downloads">{content}</AdminLayout> }.into_any()
}

/// The upload limits the form shows and checks (`/api/upload-requirements/`).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct UploadLimits {
    #[serde(rename = "limitSizeMB")]
    limit_size_mb: u64,
    allowed_ext_array: Vec<String>,
}

/// What the download form starts with (island `DownloadForm`).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadFormProps {
    /// `add` or `edit`.
    mode: &'static str,
    /// The package being edited.
    download: Option<PackageView>,
    /// The providers the user may choose (spec §6).
    providers: Vec<ProviderRef>,
    requirements: UploadLimits,
    tags: Vec<crate::services::catalog::packages::Tag>,
    is_admin: bool,
    /// What the section "Ankündigung per E-Mail" of a new package starts with.
    announcement: crate::services::catalog::announcements::AnnouncementStart,
}

/// The download form, loaded before it renders.
pub enum DownloadFormPage {
    Loaded(Box<DownloadFormProps>),
    Missing,
    Forbidden,
    Failed,
}

/// Loads the form: empty for `id` `None`, else the package (which the user must be allowed
/// to change).
pub async fn load_download_form(
    state: &AppState,
    user: Option<&User>,
    id: Option<&str>,
) -> Option<DownloadFormPage> {
    let user = user.filter(|u| Capability::AdminArea.allows(u))?;
    let loaded = async {
        let download = match id {
            None => None,
            Some(id) => {
                let id = id.parse::<i64>().map_err(|_| ServiceError::NotFound)?;
                Some(services::catalog::packages::for_edit(&state.db, user, id).await?)
            }
        };
        Ok::<_, ServiceError>(DownloadFormProps {
            mode: if download.is_some() { "edit" } else { "add" },
            download,
            providers: services::catalog::packages::providers_to_manage(&state.db, user).await?,
            requirements: UploadLimits {
                limit_size_mb: state.uploads.limit_size_mb,
                allowed_ext_array: state.uploads.allowed_ext.clone(),
            },
            tags: services::catalog::packages::tags(&state.db).await?,
            is_admin: Capability::AdminOnly.allows(user),
            announcement: services::catalog::announcements::new_package_start(),
        })
    };
    Some(match loaded.await {
        Ok(props) => DownloadFormPage::Loaded(Box::new(props)),
        Err(ServiceError::NotFound) => DownloadFormPage::Missing,
        Err(ServiceError::Forbidden) => DownloadFormPage::Forbidden,
        Err(err) => {
            tracing::error!(error = %err, "download form");
            DownloadFormPage::Failed
        }
    })
}

fn download_form(title: &'static str) -> AnyView {
    if !admit(PageAccess::Requires(Capability::AdminArea)) {
        return ().into_any();
    }
    let page = loaded::<DownloadFormPage>();
    let content = match page.as_deref() {
        Some(DownloadFormPage::Loaded(props)) => view! {
            <Island name="DownloadForm" props=props_json(props)>
                <p>"Dieser Bereich benötigt JavaScript."</p>
            </Island>
        }
        .into_any(),
        Some(DownloadFormPage::Missing) => {
            set_status(StatusCode::NOT_FOUND);
            view! {
                <div class="alert alert-warning" data-testid="download-missing">"Download existiert nicht!"</div>
                <a href="/admin/downloads">"Zurück zu den Downloads"</a>
            }
            .into_any()
        }
        Some(DownloadFormPage::Forbidden) => {
            redirect_to(UNAUTHORIZED_PATH);
            return ().into_any();
        }
        Some(DownloadFormPage::Failed) | None => unexpected_error(),
    };
    view! { <AdminLayout title=title>{content}</AdminLayout> }.into_any()
}

#[component]
pub fn DownloadAdd() -> impl IntoView {
    download_form("Download anlegen")
}

#[component]
pub fn DownloadEdit() -> impl IntoView {
    download_form("Download bearbeiten")
}
