//! Download events and their roll-ups (issue 24; migration 0015): the writer's batches, the
//! expiry of the personal events, and the reports' reads.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use chrono::{DateTime, Utc};

use crate::db::Db;
use crate::db::sql::{DynQuery, Param};
use crate::db::tx::Tx;
use crate::domain::statistics::{Channel, RangeParts, Sketch, month_scope, touches_ranked};

/// One delivered file, as `download_events` keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEvent {
    pub at: DateTime<Utc>,
    /// The German day of `at`, `YYYY-MM-DD`.
    pub day: String,
    pub subject: Option<String>,
    pub customer_number: Option<i64>,
    pub package_id: i64,
    pub upload_id: i64,
    pub provider_id: i64,
    pub channel: &'static str,
    pub kind: &'static str,
    pub bytes_sent: i64,
    pub outcome: &'static str,
}

/// What a batch adds to one row of `download_totals`.
#[derive(Clone, Debug)]
pub struct TotalsChange {
    /// `all` (id 0), `provider` or `package`.
    pub scope: &'static str,
    pub scope_id: i64,
    pub day: String,
    pub downloads: i64,
    pub zip_downloads: i64,
    pub resumptions: i64,
    pub bytes_sent: i64,
    pub customers: Sketch,
}

/// Keys per statement (three or eight parameters each).
const KEYS_PER_STATEMENT: usize = 300;

/// The advisory lock the writers of all instances take on PostgreSQL (SQLite's write lock
/// serves the same end), so that no writer recomputes a roll-up from events another has not
/// committed yet.
const WRITER_LOCK: i64 = 2_024_001;

/// Writes one batch in one transaction: its events; what they add to the `download_daily`
/// and `download_monthly` rows of their files; and `totals`, added to what the rows hold
/// (customers merged into their sketches); and the package takers they name
/// ([`takers::add`]). Each row grows by the batch alone, so a batch
/// costs the same on a file's first download of the day as on its ten-thousandth.
pub async fn write_batch(
    db: &Db,
    events: &[NewEvent],
    totals: &[TotalsChange],
) -> Result<(), sqlx::Error> {
    let mut tx = Tx::begin(db).await?;
    if tx.is_postgres() {
        tx.execute("select pg_advisory_xact_lock($1)", &[WRITER_LOCK.into()])
            .await?;
    }
    add_events(&mut tx, events, Batch::Live).await?;
    takers::add(&mut tx, events).await?;
    let mut all = totals.to_vec();
    all.extend(monthly(totals));
    merge_totals(&mut tx, &all).await?;
    let today = crate::domain::time::berlin_date(Utc::now());
    let changed = if events.iter().any(|e| touches_ranked(&e.day, today)) {
        Changed::History
    } else {
        Changed::Recent
    };
    count_version(&mut tx, changed).await?;
    tx.commit().await
}

/// Which days a change of the roll-ups touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// Only yesterday and today: the writer's batches of live downloads.
    Recent,
    /// Also earlier days (a late batch, a seed, a backfill, an import): the history version
    /// moves as well, and every ranking made before is dropped.
    History,
}

/// Counts the statistics version up (and the history version, for a change of earlier days),
/// in the transaction that changes the roll-ups.
pub(crate) async fn count_version(tx: &mut Tx, changed: Changed) -> Result<(), sqlx::Error> {
    let sql = match changed {
        Changed::Recent => "update statistics_version set version = version + 1 where id = 1",
        // The right side reads the row as it was: both become the new version.
        Changed::History => {
            "update statistics_version set version = version + 1, history = version + 1 \
             where id = 1"
        }
    };
    tx.execute(sql, &[]).await.map(|_| ())
}

/// The statistics version, which moves with every change of the roll-ups (migration 0019),
/// and the history version (the last version that changed a day before yesterday, migration
/// 0027).
pub async fn versions(db: &Db) -> Result<(i64, i64), sqlx::Error> {
    crate::db_run!(db, pool => {
        sqlx::query_as::<_, (i64, i64)>(
            "select version, history from statistics_version where id = 1",
        )
        .fetch_one(pool)
        .await
    })
}

/// How [`add_events`] writes a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Batch {
    /// The writer's: the events are stored, and each file's customers are counted against
    /// the events of the day stored before.
    Live,
    /// A seed's whole day, of which nothing is stored yet (so nobody is counted before): the
    /// events are stored only when `keep` (the days within the personal days).
    NewDay { keep: bool },
}

/// Adds `events` to the daily and monthly rows of their files, in an open transaction, and
/// stores them as `batch` says. How many events were stored.
pub(crate) async fn add_events(
    tx: &mut Tx,
    events: &[NewEvent],
    batch: Batch,
) -> Result<u64, sqlx::Error> {
    let mut daily = file_sums(events, Period::Day);
    // Before the events are in: which of their customers each file has seen that day.
    if batch == Batch::Live {
        forget_known_customers(tx, &mut daily).await?;
    }
    let stored = if batch == (Batch::NewDay { keep: false }) {
        0
    } else {
        insert_events(tx, events).await?
    };
    add_file_sums(tx, Period::Day, &daily).await?;
    add_file_sums(tx, Period::Month, &file_sums(events, Period::Month)).await?;
    Ok(stored)
}

/// The rows of a file's downloads: per day or per month.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Period {
    /// `download_daily`, by `YYYY-MM-DD`.
    Day,
    /// `download_monthly`, by `YYYY-MM`.
    Month,
}

impl Period {
    fn of(self, day: &str) -> &str {
        let len = match self {
            Period::Day => 10,
            Period::Month => 7,
        };
        day.get(..len).unwrap_or(day)
    }
}

/// What a batch adds to one file's row of a day or month.
#[derive(Debug, Default)]
struct FileSums {
    provider_id: i64,
    downloads: i64,
    zip_downloads: i64,
    resumptions: i64,
    bytes_sent: i64,
    /// Downloads through a mail's link (issue 37).
    mail_downloads: i64,
    /// The distinct customers; by day only, and only those the day has not seen before.
    customers: BTreeSet<i64>,
}

/// (period, package, upload) → what `events` add to that row.
type FileKey = (String, i64, i64);

fn file_sums(events: &[NewEvent], period: Period) -> BTreeMap<FileKey, FileSums> {
    let mut sums: BTreeMap<FileKey, FileSums> = BTreeMap::new();
    for e in events {
        let key = (period.of(&e.day).to_owned(), e.package_id, e.upload_id);
        let row = sums.entry(key).or_default();
        row.provider_id = e.provider_id;
        let download = e.kind == "download";
        row.downloads += i64::from(download);
        row.zip_downloads += i64::from(download && Channel::is_zip(e.channel));
        row.mail_downloads += i64::from(download && e.channel == Channel::Mail.as_str());
        row.resumptions += i64::from(!download);
        row.bytes_sent += e.bytes_sent;
        if let (Period::Day, Some(number)) = (period, e.customer_number) {
            row.customers.insert(number);
        }
    }
    sums
}

/// Removes from `daily` the customers whose events of that day and file are stored already,
/// so that what is left are the customers new to each row. An index probe per customer
/// (`download_events_customer_idx`), in the writer's transaction.
async fn forget_known_customers(
    tx: &mut Tx,
    daily: &mut BTreeMap<FileKey, FileSums>,
) -> Result<(), sqlx::Error> {
    let asked: Vec<[Param; 4]> = daily
        .iter()
        .flat_map(|((day, package, upload), sums)| {
            sums.customers.iter().map(move |customer| {
                [
                    Param::from(day.clone()),
                    (*package).into(),
                    (*upload).into(),
                    (*customer).into(),
                ]
            })
        })
        .collect();
    for chunk in asked.chunks(KEYS_PER_STATEMENT) {
        // A join on a list of values, not a row value `in (values …)`, which SQLite answers
        // by scanning the whole index.
        let sql = format!(
            "select v.column1, v.column2, v.column3, v.column4 from (values {}) as v \
             where exists (select 1 from download_events e where e.day = v.column1 \
             and e.package_id = v.column2 and e.upload_id = v.column3 \
             and e.customer_number = v.column4)",
            crate::db::tx::tuples(4, chunk.len())
        );
        let values: Vec<Param> = chunk.iter().flatten().cloned().collect();
        let known: Vec<(String, i64, i64, i64)> = tx.fetch_all(&sql, &values).await?;
        for (day, package, upload, customer) in known {
            if let Some(sums) = daily.get_mut(&(day, package, upload)) {
                sums.customers.remove(&customer);
            }
        }
    }
    Ok(())
}

/// Adds `sums` to the rows of their files in `download_daily` or `download_monthly`, in the
/// open transaction that writes their events: each event is added exactly once.
async fn add_file_sums(
    tx: &mut Tx,
    period: Period,
    sums: &BTreeMap<FileKey, FileSums>,
) -> Result<(), sqlx::Error> {
    let (table, period_column) = match period {
        Period::Day => ("download_daily", "day"),
        Period::Month => ("download_monthly", "month"),
    };
    let mut columns = vec![period_column, "package_id", "upload_id"];
    columns.extend(FILE_SUM_COLUMNS);
    if period == Period::Day {
        columns.push("customers");
    }
    let rows: Vec<Vec<Param>> = sums
        .iter()
        .map(|((period_key, package, upload), sums)| {
            let mut row = vec![
                Param::from(period_key.clone()),
                (*package).into(),
                (*upload).into(),
                sums.provider_id.into(),
                sums.downloads.into(),
                sums.zip_downloads.into(),
                sums.resumptions.into(),
                sums.bytes_sent.into(),
                sums.mail_downloads.into(),
            ];
            if period == Period::Day {
                row.push((sums.customers.len() as i64).into());
            }
            row
        })
        .collect();
    for chunk in rows.chunks(KEYS_PER_STATEMENT) {
        let mut sql = crate::db::tx::insert_sql(table, &columns, chunk.len(), None);
        let _ = write!(
            sql,
            " on conflict ({period_column}, package_id, upload_id) do update set \
             provider_id = excluded.provider_id"
        );
        for added in &columns[4..] {
            let _ = write!(sql, ", {added} = {table}.{added} + excluded.{added}");
        }
        let values: Vec<Param> = chunk.iter().flatten().cloned().collect();
        tx.execute(&sql, &values).await?;
    }
    Ok(())
}

/// The sums of a file's daily and monthly rows, after its period, package and upload, in the
/// order of [`add_file_sums`]; a daily row has `customers` last.
const FILE_SUM_COLUMNS: [&str; 6] = [
    "provider_id",
    "downloads",
    "zip_downloads",
    "resumptions",
    "bytes_sent",
    "mail_downloads",
];

/// Adds `totals` to the rows they name (customers merged into the sketches), creating the
/// rows that do not exist yet, in an open transaction. Each key at most once.
pub(crate) async fn merge_totals(tx: &mut Tx, totals: &[TotalsChange]) -> Result<(), sqlx::Error> {
    for chunk in totals.chunks(KEYS_PER_STATEMENT) {
        let values: Vec<Param> = chunk
            .iter()
            .flat_map(|change| {
                [
                    Param::from(change.scope),
                    change.scope_id.into(),
                    change.day.clone().into(),
                ]
            })
            .collect();
        // A join, not a row value `in (values …)`, which SQLite answers by scanning the table.
        let sql = format!(
            "select t.scope, t.scope_id, t.day, t.downloads, t.zip_downloads, t.resumptions, \
             t.bytes_sent, t.sketch from (values {}) as v join download_totals t \
             on t.scope = v.column1 and t.scope_id = v.column2 and t.day = v.column3",
            crate::db::tx::tuples(3, chunk.len())
        );
        let stored: Vec<TotalsRow> = tx.fetch_all(&sql, &values).await?;
        let rows: Vec<Vec<Param>> = chunk
            .iter()
            .map(|change| {
                let before = stored.iter().find(|row| {
                    row.scope == change.scope
                        && row.scope_id == change.scope_id
                        && row.day == change.day
                });
                change.row(before)
            })
            .collect();
        let mut sql =
            crate::db::tx::insert_sql("download_totals", &TOTALS_COLUMNS, rows.len(), None);
        sql.push_str(
            " on conflict (scope, scope_id, day) do update set downloads = excluded.downloads, \
             zip_downloads = excluded.zip_downloads, resumptions = excluded.resumptions, \
             bytes_sent = excluded.bytes_sent, sketch = excluded.sketch",
        );
        let values: Vec<Param> = rows.into_iter().flatten().collect();
        tx.execute(&sql, &values).await?;
    }
    Ok(())
}

/// The month rows of daily `totals`: summed per (scope, id, month), customers merged; their
/// scope is [`month_scope`] and their day the month (`YYYY-MM`).
pub fn monthly(totals: &[TotalsChange]) -> Vec<TotalsChange> {
    let mut months: Vec<TotalsChange> = Vec::new();
    let mut index: std::collections::HashMap<(&'static str, i64, String), usize> =
        std::collections::HashMap::new();
    for change in totals {
        let scope = month_scope(change.scope);
        let month = change.day.get(..7).unwrap_or(&change.day).to_owned();
        match index.get(&(scope, change.scope_id, month.clone())) {
            Some(&i) => {
                let row = &mut months[i];
                row.downloads += change.downloads;
                row.zip_downloads += change.zip_downloads;
                row.resumptions += change.resumptions;
                row.bytes_sent += change.bytes_sent;
                row.customers.merge(&change.customers);
            }
            None => {
                index.insert((scope, change.scope_id, month.clone()), months.len());
                months.push(TotalsChange {
                    scope,
                    day: month,
                    ..change.clone()
                });
            }
        }
    }
    months
}

/// The month totals of the days already counted, for a data set from before they were kept:
/// written once (by whichever writer comes first), when daily totals exist and month totals
/// do not. How many month rows were written.
pub async fn backfill_month_totals(db: &Db) -> Result<u64, sqlx::Error> {
    let mut tx = Tx::begin(db).await?;
    if tx.is_postgres() {
        tx.execute("select pg_advisory_xact_lock($1)", &[WRITER_LOCK.into()])
            .await?;
    }
    let missing: Vec<(i64, i64)> = tx
        .fetch_all(
            "select (select count(*) from download_totals where scope = 'all'), \
             (select count(*) from download_totals where scope = 'all:month')",
            &[],
        )
        .await?;
    if missing
        .first()
        .is_none_or(|(days, months)| *days == 0 || *months > 0)
    {
        return Ok(0);
    }
    // A month at a time, so memory holds one month's sketches, not every day's.
    let months: Vec<(String,)> = tx
        .fetch_all(
            "select distinct substr(day, 1, 7) from download_totals where scope = 'all'",
            &[],
        )
        .await?;
    let mut written = 0;
    for (month,) in months {
        let daily: Vec<TotalsRow> = tx
            .fetch_all(
                "select scope, scope_id, day, downloads, zip_downloads, resumptions, bytes_sent, \
                 sketch from download_totals where scope in ('all', 'provider', 'package') \
                 and day >= $1 and day <= $2",
                &[format!("{month}-01").into(), format!("{month}-31").into()],
            )
            .await?;
        let changes: Vec<TotalsChange> = daily
            .iter()
            .map(|row| TotalsChange {
                scope: match row.scope.as_str() {
                    "all" => "all",
                    "provider" => "provider",
                    _ => "package",
                },
                scope_id: row.scope_id,
                day: row.day.clone(),
                downloads: row.downloads,
                zip_downloads: row.zip_downloads,
                resumptions: row.resumptions,
                bytes_sent: row.bytes_sent,
                customers: row.customers(),
            })
            .collect();
        written += insert_new_totals(&mut tx, &monthly(&changes)).await?;
    }
    count_version(&mut tx, Changed::History).await?;
    tx.commit().await?;
    Ok(written)
}

/// The columns of `download_events`, in the order of [`NewEvent::row`].
const EVENT_COLUMNS: [&str; 11] = [
    "at",
    "day",
    "subject",
    "customer_number",
    "package_id",
    "upload_id",
    "provider_id",
    "channel",
    "kind",
    "bytes_sent",
    "outcome",
];

impl NewEvent {
    fn row(&self) -> Vec<Param> {
        vec![
            self.at.into(),
            self.day.clone().into(),
            self.subject.clone().into(),
            self.customer_number.into(),
            self.package_id.into(),
            self.upload_id.into(),
            self.provider_id.into(),
            self.channel.into(),
            self.kind.into(),
            self.bytes_sent.into(),
            self.outcome.into(),
        ]
    }
}

/// Inserts events in an open transaction; how many.
async fn insert_events(tx: &mut Tx, events: &[NewEvent]) -> Result<u64, sqlx::Error> {
    let rows: Vec<Vec<Param>> = events.iter().map(NewEvent::row).collect();
    Ok(tx
        .insert_rows("download_events", &EVENT_COLUMNS, rows, None)
        .await?
        .0)
}

/// The columns of `download_totals`, in the order of [`TotalsChange::row`].
const TOTALS_COLUMNS: [&str; 8] = [
    "scope",
    "scope_id",
    "day",
    "downloads",
    "zip_downloads",
    "resumptions",
    "bytes_sent",
    "sketch",
];

impl TotalsChange {
    /// The row this change leaves: added to `before` (its customers merged) when the row
    /// exists.
    fn row(&self, before: Option<&TotalsRow>) -> Vec<Param> {
        let mut customers = self.customers.clone();
        let (mut downloads, mut zip, mut resumptions, mut bytes) = (0, 0, 0, 0);
        if let Some(before) = before {
            customers.merge(&before.customers());
            (downloads, zip, resumptions, bytes) = (
                before.downloads,
                before.zip_downloads,
                before.resumptions,
                before.bytes_sent,
            );
        }
        vec![
            Param::from(self.scope),
            self.scope_id.into(),
            self.day.clone().into(),
            (downloads + self.downloads).into(),
            (zip + self.zip_downloads).into(),
            (resumptions + self.resumptions).into(),
            (bytes + self.bytes_sent).into(),
            customers.to_bytes().into(),
        ]
    }
}

/// Inserts totals rows that do not exist yet (a fresh data set) in an open transaction.
pub(crate) async fn insert_new_totals(
    tx: &mut Tx,
    totals: &[TotalsChange],
) -> Result<u64, sqlx::Error> {
    let rows: Vec<Vec<Param>> = totals.iter().map(|t| t.row(None)).collect();
    Ok(tx
        .insert_rows("download_totals", &TOTALS_COLUMNS, rows, None)
        .await?
        .0)
}

/// A row of `download_totals`.
#[derive(Debug, sqlx::FromRow)]
pub struct TotalsRow {
    pub scope: String,
    pub scope_id: i64,
    pub day: String,
    pub downloads: i64,
    pub zip_downloads: i64,
    pub resumptions: i64,
    pub bytes_sent: i64,
    pub sketch: Vec<u8>,
}

impl TotalsRow {
    /// The day's distinct customers (none when the stored sketch cannot be read).
    pub fn customers(&self) -> Sketch {
        Sketch::from_bytes(&self.sketch).unwrap_or_else(|| {
            tracing::error!(scope = %self.scope, id = self.scope_id, day = %self.day, "unreadable customer sketch");
            Sketch::default()
        })
    }
}

/// Deletes the events of days before `day` (`YYYY-MM-DD`): what names a user or a customer
/// number is kept no longer (`AP_STATS_PERSONAL_DAYS`). The roll-ups stay.
pub async fn delete_events_before(db: &Db, day: &str) -> Result<u64, sqlx::Error> {
    crate::db_run!(db, pool => {
        Ok(sqlx::query("delete from download_events where day < $1")
            .bind(day)
            .execute(pool)
            .await?
            .rows_affected())
    })
}

// Declared below the items they share with the writes above.
pub mod mails;
mod reports;
pub mod takers;

pub use reports::{
    CustomerTookRow, LivePackage, Ranked, Rollup, RollupRow, Untouched, customers_of_package,
    day_counts, dealers_of_providers, downloads_of_packages, each_rollup_day, file_names,
    live_packages, package_names, packages_of_providers, top_files, top_packages, totals,
    totals_over, untouched_packages,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::statistics::DayRange;
    use crate::test_support::TestDb;
    use chrono::NaiveDate;

    fn event(day: &str, customer: i64, package: i64, upload: i64, zip: bool) -> NewEvent {
        NewEvent {
            at: Utc::now(),
            day: day.into(),
            subject: None,
            customer_number: Some(customer),
            package_id: package,
            upload_id: upload,
            provider_id: 1 + package % 2,
            channel: if zip { "package_zip" } else { "file" },
            kind: "download",
            bytes_sent: 10,
            outcome: "complete",
        }
    }

    /// Events on every day from 2026-01-20 to 2026-04-10, written in small batches as the
    /// writer does.
    async fn three_months(db: &Db) {
        let start = NaiveDate::from_ymd_opt(2026, 1, 20).unwrap();
        for (n, day) in (0i64..).zip(start.iter_days().take(81)) {
            let day = day.format("%Y-%m-%d").to_string();
            let events: Vec<NewEvent> = (0..(3 + n % 5))
                .map(|i| {
                    event(
                        &day,
                        100 + (n + i) % 7,
                        1 + (n + i) % 4,
                        10 + i % 3,
                        i % 2 == 0,
                    )
                })
                .collect();
            let totals = crate::services::insight::statistics::totals_of(&events);
            write_batch(db, &events, &totals).await.unwrap();
        }
    }

    fn range(from: &str, to: &str) -> DayRange {
        DayRange {
            from: NaiveDate::parse_from_str(from, "%Y-%m-%d").unwrap(),
            to: NaiveDate::parse_from_str(to, "%Y-%m-%d").unwrap(),
        }
    }

    #[tokio::test]
    async fn months_and_days_add_up_to_what_the_days_alone_say() {
        let t = TestDb::new().await;
        three_months(&t.db).await;
        let sum = |rows: Vec<TotalsRow>| {
            let mut customers = Sketch::default();
            let mut downloads = 0;
            for row in &rows {
                customers.merge(&row.customers());
                downloads += row.downloads;
            }
            (downloads, customers.estimate())
        };
        for (from, to) in [
            ("2026-01-25", "2026-04-05"),
            ("2026-01-29", "2026-04-25"),
            ("2026-02-03", "2026-02-26"),
            ("2026-02-01", "2026-03-31"),
            ("2026-01-20", "2026-02-28"),
            ("2026-02-10", "2026-02-20"),
        ] {
            let r = range(from, to);
            let days_only = RangeParts {
                months: None,
                days: vec![(from.into(), to.into())],
                minus_days: Vec::new(),
            };
            // Every range holds downloads: equal answers must not be two empty ones.
            let packages = top_packages(&t.db, None, &r.parts(), 100).await.unwrap();
            assert_eq!(packages.len(), 4, "{from}..{to}: {packages:?}");
            assert_eq!(
                packages,
                top_packages(&t.db, None, &days_only, 100).await.unwrap(),
                "{from}..{to}"
            );
            let files = top_files(&t.db, Some(&[1]), None, &r.parts(), 100)
                .await
                .unwrap();
            assert!(!files.is_empty(), "{from}..{to}");
            assert_eq!(
                files,
                top_files(&t.db, Some(&[1]), None, &days_only, 100)
                    .await
                    .unwrap(),
                "{from}..{to}"
            );
            let totals = sum(totals_over(&t.db, "provider", &[1, 2], &r.parts())
                .await
                .unwrap());
            assert!(totals.0 > 0, "{from}..{to}");
            assert_eq!(
                totals,
                sum(totals_over(&t.db, "provider", &[1, 2], &days_only)
                    .await
                    .unwrap()),
                "{from}..{to}"
            );
        }
        // February and March by hand: day n of the series (2026-01-20 is day 0) has 3 + n % 5
        // downloads; these are days 12 to 70, so 59 × 3 = 177 plus Σ n % 5 = 11 × 10 + 9 = 119.
        // The package of event i is 1 + (n + i) % 4, which gives each of the four 74.
        let r = range("2026-02-01", "2026-03-31");
        assert!(
            r.parts().days.is_empty(),
            "two whole months: month rows only"
        );
        let (downloads, customers) = sum(totals_over(&t.db, "provider", &[1, 2], &r.parts())
            .await
            .unwrap());
        assert_eq!(downloads, 296);
        assert_eq!(customers, 7, "customers 100 to 106");
        let packages = top_packages(&t.db, None, &r.parts(), 100).await.unwrap();
        assert_eq!(
            packages
                .iter()
                .map(|p| (p.package_id, p.downloads))
                .collect::<Vec<_>>(),
            [(1, 74), (2, 74), (3, 74), (4, 74)]
        );
    }

    #[tokio::test]
    async fn daily_rows_grow_by_each_batch_to_what_a_recount_of_the_events_says() {
        let t = TestDb::new().await;
        // Customers come back within a batch, in later batches and on the next day; some
        // events name no customer, some are resumptions.
        for batch in 0..5i64 {
            let mut events: Vec<NewEvent> = (0..14)
                .map(|i| {
                    let day = if (batch + i) % 4 == 3 {
                        "2026-03-02"
                    } else {
                        "2026-03-01"
                    };
                    event(
                        day,
                        100 + (batch * 3 + i) % 6,
                        1 + i % 2,
                        10 + i % 3,
                        i % 3 == 0,
                    )
                })
                .collect();
            events[0].customer_number = None;
            events[1].kind = "resumption";
            events[1].bytes_sent = 4;
            write_batch(
                &t.db,
                &events,
                &crate::services::insight::statistics::totals_of(&events),
            )
            .await
            .unwrap();
        }
        type Row = (String, i64, i64, i64, i64, i64, i64, i64);
        let (stored, recounted): (Vec<Row>, Vec<Row>) = crate::db_run!(&t.db, pool => {
            let stored = sqlx::query_as(
                "select day, package_id, upload_id, downloads, zip_downloads, resumptions, \
                 customers, bytes_sent from download_daily order by 1, 2, 3",
            )
            .fetch_all(pool)
            .await
            .unwrap();
            let recounted = sqlx::query_as(
                "select day, package_id, upload_id, \
                 cast(sum(case when kind = 'download' then 1 else 0 end) as bigint), \
                 cast(sum(case when kind = 'download' and channel <> 'file' then 1 else 0 end) \
                 as bigint), cast(sum(case when kind = 'resumption' then 1 else 0 end) as bigint), \
                 count(distinct customer_number), cast(sum(bytes_sent) as bigint) \
                 from download_events group by day, package_id, upload_id order by 1, 2, 3",
            )
            .fetch_all(pool)
            .await
            .unwrap();
            (stored, recounted)
        });
        assert_eq!(stored, recounted);
        assert!(
            stored.iter().any(|row| row.6 > 1 && row.6 < row.3),
            "{stored:?}"
        );
    }

    #[tokio::test]
    async fn month_totals_are_made_once_for_days_counted_before_them() {
        let t = TestDb::new().await;
        three_months(&t.db).await;
        let parts = range("2026-02-01", "2026-02-28").parts();
        let before = totals_over(&t.db, "all", &[0], &parts).await.unwrap();
        assert_eq!(before.len(), 1, "February's month row");
        crate::db_run!(&t.db, pool => {
            sqlx::query("delete from download_totals where scope like '%:month'")
                .execute(pool)
                .await
                .unwrap();
        });
        assert!(backfill_month_totals(&t.db).await.unwrap() > 0);
        assert_eq!(backfill_month_totals(&t.db).await.unwrap(), 0, "once");
        let after = totals_over(&t.db, "all", &[0], &parts).await.unwrap();
        assert_eq!(after.len(), 1);
        assert_eq!(
            (after[0].downloads, after[0].customers().estimate()),
            (before[0].downloads, before[0].customers().estimate())
        );
    }
}
