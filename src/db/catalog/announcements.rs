//! A package's mails (`package_announcements`, issue 37): the announcement at its start and
//! the notice before its end, and who they reach.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::{Db, insight::audit, now};
use crate::db_run;
use crate::domain::audit::Entry;

/// A package's mail settings as stored.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow, Serialize)]
pub struct AnnouncementRecord {
    pub download_id: i64,
    pub announce: bool,
    pub subject: String,
    pub body: String,
    pub reminder_days: i32,
    pub announced_at: Option<DateTime<Utc>>,
    pub reminded_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The settings to store for a package.
#[derive(Debug, Clone)]
pub struct AnnouncementSettings {
    pub download_id: i64,
    pub announce: bool,
    pub subject: String,
    pub body: String,
    pub reminder_days: i32,
}

const COLUMNS: &str = "download_id, announce, subject, body, reminder_days, announced_at, \
                       reminded_at, created_at, updated_at";

/// The package's settings; `None` when none were ever saved (nothing is sent then).
pub async fn get(db: &Db, download_id: i64) -> Result<Option<AnnouncementRecord>, sqlx::Error> {
    let sql = format!("select {COLUMNS} from package_announcements where download_id = $1");
    db_run!(db, pool => {
        sqlx::query_as::<_, AnnouncementRecord>(&sql)
            .bind(download_id)
            .fetch_optional(pool)
            .await
    })
}

/// What [`save`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum SaveOutcome {
    Saved(AnnouncementRecord),
    /// Nothing was stored: the save would switch on the announcement of a package that has
    /// started and was not announced (it would go out at once), and that was not confirmed.
    NeedsConfirmation,
    /// Nothing was stored: the package does not exist (any more).
    Missing,
}

/// Stores the settings with `audit` in one transaction, unless they switch on the
/// announcement of a package that has started at `now` and was not announced yet, and
/// `started_confirmed` is false. The check reads the package's start and the stored settings
/// in the same transaction as the write (the package's row locked on PostgreSQL; SQLite's
/// write transaction holds the database), so a start moved or a save made meanwhile cannot
/// send without the confirmation. What was already sent stays recorded.
pub async fn save(
    db: &Db,
    settings: &AnnouncementSettings,
    started_confirmed: bool,
    audit: &Entry,
) -> Result<SaveOutcome, sqlx::Error> {
    let now = now();
    let lock = match db.backend() {
        crate::db::Backend::Postgres => " for update of d",
        crate::db::Backend::Sqlite => "",
    };
    let state_sql = format!(
        "select d.start_at, coalesce(a.announce, false) as announced_on, \
         a.announced_at is not null as queued from downloads d \
         left join package_announcements a on a.download_id = d.id where d.id = $1{lock}"
    );
    let sql = format!(
        "insert into package_announcements \
         (download_id, announce, subject, body, reminder_days, created_at, updated_at) \
         values ($1, $2, $3, $4, $5, $6, $6) \
         on conflict (download_id) do update set announce = excluded.announce, \
         subject = excluded.subject, body = excluded.body, \
         reminder_days = excluded.reminder_days, updated_at = excluded.updated_at \
         returning {COLUMNS}"
    );
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let state: Option<(DateTime<Utc>, bool, bool)> = sqlx::query_as(&state_sql)
            .bind(settings.download_id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some((start_at, announced_on, queued)) = state else {
            return Ok(SaveOutcome::Missing);
        };
        let sends_at_once = settings.announce && !announced_on && !queued && start_at <= now;
        if sends_at_once && !started_confirmed {
            return Ok(SaveOutcome::NeedsConfirmation);
        }
        let record = sqlx::query_as::<_, AnnouncementRecord>(&sql)
            .bind(settings.download_id)
            .bind(settings.announce)
            .bind(&settings.subject)
            .bind(&settings.body)
            .bind(settings.reminder_days)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
        audit::record!(tx, audit)?;
        tx.commit().await?;
        Ok(SaveOutcome::Saved(record))
    })
}

/// A package's announcement that was queued: when, and its job in the mail queue.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct QueuedAnnouncement {
    pub download_id: i64,
    pub announced_at: DateTime<Utc>,
    pub job_id: i64,
    /// The addresses it was queued for.
    pub total: i64,
}

/// The queued announcements of the packages `ids` (the others are left out).
pub async fn queued(db: &Db, ids: &[i64]) -> Result<Vec<QueuedAnnouncement>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = crate::db::sql::DynQuery::new("");
    let list = query.id_list(ids);
    query.push(&format!(
        "select a.download_id, a.announced_at, j.id as job_id, j.total from package_announcements a \
         join mail_jobs j on j.download_id = a.download_id and j.kind = 'announcement' \
         where a.download_id in {list} and a.announced_at is not null order by a.download_id"
    ));
    query.fetch_all(db).await
}

/// The contacts an announcement of package `$1` reaches: those on any of its lists whose
/// opt-in is confirmed and whose address is not blocked, each once (an address belongs to one
/// contact).
const RECIPIENTS: &str = "select distinct c.id from download_lists dl \
     join contact_lists cl on cl.list_id = dl.list_id \
     join contacts c on c.id = cl.contact_id \
     where dl.download_id = $1 and c.double_opt_in = true and c.email_blacklisted = false";

/// How many addresses an announcement of the package reaches now (see [`RECIPIENTS`]).
pub async fn recipient_count(db: &Db, download_id: i64) -> Result<i64, sqlx::Error> {
    let sql = format!("select count(*) from ({RECIPIENTS}) r");
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(&sql)
            .bind(download_id)
            .fetch_one(pool)
            .await
    })
}

/// The packages whose announcement is due at `now`: switched on, not queued yet, started,
/// not ended and not archived.
pub async fn due_announcements(db: &Db, now: DateTime<Utc>) -> Result<Vec<i64>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            // From the few announcements not queued yet (their partial index, migration 0034)
            // to their packages: `cross join` keeps SQLite from starting at the live packages.
            "select a.download_id from package_announcements a cross join downloads d \
             where d.id = a.download_id and a.announce = true and a.announced_at is null \
             and d.start_at <= $1 and d.end_at > $1 and d.archived = false \
             order by a.download_id",
        )
        .bind(now)
        .fetch_all(pool)
        .await
    })
}

/// Queues the announcement of package `download_id` again ("Erneut ankündigen") for the
/// addresses it has not reached: the recipients of this moment not yet in its job, and those
/// whose mail failed (tried anew). The job runs again; with `audit` (given the number) in one
/// transaction. `None` when it was never queued.
pub async fn requeue_announcement(
    db: &Db,
    download_id: i64,
    now: DateTime<Utc>,
    audit: &Entry,
) -> Result<Option<(i64, i64)>, sqlx::Error> {
    let items = format!(
        "insert into mail_job_items (job_id, contact_id, state, attempts, created_at, \
         updated_at) select $2, r.id, 'pending', 0, $3, $3 from ({RECIPIENTS}) r \
         where not exists (select 1 from mail_job_items i where i.job_id = $2 \
         and i.contact_id = r.id)"
    );
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let job: Option<i64> = sqlx::query_scalar(
            "update mail_jobs set status = 'running', finished_at = null, updated_at = $2 \
             where download_id = $1 and kind = 'announcement' returning id",
        )
        .bind(download_id)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(job) = job else {
            return Ok(None);
        };
        let added = sqlx::query(&items)
            .bind(download_id)
            .bind(job)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected() as i64;
        let retried = sqlx::query(
            "update mail_job_items set state = 'pending', attempts = 0, error = null, \
             next_attempt_at = null, updated_at = $2 where job_id = $1 and state = 'failed'",
        )
        .bind(job)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected() as i64;
        sqlx::query("update mail_jobs set total = total + $2 where id = $1")
            .bind(job)
            .bind(added)
            .execute(&mut *tx)
            .await?;
        let audit = audit.clone().with_changes(
            crate::domain::audit::Changes::none().field(
                "recipients",
                serde_json::Value::Null,
                added + retried,
            ),
        );
        audit::record!(tx, &audit)?;
        tx.commit().await?;
        Ok(Some((job, added + retried)))
    })
}

/// A package's mail that goes out once: the announcement at its start, or the notice before
/// its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackageMail {
    Announcement,
    EndNotice,
}

impl PackageMail {
    /// Its kind in `mail_jobs`.
    pub fn kind(self) -> &'static str {
        match self {
            PackageMail::Announcement => crate::db::operations::mail_jobs::ANNOUNCEMENT,
            PackageMail::EndNotice => crate::db::operations::mail_jobs::END_NOTICE,
        }
    }

    /// Marks the mail of package `$1` queued at `$2` if it is still due then: switched on,
    /// not queued yet, and the package live (started, not ended, not archived).
    fn mark_sql(self) -> &'static str {
        match self {
            PackageMail::Announcement => {
                "update package_announcements set announced_at = $2 where download_id = $1 \
                 and announce = true and announced_at is null and exists (select 1 \
                 from downloads d where d.id = $1 and d.start_at <= $2 and d.end_at > $2 \
                 and d.archived = false)"
            }
            PackageMail::EndNotice => {
                "update package_announcements set reminded_at = $2 where download_id = $1 \
                 and reminder_days > 0 and reminded_at is null and exists (select 1 \
                 from downloads d where d.id = $1 and d.start_at <= $2 and d.end_at > $2 \
                 and d.archived = false)"
            }
        }
    }

    /// The contacts it goes to (`$1`: the package).
    fn recipients(self) -> &'static str {
        match self {
            PackageMail::Announcement => RECIPIENTS,
            PackageMail::EndNotice => TAKERS,
        }
    }
}

/// The contacts a notice before the end of package `$1` reaches: those of every customer
/// number that took any of its files (`package_takers`) whose opt-in is confirmed and whose
/// address is not blocked, each once. Whether they are still on the package's lists does not
/// matter: who has the material must learn that it ends.
const TAKERS: &str = "select distinct c.id from package_takers t \
     join contacts c on c.customer_number = t.customer_number \
     where t.download_id = $1 and c.double_opt_in = true and c.email_blacklisted = false";

/// The packages whose notice before the end is to be looked at at `now`: switched on, not
/// queued yet, live, ending within `within`; each with its days and end (the caller decides by
/// the German day).
pub async fn end_notice_candidates(
    db: &Db,
    now: DateTime<Utc>,
    within: chrono::Duration,
) -> Result<Vec<(i64, i32, DateTime<Utc>)>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, (i64, i32, DateTime<Utc>)>(
            // From the notices not queued yet (their partial index, migration 0035).
            "select a.download_id, a.reminder_days, d.end_at from package_announcements a \
             cross join downloads d where d.id = a.download_id and a.reminder_days > 0 \
             and a.reminded_at is null and d.start_at <= $1 and d.end_at > $1 \
             and d.end_at <= $2 and d.archived = false order by a.download_id",
        )
        .bind(now)
        .bind(now + within)
        .fetch_all(pool)
        .await
    })
}

/// Queues `mail` of package `download_id` in the mail queue (`mail_jobs`, one job per package
/// and kind), to its recipients of this moment, and marks it queued, with `audit` (given the
/// number of recipients) in one transaction. `None` when it is no longer due: another
/// instance queued it first, or it was switched off, archived or deleted meanwhile. The job's
/// unique index makes a second queueing fail whatever the timing.
pub async fn queue_mail(
    db: &Db,
    mail: PackageMail,
    download_id: i64,
    now: DateTime<Utc>,
    audit: &Entry,
) -> Result<Option<(i64, i64)>, sqlx::Error> {
    let items = format!(
        "insert into mail_job_items (job_id, contact_id, state, attempts, created_at, \
         updated_at) select $2, r.id, 'pending', 0, $3, $3 from ({}) r",
        mail.recipients()
    );
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let marked = sqlx::query(mail.mark_sql())
            .bind(download_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if marked == 0 {
            return Ok(None);
        }
        let job: i64 = sqlx::query_scalar(
            "insert into mail_jobs (kind, status, total, started_by, download_id, created_at, \
             updated_at) values ($3, 'running', 0, 'System', $1, $2, $2) returning id",
        )
        .bind(download_id)
        .bind(now)
        .bind(mail.kind())
        .fetch_one(&mut *tx)
        .await?;
        let total = sqlx::query(&items)
            .bind(download_id)
            .bind(job)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected() as i64;
        sqlx::query("update mail_jobs set total = $2 where id = $1")
            .bind(job)
            .bind(total)
            .execute(&mut *tx)
            .await?;
        let audit = audit.clone().with_changes(
            crate::domain::audit::Changes::none().field("recipients", serde_json::Value::Null, total),
        );
        audit::record!(tx, &audit)?;
        tx.commit().await?;
        Ok(Some((job, total)))
    })
}
