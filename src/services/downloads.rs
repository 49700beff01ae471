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

use crate::db::downloads::{DownloadChange, FileState, NewFile, Package, PackageQuery, Visible};
use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::badges::{Badge, file_badge, next_month_period, package_badge};
use crate::domain::downloads::{
    DownloadName, FileName, LISTS_REQUIRED, PROVIDER_REQUIRED, SearchMethod, SortColumn, period,
};
use crate::domain::files::{PreviewSize, preview_path};
use crate::domain::input::{IdInput, IdsInput, ids_in_text, ids_of};
use crate::domain::paging::{MAX_PAGE_SIZE, Paging};
use crate::domain::permissions::{Capability, may_manage_provider};
use crate::domain::time::{berlin_date, berlin_end_of_day, berlin_start_of_day};
use crate::domain::user::User;
use crate::services::answers::{Answer, Answers, Stamp, roles_key};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::uploads::{UploadRef, file_path};
use crate::storage::FileStore;

/// A package tag, as pages and calls show it.
pub use crate::db::tags::Tag;

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
pub struct DownloadView {
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
#[serde(rename_all = "camelCase")]
pub struct DownloadPage {
    pub content: Vec<DownloadView>,
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

/// A page load this long after the previous one starts a new visit.
pub const NEW_VISIT_AFTER: chrono::Duration = chrono::Duration::minutes(30);

/// How often a user's page loads within one visit are written: the visit's last load is known
/// to this precision (far below [`NEW_VISIT_AFTER`]), and a page load is not a write each time.
const VISIT_WRITE_EVERY: chrono::Duration = chrono::Duration::seconds(60);

/// Records the user's load of the customer page (a new visit after [`NEW_VISIT_AFTER`]) and
/// returns the previous visit's last load (`None` on a first visit).
/// `visits` are the user's as just read.
async fn record_visit(
    db: &Db,
    user: &User,
    visits: Option<db::visits::Visits>,
) -> ServiceResult<Option<DateTime<Utc>>> {
    let now = Utc::now();
    if let Some(seen) = visits
        && seen.last_seen_at > now - VISIT_WRITE_EVERY
    {
        return Ok(seen.previous_visit_at);
    }
    Ok(db::visits::record(db, &user.subject, now, now - NEW_VISIT_AFTER).await?)
}

/// The list parameters both lists share (spec §3 "Paging", "Filters").
#[derive(Clone, Debug, Default)]
pub struct ListParams {
    pub limit: i64,
    pub offset: i64,
    pub ascending: bool,
    pub sort_by: Option<String>,
    pub archived: bool,
    pub search: String,
    pub search_method: Option<String>,
    pub provider_ids: Option<Vec<i64>>,
    pub tag_ids: Option<Vec<i64>>,
    /// The customer list: only what is new since the user's previous visit.
    pub new_since_visit: bool,
}

/// The list parameters of spec §3 "Paging" and "Filters".
#[derive(Clone, Debug, Default, Deserialize, Serialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Page size; default 20 (spec §9), 1–1000 (others answer 400).
    #[param(minimum = 1, maximum = 1000)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    pub limit: Option<i64>,
    /// Entries to skip; from 0 (negative answers 400).
    #[param(minimum = 0)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    pub offset: Option<i64>,
    /// `ASC` or `DESC` (default), any letter case; anything else answers 400.
    #[param(value_type = Option<crate::domain::paging::SortOrder>, inline)]
    pub sort: Option<String>,
    /// Column: `id` (default), `provider` (also `Provider.name`), `name`, `startAt`, `endAt`,
    /// `updatedAt`; anything else answers 400.
    #[param(value_type = Option<crate::domain::downloads::SortColumn>, inline)]
    pub sort_by: Option<String>,
    /// `true`: only archived packages; `false` or absent: only those not archived.
    #[param(value_type = Option<crate::domain::paging::Flag>, inline)]
    pub archived: Option<String>,
    /// Part of the package name (or with `searchMethode=byFilename` of a file name), any
    /// letter case.
    pub search: Option<String>,
    /// JSON array of provider ids (or ids separated by commas); empty or absent: every
    /// provider.
    #[param(value_type = Option<crate::domain::input::IdsFilter>)]
    pub provider_ids: Option<String>,
    /// JSON array of tag ids: packages with a file carrying one of them; empty or absent: no
    /// filter.
    #[param(value_type = Option<crate::domain::input::IdsFilter>)]
    pub tags_ids: Option<String>,
    /// `byName` (default) or `byFilename`.
    #[serde(rename = "searchMethode")]
    #[param(value_type = Option<crate::domain::downloads::SearchMethod>, inline)]
    pub search_method: Option<String>,
    /// Customer list: `true` shows only packages that started, or have a file added or
    /// changed, since the user's previous visit (none on a first visit); ignored by the
    /// admin list.
    #[param(value_type = Option<crate::domain::paging::Flag>, inline)]
    pub new_since_visit: Option<String>,
}

/// Body of `POST /api/download/` and `PUT /api/download/{id}`; unknown keys are allowed.
/// Validation (spec §5), first failure answered: name 5–100 ("Die Bezeichnung muss mindestens
/// 5 Zeichen lang sein." / "… höchstens 100 …"), `ProviderId` ("Bitte wählen Sie einen
/// Anbieter aus."), `startAt`/`endAt` ("Bitte geben Sie ein gültiges Startdatum an.", "…
/// Enddatum …", "Das Enddatum darf nicht vor dem Startdatum liegen."), at least one list of
/// the provider ("Es muss mindestens ein Kriterium hinterlegt werden", "Die Kriterien müssen
/// zum Anbieter des Downloads gehören."), file names 5–255 ("Der Dateiname muss mindestens 5
/// Zeichen lang sein."; a missing extension is added).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DownloadInput {
    /// The package's name (Bezeichnung), trimmed.
    #[schema(min_length = 5, max_length = 100)]
    pub name: Option<String>,
    /// An RFC 3339 instant with seconds and a zone (`2026-12-01T07:00:00Z`,
    /// `2026-12-01T08:00:00.000+01:00`), a German wall-clock time `YYYY-MM-DDTHH:MM` or
    /// `YYYY-MM-DDTHH:MM:SS` (a space may stand for the `T`), or a date `YYYY-MM-DD` (the start
    /// of that German day); years 2000–2100. Anything else: "Bitte geben Sie ein gültiges
    /// Startdatum an."
    #[schema(max_length = 40)]
    pub start_at: Option<String>,
    /// As `startAt`; a date alone means its last second. Anything else: "Bitte geben Sie ein
    /// gültiges Enddatum an."
    #[schema(max_length = 40)]
    pub end_at: Option<String>,
    /// Required on create; on update it must be the package's provider ("Der Anbieter eines
    /// Downloads kann nicht geändert werden.").
    #[serde(rename = "ProviderId")]
    pub provider_id: Option<IdInput>,
    pub lists_ids: Option<IdsInput>,
    /// Update: lists to take off.
    pub unchecked_lists_ids: Option<IdsInput>,
    /// Uploads (ids from `POST /api/upload/`) to add, optionally with a name and tags.
    #[schema(max_items = 10000)]
    pub uploads_to_insert: Option<Vec<PackageFileInput>>,
    /// Update: the package's files in the wanted order with new names and tags.
    #[serde(rename = "Uploads")]
    #[schema(max_items = 10000)]
    pub uploads: Option<Vec<PackageFileInput>>,
    /// Update: files to take out; a file no package uses any more is removed from disk.
    #[schema(max_items = 10000)]
    pub uploads_to_delete: Option<Vec<PackageFileInput>>,
}

/// Body of `POST /api/download/duplicate`: the package to copy and the fields of
/// [`DownloadInput`] that differ in the copy.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct DuplicateInput {
    /// The package to copy.
    pub id: Option<IdInput>,
    #[serde(flatten)]
    pub changes: DownloadInput,
}

/// A file of a package in a request: its upload id, or the id with a name and tags.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum PackageFileInput {
    Id(IdInput),
    Named {
        id: IdInput,
        #[schema(min_length = 5, max_length = 255)]
        name: Option<String>,
        /// A new name while renaming (wins over `name`).
        #[serde(rename = "nameNew")]
        #[schema(max_length = 255)]
        name_new: Option<String>,
        #[serde(rename = "tagsIds")]
        tags_ids: Option<IdsInput>,
    },
}

fn flag(value: Option<&str>, name: &str) -> ServiceResult<bool> {
    crate::domain::paging::parse_flag(value, name)
        .map(|flag| flag.unwrap_or(false))
        .map_err(invalid)
}

/// An id list as the spec sends it (a JSON array, or ids separated by commas); an empty one
/// means no filter ("all providers", "no tags").
fn id_filter(value: Option<&str>, name: &str) -> ServiceResult<Option<Vec<i64>>> {
    let Some(text) = value.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let mut ids = ids_in_text(text)
        .ok_or_else(|| invalid(format!("{name} muss eine Liste von Ids sein.")))?;
    // One question, one form: the order and repetitions of ids do not change the answer.
    ids.sort_unstable();
    ids.dedup();
    Ok((!ids.is_empty()).then_some(ids))
}

impl ListParams {
    fn has_id_filters(&self) -> bool {
        self.provider_ids.is_some() || self.tag_ids.is_some()
    }

    /// The filters without ids of providers outside `providers` and of tags outside `tags`
    /// (issue 34): such an id matches nothing, and so it must not make a question of its own
    /// either (a kept answer per made-up id). A filter of only such ids stays, empty: it still
    /// matches nothing.
    fn within(mut self, providers: &[i64], tags: &[i64]) -> ListParams {
        fn keep(ids: &mut Option<Vec<i64>>, allowed: &[i64]) {
            if let Some(ids) = ids {
                let allowed: std::collections::HashSet<i64> = allowed.iter().copied().collect();
                ids.retain(|id| allowed.contains(id));
            }
        }
        keep(&mut self.provider_ids, providers);
        keep(&mut self.tag_ids, tags);
        self
    }
}

impl ListQuery {
    /// The parsed parameters; malformed ones are refused with a German message.
    pub fn params(&self) -> ServiceResult<ListParams> {
        let paging = Paging::parse(self.limit, self.offset, self.sort.as_deref(), MAX_PAGE_SIZE)
            .map_err(invalid)?;
        Ok(ListParams {
            limit: paging.limit,
            offset: paging.offset,
            ascending: paging.ascending,
            sort_by: self.sort_by.clone(),
            archived: flag(self.archived.as_deref(), "archived")?,
            search: crate::domain::text::search_text(self.search.as_deref().unwrap_or("")),
            search_method: self.search_method.clone(),
            provider_ids: id_filter(self.provider_ids.as_deref(), "providerIds")?,
            tag_ids: id_filter(self.tags_ids.as_deref(), "tagsIds")?,
            new_since_visit: flag(self.new_since_visit.as_deref(), "newSinceVisit")?,
        })
    }
}

/// A package list's total, kept under the stamp: counting every matching package costs more
/// than reading the page itself, and "load more" asks for the same total again.
async fn count(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    query: &PackageQuery,
) -> ServiceResult<i64> {
    let key = format!("package-count|{stamp}|{}", query.count_key());
    let count = answers
        .value(key, async {
            Ok(db::downloads::count_matching(db, query).await?)
        })
        .await?;
    Ok(*count)
}

/// What a user may see: `None` = everything (Admin).
pub async fn visibility(db: &Db, user: &User) -> ServiceResult<Option<Visible>> {
    if user.is_admin() {
        return Ok(None);
    }
    let provider_ids = db::providers::ids_for_roles(db, &user.roles).await?;
    let list_ids = match user.customer_number {
        Some(number) => db::contacts::list_ids_of_customer(db, number).await?,
        None => Vec::new(),
    };
    Ok(Some(Visible {
        provider_ids,
        list_ids,
    }))
}

/// [`visibility`], kept under the stamp (it depends on the roles and the customer number).
async fn visibility_at(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    user: &User,
) -> ServiceResult<Option<Visible>> {
    let key = format!(
        "visible|{stamp}|{}|{:?}",
        roles_key(user),
        user.customer_number
    );
    let visible = answers.value(key, visibility(db, user)).await?;
    Ok((*visible).clone())
}

fn query_of(params: &ListParams, visible: Option<Visible>) -> ServiceResult<PackageQuery> {
    let sort = SortColumn::parse(params.sort_by.as_deref()).map_err(ServiceError::Invalid)?;
    let method =
        SearchMethod::parse(params.search_method.as_deref()).map_err(ServiceError::Invalid)?;
    let search = params.search.trim();
    Ok(PackageQuery {
        visible,
        archived: Some(params.archived),
        search: (!search.is_empty()).then(|| search.to_string()),
        search_files: method == SearchMethod::ByFilename,
        provider_ids: params.provider_ids.clone(),
        tag_ids: params.tag_ids.clone(),
        new_since: None,
        sort: Some(sort),
        ascending: params.ascending,
    })
}

/// The admin list (`GET /api/downloads/{query}`) as kept JSON: every package for the admin
/// area. It depends on the data, the period and the user's roles (`mayManage`).
pub async fn admin_answer(
    db: &Db,
    answers: &Answers,
    user: &User,
    params: &ListParams,
) -> ServiceResult<Arc<Answer>> {
    let stamp = answers.stamp(db).await?;
    admin_answer_at(db, answers, stamp, user, params).await
}

/// [`admin_answer`] under a stamp the request read already.
pub async fn admin_answer_at(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    user: &User,
    params: &ListParams,
) -> ServiceResult<Arc<Answer>> {
    let params = if params.has_id_filters() {
        let (providers, tags) = tokio::try_join!(
            provider_ids_at(db, answers, stamp),
            tags_at(db, answers, stamp)
        )?;
        let tag_ids: Vec<i64> = tags.iter().map(|t| t.id).collect();
        params.clone().within(&providers, &tag_ids)
    } else {
        params.clone()
    };
    let key = format!("admin-list|{stamp}|{}|{params:?}", roles_key(user));
    answers
        .body(key, async {
            let query = query_of(&params, None)?;
            page_of(db, answers, stamp, user, &query, &params).await
        })
        .await
}

/// Every provider's id, kept under the stamp (what the admin list's filter may name).
async fn provider_ids_at(db: &Db, answers: &Answers, stamp: Stamp) -> ServiceResult<Arc<Vec<i64>>> {
    answers
        .value(format!("provider-ids|{stamp}"), async {
            Ok(db::providers::list_all(db)
                .await?
                .into_iter()
                .map(|p| p.id)
                .collect())
        })
        .await
}

/// What a customer's lists depend on besides the parameters, read once per request: the
/// stamp, and the previous visit (what is marked new). Users with the same roles, customer
/// number and previous visit see the same lists.
#[derive(Clone, Debug)]
pub struct CustomerView {
    pub stamp: Stamp,
    previous: Option<DateTime<Utc>>,
    key: String,
}

impl CustomerView {
    /// Reads the stamp and the previous visit; with `visit`, this request is a page load,
    /// recorded as (part of) a visit.
    pub async fn of(db: &Db, answers: &Answers, user: &User, visit: bool) -> ServiceResult<Self> {
        let (stamp, previous) = if user.subject.is_empty() {
            (answers.stamp(db).await?, None)
        } else {
            let (version, visits) = db::visits::get_with_data_version(db, &user.subject).await?;
            let previous = if visit {
                record_visit(db, user, visits).await?
            } else {
                visits.and_then(|v| v.previous_visit_at)
            };
            (answers.stamp_of(db, version).await?, previous)
        };
        let key = format!(
            "{stamp}|{}|{:?}|{:?}",
            roles_key(user),
            user.customer_number,
            previous.map(|p| p.timestamp_micros())
        );
        Ok(CustomerView {
            stamp,
            previous,
            key,
        })
    }

    /// A key for something this viewer sees: `kind` and its parameters after the viewer's.
    pub fn key(&self, kind: &str, params: impl std::fmt::Debug) -> String {
        format!("{kind}|{}|{params:?}", self.key)
    }
}

/// The customer's list (`GET /api/downloads/contact/{query}`) as kept JSON.
pub async fn customer_answer(
    db: &Db,
    answers: &Answers,
    user: &User,
    params: &ListParams,
) -> ServiceResult<Arc<Answer>> {
    let view = CustomerView::of(db, answers, user, false).await?;
    let params = customer_params(db, answers, &view, user, params).await?;
    answers
        .body(
            view.key("customer-list", &params),
            customer_page(db, answers, &view, user, &params),
        )
        .await
}

/// The customer list's parameters with filters only of providers the user sees and of tags
/// that exist ([`ListParams::within`]); what [`customer_page`] takes.
pub async fn customer_params(
    db: &Db,
    answers: &Answers,
    view: &CustomerView,
    user: &User,
    params: &ListParams,
) -> ServiceResult<ListParams> {
    if !params.has_id_filters() {
        return Ok(params.clone());
    }
    let (providers, tags) = tokio::try_join!(
        providers_in_view(db, answers, view, user),
        tags_at(db, answers, view.stamp)
    )?;
    let provider_ids: Vec<i64> = providers.iter().map(|p| p.id).collect();
    let tag_ids: Vec<i64> = tags.iter().map(|t| t.id).collect();
    Ok(params.clone().within(&provider_ids, &tag_ids))
}

/// The customer's list: the packages the user sees, each as [`for_customer`] shows it, with
/// what is new since the previous visit marked. `params` as [`customer_params`] made them.
pub async fn customer_page(
    db: &Db,
    answers: &Answers,
    view: &CustomerView,
    user: &User,
    params: &ListParams,
) -> ServiceResult<DownloadPage> {
    let stamp = view.stamp;
    let visible = visibility_at(db, answers, stamp, user).await?;
    let own_lists = visible.as_ref().map(|v| v.list_ids.clone());
    let mut query = query_of(params, visible.clone())?;
    let now = Utc::now();
    let previous = view.previous;
    if params.new_since_visit {
        // Without a previous visit nothing is new since it.
        query.new_since = Some((previous.unwrap_or(now), now));
    }
    let mut page = page_of(db, answers, stamp, user, &query, params).await?;
    if let Some(own_lists) = own_lists {
        for view in &mut page.content {
            for_customer(view, &own_lists);
        }
    }
    if let Some(since) = previous {
        for view in &mut page.content {
            mark_new_since(view, since, now);
        }
        let new = PackageQuery {
            visible,
            archived: Some(false),
            new_since: Some((since, now)),
            ..PackageQuery::default()
        };
        page.new_since_visit = Some(NewSinceVisit {
            since,
            count: count(db, answers, stamp, &new).await?,
        });
    }
    Ok(page)
}

/// Marks what is new since `since` (the rule of the `newSinceVisit` filter).
fn mark_new_since(view: &mut DownloadView, since: DateTime<Utc>, now: DateTime<Utc>) {
    let mut any_file = false;
    for file in &mut view.uploads {
        file.new_since_visit = file.updated_at > since;
        any_file |= file.new_since_visit;
    }
    view.new_since_visit = (view.start_at > since && view.start_at <= now) || any_file;
}

/// What a customer is shown of a package whose provider they do not manage: not the
/// provider's internal role names (the field stays, empty, since spec §3 names it), and of
/// the package's lists only those the customer's contacts are on (`own_lists`).
fn for_customer(view: &mut DownloadView, own_lists: &[i64]) {
    if view.may_manage {
        return;
    }
    view.provider.allowed_roles.clear();
    view.lists.retain(|list| own_lists.contains(&list.id));
    view.lists_ids.retain(|id| own_lists.contains(id));
}

async fn page_of(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    user: &User,
    query: &PackageQuery,
    params: &ListParams,
) -> ServiceResult<DownloadPage> {
    let count = count(db, answers, stamp, query).await?;
    let packages = if count > params.offset {
        db::downloads::page(db, query, params.limit, params.offset).await?
    } else {
        Vec::new()
    };
    Ok(DownloadPage {
        content: views(user, packages),
        count,
        new_since_visit: None,
    })
}

/// The view of a package read with everything it shows (one query for a whole page).
pub fn view_of(user: &User, package: Package, now: DateTime<Utc>) -> DownloadView {
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
    DownloadView {
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

fn views(user: &User, packages: Vec<Package>) -> Vec<DownloadView> {
    let now = Utc::now();
    packages
        .into_iter()
        .map(|p| view_of(user, p, now))
        .collect()
}

/// Whether a customer who sees `visible` sees a package.
async fn sees(
    db: &Db,
    visible: &Visible,
    download: &db::downloads::PackageRecord,
) -> ServiceResult<bool> {
    if visible.provider_ids.contains(&download.provider_id) {
        return Ok(true);
    }
    let lists = db::downloads::list_ids(db, download.id).await?;
    Ok(lists.iter().any(|l| visible.list_ids.contains(l)))
}

/// One package (`GET /api/download/{id}`): for the admin area (staff see all, spec §2), or
/// for a customer who sees it (by [`visibility`], shown as [`for_customer`] shows it);
/// anyone else gets `NotFound`.
pub async fn get(db: &Db, user: &User, id: i64) -> ServiceResult<DownloadView> {
    let download = db::downloads::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let own_lists = if Capability::AdminArea.allows(user) {
        None
    } else {
        match visibility(db, user).await? {
            None => None,
            Some(visible) if sees(db, &visible, &download).await? => Some(visible.list_ids),
            Some(_) => return Err(ServiceError::NotFound),
        }
    };
    let package = db::downloads::packages_by_ids(db, &[download.id])
        .await?
        .pop()
        .ok_or(ServiceError::NotFound)?;
    let mut view = view_of(user, package, Utc::now());
    if let Some(own_lists) = own_lists {
        for_customer(&mut view, &own_lists);
    }
    Ok(view)
}

/// The package `id` when the user may change it: `NotFound` when missing, `Forbidden`
/// without Admin or one of its provider's roles.
pub(crate) async fn managed(
    db: &Db,
    user: &User,
    id: i64,
) -> ServiceResult<db::downloads::PackageRecord> {
    let download = db::downloads::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let roles = db::providers::roles_of(db, download.provider_id).await?;
    if !may_manage_provider(user, &roles) {
        return Err(ServiceError::Forbidden);
    }
    Ok(download)
}

fn invalid(message: impl Into<String>) -> ServiceError {
    ServiceError::Invalid(message.into())
}

/// The provider for a new package: it must exist and the user must hold one of its roles.
async fn provider_for_new(db: &Db, user: &User, value: Option<IdInput>) -> ServiceResult<i64> {
    let id = value
        .and_then(IdInput::get)
        .ok_or_else(|| invalid(PROVIDER_REQUIRED))?;
    let provider = db::providers::get(db, id)
        .await?
        .ok_or_else(|| invalid("Der gewählte Anbieter existiert nicht."))?;
    if !may_manage_provider(user, &provider.allowed_roles) {
        return Err(ServiceError::Forbidden);
    }
    Ok(id)
}

/// The lists of a package: at least one, all of its provider.
async fn checked_lists(db: &Db, provider_id: i64, list_ids: Vec<i64>) -> ServiceResult<Vec<i64>> {
    if list_ids.is_empty() {
        return Err(invalid(LISTS_REQUIRED));
    }
    let found = db::lists::count_of_provider(db, provider_id, &list_ids).await?;
    if found != list_ids.len() as i64 {
        return Err(invalid(
            "Die Kriterien müssen zum Anbieter des Downloads gehören.",
        ));
    }
    Ok(list_ids)
}

/// Tags that exist (an unknown tag id is a clear error, not a database failure).
async fn checked_tags(db: &Db, tag_ids: &[i64]) -> ServiceResult<()> {
    let mut unique = tag_ids.to_vec();
    unique.sort_unstable();
    unique.dedup();
    if unique.is_empty() {
        return Ok(());
    }
    if db::tags::count_existing(db, &unique).await? != unique.len() as i64 {
        return Err(invalid("Ein gewählter Tag existiert nicht."));
    }
    Ok(())
}

/// A file entry as clients send it: an id, or an object with `id` and optionally `name`
/// (or `nameNew` while renaming) and `tagsIds`.
struct FileInput {
    id: i64,
    name: Option<String>,
    tag_ids: Option<Vec<i64>>,
}

fn file_inputs(value: Option<&[PackageFileInput]>, field: &str) -> ServiceResult<Vec<FileInput>> {
    let bad = || invalid(format!("{field} muss eine Liste von Dateien sein."));
    value
        .unwrap_or_default()
        .iter()
        .map(|item| match item {
            PackageFileInput::Id(id) => Ok(FileInput {
                id: id.get().ok_or_else(bad)?,
                name: None,
                tag_ids: None,
            }),
            PackageFileInput::Named {
                id,
                name,
                name_new,
                tags_ids,
            } => Ok(FileInput {
                id: id.get().ok_or_else(bad)?,
                name: name_new
                    .as_deref()
                    .filter(|n| !n.trim().is_empty())
                    .or(name.as_deref())
                    .map(str::to_string),
                tag_ids: match tags_ids {
                    None => None,
                    Some(tags) => Some(tags.get().ok_or_else(bad)?.to_vec()),
                },
            }),
        })
        .collect()
}

/// New files of a package: the uploads must exist and be the user's to use (their own fresh
/// uploads, or files already in a package of a provider they manage); names default to the
/// upload's name.
async fn new_files(db: &Db, user: &User, inputs: Vec<FileInput>) -> ServiceResult<Vec<NewFile>> {
    if inputs.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = inputs.iter().map(|f| f.id).collect();
    let uploads: HashMap<i64, db::uploads::Upload> = db::uploads::get_many(db, &ids)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    if ids.iter().any(|id| !uploads.contains_key(id)) {
        return Err(invalid(
            "Eine hochgeladene Datei existiert nicht mehr. Bitte laden Sie sie erneut hoch.",
        ));
    }
    crate::services::uploads::check_usable(db, user, &uploads.values().collect::<Vec<_>>()).await?;
    let mut files = Vec::with_capacity(inputs.len());
    for input in inputs {
        let upload = &uploads[&input.id];
        let name = FileName::parse(input.name.as_deref().unwrap_or(&upload.name), &upload.ext)
            .map_err(invalid)?;
        let tag_ids = input.tag_ids.unwrap_or_default();
        files.push(NewFile {
            upload_id: upload.id,
            name: name.into_inner(),
            tag_ids,
        });
    }
    // One query for the tags of all files.
    let all_tags: Vec<i64> = files
        .iter()
        .flat_map(|f| f.tag_ids.iter().copied())
        .collect();
    checked_tags(db, &all_tags).await?;
    Ok(files)
}

fn name_of(input: &DownloadInput) -> ServiceResult<String> {
    DownloadName::parse(input.name.as_deref().unwrap_or(""))
        .map(DownloadName::into_inner)
        .map_err(invalid)
}

fn period_of(input: &DownloadInput) -> ServiceResult<(DateTime<Utc>, DateTime<Utc>)> {
    period(input.start_at.as_deref(), input.end_at.as_deref()).map_err(invalid)
}

/// What the audit log keeps of a package: its fields, its files (upload, name, tags, in order)
/// and its lists.
#[derive(Serialize)]
struct RecordedPackage<'a> {
    provider_id: i64,
    name: &'a str,
    start_at: DateTime<Utc>,
    end_at: DateTime<Utc>,
    files: Vec<RecordedFile<'a>>,
    lists: Vec<i64>,
}

#[derive(Serialize)]
struct RecordedFile<'a> {
    upload_id: i64,
    name: &'a str,
    tags: &'a [i64],
}

impl<'a> RecordedPackage<'a> {
    /// A package as it is about to be created.
    fn created(new: &'a db::downloads::NewDownload) -> RecordedPackage<'a> {
        RecordedPackage {
            provider_id: new.provider_id,
            name: &new.name,
            start_at: new.start_at,
            end_at: new.end_at,
            files: new
                .files
                .iter()
                .map(|f| RecordedFile {
                    upload_id: f.upload_id,
                    name: &f.name,
                    tags: &f.tag_ids,
                })
                .collect(),
            lists: new.list_ids.clone(),
        }
    }

    /// A package of `provider_id` as an edit leaves it.
    fn changed(provider_id: i64, change: &'a DownloadChange) -> RecordedPackage<'a> {
        RecordedPackage {
            provider_id,
            name: &change.name,
            start_at: change.start_at,
            end_at: change.end_at,
            files: change
                .files
                .iter()
                .map(|f| RecordedFile {
                    upload_id: f.upload_id,
                    name: &f.name,
                    tags: &f.tag_ids,
                })
                .collect(),
            lists: change.list_ids.clone(),
        }
    }
}

/// `POST /api/download/`: name, startAt, endAt, ProviderId, listsIds, uploadsToInsert.
pub async fn create(db: &Db, user: &User, input: &DownloadInput) -> ServiceResult<DownloadView> {
    let name = name_of(input)?;
    let provider_id = provider_for_new(db, user, input.provider_id).await?;
    let (start_at, end_at) = period_of(input)?;
    let list_ids = checked_lists(
        db,
        provider_id,
        ids_of(input.lists_ids.as_ref(), "listsIds").map_err(invalid)?,
    )
    .await?;
    let mut inputs = file_inputs(input.uploads_to_insert.as_deref(), "uploadsToInsert")?;
    inputs.extend(file_inputs(input.uploads.as_deref(), "Uploads")?);
    let files = new_files(db, user, inputs).await?;
    let new = db::downloads::NewDownload {
        provider_id,
        name,
        start_at,
        end_at,
        files,
        list_ids,
    };
    let audit = Entry::new(&Actor::of(user), Action::Create, Entity::Package, None)
        .with_changes(Changes::created(&RecordedPackage::created(&new)));
    let download = db::downloads::create(db, &new, &audit).await?;
    tracing::info!(download = download.id, "download created");
    get(db, user, download.id).await
}

/// `PUT /api/download/{id}`: name, dates, renames and tags of `Uploads`, `uploadsToDelete`,
/// `uploadsToInsert`, `listsIds` and `uncheckedListsIds`. The provider cannot change.
/// Files no package uses any more are removed.
pub async fn update(
    db: &Db,
    store: &FileStore,
    user: &User,
    id: i64,
    input: &DownloadInput,
) -> ServiceResult<DownloadView> {
    let download = managed(db, user, id).await?;
    if let Some(provider) = input.provider_id
        && provider.get() != Some(download.provider_id)
    {
        return Err(invalid(
            "Der Anbieter eines Downloads kann nicht geändert werden.",
        ));
    }
    let name = name_of(input)?;
    let (start_at, end_at) = period_of(input)?;

    // Lists: `listsIds` is the new set; without it, the current lists. Minus the unchecked.
    let unchecked =
        ids_of(input.unchecked_lists_ids.as_ref(), "uncheckedListsIds").map_err(invalid)?;
    let lists_before = db::downloads::list_ids(db, id).await?;
    let mut list_ids = match &input.lists_ids {
        Some(lists) => ids_of(Some(lists), "listsIds").map_err(invalid)?,
        None => lists_before.clone(),
    };
    list_ids.retain(|l| !unchecked.contains(l));
    let list_ids = checked_lists(db, download.provider_id, list_ids).await?;

    // Files: those it has, in the order of `Uploads`, renamed and tagged as given; minus
    // `uploadsToDelete`; plus `uploadsToInsert`.
    let current = db::downloads::files_of(db, &[id]).await?;
    let mut current_tags: HashMap<i64, Vec<i64>> = HashMap::new();
    for (_, upload, tag) in db::downloads::tags_of(db, &[id]).await? {
        current_tags.entry(upload).or_default().push(tag);
    }
    for tags in current_tags.values_mut() {
        tags.sort_unstable();
    }
    let no_tags = Vec::new();
    let before = serde_json::to_value(RecordedPackage {
        provider_id: download.provider_id,
        name: &download.name,
        start_at: download.start_at,
        end_at: download.end_at,
        files: current
            .iter()
            .map(|f| RecordedFile {
                upload_id: f.upload_id,
                name: &f.name,
                tags: current_tags.get(&f.upload_id).unwrap_or(&no_tags),
            })
            .collect(),
        lists: lists_before.clone(),
    })
    .unwrap_or_default();
    let to_delete: HashSet<i64> =
        file_inputs(input.uploads_to_delete.as_deref(), "uploadsToDelete")?
            .into_iter()
            .map(|f| f.id)
            .collect();
    let to_insert = file_inputs(input.uploads_to_insert.as_deref(), "uploadsToInsert")?;
    let inserting: HashSet<i64> = to_insert.iter().map(|f| f.id).collect();
    let mut edits: HashMap<i64, FileInput> = HashMap::new();
    let mut order: Vec<i64> = Vec::new();
    for file in file_inputs(input.uploads.as_deref(), "Uploads")? {
        if !current.iter().any(|f| f.upload_id == file.id) {
            if inserting.contains(&file.id) {
                continue;
            }
            return Err(invalid("Eine Datei gehört nicht zu diesem Download."));
        }
        order.push(file.id);
        edits.insert(file.id, file);
    }
    for file in &current {
        if !order.contains(&file.upload_id) {
            order.push(file.upload_id);
        }
    }
    let mut files: Vec<FileState> = Vec::new();
    // Tags given anew, checked together after the loop (one query, not one per file).
    let mut new_tags: Vec<i64> = Vec::new();
    for upload_id in order {
        if to_delete.contains(&upload_id) {
            continue;
        }
        let file = current
            .iter()
            .find(|f| f.upload_id == upload_id)
            .expect("current file");
        let tags_before = current_tags.remove(&upload_id).unwrap_or_default();
        let (name, tag_ids) = match edits.remove(&upload_id) {
            Some(edit) => (edit.name, edit.tag_ids),
            None => (None, None),
        };
        let name = match name {
            Some(name) if name != file.name => FileName::parse(&name, &file.ext)
                .map_err(invalid)?
                .into_inner(),
            _ => file.name.clone(),
        };
        let tag_ids = tag_ids.unwrap_or_else(|| tags_before.clone());
        let mut sorted_new = tag_ids.clone();
        sorted_new.sort_unstable();
        sorted_new.dedup();
        if sorted_new != tags_before {
            new_tags.extend(&sorted_new);
        }
        files.push(FileState {
            upload_id,
            changed: name != file.name || sorted_new != tags_before,
            name,
            tag_ids: sorted_new,
        });
    }
    checked_tags(db, &new_tags).await?;
    let inserted: Vec<FileInput> = to_insert
        .into_iter()
        .filter(|f| !current.iter().any(|c| c.upload_id == f.id))
        .collect();
    for file in new_files(db, user, inserted).await? {
        files.push(FileState {
            upload_id: file.upload_id,
            name: file.name,
            tag_ids: file.tag_ids,
            changed: true,
        });
    }
    let change = DownloadChange {
        name,
        start_at,
        end_at,
        files,
        list_ids,
    };
    let after = RecordedPackage::changed(download.provider_id, &change);
    let audit = Entry::new(&Actor::of(user), Action::Update, Entity::Package, Some(id))
        .named(&change.name)
        .with_changes(Changes::between(Some(&before), Some(&after)));
    let (_, removed) = db::downloads::update(db, id, &change, &audit)
        .await?
        .ok_or(ServiceError::NotFound)?;
    crate::services::uploads::remove_unreferenced(db, store, &removed, &Actor::of(user)).await?;
    tracing::info!(download = id, removed = removed.len(), "download updated");
    get(db, user, id).await
}

/// `POST /api/download/duplicate`: a copy of the package `id` that holds the same stored
/// files (no bytes are copied) and lists, named "… (Kopie)" and valid in the next month
/// (first to last day), unless the body names a valid name and dates itself. A body without
/// `id` but with the package's fields (as spec §7 lists them) creates the copy from those.
pub async fn duplicate(
    db: &Db,
    user: &User,
    input: &DuplicateInput,
) -> ServiceResult<DownloadView> {
    let Some(source_id) = input.id.and_then(IdInput::get) else {
        return create(db, user, &input.changes).await;
    };
    let source = managed(db, user, source_id).await?;
    let changes = &input.changes;
    let name = match changes.name.as_deref().map(DownloadName::parse) {
        Some(Ok(name)) if name.as_str() != source.name => name,
        _ => DownloadName::copy_of(&source.name),
    };
    let (start_at, end_at) = match period_of(changes) {
        Ok(period) if changes.start_at.is_some() => period,
        _ => {
            let (first, last) = next_month_period(berlin_date(Utc::now()));
            (berlin_start_of_day(first), berlin_end_of_day(last))
        }
    };
    let audit = Entry::new(&Actor::of(user), Action::Duplicate, Entity::Package, None)
        .with_changes(
            Changes::none()
                .field("copy_of", serde_json::Value::Null, source_id)
                .field("name", serde_json::Value::Null, name.as_str())
                .field("start_at", serde_json::Value::Null, start_at)
                .field("end_at", serde_json::Value::Null, end_at),
        );
    let copy = db::downloads::duplicate(db, source_id, name.as_str(), start_at, end_at, &audit)
        .await?
        .ok_or(ServiceError::NotFound)?;
    tracing::info!(source = source_id, copy = copy.id, "download duplicated");
    get(db, user, copy.id).await
}

/// `PATCH /api/download/changeArchiveStatus/{id}`: archives or restores the package (to
/// `archived` when given, else the other state). Answers the new state.
pub async fn change_archive_status(
    db: &Db,
    user: &User,
    id: i64,
    archived: Option<bool>,
) -> ServiceResult<bool> {
    let download = managed(db, user, id).await?;
    let archived = archived.unwrap_or(!download.archived);
    let action = if archived {
        Action::Archive
    } else {
        Action::Unarchive
    };
    let audit = Entry::new(&Actor::of(user), action, Entity::Package, Some(id))
        .named(&download.name)
        .with_changes(Changes::none().field("archived", download.archived, archived));
    db::downloads::set_archived(db, id, archived, &audit)
        .await?
        .ok_or(ServiceError::NotFound)?;
    Ok(archived)
}

/// `DELETE /api/download/{id}`: deletes the package; files no package uses any more are
/// removed from the database and the disk.
pub async fn delete(db: &Db, store: &FileStore, user: &User, id: i64) -> ServiceResult<()> {
    let download = managed(db, user, id).await?;
    let audit = Entry::new(&Actor::of(user), Action::Delete, Entity::Package, Some(id))
        .with_changes(Changes::deleted(&download));
    let uploads = db::downloads::delete(db, id, &audit)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let removed =
        crate::services::uploads::remove_unreferenced(db, store, &uploads, &Actor::of(user))
            .await?;
    tracing::info!(download = id, removed, "download deleted");
    Ok(())
}

/// Providers as the pages' filters and forms show them (id, name, roles, logo), by name.
async fn provider_refs(db: &Db, ids: &[i64]) -> ServiceResult<Vec<ProviderRef>> {
    let providers = db::providers::get_many(db, ids).await?;
    let logo_ids: Vec<i64> = providers.iter().filter_map(|p| p.upload_id).collect();
    let logos: HashMap<i64, UploadRef> = db::uploads::get_many(db, &logo_ids)
        .await?
        .iter()
        .map(|u| (u.id, crate::services::uploads::upload_ref(u)))
        .collect();
    let mut refs: Vec<ProviderRef> = providers
        .into_iter()
        .map(|p| ProviderRef {
            upload: p.upload_id.and_then(|id| logos.get(&id).cloned()),
            id: p.id,
            name: p.name,
            allowed_roles: p.allowed_roles,
        })
        .collect();
    refs.sort_by_key(|p| p.name.to_lowercase());
    Ok(refs)
}

/// The providers whose packages the user sees (the customer's provider filter); the role
/// names only of those the user manages.
pub async fn providers_in_view(
    db: &Db,
    answers: &Answers,
    view: &CustomerView,
    user: &User,
) -> ServiceResult<Arc<Vec<ProviderRef>>> {
    answers
        .value(view.key("providers-in-view", ()), async {
            let ids = match visibility_at(db, answers, view.stamp, user).await? {
                None => db::providers::list_all(db)
                    .await?
                    .into_iter()
                    .map(|p| p.id)
                    .collect(),
                Some(visible) => db::downloads::provider_ids_visible(db, &visible).await?,
            };
            let mut providers = provider_refs(db, &ids).await?;
            for provider in &mut providers {
                if !may_manage_provider(user, &provider.allowed_roles) {
                    provider.allowed_roles.clear();
                }
            }
            Ok(providers)
        })
        .await
}

/// The providers the user may manage: Admin all, others those with one of their roles (the
/// admin list's filter and the download form's provider choice, spec §6).
pub async fn providers_to_manage(db: &Db, user: &User) -> ServiceResult<Vec<ProviderRef>> {
    let ids: Vec<i64> = if user.is_admin() {
        db::providers::list_all(db)
            .await?
            .into_iter()
            .map(|p| p.id)
            .collect()
    } else {
        db::providers::ids_for_roles(db, &user.roles).await?
    };
    provider_refs(db, &ids).await
}

/// [`providers_to_manage`], kept under the stamp.
pub async fn providers_to_manage_at(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    user: &User,
) -> ServiceResult<Arc<Vec<ProviderRef>>> {
    let key = format!("providers-to-manage|{stamp}|{}", roles_key(user));
    answers.value(key, providers_to_manage(db, user)).await
}

/// One package for its edit form: `NotFound` when missing, `Forbidden` when the user may
/// not change it.
pub async fn for_edit(db: &Db, user: &User, id: i64) -> ServiceResult<DownloadView> {
    managed(db, user, id).await?;
    get(db, user, id).await
}

/// All tags (`GET /api/downloads/tags/{optional}`).
pub async fn tags(db: &Db) -> ServiceResult<Vec<Tag>> {
    Ok(db::tags::list(db).await?)
}

/// [`tags`], kept under the stamp.
pub async fn tags_at(db: &Db, answers: &Answers, stamp: Stamp) -> ServiceResult<Arc<Vec<Tag>>> {
    answers.value(format!("tags|{stamp}"), tags(db)).await
}

#[cfg(test)]
mod tests {
    use super::*;

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
