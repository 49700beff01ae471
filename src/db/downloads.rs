//! Download packages (`downloads`), their files (`download_uploads`, ordered by `position`) and
//! the criteria they are offered to (`download_lists`).

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{Db, dedup_keep_order, now};
use crate::db_run;

macro_rules! download_columns {
    () => {
        "id, provider_id, name, start_at, end_at, archived, archived_at, created_at, updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Download {
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

#[derive(Debug, Clone)]
pub struct NewDownload {
    pub provider_id: i64,
    pub name: String,
    pub start_at: DateTime<Utc>,
    pub end_at: DateTime<Utc>,
    /// In display order; duplicates are ignored.
    pub upload_ids: Vec<i64>,
    pub list_ids: Vec<i64>,
}

/// Creates the download with its file and list assignments in one transaction: an unknown
/// provider, upload or list id fails with a foreign-key violation and leaves nothing behind.
pub async fn create(db: &Db, new: &NewDownload) -> Result<Download, sqlx::Error> {
    let now = now();
    let upload_ids = dedup_keep_order(&new.upload_ids);
    let list_ids = dedup_keep_order(&new.list_ids);
    db_run!(db, pool => {
        let mut tx = pool.begin().await?;
        let download = sqlx::query_as::<_, Download>(concat!(
            "insert into downloads (provider_id, name, start_at, end_at, created_at, updated_at) \
             values ($1, $2, $3, $4, $5, $5) returning ",
            download_columns!()
        ))
        .bind(new.provider_id)
        .bind(&new.name)
        .bind(new.start_at)
        .bind(new.end_at)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        for (position, upload_id) in (0i32..).zip(&upload_ids) {
            sqlx::query(
                "insert into download_uploads \
                 (download_id, upload_id, position, created_at, updated_at) \
                 values ($1, $2, $3, $4, $4)",
            )
            .bind(download.id)
            .bind(upload_id)
            .bind(position)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        for list_id in &list_ids {
            sqlx::query(
                "insert into download_lists (download_id, list_id, created_at, updated_at) \
                 values ($1, $2, $3, $3)",
            )
            .bind(download.id)
            .bind(list_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(download)
    })
}

pub async fn get(db: &Db, id: i64) -> Result<Option<Download>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Download>(concat!(
            "select ",
            download_columns!(),
            " from downloads where id = $1"
        ))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// Every download ordered by id (maintenance, seed checks; the paged list comes later).
pub async fn list_all(db: &Db) -> Result<Vec<Download>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Download>(concat!(
            "select ",
            download_columns!(),
            " from downloads order by id"
        ))
        .fetch_all(pool)
        .await
    })
}

/// The files of a download in display order.
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

/// The lists a download is offered to, ascending.
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

/// Archives or restores a download (`archived_at` is set on archiving and cleared on restoring).
/// Returns the updated row, or `None` when it does not exist.
pub async fn set_archived(
    db: &Db,
    id: i64,
    archived: bool,
) -> Result<Option<Download>, sqlx::Error> {
    let now = now();
    let archived_at = archived.then_some(now);
    db_run!(db, pool => {
        sqlx::query_as::<_, Download>(concat!(
            "update downloads set archived = $2, archived_at = $3, updated_at = $4 \
             where id = $1 returning ",
            download_columns!()
        ))
        .bind(id)
        .bind(archived)
        .bind(archived_at)
        .bind(now)
        .fetch_optional(pool)
        .await
    })
}

/// Deletes a download with its assignments (the uploads themselves stay). False when it did
/// not exist.
pub async fn delete(db: &Db, id: i64) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query("delete from downloads where id = $1")
            .bind(id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::db::{is_foreign_key_violation, lists, providers, uploads};
    use crate::test_support::TestDb;

    struct Fixture {
        provider_id: i64,
        list_ids: Vec<i64>,
        upload_ids: Vec<i64>,
    }

    async fn fixture(t: &TestDb) -> Fixture {
        let provider = providers::create(
            &t.db,
            &providers::NewProvider {
                name: "Stadtwerke Nord".to_string(),
                allowed_roles: vec!["GS-Aktionsportal-BU-Stadtwerke".to_string()],
                brevo_active_folder_id: None,
                brevo_inactive_folder_id: None,
                upload_id: None,
            },
        )
        .await
        .unwrap();
        let mut list_ids = Vec::new();
        for name in ["Privatkunden Strom", "Gewerbekunden Wärme"] {
            let new = lists::NewList {
                provider_id: provider.id,
                name: name.to_string(),
                brevo_list_id: None,
                active: true,
            };
            list_ids.push(lists::create(&t.db, &new).await.unwrap().id);
        }
        let mut upload_ids = Vec::new();
        for i in 0..3 {
            let new = uploads::NewUpload {
                name: format!("Datei {i}.pdf"),
                storage_key: format!("aa/{i}.pdf"),
                ext: "pdf".to_string(),
                size: 100,
                content_type: "application/pdf".to_string(),
            };
            upload_ids.push(uploads::create(&t.db, &new).await.unwrap().id);
        }
        Fixture {
            provider_id: provider.id,
            list_ids,
            upload_ids,
        }
    }

    fn new_download(f: &Fixture, upload_ids: Vec<i64>, list_ids: Vec<i64>) -> NewDownload {
        let start_at = crate::db::now() - Duration::days(2);
        NewDownload {
            provider_id: f.provider_id,
            name: "Wechselbonus Frühjahr".to_string(),
            start_at,
            end_at: start_at + Duration::days(30),
            upload_ids,
            list_ids,
        }
    }

    #[tokio::test]
    async fn create_with_files_and_lists() {
        let t = TestDb::new().await;
        let f = fixture(&t).await;
        let u = &f.upload_ids;
        let new = new_download(&f, vec![u[2], u[0], u[2]], f.list_ids.clone());
        let d = create(&t.db, &new).await.unwrap();
        assert_eq!(d.name, "Wechselbonus Frühjahr");
        assert_eq!(d.start_at, new.start_at);
        assert_eq!(d.end_at, new.end_at);
        assert!(!d.archived);

        let got = get(&t.db, d.id).await.unwrap().unwrap();
        assert_eq!(got.start_at, new.start_at);
        assert_eq!(got.provider_id, f.provider_id);
        assert_eq!(upload_ids(&t.db, d.id).await.unwrap(), vec![u[2], u[0]]);
        assert_eq!(list_ids(&t.db, d.id).await.unwrap(), f.list_ids);
        assert_eq!(count(&t.db).await.unwrap(), 1);
        assert!(get(&t.db, 999).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn failed_create_leaves_nothing_behind() {
        let t = TestDb::new().await;
        let f = fixture(&t).await;
        // Unknown list id after valid uploads and a valid list.
        let new = new_download(&f, f.upload_ids.clone(), vec![f.list_ids[0], 987_654]);
        let err = create(&t.db, &new).await.unwrap_err();
        assert!(is_foreign_key_violation(&err), "{err:?}");
        // Unknown upload id.
        let new = new_download(&f, vec![f.upload_ids[0], 987_654], f.list_ids.clone());
        assert!(is_foreign_key_violation(
            &create(&t.db, &new).await.unwrap_err()
        ));
        // Unknown provider.
        let mut new = new_download(&f, vec![], vec![]);
        new.provider_id = 987_654;
        assert!(is_foreign_key_violation(
            &create(&t.db, &new).await.unwrap_err()
        ));

        assert_eq!(count(&t.db).await.unwrap(), 0);
        let (joins_u, joins_l) = db_run!(&t.db, pool => {
            let u = sqlx::query_scalar::<_, i64>("select count(*) from download_uploads")
                .fetch_one(pool)
                .await
                .unwrap();
            let l = sqlx::query_scalar::<_, i64>("select count(*) from download_lists")
                .fetch_one(pool)
                .await
                .unwrap();
            (u, l)
        });
        assert_eq!((joins_u, joins_l), (0, 0));
    }

    #[tokio::test]
    async fn archive_and_cascades() {
        let t = TestDb::new().await;
        let f = fixture(&t).await;
        let d = create(
            &t.db,
            &new_download(&f, f.upload_ids.clone(), f.list_ids.clone()),
        )
        .await
        .unwrap();

        let archived = set_archived(&t.db, d.id, true).await.unwrap().unwrap();
        assert!(archived.archived);
        assert!(archived.archived_at.is_some());
        let restored = set_archived(&t.db, d.id, false).await.unwrap().unwrap();
        assert!(!restored.archived);
        assert!(restored.archived_at.is_none());
        assert!(set_archived(&t.db, 999, true).await.unwrap().is_none());

        // Deleting an upload or a list removes only its assignment.
        uploads::delete(&t.db, f.upload_ids[1]).await.unwrap();
        lists::delete(&t.db, f.list_ids[0]).await.unwrap();
        assert_eq!(
            upload_ids(&t.db, d.id).await.unwrap(),
            vec![f.upload_ids[0], f.upload_ids[2]]
        );
        assert_eq!(list_ids(&t.db, d.id).await.unwrap(), vec![f.list_ids[1]]);

        // Deleting the provider removes its downloads and their assignments.
        providers::delete(&t.db, f.provider_id).await.unwrap();
        assert!(get(&t.db, d.id).await.unwrap().is_none());
        assert!(upload_ids(&t.db, d.id).await.unwrap().is_empty());
        assert!(
            uploads::get(&t.db, f.upload_ids[0])
                .await
                .unwrap()
                .is_some()
        );
    }
}
