//! The contacts list in a kept order: every contact's id sorted by one column, read once per
//! version of the contacts' texts (`texts`), so that a deep page of every contact is a slice
//! (issue 41: place 150,000 by last name took 115 ms on `seed-large` from the database, which
//! sorts all 200,000 contacts for it). Only columns that version follows are kept (chosen by
//! `search::ContactSort::kept_order_key`): it moves
//! with every email, name, customer number and company name, and with every contact added or
//! removed (a contact's creation time never changes).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::db::Db;
use crate::db_run;

/// After a read that failed, the next one waits this long.
const AFTER_ERROR: Duration = Duration::from_secs(30);

/// The orders read at one version of the texts (held by those texts), by sort key.
#[derive(Debug, Default)]
pub(crate) struct KeptOrders {
    states: Mutex<HashMap<&'static str, OrderState>>,
    /// Told when a read ends, for those who wait for it ([`kept_order_waiting`]).
    read_ended: tokio::sync::Notify,
}

#[derive(Debug)]
enum OrderState {
    Reading,
    Read(Arc<Vec<i64>>),
    /// Not read (an error, or the data moved past the texts); no read before this.
    NotBefore(Instant),
}

/// Every contact's id in the ascending order of `key` (a column of the list's statement;
/// ties by id) at the texts' `version`, if kept; starts reading it in the background when not
/// (the page then comes from the database).
pub(crate) fn kept_order(
    orders: &Arc<KeptOrders>,
    version: i64,
    db: &Db,
    key: &'static str,
) -> Option<Arc<Vec<i64>>> {
    let mut kept = orders.states.lock().unwrap_or_else(|e| e.into_inner());
    match kept.get(key) {
        Some(OrderState::Read(ids)) => return Some(Arc::clone(ids)),
        Some(OrderState::Reading) => return None,
        Some(OrderState::NotBefore(until)) if Instant::now() < *until => return None,
        _ => {}
    }
    kept.insert(key, OrderState::Reading);
    let (orders, db) = (Arc::clone(orders), db.clone());
    tokio::spawn(async move {
        let started = Instant::now();
        let state = match read(&db, key, version).await {
            Ok(Some(ids)) => {
                tracing::info!(
                    key,
                    contacts = ids.len(),
                    ms = started.elapsed().as_millis() as u64,
                    "contact order read"
                );
                OrderState::Read(Arc::new(ids))
            }
            // The data moved on: newer texts will be read, with their own orders.
            Ok(None) => OrderState::NotBefore(Instant::now() + AFTER_ERROR),
            Err(error) => {
                tracing::warn!(%error, key, "contact order not read");
                OrderState::NotBefore(Instant::now() + AFTER_ERROR)
            }
        };
        let mut kept = orders.states.lock().unwrap_or_else(|e| e.into_inner());
        kept.insert(key, state);
        drop(kept);
        orders.read_ended.notify_waiters();
    });
    None
}

/// [`kept_order`], but when its read is under way (started now or before) it waits for it, at
/// most `within` (see `texts::kept_waiting`).
pub(crate) async fn kept_order_waiting(
    orders: &Arc<KeptOrders>,
    version: i64,
    db: &Db,
    key: &'static str,
    within: Duration,
) -> Option<Arc<Vec<i64>>> {
    let ended = orders.read_ended.notified();
    tokio::pin!(ended);
    // Enabled before the state is looked at: a read that ends after the look tells this waiter.
    ended.as_mut().enable();
    if let Some(ids) = kept_order(orders, version, db, key) {
        return Some(ids);
    }
    match orders
        .states
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(key)
    {
        // Ended since it was looked at.
        Some(OrderState::Read(ids)) => return Some(Arc::clone(ids)),
        Some(OrderState::Reading) => {}
        _ => return None,
    }
    let deadline = tokio::time::Instant::now() + within;
    loop {
        // Another key's read may end first: look again until this one's has.
        if tokio::time::timeout_at(deadline, ended.as_mut())
            .await
            .is_err()
        {
            return None;
        }
        ended.set(orders.read_ended.notified());
        ended.as_mut().enable();
        let kept = orders.states.lock().unwrap_or_else(|e| e.into_inner());
        match kept.get(key) {
            Some(OrderState::Read(ids)) => return Some(Arc::clone(ids)),
            Some(OrderState::Reading) => {}
            _ => return None,
        }
    }
}

/// The ids in the order of `key` (a column of the list's statement), read in one snapshot
/// with the texts' version, or `None` when that version is no longer the database's.
async fn read(db: &Db, key: &str, version: i64) -> Result<Option<Vec<i64>>, sqlx::Error> {
    let ids = format!(
        "select c.id from contacts c join companies co on co.customer_number = c.customer_number \
         order by {key} asc, c.id asc"
    );
    // As the texts' read: one snapshot, and no waiting for a lock.
    let setup: &[&str] = match db.backend() {
        crate::db::Backend::Sqlite => &[],
        crate::db::Backend::Postgres => &[
            "set transaction isolation level repeatable read, read only",
            "set local lock_timeout = '1s'",
        ],
    };
    db_run!(db, pool => async {
        let mut tx = pool.begin().await?;
        for sql in setup {
            sqlx::query(sql).execute(&mut *tx).await?;
        }
        let now: i64 =
            sqlx::query_scalar("select contact_text_version from data_version where id = 1")
                .fetch_one(&mut *tx)
                .await?;
        if now != version {
            return Ok(None);
        }
        let ids: Vec<i64> = sqlx::query_scalar(&ids).fetch_all(&mut *tx).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(Some(ids))
    }
    .await)
}

/// Reads the order now and keeps it (the tests' way to be sure a page uses it).
#[cfg(test)]
pub(crate) async fn read_now(orders: &KeptOrders, version: i64, db: &Db, key: &'static str) {
    let ids = read(db, key, version).await.unwrap().unwrap();
    let mut kept = orders.states.lock().unwrap();
    kept.insert(key, OrderState::Read(Arc::new(ids)));
}
