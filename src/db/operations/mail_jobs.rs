//! Mails to many contacts (`mail_jobs`, `mail_job_items`), sent item by item by the workers of
//! all instances together. A worker claims one item (`sending`, with a send slot of the job)
//! before its mail goes out and marks it `sent` right after, so a restart knows exactly which
//! items are open; an item left `sending` too long belongs to a dead worker and is claimed
//! again (its mail may or may not have left: sending again is the smaller harm than skipping,
//! and a second mail carries the same Message-ID, so mail clients show it once).

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

use crate::db::Db;
use crate::db_run;
use crate::domain::audit::{Changes, Entry};

/// The kind of the double opt-in mail to all pending contacts.
pub const DOUBLE_OPT_IN: &str = "double_opt_in";
/// The kind of a package's announcement at its start (issue 37).
pub const ANNOUNCEMENT: &str = "announcement";
/// The kind of a package's notice before its end to those who took it (issue 37).
pub const END_NOTICE: &str = "end_notice";

/// Whether a job of `kind` mails confirmed contacts (advertising: the package mails) or those
/// still to confirm (the double opt-in mail). Blocked addresses are never mailed.
fn mails_confirmed(kind: &str) -> bool {
    kind != DOUBLE_OPT_IN
}

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
    /// The package a package mail is about (`null` for the double opt-in mail).
    pub download_id: Option<i64>,
}

macro_rules! job_columns {
    () => {
        "id, kind, status, total, started_by, created_at, updated_at, finished_at, download_id"
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
/// unless a job is running already: then that job is returned with `false`. A started job
/// writes `audit` with the number of recipients.
pub async fn start_double_opt_in(
    db: &Db,
    started_by: &str,
    now: DateTime<Utc>,
    audit: &Entry,
) -> Result<(MailJob, bool), sqlx::Error> {
    let created = db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
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
            Err(err) if crate::db::is_unique_violation(&err) => None,
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
                let audit = audit.clone().with_changes(
                    Changes::none().field("recipients", serde_json::Value::Null, total),
                );
                crate::db::insight::audit::record!(tx, &audit)?;
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

/// A contact's mail of a mail job: the outbox as a data export shows it.
#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactMail {
    pub job_id: i64,
    /// What the job mails, e.g. `double_opt_in`.
    pub kind: String,
    /// `pending`, `sending`, `sent`, `failed` or `skipped`.
    pub state: String,
    pub attempts: i32,
    pub message_id: Option<String>,
    pub error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The mails of mail jobs to a contact, oldest first.
pub async fn mails_of_contact(db: &Db, contact_id: i64) -> Result<Vec<ContactMail>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as(
            "select i.job_id, j.kind, i.state, i.attempts, i.message_id, i.error, \
             i.created_at, i.updated_at from mail_job_items i \
             join mail_jobs j on j.id = i.job_id where i.contact_id = $1 \
             order by i.created_at, i.job_id",
        )
        .bind(contact_id)
        .fetch_all(pool)
        .await
    })
}

pub async fn get(db: &Db, id: i64) -> Result<Option<MailJob>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MailJob>(concat!("select ", job_columns!(), " from mail_jobs where id = $1"))
            .bind(id)
            .fetch_optional(pool)
            .await
    })
}

/// The running double opt-in job, if any (the oldest when there were several).
pub async fn running(db: &Db) -> Result<Option<MailJob>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MailJob>(concat!(
            "select ", job_columns!(), " from mail_jobs where status = 'running' \
             and download_id is null order by id limit 1"
        ))
        .fetch_optional(pool)
        .await
    })
}

/// Every running job, the oldest first: what the workers send.
pub async fn running_all(db: &Db) -> Result<Vec<MailJob>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MailJob>(concat!(
            "select ", job_columns!(), " from mail_jobs where status = 'running' order by id"
        ))
        .fetch_all(pool)
        .await
    })
}

/// The job of `kind` for package `download_id`, if it was started.
pub async fn of_package(
    db: &Db,
    download_id: i64,
    kind: &str,
) -> Result<Option<MailJob>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MailJob>(concat!(
            "select ", job_columns!(), " from mail_jobs where download_id = $1 and kind = $2"
        ))
        .bind(download_id)
        .bind(kind)
        .fetch_optional(pool)
        .await
    })
}

/// The newest double opt-in job, running or done.
pub async fn latest(db: &Db) -> Result<Option<MailJob>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MailJob>(concat!(
            "select ", job_columns!(), " from mail_jobs where download_id is null \
             order by id desc limit 1"
        ))
        .fetch_optional(pool)
        .await
    })
}

/// Items of running jobs not finished yet (pending or being sent), over all jobs.
pub async fn open_items(db: &Db) -> Result<i64, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar(
            "select count(*) from mail_job_items i join mail_jobs j on j.id = i.job_id \
             where j.status = 'running' and i.state in ('pending', 'sending')",
        )
        .fetch_one(pool)
        .await
    })
}

pub async fn item_counts(db: &Db, id: i64) -> Result<ItemCounts, sqlx::Error> {
    Ok(item_counts_of_jobs(db, &[id])
        .await?
        .remove(&id)
        .unwrap_or_default())
}

/// The items per state of each job of `ids` (a job without items is left out), in one
/// statement over the index by job and state.
pub async fn item_counts_of_jobs(
    db: &Db,
    ids: &[i64],
) -> Result<std::collections::BTreeMap<i64, ItemCounts>, sqlx::Error> {
    let mut counts = std::collections::BTreeMap::<i64, ItemCounts>::new();
    if ids.is_empty() {
        return Ok(counts);
    }
    let mut query = crate::db::sql::DynQuery::new("");
    let list = query.id_list(ids);
    query.push(&format!(
        "select job_id, state, count(*) from mail_job_items where job_id in {list} \
         group by job_id, state"
    ));
    let rows: Vec<(i64, String, i64)> = query.fetch_all(db).await?;
    for (job, state, n) in rows {
        let job = counts.entry(job).or_default();
        match state.as_str() {
            "pending" => job.pending = n,
            "sending" => job.sending = n,
            "sent" => job.sent = n,
            "failed" => job.failed = n,
            "skipped" => job.skipped = n,
            _ => {}
        }
    }
    Ok(counts)
}

/// A mail of a job that failed for good, or waits for another attempt after failing.
#[derive(Clone, Debug, sqlx::FromRow, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailedMail {
    pub contact_id: i64,
    /// The contact's address (`null`: the contact was deleted since).
    pub email: Option<String>,
    /// `failed`, or `pending` while another attempt is due.
    pub state: String,
    pub attempts: i32,
    /// Why it failed, as the mail server or Brevo said.
    pub error: Option<String>,
    pub updated_at: DateTime<Utc>,
}

/// The failed mails of job `id` (and those waiting after a failure), by contact, a page.
pub async fn failed_items(
    db: &Db,
    id: i64,
    limit: i64,
    offset: i64,
) -> Result<Vec<FailedMail>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as(
            "select i.contact_id, c.email, i.state, i.attempts, i.error, i.updated_at \
             from mail_job_items i left join contacts c on c.id = i.contact_id \
             where i.job_id = $1 and (i.state = 'failed' or (i.state = 'pending' \
             and i.error is not null)) order by i.contact_id limit $2 offset $3",
        )
        .bind(id)
        .bind(limit)
        .bind(offset)
        .fetch_all(pool)
        .await
    })
}

/// One item claimed by one worker: only this claim may record the item's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    pub contact_id: i64,
    /// The item's attempt number this claim made.
    pub attempt: i32,
    /// When its mail may go: the send slot of the one pace reserved for it. `None` when the contact is
    /// no longer to be mailed (confirmed, blocked or deleted since the start): the item is to
    /// be skipped and took no slot.
    pub send_at: Option<DateTime<Utc>>,
}

/// Where a worker's claim of a job's next item looks (see [`claim_next`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClaimFrom {
    /// Items never tried are looked for after this contact only (0: from the first).
    pub after_contact: i64,
    /// Also an item still `sending` since before this time: its worker died.
    pub stale_before: Option<DateTime<Utc>>,
}

/// Claims the next open item of running job `job` for the calling worker, as `from` says: a
/// `sending` one last touched before `from.stale_before` (its worker died), else a `pending`
/// one whose retry is due, else the first never tried after `from.after_contact`. Every
/// instance's worker claims from the same job; on PostgreSQL `for update skip locked` lets
/// claims run side by side without ever handing one item to two workers. SQLite has a single
/// writer.
///
/// In the same transaction the item gets a send slot of the one pace of all jobs (`gap`
/// apart, never before `now`, migration 0037), so the pace holds for all mail together
/// however many workers and jobs send. The item's
/// `updated_at` is its slot, so the stale limit counts from when its mail may start, not
/// from the wait for the slot.
/// `None` when nothing is open.
pub async fn claim_next(
    db: &Db,
    job: &MailJob,
    now: DateTime<Utc>,
    from: ClaimFrom,
    gap: Duration,
) -> Result<Option<Claim>, sqlx::Error> {
    match db {
        Db::Sqlite(pool, _) => claim_in_transaction(pool, job, now, from, gap).await,
        Db::Postgres(pool, _) => claim_in_one_statement(pool, job, now, from, gap).await,
    }
}

/// The seeks of [`claim_next`] in one statement: the contact of the item to claim, or null.
/// `$1` the job, `$2` now, `$3` the place, `$4` the stale limit (only with `stale`).
///
/// Seeks into indexes, each for its own kind of item. One statement with every state under an
/// OR walked the job's items in contact order past every item already sent: 5.6 ms a claim
/// halfway through 50,000 on SQLite, most of a core at 100 mails a second (issue 37); each seek
/// is 0.06 ms. On PostgreSQL a seek from the first contact still stepped over the index entry
/// each sent item leaves behind until vacuum (6 ms halfway): hence the worker's place
/// (`after_contact`), and the stale seek only now and then. The retry seek uses the partial
/// index of migration 0038. On PostgreSQL, `for update skip locked` lets other instances'
/// claims pass the rows held by this one.
fn pick_sql(stale: bool, skip_locked: &str) -> String {
    let stale = if stale {
        format!(
            "(select contact_id from mail_job_items where job_id = $1 and state = 'sending' \
             and updated_at < $4 order by contact_id limit 1{skip_locked}), "
        )
    } else {
        String::new()
    };
    format!(
        "select coalesce({stale}\
         (select contact_id from mail_job_items where job_id = $1 and state = 'pending' \
         and next_attempt_at <= $2 order by next_attempt_at, contact_id limit 1{skip_locked}), \
         (select contact_id from mail_job_items where job_id = $1 and state = 'pending' \
         and next_attempt_at is null and contact_id > $3 order by contact_id \
         limit 1{skip_locked}))"
    )
}

/// [`claim_next`] on SQLite: a write transaction of five statements (each a round trip to the
/// connection's thread, cheaper than on PostgreSQL); the single writer needs no locks.
async fn claim_in_transaction(
    pool: &sqlx::SqlitePool,
    job: &MailJob,
    now: DateTime<Utc>,
    from: ClaimFrom,
    gap: Duration,
) -> Result<Option<Claim>, sqlx::Error> {
    use crate::db::BeginWrite as _;
    let id = job.id;
    let pick_sql = pick_sql(from.stale_before.is_some(), "");
    // BEGIN IMMEDIATE: the write lock is held from the first read on, so the item and the job
    // row read below cannot be overtaken by another connection.
    let mut tx = pool.begin_write().await?;
    let mut pick = sqlx::query_scalar(&pick_sql)
        .bind(id)
        .bind(now)
        .bind(from.after_contact);
    if let Some(stale_before) = from.stale_before {
        pick = pick.bind(stale_before);
    }
    let open: Option<i64> = pick.fetch_one(&mut *tx).await?;
    let Some(contact_id) = open else {
        return Ok(None);
    };
    let (to_mail, running): (Option<i64>, Option<i64>) = sqlx::query_as(
        "select (select id from contacts where id = $1 and double_opt_in = $2 \
         and email_blacklisted = false), \
         (select id from mail_jobs where id = $3 and status = 'running')",
    )
    .bind(contact_id)
    .bind(mails_confirmed(&job.kind))
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    let mut send_at = None;
    if to_mail.is_some() {
        if running.is_none() {
            // The job is not running (any more): nothing to claim.
            return Ok(None);
        }
        // The one pace of all jobs (migration 0037).
        let next: Option<DateTime<Utc>> =
            sqlx::query_scalar("select next_send_at from mail_pace where id = 1")
                .fetch_one(&mut *tx)
                .await?;
        let slot = next.map_or(now, |next| next.max(now));
        sqlx::query("update mail_pace set next_send_at = $1, updated_at = $2 where id = 1")
            .bind(slot + gap)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        send_at = Some(slot);
    }
    // Its `updated_at` is its send slot (see above); a skipped item took none.
    let attempt: i32 = sqlx::query_scalar(
        "update mail_job_items set state = 'sending', attempts = attempts + 1, \
         updated_at = $3 where job_id = $1 and contact_id = $2 returning attempts",
    )
    .bind(id)
    .bind(contact_id)
    .bind(send_at.unwrap_or(now))
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(Claim {
        contact_id,
        attempt,
        send_at,
    }))
}

/// [`claim_next`] on PostgreSQL: one statement, so one round trip. The five statements of a
/// transaction were seven round trips to the server per mail, each waiting behind the
/// requests' queries when many ask: 29 mails a second instead of 100 while 50 clients asked
/// the lists (`scripts/bench.sh mails`). The pace row's update queues the claimers of every
/// job and instance (after the wait it adds to the newest slot, as read committed
/// re-reads an updated row); the item's rows stay locked until the statement ends.
async fn claim_in_one_statement(
    pool: &sqlx::PgPool,
    job: &MailJob,
    now: DateTime<Utc>,
    from: ClaimFrom,
    gap: Duration,
) -> Result<Option<Claim>, sqlx::Error> {
    let sql = format!(
        "with pick (contact_id) as materialized ({pick}), \
         target as (select p.contact_id, \
         exists (select 1 from contacts c where c.id = p.contact_id and c.double_opt_in = $5 \
         and c.email_blacklisted = false) as to_mail, \
         exists (select 1 from mail_jobs j where j.id = $1 and j.status = 'running') as running \
         from pick p where p.contact_id is not null), \
         slot as (update mail_pace set next_send_at = greatest(coalesce(next_send_at, $2), $2) \
         + $6 * interval '1 microsecond', updated_at = $2 \
         where id = 1 and exists (select 1 from target where to_mail and running) \
         returning next_send_at - $6 * interval '1 microsecond' as send_at), \
         item as (update mail_job_items i set state = 'sending', attempts = i.attempts + 1, \
         updated_at = coalesce((select send_at from slot), $2) from target t \
         where i.job_id = $1 and i.contact_id = t.contact_id and (t.running or not t.to_mail) \
         returning i.attempts) \
         select t.contact_id, (select attempts from item), (select send_at from slot) \
         from target t",
        pick = pick_sql(from.stale_before.is_some(), " for update skip locked"),
    );
    let gap_micros = gap.num_microseconds().unwrap_or(i64::MAX);
    // `materialized`: the seeks run once (inlined, each use of the contact ran them again).
    // `$4` is bound also when the stale seek is left out, so that `$5` and `$6` keep their
    // places; the server is told its type, so nobody needs to read it.
    let stale_before = from.stale_before.unwrap_or(now);
    let row: Option<(i64, Option<i32>, Option<DateTime<Utc>>)> = sqlx::query_as(&sql)
        .bind(job.id)
        .bind(now)
        .bind(from.after_contact)
        .bind(stale_before)
        .bind(mails_confirmed(&job.kind))
        .bind(gap_micros)
        .fetch_optional(pool)
        .await?;
    // No item claimed (`attempts` null): none open, or the job is not running (any more).
    Ok(row.and_then(|(contact_id, attempt, send_at)| {
        attempt.map(|attempt| Claim {
            contact_id,
            attempt,
            send_at,
        })
    }))
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

/// Records how claim `claim` of job `id` ended; `false` (and nothing changed) when the item
/// is no longer that claim's: its worker was taken for dead and the item claimed again, so a
/// very late finisher cannot overwrite the newer claim.
pub async fn finish_item(
    db: &Db,
    id: i64,
    claim: &Claim,
    outcome: ItemOutcome,
    message_id: Option<&str>,
    error: Option<&str>,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let changed = db_run!(db, pool => {
        sqlx::query(
            "update mail_job_items set state = $4, message_id = $5, error = $6, updated_at = $7 \
             where job_id = $1 and contact_id = $2 and state = 'sending' and attempts = $3",
        )
        .bind(id)
        .bind(claim.contact_id)
        .bind(claim.attempt)
        .bind(outcome.state())
        .bind(message_id)
        .bind(error)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(changed > 0)
}

/// Puts claim `claim` of job `id` back for a later attempt at `at` (a passing failure, kept
/// in `error`); `false` when the item is no longer that claim's (see [`finish_item`]).
pub async fn retry_item(
    db: &Db,
    id: i64,
    claim: &Claim,
    error: &str,
    at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let changed = db_run!(db, pool => {
        sqlx::query(
            "update mail_job_items set state = 'pending', error = $4, next_attempt_at = $5, \
             updated_at = $6 where job_id = $1 and contact_id = $2 and state = 'sending' \
             and attempts = $3",
        )
        .bind(id)
        .bind(claim.contact_id)
        .bind(claim.attempt)
        .bind(error)
        .bind(at)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(changed > 0)
}

/// Marks the job done when nothing is open any more (no item pending or being sent).
pub async fn finish(db: &Db, id: i64, now: DateTime<Utc>) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query(
            "update mail_jobs set status = 'done', finished_at = $2, updated_at = $2 \
             where id = $1 and status = 'running' \
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

    const GAP: Duration = Duration::milliseconds(200);

    /// A claim from the first contact, dead workers' items included.
    fn whole(stale_before: DateTime<Utc>) -> ClaimFrom {
        ClaimFrom {
            after_contact: 0,
            stale_before: Some(stale_before),
        }
    }

    async fn claim(t: &TestDb, job: &MailJob, now: DateTime<Utc>) -> Option<Claim> {
        claim_from(t, job, now, whole(now - Duration::seconds(60))).await
    }

    async fn claim_from(
        t: &TestDb,
        job: &MailJob,
        now: DateTime<Utc>,
        from: ClaimFrom,
    ) -> Option<Claim> {
        claim_next(&t.db, job, now, from, GAP).await.unwrap()
    }

    #[tokio::test]
    async fn a_job_takes_the_pending_unblocked_contacts_once_in_paced_slots() {
        let t = TestDb::new().await;
        let mut ids = Vec::new();
        for (i, (confirmed, blocked)) in [(false, false), (true, false), (false, true)]
            .into_iter()
            .chain([(false, false); 3])
            .enumerate()
        {
            ids.push(t.contact(i, confirmed, blocked).await);
        }
        let now = crate::db::now();
        let (job, started) =
            start_double_opt_in(&t.db, "admin", now, &crate::test_support::cli_change())
                .await
                .unwrap();
        assert!(started);
        assert_eq!(job.total, 4);
        let (again, started) =
            start_double_opt_in(&t.db, "admin", now, &crate::test_support::cli_change())
                .await
                .unwrap();
        assert!(!started);
        assert_eq!(again.id, job.id);

        let first = claim(&t, &job, now).await.unwrap();
        assert_eq!((first.contact_id, first.attempt), (ids[0], 1));
        assert_eq!(first.send_at, Some(now), "the first slot is now");
        let second = claim(&t, &job, now).await.unwrap();
        assert_eq!(second.contact_id, ids[3]);
        assert_eq!(second.send_at, Some(now + GAP));
        // Confirmed since the start: skipped, and it takes no slot.
        contacts::confirm(
            &t.db,
            ids[4],
            "k4@example.de",
            now,
            &contacts::Proof::default(),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        let third = claim(&t, &job, now).await.unwrap();
        assert_eq!((third.contact_id, third.send_at), (ids[4], None));
        // Later than the reserved slots: the next slot is its own time, not a gap after them.
        let later = now + Duration::seconds(5);
        let fourth = claim(&t, &job, later).await.unwrap();
        assert_eq!((fourth.contact_id, fourth.send_at), (ids[5], Some(later)));
        assert!(claim(&t, &job, later).await.is_none());

        for (c, outcome) in [
            (first, ItemOutcome::Sent),
            (second, ItemOutcome::Failed),
            (third, ItemOutcome::Skipped),
        ] {
            assert!(
                finish_item(&t.db, job.id, &c, outcome, None, None, later)
                    .await
                    .unwrap()
            );
        }
        assert!(
            !finish(&t.db, job.id, later).await.unwrap(),
            "one item is still being sent"
        );
        assert!(
            finish_item(
                &t.db,
                job.id,
                &fourth,
                ItemOutcome::Sent,
                Some("<m@x>"),
                None,
                later
            )
            .await
            .unwrap()
        );
        let counts = item_counts(&t.db, job.id).await.unwrap();
        assert_eq!(
            counts,
            ItemCounts {
                pending: 0,
                sending: 0,
                sent: 2,
                failed: 1,
                skipped: 1
            }
        );
        assert!(finish(&t.db, job.id, later).await.unwrap());
        assert!(running(&t.db).await.unwrap().is_none());
        assert_eq!(latest(&t.db).await.unwrap().unwrap().status, "done");
    }

    #[tokio::test]
    async fn a_claim_takes_new_items_after_its_place_and_due_retries_and_dead_ones_anywhere() {
        let t = TestDb::new().await;
        let mut ids = Vec::new();
        for i in 0..4 {
            ids.push(t.contact(i, false, false).await);
        }
        let now = crate::db::now();
        let (job, _) = start_double_opt_in(&t.db, "admin", now, &crate::test_support::cli_change())
            .await
            .unwrap();
        let after = |after_contact| ClaimFrom {
            after_contact,
            stale_before: None,
        };
        let first = claim_from(&t, &job, now, after(0)).await.unwrap();
        assert_eq!(first.contact_id, ids[0]);
        let second = claim_from(&t, &job, now, after(ids[0])).await.unwrap();
        assert_eq!(second.contact_id, ids[1]);
        let retry_at = now + Duration::seconds(1);
        assert!(
            retry_item(&t.db, job.id, &second, "421", retry_at, now)
                .await
                .unwrap()
        );
        // The retry is not due yet; the next new item after the place comes.
        let third = claim_from(&t, &job, now, after(ids[1])).await.unwrap();
        assert_eq!(third.contact_id, ids[2]);
        // Once due, the retry comes first, although it is behind the place.
        let later = now + Duration::seconds(2);
        let again = claim_from(&t, &job, later, after(ids[2])).await.unwrap();
        assert_eq!((again.contact_id, again.attempt), (ids[1], 2));
        let fourth = claim_from(&t, &job, later, after(ids[2])).await.unwrap();
        assert_eq!(fourth.contact_id, ids[3]);
        // The first item's worker died: its item is claimed again only when asked for.
        let late = now + Duration::seconds(120);
        assert!(claim_from(&t, &job, late, after(ids[3])).await.is_none());
        let stale = ClaimFrom {
            after_contact: ids[3],
            stale_before: Some(late - Duration::seconds(60)),
        };
        let revived = claim_from(&t, &job, late, stale).await.unwrap();
        assert_eq!((revived.contact_id, revived.attempt), (ids[0], 2));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_concurrent_claimers_claim_every_item_once_in_distinct_slots() {
        let t = TestDb::new().await;
        let mut ids = Vec::new();
        for i in 0..40 {
            ids.push(t.contact(i, false, false).await);
        }
        let (job, _) = start_double_opt_in(
            &t.db,
            "admin",
            crate::db::now(),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let (db, job) = (t.db.clone(), job.clone());
                tokio::spawn(async move {
                    let mut claims = Vec::new();
                    loop {
                        let now = crate::db::now();
                        let Some(c) =
                            claim_next(&db, &job, now, whole(now - Duration::seconds(60)), GAP)
                                .await
                                .unwrap()
                        else {
                            break;
                        };
                        // Give the other claimer a chance to run while this item is held.
                        tokio::task::yield_now().await;
                        assert!(
                            finish_item(&db, job.id, &c, ItemOutcome::Sent, None, None, now)
                                .await
                                .unwrap(),
                            "a claim is its claimer's until it finishes"
                        );
                        claims.push(c);
                    }
                    claims
                })
            })
            .collect();
        let mut all = Vec::new();
        let mut per_worker = Vec::new();
        for w in workers {
            let claims = w.await.unwrap();
            per_worker.push(claims.len());
            all.extend(claims);
        }
        let mut claimed: Vec<i64> = all.iter().map(|c| c.contact_id).collect();
        claimed.sort();
        assert_eq!(claimed, ids, "every item exactly once ({per_worker:?})");
        assert!(all.iter().all(|c| c.attempt == 1));
        // One pace for the job: no two claims share a slot, and slots are at least a gap apart.
        let mut slots: Vec<DateTime<Utc>> = all.iter().map(|c| c.send_at.unwrap()).collect();
        slots.sort();
        assert!(slots.windows(2).all(|w| w[1] - w[0] >= GAP), "{slots:?}");
        assert_eq!(item_counts(&t.db, job.id).await.unwrap().sent, 40);
        assert!(finish(&t.db, job.id, crate::db::now()).await.unwrap());
    }

    #[tokio::test]
    async fn a_stale_claim_is_claimed_again_and_its_late_finisher_changes_nothing() {
        let t = TestDb::new().await;
        let a = t.contact(0, false, false).await;
        let b = t.contact(1, false, false).await;
        let now = crate::db::now();
        let (job, _) = start_double_opt_in(&t.db, "admin", now, &crate::test_support::cli_change())
            .await
            .unwrap();
        let stale = Duration::seconds(60);
        let dead = claim(&t, &job, now).await.unwrap();
        assert_eq!(dead.contact_id, a);
        // Shortly after, the claim is fresh: the other item comes, then nothing.
        let soon = now + Duration::seconds(30);
        let other = claim_from(&t, &job, soon, whole(soon - stale))
            .await
            .unwrap();
        assert_eq!(other.contact_id, b);
        assert!(
            claim_from(&t, &job, soon, whole(soon - stale))
                .await
                .is_none()
        );
        assert!(
            finish_item(&t.db, job.id, &other, ItemOutcome::Sent, None, None, soon)
                .await
                .unwrap()
        );
        // Past the stale limit the dead worker's item is claimed again, as a new attempt.
        let late = now + Duration::seconds(61);
        let retry = claim_from(&t, &job, late, whole(late - stale))
            .await
            .unwrap();
        assert_eq!((retry.contact_id, retry.attempt), (a, 2));
        assert!(retry.send_at.is_some());
        // The presumed dead worker finishes after all: its outcome is not recorded.
        assert!(
            !finish_item(
                &t.db,
                job.id,
                &dead,
                ItemOutcome::Failed,
                None,
                Some("zu spät"),
                late
            )
            .await
            .unwrap()
        );
        let counts = item_counts(&t.db, job.id).await.unwrap();
        assert_eq!((counts.sending, counts.failed, counts.sent), (1, 0, 1));
        assert!(!finish(&t.db, job.id, late).await.unwrap());
        assert!(
            finish_item(
                &t.db,
                job.id,
                &retry,
                ItemOutcome::Sent,
                Some("<m@x>"),
                None,
                late
            )
            .await
            .unwrap()
        );
        // The late finisher cannot overwrite the finished item either.
        assert!(
            !finish_item(&t.db, job.id, &dead, ItemOutcome::Failed, None, None, late)
                .await
                .unwrap()
        );
        let counts = item_counts(&t.db, job.id).await.unwrap();
        assert_eq!((counts.sending, counts.failed, counts.sent), (0, 0, 2));
        assert!(finish(&t.db, job.id, late).await.unwrap());
    }
}
