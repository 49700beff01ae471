//! Visits of the customer page (`customer_visits`): per user, the last page load of the
//! current visit and of the one before it.

use chrono::{DateTime, Utc};

use crate::db::Db;
use crate::db_run;

/// Records a page load at `now`. A load after `new_visit_before` (the current visit's last
/// load is older than that) starts a new visit: the old visit's last load becomes the previous
/// visit. Returns the previous visit's last load, `None` for a first visit.
pub async fn record(
    db: &Db,
    subject: &str,
    now: DateTime<Utc>,
    new_visit_before: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, Option<DateTime<Utc>>>(
            "insert into customer_visits (subject, previous_visit_at, last_seen_at, created_at, \
             updated_at) values ($1, null, $2, $2, $2) \
             on conflict (subject) do update set previous_visit_at = case \
             when customer_visits.last_seen_at < $3 then customer_visits.last_seen_at \
             else customer_visits.previous_visit_at end, \
             last_seen_at = excluded.last_seen_at, updated_at = excluded.updated_at \
             returning previous_visit_at",
        )
        .bind(subject)
        .bind(now)
        .bind(new_visit_before)
        .fetch_one(pool)
        .await
    })
}

/// A user's visits as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct Visits {
    pub previous_visit_at: Option<DateTime<Utc>>,
    pub last_seen_at: DateTime<Utc>,
}

/// The data version (`data_version`) and the user's visits, in one round trip: every request
/// of a customer reads both.
pub async fn get_with_data_version(
    db: &Db,
    subject: &str,
) -> Result<(i64, Option<Visits>), sqlx::Error> {
    let (version, previous_visit_at, last_seen_at) = db_run!(db, pool => {
        sqlx::query_as::<_, (i64, Option<DateTime<Utc>>, Option<DateTime<Utc>>)>(
            "select d.version, v.previous_visit_at, v.last_seen_at from data_version d \
             left join customer_visits v on v.subject = $1 where d.id = 1",
        )
        .bind(subject)
        .fetch_one(pool)
        .await
    })?;
    let visits = last_seen_at.map(|last_seen_at| Visits {
        previous_visit_at,
        last_seen_at,
    });
    Ok((version, visits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;
    use chrono::Duration;

    #[tokio::test]
    async fn a_visit_starts_after_a_pause_and_remembers_the_one_before() {
        let t = TestDb::new().await;
        let gap = Duration::minutes(30);
        let start = crate::db::now() - Duration::days(2);
        let at = |minutes: i64| start + Duration::minutes(minutes);
        let record = |minutes: i64| record(&t.db, "local:7", at(minutes), at(minutes) - gap);
        let db = &t.db;
        let previous = |subject: &'static str| async move {
            let (_, visits) = get_with_data_version(db, subject).await.unwrap();
            visits.and_then(|v| v.previous_visit_at)
        };
        assert_eq!(record(0).await.unwrap(), None, "first visit");
        assert_eq!(record(10).await.unwrap(), None, "same visit");
        assert_eq!(previous("local:7").await, None);
        // An hour later: a new visit; the previous one ended at minute 10.
        assert_eq!(record(70).await.unwrap(), Some(at(10)));
        assert_eq!(record(80).await.unwrap(), Some(at(10)), "same visit");
        assert_eq!(previous("local:7").await, Some(at(10)));
        assert_eq!(record(200).await.unwrap(), Some(at(80)));
        let (_, visits) = get_with_data_version(&t.db, "local:7").await.unwrap();
        assert_eq!(visits.map(|v| v.last_seen_at), Some(at(200)));
        // Per user.
        assert_eq!(previous("local:8").await, None);
    }
}
