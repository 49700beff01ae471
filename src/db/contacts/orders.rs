//! The contacts list in a kept order: every contact's id sorted by one column, read once per
//! version of the contacts' texts (`texts`), so that a deep page of every contact is a slice
//! (issue 41: place 150,000 by last name took 115 ms on `seed-large` from the database, which
//! sorts all 200,000 contacts for it). Only columns that version follows are kept: it moves
//! with every email, name, customer number and company name, and with every contact added or
//! removed (a contact's creation time never changes).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::search::ContactSort;
use super::texts::ContactTexts;
use crate::db::Db;
use crate::db_run;

/// After a read that failed, the next one waits this long.
const AFTER_ERROR: Duration = Duration::from_secs(30);

/// The orders read at one version of the texts (held by those texts).
#[derive(Debug, Default)]
pub(crate) struct KeptOrders(Mutex<HashMap<ContactSort, OrderState>>);

#[derive(Debug)]
enum OrderState {
    Reading,
    Read(Arc<Vec<i64>>),
    /// Not read (an error, or the data moved past the texts); no read before this.
    NotBefore(Instant),
}

/// The sort key of a kept order, or `None` for an order the texts' version does not follow.
fn key_of(sort: ContactSort) -> Option<&'static str> {
    match sort {
        ContactSort::CustomerNumber
        | ContactSort::Email
        | ContactSort::Firstname
        | ContactSort::Lastname
        | ContactSort::CompanyName
        | ContactSort::CreatedAt => Some(sort.column()),
        _ => None,
    }
}

/// Whether `sort`'s order of every contact is kept with the texts.
pub(crate) fn is_kept(sort: ContactSort) -> bool {
    key_of(sort).is_some()
}

/// Every contact's id in `sort`'s ascending order (ties by id) at the texts' version, if kept;
/// starts reading it in the background when not (the page then comes from the database).
pub(crate) fn kept_order(
    texts: &Arc<ContactTexts>,
    db: &Db,
    sort: ContactSort,
) -> Option<Arc<Vec<i64>>> {
    let key = key_of(sort)?;
    let mut orders = texts.orders.0.lock().unwrap_or_else(|e| e.into_inner());
    match orders.get(&sort) {
        Some(OrderState::Read(ids)) => return Some(Arc::clone(ids)),
        Some(OrderState::Reading) => return None,
        Some(OrderState::NotBefore(until)) if Instant::now() < *until => return None,
        _ => {}
    }
    orders.insert(sort, OrderState::Reading);
    let (texts, db) = (Arc::clone(texts), db.clone());
    tokio::spawn(async move {
        let started = Instant::now();
        let state = match read(&db, key, texts.version).await {
            Ok(Some(ids)) => {
                tracing::info!(
                    ?sort,
                    contacts = ids.len(),
                    ms = started.elapsed().as_millis() as u64,
                    "contact order read"
                );
                OrderState::Read(Arc::new(ids))
            }
            // The data moved on: newer texts will be read, with their own orders.
            Ok(None) => OrderState::NotBefore(Instant::now() + AFTER_ERROR),
            Err(error) => {
                tracing::warn!(%error, ?sort, "contact order not read");
                OrderState::NotBefore(Instant::now() + AFTER_ERROR)
            }
        };
        let mut orders = texts.orders.0.lock().unwrap_or_else(|e| e.into_inner());
        orders.insert(sort, state);
    });
    None
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

/// Reads the order now and keeps it with the texts (the tests' way to be sure a page uses it).
#[cfg(test)]
pub(crate) async fn read_now(texts: &Arc<ContactTexts>, db: &Db, sort: ContactSort) {
    let ids = read(db, key_of(sort).unwrap(), texts.version)
        .await
        .unwrap()
        .unwrap();
    let mut orders = texts.orders.0.lock().unwrap();
    orders.insert(sort, OrderState::Read(Arc::new(ids)));
}
