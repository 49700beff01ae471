//! Marketing folders (`marketing_folders`): where a provider's active and inactive lists live.
//!
//! In local mode the database assigns ids; when mirrored from Brevo the folder keeps Brevo's id
//! ([`create_with_id`]), and the id sequence is moved past it so later local folders never collide.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::{Db, now};
use crate::db_run;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Folder {
    pub id: i64,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Creates a folder with the next free id.
pub async fn create(db: &Db, name: &str) -> Result<Folder, sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        sqlx::query_as::<_, Folder>(
            "insert into marketing_folders (name, created_at, updated_at) values ($1, $2, $2) \
             returning id, name, created_at, updated_at",
        )
        .bind(name)
        .bind(now)
        .fetch_one(pool)
        .await
    })
}

/// Creates a folder with a given id (Brevo's). A taken id fails with a unique violation.
pub async fn create_with_id(db: &Db, id: i64, name: &str) -> Result<Folder, sqlx::Error> {
    const INSERT: &str = "insert into marketing_folders (id, name, created_at, updated_at) \
                          values ($1, $2, $3, $3) \
                          returning id, name, created_at, updated_at";
    let now = now();
    match db {
        // SQLite hands out max(id) + 1 by itself.
        Db::Sqlite(pool, _) => {
            sqlx::query_as::<_, Folder>(INSERT)
                .bind(id)
                .bind(name)
                .bind(now)
                .fetch_one(pool)
                .await
        }
        // PostgreSQL's identity sequence does not see explicit ids: move it past this one (never
        // backwards, so no id is handed out twice).
        Db::Postgres(pool, _) => {
            let mut tx = pool.begin().await?;
            let folder = sqlx::query_as::<_, Folder>(INSERT)
                .bind(id)
                .bind(name)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;
            sqlx::query(
                "select setval(seq, \
                 greatest($1, coalesce(pg_sequence_last_value(seq::regclass), 0), 1)) \
                 from (select pg_get_serial_sequence('marketing_folders', 'id') as seq) s",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(folder)
        }
    }
}

pub async fn get(db: &Db, id: i64) -> Result<Option<Folder>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Folder>(
            "select id, name, created_at, updated_at from marketing_folders where id = $1",
        )
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// One page of folders ordered by id, and the total count.
pub async fn list(db: &Db, limit: i64, offset: i64) -> Result<(Vec<Folder>, i64), sqlx::Error> {
    db_run!(db, pool => {
        let folders = sqlx::query_as::<_, Folder>(
            "select id, name, created_at, updated_at from marketing_folders \
             order by id limit $1 offset $2",
        )
        .bind(limit)
        .bind(offset)
        .fetch_all(pool)
        .await?;
        let count = sqlx::query_scalar::<_, i64>("select count(*) from marketing_folders")
            .fetch_one(pool)
            .await?;
        Ok((folders, count))
    })
}

/// Records a marketing-service folder under its own id, or renames the record.
pub async fn upsert(db: &Db, id: i64, name: &str) -> Result<(), sqlx::Error> {
    let now = now();
    let renamed = db_run!(db, pool => {
        sqlx::query("update marketing_folders set name = $2, updated_at = $3 where id = $1")
            .bind(id)
            .bind(name)
            .bind(now)
            .execute(pool)
            .await?
            .rows_affected()
    });
    if renamed == 0 {
        create_with_id(db, id, name).await?;
    }
    Ok(())
}

/// Deletes a folder record; false when it did not exist.
pub async fn delete(db: &Db, id: i64) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query("delete from marketing_folders where id = $1")
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

    #[tokio::test]
    async fn create_get_and_page() {
        let t = TestDb::new().await;
        let mut ids = Vec::new();
        for i in 0..5 {
            ids.push(create(&t.db, &format!("Ordner {i}")).await.unwrap().id);
        }
        let got = get(&t.db, ids[2]).await.unwrap().unwrap();
        assert_eq!(got.name, "Ordner 2");
        assert!(get(&t.db, 999).await.unwrap().is_none());

        let (page, count) = list(&t.db, 2, 1).await.unwrap();
        assert_eq!(count, 5);
        assert_eq!(
            page.iter().map(|f| f.id).collect::<Vec<_>>(),
            vec![ids[1], ids[2]]
        );
        let (rest, _) = list(&t.db, 20, 4).await.unwrap();
        assert_eq!(rest.len(), 1);
    }

    #[tokio::test]
    async fn explicit_ids_do_not_collide_with_generated_ones() {
        let t = TestDb::new().await;
        let mirrored = create_with_id(&t.db, 100, "Glasfaser Süd (aktiv)")
            .await
            .unwrap();
        assert_eq!(mirrored.id, 100);
        let next = create(&t.db, "Glasfaser Süd (inaktiv)").await.unwrap();
        assert!(next.id > 100, "got id {}", next.id);
        let err = create_with_id(&t.db, 100, "doppelt").await.unwrap_err();
        assert!(is_unique_violation(&err));
        // A smaller explicit id does not move the sequence backwards.
        create_with_id(&t.db, 7, "Altbestand").await.unwrap();
        let after = create(&t.db, "Neu").await.unwrap();
        assert!(after.id > next.id);
    }
}
