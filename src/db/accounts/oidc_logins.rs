//! OpenID Connect logins in progress (`oidc_logins`), keyed by the hash of the `state`.

use chrono::{DateTime, Utc};

use crate::db::{Db, now};
use crate::db_run;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PendingLogin {
    pub state_hash: String,
    pub pkce_verifier: String,
    pub nonce: String,
    pub return_to: Option<String>,
    /// SHA-256 of the value in the starting browser's cookie; `None` for logins started
    /// before it was kept (they cannot be finished).
    pub browser_hash: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A login to remember until the provider sends the browser back.
pub struct NewLogin<'a> {
    pub state_hash: &'a str,
    pub pkce_verifier: &'a str,
    pub nonce: &'a str,
    pub return_to: Option<&'a str>,
    pub browser_hash: &'a str,
}

pub async fn create(db: &Db, login: &NewLogin<'_>) -> Result<(), sqlx::Error> {
    let now = now();
    db_run!(db, pool => sqlx::query(
        "insert into oidc_logins (state_hash, pkce_verifier, nonce, return_to, browser_hash, \
         created_at, updated_at) values ($1, $2, $3, $5, $6, $4, $4)",
    )
    .bind(login.state_hash)
    .bind(login.pkce_verifier)
    .bind(login.nonce)
    .bind(now)
    .bind(login.return_to)
    .bind(login.browser_hash)
    .execute(pool)
    .await
    .map(|_| ()))
}

/// Removes and returns the pending login, so a `state` can be used once only.
pub async fn take(db: &Db, state_hash: &str) -> Result<Option<PendingLogin>, sqlx::Error> {
    db_run!(db, pool => sqlx::query_as::<_, PendingLogin>(
        "delete from oidc_logins where state_hash = $1 \
         returning state_hash, pkce_verifier, nonce, return_to, browser_hash, created_at",
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

    fn login<'a>(state_hash: &'a str, return_to: Option<&'a str>) -> NewLogin<'a> {
        NewLogin {
            state_hash,
            pkce_verifier: "verifier",
            nonce: "nonce",
            return_to,
            browser_hash: "browser",
        }
    }

    #[tokio::test]
    async fn a_pending_login_is_taken_once() {
        let t = TestDb::new().await;
        create(&t.db, &login("h1", Some("/admin/downloads")))
            .await
            .unwrap();
        let taken = take(&t.db, "h1").await.unwrap().unwrap();
        assert_eq!(
            (taken.pkce_verifier.as_str(), taken.nonce.as_str()),
            ("verifier", "nonce")
        );
        assert_eq!(taken.return_to.as_deref(), Some("/admin/downloads"));
        assert_eq!(taken.browser_hash.as_deref(), Some("browser"));
        assert!(take(&t.db, "h1").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn abandoned_logins_are_removed() {
        let t = TestDb::new().await;
        create(&t.db, &login("old", None)).await.unwrap();
        assert_eq!(
            delete_older_than(&t.db, Utc::now() + chrono::Duration::seconds(1))
                .await
                .unwrap(),
            1
        );
        assert!(take(&t.db, "old").await.unwrap().is_none());
    }
}
