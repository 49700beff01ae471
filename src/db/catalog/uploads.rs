//! Uploaded files (`uploads`): the metadata of a file kept in the [`crate::storage::FileStore`].
//! One row per stored file; packages refer to it through `download_uploads` (with their own
//! name for it), providers as their logo.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::sql::DynQuery;
use crate::db::tx::Tx;
use crate::db::{Db, insight::audit, now};
use crate::db_run;
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};

macro_rules! upload_columns {
    () => {
        "id, name, storage_key, ext, size, content_type, sha256, crc32, uploaded_by, created_at, \
         updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Upload {
    pub id: i64,
    /// Display file name including the extension (as uploaded).
    pub name: String,
    /// Path relative to the file store's root.
    pub storage_key: String,
    /// Lower-case, without the dot.
    pub ext: String,
    /// Bytes.
    pub size: i64,
    pub content_type: String,
    /// Hex SHA-256 of the bytes (the ETag); `None` only for rows older than the checksums.
    pub sha256: Option<String>,
    /// CRC-32 of the bytes (for the package ZIP).
    pub crc32: Option<i64>,
    /// The uploader's subject (`User::subject`); `None` for files from before it was kept,
    /// and for those the portal made itself.
    pub uploaded_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct NewUpload {
    pub name: String,
    pub storage_key: String,
    pub ext: String,
    pub size: i64,
    pub content_type: String,
    pub sha256: Option<String>,
    pub crc32: Option<i64>,
    pub uploaded_by: Option<String>,
}

pub async fn create(db: &Db, new: &NewUpload, actor: &Actor) -> Result<Upload, sqlx::Error> {
    Ok(create_many(db, std::slice::from_ref(new), actor)
        .await?
        .pop()
        .expect("one row per upload"))
}

/// What the audit log keeps of an upload: what a person recognises it by.
#[derive(Serialize)]
struct Described<'a> {
    name: &'a str,
    ext: &'a str,
    size: i64,
    content_type: &'a str,
}

impl<'a> Described<'a> {
    fn of(upload: &'a Upload) -> Described<'a> {
        Described {
            name: &upload.name,
            ext: &upload.ext,
            size: upload.size,
            content_type: &upload.content_type,
        }
    }
}

fn created_entry(actor: &Actor, upload: &Upload) -> Entry {
    Entry::new(actor, Action::Create, Entity::Upload, Some(upload.id))
        .with_changes(Changes::created(&Described::of(upload)))
}

fn deleted_entry(actor: &Actor, upload: &Upload) -> Entry {
    Entry::new(actor, Action::Delete, Entity::Upload, Some(upload.id))
        .with_changes(Changes::deleted(&Described::of(upload)))
}

/// Inserts the rows in one transaction with an audit entry each for `actor`: all of them or
/// none.
pub async fn create_many(
    db: &Db,
    new: &[NewUpload],
    actor: &Actor,
) -> Result<Vec<Upload>, sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let mut rows = Vec::with_capacity(new.len());
        for upload in new {
            rows.push(
                sqlx::query_as::<_, Upload>(concat!(
                    "insert into uploads \
                     (name, storage_key, ext, size, content_type, sha256, crc32, uploaded_by, \
                     created_at, updated_at) \
                     values ($1, $2, $3, $4, $5, $6, $7, $9, $8, $8) returning ",
                    upload_columns!()
                ))
                .bind(&upload.name)
                .bind(&upload.storage_key)
                .bind(&upload.ext)
                .bind(upload.size)
                .bind(&upload.content_type)
                .bind(&upload.sha256)
                .bind(upload.crc32)
                .bind(now)
                .bind(&upload.uploaded_by)
                .fetch_one(&mut *tx)
                .await?,
            );
        }
        for row in &rows {
            audit::record!(tx, &created_entry(actor, row))?;
        }
        tx.commit().await?;
        Ok(rows)
    })
}

/// A file's name in a package, with the package and its provider.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct NameInPackage {
    pub name: String,
    pub download_id: i64,
    pub provider_id: i64,
}

/// The names under which the user sees a file in packages: those of providers whose
/// `allowedRoles` hold one of `roles`, and those offered to a list a contact of
/// `customer_number` is on. Empty when the user sees the file in no package. One query.
pub async fn names_visible_to(
    db: &Db,
    upload_id: i64,
    roles: &[String],
    customer_number: Option<i64>,
) -> Result<Vec<NameInPackage>, sqlx::Error> {
    let mut query = DynQuery::new(
        "select du.name, du.download_id, d.provider_id from download_uploads du \
         join downloads d on d.id = du.download_id where du.upload_id = ",
    );
    let upload = query.param(upload_id);
    query.push(&upload).push(" and (");
    let mut alternatives = Vec::new();
    if !roles.is_empty() {
        let placeholders: Vec<String> = roles.iter().map(|r| query.param(r.as_str())).collect();
        alternatives.push(format!(
            "exists (select 1 from provider_roles pr where pr.provider_id = d.provider_id \
             and pr.role in ({}))",
            placeholders.join(", ")
        ));
    }
    if let Some(customer_number) = customer_number {
        let customer = query.param(customer_number);
        alternatives.push(format!(
            "exists (select 1 from download_lists dl \
             join contact_lists cl on cl.list_id = dl.list_id \
             join contacts c on c.id = cl.contact_id \
             where dl.download_id = d.id and c.customer_number = {customer})"
        ));
    }
    if alternatives.is_empty() {
        return Ok(Vec::new());
    }
    query
        .push(&alternatives.join(" or "))
        .push(") order by du.download_id");
    query.fetch_all(db).await
}

/// The package names of a file, when it is in any package (for staff who may see all).
pub async fn names_in_packages(db: &Db, upload_id: i64) -> Result<Vec<NameInPackage>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, NameInPackage>(
            "select du.name, du.download_id, d.provider_id from download_uploads du \
             join downloads d on d.id = du.download_id where du.upload_id = $1 \
             order by du.download_id",
        )
        .bind(upload_id)
        .fetch_all(pool)
        .await
    })
}

pub async fn get(db: &Db, id: i64) -> Result<Option<Upload>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Upload>(concat!(
            "select ",
            upload_columns!(),
            " from uploads where id = $1"
        ))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// The uploads with these ids (any order; unknown ids are left out).
pub async fn get_many(db: &Db, ids: &[i64]) -> Result<Vec<Upload>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(concat!(
        "select ",
        upload_columns!(),
        " from uploads where id in "
    ));
    let list = query.id_list(ids);
    query.push(&list);
    query.fetch_all(db).await
}

/// The providers whose packages hold these uploads: (upload id, provider id), each pair once.
pub async fn package_providers(db: &Db, ids: &[i64]) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select distinct du.upload_id, d.provider_id from download_uploads du \
         join downloads d on d.id = du.download_id where du.upload_id in ",
    );
    let list = query.id_list(ids);
    query.push(&list);
    query.fetch_all(db).await
}

/// Whether a row names this storage key (the sweep's test for a file on disk).
pub async fn key_in_use(db: &Db, storage_key: &str) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>("select count(*) from uploads where storage_key = $1")
            .bind(storage_key)
            .fetch_one(pool)
            .await
            .map(|n| n > 0)
    })
}

/// All uploads ordered by id (used by maintenance and tests).
pub async fn list_all(db: &Db) -> Result<Vec<Upload>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Upload>(concat!(
            "select ",
            upload_columns!(),
            " from uploads order by id"
        ))
        .fetch_all(pool)
        .await
    })
}

/// Uploads with an id above `after`, ordered by id, a page at a time.
pub async fn page_after(db: &Db, after: i64, limit: i64) -> Result<Vec<Upload>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Upload>(concat!(
            "select ",
            upload_columns!(),
            " from uploads where id > $1 order by id limit $2"
        ))
        .bind(after)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

pub async fn count(db: &Db) -> Result<i64, sqlx::Error> {
    db_run!(db, pool => sqlx::query_scalar::<_, i64>("select count(*) from uploads")
            .fetch_one(pool)
            .await
    )
}

/// Rows without checksums (from before they were measured), a batch at a time.
pub async fn without_checksums(db: &Db, limit: i64) -> Result<Vec<Upload>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Upload>(concat!(
            "select ",
            upload_columns!(),
            " from uploads where sha256 is null or crc32 is null order by id limit $1"
        ))
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// Records the checksums measured for a stored file.
pub async fn set_checksums(
    db: &Db,
    id: i64,
    size: i64,
    sha256: &str,
    crc32: i64,
) -> Result<(), sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query("update uploads set size = $2, sha256 = $3, crc32 = $4 where id = $1")
            .bind(id)
            .bind(size)
            .bind(sha256)
            .bind(crc32)
            .execute(pool)
            .await
            .map(|_| ())
    })
}

/// Deletes those of `ids` that no package and no provider uses any more, and returns the
/// deleted rows (their files are the caller's to remove), with an audit entry each for
/// `actor`.
pub async fn delete_unreferenced(
    db: &Db,
    ids: &[i64],
    actor: &Actor,
) -> Result<Vec<Upload>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new("delete from uploads where id in ");
    let list = query.id_list(ids);
    query.push(&list).push(concat!(
        " and not exists (select 1 from download_uploads du where du.upload_id = uploads.id) \
         and not exists (select 1 from providers p where p.upload_id = uploads.id) returning ",
        upload_columns!()
    ));
    let mut tx = Tx::begin(db).await?;
    let (sql, params) = query.parts();
    let deleted: Vec<Upload> = tx.fetch_all(sql, params).await?;
    for upload in &deleted {
        audit::record_in(&mut tx, &deleted_entry(actor, upload)).await?;
    }
    tx.commit().await?;
    Ok(deleted)
}

/// Uploads created before `cutoff` that no package and no provider uses: abandoned forms.
pub async fn unreferenced_before(
    db: &Db,
    cutoff: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "select u.id from uploads u where u.created_at < $1 \
             and not exists (select 1 from download_uploads du where du.upload_id = u.id) \
             and not exists (select 1 from providers p where p.upload_id = u.id) \
             order by u.id limit $2",
        )
        .bind(cutoff)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// Deletes the row (its package and tag assignments go with it; a provider logo is unset).
/// The caller removes the stored file. With an audit entry for `actor`; false when it did not
/// exist.
pub async fn delete(db: &Db, id: i64, actor: &Actor) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let deleted = sqlx::query_as::<_, Upload>(concat!(
            "delete from uploads where id = $1 returning ",
            upload_columns!()
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(upload) = deleted else {
            return Ok(false);
        };
        audit::record!(tx, &deleted_entry(actor, &upload))?;
        tx.commit().await?;
        Ok(true)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::is_unique_violation;
    use crate::test_support::TestDb;

    fn new_upload(key: &str) -> NewUpload {
        NewUpload {
            name: "Flyer Glasfaser Süd.pdf".to_string(),
            storage_key: key.to_string(),
            ext: "pdf".to_string(),
            size: 1234,
            content_type: "application/pdf".to_string(),
            sha256: Some("ab".repeat(32)),
            crc32: Some(0xDEAD_BEEF),
            uploaded_by: None,
        }
    }

    #[tokio::test]
    async fn round_trip_and_unique_key() {
        let t = TestDb::new().await;
        let created = create(
            &t.db,
            &new_upload("ab/ab12.pdf"),
            &crate::domain::audit::Actor::Cli,
        )
        .await
        .unwrap();
        let got = get(&t.db, created.id).await.unwrap().unwrap();
        assert_eq!(got.name, "Flyer Glasfaser Süd.pdf");
        assert_eq!(got.storage_key, "ab/ab12.pdf");
        assert_eq!(got.size, 1234);
        assert_eq!(got.crc32, Some(0xDEAD_BEEF));
        assert_eq!(got.created_at, created.created_at);
        let err = create(
            &t.db,
            &new_upload("ab/ab12.pdf"),
            &crate::domain::audit::Actor::Cli,
        )
        .await
        .unwrap_err();
        assert!(is_unique_violation(&err));
        assert_eq!(count(&t.db).await.unwrap(), 1);
        assert!(key_in_use(&t.db, "ab/ab12.pdf").await.unwrap());
        assert!(!key_in_use(&t.db, "ab/other.pdf").await.unwrap());
        assert_eq!(list_all(&t.db).await.unwrap().len(), 1);
        assert!(
            delete(&t.db, created.id, &crate::domain::audit::Actor::Cli)
                .await
                .unwrap()
        );
        assert!(get(&t.db, created.id).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn many_rows_commit_together_or_not_at_all() {
        let t = TestDb::new().await;
        let rows = create_many(
            &t.db,
            &[new_upload("aa/1.pdf"), new_upload("aa/2.pdf")],
            &crate::domain::audit::Actor::Cli,
        )
        .await
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert!(
            create_many(
                &t.db,
                &[new_upload("aa/3.pdf"), new_upload("aa/1.pdf")],
                &crate::domain::audit::Actor::Cli
            )
            .await
            .is_err()
        );
        assert_eq!(count(&t.db).await.unwrap(), 2, "no half-written batch");
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        assert_eq!(get_many(&t.db, &ids).await.unwrap().len(), 2);
    }

    #[tokio::test]
    async fn only_unreferenced_rows_are_deleted() {
        let t = TestDb::new().await;
        let kept = create(
            &t.db,
            &new_upload("aa/logo.png"),
            &crate::domain::audit::Actor::Cli,
        )
        .await
        .unwrap();
        let gone = create(
            &t.db,
            &new_upload("aa/gone.pdf"),
            &crate::domain::audit::Actor::Cli,
        )
        .await
        .unwrap();
        crate::db::marketing::providers::create(
            &t.db,
            &crate::db::marketing::providers::NewProvider {
                name: "Mit Logo".into(),
                allowed_roles: vec!["R".into()],
                brevo_active_folder_id: None,
                brevo_inactive_folder_id: None,
                upload_id: Some(kept.id),
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        let future = crate::db::now() + chrono::Duration::days(1);
        assert_eq!(
            unreferenced_before(&t.db, future, 10).await.unwrap(),
            vec![gone.id]
        );
        let deleted = delete_unreferenced(
            &t.db,
            &[kept.id, gone.id],
            &crate::domain::audit::Actor::Cli,
        )
        .await
        .unwrap();
        assert_eq!(deleted.len(), 1);
        assert_eq!(deleted[0].storage_key, "aa/gone.pdf");
        assert!(get(&t.db, kept.id).await.unwrap().is_some());
    }
}
