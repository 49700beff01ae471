//! The one-click unsubscribe links of advertising mails (`unsubscribe_tokens`, issue 37): a
//! random token per mail, of which only the SHA-256 is kept.

use chrono::{DateTime, Utc};

use crate::db::Db;
use crate::db_run;

/// Keeps the hash of a new link for `contact_id`, in a mail of package `download_id`; `false`
/// when that contact no longer exists.
pub async fn add_token(
    db: &Db,
    token_hash: &str,
    contact_id: i64,
    download_id: Option<i64>,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    // The mail queue stores a link while another connection reads the contact, so a
    // deletion in between is not an error.
    let stored = db_run!(db, pool => {
        sqlx::query(
            "insert into unsubscribe_tokens (token_hash, contact_id, download_id, created_at, \
             updated_at) select $1, id, $3, $4, $4 from contacts where id = $2",
        )
        .bind(token_hash)
        .bind(contact_id)
        .bind(download_id)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(stored > 0)
}

/// Removes the link of a mail that was not sent (it reached nobody, so nobody can use it).
pub async fn remove_token(db: &Db, token_hash: &str) -> Result<(), sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query("delete from unsubscribe_tokens where token_hash = $1")
            .bind(token_hash)
            .execute(pool)
            .await?;
        Ok(())
    })
}

/// The contact a link unsubscribes, if the link is known (its contact still exists).
pub async fn contact_of_token(db: &Db, token_hash: &str) -> Result<Option<i64>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar("select contact_id from unsubscribe_tokens where token_hash = $1")
            .bind(token_hash)
            .fetch_optional(pool)
            .await
    })
}

/// Notes when a link was used (the first time only).
pub async fn mark_used(db: &Db, token_hash: &str, now: DateTime<Utc>) -> Result<(), sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query(
            "update unsubscribe_tokens set used_at = $2, updated_at = $2 where token_hash = $1 \
             and used_at is null",
        )
        .bind(token_hash)
        .bind(now)
        .execute(pool)
        .await?;
        Ok(())
    })
}

/// Removes links older than `before` (a mail's link works for a long while, not for ever).
pub async fn remove_older_than(db: &Db, before: DateTime<Utc>) -> Result<u64, sqlx::Error> {
    db_run!(db, pool => {
        Ok(sqlx::query("delete from unsubscribe_tokens where created_at < $1")
            .bind(before)
            .execute(pool)
            .await?
            .rows_affected())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;

    #[tokio::test]
    async fn a_link_leads_to_its_contact_until_it_is_removed_as_old() {
        let t = TestDb::new().await;
        let contact = t.contact(0, true, false).await;
        let now = crate::db::now();
        let old = now - chrono::Duration::days(800);
        add_token(&t.db, "alt", contact, None, old).await.unwrap();
        add_token(&t.db, "neu", contact, Some(1), now)
            .await
            .unwrap();
        assert_eq!(contact_of_token(&t.db, "alt").await.unwrap(), Some(contact));
        assert_eq!(contact_of_token(&t.db, "nichts").await.unwrap(), None);
        mark_used(&t.db, "neu", now).await.unwrap();
        let removed = remove_older_than(&t.db, now - chrono::Duration::days(730))
            .await
            .unwrap();
        assert_eq!(removed, 1);
        assert_eq!(contact_of_token(&t.db, "alt").await.unwrap(), None);
        assert_eq!(contact_of_token(&t.db, "neu").await.unwrap(), Some(contact));
    }
}
