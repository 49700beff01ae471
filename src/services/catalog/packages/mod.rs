//! Download packages (spec §2–§7 "Downloads and files"): the admin list, the customer's list,
//! one package, and the writes (create, edit, duplicate, archive, delete) with the rules of §5
//! and the rights of §6, decided here for every caller.
//!
//! Who sees what (one function, [`visibility`], answers the lists, the file URLs and the ZIP):
//! Admin sees every package; anybody else the packages of providers one of their roles is in
//! the `allowedRoles` of, and the packages offered to a list a contact with their customer
//! number is on. The admin list shows every package to the admin area (spec §2), but only
//! Admin and the provider's roles may change one.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::db::catalog::packages::{
    FileState, NewFile, Package, PackageChange, PackageQuery, Visible,
};
use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::badges::{Badge, file_badge, next_month_period, package_badge};
use crate::domain::files::{PreviewSize, preview_path};
use crate::domain::input::{IdInput, IdsInput, ids_in_text, ids_of};
use crate::domain::packages::{
    FileName, LISTS_REQUIRED, PROVIDER_REQUIRED, PackageName, SearchMethod, SortColumn, period,
};
use crate::domain::paging::{MAX_PAGE_SIZE, Paging};
use crate::domain::permissions::{Capability, may_manage_provider};
use crate::domain::time::{berlin_date, berlin_end_of_day, berlin_start_of_day};
use crate::domain::user::User;
use crate::services::catalog::uploads::{UploadRef, file_path};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::operations::answers::{Answer, Answers, Stamp, roles_key};
use crate::storage::FileStore;

/// A package tag, as pages and calls show it.
pub use crate::db::catalog::tags::Tag;

mod listing;
mod visibility;
mod writes;

pub use listing::{
    CustomerView, NEW_VISIT_AFTER, PackageListParams, PackageListQuery, admin_answer,
    admin_answer_at, customer_answer, customer_page, customer_params, get, tags, tags_at,
};
pub(crate) use visibility::{managed, sees_all};
pub use visibility::{providers_in_view, providers_to_manage, providers_to_manage_at, visibility};
use visibility::{sees, visibility_at};
pub use writes::{
    DuplicateInput, PackageFileInput, PackageInput, change_archive_status, create, delete,
    duplicate, for_edit, update,
};

/// A package's provider as lists embed it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProviderRef {
    pub id: i64,
    pub name: String,
    pub allowed_roles: Vec<String>,
    /// The logo.
    #[serde(rename = "Upload")]
    pub upload: Option<UploadRef>,
}

/// A file of a package (spec §3 "Upload").
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[schema(as = DownloadFile)]
#[serde(rename_all = "camelCase")]
pub struct FileView {
    /// The stored upload's id (what `uploadsToDelete` and `Uploads` refer to).
    pub id: i64,
    /// The package's name for the file (5–255 characters).
    pub name: String,
    /// Site-relative URL that serves the file.
    pub path: String,
    pub ext: String,
    /// Bytes.
    pub size: i64,
    /// Judged from the file's first bytes at upload.
    pub content_type: String,
    pub tags_ids: Vec<i64>,
    pub download_id: i64,
    pub download_name: String,
    pub created_at: DateTime<Utc>,
    /// Added to the package or last renamed or tagged there; the file badge counts from it.
    pub updated_at: DateTime<Utc>,
    pub badge: Option<Badge>,
    /// The thumbnail (JPEG, about 320 px wide) with the file's rights; `null` when the file
    /// has none (videos, office files, archives) or none yet.
    pub preview_url: Option<String>,
    /// The large preview (JPEG, about 1,200 px wide); `null` like `previewUrl`.
    pub preview_large_url: Option<String>,
    /// The thumbnail's width in pixels (for the page's layout), `null` without one.
    pub preview_width: Option<i32>,
    /// The thumbnail's height in pixels, `null` without one.
    pub preview_height: Option<i32>,
    /// Added or changed since the customer's previous visit (customer list only; else false).
    pub new_since_visit: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ListRef {
    pub id: i64,
    pub name: String,
    pub active: bool,
}

/// A download package (spec §3).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[schema(as = Download)]
#[serde(rename_all = "camelCase")]
pub struct PackageView {
    pub id: i64,
    /// Bezeichnung, 5–100 characters.
    pub name: String,
    pub start_at: DateTime<Utc>,
    pub end_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub archived: bool,
    pub archived_at: Option<DateTime<Utc>>,
    #[serde(rename = "ProviderId")]
    pub provider_id: i64,
    #[serde(rename = "Provider")]
    pub provider: ProviderRef,
    #[serde(rename = "Uploads")]
    pub uploads: Vec<FileView>,
    #[serde(rename = "Lists")]
    pub lists: Vec<ListRef>,
    pub lists_ids: Vec<i64>,
    /// The status badge (spec §4), the same for every view.
    pub badge: Option<Badge>,
    /// Whether the user may change the package (the row actions, spec §6).
    pub may_manage: bool,
    /// Started, or has a file added or changed, since the customer's previous visit (customer
    /// list only; else false). Not the spec's NEU badge, which stays as specified.
    pub new_since_visit: bool,
}

/// A page of packages.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
// The spec's word for a package stays the schema name of the REST contract.
#[schema(as = DownloadPage)]
#[serde(rename_all = "camelCase")]
pub struct PackagePage {
    pub content: Vec<PackageView>,
    /// All matching packages.
    pub count: i64,
    /// The customer list's "new since your last visit"; `null` in the admin list and on a
    /// customer's first visit.
    pub new_since_visit: Option<NewSinceVisit>,
}

/// What is new since a customer's previous visit of the customer page.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct NewSinceVisit {
    /// The last page load of the previous visit.
    pub since: DateTime<Utc>,
    /// Packages the user sees, not archived, that started since then or have a file added or
    /// changed since then.
    pub count: i64,
}

/// The view of a package read with everything it shows (one query for a whole page).
pub fn view_of(user: &User, package: Package, now: DateTime<Utc>) -> PackageView {
    let Package {
        download: d,
        provider_name,
        provider_roles,
        logo,
        files,
        lists,
    } = package;
    let uploads = files
        .into_iter()
        .map(|f| FileView {
            id: f.upload_id,
            path: file_path(f.upload_id, &f.name),
            preview_url: f
                .preview_width
                .map(|_| preview_path(f.upload_id, PreviewSize::Thumb)),
            preview_large_url: f
                .preview_width
                .map(|_| preview_path(f.upload_id, PreviewSize::Large)),
            preview_width: f.preview_width,
            preview_height: f.preview_height,
            new_since_visit: false,
            tags_ids: f.tags,
            download_id: d.id,
            download_name: d.name.clone(),
            badge: file_badge(f.updated_at, now),
            name: f.name,
            ext: f.ext,
            size: f.size,
            content_type: f.content_type,
            created_at: f.created_at,
            updated_at: f.updated_at,
        })
        .collect();
    let lists: Vec<ListRef> = lists
        .into_iter()
        .map(|l| ListRef {
            id: l.id,
            name: l.name,
            active: l.active,
        })
        .collect();
    PackageView {
        badge: package_badge(d.start_at, d.end_at, d.archived, now),
        may_manage: may_manage_provider(user, &provider_roles),
        new_since_visit: false,
        lists_ids: lists.iter().map(|l| l.id).collect(),
        lists,
        uploads,
        provider: ProviderRef {
            id: d.provider_id,
            name: provider_name,
            allowed_roles: provider_roles,
            upload: logo.map(|(id, name)| UploadRef {
                path: file_path(id, &name),
                id,
                name,
            }),
        },
        id: d.id,
        name: d.name,
        start_at: d.start_at,
        end_at: d.end_at,
        created_at: d.created_at,
        updated_at: d.updated_at,
        archived: d.archived,
        archived_at: d.archived_at,
        provider_id: d.provider_id,
    }
}

/// A refusal of bad input with its German message (parameters and bodies alike).
fn invalid(message: impl Into<String>) -> ServiceError {
    ServiceError::Invalid(message.into())
}

#[cfg(test)]
mod tests {
    use super::listing::id_filter;

    #[test]
    fn id_filters_take_json_arrays_and_comma_lists() {
        assert_eq!(id_filter(Some("[1,2]"), "x").unwrap(), Some(vec![1, 2]));
        assert_eq!(id_filter(Some("3, 4"), "x").unwrap(), Some(vec![3, 4]));
        assert_eq!(id_filter(Some("[]"), "x").unwrap(), None);
        assert_eq!(id_filter(None, "x").unwrap(), None);
        assert!(id_filter(Some("[\"a\"]"), "x").is_err());
        assert!(id_filter(Some("{}"), "x").is_err());
    }
}
