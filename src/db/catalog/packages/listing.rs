//! The package lists: the query of the admin and customer lists with who sees what, a page of
//! whole packages read in one query (files, tags, lists and provider as JSON aggregates), the
//! total, and the next start or end of a package.

use super::*;
use crate::db::trigrams::{self, SearchTable};

/// Which packages a list shows.
#[derive(Clone, Debug, Default)]
pub struct PackageQuery {
    /// `None`: every package. `Some`: only packages of these providers, or offered to one of
    /// these lists.
    pub visible: Option<Visible>,
    /// Archived packages only (`Some(true)`), only those not archived (`Some(false)`), or
    /// both (`None`).
    pub archived: Option<bool>,
    /// Part of the package name (or, with `search_files`, of a file name), any letter case.
    pub search: Option<String>,
    pub search_files: bool,
    pub provider_ids: Option<Vec<i64>>,
    /// Packages with at least one file carrying one of these tags.
    pub tag_ids: Option<Vec<i64>>,
    /// (since, now): packages that started in between, or have a file added or changed
    /// since (a customer's "new since the last visit").
    pub new_since: Option<(DateTime<Utc>, DateTime<Utc>)>,
    pub sort: Option<SortColumn>,
    pub ascending: bool,
}

impl PackageQuery {
    /// What the list's order depends on (the count's key, the sort and its direction), as a key.
    pub fn order_key(&self) -> String {
        format!("{}|{:?}|{}", self.count_key(), self.sort, self.ascending)
    }

    /// What the count depends on (not the sort), as a key.
    pub fn count_key(&self) -> String {
        format!(
            "{:?}|{:?}|{:?}|{}|{:?}|{:?}|{:?}",
            self.visible
                .as_ref()
                .map(|v| (&v.provider_ids, &v.list_ids)),
            self.archived,
            self.search,
            self.search_files,
            self.provider_ids,
            self.tag_ids,
            self.new_since.map(|(since, _)| since)
        )
    }
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Visible {
    pub provider_ids: Vec<i64>,
    pub list_ids: Vec<i64>,
}

/// The `where` clause of a package query (without the word `where`), or `None` when nothing
/// can match.
pub(super) fn conditions(query: &mut DynQuery, filter: &PackageQuery, db: &Db) -> Option<String> {
    let search = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    // SQLite's trigram tables (migration 0026, `db::sql::trigram_pattern`): their `like` is the plain
    // query's own test (SQLite's `lower()` and `like` both fold ASCII letters only), so the
    // answer is the same. PostgreSQL's trigram indexes (migration 0014) serve the plain
    // condition itself.
    let table = if filter.search_files {
        SearchTable::PackageFiles
    } else {
        SearchTable::PackageNames
    };
    let trigram = search
        .filter(|_| db.backend() == Backend::Sqlite)
        .and_then(crate::db::sql::trigram_pattern)
        .filter(|pattern| !common_in_visible(db, filter, table, pattern));
    let mut parts: Vec<String> = Vec::new();
    if let Some(archived) = filter.archived {
        let archived = query.param(archived);
        parts.push(format!("d.archived = {archived}"));
    }
    if let Some(visible) = &filter.visible {
        let mut alternatives: Vec<String> = Vec::new();
        if !visible.provider_ids.is_empty() {
            alternatives.push(format!(
                "d.provider_id in {}",
                query.id_list(&visible.provider_ids)
            ));
        }
        if !visible.list_ids.is_empty() {
            let lists = query.id_list(&visible.list_ids);
            if trigram.is_some() {
                // Probed per candidate of the search, which then leads: a few packages, not
                // the hundreds a customer's lists offer.
                alternatives.push(format!(
                    "exists (select 1 from download_lists dl where dl.download_id = d.id \
                     and dl.list_id in {lists})"
                ));
            } else {
                // Driven by the lists (indexed on list_id): the few packages they offer, not a
                // probe per package.
                alternatives.push(format!(
                    "d.id in (select dl.download_id from download_lists dl where dl.list_id in {lists})"
                ));
            }
        }
        if alternatives.is_empty() {
            return None;
        }
        parts.push(format!("({})", alternatives.join(" or ")));
    }
    if let Some(ids) = &filter.provider_ids {
        if ids.is_empty() {
            return None;
        }
        parts.push(format!("d.provider_id in {}", query.id_list(ids)));
    }
    if let Some(ids) = &filter.tag_ids {
        if ids.is_empty() {
            return None;
        }
        parts.push(format!(
            "d.id in (select t.download_id from download_upload_tags t where t.tag_id in {})",
            query.id_list(ids)
        ));
    }
    if let Some((since, now)) = filter.new_since {
        let (since, now) = (query.param(since), query.param(now));
        parts.push(format!(
            "((d.start_at > {since} and d.start_at <= {now}) or exists \
             (select 1 from download_uploads du where du.download_id = d.id \
             and du.updated_at > {since}))"
        ));
    }
    if let Some(pattern) = trigram {
        let pattern = query.param(pattern);
        parts.push(format!(
            "d.id in (select rowid from {} where text like {pattern})",
            table.name()
        ));
    } else if let Some(term) = search {
        let pattern = query.param(crate::db::sql::like_pattern(term));
        if filter.search_files {
            // Probed per package (by the primary key's download_id): a customer's few visible
            // packages are checked, not every file name of the portal gathered first.
            parts.push(format!(
                "exists (select 1 from download_uploads du where du.download_id = d.id \
                 and lower(du.name) like {pattern} escape '\\')"
            ));
        } else {
            parts.push(format!("lower(d.name) like {pattern} escape '\\'"));
        }
    }
    if parts.is_empty() {
        parts.push("1 = 1".into());
    }
    Some(parts.join(" and "))
}

/// A term in this many packages, or in a tenth of all, is common: the trigram table would hand
/// over more candidates than a customer's or provider's list holds (about 20,000 for "Aktion"
/// or "flyer" on `seed-large`, against a few hundred a dealer sees). Such a list checks the
/// term in its own packages, as for a term of two characters. Admins' lists (every package)
/// keep the trigram table.
const COMMON_IN_PACKAGES: f64 = 1_000.0;

/// Whether `filter` is a list limited to what someone sees, and `pattern` (`%term%`) is common
/// in `table` (see [`COMMON_IN_PACKAGES`]).
fn common_in_visible(db: &Db, filter: &PackageQuery, table: SearchTable, pattern: &str) -> bool {
    filter.visible.is_some()
        && trigrams::expected_rows(db, table, pattern.trim_matches('%'))
            .is_some_and(|(holding, all)| holding >= COMMON_IN_PACKAGES.min(all / 10.0))
}

/// A package with everything its views show, read in one query (files, tags, lists and
/// the provider come as JSON aggregates, so a page of 20 packages is 20 rows).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Package {
    pub download: PackageRecord,
    pub provider_name: String,
    pub provider_roles: Vec<String>,
    /// The provider's logo: upload id and name.
    pub logo: Option<(i64, String)>,
    /// In the package's order.
    pub files: Vec<PackageEntry>,
    /// By name.
    pub lists: Vec<ListEntry>,
}

/// A file of a [`Package`].
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
pub struct PackageEntry {
    #[serde(rename = "id")]
    pub upload_id: i64,
    pub name: String,
    pub ext: String,
    pub size: i64,
    #[serde(rename = "type")]
    pub content_type: String,
    #[serde(rename = "created")]
    pub created_at: DateTime<Utc>,
    #[serde(rename = "updated")]
    pub updated_at: DateTime<Utc>,
    /// The file's tags in this package.
    #[serde(default)]
    pub tags: Vec<i64>,
    /// The thumbnail's size in pixels, when the file's content has previews.
    #[serde(rename = "pw", default)]
    pub preview_width: Option<i32>,
    #[serde(rename = "ph", default)]
    pub preview_height: Option<i32>,
}

/// A list of a [`Package`].
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
pub struct ListEntry {
    pub id: i64,
    pub name: String,
    #[serde(deserialize_with = "bool_or_number")]
    pub active: bool,
}

/// SQLite's JSON writes booleans as 0 and 1, PostgreSQL's as false and true.
pub(super) fn bool_or_number<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<bool, D::Error> {
    match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Bool(b) => Ok(b),
        serde_json::Value::Number(n) => Ok(n.as_i64() != Some(0)),
        other => Err(serde::de::Error::custom(format!("not a boolean: {other}"))),
    }
}

#[derive(sqlx::FromRow)]
pub(super) struct PackageRow {
    id: i64,
    provider_id: i64,
    name: String,
    start_at: DateTime<Utc>,
    end_at: DateTime<Utc>,
    archived: bool,
    archived_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    provider_name: String,
    logo_id: Option<i64>,
    logo_name: Option<String>,
    roles: Option<String>,
    files: Option<String>,
    /// [upload id, tag id] pairs.
    tags: Option<String>,
    lists: Option<String>,
}

/// The `select … from …` of packages with their provider, files, tags and lists as JSON
/// aggregates: a page of 20 packages is 20 rows, not one per package, file, tag and list.
/// The JSON functions are the only part that differs between the databases.
pub(super) fn package_select(backend: Backend) -> String {
    let (array, object, pair) = match backend {
        Backend::Sqlite => ("json_group_array", "json_object", "json_array"),
        Backend::Postgres => ("json_agg", "json_build_object", "json_build_array"),
    };
    // Tags come per package as [upload, tag] pairs: a nested aggregate per file cost three
    // times as much.
    format!(
        "select {columns}, p.name as provider_name, p.upload_id as logo_id, lu.name as logo_name, \
         cast((select {array}(pr.role order by pr.role) from provider_roles pr \
               where pr.provider_id = d.provider_id) as text) as roles, \
         cast((select {array}({object}('id', du.upload_id, 'name', du.name, 'ext', u.ext, \
                 'size', u.size, 'type', u.content_type, 'created', u.created_at, \
                 'updated', du.updated_at, 'pw', pv.thumb_width, 'ph', pv.thumb_height) \
                 order by du.position, du.upload_id) \
               from download_uploads du join uploads u on u.id = du.upload_id \
               left join previews pv on pv.sha256 = u.sha256 and pv.state = 'ready' \
               where du.download_id = d.id) as text) as files, \
         cast((select {array}({pair}(t.upload_id, t.tag_id) order by t.upload_id, t.tag_id) \
               from download_upload_tags t where t.download_id = d.id) as text) as tags, \
         cast((select {array}({object}('id', l.id, 'name', l.name, 'active', l.active) order by l.name, l.id) \
               from download_lists dl join lists l on l.id = dl.list_id \
               where dl.download_id = d.id) as text) as lists \
         from downloads d join providers p on p.id = d.provider_id \
         left join uploads lu on lu.id = p.upload_id",
        columns = download_columns!()
    )
}

pub(super) fn parse_json<T: serde::de::DeserializeOwned>(
    text: Option<&str>,
    what: &str,
) -> Result<Vec<T>, sqlx::Error> {
    match text {
        None => Ok(Vec::new()),
        Some(text) => serde_json::from_str::<Option<Vec<T>>>(text)
            .map(Option::unwrap_or_default)
            .map_err(|e| sqlx::Error::Decode(format!("{what} of a package: {e}").into())),
    }
}

impl TryFrom<PackageRow> for Package {
    type Error = sqlx::Error;

    fn try_from(row: PackageRow) -> Result<Package, sqlx::Error> {
        let mut files: Vec<PackageEntry> = parse_json(row.files.as_deref(), "files")?;
        let tags: Vec<(i64, i64)> = parse_json(row.tags.as_deref(), "tags")?;
        for file in &mut files {
            file.tags = tags
                .iter()
                .filter(|(upload, _)| *upload == file.upload_id)
                .map(|(_, tag)| *tag)
                .collect();
        }
        Ok(Package {
            provider_roles: parse_json(row.roles.as_deref(), "roles")?,
            files,
            lists: parse_json(row.lists.as_deref(), "lists")?,
            logo: row.logo_id.zip(row.logo_name),
            provider_name: row.provider_name,
            download: PackageRecord {
                id: row.id,
                provider_id: row.provider_id,
                name: row.name,
                start_at: row.start_at,
                end_at: row.end_at,
                archived: row.archived,
                archived_at: row.archived_at,
                created_at: row.created_at,
                updated_at: row.updated_at,
            },
        })
    }
}

pub(super) fn packages_from(rows: Vec<PackageRow>) -> Result<Vec<Package>, sqlx::Error> {
    rows.into_iter().map(Package::try_from).collect()
}

/// The packages with these ids, with everything their views show (any order).
pub async fn packages_by_ids(db: &Db, ids: &[i64]) -> Result<Vec<Package>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::list(&package_select(db.backend()));
    let wanted = query.one_of("d.id", ids, db.backend());
    query.push(" where ").push(&wanted);
    packages_from(query.fetch_all(db).await?)
}

/// How many packages match.
pub async fn count_matching(db: &Db, filter: &PackageQuery) -> Result<i64, sqlx::Error> {
    let mut count = DynQuery::list("select count(*) from downloads d where ");
    let Some(condition) = conditions(&mut count, filter, db) else {
        return Ok(0);
    };
    count.push(&condition);
    count.fetch_count(db).await
}

/// The list's order: the sort expression and the direction.
fn order_of(filter: &PackageQuery) -> (&'static str, &'static str) {
    let direction = if filter.ascending { "asc" } else { "desc" };
    let column = match filter.sort.unwrap_or(SortColumn::Id) {
        SortColumn::Id => "d.id",
        SortColumn::Provider => "lower(p.name)",
        SortColumn::Name => "lower(d.name)",
        SortColumn::StartAt => "d.start_at",
        SortColumn::EndAt => "d.end_at",
        SortColumn::UpdatedAt => "d.updated_at",
    };
    (column, direction)
}

/// The `order by` of the list (the id breaks ties, in the same direction).
fn order_by(filter: &PackageQuery) -> String {
    match order_of(filter) {
        ("d.id", direction) => format!(" order by d.id {direction}"),
        (column, direction) => format!(" order by {column} {direction}, d.id {direction}"),
    }
}

/// A place in a sorted list: the sort key and id of the package at a position. A deep page
/// starts from the nearest one before it (an index seek) instead of skipping every package
/// before it, one by one.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Bookmark {
    /// The package's position in the list, from 0.
    pub position: i64,
    key: BookmarkKey,
    id: i64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
enum BookmarkKey {
    Id,
    Time(DateTime<Utc>),
    Text(String),
}

/// Whether the list's order can be sought by [`Bookmark`]s: one table, an indexed key.
pub fn has_bookmarks(filter: &PackageQuery) -> bool {
    filter.sort != Some(SortColumn::Provider)
}

/// The place `position` (from 0) of the list, `None` beyond its end: read from the index,
/// skipping the places before it (1.2 ms for place 17,999 of 20,000 on SQLite), or only those
/// after `from`, a bookmark before it; without the window function that numbering every place
/// took (20 ms, issue 41).
pub async fn bookmark_at(
    db: &Db,
    filter: &PackageQuery,
    from: Option<&Bookmark>,
    position: i64,
) -> Result<Option<Bookmark>, sqlx::Error> {
    let skipped = position - from.map_or(0, |from| from.position + 1);
    if !has_bookmarks(filter) || position < 0 || skipped < 0 {
        return Ok(None);
    }
    let (column, _) = order_of(filter);
    let sort = filter.sort.unwrap_or(SortColumn::Id);
    // The key as text and the id. SQLite stores times as text: the bookmark keeps that text
    // and compares it as the sort does. PostgreSQL writes a time as text that reads back as
    // the same instant.
    let key = match sort {
        SortColumn::Id => "''".to_string(),
        _ => format!("cast({column} as text)"),
    };
    let mut select = DynQuery::list(&format!("select {key}, d.id from downloads d where "));
    let Some(condition) = conditions(&mut select, filter, db) else {
        return Ok(None);
    };
    select.push(&condition);
    if let Some(from) = from {
        push_seek(&mut select, filter, from);
    }
    let offset = select.param(skipped);
    select.push(&format!("{} limit 1 offset {offset}", order_by(filter)));
    let rows: Vec<(String, i64)> = select.fetch_all(db).await?;
    let Some((key, id)) = rows.into_iter().next() else {
        return Ok(None);
    };
    let key = match sort {
        SortColumn::Id => BookmarkKey::Id,
        _ if db.backend() == Backend::Sqlite || sort == SortColumn::Name => BookmarkKey::Text(key),
        _ => BookmarkKey::Time(parse_time(&key)?),
    };
    Ok(Some(Bookmark { position, key, id }))
}

/// A time as either database writes it as text.
fn parse_time(text: &str) -> Result<DateTime<Utc>, sqlx::Error> {
    DateTime::parse_from_rfc3339(text)
        .or_else(|_| DateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f%#z"))
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| sqlx::Error::Decode(format!("time of a bookmark „{text}“: {e}").into()))
}

/// The ids of a page of the list that starts `offset` places after `after` (a [`Bookmark`] of
/// the same list) or after the list's start, in the list's order, from the indexes alone: the
/// packages themselves are read by id afterwards ([`packages_by_ids`]). In one query with the
/// page the database built the JSON of every package it skipped or sorted, 18,000 of them for
/// a deep page (issue 41).
pub async fn page_ids_after(
    db: &Db,
    filter: &PackageQuery,
    after: Option<&Bookmark>,
    limit: i64,
    offset: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    let sort = filter.sort.unwrap_or(SortColumn::Id);
    let mut select = DynQuery::list(if sort == SortColumn::Provider {
        "select d.id from downloads d join providers p on p.id = d.provider_id where "
    } else {
        "select d.id from downloads d where "
    });
    let Some(condition) = conditions(&mut select, filter, db) else {
        return Ok(Vec::new());
    };
    select.push(&condition);
    if let Some(after) = after {
        push_seek(&mut select, filter, after);
    }
    let limit = select.param(limit);
    let offset = select.param(offset);
    select.push(&format!(
        "{} limit {limit} offset {offset}",
        order_by(filter)
    ));
    select.fetch_ids(db).await
}

/// Adds to `select` (after the list's conditions) that only places after `after` count.
fn push_seek(select: &mut DynQuery, filter: &PackageQuery, after: &Bookmark) {
    let (column, _) = order_of(filter);
    let beyond = if filter.ascending { ">" } else { "<" };
    let id = select.param(after.id);
    let key = match &after.key {
        BookmarkKey::Id => {
            select.push(&format!(" and d.id {beyond} {id}"));
            return;
        }
        BookmarkKey::Time(time) => select.param(*time),
        BookmarkKey::Text(text) => select.param(text.clone()),
    };
    select.push(&format!(" and ({column}, d.id) {beyond} ({key}, {id})"));
}

/// The first start or end of a package after `now` (`None`: none lies ahead): from then on a
/// list may show something else (a badge, what is new since a visit) without any change to the
/// data. Both columns are indexed, so this is two index lookups.
pub async fn next_period_change(
    db: &Db,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, (Option<DateTime<Utc>>, Option<DateTime<Utc>>)>(
            "select (select min(start_at) from downloads where start_at > $1), \
             (select min(end_at) from downloads where end_at > $1)",
        )
        .bind(now)
        .fetch_one(pool)
        .await
        .map(|(start, end)| match (start, end) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    })
}

#[cfg(test)]
mod tests {
    //! The fast paths (ids first from the indexes, SQLite's trigram tables, PostgreSQL's trigram
    //! indexes) against a plain reading: every package loaded and filtered, sorted and paged in
    //! Rust, for random questions on random packages.
    use super::*;
    use crate::test_support::TestDb;
    use chrono::TimeZone;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// What names are made of: ASCII in either letter case, lower-case umlauts (SQLite's
    /// `lower()` folds ASCII only, so only these answer alike on both databases), repeated
    /// words and the wildcard characters of `like`.
    const WORDS: &[&str] = &[
        "Aktion",
        "FLYER",
        "Nr.",
        "süd",
        "Glasfaser",
        "50%",
        "a_b",
        "back\\slash",
        "mai",
        "x",
        "Nr. 01234",
        "nr. 0123",
        "Plakat",
        "grün",
    ];

    fn name(rng: &mut StdRng) -> String {
        let words: Vec<&str> = (0..rng.gen_range(1..4))
            .map(|_| WORDS[rng.gen_range(0..WORDS.len())])
            .collect();
        words.join(" ")
    }

    /// A term as a user types it: a piece of a name, in a random letter case, or a word.
    fn term(rng: &mut StdRng) -> String {
        let source = name(rng);
        let chars: Vec<char> = source.chars().collect();
        let start = rng.gen_range(0..chars.len());
        let end = rng.gen_range(start + 1..=chars.len());
        let piece: String = chars[start..end].iter().collect();
        if rng.gen_bool(0.5) {
            piece.to_ascii_uppercase()
        } else {
            piece
        }
    }

    struct Row {
        id: i64,
        provider_id: i64,
        provider_name: String,
        name: String,
        start_at: DateTime<Utc>,
        end_at: DateTime<Utc>,
        updated_at: DateTime<Utc>,
        archived: bool,
        files: Vec<String>,
        lists: Vec<i64>,
    }

    async fn execute(db: &Db, sql: &str, binds: Vec<crate::db::sql::Param>) {
        let mut query = DynQuery::new(sql);
        for bind in binds {
            query.param(bind);
        }
        let _: Vec<(i64,)> = query.fetch_all(db).await.expect(sql);
    }

    async fn seed(db: &Db, rng: &mut StdRng) -> Vec<Row> {
        let day =
            |n: i64| Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + chrono::Duration::days(n);
        let mut rows = Vec::new();
        for provider in 1..=3_i64 {
            let provider_name = ["Beta", "alpha", "Gamma"][provider as usize - 1];
            execute(
                db,
                "insert into providers (id, name, created_at, updated_at) values ($1, $2, $3, $3) returning id",
                vec![provider.into(), provider_name.to_string().into(), day(0).into()],
            )
            .await;
            execute(
                db,
                "insert into lists (id, provider_id, name, created_at, updated_at) values ($1, $2, $3, $4, $4) returning id",
                vec![provider.into(), provider.into(), format!("Liste {provider}").into(), day(0).into()],
            )
            .await;
        }
        for id in 1..=160_i64 {
            let provider_id = rng.gen_range(1..=3_i64);
            // Few distinct dates, so the sort's ties are broken by the id.
            let start = rng.gen_range(0..20);
            let row = Row {
                id,
                provider_id,
                provider_name: ["Beta", "alpha", "Gamma"][provider_id as usize - 1].to_string(),
                name: name(rng),
                start_at: day(start),
                end_at: day(start + rng.gen_range(0..5)),
                updated_at: day(rng.gen_range(0..3)),
                archived: rng.gen_bool(0.3),
                files: (0..rng.gen_range(0..4)).map(|_| name(rng)).collect(),
                lists: (1..=3).filter(|_| rng.gen_bool(0.3)).collect(),
            };
            execute(
                db,
                "insert into downloads (id, provider_id, name, start_at, end_at, archived, \
                 created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $7) returning id",
                vec![
                    id.into(),
                    provider_id.into(),
                    row.name.clone().into(),
                    row.start_at.into(),
                    row.end_at.into(),
                    row.archived.into(),
                    row.updated_at.into(),
                ],
            )
            .await;
            for (position, file) in row.files.iter().enumerate() {
                let upload = id * 10 + position as i64;
                execute(
                    db,
                    "insert into uploads (id, name, storage_key, ext, size, content_type, \
                     created_at, updated_at) values ($1, $2, $3, 'pdf', 1, 'application/pdf', $4, $4) returning id",
                    vec![upload.into(), file.clone().into(), format!("k/{upload}").into(), day(0).into()],
                )
                .await;
                execute(
                    db,
                    "insert into download_uploads (download_id, upload_id, position, name, \
                     created_at, updated_at) values ($1, $2, $3, $4, $5, $5) returning download_id",
                    vec![
                        id.into(),
                        upload.into(),
                        (position as i64).into(),
                        file.clone().into(),
                        day(0).into(),
                    ],
                )
                .await;
            }
            for list in &row.lists {
                execute(
                    db,
                    "insert into download_lists (download_id, list_id, created_at, updated_at) \
                     values ($1, $2, $3, $3) returning download_id",
                    vec![id.into(), (*list).into(), day(0).into()],
                )
                .await;
            }
            rows.push(row);
        }
        // A renamed package and a renamed and a removed file keep the trigram tables current.
        execute(
            db,
            "update downloads set name = 'Umbenannt Nr. 0999' where id = 1 returning id",
            vec![],
        )
        .await;
        rows[0].name = "Umbenannt Nr. 0999".into();
        execute(
            db,
            "delete from downloads where id = 2 returning id",
            vec![],
        )
        .await;
        rows.remove(1);
        rows
    }

    /// The plain answer: (ids of the page, count).
    fn plain(rows: &[Row], query: &PackageQuery, limit: usize, offset: usize) -> (Vec<i64>, i64) {
        let contains = |text: &str, term: &str| text.to_lowercase().contains(&term.to_lowercase());
        let mut matching: Vec<&Row> = rows
            .iter()
            .filter(|r| query.archived.is_none_or(|a| r.archived == a))
            .filter(|r| {
                query.visible.as_ref().is_none_or(|v| {
                    v.provider_ids.contains(&r.provider_id)
                        || r.lists.iter().any(|l| v.list_ids.contains(l))
                })
            })
            .filter(|r| {
                query
                    .provider_ids
                    .as_ref()
                    .is_none_or(|p| p.contains(&r.provider_id))
            })
            .filter(|r| {
                match query
                    .search
                    .as_deref()
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                {
                    None => true,
                    Some(term) if query.search_files => r.files.iter().any(|f| contains(f, term)),
                    Some(term) => contains(&r.name, term),
                }
            })
            .collect();
        let key = |r: &Row| -> (String, i64) {
            let text = match query.sort.unwrap_or(SortColumn::Id) {
                SortColumn::Id => String::new(),
                SortColumn::Provider => r.provider_name.to_lowercase(),
                SortColumn::Name => r.name.to_lowercase(),
                SortColumn::StartAt => r.start_at.to_rfc3339(),
                SortColumn::EndAt => r.end_at.to_rfc3339(),
                SortColumn::UpdatedAt => r.updated_at.to_rfc3339(),
            };
            (text, r.id)
        };
        matching.sort_by_key(|r| key(r));
        if !query.ascending {
            matching.reverse();
        }
        let count = matching.len() as i64;
        (
            matching
                .iter()
                .skip(offset)
                .take(limit)
                .map(|r| r.id)
                .collect(),
            count,
        )
    }

    #[tokio::test]
    async fn the_fast_paths_answer_as_a_plain_reading_does() {
        let t = TestDb::new().await;
        let mut rng = StdRng::seed_from_u64(41);
        let rows = seed(&t.db, &mut rng).await;
        let sorts = [
            SortColumn::Id,
            SortColumn::Provider,
            SortColumn::Name,
            SortColumn::StartAt,
            SortColumn::EndAt,
            SortColumn::UpdatedAt,
        ];
        let mut found = 0;
        let mut marked = 0;
        let mut common = 0;
        for round in 0..400 {
            if round == 200 {
                // From here on SQLite knows how common each trigram is: a customer's search
                // with a common term is checked in its own packages.
                for table in [SearchTable::PackageNames, SearchTable::PackageFiles] {
                    crate::db::trigrams::read_now(&t.db, table).await;
                }
            }
            let query = PackageQuery {
                visible: rng.gen_bool(0.3).then(|| Visible {
                    provider_ids: (1..=3).filter(|_| rng.gen_bool(0.3)).collect(),
                    list_ids: (1..=3).filter(|_| rng.gen_bool(0.5)).collect(),
                }),
                archived: [None, Some(false), Some(true)][rng.gen_range(0..3)],
                search: rng.gen_bool(0.7).then(|| term(&mut rng)),
                search_files: rng.gen_bool(0.5),
                provider_ids: rng
                    .gen_bool(0.2)
                    .then(|| (1..=3).filter(|_| rng.gen_bool(0.6)).collect()),
                tag_ids: None,
                new_since: None,
                sort: Some(sorts[rng.gen_range(0..sorts.len())]),
                ascending: rng.gen_bool(0.5),
            };
            let table = if query.search_files {
                SearchTable::PackageFiles
            } else {
                SearchTable::PackageNames
            };
            let pattern = query.search.as_deref().map(str::trim);
            if let Some(pattern) = pattern.and_then(crate::db::sql::trigram_pattern) {
                common += usize::from(common_in_visible(&t.db, &query, table, &pattern));
            }
            let limit = rng.gen_range(1..30_usize);
            let offset = rng.gen_range(0..60_usize);
            let (ids, count) = plain(&rows, &query, limit, offset);
            let got = page_ids_after(&t.db, &query, None, limit as i64, offset as i64)
                .await
                .unwrap();
            assert_eq!(
                got, ids,
                "round {round}: {query:?} limit {limit} offset {offset}"
            );
            let read = packages_by_ids(&t.db, &got).await.unwrap();
            assert_eq!(
                read.len(),
                got.len(),
                "round {round}: every package of the page"
            );
            // The whole list in its order, as a short list is kept.
            let (all, _) = plain(&rows, &query, usize::MAX, 0);
            assert_eq!(
                page_ids_after(&t.db, &query, None, 1_000, 0).await.unwrap(),
                all,
                "round {round}: {query:?}"
            );
            // From the nearest bookmark before the page (one every seven places here).
            let place = offset as i64 / 7 * 7 - 1;
            let mark = bookmark_at(&t.db, &query, None, place).await.unwrap();
            assert_eq!(
                mark.is_some(),
                has_bookmarks(&query) && place >= 0 && place < count,
                "round {round}: {query:?} place {place}"
            );
            if let Some(mark) = mark {
                let rest = offset as i64 - mark.position - 1;
                let sought = page_ids_after(&t.db, &query, Some(&mark), limit as i64, rest)
                    .await
                    .unwrap();
                assert_eq!(sought, ids, "round {round}: {query:?} after {mark:?}");
                marked += 1;
                // The same place read from an earlier bookmark, as when one is kept.
                if mark.position >= 7 {
                    let earlier = bookmark_at(&t.db, &query, None, mark.position / 2)
                        .await
                        .unwrap()
                        .unwrap();
                    let again = bookmark_at(&t.db, &query, Some(&earlier), mark.position)
                        .await
                        .unwrap();
                    assert_eq!(again.as_ref(), Some(&mark), "round {round}: {query:?}");
                }
            }
            assert_eq!(
                count_matching(&t.db, &query).await.unwrap(),
                count,
                "round {round}: {query:?}"
            );
            found += ids.len();
        }
        assert!(found > 500, "the questions found packages: {found}");
        assert!(marked > 50, "pages sought from a bookmark: {marked}");
        if t.db.backend() == Backend::Sqlite {
            assert!(
                common > 10,
                "searches checked in the customer's packages: {common}"
            );
        }
    }
}
