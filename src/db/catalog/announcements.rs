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

/// Stores the settings with `audit` in one transaction (the package must exist: a foreign-key
/// violation otherwise). What was already sent stays recorded.
pub async fn save(
    db: &Db,
    settings: &AnnouncementSettings,
    audit: &Entry,
) -> Result<AnnouncementRecord, sqlx::Error> {
    let now = now();
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
        Ok(record)
    })
}

/// How many addresses an announcement of the package reaches now: the contacts on any of its
/// lists whose opt-in is confirmed and whose address is not blocked, each address once (an
/// address belongs to one contact).
pub async fn recipient_count(db: &Db, download_id: i64) -> Result<i64, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "select count(distinct c.id) from download_lists dl \
             join contact_lists cl on cl.list_id = dl.list_id \
             join contacts c on c.id = cl.contact_id \
             where dl.download_id = $1 and c.double_opt_in = true \
             and c.email_blacklisted = false",
        )
        .bind(download_id)
        .fetch_one(pool)
        .await
    })
}
