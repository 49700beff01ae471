//! Tags (`tags`) and their assignment to files (`upload_tags`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{Db, dedup_keep_order, now};
use crate::db_run;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Tag {
    pub id: i64,
    pub name: String,
    /// A Bootstrap icon class (`bi bi-…`) or an image URL.
    pub icon: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct UploadTagRow {
    upload_id: i64,
    tag_id: i64,
}

/// Creates a tag. A taken name fails with a unique violation.
pub async fn create(db: &Db, name: &str, icon: &str) -> Result<Tag, sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        sqlx::query_as::<_, Tag>(
            "insert into tags (name, icon, created_at, updated_at) values ($1, $2, $3, $3) \
             returning id, name, icon, created_at, updated_at",
        )
        .bind(name)
        .bind(icon)
        .bind(now)
        .fetch_one(pool)
        .await
    })
}

/// All tags ordered by name.
pub async fn list(db: &Db) -> Result<Vec<Tag>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Tag>(
            "select id, name, icon, created_at, updated_at from tags order by name, id",
        )
        .fetch_all(pool)
        .await
    })
}

/// Replaces the tags of a file in one transaction; an unknown upload or tag id fails with a
/// foreign-key violation and changes nothing.
pub async fn set_upload_tags(db: &Db, upload_id: i64, tag_ids: &[i64]) -> Result<(), sqlx::Error> {
    let now = now();
    let tag_ids = dedup_keep_order(tag_ids);
    db_run!(db, pool => {
        let mut tx = pool.begin().await?;
        sqlx::query("delete from upload_tags where upload_id = $1")
            .bind(upload_id)
            .execute(&mut *tx)
            .await?;
        for tag_id in &tag_ids {
            sqlx::query(
                "insert into upload_tags (upload_id, tag_id, created_at, updated_at) \
                 values ($1, $2, $3, $3)",
            )
            .bind(upload_id)
            .bind(tag_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    })
}

/// The tag ids of one file, ascending.
pub async fn tag_ids_of_upload(db: &Db, upload_id: i64) -> Result<Vec<i64>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "select tag_id from upload_tags where upload_id = $1 order by tag_id",
        )
        .bind(upload_id)
        .fetch_all(pool)
        .await
    })
}

/// The tag ids of the files of one download, keyed by upload id (one query).
pub async fn tag_ids_of_download_uploads(
    db: &Db,
    download_id: i64,
) -> Result<HashMap<i64, Vec<i64>>, sqlx::Error> {
    let rows = db_run!(db, pool => {
        sqlx::query_as::<_, UploadTagRow>(
            "select ut.upload_id, ut.tag_id from upload_tags ut \
             join download_uploads du on du.upload_id = ut.upload_id \
             where du.download_id = $1 order by ut.upload_id, ut.tag_id",
        )
        .bind(download_id)
        .fetch_all(pool)
        .await?
    });
    let mut out: HashMap<i64, Vec<i64>> = HashMap::new();
    for row in rows {
        out.entry(row.upload_id).or_default().push(row.tag_id);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{is_foreign_key_violation, is_unique_violation, uploads};
    use crate::test_support::TestDb;

    #[tokio::test]
    async fn tags_and_assignment() {
        let t = TestDb::new().await;
        let plakat = create(&t.db, "Plakat", "bi bi-image").await.unwrap();
        let flyer = create(&t.db, "Flyer", "bi bi-file-earmark-pdf")
            .await
            .unwrap();
        let err = create(&t.db, "Flyer", "bi bi-x").await.unwrap_err();
        assert!(is_unique_violation(&err));
        let names: Vec<_> = list(&t.db)
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, vec!["Flyer", "Plakat"]);

        let upload = uploads::create(
            &t.db,
            &uploads::NewUpload {
                name: "Plakat A1.png".to_string(),
                storage_key: "bb/bb.png".to_string(),
                ext: "png".to_string(),
                size: 5,
                content_type: "image/png".to_string(),
            },
        )
        .await
        .unwrap();
        set_upload_tags(&t.db, upload.id, &[plakat.id, flyer.id, plakat.id])
            .await
            .unwrap();
        let mut expected = vec![plakat.id, flyer.id];
        expected.sort();
        assert_eq!(tag_ids_of_upload(&t.db, upload.id).await.unwrap(), expected);

        let err = set_upload_tags(&t.db, upload.id, &[flyer.id, 999])
            .await
            .unwrap_err();
        assert!(is_foreign_key_violation(&err));
        assert_eq!(tag_ids_of_upload(&t.db, upload.id).await.unwrap(), expected);

        set_upload_tags(&t.db, upload.id, &[flyer.id])
            .await
            .unwrap();
        assert_eq!(
            tag_ids_of_upload(&t.db, upload.id).await.unwrap(),
            vec![flyer.id]
        );
        set_upload_tags(&t.db, upload.id, &[]).await.unwrap();
        assert!(
            tag_ids_of_upload(&t.db, upload.id)
                .await
                .unwrap()
                .is_empty()
        );
    }
}
