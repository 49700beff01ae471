//! Server-side sessions (`sessions`).
//!
//! The row is keyed by the SHA-256 hex of the cookie token ([`hash_token`]), so a copy of the
//! database holds no usable session. `roles` is a JSON array snapshot of the roles at login; it
//! is only ever read back whole, never queried by role.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::Db;
use crate::db_run;

macro_rules! session_columns {
    () => {
        "id_hash, user_id, subject, name, email, customer_number, roles, created_at, \
         last_seen_at, expires_at, updated_at"
    };
}

pub use crate::domain::secret::hash_token;

#[derive(Debug, Clone)]
pub struct NewSession {
    pub id_hash: String,
    /// The local account, or `None` for OIDC users.
    pub user_id: Option<i64>,
    /// OIDC `sub`, or `local:{user id}`.
    pub subject: String,
    pub name: String,
    pub email: String,
    pub customer_number: Option<i64>,
    pub roles: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Session {
    #[serde(skip_serializing)]
    pub id_hash: String,
    pub user_id: Option<i64>,
    pub subject: String,
    pub name: String,
    pub email: String,
    pub customer_number: Option<i64>,
    pub roles: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct SessionRow {
    id_hash: String,
    user_id: Option<i64>,
    subject: String,
    name: String,
    email: String,
    customer_number: Option<i64>,
    roles: String,
    created_at: DateTime<Utc>,
    last_seen_at: DateTime<Utc>,
    expires_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

impl TryFrom<SessionRow> for Session {
    type Error = sqlx::Error;

    fn try_from(row: SessionRow) -> Result<Session, sqlx::Error> {
        let roles: Vec<String> =
            serde_json::from_str(&row.roles).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        Ok(Session {
            id_hash: row.id_hash,
            user_id: row.user_id,
            subject: row.subject,
            name: row.name,
            email: row.email,
            customer_number: row.customer_number,
            roles,
            created_at: row.created_at,
            last_seen_at: row.last_seen_at,
            expires_at: row.expires_at,
            updated_at: row.updated_at,
        })
    }
}

/// Stores a new session; `last_seen_at` and `updated_at` start at `created_at`.
pub async fn create(db: &Db, new: &NewSession) -> Result<Session, sqlx::Error> {
    let roles = serde_json::to_string(&new.roles).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let row = db_run!(db, pool => {
        sqlx::query_as::<_, SessionRow>(concat!(
            "insert into sessions (id_hash, user_id, subject, name, email, customer_number, roles, \
             created_at, last_seen_at, expires_at, updated_at) \
             values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $8) returning ",
            session_columns!()
        ))
        .bind(&new.id_hash)
        .bind(new.user_id)
        .bind(&new.subject)
        .bind(&new.name)
        .bind(&new.email)
        .bind(new.customer_number)
        .bind(&roles)
        .bind(new.created_at)
        .bind(new.expires_at)
        .fetch_one(pool)
        .await?
    });
    row.try_into()
}

/// The session stored under `id_hash` (whether or not it has expired) with the data version
/// (`data_version`), read in one statement: the lists key their kept answers with the
/// version, and on SQLite every statement is a hand-off to a worker thread (issue 41: a contacts page was three statements, the
/// session, the version and the page). The texts of the contacts learn their version as with
/// [`crate::db::operations::data_version::current`].
pub async fn find_with_data_version(
    db: &Db,
    id_hash: &str,
) -> Result<Option<(Session, i64)>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        #[sqlx(flatten)]
        session: SessionRow,
        data_version: i64,
        text_version: i64,
    }
    let row = db_run!(db, pool => {
        sqlx::query_as::<_, Row>(concat!(
            "select ",
            session_columns!(),
            ", (select version from data_version where id = 1) as data_version, \
             (select contact_text_version from data_version where id = 1) as text_version \
             from sessions where id_hash = $1"
        ))
        .bind(id_hash)
        .fetch_optional(pool)
        .await?
    });
    let Some(row) = row else {
        return Ok(None);
    };
    crate::db::contacts::texts::seen(db, row.text_version);
    Ok(Some((Session::try_from(row.session)?, row.data_version)))
}

/// The session stored under `id_hash` if it is still valid: not past `expires_at` and seen at or
/// after `idle_cutoff`.
pub async fn find_active(
    db: &Db,
    id_hash: &str,
    now: DateTime<Utc>,
    idle_cutoff: DateTime<Utc>,
) -> Result<Option<Session>, sqlx::Error> {
    let row = db_run!(db, pool => {
        sqlx::query_as::<_, SessionRow>(concat!(
            "select ",
            session_columns!(),
            " from sessions where id_hash = $1 and expires_at >= $2 and last_seen_at >= $3"
        ))
        .bind(id_hash)
        .bind(now)
        .bind(idle_cutoff)
        .fetch_optional(pool)
        .await?
    });
    row.map(Session::try_from).transpose()
}

/// Records activity on a session. False when it no longer exists.
pub async fn touch(db: &Db, id_hash: &str, now: DateTime<Utc>) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query("update sessions set last_seen_at = $2, updated_at = $2 where id_hash = $1")
            .bind(id_hash)
            .bind(now)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
}

/// Ends one session (logout). False when it did not exist.
pub async fn delete(db: &Db, id_hash: &str) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query("delete from sessions where id_hash = $1")
            .bind(id_hash)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
}

/// Ends every session of a local user; returns how many there were.
pub async fn delete_for_user(db: &Db, user_id: i64) -> Result<u64, sqlx::Error> {
    db_run!(db, pool => {
        Ok(sqlx::query("delete from sessions where user_id = $1")
            .bind(user_id)
            .execute(pool)
            .await?
            .rows_affected())
    })
}

/// Removes sessions past their absolute expiry (`expires_at < now`) or idle since before
/// `idle_cutoff` (`last_seen_at < idle_cutoff`); returns how many were removed.
pub async fn delete_expired(
    db: &Db,
    now: DateTime<Utc>,
    idle_cutoff: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    db_run!(db, pool => {
        Ok(
            sqlx::query("delete from sessions where expires_at < $1 or last_seen_at < $2")
                .bind(now)
                .bind(idle_cutoff)
                .execute(pool)
                .await?
                .rows_affected(),
        )
    })
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::db::{accounts::users, is_unique_violation, now};
    use crate::test_support::TestDb;

    /// The session alone.
    async fn find(db: &Db, id_hash: &str) -> Result<Option<Session>, sqlx::Error> {
        Ok(find_with_data_version(db, id_hash)
            .await?
            .map(|(session, _)| session))
    }

    fn new_session(
        token: &str,
        user_id: Option<i64>,
        created_at: DateTime<Utc>,
        ttl: Duration,
    ) -> NewSession {
        NewSession {
            id_hash: hash_token(token),
            user_id,
            subject: user_id.map_or_else(|| "oidc-sub-123".to_string(), |id| format!("local:{id}")),
            name: "Erika Mustermann".to_string(),
            email: "erika@example.de".to_string(),
            customer_number: Some(100002),
            roles: vec![
                "GS-Aktionsportal".to_string(),
                "GS-Aktionsportal-BU-Glasfaser".to_string(),
            ],
            created_at,
            expires_at: created_at + ttl,
        }
    }

    async fn local_user(t: &TestDb, login: &str) -> i64 {
        users::create(
            &t.db,
            &users::NewAccount {
                login: login.to_string(),
                password_hash: "x".to_string(),
                name: login.to_string(),
                email: format!("{login}@example.de"),
                customer_number: None,
                roles: vec![],
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap()
        .id
    }

    #[tokio::test]
    async fn create_find_touch_delete() {
        let t = TestDb::new().await;
        let uid = local_user(&t, "erika").await;
        let t0 = now();
        let created = create(
            &t.db,
            &new_session("token-1", Some(uid), t0, Duration::hours(8)),
        )
        .await
        .unwrap();
        assert_eq!(created.last_seen_at, t0);

        let found = find(&t.db, &hash_token("token-1")).await.unwrap().unwrap();
        assert_eq!(found.user_id, Some(uid));
        assert_eq!(found.subject, format!("local:{uid}"));
        assert_eq!(
            found.roles,
            vec!["GS-Aktionsportal", "GS-Aktionsportal-BU-Glasfaser"]
        );
        assert_eq!(found.created_at, t0);
        assert_eq!(found.expires_at, t0 + Duration::hours(8));
        assert!(find(&t.db, &hash_token("other")).await.unwrap().is_none());
        // The data version comes with it, as the lists read it on their own.
        let (_, version) = find_with_data_version(&t.db, &hash_token("token-1"))
            .await
            .unwrap()
            .unwrap();
        let current = crate::db::operations::data_version::current(&t.db)
            .await
            .unwrap();
        assert_eq!(version, current);

        let later = t0 + Duration::minutes(5);
        assert!(touch(&t.db, &hash_token("token-1"), later).await.unwrap());
        let touched = find(&t.db, &hash_token("token-1")).await.unwrap().unwrap();
        assert_eq!(touched.last_seen_at, later);
        assert_eq!(touched.created_at, t0);

        assert!(delete(&t.db, &hash_token("token-1")).await.unwrap());
        assert!(!delete(&t.db, &hash_token("token-1")).await.unwrap());
        assert!(!touch(&t.db, &hash_token("token-1"), later).await.unwrap());
    }

    #[tokio::test]
    async fn duplicate_hash_is_rejected() {
        let t = TestDb::new().await;
        let t0 = now();
        create(&t.db, &new_session("same", None, t0, Duration::hours(1)))
            .await
            .unwrap();
        let err = create(&t.db, &new_session("same", None, t0, Duration::hours(1)))
            .await
            .unwrap_err();
        assert!(is_unique_violation(&err));
    }

    #[tokio::test]
    async fn expiry_and_idle_cleanup() {
        let t = TestDb::new().await;
        let now = now();
        let idle_cutoff = now - Duration::hours(2);
        // Still valid: recent and not expired.
        create(
            &t.db,
            &new_session(
                "fresh",
                None,
                now - Duration::minutes(10),
                Duration::hours(8),
            ),
        )
        .await
        .unwrap();
        // Absolutely expired.
        create(
            &t.db,
            &new_session(
                "expired",
                None,
                now - Duration::hours(1),
                Duration::minutes(30),
            ),
        )
        .await
        .unwrap();
        // Not expired but idle since before the cutoff.
        create(
            &t.db,
            &new_session("idle", None, now - Duration::hours(3), Duration::hours(24)),
        )
        .await
        .unwrap();

        assert!(
            find_active(&t.db, &hash_token("fresh"), now, idle_cutoff)
                .await
                .unwrap()
                .is_some()
        );
        assert!(
            find_active(&t.db, &hash_token("expired"), now, idle_cutoff)
                .await
                .unwrap()
                .is_none()
        );
        assert!(
            find_active(&t.db, &hash_token("idle"), now, idle_cutoff)
                .await
                .unwrap()
                .is_none()
        );

        assert_eq!(delete_expired(&t.db, now, idle_cutoff).await.unwrap(), 2);
        assert!(find(&t.db, &hash_token("fresh")).await.unwrap().is_some());
        assert!(find(&t.db, &hash_token("expired")).await.unwrap().is_none());
        assert!(find(&t.db, &hash_token("idle")).await.unwrap().is_none());
        assert_eq!(delete_expired(&t.db, now, idle_cutoff).await.unwrap(), 0);
    }

    /// SQLite keeps timestamps as RFC 3339 text with 0, 3 or 6 fraction digits; comparisons must
    /// still follow time order at sub-second boundaries.
    #[tokio::test]
    async fn expiry_compares_sub_second_timestamps_in_time_order() {
        let t = TestDb::new().await;
        let base = DateTime::parse_from_rfc3339("2026-03-01T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let ms = Duration::milliseconds;
        let us = Duration::microseconds;
        // (token, expires_at) around now = base + 0.5 s.
        let cases = [
            ("whole-second-before", base),
            ("micro-before", base + ms(500) - us(1)),
            ("equal", base + ms(500)),
            ("micro-after", base + ms(500) + us(1)),
            ("whole-second-after", base + Duration::seconds(1)),
            ("milli-after", base + ms(501)),
        ];
        for (token, expires_at) in cases {
            let mut new = new_session(token, None, base - Duration::hours(1), Duration::zero());
            new.expires_at = expires_at;
            create(&t.db, &new).await.unwrap();
        }
        let now = base + ms(500);
        assert_eq!(
            delete_expired(&t.db, now, base - Duration::days(1))
                .await
                .unwrap(),
            2
        );
        for (token, expires_at) in cases {
            let kept = find(&t.db, &hash_token(token)).await.unwrap();
            assert_eq!(kept.is_some(), expires_at >= now, "{token}");
            if let Some(kept) = kept {
                assert_eq!(kept.expires_at, expires_at, "{token}");
            }
        }
    }

    #[tokio::test]
    async fn user_sessions_end_with_the_user() {
        let t = TestDb::new().await;
        let a = local_user(&t, "a").await;
        let b = local_user(&t, "b").await;
        let t0 = now();
        create(&t.db, &new_session("a1", Some(a), t0, Duration::hours(1)))
            .await
            .unwrap();
        create(&t.db, &new_session("a2", Some(a), t0, Duration::hours(1)))
            .await
            .unwrap();
        create(&t.db, &new_session("b1", Some(b), t0, Duration::hours(1)))
            .await
            .unwrap();
        assert_eq!(delete_for_user(&t.db, a).await.unwrap(), 2);
        assert!(find(&t.db, &hash_token("b1")).await.unwrap().is_some());
        // Deleting the account cascades to its sessions.
        assert!(
            users::delete_by_login(&t.db, "b", &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        assert!(find(&t.db, &hash_token("b1")).await.unwrap().is_none());
    }
}
