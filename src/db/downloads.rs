//! Download packages (`downloads`), their files (`download_uploads`: the package's own name
//! and position for a stored upload, tags in `download_upload_tags`) and the criteria they are
//! offered to (`download_lists`).

use chrono::{DateTime, Utc};
use serde::Serialize;

use serde::Deserialize;

use super::bulk::link_lists;
use super::sql::DynQuery;
use super::{Backend, Db, audit, dedup_keep_order, now};
use crate::db_run;
use crate::domain::audit::Entry;
use crate::domain::downloads::SortColumn;

macro_rules! download_columns {
    () => {
        "d.id, d.provider_id, d.name, d.start_at, d.end_at, d.archived, d.archived_at, \
         d.created_at, d.updated_at"
    };
}

/// The same columns unqualified, for `returning`.
macro_rules! returned_columns {
    () => {
        "id, provider_id, name, start_at, end_at, archived, archived_at, created_at, updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct PackageRecord {
    pub id: i64,
    pub provider_id: i64,
    pub name: String,
    pub start_at: DateTime<Utc>,
    pub end_at: DateTime<Utc>,
    pub archived: bool,
    pub archived_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A file as a package holds it: the stored upload with the package's name for it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PackageFile {
    pub download_id: i64,
    pub upload_id: i64,
    /// The package's name for the file.
    pub name: String,
    pub position: i32,
    pub ext: String,
    pub size: i64,
    pub content_type: String,
    pub storage_key: String,
    pub sha256: Option<String>,
    pub crc32: Option<i64>,
    pub created_at: DateTime<Utc>,
    /// When the file was added to the package or last renamed or tagged there.
    pub updated_at: DateTime<Utc>,
}

/// A file to put into a package.
#[derive(Debug, Clone)]
pub struct NewFile {
    pub upload_id: i64,
    pub name: String,
    pub tag_ids: Vec<i64>,
}

#[derive(Debug, Clone)]
pub struct NewDownload {
    pub provider_id: i64,
    pub name: String,
    pub start_at: DateTime<Utc>,
    pub end_at: DateTime<Utc>,
    /// In display order; a repeated upload is ignored.
    pub files: Vec<NewFile>,
    pub list_ids: Vec<i64>,
}

/// A file of a package after an edit.
#[derive(Debug, Clone)]
pub struct FileState {
    pub upload_id: i64,
    pub name: String,
    pub tag_ids: Vec<i64>,
    /// New in the package, or renamed or retagged: its `updated_at` becomes now.
    pub changed: bool,
}

/// A package after an edit: every field as it shall be.
#[derive(Debug, Clone)]
pub struct DownloadChange {
    pub name: String,
    pub start_at: DateTime<Utc>,
    pub end_at: DateTime<Utc>,
    /// The package's files in display order; files left out are removed.
    pub files: Vec<FileState>,
    pub list_ids: Vec<i64>,
}

/// Puts the files and lists of package `$id` in place inside an open transaction.
macro_rules! insert_files_and_lists {
    ($tx:expr, $id:expr, $files:expr, $list_ids:expr, $now:expr) => {
        for (position, file) in (0i32..).zip($files) {
            sqlx::query(
                "insert into download_uploads \
                 (download_id, upload_id, position, name, created_at, updated_at) \
                 values ($1, $2, $3, $4, $5, $5)",
            )
            .bind($id)
            .bind(file.upload_id)
            .bind(position)
            .bind(&file.name)
            .bind($now)
            .execute(&mut *$tx)
            .await?;
            for tag_id in dedup_keep_order(&file.tag_ids) {
                sqlx::query(
                    "insert into download_upload_tags \
                     (download_id, upload_id, tag_id, created_at, updated_at) \
                     values ($1, $2, $3, $4, $4)",
                )
                .bind($id)
                .bind(file.upload_id)
                .bind(tag_id)
                .bind($now)
                .execute(&mut *$tx)
                .await?;
            }
        }
        $crate::db::bulk::link_lists!($tx, download $id, $list_ids, $now);
    };
}

fn unique_files(files: &[NewFile]) -> Vec<&NewFile> {
    let mut seen = Vec::with_capacity(files.len());
    files
        .iter()
        .filter(|f| {
            let fresh = !seen.contains(&f.upload_id);
            seen.push(f.upload_id);
            fresh
        })
        .collect()
}

/// Creates the package with its files and lists in one transaction: an unknown provider,
/// upload, tag or list fails with a foreign-key violation and leaves nothing behind. `audit`
/// is written for the new id.
pub async fn create(
    db: &Db,
    new: &NewDownload,
    audit: &Entry,
) -> Result<PackageRecord, sqlx::Error> {
    let now = now();
    let files = unique_files(&new.files);
    let list_ids = dedup_keep_order(&new.list_ids);
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let download = sqlx::query_as::<_, PackageRecord>(concat!(
            "insert into downloads (provider_id, name, start_at, end_at, created_at, updated_at) \
             values ($1, $2, $3, $4, $5, $5) returning ",
            returned_columns!()
        ))
        .bind(new.provider_id)
        .bind(&new.name)
        .bind(new.start_at)
        .bind(new.end_at)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        insert_files_and_lists!(tx, download.id, files.iter().copied(), &list_ids, now);
        audit::record!(tx, &audit.for_id(download.id))?;
        tx.commit().await?;
        Ok(download)
    })
}

/// Applies an edit in one transaction and returns the package and the uploads it no longer
/// holds; `None` when it does not exist. `audit` is written with it.
pub async fn update(
    db: &Db,
    id: i64,
    change: &DownloadChange,
    audit: &Entry,
) -> Result<Option<(PackageRecord, Vec<i64>)>, sqlx::Error> {
    let now = now();
    let list_ids = dedup_keep_order(&change.list_ids);
    let mut seen: Vec<i64> = Vec::new();
    let files: Vec<&FileState> = change
        .files
        .iter()
        .filter(|f| {
            let fresh = !seen.contains(&f.upload_id);
            seen.push(f.upload_id);
            fresh
        })
        .collect();
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let Some(download) = sqlx::query_as::<_, PackageRecord>(concat!(
            "update downloads set name = $2, start_at = $3, end_at = $4, updated_at = $5 \
             where id = $1 returning ",
            returned_columns!()
        ))
        .bind(id)
        .bind(&change.name)
        .bind(change.start_at)
        .bind(change.end_at)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let before: Vec<i64> = sqlx::query_scalar(
            "select upload_id from download_uploads where download_id = $1",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let removed: Vec<i64> = before
            .iter()
            .copied()
            .filter(|upload| !files.iter().any(|f| f.upload_id == *upload))
            .collect();
        for upload_id in &removed {
            sqlx::query("delete from download_uploads where download_id = $1 and upload_id = $2")
                .bind(id)
                .bind(upload_id)
                .execute(&mut *tx)
                .await?;
        }
        for (position, file) in (0i32..).zip(&files) {
            if !before.contains(&file.upload_id) {
                sqlx::query(
                    "insert into download_uploads \
                     (download_id, upload_id, position, name, created_at, updated_at) \
                     values ($1, $2, $3, $4, $5, $5)",
                )
                .bind(id)
                .bind(file.upload_id)
                .bind(position)
                .bind(&file.name)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            } else if file.changed {
                sqlx::query(
                    "update download_uploads set position = $3, name = $4, updated_at = $5 \
                     where download_id = $1 and upload_id = $2",
                )
                .bind(id)
                .bind(file.upload_id)
                .bind(position)
                .bind(&file.name)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            } else {
                sqlx::query(
                    "update download_uploads set position = $3 \
                     where download_id = $1 and upload_id = $2 and position <> $3",
                )
                .bind(id)
                .bind(file.upload_id)
                .bind(position)
                .execute(&mut *tx)
                .await?;
            }
            if file.changed {
                sqlx::query(
                    "delete from download_upload_tags where download_id = $1 and upload_id = $2",
                )
                .bind(id)
                .bind(file.upload_id)
                .execute(&mut *tx)
                .await?;
                for tag_id in dedup_keep_order(&file.tag_ids) {
                    sqlx::query(
                        "insert into download_upload_tags \
                         (download_id, upload_id, tag_id, created_at, updated_at) \
                         values ($1, $2, $3, $4, $4)",
                    )
                    .bind(id)
                    .bind(file.upload_id)
                    .bind(tag_id)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                }
            }
        }
        sqlx::query("delete from download_lists where download_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        link_lists!(tx, download id, &list_ids, now);
        audit::record!(tx, audit)?;
        tx.commit().await?;
        Ok(Some((download, removed)))
    })
}

/// Copies a package: the same stored files (no bytes are copied) with their names, order,
/// tags and dates of change, and the same lists, under a new name and period. `audit` is
/// written for the copy's id.
pub async fn duplicate(
    db: &Db,
    source_id: i64,
    name: &str,
    start_at: DateTime<Utc>,
    end_at: DateTime<Utc>,
    audit: &Entry,
) -> Result<Option<PackageRecord>, sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let Some(copy) = sqlx::query_as::<_, PackageRecord>(concat!(
            "insert into downloads (provider_id, name, start_at, end_at, created_at, updated_at) \
             select provider_id, $2, $3, $4, $5, $5 from downloads where id = $1 returning ",
            returned_columns!()
        ))
        .bind(source_id)
        .bind(name)
        .bind(start_at)
        .bind(end_at)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        sqlx::query(
            "insert into download_uploads \
             (download_id, upload_id, position, name, created_at, updated_at) \
             select $2, upload_id, position, name, created_at, updated_at \
             from download_uploads where download_id = $1",
        )
        .bind(source_id)
        .bind(copy.id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "insert into download_upload_tags (download_id, upload_id, tag_id, created_at, updated_at) \
             select $2, upload_id, tag_id, created_at, updated_at \
             from download_upload_tags where download_id = $1",
        )
        .bind(source_id)
        .bind(copy.id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "insert into download_lists (download_id, list_id, created_at, updated_at) \
             select $2, list_id, $3, $3 from download_lists where download_id = $1",
        )
        .bind(source_id)
        .bind(copy.id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        audit::record!(tx, &audit.for_id(copy.id))?;
        tx.commit().await?;
        Ok(Some(copy))
    })
}

pub async fn get(db: &Db, id: i64) -> Result<Option<PackageRecord>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, PackageRecord>(concat!(
            "select ",
            download_columns!(),
            " from downloads d where d.id = $1"
        ))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// The packages with these ids (any order; unknown ids are left out).
pub async fn get_many(db: &Db, ids: &[i64]) -> Result<Vec<PackageRecord>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(concat!(
        "select ",
        download_columns!(),
        " from downloads d where d.id in "
    ));
    let list = query.id_list(ids);
    query.push(&list);
    query.fetch_all(db).await
}

/// Every package ordered by id (maintenance, seed checks).
pub async fn list_all(db: &Db) -> Result<Vec<PackageRecord>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, PackageRecord>(concat!(
            "select ",
            download_columns!(),
            " from downloads d order by d.id"
        ))
        .fetch_all(pool)
        .await
    })
}

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
fn conditions(query: &mut DynQuery, filter: &PackageQuery) -> Option<String> {
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
            // Driven by the lists (indexed on list_id): the few packages they offer, not a probe
            // per package.
            alternatives.push(format!(
                "d.id in (select dl.download_id from download_lists dl where dl.list_id in {})",
                query.id_list(&visible.list_ids)
            ));
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
    if let Some(search) = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let pattern = query.param(super::lists::like_pattern(search));
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
    Some(parts.join(" and "))
}

/// A package with everything its views show, read in one query (files, tags, lists and
/// the provider come as JSON aggregates, so a page of 20 packages is 20 rows).
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone, serde::Deserialize)]
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
#[derive(Debug, Clone, serde::Deserialize)]
pub struct ListEntry {
    pub id: i64,
    pub name: String,
    #[serde(deserialize_with = "bool_or_number")]
    pub active: bool,
}

/// SQLite's JSON writes booleans as 0 and 1, PostgreSQL's as false and true.
fn bool_or_number<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Bool(b) => Ok(b),
        serde_json::Value::Number(n) => Ok(n.as_i64() != Some(0)),
        other => Err(serde::de::Error::custom(format!("not a boolean: {other}"))),
    }
}

#[derive(sqlx::FromRow)]
struct PackageRow {
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
fn package_select(backend: Backend) -> String {
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

fn parse_json<T: serde::de::DeserializeOwned>(
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

fn packages_from(rows: Vec<PackageRow>) -> Result<Vec<Package>, sqlx::Error> {
    rows.into_iter().map(Package::try_from).collect()
}

/// The packages with these ids, with everything their views show (any order).
pub async fn packages_by_ids(db: &Db, ids: &[i64]) -> Result<Vec<Package>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(&package_select(db.backend()));
    let list = query.id_list(ids);
    query.push(" where d.id in ").push(&list);
    packages_from(query.fetch_all(db).await?)
}

/// How many packages match.
pub async fn count_matching(db: &Db, filter: &PackageQuery) -> Result<i64, sqlx::Error> {
    let mut count = DynQuery::new("select count(*) from downloads d where ");
    let Some(condition) = conditions(&mut count, filter) else {
        return Ok(0);
    };
    count.push(&condition);
    count.fetch_count(db).await
}

/// One page of matching packages, with everything their views show.
pub async fn page(
    db: &Db,
    filter: &PackageQuery,
    limit: i64,
    offset: i64,
) -> Result<Vec<Package>, sqlx::Error> {
    let direction = if filter.ascending { "asc" } else { "desc" };
    let column = match filter.sort.unwrap_or(SortColumn::Id) {
        SortColumn::Id => "d.id",
        SortColumn::Provider => "lower(p.name)",
        SortColumn::Name => "lower(d.name)",
        SortColumn::StartAt => "d.start_at",
        SortColumn::EndAt => "d.end_at",
        SortColumn::UpdatedAt => "d.updated_at",
    };
    let mut select = DynQuery::new(&package_select(db.backend()));
    select.push(" where ");
    let Some(condition) = conditions(&mut select, filter) else {
        return Ok(Vec::new());
    };
    select.push(&condition);
    let limit = select.param(limit);
    let offset = select.param(offset);
    let order = if column == "d.id" {
        format!(" order by d.id {direction}")
    } else {
        format!(" order by {column} {direction}, d.id {direction}")
    };
    select.push(&format!("{order} limit {limit} offset {offset}"));
    packages_from(select.fetch_all(db).await?)
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

/// The files of these packages, in each package's order.
pub async fn files_of(db: &Db, download_ids: &[i64]) -> Result<Vec<PackageFile>, sqlx::Error> {
    if download_ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select du.download_id, du.upload_id, du.name, du.position, u.ext, u.size, \
         u.content_type, u.storage_key, u.sha256, u.crc32, u.created_at, du.updated_at \
         from download_uploads du join uploads u on u.id = du.upload_id where du.download_id in ",
    );
    let list = query.id_list(download_ids);
    query
        .push(&list)
        .push(" order by du.download_id, du.position, du.upload_id");
    query.fetch_all(db).await
}

/// (download id, upload id, tag id) of the files of these packages.
pub async fn tags_of(db: &Db, download_ids: &[i64]) -> Result<Vec<(i64, i64, i64)>, sqlx::Error> {
    if download_ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select download_id, upload_id, tag_id from download_upload_tags where download_id in ",
    );
    let list = query.id_list(download_ids);
    query
        .push(&list)
        .push(" order by download_id, upload_id, tag_id");
    query.fetch_all(db).await
}

/// A list a package is offered to.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PackageList {
    pub download_id: i64,
    pub list_id: i64,
    pub name: String,
    pub active: bool,
}

/// The lists these packages are offered to, by name.
pub async fn lists_of(db: &Db, download_ids: &[i64]) -> Result<Vec<PackageList>, sqlx::Error> {
    if download_ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select dl.download_id, dl.list_id, l.name, l.active from download_lists dl \
         join lists l on l.id = dl.list_id where dl.download_id in ",
    );
    let list = query.id_list(download_ids);
    query
        .push(&list)
        .push(" order by dl.download_id, l.name, l.id");
    query.fetch_all(db).await
}

/// The providers of the packages `visible` admits (for a customer's provider filter).
pub async fn provider_ids_visible(db: &Db, visible: &Visible) -> Result<Vec<i64>, sqlx::Error> {
    let mut query = DynQuery::new("select distinct d.provider_id from downloads d where ");
    let filter = PackageQuery {
        visible: Some(visible.clone()),
        ..PackageQuery::default()
    };
    let Some(condition) = conditions(&mut query, &filter) else {
        return Ok(Vec::new());
    };
    query.push(&condition).push(" order by d.provider_id");
    let rows: Vec<(i64,)> = query.fetch_all(db).await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// The upload ids of one package in display order.
pub async fn upload_ids(db: &Db, download_id: i64) -> Result<Vec<i64>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "select upload_id from download_uploads where download_id = $1 \
             order by position, upload_id",
        )
        .bind(download_id)
        .fetch_all(pool)
        .await
    })
}

/// The lists one package is offered to, ascending.
pub async fn list_ids(db: &Db, download_id: i64) -> Result<Vec<i64>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "select list_id from download_lists where download_id = $1 order by list_id",
        )
        .bind(download_id)
        .fetch_all(pool)
        .await
    })
}

pub async fn count(db: &Db) -> Result<i64, sqlx::Error> {
    db_run!(db, pool => sqlx::query_scalar::<_, i64>("select count(*) from downloads")
            .fetch_one(pool)
            .await
    )
}

/// Archives or restores a package (`archived_at` is set on archiving and cleared on
/// restoring), with `audit`. Returns the updated row, or `None` when it does not exist.
pub async fn set_archived(
    db: &Db,
    id: i64,
    archived: bool,
    audit: &Entry,
) -> Result<Option<PackageRecord>, sqlx::Error> {
    let now = now();
    let archived_at = archived.then_some(now);
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let download = sqlx::query_as::<_, PackageRecord>(concat!(
            "update downloads set archived = $2, archived_at = $3, updated_at = $4 \
             where id = $1 returning ",
            returned_columns!()
        ))
        .bind(id)
        .bind(archived)
        .bind(archived_at)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        if download.is_some() {
            audit::record!(tx, audit)?;
            tx.commit().await?;
        }
        Ok(download)
    })
}

/// Deletes a package with its assignments and returns the uploads it held (their rows and
/// files stay until nothing else uses them), with `audit`; `None` when it did not exist.
pub async fn delete(db: &Db, id: i64, audit: &Entry) -> Result<Option<Vec<i64>>, sqlx::Error> {
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let uploads: Vec<i64> = sqlx::query_scalar(
            "select upload_id from download_uploads where download_id = $1",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let deleted = sqlx::query("delete from downloads where id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if deleted == 0 {
            return Ok(None);
        }
        audit::record!(tx, audit)?;
        tx.commit().await?;
        Ok(Some(uploads))
    })
}

/// The packages of a provider and the uploads they hold (before the provider is deleted).
pub async fn uploads_of_provider(db: &Db, provider_id: i64) -> Result<Vec<i64>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "select distinct du.upload_id from download_uploads du \
             join downloads d on d.id = du.download_id where d.provider_id = $1",
        )
        .bind(provider_id)
        .fetch_all(pool)
        .await
    })
}
