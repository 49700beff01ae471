//! Download events for the large data set (issue 24): `seed-large` adds 10 million downloads
//! over the 365 days up to today, spread over the packages valid on each day and the
//! generated companies. Only the last `AP_STATS_PERSONAL_DAYS` days keep their events (as the
//! writer would have expired the older ones); every day gets its roll-ups, written the way the
//! writer writes them (`services::insight::statistics::totals_of`), so the reports read what a year
//! of real traffic would leave.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use chrono::{Duration, Utc};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::large::FIRST_CUSTOMER_NUMBER;
use crate::db::insight::statistics::NewEvent;
use crate::db::tx::Tx;
use crate::db::{self, Db};
use crate::domain::time::{berlin_date, berlin_end_of_day, berlin_start_of_day};

/// What was written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventsSummary {
    /// Downloads and resumptions the roll-ups hold.
    pub events: u64,
    /// Events kept as rows (the personal days).
    pub kept: u64,
    pub daily_rows: u64,
    pub totals_rows: u64,
    pub elapsed_ms: u64,
}

/// Writes about `total` events over the `days` days up to today for the packages in the
/// database and the customer numbers `FIRST_CUSTOMER_NUMBER..+companies`; one transaction per
/// day. A day on which no package is valid gets none.
pub async fn seed_download_events(
    db: &Db,
    total: u64,
    days: i64,
    personal_days: u32,
    companies: usize,
) -> anyhow::Result<EventsSummary> {
    let started = Instant::now();
    let mut rng = StdRng::seed_from_u64(20_261_125);
    let packages: Vec<_> = db::catalog::packages::list_all(db)
        .await?
        .into_iter()
        .filter(|p| !p.archived)
        .collect();
    let ids: Vec<i64> = packages.iter().map(|p| p.id).collect();
    let mut files: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
    for chunk in ids.chunks(1000) {
        for file in db::catalog::packages::files_of(db, chunk).await? {
            files
                .entry(file.download_id)
                .or_default()
                .push((file.upload_id, file.size));
        }
    }
    let today = berlin_date(Utc::now());
    let mut summary = EventsSummary::default();
    for offset in (1 - days)..=0 {
        let date = today + Duration::days(offset);
        let (start, end) = (berlin_start_of_day(date), berlin_end_of_day(date));
        let valid: Vec<_> = packages
            .iter()
            .filter(|p| p.start_at <= end && p.end_at >= start && files.contains_key(&p.id))
            .collect();
        if valid.is_empty() {
            continue;
        }
        // The day's share, the remainder on the last days.
        let wanted = total / days as u64 + u64::from(((-offset) as u64) < total % days as u64);
        let day = date.format("%Y-%m-%d").to_string();
        let mut events = Vec::with_capacity(wanted as usize + 8);
        while (events.len() as u64) < wanted {
            let package = valid[rng.gen_range(0..valid.len())];
            let package_files = &files[&package.id];
            let customer = FIRST_CUSTOMER_NUMBER + rng.gen_range(0..companies.max(1)) as i64;
            let at = start + Duration::seconds(rng.gen_range(6 * 3600..22 * 3600));
            let zip = rng.gen_bool(0.3);
            let chosen: Vec<(i64, i64)> = if zip {
                package_files.clone()
            } else {
                vec![package_files[rng.gen_range(0..package_files.len())]]
            };
            let resumed = !zip && rng.gen_bool(0.05);
            for (upload, size) in chosen {
                events.push(NewEvent {
                    at,
                    day: day.clone(),
                    subject: Some(format!("bench:{customer}")),
                    customer_number: Some(customer),
                    package_id: package.id,
                    upload_id: upload,
                    provider_id: package.provider_id,
                    channel: if zip { "package_zip" } else { "file" },
                    kind: if resumed { "resumption" } else { "download" },
                    bytes_sent: if resumed { size / 2 } else { size },
                    outcome: "complete",
                });
            }
        }
        let keep = -offset < i64::from(personal_days);
        write_day(db, &events, keep, &mut summary).await?;
        if offset % 30 == 0 {
            tracing::info!(day = %day, events = summary.events, "download events seeded");
        }
    }
    summary.elapsed_ms = started.elapsed().as_millis() as u64;
    Ok(summary)
}

async fn write_day(
    db: &Db,
    events: &[NewEvent],
    keep: bool,
    summary: &mut EventsSummary,
) -> anyhow::Result<()> {
    let mut tx = Tx::begin(db).await?;
    summary.kept += db::insight::statistics::add_events(
        &mut tx,
        events,
        db::insight::statistics::Batch::NewDay { keep },
    )
    .await?;
    summary.daily_rows += events
        .iter()
        .map(|e| (e.package_id, e.upload_id))
        .collect::<HashSet<_>>()
        .len() as u64;
    let totals = crate::services::insight::statistics::totals_of(events);
    summary.totals_rows += db::insight::statistics::insert_new_totals(&mut tx, &totals).await?;
    db::insight::statistics::merge_totals(&mut tx, &db::insight::statistics::monthly(&totals))
        .await?;
    db::insight::statistics::count_version(&mut tx, db::insight::statistics::Changed::History)
        .await?;
    summary.events += events.len() as u64;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::large::{LargeDataSize, seed_large};
    use crate::storage::FileStore;
    use crate::test_support::TestDb;

    #[tokio::test]
    async fn a_year_of_events_fills_the_roll_ups_and_keeps_only_the_personal_days() {
        let t = TestDb::new().await;
        let store = FileStore::new(t.data_dir.join("files")).unwrap();
        let size = LargeDataSize::tiny();
        seed_large(&t.db, &store, &size).await.unwrap();
        let summary = seed_download_events(&t.db, 3_000, 60, 7, size.companies)
            .await
            .unwrap();
        // Days on which no package of the tiny set is valid get none; a ZIP may overshoot a
        // day's share by its other files.
        assert!(
            (2_500..=3_000 + 5 * 60).contains(&summary.events),
            "{summary:?}"
        );
        assert!(
            summary.kept > 0 && summary.kept < summary.events,
            "{summary:?}"
        );
        let today = berlin_date(Utc::now());
        let from = (today - Duration::days(59)).format("%Y-%m-%d").to_string();
        let to = today.format("%Y-%m-%d").to_string();
        let rows = db::insight::statistics::totals(&t.db, "all", &[0], &from, &to)
            .await
            .unwrap();
        let counted: i64 = rows.iter().map(|r| r.downloads + r.resumptions).sum();
        assert_eq!(counted as u64, summary.events);
        let mut customers = crate::domain::statistics::Sketch::default();
        for row in &rows {
            customers.merge(&row.customers());
        }
        assert_eq!(
            customers.estimate(),
            size.companies as i64,
            "every company took something"
        );
    }
}
