//! Login attempts per throttle key (`login_attempts`): one row per account or client address,
//! counting the attempts of the window that started at `window_start`.

use chrono::{DateTime, Utc};

use crate::db::Db;
use crate::db_run;

/// Counts one more attempt for `key` and returns the attempts of its current window,
/// including this one. A window older than `window_started_before` starts over at 1.
/// One statement, so simultaneous attempts are counted one after the other.
pub async fn reserve(
    db: &Db,
    key: &str,
    now: DateTime<Utc>,
    window_started_before: DateTime<Utc>,
) -> Result<(i64, DateTime<Utc>), sqlx::Error> {
    db_run!(db, pool => sqlx::query_as::<_, (i64, DateTime<Utc>)>(
        "insert into login_attempts (throttle_key, attempts, window_start, created_at, updated_at) \
         values ($1, 1, $2, $2, $2) \
         on conflict (throttle_key) do update set \
           attempts = case when login_attempts.window_start <= $3 then 1 \
                           else login_attempts.attempts + 1 end, \
           window_start = case when login_attempts.window_start <= $3 then $2 \
                               else login_attempts.window_start end, \
           updated_at = $2 \
         returning cast(attempts as bigint), window_start",
    )
    .bind(key)
    .bind(now)
    .bind(window_started_before)
    .fetch_one(pool)
    .await)
}

/// Gives one reserved attempt back (a login that succeeded or was never checked).
pub async fn release(db: &Db, key: &str, now: DateTime<Utc>) -> Result<(), sqlx::Error> {
    db_run!(db, pool => sqlx::query(
        "update login_attempts set attempts = attempts - 1, updated_at = $2 \
         where throttle_key = $1 and attempts > 0",
    )
    .bind(key)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ()))
}

/// Forgets the attempts of `key` (a successful login, or an admin lifting a lock).
pub async fn clear(db: &Db, key: &str) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => sqlx::query("delete from login_attempts where throttle_key = $1")
        .bind(key)
        .execute(pool)
        .await
        .map(|r| r.rows_affected() > 0))
}

/// Deletes windows that started before `cutoff`; they no longer limit anything.
pub async fn delete_older_than(db: &Db, cutoff: DateTime<Utc>) -> Result<u64, sqlx::Error> {
    db_run!(db, pool => sqlx::query("delete from login_attempts where window_start < $1")
        .bind(cutoff)
        .execute(pool)
        .await
        .map(|r| r.rows_affected()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;
    use chrono::Duration;

    #[tokio::test]
    async fn attempts_count_up_within_a_window_and_start_over_after_it() {
        let test = TestDb::new().await;
        let db = &test.db;
        let start = crate::db::now();
        let window = Duration::minutes(15);
        for expected in 1..=3 {
            let (count, window_start) = reserve(db, "account:erika", start, start - window)
                .await
                .unwrap();
            assert_eq!(count, expected);
            assert_eq!(window_start, start);
        }
        release(db, "account:erika", start).await.unwrap();
        let later = start + Duration::minutes(5);
        assert_eq!(
            reserve(db, "account:erika", later, later - window)
                .await
                .unwrap()
                .0,
            3
        );
        let after = start + Duration::minutes(16);
        let (count, window_start) = reserve(db, "account:erika", after, after - window)
            .await
            .unwrap();
        assert_eq!((count, window_start), (1, after));
        assert!(clear(db, "account:erika").await.unwrap());
        assert!(!clear(db, "account:erika").await.unwrap());
        reserve(db, "address:192.0.2.1", start, start - window)
            .await
            .unwrap();
        assert_eq!(delete_older_than(db, start + window).await.unwrap(), 1);
    }

    #[tokio::test]
    async fn simultaneous_attempts_get_distinct_counts() {
        let test = TestDb::new().await;
        let now = crate::db::now();
        let attempts = (0..12).map(|_| {
            let db = test.db.clone();
            tokio::spawn(async move {
                reserve(&db, "account:burst", now, now - Duration::minutes(15))
                    .await
                    .unwrap()
                    .0
            })
        });
        let mut counts: Vec<i64> = Vec::new();
        for attempt in attempts {
            counts.push(attempt.await.unwrap());
        }
        counts.sort();
        assert_eq!(counts, (1..=12).collect::<Vec<_>>());
    }
}
