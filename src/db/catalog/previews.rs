//! Previews of stored contents (`previews`, one row per SHA-256): which contents still need
//! one, the claim of one instance while it renders, the stored JPEGs, and the removal of
//! rows whose content no upload has any more.

use chrono::{DateTime, Utc};

use crate::db::sql::DynQuery;
use crate::db::{Db, now};
use crate::db_run;

/// An upload whose content has no preview yet (or whose renderer's claim ran out).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PreviewCandidate {
    pub upload_id: i64,
    pub sha256: String,
    pub storage_key: String,
    pub content_type: String,
    pub size: i64,
}

/// Up to `limit` uploads with ids above `after`, of `content_types`, whose content needs a
/// preview at `now`; by id. Walking on from the last id found reads each upload once.
pub async fn candidates(
    db: &Db,
    content_types: &[&str],
    after: i64,
    limit: i64,
    now: DateTime<Utc>,
) -> Result<Vec<PreviewCandidate>, sqlx::Error> {
    let mut query = DynQuery::new(
        "select u.id as upload_id, u.sha256, u.storage_key, u.content_type, u.size \
         from uploads u left join previews p on p.sha256 = u.sha256 \
         where u.sha256 is not null and u.id > ",
    );
    let after = query.param(after);
    let types: Vec<String> = content_types
        .iter()
        .map(|t| query.param(t.to_string()))
        .collect();
    let now = query.param(now);
    let limit = query.param(limit);
    query.push(&format!(
        "{after} and u.content_type in ({}) \
         and (p.sha256 is null or (p.state = 'rendering' and p.claimed_until < {now})) \
         order by u.id limit {limit}",
        types.join(", ")
    ));
    query.fetch_all(db).await
}

/// Claims a content for rendering until `until`. `false` when it has its previews, has
/// failed, or another renderer's claim still runs.
pub async fn claim(
    db: &Db,
    sha256: &str,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, String>(
            "insert into previews (sha256, state, claimed_until, created_at, updated_at) \
             values ($1, 'rendering', $3, $2, $2) \
             on conflict (sha256) do update set claimed_until = excluded.claimed_until, \
             updated_at = excluded.updated_at \
             where previews.state = 'rendering' and previews.claimed_until < $2 \
             returning sha256",
        )
        .bind(sha256)
        .bind(now)
        .bind(until)
        .fetch_optional(pool)
        .await
        .map(|claimed| claimed.is_some())
    })
}

/// The two stored previews of a content.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredPreviews {
    pub thumb_key: String,
    pub thumb_width: i32,
    pub thumb_height: i32,
    pub large_key: String,
    pub large_width: i32,
    pub large_height: i32,
}

/// Records a content's previews. `false` when it is no longer claimed for rendering (another
/// renderer finished first, or the content is gone): the caller removes its objects.
pub async fn finish(db: &Db, sha256: &str, stored: &StoredPreviews) -> Result<bool, sqlx::Error> {
    let now = now();
    let done = db_run!(db, pool => {
        sqlx::query(
            "update previews set state = 'ready', claimed_until = null, thumb_key = $2, \
             thumb_width = $3, thumb_height = $4, large_key = $5, large_width = $6, \
             large_height = $7, error = null, updated_at = $8 \
             where sha256 = $1 and state = 'rendering' \
             and exists (select 1 from uploads u where u.sha256 = $1)",
        )
        .bind(sha256)
        .bind(&stored.thumb_key)
        .bind(stored.thumb_width)
        .bind(stored.thumb_height)
        .bind(&stored.large_key)
        .bind(stored.large_width)
        .bind(stored.large_height)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(done > 0)
}

/// Records that a content gets no preview, and why (not tried again by itself).
pub async fn fail(db: &Db, sha256: &str, error: &str) -> Result<(), sqlx::Error> {
    let now = now();
    let error: String = error.chars().take(500).collect();
    db_run!(db, pool => {
        sqlx::query(
            "update previews set state = 'failed', claimed_until = null, error = $2, \
             updated_at = $3 where sha256 = $1 and state = 'rendering'",
        )
        .bind(sha256)
        .bind(&error)
        .bind(now)
        .execute(pool)
        .await
        .map(drop)
    })
}

/// The stored previews of a content, when it has them.
pub async fn ready(db: &Db, sha256: &str) -> Result<Option<StoredPreviews>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, StoredPreviews>(
            "select thumb_key, thumb_width, thumb_height, large_key, large_width, large_height \
             from previews where sha256 = $1 and state = 'ready'",
        )
        .bind(sha256)
        .fetch_optional(pool)
        .await
    })
}

/// A picture a mail may show: an upload's ready thumbnail, with the upload's storage key
/// (its public address is made from it).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct MailPicture {
    pub upload_id: i64,
    pub storage_key: String,
    pub sha256: String,
    pub thumb_key: String,
    pub created_at: DateTime<Utc>,
}

const MAIL_PICTURE: &str = "select u.id as upload_id, u.storage_key, u.sha256, p.thumb_key, \
     u.created_at from uploads u join previews p on p.sha256 = u.sha256 and p.state = 'ready'";

/// The picture of upload `id` for a mail, when it has a ready thumbnail and is a provider's
/// logo or a file of a package (nothing else is shown in mails).
pub async fn mail_picture(db: &Db, id: i64) -> Result<Option<MailPicture>, sqlx::Error> {
    let sql = format!(
        "{MAIL_PICTURE} where u.id = $1 and (exists (select 1 from providers pr \
         where pr.upload_id = u.id) or exists (select 1 from download_uploads du \
         where du.upload_id = u.id))"
    );
    db_run!(db, pool => {
        sqlx::query_as::<_, MailPicture>(&sql).bind(id).fetch_optional(pool).await
    })
}

/// The pictures package `download_id`'s announcement shows: its provider's logo, and the
/// first four of its files (in the package's order) that have a ready thumbnail.
pub async fn pictures_of_package(
    db: &Db,
    download_id: i64,
) -> Result<(Option<MailPicture>, Vec<MailPicture>), sqlx::Error> {
    let logo_sql = format!(
        "{MAIL_PICTURE} join providers pr on pr.upload_id = u.id \
         join downloads d on d.provider_id = pr.id where d.id = $1"
    );
    let files_sql = format!(
        "{MAIL_PICTURE} join download_uploads du on du.upload_id = u.id \
         where du.download_id = $1 order by du.position, du.upload_id limit 4"
    );
    db_run!(db, pool => {
        let logo = sqlx::query_as::<_, MailPicture>(&logo_sql)
            .bind(download_id)
            .fetch_optional(pool)
            .await?;
        let files = sqlx::query_as::<_, MailPicture>(&files_sql)
            .bind(download_id)
            .fetch_all(pool)
            .await?;
        Ok((logo, files))
    })
}

/// Removes the rows of these contents (all contents: `None`) that no upload has any more,
/// and returns their stored keys, to be deleted from the file store.
pub async fn delete_unused(
    db: &Db,
    sha256s: Option<&[String]>,
) -> Result<Vec<String>, sqlx::Error> {
    let mut query = DynQuery::new(
        "delete from previews where not exists \
         (select 1 from uploads u where u.sha256 = previews.sha256)",
    );
    if let Some(sha256s) = sha256s {
        if sha256s.is_empty() {
            return Ok(Vec::new());
        }
        let list: Vec<String> = sha256s.iter().map(|s| query.param(s.clone())).collect();
        query.push(&format!(" and sha256 in ({})", list.join(", ")));
    }
    query.push(" returning thumb_key, large_key");
    let rows: Vec<(Option<String>, Option<String>)> = query.fetch_all(db).await?;
    Ok(rows
        .into_iter()
        .flat_map(|(thumb, large)| thumb.into_iter().chain(large))
        .collect())
}

/// Whether a row names this stored key (the sweep's test for a file on disk).
pub async fn key_in_use(db: &Db, key: &str) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "select count(*) from previews where thumb_key = $1 or large_key = $1",
        )
        .bind(key)
        .fetch_one(pool)
        .await
        .map(|n| n > 0)
    })
}

/// How many contents have previews, have none for good, and still wait (of `content_types`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub ready: i64,
    pub failed: i64,
    pub waiting: i64,
}

pub async fn counts(db: &Db, content_types: &[&str]) -> Result<Counts, sqlx::Error> {
    let mut query = DynQuery::new(
        "select coalesce(sum(case when p.state = 'ready' then 1 else 0 end), 0), \
         coalesce(sum(case when p.state = 'failed' then 1 else 0 end), 0), \
         coalesce(sum(case when p.state is null or p.state = 'rendering' then 1 else 0 end), 0) \
         from (select distinct sha256 from uploads where sha256 is not null and content_type in (",
    );
    let types: Vec<String> = content_types
        .iter()
        .map(|t| query.param(t.to_string()))
        .collect();
    query.push(&types.join(", "));
    query.push(")) c left join previews p on p.sha256 = c.sha256");
    let rows: Vec<(i64, i64, i64)> = query.fetch_all(db).await?;
    let (ready, failed, waiting) = rows.into_iter().next().unwrap_or_default();
    Ok(Counts {
        ready,
        failed,
        waiting,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::catalog::uploads::{self, NewUpload};
    use crate::test_support::TestDb;

    async fn upload(t: &TestDb, key: &str, sha: &str, content_type: &str) -> i64 {
        uploads::create(
            &t.db,
            &NewUpload {
                name: "Flyer.pdf".into(),
                storage_key: key.into(),
                ext: "pdf".into(),
                size: 10,
                content_type: content_type.into(),
                sha256: Some(sha.into()),
                crc32: Some(1),
                uploaded_by: None,
            },
            &crate::domain::audit::Actor::Cli,
        )
        .await
        .unwrap()
        .id
    }

    fn stored(n: u8) -> StoredPreviews {
        StoredPreviews {
            thumb_key: format!("{n}{n}/thumb.jpg"),
            thumb_width: 320,
            thumb_height: 452,
            large_key: format!("{n}{n}/large.jpg"),
            large_width: 1200,
            large_height: 1697,
        }
    }

    const TYPES: [&str; 2] = ["application/pdf", "image/png"];

    #[tokio::test]
    async fn a_content_is_claimed_once_rendered_once_and_shared() {
        let t = TestDb::new().await;
        let first = upload(&t, "a1/a.pdf", "aaa", "application/pdf").await;
        let _same = upload(&t, "b1/b.pdf", "aaa", "application/pdf").await;
        let _video = upload(&t, "c1/c.mp4", "ccc", "video/mp4").await;
        let now = now();
        let found = candidates(&t.db, &TYPES, 0, 10, now).await.unwrap();
        assert_eq!(found.len(), 2, "both uploads, one content");
        assert_eq!(found[0].upload_id, first);
        let later = now + chrono::Duration::seconds(60);
        assert!(claim(&t.db, "aaa", now, later).await.unwrap());
        assert!(
            !claim(&t.db, "aaa", now, later).await.unwrap(),
            "claimed once"
        );
        assert!(
            candidates(&t.db, &TYPES, 0, 10, now)
                .await
                .unwrap()
                .is_empty()
        );
        // A claim that ran out (its renderer died) is taken again.
        let after = later + chrono::Duration::seconds(1);
        assert_eq!(
            candidates(&t.db, &TYPES, 0, 10, after).await.unwrap().len(),
            2
        );
        assert!(
            claim(&t.db, "aaa", after, after + chrono::Duration::seconds(60))
                .await
                .unwrap()
        );
        assert!(finish(&t.db, "aaa", &stored(1)).await.unwrap());
        assert!(
            !finish(&t.db, "aaa", &stored(2)).await.unwrap(),
            "finished once"
        );
        assert_eq!(ready(&t.db, "aaa").await.unwrap(), Some(stored(1)));
        assert!(!claim(&t.db, "aaa", after, after).await.unwrap());
        assert!(key_in_use(&t.db, "11/large.jpg").await.unwrap());
        assert_eq!(
            counts(&t.db, &TYPES).await.unwrap(),
            Counts {
                ready: 1,
                failed: 0,
                waiting: 0
            }
        );
    }

    #[tokio::test]
    async fn failures_stay_and_unused_rows_leave_with_their_keys() {
        let t = TestDb::new().await;
        let id = upload(&t, "a1/a.pdf", "aaa", "application/pdf").await;
        upload(&t, "b1/b.png", "bbb", "image/png").await;
        let now = now();
        assert!(claim(&t.db, "bbb", now, now).await.unwrap());
        fail(&t.db, "bbb", "kaputt").await.unwrap();
        assert!(
            candidates(&t.db, &TYPES, 0, 10, now + chrono::Duration::days(1))
                .await
                .unwrap()
                .iter()
                .all(|c| c.sha256 == "aaa")
        );
        assert!(claim(&t.db, "aaa", now, now).await.unwrap());
        assert!(finish(&t.db, "aaa", &stored(1)).await.unwrap());
        assert_eq!(
            counts(&t.db, &TYPES).await.unwrap(),
            Counts {
                ready: 1,
                failed: 1,
                waiting: 0
            }
        );
        // While an upload has the content, its row stays.
        assert!(delete_unused(&t.db, None).await.unwrap().is_empty());
        uploads::delete(&t.db, id, &crate::domain::audit::Actor::Cli)
            .await
            .unwrap();
        assert_eq!(
            delete_unused(&t.db, Some(&["aaa".to_string()]))
                .await
                .unwrap(),
            vec!["11/thumb.jpg".to_string(), "11/large.jpg".to_string()]
        );
        assert!(!key_in_use(&t.db, "11/large.jpg").await.unwrap());
        // A content whose last upload went while it was rendered gets no row.
        let gone = upload(&t, "d1/d.pdf", "ddd", "application/pdf").await;
        assert!(claim(&t.db, "ddd", now, now).await.unwrap());
        uploads::delete(&t.db, gone, &crate::domain::audit::Actor::Cli)
            .await
            .unwrap();
        assert!(!finish(&t.db, "ddd", &stored(4)).await.unwrap());
    }
}
