//! Tags (`tags`). Which files of a package carry them is kept with the package
//! (`download_upload_tags`, see `downloads`).

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::sql::DynQuery;
use super::{Db, now};
use crate::db_run;

#[derive(Debug, Clone, sqlx::FromRow, Serialize, utoipa::ToSchema)]
pub struct Tag {
    pub id: i64,
    pub name: String,
    /// A Bootstrap icon class (`bi bi-…`) or an image URL.
    pub icon: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Creates a tag with `audit` for its id. A taken name fails with a unique violation.
pub async fn create(
    db: &Db,
    name: &str,
    icon: &str,
    audit: &crate::domain::audit::Entry,
) -> Result<Tag, sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let tag = sqlx::query_as::<_, Tag>(
            "insert into tags (name, icon, created_at, updated_at) values ($1, $2, $3, $3) \
             returning id, name, icon, created_at, updated_at",
        )
        .bind(name)
        .bind(icon)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        super::audit::record!(tx, &audit.for_id(tag.id))?;
        tx.commit().await?;
        Ok(tag)
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

/// How many of these tag ids exist.
pub async fn count_existing(db: &Db, ids: &[i64]) -> Result<i64, sqlx::Error> {
    if ids.is_empty() {
        return Ok(0);
    }
    let mut query = DynQuery::new("select count(*) from tags where id in ");
    let list = query.id_list(ids);
    query.push(&list);
    query.fetch_count(db).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::is_unique_violation;
    use crate::test_support::TestDb;

    #[tokio::test]
    async fn tags_have_unique_names_and_are_listed_by_name() {
        let t = TestDb::new().await;
        let plakat = create(
            &t.db,
            "Plakat",
            "bi bi-image",
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        let flyer = create(
            &t.db,
            "Flyer",
            "bi bi-file-earmark-pdf",
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        let err = create(
            &t.db,
            "Flyer",
            "bi bi-x",
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap_err();
        assert!(is_unique_violation(&err));
        let names: Vec<_> = list(&t.db)
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["Flyer", "Plakat"]);
        assert_eq!(
            count_existing(&t.db, &[plakat.id, flyer.id, 999])
                .await
                .unwrap(),
            2
        );
        assert_eq!(count_existing(&t.db, &[]).await.unwrap(), 0);
    }
}
