//! Uploaded files (`uploads`): the metadata of a file kept in the [`crate::storage::FileStore`].

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{Db, now};
use crate::db_run;

macro_rules! upload_columns {
    () => {
        "id, name, storage_key, ext, size, content_type, created_at, updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Upload {
    pub id: i64,
    /// Display file name including the extension.
    pub name: String,
    /// Path relative to the file store's root.
    pub storage_key: String,
    /// Lower-case, without the dot.
    pub ext: String,
    /// Bytes.
    pub size: i64,
    pub content_type: String,
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
}

pub async fn create(db: &Db, new: &NewUpload) -> Result<Upload, sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        sqlx::query_as::<_, Upload>(concat!(
            "insert into uploads \
             (name, storage_key, ext, size, content_type, created_at, updated_at) \
             values ($1, $2, $3, $4, $5, $6, $6) returning ",
            upload_columns!()
        ))
        .bind(&new.name)
        .bind(&new.storage_key)
        .bind(&new.ext)
        .bind(new.size)
        .bind(&new.content_type)
        .bind(now)
        .fetch_one(pool)
        .await
    })
}

/// The allowed roles of every provider with a package that contains the upload.
pub async fn roles_of_providers(db: &Db, upload_id: i64) -> Result<Vec<String>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, String>(
            "select distinct pr.role from download_uploads du \
             join downloads d on d.id = du.download_id \
             join provider_roles pr on pr.provider_id = d.provider_id \
             where du.upload_id = $1",
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

/// All uploads ordered by id (used by maintenance and tests; pages come later).
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

pub async fn count(db: &Db) -> Result<i64, sqlx::Error> {
    db_run!(db, pool => sqlx::query_scalar::<_, i64>("select count(*) from uploads")
            .fetch_one(pool)
            .await
    )
}

/// Deletes the row (its download and tag assignments go with it; a provider logo is unset).
/// The caller removes the stored file. False when it did not exist.
pub async fn delete(db: &Db, id: i64) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query("delete from uploads where id = $1")
            .bind(id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
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
        }
    }

    #[tokio::test]
    async fn round_trip_and_unique_key() {
        let t = TestDb::new().await;
        let created = create(&t.db, &new_upload("ab/ab12.pdf")).await.unwrap();
        let got = get(&t.db, created.id).await.unwrap().unwrap();
        assert_eq!(got.name, "Flyer Glasfaser Süd.pdf");
        assert_eq!(got.storage_key, "ab/ab12.pdf");
        assert_eq!(got.size, 1234);
        assert_eq!(got.created_at, created.created_at);
        let err = create(&t.db, &new_upload("ab/ab12.pdf")).await.unwrap_err();
        assert!(is_unique_violation(&err));
        assert_eq!(count(&t.db).await.unwrap(), 1);
        assert_eq!(list_all(&t.db).await.unwrap().len(), 1);
        assert!(delete(&t.db, created.id).await.unwrap());
        assert!(get(&t.db, created.id).await.unwrap().is_none());
    }
}
