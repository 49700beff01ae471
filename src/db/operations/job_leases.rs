//! Leases of the timed background jobs (see migration 0008): one instance runs a round, the
//! others skip it.

use chrono::{DateTime, Utc};

use crate::db::Db;
use crate::db_run;

/// Takes the lease of job `name` for `owner` until `until` when nobody holds it at `now` (or
/// `owner` already does); `false` when another holder's lease still runs. One statement, so
/// two instances asking at once cannot both get it.
pub async fn take(
    db: &Db,
    name: &str,
    owner: &str,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, String>(
            "insert into job_leases (name, owner, lease_until, created_at, updated_at) \
             values ($1, $2, $3, $4, $4) \
             on conflict (name) do update set owner = excluded.owner, \
             lease_until = excluded.lease_until, updated_at = excluded.updated_at \
             where job_leases.lease_until <= $4 or job_leases.owner = $2 \
             returning owner",
        )
        .bind(name)
        .bind(owner)
        .bind(until)
        .bind(now)
        .fetch_optional(pool)
        .await
        .map(|taken| taken.is_some())
    })
}

/// Ends `owner`'s lease of job `name` at `now`, so the next round need not wait for it to run
/// out.
pub async fn release(
    db: &Db,
    name: &str,
    owner: &str,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query(
            "update job_leases set lease_until = $3, updated_at = $3 \
             where name = $1 and owner = $2",
        )
        .bind(name)
        .bind(owner)
        .bind(now)
        .execute(pool)
        .await
        .map(drop)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;
    use chrono::Duration;

    #[tokio::test]
    async fn one_holder_at_a_time_and_a_lapsed_lease_is_taken_over() {
        let t = TestDb::new().await;
        let now = crate::db::now();
        let until = now + Duration::minutes(5);
        assert!(take(&t.db, "retries", "a", now, until).await.unwrap());
        assert!(!take(&t.db, "retries", "b", now, until).await.unwrap());
        assert!(
            take(&t.db, "sweep", "b", now, until).await.unwrap(),
            "another job's lease is separate"
        );
        assert!(
            take(&t.db, "retries", "a", now, until).await.unwrap(),
            "the holder renews"
        );
        let later = until + Duration::seconds(1);
        assert!(
            take(&t.db, "retries", "b", later, later + Duration::minutes(5))
                .await
                .unwrap(),
            "a crashed holder's lease runs out"
        );
        release(&t.db, "retries", "b", later).await.unwrap();
        assert!(
            take(&t.db, "retries", "a", later, until + Duration::minutes(9))
                .await
                .unwrap()
        );
    }
}
