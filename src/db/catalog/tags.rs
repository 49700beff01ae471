//! Tags (`tags`). Which files of a package carry them is kept with the package
//! (`download_upload_tags`, see `downloads`).

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::sql::DynQuery;
use crate::db::{Db, now};
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
        crate::db::insight::audit::record!(tx, &audit.for_id(tag.id))?;
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

/// A tag with how many files of packages carry it (the tag screen).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TagInUse {
    #[sqlx(flatten)]
    pub tag: Tag,
    pub uses: i64,
}

/// All tags ordered by name, each with its number of uses.
pub async fn list_with_uses(db: &Db) -> Result<Vec<TagInUse>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, TagInUse>(
            "select t.id, t.name, t.icon, t.created_at, t.updated_at, \
             (select count(*) from download_upload_tags d where d.tag_id = t.id) as uses \
             from tags t order by t.name, t.id",
        )
        .fetch_all(pool)
        .await
    })
}

/// How many files of packages carry tag `id` (read from `download_upload_tags_tag_id_idx`).
pub async fn uses(db: &Db, id: i64) -> Result<i64, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar("select count(*) from download_upload_tags where tag_id = $1")
            .bind(id)
            .fetch_one(pool)
            .await
    })
}

pub async fn get(db: &Db, id: i64) -> Result<Option<Tag>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Tag>(
            "select id, name, icon, created_at, updated_at from tags where id = $1",
        )
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// Renames a tag and sets its icon, with `audit`; `None` when it does not exist. A taken name
/// fails with a unique violation.
pub async fn update(
    db: &Db,
    id: i64,
    name: &str,
    icon: &str,
    audit: &crate::domain::audit::Entry,
) -> Result<Option<Tag>, sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let tag = sqlx::query_as::<_, Tag>(
            "update tags set name = $1, icon = $2, updated_at = $3 where id = $4 \
             returning id, name, icon, created_at, updated_at",
        )
        .bind(name)
        .bind(icon)
        .bind(now)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        if tag.is_some() {
            crate::db::insight::audit::record!(tx, audit)?;
            tx.commit().await?;
        }
        Ok(tag)
    })
}

/// Deletes a tag and takes it off every file that carries it (by foreign key), with `audit`;
/// whether it existed.
pub async fn delete(
    db: &Db,
    id: i64,
    audit: &crate::domain::audit::Entry,
) -> Result<bool, sqlx::Error> {
    crate::db::insight::audit::execute_audited(
        db,
        "delete from tags where id = $1",
        &[id.into()],
        audit,
    )
    .await
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
