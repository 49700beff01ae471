//! Mails to many contacts (`mail_jobs`, `mail_job_items`), sent item by item by whichever
//! worker holds the job's lease. An item is claimed (`sending`) before its mail goes out and
//! marked `sent` right after, so a restart knows exactly which items are open.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::Db;
use crate::db_run;

/// The kind of the double opt-in mail to all pending contacts.
pub const DOUBLE_OPT_IN: &str = "double_opt_in";

#[derive(Debug, Clone, sqlx::FromRow, Serialize, utoipa::ToSchema)]
#[schema(as = MailJobRecord)]
#[serde(rename_all = "camelCase")]
pub struct MailJob {
    pub id: i64,
    pub kind: String,
    /// `running` or `done`.
    pub status: String,
    /// Contacts the job mails.
    pub total: i64,
    /// Email (or name) of the user who started it.
    pub started_by: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

macro_rules! job_columns {
    () => {
        "id, kind, status, total, started_by, created_at, updated_at, finished_at"
    };
}

/// How far a job has come: items per state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = MailJobItemCounts)]
pub struct ItemCounts {
    /// Items not sent yet.
    pub pending: i64,
    /// Items being sent.
    pub sending: i64,
    pub sent: i64,
    pub failed: i64,
    /// Contacts confirmed, blocked or deleted since the start.
    pub skipped: i64,
}

/// Starts the double opt-in mail to every contact that has not confirmed and is not blocked,
/// unless a job is running already: then that job is returned with `false`.
pub async fn start_double_opt_in(
    db: &Db,
    started_by: &str,
    now: DateTime<Utc>,
) -> Result<(MailJob, bool), sqlx::Error> {
    let created = db_run!(db, pool => {
        let mut tx = pool.begin().await?;
        // The job row is written first: a second start while one runs fails on the partial
        // unique index (one running job per kind), whichever backend and however timed.
        let inserted = sqlx::query_scalar::<_, i64>(
            "insert into mail_jobs (kind, status, total, started_by, created_at, updated_at) \
             values ($1, 'running', 0, $2, $3, $3) returning id",
        )
        .bind(DOUBLE_OPT_IN)
        .bind(started_by)
        .bind(now)
        .fetch_one(&mut *tx)
        .await;
        match inserted {
            Err(err) if super::is_unique_violation(&err) => None,
            Err(err) => return Err(err),
            Ok(id) => {
                let total = sqlx::query(
                    "insert into mail_job_items (job_id, contact_id, state, attempts, created_at, \
                     updated_at) select $1, id, 'pending', 0, $2, $2 from contacts \
                     where double_opt_in = false and email_blacklisted = false",
                )
                .bind(id)
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected() as i64;
                let job = sqlx::query_as::<_, MailJob>(concat!(
                    "update mail_jobs set total = $2 where id = $1 returning ", job_columns!()
                ))
                .bind(id)
                .bind(total)
                .fetch_one(&mut *tx)
                .await?;
                tx.commit().await?;
                Some(job)
            }
        }
    });
    match created {
        Some(job) => Ok((job, true)),
        None => running(db)
            .await?
            .map(|job| (job, false))
            .ok_or(sqlx::Error::RowNotFound),
    }
}

pub async fn get(db: &Db, id: i64) -> Result<Option<MailJob>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MailJob>(concat!("select ", job_columns!(), " from mail_jobs where id = $1"))
            .bind(id)
            .fetch_optional(pool)
            .await
    })
}

/// The running job, if any (the oldest when there were several).
pub async fn running(db: &Db) -> Result<Option<MailJob>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MailJob>(concat!(
            "select ", job_columns!(), " from mail_jobs where status = 'running' order by id limit 1"
        ))
        .fetch_optional(pool)
        .await
    })
}

/// The newest job, running or done.
pub async fn latest(db: &Db) -> Result<Option<MailJob>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MailJob>(concat!(
            "select ", job_columns!(), " from mail_jobs order by id desc limit 1"
        ))
        .fetch_optional(pool)
        .await
    })
}

pub async fn item_counts(db: &Db, id: i64) -> Result<ItemCounts, sqlx::Error> {
    let rows: Vec<(String, i64)> = db_run!(db, pool => {
        sqlx::query_as(
            "select state, count(*) from mail_job_items where job_id = $1 group by state",
        )
        .bind(id)
        .fetch_all(pool)
        .await?
    });
    let mut counts = ItemCounts::default();
    for (state, n) in rows {
        match state.as_str() {
            "pending" => counts.pending = n,
            "sending" => counts.sending = n,
            "sent" => counts.sent = n,
            "failed" => counts.failed = n,
            "skipped" => counts.skipped = n,
            _ => {}
        }
    }
    Ok(counts)
}

/// Takes (or renews) the job's lease for `owner` until `until`, when nobody else holds it
/// at `now`. On taking over from another owner, items that owner had claimed but not marked
/// go back to `pending`: their mail may or may not have left, and sending again is the
/// smaller harm than skipping (a second mail carries the same Message-ID, so mail clients
/// show it once).
pub async fn take_lease(
    db: &Db,
    id: i64,
    owner: &str,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => {
        let mut tx = pool.begin().await?;
        let previous: Option<(Option<String>, Option<DateTime<Utc>>)> = sqlx::query_as(
            "select lease_owner, lease_until from mail_jobs where id = $1 and status = 'running'",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((holder, held_until)) = previous else {
            return Ok(false);
        };
        let ours = holder.as_deref() == Some(owner);
        if !ours && held_until.is_some_and(|t| t >= now) {
            return Ok(false);
        }
        sqlx::query("update mail_jobs set lease_owner = $2, lease_until = $3, updated_at = $4 where id = $1")
            .bind(id)
            .bind(owner)
            .bind(until)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        if !ours {
            sqlx::query(
                "update mail_job_items set state = 'pending', updated_at = $2 \
                 where job_id = $1 and state = 'sending'",
            )
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    })
}

/// Claims the next open item for the lease holder `owner` and renews the lease; `None` when
/// the lease is lost or nothing is open.
pub async fn claim_next(
    db: &Db,
    id: i64,
    owner: &str,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<Option<i64>, sqlx::Error> {
    db_run!(db, pool => {
        let mut tx = pool.begin().await?;
        let held = sqlx::query(
            "update mail_jobs set lease_until = $3, updated_at = $4 \
             where id = $1 and lease_owner = $2 and status = 'running'",
        )
        .bind(id)
        .bind(owner)
        .bind(until)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if held == 0 {
            return Ok(None);
        }
        let next: Option<i64> = sqlx::query_scalar(
            "select contact_id from mail_job_items where job_id = $1 and state = 'pending' \
             order by contact_id limit 1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(contact_id) = next {
            sqlx::query(
                "update mail_job_items set state = 'sending', attempts = attempts + 1, \
                 updated_at = $3 where job_id = $1 and contact_id = $2",
            )
            .bind(id)
            .bind(contact_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(next)
    })
}

/// How an item ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemOutcome {
    Sent,
    Failed,
    Skipped,
}

impl ItemOutcome {
    fn state(self) -> &'static str {
        match self {
            ItemOutcome::Sent => "sent",
            ItemOutcome::Failed => "failed",
            ItemOutcome::Skipped => "skipped",
        }
    }
}

pub async fn finish_item(
    db: &Db,
    id: i64,
    contact_id: i64,
    outcome: ItemOutcome,
    message_id: Option<&str>,
    error: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query(
            "update mail_job_items set state = $3, message_id = $4, error = $5, updated_at = $6 \
             where job_id = $1 and contact_id = $2",
        )
        .bind(id)
        .bind(contact_id)
        .bind(outcome.state())
        .bind(message_id)
        .bind(error)
        .bind(now)
        .execute(pool)
        .await
        .map(drop)
    })
}

/// Marks the job done (when nothing is open any more) and releases its lease.
pub async fn finish(db: &Db, id: i64, now: DateTime<Utc>) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query(
            "update mail_jobs set status = 'done', finished_at = $2, updated_at = $2, \
             lease_owner = null, lease_until = null where id = $1 and status = 'running' \
             and not exists (select 1 from mail_job_items i where i.job_id = $1 \
             and i.state in ('pending', 'sending'))",
        )
        .bind(id)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(done > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::contacts;
    use crate::test_support::TestDb;
    use chrono::Duration;

    async fn contacts_in_states(t: &TestDb) -> Vec<i64> {
        contacts::upsert_company(&t.db, 1, "Firma").await.unwrap();
        let mut ids = Vec::new();
        for (i, (confirmed, blocked)) in
            [(false, false), (true, false), (false, true), (false, false)]
                .into_iter()
                .enumerate()
        {
            let contact = contacts::create_contact(
                &t.db,
                &contacts::NewContact {
                    customer_number: 1,
                    brevo_contact_id: None,
                    email: format!("k{i}@example.de"),
                    salutation: 0,
                    firstname: "A".into(),
                    lastname: "B".into(),
                    extern_id: None,
                    double_opt_in: confirmed,
                    email_blacklisted: blocked,
                },
            )
            .await
            .unwrap();
            ids.push(contact.id);
        }
        ids
    }

    #[tokio::test]
    async fn a_job_takes_the_pending_unblocked_contacts_once() {
        let t = TestDb::new().await;
        let ids = contacts_in_states(&t).await;
        let now = crate::db::now();
        let (job, started) = start_double_opt_in(&t.db, "admin", now).await.unwrap();
        assert!(started);
        assert_eq!(job.total, 2);
        let (again, started) = start_double_opt_in(&t.db, "admin", now).await.unwrap();
        assert!(!started);
        assert_eq!(again.id, job.id);

        let until = now + Duration::seconds(20);
        assert!(take_lease(&t.db, job.id, "w1", now, until).await.unwrap());
        assert!(!take_lease(&t.db, job.id, "w2", now, until).await.unwrap());
        let first = claim_next(&t.db, job.id, "w1", now, until).await.unwrap();
        assert_eq!(first, Some(ids[0]));
        assert!(
            claim_next(&t.db, job.id, "w2", now, until)
                .await
                .unwrap()
                .is_none()
        );
        finish_item(
            &t.db,
            job.id,
            ids[0],
            ItemOutcome::Sent,
            Some("<m@x>"),
            None,
            now,
        )
        .await
        .unwrap();
        // w1 dies holding the second item; w2 takes over after the lease ends.
        assert_eq!(
            claim_next(&t.db, job.id, "w1", now, until).await.unwrap(),
            Some(ids[3])
        );
        assert!(!finish(&t.db, job.id, now).await.unwrap());
        let later = until + Duration::seconds(1);
        assert!(
            take_lease(&t.db, job.id, "w2", later, later + Duration::seconds(20))
                .await
                .unwrap()
        );
        let counts = item_counts(&t.db, job.id).await.unwrap();
        assert_eq!((counts.pending, counts.sending, counts.sent), (1, 0, 1));
        assert_eq!(
            claim_next(&t.db, job.id, "w2", later, later + Duration::seconds(20))
                .await
                .unwrap(),
            Some(ids[3])
        );
        finish_item(&t.db, job.id, ids[3], ItemOutcome::Sent, None, None, later)
            .await
            .unwrap();
        assert!(
            claim_next(&t.db, job.id, "w2", later, later)
                .await
                .unwrap()
                .is_none()
        );
        assert!(finish(&t.db, job.id, later).await.unwrap());
        assert!(running(&t.db).await.unwrap().is_none());
        assert_eq!(latest(&t.db).await.unwrap().unwrap().status, "done");
    }
}
