//! The package lists: the admin list, the customer's list with its visits and what is new,
//! their parameters and totals (kept under the data version), and one package.

use super::*;
use sha2::{Digest, Sha256};

/// A page load this long after the previous one starts a new visit.
pub const NEW_VISIT_AFTER: chrono::Duration = chrono::Duration::minutes(30);

/// How often a user's page loads within one visit are written: the visit's last load is known
/// to this precision (far below [`NEW_VISIT_AFTER`]), and a page load is not a write each time.
pub(super) const VISIT_WRITE_EVERY: chrono::Duration = chrono::Duration::seconds(60);

/// Records the user's load of the customer page (a new visit after [`NEW_VISIT_AFTER`]) and
/// returns the previous visit's last load (`None` on a first visit).
/// `visits` are the user's as just read.
pub(super) async fn record_visit(
    db: &Db,
    user: &User,
    visits: Option<db::catalog::visits::Visits>,
) -> ServiceResult<Option<DateTime<Utc>>> {
    let now = Utc::now();
    if let Some(seen) = visits
        && seen.last_seen_at > now - VISIT_WRITE_EVERY
    {
        return Ok(seen.previous_visit_at);
    }
    Ok(db::catalog::visits::record(db, &user.subject, now, now - NEW_VISIT_AFTER).await?)
}

/// The list parameters both lists share (spec §3 "Paging", "Filters").
#[derive(Clone, Debug, Default)]
pub struct PackageListParams {
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
pub struct PackageListQuery {
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
    #[param(value_type = Option<crate::domain::packages::SortColumn>, inline)]
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
    #[param(value_type = Option<crate::domain::packages::SearchMethod>, inline)]
    pub search_method: Option<String>,
    /// Customer list: `true` shows only packages that started, or have a file added or
    /// changed, since the user's previous visit (none on a first visit); ignored by the
    /// admin list.
    #[param(value_type = Option<crate::domain::paging::Flag>, inline)]
    pub new_since_visit: Option<String>,
}

pub(super) fn flag(value: Option<&str>, name: &str) -> ServiceResult<bool> {
    crate::domain::paging::parse_flag(value, name)
        .map(|flag| flag.unwrap_or(false))
        .map_err(invalid)
}

/// An id list as the spec sends it (a JSON array, or ids separated by commas); an empty one
/// means no filter ("all providers", "no tags").
pub(super) fn id_filter(value: Option<&str>, name: &str) -> ServiceResult<Option<Vec<i64>>> {
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

impl PackageListParams {
    fn has_id_filters(&self) -> bool {
        self.provider_ids.is_some() || self.tag_ids.is_some()
    }

    /// The filters without ids of providers outside `providers` and of tags outside `tags`
    /// (issue 34): such an id matches nothing, and so it must not make a question of its own
    /// either (a kept answer per made-up id). A filter of only such ids stays, empty: it still
    /// matches nothing.
    fn within(mut self, providers: &[i64], tags: &[i64]) -> PackageListParams {
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

impl PackageListQuery {
    /// The parsed parameters; malformed ones are refused with a German message.
    pub fn params(&self) -> ServiceResult<PackageListParams> {
        let paging = Paging::parse(self.limit, self.offset, self.sort.as_deref(), MAX_PAGE_SIZE)
            .map_err(invalid)?;
        Ok(PackageListParams {
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
pub(super) async fn count(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    query: &PackageQuery,
) -> ServiceResult<i64> {
    let key = format!("package-count|{stamp}|{}", query.count_key());
    let count = answers
        .value(key, async {
            Ok(db::catalog::packages::count_matching(db, query).await?)
        })
        .await?;
    Ok(*count)
}

pub(super) fn query_of(
    params: &PackageListParams,
    visible: Option<Visible>,
) -> ServiceResult<PackageQuery> {
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
    read: Option<crate::domain::user::DataVersionRead>,
    user: &User,
    params: &PackageListParams,
) -> ServiceResult<Arc<Answer>> {
    let stamp = answers.stamp_of_request(db, read).await?;
    admin_answer_at(db, answers, stamp, user, params).await
}

/// [`admin_answer`] under a stamp the request read already.
pub async fn admin_answer_at(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    user: &User,
    params: &PackageListParams,
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
    let roles = roles_key(user);
    let key = format!("admin-list|{stamp}|{roles}|{params:?}");
    answers
        .answer(
            key,
            Box::pin(async {
                let query = query_of(&params, None)?;
                let (count, ids) = page_ids(db, answers, stamp, &query, &params).await?;
                let now = Utc::now();
                spliced_page(
                    db,
                    answers,
                    stamp,
                    &ids,
                    |id| format!("admin-package|{stamp}|{roles}|{id}"),
                    |package| view_of(user, package, now),
                    count,
                    &None,
                )
                .await
            }),
        )
        .await
}

/// Every provider's id, kept under the stamp (what the admin list's filter may name).
pub(super) async fn provider_ids_at(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
) -> ServiceResult<Arc<Vec<i64>>> {
    answers
        .value(format!("provider-ids|{stamp}"), async {
            Ok(db::marketing::providers::list_all(db)
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
            let (version, visits) =
                db::catalog::visits::get_with_data_version(db, &user.subject).await?;
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
    params: &PackageListParams,
) -> ServiceResult<Arc<Answer>> {
    let view = CustomerView::of(db, answers, user, false).await?;
    let params = customer_params(db, answers, &view, user, params).await?;
    answers
        .answer(
            view.key("customer-list", &params),
            // Boxed: the future is large, and unoptimised builds run tests on small stacks.
            Box::pin(customer_page_json(db, answers, &view, user, &params)),
        )
        .await
}

/// The customer list's parameters with filters only of providers the user sees and of tags
/// that exist ([`PackageListParams::within`]); what [`customer_page`] takes.
pub async fn customer_params(
    db: &Db,
    answers: &Answers,
    view: &CustomerView,
    user: &User,
    params: &PackageListParams,
) -> ServiceResult<PackageListParams> {
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
    params: &PackageListParams,
) -> ServiceResult<PackagePage> {
    let rows = Box::pin(customer_rows(db, answers, view, user, params)).await?;
    let packages = packages_kept(db, answers, view.stamp, &rows.ids).await?;
    Ok(PackagePage {
        content: packages
            .into_iter()
            .map(|package| rows.view_of(user, package))
            .collect(),
        count: rows.count,
        new_since_visit: rows.new_since_visit,
    })
}

/// [`customer_page`] as its JSON, spliced from the JSON of each package as this viewer sees
/// it, kept under the viewer's key: a page of a question nobody asked before builds and
/// serialises only the packages this viewer has not been shown since the last change (most of
/// a dealer page's time was building and serialising its 40 packages, issue 41). Its entity
/// tag is made from the packages' digests, not from the whole body.
async fn customer_page_json(
    db: &Db,
    answers: &Answers,
    view: &CustomerView,
    user: &User,
    params: &PackageListParams,
) -> ServiceResult<Answer> {
    let rows = Box::pin(customer_rows(db, answers, view, user, params)).await?;
    spliced_page(
        db,
        answers,
        view.stamp,
        &rows.ids,
        |id| view.key("customer-package", id),
        |package| rows.view_of(user, package),
        rows.count,
        &rows.new_since_visit,
    )
    .await
}

/// The JSON of a [`PackagePage`] of the packages `ids` (in this order), spliced from the JSON
/// of each as `view` shows it, kept under `key`: only the packages not kept are read, built
/// and serialised. The entity tag is made from the packages' digests and the rest.
#[allow(clippy::too_many_arguments)]
async fn spliced_page(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    ids: &[i64],
    key: impl Fn(&i64) -> String,
    view: impl Fn(db::catalog::packages::Package) -> PackageView,
    count: i64,
    new_since_visit: &Option<NewSinceVisit>,
) -> ServiceResult<Answer> {
    let keys: Vec<String> = ids.iter().map(&key).collect();
    let mut parts = answers.kept_values::<PackageJson>(&keys).await;
    let missing: Vec<i64> = ids
        .iter()
        .zip(&parts)
        .filter(|(_, part)| part.is_none())
        .map(|(id, _)| *id)
        .collect();
    for package in packages_kept(db, answers, stamp, &missing).await? {
        let id = package.download.id;
        let part = PackageJson::of(&view(package))?;
        let part = answers.keep_value(&key(&id), part).await;
        for (_, slot) in ids.iter().zip(&mut parts).filter(|(i, _)| **i == id) {
            *slot = Some(part.clone());
        }
    }
    // A package gone between the page's ids and its reading is left out, as in the
    // structured page.
    let parts: Vec<Arc<PackageJson>> = parts.into_iter().flatten().collect();
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct AfterContent<'a> {
        count: i64,
        new_since_visit: &'a Option<NewSinceVisit>,
    }
    let after = serde_json::to_vec(&AfterContent {
        count,
        new_since_visit,
    })
    .map_err(ServiceError::internal)?;
    let length: usize = parts.iter().map(|p| p.json.get().len() + 1).sum();
    let mut body = Vec::with_capacity(length + after.len() + 16);
    let mut digest = Sha256::new();
    body.extend_from_slice(b"{\"content\":[");
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(part.json.get().as_bytes());
        digest.update(part.digest);
    }
    // `{"count":…}` continues the object after the list.
    body.extend_from_slice(b"],");
    body.extend_from_slice(after.get(1..).unwrap_or_default());
    digest.update(&after);
    Ok(Answer::with_digest(body, &digest.finalize()))
}

/// One package of the customer's list as JSON, with the digest of that text.
#[derive(Serialize)]
struct PackageJson {
    json: Box<serde_json::value::RawValue>,
    #[serde(skip)]
    digest: [u8; 16],
}

impl PackageJson {
    fn of(view: &PackageView) -> ServiceResult<PackageJson> {
        let json = serde_json::value::to_raw_value(view).map_err(ServiceError::internal)?;
        let mut digest = [0; 16];
        digest.copy_from_slice(&Sha256::digest(json.get().as_bytes())[..16]);
        Ok(PackageJson { json, digest })
    }
}

/// What the customer's list shows besides its packages, and the ids of the page's packages.
struct CustomerRows {
    count: i64,
    ids: Vec<i64>,
    /// The lists of the viewer's customer number; `None` when the viewer sees every package.
    own_lists: Option<Vec<i64>>,
    previous: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
    new_since_visit: Option<NewSinceVisit>,
}

impl CustomerRows {
    /// `package` as this viewer is shown it.
    fn view_of(&self, user: &User, package: db::catalog::packages::Package) -> PackageView {
        let mut view = view_of(user, package, self.now);
        if let Some(own_lists) = &self.own_lists {
            for_customer(&mut view, own_lists);
        }
        if let Some(since) = self.previous {
            mark_new_since(&mut view, since, self.now);
        }
        view
    }
}

async fn customer_rows(
    db: &Db,
    answers: &Answers,
    view: &CustomerView,
    user: &User,
    params: &PackageListParams,
) -> ServiceResult<CustomerRows> {
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
    let (total, ids) = page_ids(db, answers, stamp, &query, params).await?;
    let new_since_visit = match previous {
        Some(since) => {
            let new = PackageQuery {
                visible,
                archived: Some(false),
                new_since: Some((since, now)),
                ..PackageQuery::default()
            };
            Some(NewSinceVisit {
                since,
                count: count(db, answers, stamp, &new).await?,
            })
        }
        None => None,
    };
    Ok(CustomerRows {
        count: total,
        ids,
        own_lists,
        previous,
        now,
        new_since_visit,
    })
}

/// Marks what is new since `since` (the rule of the `newSinceVisit` filter).
pub(super) fn mark_new_since(view: &mut PackageView, since: DateTime<Utc>, now: DateTime<Utc>) {
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
pub(super) fn for_customer(view: &mut PackageView, own_lists: &[i64]) {
    if view.may_manage {
        return;
    }
    view.provider.allowed_roles.clear();
    view.lists.retain(|list| own_lists.contains(&list.id));
    view.lists_ids.retain(|id| own_lists.contains(id));
}

/// How many packages match `query`, and the ids of the page `params` asks for, in order.
async fn page_ids(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    query: &PackageQuery,
    params: &PackageListParams,
) -> ServiceResult<(i64, Vec<i64>)> {
    let count = count(db, answers, stamp, query).await?;
    let ids = if count <= params.offset {
        Vec::new()
    } else if count <= KEEP_ORDER_UP_TO {
        let ids = ordered_ids(db, answers, stamp, query).await?;
        ids.iter()
            .skip(usize::try_from(params.offset).unwrap_or(usize::MAX))
            .take(usize::try_from(params.limit).unwrap_or(0))
            .copied()
            .collect()
    } else {
        let after = bookmark_before(db, answers, stamp, query, params.offset).await?;
        let (after, offset) = match &after {
            Some(mark) => (Some(mark), params.offset - mark.position - 1),
            None => (None, params.offset),
        };
        db::catalog::packages::page_ids_after(db, query, after, params.limit, offset).await?
    };
    Ok((count, ids))
}

/// The packages with these ids, in this order, each kept under the stamp: a package is the
/// same in every list that shows it, so a page of a question nobody asked before reads only
/// the packages no list has shown since the last change (in one query).
async fn packages_kept(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    ids: &[i64],
) -> ServiceResult<Vec<db::catalog::packages::Package>> {
    let key = |id: i64| format!("package|{stamp}|{id}");
    let keys: Vec<String> = ids.iter().map(|id| key(*id)).collect();
    let kept = answers
        .kept_values::<db::catalog::packages::Package>(&keys)
        .await;
    let missing: Vec<i64> = ids
        .iter()
        .zip(&kept)
        .filter(|(_, kept)| kept.is_none())
        .map(|(id, _)| *id)
        .collect();
    let mut read = std::collections::HashMap::new();
    for package in db::catalog::packages::packages_by_ids(db, &missing).await? {
        let id = package.download.id;
        read.insert(id, answers.keep_value(&key(id), package).await);
    }
    Ok(ids
        .iter()
        .zip(kept)
        .filter_map(|(id, kept)| kept.or_else(|| read.get(id).cloned()))
        .map(|package| (*package).clone())
        .collect())
}

/// A list of at most this many packages (a customer's, a search's) is read in its order once,
/// ids only, and kept under the stamp: every page of it is then a slice, whatever its size and
/// offset, and only the page's packages are read.
const KEEP_ORDER_UP_TO: i64 = 2_000;

/// The ids of the list `query` gives, in its order (at most [`KEEP_ORDER_UP_TO`]), kept under
/// the stamp.
async fn ordered_ids(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    query: &PackageQuery,
) -> ServiceResult<Arc<Vec<i64>>> {
    let key = format!("package-order|{stamp}|{}", query.order_key());
    answers
        .value(key, async {
            Ok(db::catalog::packages::page_ids_after(db, query, None, KEEP_ORDER_UP_TO, 0).await?)
        })
        .await
}

/// How many places lie between two [`Bookmark`]s: a deep page reads at most this many index
/// entries before its first package, instead of all before it (18,000 for the admin list's
/// last pages, issue 41).
const BOOKMARK_EVERY: i64 = 500;

/// The bookmark just before the stretch of [`BOOKMARK_EVERY`] places that holds `offset`,
/// `None` for the first places (or an order without bookmarks). Each is read when a page first
/// needs it, from the index, and kept under the stamp like the list's total; from the nearest
/// kept bookmark before it, so that only the first deep page of a list walks the index from
/// its start (on PostgreSQL 3 to 5 ms to place 18,000 of seed-large's 20,000).
async fn bookmark_before(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    query: &PackageQuery,
    offset: i64,
) -> ServiceResult<Option<db::catalog::packages::Bookmark>> {
    if offset < BOOKMARK_EVERY || !db::catalog::packages::has_bookmarks(query) {
        return Ok(None);
    }
    let place = offset / BOOKMARK_EVERY * BOOKMARK_EVERY - 1;
    let order = query.order_key();
    let key = |place: i64| format!("package-bookmark|{stamp}|{order}|{place}");
    let mark = answers
        .value(key(place), async {
            // The kept places before it, nearest first.
            let earlier: Vec<String> = (1..=place / BOOKMARK_EVERY)
                .map(|back| key(place - back * BOOKMARK_EVERY))
                .collect();
            let kept = answers
                .kept_values::<Option<db::catalog::packages::Bookmark>>(&earlier)
                .await;
            let from = kept.iter().flatten().find_map(|mark| (**mark).clone());
            Ok(db::catalog::packages::bookmark_at(db, query, from.as_ref(), place).await?)
        })
        .await?;
    Ok((*mark).clone())
}

/// One package (`GET /api/download/{id}`): for the admin area (staff see all, spec §2), or
/// for a customer who sees it (by [`visibility`], shown as [`for_customer`] shows it);
/// anyone else gets `NotFound`.
pub async fn get(db: &Db, user: &User, id: i64) -> ServiceResult<PackageView> {
    let download = db::catalog::packages::get(db, id)
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
    let package = db::catalog::packages::packages_by_ids(db, &[download.id])
        .await?
        .pop()
        .ok_or(ServiceError::NotFound)?;
    let mut view = view_of(user, package, Utc::now());
    if let Some(own_lists) = own_lists {
        for_customer(&mut view, &own_lists);
    }
    Ok(view)
}

/// All tags (`GET /api/downloads/tags/{optional}`).
pub async fn tags(db: &Db) -> ServiceResult<Vec<Tag>> {
    Ok(db::catalog::tags::list(db).await?)
}

/// [`tags`], kept under the stamp.
pub async fn tags_at(db: &Db, answers: &Answers, stamp: Stamp) -> ServiceResult<Arc<Vec<Tag>>> {
    answers.value(format!("tags|{stamp}"), tags(db)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::large::{FIRST_CUSTOMER_NUMBER, LargeDataSize, seed_large};
    use crate::test_support::TestDb;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A small `seed-large`: three providers of 40 packages, the dealer's company on three
    /// of their lists.
    async fn seeded() -> TestDb {
        seeded_with(LargeDataSize {
            providers: 3,
            lists_per_provider: 4,
            packages_per_provider: 40,
            files_per_package: 2,
            companies: 20,
            contacts: 80,
            dealer_lists: 3,
        })
        .await
    }

    async fn seeded_with(size: LargeDataSize) -> TestDb {
        let t = TestDb::new().await;
        let files = FileStore::new(t.data_dir.join("files")).unwrap();
        seed_large(&t.db, &files, &size).await.unwrap();
        t
    }

    fn user(roles: &[&str], customer_number: Option<i64>) -> User {
        User {
            name: "Test".to_string(),
            customer_number,
            email: "test@example.de".to_string(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
            subject: String::new(),
        }
    }

    /// The customer's list spliced from kept package JSON is, byte for byte, the serialised
    /// [`customer_page`], for a dealer, a provider's manager and an admin, with and without a
    /// previous visit, on random pages, sorts, searches and filters, made anew and from kept
    /// parts (issue 41).
    #[tokio::test]
    async fn the_spliced_customer_list_is_the_serialised_page() {
        let t = seeded().await;
        let answers = Answers::default().keeping_whole(false);
        let users = [
            user(&["GS-Aktionsportal"], Some(FIRST_CUSTOMER_NUMBER)),
            user(
                &["GS-Aktionsportal", "GS-Aktionsportal-BU-Marke-2"],
                Some(FIRST_CUSTOMER_NUMBER),
            ),
            user(&[crate::domain::roles::ADMIN], None),
        ];
        let mut rng = StdRng::seed_from_u64(41);
        let stamp = answers.stamp(&t.db).await.unwrap();
        let (mut compared, mut shown) = (0, 0);
        for round in 0..2 {
            for _ in 0..60 {
                let who = rng.gen_range(0..users.len());
                let previous = rng
                    .gen_bool(0.5)
                    .then(|| Utc::now() - chrono::Duration::days(rng.gen_range(1..120)));
                let view = CustomerView {
                    stamp,
                    previous,
                    key: format!("{who}|{:?}", previous.map(|p| p.timestamp_micros())),
                };
                let query = PackageListQuery {
                    limit: Some(rng.gen_range(1..50)),
                    offset: Some(rng.gen_range(0..130)),
                    sort: Some(["ASC", "DESC"][rng.gen_range(0..2)].to_string()),
                    sort_by: Some(
                        ["name", "startAt", "endAt", "updatedAt", "provider", "id"]
                            [rng.gen_range(0..6)]
                        .to_string(),
                    ),
                    search: rng
                        .gen_bool(0.3)
                        .then(|| format!("Nr. {}", rng.gen_range(0..12))),
                    new_since_visit: rng.gen_bool(0.2).then(|| "true".to_string()),
                    ..PackageListQuery::default()
                };
                let params = query.params().unwrap();
                let user = &users[who];
                let page = customer_page(&t.db, &answers, &view, user, &params)
                    .await
                    .unwrap();
                let spliced = customer_page_json(&t.db, &answers, &view, user, &params)
                    .await
                    .unwrap();
                assert_eq!(
                    String::from_utf8(spliced.body.clone()).unwrap(),
                    serde_json::to_string(&page).unwrap(),
                    "round {round}, {query:?}"
                );
                let again = customer_page_json(&t.db, &answers, &view, user, &params)
                    .await
                    .unwrap();
                assert_eq!(again.etag, spliced.etag, "one answer, one tag");
                compared += 1;
                shown += page.content.len();
            }
        }
        assert!(compared == 120 && shown > 300, "{shown} packages shown");
    }

    /// The admin list spliced from kept package JSON is the serialised page of the same
    /// packages, on random pages, sorts, searches and archive filters (issue 41).
    #[tokio::test]
    async fn the_spliced_admin_list_is_the_serialised_page() {
        let t = seeded().await;
        let answers = Answers::default().keeping_whole(false);
        let users = [
            user(&[crate::domain::roles::ADMIN], None),
            user(&["GS-Aktionsportal-BU-Marke-1"], None),
        ];
        let mut rng = StdRng::seed_from_u64(41);
        let stamp = answers.stamp(&t.db).await.unwrap();
        let mut shown = 0;
        for _ in 0..2 {
            for _ in 0..40 {
                let user = &users[rng.gen_range(0..users.len())];
                let query = PackageListQuery {
                    limit: Some(rng.gen_range(1..40)),
                    offset: Some(rng.gen_range(0..100)),
                    sort: Some(["ASC", "DESC"][rng.gen_range(0..2)].to_string()),
                    sort_by: Some(
                        ["name", "startAt", "endAt", "provider"][rng.gen_range(0..4)].to_string(),
                    ),
                    archived: rng.gen_bool(0.3).then(|| "true".to_string()),
                    search: rng
                        .gen_bool(0.3)
                        .then(|| format!("Nr. {}", rng.gen_range(0..12))),
                    ..PackageListQuery::default()
                };
                let params = query.params().unwrap();
                let plain_query = query_of(&params, None).unwrap();
                let (count, ids) = page_ids(&t.db, &answers, stamp, &plain_query, &params)
                    .await
                    .unwrap();
                let now = Utc::now();
                let mut read: std::collections::HashMap<i64, _> =
                    db::catalog::packages::packages_by_ids(&t.db, &ids)
                        .await
                        .unwrap()
                        .into_iter()
                        .map(|package| (package.download.id, package))
                        .collect();
                let page = PackagePage {
                    content: ids
                        .iter()
                        .map(|id| view_of(user, read.remove(id).unwrap(), now))
                        .collect(),
                    count,
                    new_since_visit: None,
                };
                let spliced = admin_answer_at(&t.db, &answers, stamp, user, &params)
                    .await
                    .unwrap();
                assert_eq!(
                    String::from_utf8(spliced.body.clone()).unwrap(),
                    serde_json::to_string(&page).unwrap(),
                    "{query:?}"
                );
                shown += page.content.len();
            }
        }
        assert!(shown > 200, "{shown} packages shown");
    }

    /// Deep pages sought from bookmarks, each read from the nearest one kept before it, are
    /// the pages the list gives read from its start (issue 41).
    #[tokio::test]
    async fn deep_pages_from_bookmarks_read_from_bookmarks_are_the_plain_pages() {
        let t = seeded_with(LargeDataSize {
            providers: 2,
            lists_per_provider: 1,
            // More than a list whose order is kept whole (`KEEP_ORDER_UP_TO`).
            packages_per_provider: 1_300,
            files_per_package: 1,
            companies: 2,
            contacts: 4,
            dealer_lists: 1,
        })
        .await;
        let answers = Answers::default().keeping_whole(false);
        let stamp = answers.stamp(&t.db).await.unwrap();
        for sort_by in ["startAt", "name", "endAt"] {
            for sort in ["ASC", "DESC"] {
                // The first from the list's start, the others from one kept before them.
                for offset in [1_750, 600, 2_190, 1_100, 1_499, 1_500, 2_000] {
                    let query = PackageListQuery {
                        limit: Some(7),
                        offset: Some(offset),
                        sort: Some(sort.to_string()),
                        sort_by: Some(sort_by.to_string()),
                        ..PackageListQuery::default()
                    };
                    let params = query.params().unwrap();
                    let plain_query = query_of(&params, None).unwrap();
                    let (count, ids) = page_ids(&t.db, &answers, stamp, &plain_query, &params)
                        .await
                        .unwrap();
                    // Those not archived.
                    assert!(count > 2_200, "{count}");
                    let plain =
                        db::catalog::packages::page_ids_after(&t.db, &plain_query, None, 7, offset)
                            .await
                            .unwrap();
                    assert_eq!(ids, plain, "{sort_by} {sort} at {offset}");
                }
            }
        }
    }
}
