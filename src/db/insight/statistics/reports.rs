//! The statistics screen's reads: totals over a range from the daily and monthly roll-ups, the
//! days, the top packages and files, what nobody took, who took a package, and the dealers
//! reached per provider.

use super::*;
use crate::db::sql::joined;

/// The `download_totals` rows of `scope` for `ids` on the days `from..=to`, oldest first.
pub async fn totals(
    db: &Db,
    scope: &str,
    ids: &[i64],
    from: &str,
    to: &str,
) -> Result<Vec<TotalsRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select scope, scope_id, day, downloads, zip_downloads, resumptions, bytes_sent, sketch \
         from download_totals where scope = ",
    );
    let scope = query.param(scope);
    let list = query.id_list(ids);
    let (from, to) = (query.param(from), query.param(to));
    query.push(&format!(
        "{scope} and scope_id in {list} and day >= {from} and day <= {to} order by day"
    ));
    query.fetch_all(db).await
}

/// A package or file and how often it was downloaded.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Ranked {
    pub package_id: i64,
    /// The file (0 for a package).
    pub upload_id: i64,
    /// The package's name, or the package's name for the file; `None` when it was deleted.
    pub name: Option<String>,
    pub downloads: i64,
}

/// `(day >= $a and day <= $b) or …` for `runs` of days, on `column`; `None` without runs.
pub(super) fn runs_of(
    query: &mut DynQuery,
    column: &str,
    runs: &[(String, String)],
) -> Option<String> {
    let runs: Vec<String> = runs
        .iter()
        .map(|(from, to)| {
            let (from, to) = (query.param(from.as_str()), query.param(to.as_str()));
            format!("({column} >= {from} and {column} <= {to})")
        })
        .collect();
    (!runs.is_empty()).then(|| format!("({})", runs.join(" or ")))
}

/// The runs of days `parts` adds, on `column`.
pub(super) fn day_runs(query: &mut DynQuery, column: &str, parts: &RangeParts) -> Option<String> {
    runs_of(query, column, &parts.days)
}

/// `column >= $a and column <= $b` for the whole months of `parts`, if any.
pub(super) fn month_run(query: &mut DynQuery, column: &str, parts: &RangeParts) -> Option<String> {
    parts.months.as_ref().map(|(from, to)| {
        let (from, to) = (query.param(from.as_str()), query.param(to.as_str()));
        format!("({column} >= {from} and {column} <= {to})")
    })
}

/// Downloads per day of `scope` for `ids` on the days `from..=to` (days without any left out).
pub async fn day_counts(
    db: &Db,
    scope: &str,
    ids: &[i64],
    from: &str,
    to: &str,
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select day, cast(sum(downloads) as bigint) from download_totals where scope = ",
    );
    let scope = query.param(scope);
    let list = query.id_list(ids);
    let (from, to) = (query.param(from), query.param(to));
    query.push(&format!(
        "{scope} and scope_id in {list} and day >= {from} and day <= {to} group by day"
    ));
    query.fetch_all(db).await
}

/// The totals rows of `scope` for `ids` that add up to the range: the month rows of its whole
/// months and the day rows of the days around them (for sums, not for a series of days).
pub async fn totals_over(
    db: &Db,
    scope: &'static str,
    ids: &[i64],
    parts: &RangeParts,
) -> Result<Vec<TotalsRow>, sqlx::Error> {
    // Sketches add up; nothing can be taken off them.
    debug_assert!(
        parts.minus_days.is_empty(),
        "totals_over takes DayRange::parts"
    );
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select scope, scope_id, day, downloads, zip_downloads, resumptions, bytes_sent, sketch \
         from download_totals where scope_id in ",
    );
    let list = query.id_list(ids);
    query.push(&list);
    let mut either = Vec::new();
    if let Some(days) = day_runs(&mut query, "day", parts) {
        let scope = query.param(scope);
        either.push(format!("(scope = {scope} and {days})"));
    }
    if let Some(months) = month_run(&mut query, "day", parts) {
        let scope = query.param(month_scope(scope));
        either.push(format!("(scope = {scope} and {months})"));
    }
    query.push(&format!(" and ({})", either.join(" or ")));
    query.fetch_all(db).await
}

/// The most downloaded packages in the range (read as [`counting_parts`](crate::domain::statistics::DayRange::counting_parts)), of
/// `providers` (all: `None`).
pub async fn top_packages(
    db: &Db,
    providers: Option<&[i64]>,
    parts: &RangeParts,
    limit: i64,
) -> Result<Vec<Ranked>, sqlx::Error> {
    // A moderator who manages no provider sees nothing (and `in ()` is no SQL).
    if providers.is_some_and(<[i64]>::is_empty) {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select t.package_id, cast(0 as bigint) as upload_id, d.name as name, t.downloads \
         from (select scope_id as package_id, cast(sum(downloads) as bigint) as downloads from (",
    );
    let filter = match providers {
        Some(providers) => {
            let list = query.id_list(providers);
            format!(" and scope_id in (select id from downloads where provider_id in {list})")
        }
        None => String::new(),
    };
    let select = |sign: &str, scope: &str, runs: String| {
        format!(
            "select scope_id, {sign}downloads as downloads from download_totals \
             where scope = '{scope}' and {runs}{filter}"
        )
    };
    let mut selects = Vec::new();
    if let Some(days) = day_runs(&mut query, "day", parts) {
        selects.push(select("", "package", days));
    }
    if let Some(months) = month_run(&mut query, "day", parts) {
        selects.push(select("", "package:month", months));
    }
    if let Some(minus) = runs_of(&mut query, "day", &parts.minus_days) {
        selects.push(select("-", "package", minus));
    }
    let limit = query.param(limit);
    query.push(&selects.join(" union all ")).push(&format!(
        ") u group by scope_id having sum(downloads) > 0 \
         order by downloads desc, scope_id limit {limit}) t \
         left join downloads d on d.id = t.package_id \
         order by t.downloads desc, t.package_id"
    ));
    query.fetch_all(db).await
}

/// The most downloaded files in the range (read as [`counting_parts`](crate::domain::statistics::DayRange::counting_parts)), of
/// `providers` (all: `None`) or of one package.
pub async fn top_files(
    db: &Db,
    providers: Option<&[i64]>,
    package: Option<i64>,
    parts: &RangeParts,
    limit: i64,
) -> Result<Vec<Ranked>, sqlx::Error> {
    // A moderator who manages no provider sees nothing (and `in ()` is no SQL).
    if providers.is_some_and(<[i64]>::is_empty) {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select f.package_id, f.upload_id, du.name as name, f.downloads from \
         (select package_id, upload_id, cast(sum(downloads) as bigint) as downloads from (",
    );
    let mut filters = String::new();
    if let Some(providers) = providers {
        let list = query.id_list(providers);
        filters.push_str(&format!(" and provider_id in {list}"));
    }
    if let Some(package) = package {
        let package = query.param(package);
        filters.push_str(&format!(" and package_id = {package}"));
    }
    let mut parts_sql = Vec::new();
    if let Some(days) = day_runs(&mut query, "day", parts) {
        parts_sql.push(format!(
            "select package_id, upload_id, downloads from download_daily where {days}{filters}"
        ));
    }
    if let Some(months) = month_run(&mut query, "month", parts) {
        parts_sql.push(format!(
            "select package_id, upload_id, downloads from download_monthly where {months}{filters}"
        ));
    }
    if let Some(minus) = runs_of(&mut query, "day", &parts.minus_days) {
        parts_sql.push(format!(
            "select package_id, upload_id, -downloads from download_daily where {minus}{filters}"
        ));
    }
    let limit = query.param(limit);
    query.push(&parts_sql.join(" union all ")).push(&format!(
        ") u group by package_id, upload_id having sum(downloads) > 0 \
         order by downloads desc, package_id, upload_id limit {limit}) f \
         left join download_uploads du on du.download_id = f.package_id \
         and du.upload_id = f.upload_id \
         order by f.downloads desc, f.package_id, f.upload_id"
    ));
    query.fetch_all(db).await
}

/// A package nobody downloaded.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Untouched {
    pub id: i64,
    pub name: String,
    pub provider_id: i64,
}

/// The packages of `providers` (all: `None`) valid at some time between `start` and `end`,
/// not archived, that nobody downloaded on the days `from..=to`; the newest first.
pub async fn untouched_packages(
    db: &Db,
    providers: Option<&[i64]>,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    (from, to): (&str, &str),
    limit: i64,
) -> Result<Vec<Untouched>, sqlx::Error> {
    // A moderator who manages no provider sees nothing (and `in ()` is no SQL).
    if providers.is_some_and(<[i64]>::is_empty) {
        return Ok(Vec::new());
    }
    let mut query =
        DynQuery::new("select d.id, d.name, d.provider_id from downloads d where d.archived = ");
    let no = query.param(false);
    let start = query.param(start);
    let end = query.param(end);
    query.push(&format!(
        "{no} and d.start_at <= {end} and d.end_at >= {start}"
    ));
    if let Some(providers) = providers {
        let list = query.id_list(providers);
        query.push(&format!(" and d.provider_id in {list}"));
    }
    let from = query.param(from);
    let to = query.param(to);
    let limit = query.param(limit);
    query.push(&format!(
        " and not exists (select 1 from download_totals t where t.scope = 'package' \
         and t.scope_id = d.id and t.day >= {from} and t.day <= {to} and t.downloads > 0) \
         order by d.start_at desc, d.id desc limit {limit}"
    ));
    query.fetch_all(db).await
}

/// A package that is not archived, with its validity (for the untouched packages).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow, serde::Serialize)]
pub struct LivePackage {
    pub id: i64,
    pub name: String,
    pub provider_id: i64,
    pub start_at: DateTime<Utc>,
    pub end_at: DateTime<Utc>,
}

/// Every package that is not archived, in the order of [`untouched_packages`]: the newest
/// first.
pub async fn live_packages(db: &Db) -> Result<Vec<LivePackage>, sqlx::Error> {
    let mut query = DynQuery::new(
        "select id, name, provider_id, start_at, end_at from downloads where archived = ",
    );
    let no = query.param(false);
    query.push(&format!("{no} order by start_at desc, id desc"));
    query.fetch_all(db).await
}

/// A customer number that took files of a package, from the personal events.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct CustomerTookRow {
    pub customer_number: i64,
    pub downloads: i64,
    pub last_at: DateTime<Utc>,
}

/// Which customer numbers downloaded files of `package` on the days `from..=to` (as far as
/// the personal events still reach), the most active first.
pub async fn customers_of_package(
    db: &Db,
    package: i64,
    from: &str,
    to: &str,
) -> Result<Vec<CustomerTookRow>, sqlx::Error> {
    crate::db_run!(db, pool => {
        sqlx::query_as::<_, CustomerTookRow>(
            "select customer_number, \
             cast(sum(case when kind = 'download' then 1 else 0 end) as bigint) as downloads, \
             max(at) as last_at from download_events \
             where package_id = $1 and day >= $2 and day <= $3 and customer_number is not null \
             group by customer_number order by downloads desc, customer_number limit 10000",
        )
        .bind(package)
        .bind(from)
        .bind(to)
        .fetch_all(pool)
        .await
    })
}

/// All-time downloads of each of `packages` that has any.
pub async fn downloads_of_packages(
    db: &Db,
    packages: &[i64],
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    if packages.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select scope_id, cast(sum(downloads) as bigint) from download_totals \
         where scope = 'package' and scope_id in ",
    );
    let list = query.id_list(packages);
    query.push(&list).push(" group by scope_id");
    query.fetch_all(db).await
}

/// The dealers of each provider: the distinct customer numbers with a contact on one of its
/// lists (those its packages can be offered to).
pub async fn dealers_of_providers(
    db: &Db,
    providers: &[i64],
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    if providers.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select l.provider_id, count(distinct c.customer_number) from lists l \
         join contact_lists cl on cl.list_id = l.id join contacts c on c.id = cl.contact_id \
         where l.provider_id in ",
    );
    let list = query.id_list(providers);
    query.push(&list).push(" group by l.provider_id");
    query.fetch_all(db).await
}

/// One row of the roll-ups of a file (`download_daily`, `download_monthly`) or of a package
/// (`download_totals`), as a ranking holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollupRow {
    pub package_id: i64,
    /// The file; 0 for a package.
    pub upload_id: i64,
    /// The provider the row was counted for; 0 for a package (its provider is today's).
    pub provider_id: i64,
    pub downloads: i64,
}

/// Which roll-up rows [`each_rollup_day`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollup {
    FileDays,
    FileMonths,
    PackageDays,
    PackageMonths,
}

impl Rollup {
    /// One row per day (or month) of `from..=to` with downloads: the day and its rows' numbers
    /// as one text, `package upload provider downloads …` (a package's: `package downloads …`).
    fn sql(self, db: &Db) -> String {
        let (period, table, fields, scope) = match self {
            Rollup::FileDays => (
                "day",
                "download_daily",
                "package_id, upload_id, provider_id, downloads",
                "",
            ),
            Rollup::FileMonths => (
                "month",
                "download_monthly",
                "package_id, upload_id, provider_id, downloads",
                "",
            ),
            Rollup::PackageDays => (
                "day",
                "download_totals",
                "scope_id, downloads",
                "scope = 'package' and ",
            ),
            Rollup::PackageMonths => (
                "day",
                "download_totals",
                "scope_id, downloads",
                "scope = 'package:month' and ",
            ),
        };
        let numbers = fields
            .split(", ")
            .map(|field| format!("cast({field} as text)"))
            .collect::<Vec<_>>()
            .join(" || ' ' || ");
        format!(
            "select {period}, {} from {table} where {scope}{period} >= $1 and {period} <= $2 \
             and downloads > 0 group by {period} order by {period}",
            joined(db, &numbers, " ")
        )
    }

    fn fields(self) -> usize {
        match self {
            Rollup::FileDays | Rollup::FileMonths => 4,
            Rollup::PackageDays | Rollup::PackageMonths => 2,
        }
    }
}

/// Hands the `rollup` rows of each day (or month, `YYYY-MM`) of `from..=to` that has downloads
/// to `each`, a day at a time. A day comes as one database row: a year of a large installation
/// is millions of rows, and a row through the driver costs more than SQLite's reading it.
pub async fn each_rollup_day(
    db: &Db,
    rollup: Rollup,
    (from, to): (&str, &str),
    mut each: impl FnMut(&str, Vec<RollupRow>) + Send,
) -> Result<(), sqlx::Error> {
    use futures_util::TryStreamExt;
    let sql = rollup.sql(db);
    crate::db_run!(db, pool => {
        let mut days = sqlx::query_as::<_, (String, String)>(&sql)
            .bind(from)
            .bind(to)
            .fetch(pool);
        while let Some((day, numbers)) = days.try_next().await? {
            each(&day, rollup_rows(rollup, &numbers)?);
        }
        Ok(())
    })
}

/// The rows of a day's text of [`Rollup::sql`].
fn rollup_rows(rollup: Rollup, numbers: &str) -> Result<Vec<RollupRow>, sqlx::Error> {
    let numbers = numbers
        .split(' ')
        .map(str::parse::<i64>)
        .collect::<Result<Vec<i64>, _>>()
        .map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    let fields = rollup.fields();
    if numbers.len() % fields != 0 {
        return Err(sqlx::Error::Decode(
            format!("{rollup:?}: {} numbers", numbers.len()).into(),
        ));
    }
    Ok(numbers
        .chunks_exact(fields)
        .map(|row| match row {
            [package_id, upload_id, provider_id, downloads] => RollupRow {
                package_id: *package_id,
                upload_id: *upload_id,
                provider_id: *provider_id,
                downloads: *downloads,
            },
            [package_id, downloads, ..] => RollupRow {
                package_id: *package_id,
                upload_id: 0,
                provider_id: 0,
                downloads: *downloads,
            },
            _ => unreachable!("chunks of 2 or 4"),
        })
        .collect())
}

/// The names of `files` (package, upload) that still exist.
pub async fn file_names(
    db: &Db,
    files: &[(i64, i64)],
) -> Result<Vec<(i64, i64, String)>, sqlx::Error> {
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let packages: Vec<i64> = files.iter().map(|f| f.0).collect();
    let mut query = DynQuery::new(
        "select download_id, upload_id, name from download_uploads where download_id in ",
    );
    let list = query.id_list(&packages);
    query.push(&list);
    let rows: Vec<(i64, i64, String)> = query.fetch_all(db).await?;
    Ok(rows
        .into_iter()
        .filter(|(package, upload, _)| files.contains(&(*package, *upload)))
        .collect())
}

/// The names of `packages` that still exist.
pub async fn package_names(db: &Db, packages: &[i64]) -> Result<Vec<(i64, String)>, sqlx::Error> {
    if packages.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new("select id, name from downloads where id in ");
    let list = query.id_list(packages);
    query.push(&list);
    query.fetch_all(db).await
}

/// The ids of the packages of `providers`, archived ones included.
pub async fn packages_of_providers(db: &Db, providers: &[i64]) -> Result<Vec<i64>, sqlx::Error> {
    if providers.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new("select id from downloads where provider_id in ");
    let list = query.id_list(providers);
    query.push(&list);
    let rows: Vec<(i64,)> = query.fetch_all(db).await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}
