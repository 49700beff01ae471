//! The statistics screen's figures (issue 24), read from the roll-ups only, so a year costs
//! about as much as a day. Admins see everything; moderators only the providers they manage
//! (the `allowedRoles` rule of spec §6); nobody else gets here (`Capability::AdminArea`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use super::ranking::Rankings;
use crate::db::insight::statistics::{Rollup, TotalsRow};
use crate::db::{self, Db};
use crate::domain::permissions::may_manage_provider;
use crate::domain::statistics::{DayRange, Sketch, share};
use crate::domain::time::{berlin_end_of_day, berlin_start_of_day};
use crate::domain::user::User;
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::operations::answers::{Answer, Answers, Stamp};

/// How many packages and files the top lists name.
const TOP: usize = 10;
/// How many untouched packages the summary names at most.
const UNTOUCHED: usize = 100;

/// Downloads on one German day.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct DayCount {
    /// `YYYY-MM-DD`.
    #[schema(example = "2026-11-02")]
    pub date: String,
    pub downloads: i64,
}

/// A package or file in a top list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct TopEntry {
    /// The package's id (in `topPackages`) or the file's upload id (in `files`).
    pub id: i64,
    /// Its name; "(gelöscht)" when it no longer exists.
    pub name: String,
    pub downloads: i64,
}

/// A package in its validity period that nobody downloaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PackageRef {
    pub id: i64,
    pub name: String,
}

/// `GET /api/statistics/summary`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Downloads (answers from byte 0) of single files and of files in ZIPs.
    pub downloads: i64,
    /// Distinct customer numbers that downloaded anything.
    pub customers: i64,
    /// The share of downloads that came in a ZIP, 0–1.
    pub zip_share: f64,
    /// Every day of the range, also those without downloads.
    pub days: Vec<DayCount>,
    pub top_packages: Vec<TopEntry>,
    /// The most downloaded files, each with its package's name for it.
    pub top_files: Vec<TopFile>,
    pub untouched_packages: Vec<PackageRef>,
}

/// A file in the top list, with its package.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopFile {
    pub id: i64,
    pub name: String,
    pub package_id: i64,
    pub downloads: i64,
}

/// `GET /api/statistics/packages/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PackageStatistics {
    pub downloads: i64,
    pub customers: i64,
    pub files: Vec<TopEntry>,
    pub days: Vec<DayCount>,
    /// What the package's mails brought, since they went out (`null`: none were sent).
    pub mails: Option<super::mail_figures::PackageMails>,
}

/// Whose figures a user sees.
pub(super) enum Reach {
    All,
    Providers(Vec<i64>),
}

impl Reach {
    pub(super) fn providers(&self) -> Option<&[i64]> {
        match self {
            Reach::All => None,
            Reach::Providers(ids) => Some(ids),
        }
    }
}

/// The admin sees all; a moderator the providers they manage. A chosen provider must be
/// one of them (`Forbidden` otherwise, `NotFound` when there is none).
pub(super) async fn reach(db: &Db, user: &User, provider: Option<i64>) -> ServiceResult<Reach> {
    if let Some(id) = provider {
        managed_provider(db, user, id).await?;
        return Ok(Reach::Providers(vec![id]));
    }
    if user.is_admin() {
        return Ok(Reach::All);
    }
    Ok(Reach::Providers(
        db::marketing::providers::ids_for_roles(db, &user.roles).await?,
    ))
}

/// A key part: what a reach shows (`all`, or the providers' ids).
impl std::fmt::Display for Reach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reach::All => f.write_str("all"),
            Reach::Providers(ids) => write!(f, "providers{ids:?}"),
        }
    }
}

/// The key a report (`what`, of `scope`: a reach or a package) of `range` is kept under in
/// [`Answers`]: with the data version (names, packages valid in the range, who manages what)
/// and the statistics version (the roll-ups), both read before the report's data, so it is
/// never served after a change. A crowd of admins asking for the same year costs one
/// computation per batch of downloads. Whoever asks must have been let see `scope` first.
pub(super) async fn kept_key(
    db: &Db,
    answers: &Answers,
    what: &str,
    scope: &(dyn std::fmt::Display + Sync),
    range: DayRange,
) -> ServiceResult<KeptKey> {
    let stamp = answers.stamp(db).await?;
    let (downloads, history) = db::insight::statistics::versions(db).await?;
    Ok(KeptKey {
        key: format!(
            "statistics|{what}|{scope}|{stamp}|{downloads}|{}|{}",
            range.from, range.to
        ),
        stamp,
        history,
    })
}

/// A report's key and the versions it was made of, read once: the report's own reads use
/// the same stamp and history version.
pub(super) struct KeptKey {
    pub key: String,
    pub stamp: Stamp,
    /// The history version of the statistics (see [`Rankings::current`]).
    pub history: i64,
}

pub(super) fn day_text(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

/// The roll-up rows of a range, per day: counts summed, customers merged.
struct Totals {
    downloads: i64,
    zip_downloads: i64,
    customers: Sketch,
    days: BTreeMap<String, i64>,
}

fn add_up(rows: &[TotalsRow]) -> Totals {
    let mut totals = Totals {
        downloads: 0,
        zip_downloads: 0,
        customers: Sketch::default(),
        days: BTreeMap::new(),
    };
    for row in rows {
        totals.downloads += row.downloads;
        totals.zip_downloads += row.zip_downloads;
        totals.customers.merge(&row.customers());
        *totals.days.entry(row.day.clone()).or_default() += row.downloads;
    }
    totals
}

fn every_day(range: DayRange, counts: &BTreeMap<String, i64>) -> Vec<DayCount> {
    range
        .days()
        .map(|day| {
            let date = day_text(day);
            let downloads = counts.get(&date).copied().unwrap_or(0);
            DayCount { date, downloads }
        })
        .collect()
}

pub(super) const DELETED: &str = "(gelöscht)";

/// The scope and ids of the totals rows a reach adds up.
fn scope_of(reach: &Reach) -> (&'static str, &[i64]) {
    match reach {
        Reach::All => ("all", &[0]),
        Reach::Providers(ids) => ("provider", ids),
    }
}

/// The summary of the range for the user's providers, or for one of them, as JSON.
pub async fn summary(
    db: &Db,
    answers: &Answers,
    rankings: &Rankings,
    user: &User,
    range: DayRange,
    provider: Option<i64>,
) -> ServiceResult<Arc<Answer>> {
    let reach = reach(db, user, provider).await?;
    let kept = kept_key(db, answers, "summary", &reach, range).await?;
    answers
        .body(kept.key.clone(), async {
            let _turn = SUMMARIES.acquire().await.map_err(ServiceError::internal)?;
            summary_of(db, answers, rankings, &kept, &reach, range).await
        })
        .await
}

/// Summaries computed at the same time: one per two cores. A summary ran five reads of
/// hundreds of milliseconds on five connections; 45 clients asking for new ranges took every
/// connection and both cores, and `/healthz` answered 18 times a second with a p99 of half a
/// second (issue 41). The ranking made that a few milliseconds, but the first summary after a
/// change of the settled days still waits for the ranking, and its turn keeps the others from
/// taking every connection meanwhile. Further summaries wait their turn, in order; the
/// lists, the files and `/healthz` do not wait behind them.
static SUMMARIES: std::sync::LazyLock<tokio::sync::Semaphore> = std::sync::LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    tokio::sync::Semaphore::new((cores / 2).max(1))
});

/// Every day of the range with its downloads, for the reach.
pub(super) async fn days_of(
    db: &Db,
    reach: &Reach,
    range: DayRange,
) -> ServiceResult<Vec<DayCount>> {
    let (scope, ids) = scope_of(reach);
    let counts: BTreeMap<String, i64> = db::insight::statistics::day_counts(
        db,
        scope,
        ids,
        &day_text(range.from),
        &day_text(range.to),
    )
    .await?
    .into_iter()
    .collect();
    Ok(every_day(range, &counts))
}

async fn summary_of(
    db: &Db,
    answers: &Answers,
    rankings: &Rankings,
    kept: &KeptKey,
    reach: &Reach,
    range: DayRange,
) -> ServiceResult<Summary> {
    // The sums from whole months and the days around them; the chart's days without the
    // customers' sketches (a moderator of many providers would merge one per provider and day).
    let (scope, ids) = scope_of(reach);
    let parts = range.parts();
    // Independent reads, each on its own connection: a cold year costs the slowest of them,
    // not their sum.
    let (totals, days, ranked) = tokio::try_join!(
        async {
            Ok::<_, ServiceError>(
                db::insight::statistics::totals_over(db, scope, ids, &parts).await?,
            )
        },
        days_of(db, reach, range),
        ranked(db, answers, rankings, kept, reach, range),
    )?;
    let totals = add_up(&totals);
    Ok(Summary {
        downloads: totals.downloads,
        customers: totals.customers.estimate(),
        zip_share: share(totals.zip_downloads, totals.downloads),
        days,
        top_packages: ranked.top_packages,
        top_files: ranked.top_files,
        untouched_packages: ranked.untouched,
    })
}

/// The summary's lists that rank packages and files.
struct RankedLists {
    top_packages: Vec<TopEntry>,
    top_files: Vec<TopFile>,
    untouched: Vec<PackageRef>,
}

/// The most downloaded packages and files of the range (read as
/// [`counting_parts`](DayRange::counting_parts)) for the reach, and the packages valid in it
/// that nobody downloaded: added up from the settled days in memory and the days after them
/// from the database; the packages and their validity kept under the data version.
async fn ranked(
    db: &Db,
    answers: &Answers,
    rankings: &Rankings,
    kept: &KeptKey,
    reach: &Reach,
    range: DayRange,
) -> ServiceResult<RankedLists> {
    let providers = reach.providers();
    // A moderator who manages no provider sees nothing.
    if providers.is_some_and(<[i64]>::is_empty) {
        return Ok(RankedLists {
            top_packages: Vec::new(),
            top_files: Vec::new(),
            untouched: Vec::new(),
        });
    }
    let ranking = rankings.current(db, kept.history).await?;
    let plan = ranking.plan(&range.counting_parts());
    let (mut recent_files, mut recent_packages) = (Vec::new(), Vec::new());
    for (from, to, sign) in &plan.recent {
        for (rollup, rows) in [
            (Rollup::FileDays, &mut recent_files),
            (Rollup::PackageDays, &mut recent_packages),
        ] {
            db::insight::statistics::each_rollup_day(db, rollup, (from, to), |_, day| {
                rows.extend(day.into_iter().map(|mut row| {
                    row.downloads *= sign;
                    row
                }));
            })
            .await?;
        }
    }
    let live = answers
        .value(format!("statistics-live-packages|{}", kept.stamp), async {
            Ok(db::insight::statistics::live_packages(db).await?)
        })
        .await?;
    let of_reach = |provider: i64| providers.is_none_or(|ids| ids.contains(&provider));
    // Moved packages count for the provider they have now, as in the plain query.
    let packages: Option<HashSet<i64>> = match providers {
        Some(ids) => Some(
            db::insight::statistics::packages_of_providers(db, ids)
                .await?
                .into_iter()
                .collect(),
        ),
        None => None,
    };
    let sums = ranking.package_sums(&plan, &recent_packages);
    let top_packages = sums.top_packages(packages.as_ref(), TOP);
    let top_files = ranking.top_files(&plan, &recent_files, providers, TOP);
    let (start, end) = (berlin_start_of_day(range.from), berlin_end_of_day(range.to));
    let untouched = live
        .iter()
        .filter(|p| p.start_at <= end && p.end_at >= start && of_reach(p.provider_id))
        .filter(|p| !sums.downloaded(p.id))
        .take(UNTOUCHED)
        .map(|p| PackageRef {
            id: p.id,
            name: p.name.clone(),
        })
        .collect();
    let package_ids: Vec<i64> = top_packages.iter().map(|(id, _)| *id).collect();
    let file_keys: Vec<(i64, i64)> = top_files.iter().map(|(key, _)| *key).collect();
    let (package_names, file_names) = tokio::try_join!(
        db::insight::statistics::package_names(db, &package_ids),
        db::insight::statistics::file_names(db, &file_keys),
    )?;
    let package_names: HashMap<i64, String> = package_names.into_iter().collect();
    let file_names: HashMap<(i64, i64), String> = file_names
        .into_iter()
        .map(|(package, upload, name)| ((package, upload), name))
        .collect();
    let name = |found: Option<&String>| found.cloned().unwrap_or_else(|| DELETED.into());
    Ok(RankedLists {
        top_packages: top_packages
            .into_iter()
            .map(|(id, downloads)| TopEntry {
                id,
                name: name(package_names.get(&id)),
                downloads,
            })
            .collect(),
        top_files: top_files
            .into_iter()
            .map(|((package_id, id), downloads)| TopFile {
                id,
                name: name(file_names.get(&(package_id, id))),
                package_id,
                downloads,
            })
            .collect(),
        untouched,
    })
}

/// One package's figures (the user must manage its provider).
pub async fn package(
    db: &Db,
    user: &User,
    id: i64,
    range: DayRange,
) -> ServiceResult<PackageStatistics> {
    let name = managed_package(db, user, id).await?;
    package_figures(db, id, &name, range).await
}

/// Checks that package `id` exists and that the user manages its provider; its name.
pub(super) async fn managed_package(db: &Db, user: &User, id: i64) -> ServiceResult<String> {
    let package = db::catalog::packages::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    managed_provider(db, user, package.provider_id).await?;
    Ok(package.name)
}

/// Checks that provider `id` exists and that the user manages it. Insight reads the data of
/// the catalog and of marketing but calls none of their use cases (the catalog records into
/// insight, and marketing uses the catalog's uploads), so the rule of
/// `domain::permissions` is applied here to the provider's row.
async fn managed_provider(db: &Db, user: &User, id: i64) -> ServiceResult<()> {
    let provider = db::marketing::providers::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    if !may_manage_provider(user, &provider.allowed_roles) {
        return Err(ServiceError::Forbidden);
    }
    Ok(())
}

/// One package's figures, for whoever may see them.
pub(super) async fn package_figures(
    db: &Db,
    id: i64,
    name: &str,
    range: DayRange,
) -> ServiceResult<PackageStatistics> {
    let (from, to) = (day_text(range.from), day_text(range.to));
    let totals = add_up(&db::insight::statistics::totals(db, "package", &[id], &from, &to).await?);
    let counted =
        db::insight::statistics::top_files(db, None, Some(id), &range.counting_parts(), 10_000)
            .await?;
    // Every file the package holds, also those nobody took, in the package's order; then
    // files counted in the range that it no longer holds.
    let mut files: Vec<TopEntry> = db::catalog::packages::files_of(db, &[id])
        .await?
        .into_iter()
        .map(|file| TopEntry {
            downloads: counted
                .iter()
                .find(|c| c.upload_id == file.upload_id)
                .map_or(0, |c| c.downloads),
            id: file.upload_id,
            name: file.name,
        })
        .collect();
    for gone in counted {
        if !files.iter().any(|f| f.id == gone.upload_id) {
            files.push(TopEntry {
                id: gone.upload_id,
                name: gone.name.unwrap_or_else(|| DELETED.into()),
                downloads: gone.downloads,
            });
        }
    }
    // The most downloaded first; ties keep the package's order.
    files.sort_by_key(|f| std::cmp::Reverse(f.downloads));
    Ok(PackageStatistics {
        downloads: totals.downloads,
        customers: totals.customers.estimate(),
        files,
        days: every_day(range, &totals.days),
        mails: super::mail_figures::of_package(db, id, name).await?,
    })
}

/// Who took a package: the customer numbers of the personal events (Admin only).
pub async fn package_customers(
    db: &Db,
    user: &User,
    id: i64,
    range: DayRange,
) -> ServiceResult<Vec<db::insight::statistics::CustomerTookRow>> {
    if !user.is_admin() {
        return Err(ServiceError::Forbidden);
    }
    db::catalog::packages::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let (from, to) = (day_text(range.from), day_text(range.to));
    Ok(db::insight::statistics::customers_of_package(db, id, &from, &to).await?)
}

/// A package's downloads of all time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PackageDownloads {
    pub id: i64,
    pub downloads: i64,
}

/// The all-time downloads of `ids` (the admin downloads list's column): of every package for
/// the admin, of those of their providers for a moderator; packages never downloaded are 0.
pub async fn downloads_of_packages(
    db: &Db,
    user: &User,
    ids: &[i64],
) -> ServiceResult<Vec<PackageDownloads>> {
    let mut seen: Vec<i64> = ids.to_vec();
    if let Reach::Providers(providers) = reach(db, user, None).await? {
        let packages = db::catalog::packages::get_many(db, ids).await?;
        seen.retain(|id| {
            packages
                .iter()
                .any(|p| p.id == *id && providers.contains(&p.provider_id))
        });
    }
    let counts = db::insight::statistics::downloads_of_packages(db, &seen).await?;
    Ok(seen
        .into_iter()
        .map(|id| PackageDownloads {
            id,
            downloads: counts
                .iter()
                .find(|(package, _)| *package == id)
                .map_or(0, |(_, n)| *n),
        })
        .collect())
}

/// How many of a provider's dealers took anything in the range.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ProviderShare {
    pub id: i64,
    pub name: String,
    /// Distinct customer numbers that downloaded the provider's files.
    pub customers: i64,
    /// Distinct customer numbers with a contact on one of the provider's lists.
    pub dealers: i64,
    /// `customers / dealers`, 0–1 (0 without dealers).
    pub share: f64,
}

/// Per provider the user sees, the share of its dealers who took anything in the range.
pub async fn provider_shares(
    db: &Db,
    answers: &Answers,
    user: &User,
    range: DayRange,
) -> ServiceResult<Vec<ProviderShare>> {
    shares_of(db, answers, &reach(db, user, None).await?, range).await
}

pub(super) async fn shares_of(
    db: &Db,
    answers: &Answers,
    reach: &Reach,
    range: DayRange,
) -> ServiceResult<Vec<ProviderShare>> {
    let providers = db::marketing::providers::list_all(db).await?;
    let providers: Vec<_> = match reach {
        Reach::All => providers,
        Reach::Providers(ids) => providers
            .into_iter()
            .filter(|p| ids.contains(&p.id))
            .collect(),
    };
    let ids: Vec<i64> = providers.iter().map(|p| p.id).collect();
    // Sums only: the months' rows and the days around them.
    let rows = db::insight::statistics::totals_over(db, "provider", &ids, &range.parts()).await?;
    // Every provider's dealers, kept until contacts, lists or providers change: counting them
    // joins every list assignment (400,000 on the large data set, a second on SQLite).
    let stamp = answers.stamp(db).await?;
    let dealers = answers
        .value(format!("provider-dealers|{stamp}"), async {
            let all: Vec<i64> = db::marketing::providers::list_all(db)
                .await?
                .iter()
                .map(|p| p.id)
                .collect();
            Ok(db::insight::statistics::dealers_of_providers(db, &all).await?)
        })
        .await?;
    Ok(providers
        .into_iter()
        .map(|provider| {
            let mut customers = Sketch::default();
            for row in rows.iter().filter(|r| r.scope_id == provider.id) {
                customers.merge(&row.customers());
            }
            let dealers = dealers
                .iter()
                .find(|(id, _)| *id == provider.id)
                .map_or(0, |(_, n)| *n);
            let customers = customers.estimate();
            ProviderShare {
                id: provider.id,
                name: provider.name,
                customers,
                dealers,
                share: share(customers.min(dealers), dealers),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::db::insight::statistics::{NewEvent, write_batch};
    use crate::domain::time::berlin_date;
    use crate::services::insight::statistics::totals_of;
    use crate::test_support::TestDb;
    use chrono::{Duration, Utc};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A day's downloads of random files of 12 packages of three providers, written as the
    /// writer writes them.
    async fn downloads_on(db: &Db, rng: &mut StdRng, day: NaiveDate) {
        let text = day_text(day);
        let events: Vec<NewEvent> = (0..rng.gen_range(0..25))
            .map(|_| {
                let package = rng.gen_range(1..=12);
                NewEvent {
                    at: Utc::now(),
                    day: text.clone(),
                    subject: None,
                    customer_number: Some(rng.gen_range(1..40)),
                    package_id: package,
                    upload_id: package * 10 + rng.gen_range(0..3),
                    provider_id: 1 + package % 3,
                    channel: "file",
                    kind: "download",
                    bytes_sent: 10,
                    outcome: "complete",
                }
            })
            .collect();
        if !events.is_empty() {
            write_batch(db, &events, &totals_of(&events)).await.unwrap();
        }
    }

    /// Providers 1 to 3 and packages 1 to 16 (of provider `1 + id % 3`), valid for random
    /// days of the last 140, a few archived; 13 to 16 are never downloaded.
    async fn packages(db: &Db, rng: &mut StdRng, today: NaiveDate) {
        let insert = |sql: &str, values: Vec<crate::db::sql::Param>| {
            let mut query = crate::db::sql::DynQuery::new(sql);
            for value in values {
                query.param(value);
            }
            async move {
                let _: Vec<(i64,)> = query.fetch_all(db).await.unwrap();
            }
        };
        let now = Utc::now();
        for provider in 1..=3_i64 {
            insert(
                "insert into providers (id, name, created_at, updated_at) \
                 values ($1, $2, $3, $3) returning id",
                vec![
                    provider.into(),
                    format!("Anbieter {provider}").into(),
                    now.into(),
                ],
            )
            .await;
        }
        for id in 1..=16_i64 {
            let start = today - Duration::days(rng.gen_range(0..140));
            let end = start + Duration::days(rng.gen_range(0..60));
            insert(
                "insert into downloads (id, provider_id, name, start_at, end_at, archived, \
                 created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $7) returning id",
                vec![
                    id.into(),
                    (1 + id % 3).into(),
                    format!("Paket {id}").into(),
                    berlin_start_of_day(start).into(),
                    berlin_end_of_day(end).into(),
                    rng.gen_bool(0.2).into(),
                    now.into(),
                ],
            )
            .await;
        }
    }

    /// The ranked lists against the plain queries, on random ranges that reach into the days
    /// the ranking does not hold, for everybody and for providers; again after settled days
    /// changed.
    #[tokio::test]
    async fn the_ranking_ranks_as_the_plain_query_on_random_ranges() {
        let t = TestDb::new().await;
        let mut rng = StdRng::seed_from_u64(41);
        let today = berlin_date(Utc::now());
        packages(&t.db, &mut rng, today).await;
        for back in (0..130).rev() {
            downloads_on(&t.db, &mut rng, today - Duration::days(back)).await;
        }
        let answers = Answers::default();
        let rankings = Rankings::default();
        let (mut compared_untouched, mut compared_tops) = (0, 0);
        for round in 0..2 {
            for _ in 0..40 {
                let from = today - Duration::days(rng.gen_range(0..140));
                let to = (from + Duration::days(rng.gen_range(0..120))).min(today);
                let range = DayRange { from, to };
                let reach = match rng.gen_range(0..3) {
                    0 => Reach::All,
                    1 => Reach::Providers(vec![1]),
                    _ => Reach::Providers(vec![2, 3]),
                };
                let parts = range.counting_parts();
                let kept = kept_key(&t.db, &answers, "summary", &reach, range)
                    .await
                    .unwrap();
                let ranked = ranked(&t.db, &answers, &rankings, &kept, &reach, range)
                    .await
                    .unwrap();
                let plain_packages = db::insight::statistics::top_packages(
                    &t.db,
                    reach.providers(),
                    &parts,
                    TOP as i64,
                )
                .await
                .unwrap();
                let plain_files = db::insight::statistics::top_files(
                    &t.db,
                    reach.providers(),
                    None,
                    &parts,
                    TOP as i64,
                )
                .await
                .unwrap();
                let plain_untouched = db::insight::statistics::untouched_packages(
                    &t.db,
                    reach.providers(),
                    berlin_start_of_day(from),
                    berlin_end_of_day(to),
                    (&day_text(from), &day_text(to)),
                    UNTOUCHED as i64,
                )
                .await
                .unwrap();
                let context = format!("round {round}, {range:?}, {reach}");
                assert_eq!(
                    ranked
                        .top_packages
                        .iter()
                        .map(|p| (p.id, p.name.clone(), p.downloads))
                        .collect::<Vec<_>>(),
                    plain_packages
                        .iter()
                        .map(|p| (
                            p.package_id,
                            p.name.clone().unwrap_or(DELETED.into()),
                            p.downloads
                        ))
                        .collect::<Vec<_>>(),
                    "{context}"
                );
                assert_eq!(
                    ranked
                        .top_files
                        .iter()
                        .map(|f| (f.package_id, f.id, f.downloads))
                        .collect::<Vec<_>>(),
                    plain_files
                        .iter()
                        .map(|f| (f.package_id, f.upload_id, f.downloads))
                        .collect::<Vec<_>>(),
                    "{context}"
                );
                assert_eq!(
                    ranked
                        .untouched
                        .iter()
                        .map(|p| (p.id, p.name.clone()))
                        .collect::<Vec<_>>(),
                    plain_untouched
                        .iter()
                        .map(|p| (p.id, p.name.clone()))
                        .collect::<Vec<_>>(),
                    "{context}"
                );
                compared_untouched += plain_untouched.len();
                compared_tops += plain_files.len();
            }
            // Late downloads of settled days: the ranking made before must not answer.
            for back in [60, 61, 90] {
                downloads_on(&t.db, &mut rng, today - Duration::days(back)).await;
            }
        }
        // Equal answers were not all empty ones.
        assert!(compared_untouched > 20, "{compared_untouched}");
        assert!(compared_tops > 200, "{compared_tops}");
    }
}
