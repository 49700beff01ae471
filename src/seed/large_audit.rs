//! Audit entries for the large data set (issue 24): `seed-large` adds what two years of an
//! editorial team's work would leave, so that the Protokoll is measured on a log of realistic
//! size: entries spread over the last `days` days, by a dozen admins, the CLI and the
//! portal itself, about the generated packages, providers, lists and contacts.

use std::time::Instant;

use chrono::Duration;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::db::Db;
use crate::db::sql::Param;
use crate::db::tx::Tx;
use crate::domain::audit::{Action, Actor, Changes, Entity};

/// Rows per transaction.
const CHUNK: usize = 10_000;

/// Writes `total` entries over the `days` days up to now, oldest first; how many and how long
/// (ms).
pub async fn seed_audit_entries(db: &Db, total: usize, days: i64) -> anyhow::Result<(u64, u64)> {
    let started = Instant::now();
    let mut rng = StdRng::seed_from_u64(20_261_124);
    let actors: Vec<Actor> = (1..=12)
        .map(|n| Actor::Person(format!("redaktion{n}@example.com")))
        .chain([Actor::Cli, Actor::System])
        .collect();
    // What the team changes most: packages, then contacts, lists, providers, files.
    let kinds = [
        (Entity::Package, Action::Update, 20_000),
        (Entity::Package, Action::Create, 20_000),
        (Entity::Package, Action::Archive, 20_000),
        (Entity::Contact, Action::Update, 200_000),
        (Entity::Contact, Action::Block, 200_000),
        (Entity::List, Action::Update, 2_000),
        (Entity::Provider, Action::Update, 200),
        (Entity::Upload, Action::Create, 100_000),
    ];
    let span = Duration::days(days).num_seconds();
    let now = crate::domain::time::now();
    let mut written = 0u64;
    let mut done = 0;
    while done < total {
        let rows = CHUNK.min(total - done);
        let mut tx = Tx::begin(db).await?;
        let chunk: Vec<Vec<Param>> = (done..done + rows)
            .map(|n| {
                // Oldest first, evenly over the span, so `at` grows with the id as in a real log.
                let at = now - Duration::seconds(span - span * n as i64 / total as i64);
                let (entity, action, ids) = kinds[rng.gen_range(0..kinds.len())];
                let actor = &actors[rng.gen_range(0..actors.len())];
                let changes = Changes::none().field(
                    "name",
                    format!("Stand {}", n % 97),
                    format!("Stand {}", n % 97 + 1),
                );
                vec![
                    at.into(),
                    actor.name().into(),
                    action.as_str().into(),
                    entity.as_str().into(),
                    Some(rng.gen_range(1..=ids)).into(),
                    changes.to_json().into(),
                ]
            })
            .collect();
        let columns = ["at", "actor", "action", "entity", "entity_id", "changes"];
        written += tx.insert_rows("audit_log", &columns, chunk, None).await?.0;
        tx.commit().await?;
        done += rows;
    }
    Ok((written, started.elapsed().as_millis() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::audit::Filter;
    use crate::domain::paging::Paging;
    use crate::test_support::TestDb;
    use chrono::Utc;

    #[tokio::test]
    async fn entries_spread_over_the_days_newest_last() {
        let t = TestDb::new().await;
        let (written, _) = seed_audit_entries(&t.db, 25_000, 730).await.unwrap();
        assert_eq!(written, 25_000);
        let paging = Paging::parse(Some(1), None, None, 1000).unwrap();
        let (newest, count) = crate::db::insight::audit::page(&t.db, &Filter::default(), paging)
            .await
            .unwrap();
        assert_eq!(count, 25_000);
        assert!(Utc::now() - newest[0].at < Duration::days(1));
        let paging = Paging::parse(Some(1), None, Some("ASC"), 1000).unwrap();
        let (oldest, _) = crate::db::insight::audit::page(&t.db, &Filter::default(), paging)
            .await
            .unwrap();
        assert!(Utc::now() - oldest[0].at > Duration::days(729));
    }
}
