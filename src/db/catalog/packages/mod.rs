//! Download packages (`downloads`), their files (`download_uploads`: the package's own name
//! and position for a stored upload, tags in `download_upload_tags`) and the criteria they are
//! offered to (`download_lists`).

use chrono::{DateTime, Utc};
use serde::Serialize;

use serde::Deserialize;

use crate::db::bulk::link_lists;
use crate::db::sql::DynQuery;
use crate::db::{Backend, Db, dedup_keep_order, insight::audit, now};
use crate::db_run;
use crate::domain::audit::Entry;
use crate::domain::packages::SortColumn;

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
pub struct NewPackage {
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
pub struct PackageChange {
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
    new: &NewPackage,
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
    change: &PackageChange,
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
    let Some(condition) = conditions(&mut query, &filter, db) else {
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

// Declared here, below the column macros it uses (a macro is seen only after its definition).
mod listing;

use listing::conditions;

pub use listing::{
    Bookmark, ListEntry, Package, PackageEntry, PackageQuery, Visible, bookmark_at, count_matching,
    has_bookmarks, next_period_change, packages_by_ids, page_ids_after,
};
