//! What a package's mails brought (issue 37): the mails sent and failed, the unsubscribes
//! through their links, the downloads that followed a mail's link (channel `mail` in the
//! roll-ups), and how many of the customer numbers the announcement reached took anything of
//! the package afterwards (`package_takers`).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::db::Db;
use crate::db::sql::DynQuery;

/// The figures of one package's mails.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MailFigures {
    /// Mails sent: the announcement's and the notice before the end's.
    pub sent: i64,
    /// Mails that failed for good.
    pub failed: i64,
    /// Addresses unsubscribed through the links of these mails.
    pub unsubscribes: i64,
    /// Downloads (from byte 0) that followed a mail's link in the same visit.
    pub mail_downloads: i64,
    /// Customer numbers the announcement was sent to.
    pub mailed_customers: i64,
    /// Of those, the customer numbers that took any file of the package after their mail.
    pub took_afterwards: i64,
}

/// Two counts of one package, as each of the figures' statements gives them.
#[derive(sqlx::FromRow)]
struct PackageCounts {
    download_id: i64,
    first: i64,
    second: i64,
}

/// The figures of the packages `ids` that have mails (a package without any is left out).
pub async fn mail_figures(db: &Db, ids: &[i64]) -> Result<BTreeMap<i64, MailFigures>, sqlx::Error> {
    let mut figures: BTreeMap<i64, MailFigures> = BTreeMap::new();
    if ids.is_empty() {
        return Ok(figures);
    }
    let states = counts(
        db,
        ids,
        "select j.download_id, \
         cast(coalesce(sum(case when i.state = 'sent' then 1 else 0 end), 0) as bigint) as first, \
         cast(coalesce(sum(case when i.state = 'failed' then 1 else 0 end), 0) as bigint) \
         as second \
         from mail_jobs j join mail_job_items i on i.job_id = j.id \
         where j.download_id in {ids} group by j.download_id",
    );
    let unsubscribes = counts(
        db,
        ids,
        "select download_id, count(*) as first, cast(0 as bigint) as second \
         from unsubscribe_tokens \
         where used_at is not null and download_id in {ids} group by download_id",
    );
    let downloads = counts(
        db,
        ids,
        "select package_id as download_id, \
         cast(coalesce(sum(mail_downloads), 0) as bigint) as first, \
         cast(0 as bigint) as second from download_daily where package_id in {ids} \
         group by package_id",
    );
    // The customer numbers the announcement reached, and those with a file of the package
    // taken at or after the moment their mail went out.
    let customers = counts(
        db,
        ids,
        "select j.download_id, count(distinct c.customer_number) as first, \
         count(distinct case when exists (select 1 from package_takers t \
         where t.download_id = j.download_id and t.customer_number = c.customer_number \
         and t.last_at >= i.updated_at) then c.customer_number end) as second \
         from mail_jobs j join mail_job_items i on i.job_id = j.id and i.state = 'sent' \
         join contacts c on c.id = i.contact_id \
         where j.kind = 'announcement' and j.download_id in {ids} group by j.download_id",
    );
    let (states, unsubscribes, downloads, customers) =
        tokio::try_join!(states, unsubscribes, downloads, customers)?;
    for row in states {
        let entry = figures.entry(row.download_id).or_default();
        entry.sent = row.first;
        entry.failed = row.second;
    }
    // The other figures only for packages that have mails.
    for row in unsubscribes {
        if let Some(entry) = figures.get_mut(&row.download_id) {
            entry.unsubscribes = row.first;
        }
    }
    for row in downloads {
        if let Some(entry) = figures.get_mut(&row.download_id) {
            entry.mail_downloads = row.first;
        }
    }
    for row in customers {
        if let Some(entry) = figures.get_mut(&row.download_id) {
            entry.mailed_customers = row.first;
            entry.took_afterwards = row.second;
        }
    }
    Ok(figures)
}

/// Runs `sql` with `{ids}` replaced by the packages' placeholders.
async fn counts(db: &Db, ids: &[i64], sql: &str) -> Result<Vec<PackageCounts>, sqlx::Error> {
    let mut query = DynQuery::new("");
    let list = query.id_list(ids);
    query.push(&sql.replace("{ids}", &list));
    query.fetch_all(db).await
}

/// The packages (of `providers`, or all) whose mails were queued between `from` and `to`,
/// the newest first, at most `limit`.
pub async fn packages_mailed(
    db: &Db,
    providers: Option<&[i64]>,
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    limit: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    let mut query = DynQuery::new("");
    let (from, to) = (query.param(from), query.param(to));
    let mut sql = format!(
        "select j.download_id from mail_jobs j join downloads d on d.id = j.download_id \
         where j.download_id is not null and j.created_at >= {from} and j.created_at <= {to}"
    );
    if let Some(providers) = providers {
        let list = query.id_list(providers);
        sql.push_str(&format!(" and d.provider_id in {list}"));
    }
    let limit = query.param(limit);
    sql.push_str(&format!(
        " group by j.download_id order by max(j.created_at) desc, j.download_id desc \
         limit {limit}"
    ));
    query.push(&sql);
    query.fetch_ids(db).await
}
