//! OpenID Connect logins in progress (`oidc_logins`), keyed by the hash of the `state`.

use chrono::{DateTime, Utc};

use super::{Db, now};
use crate::db_run;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PendingLogin {
    pub state_hash: String,
    pub pkce_verifier: String,
    pub nonce: String,
    pub return_to: Option<String>,
    pub created_at: DateTime<Utc>,
}

pub async fn create(
    db: &Db,
    state_hash: &str,
    pkce_verifier: &str,
    nonce: &str,
    return_to: Option<&str>,
) -> Result<(), sqlx::Error> {
    let now = now();
    db_run!(db, pool => sqlx::query(
        "insert into oidc_logins (state_hash, pkce_verifier, nonce, return_to, created_at, updated_at) \
         values ($1, $2, $3, $5, $4, $4)",
    )
    .bind(state_hash)
    .bind(pkce_verifier)
    .bind(nonce)
    .bind(now)
    .bind(return_to)
    .execute(pool)
    .await
    .map(|_| ()))
}

/// Removes and returns the pending login, so a `state` can be used once only.
pub async fn take(db: &Db, state_hash: &str) -> Result<Option<PendingLogin>, sqlx::Error> {
    db_run!(db, pool => sqlx::query_as::<_, PendingLogin>(
        "delete from oidc_logins where state_hash = $1 \
         returning state_hash, pkce_verifier, nonce, return_to, created_at",
    )
    .bind(state_hash)
    .fetch_optional(pool)
    .await)
}

/// Deletes logins started before `cutoff` (abandoned at the provider).
pub async fn delete_older_than(db: &Db, cutoff: DateTime<Utc>) -> Result<u64, sqlx::Error> {
    db_run!(db, pool => sqlx::query("delete from oidc_logins where created_at < $1")
        .bind(cutoff)
        .execute(pool)
        .await
        .map(|r| r.rows_affected()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;

    #[tokio::test]
    async fn a_pending_login_is_taken_once() {
        let t = TestDb::new().await;
        create(&t.db, "h1", "verifier", "nonce", Some("/admin/downloads"))
            .await
            .unwrap();
        let taken = take(&t.db, "h1").await.unwrap().unwrap();
        assert_eq!(
            (taken.pkce_verifier.as_str(), taken.nonce.as_str()),
            ("verifier", "nonce")
        );
        assert_eq!(taken.return_to.as_deref(), Some("/admin/downloads"));
        assert!(take(&t.db, "h1").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn abandoned_logins_are_removed() {
        let t = TestDb::new().await;
        create(&t.db, "old", "v", "n", None).await.unwrap();
        assert_eq!(
            delete_older_than(&t.db, Utc::now() + chrono::Duration::seconds(1))
                .await
                .unwrap(),
            1
        );
        assert!(take(&t.db, "old").await.unwrap().is_none());
    }
}
