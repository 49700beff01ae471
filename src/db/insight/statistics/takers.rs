//! Who took each package (`package_takers`, migration 0035, issue 37): the customer numbers
//! that downloaded a file of it, per file, kept for the package's whole validity (the notice
//! before its end goes to them) and `AP_TAKERS_DAYS` after, though the download events that
//! say the same expire sooner.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::NewEvent;
use crate::db::Db;
use crate::db::sql::Param;
use crate::db::tx::{ROWS_PER_STATEMENT, Tx, insert_sql};

const COLUMNS: [&str; 7] = [
    "download_id",
    "customer_number",
    "upload_id",
    "first_at",
    "last_at",
    "created_at",
    "updated_at",
];

/// Records the takers of `events` in the writer's transaction: each (package, customer
/// number, file) once, with the first and the last time it was taken. Events without a
/// customer number (an admin's download) name no taker.
pub(crate) async fn add(tx: &mut Tx, events: &[NewEvent]) -> Result<(), sqlx::Error> {
    type Times = (DateTime<Utc>, DateTime<Utc>);
    let mut taken: BTreeMap<(i64, i64, i64), Times> = BTreeMap::new();
    for event in events {
        let Some(customer) = event.customer_number else {
            continue;
        };
        taken
            .entry((event.package_id, customer, event.upload_id))
            .and_modify(|(first, last)| {
                *first = (*first).min(event.at);
                *last = (*last).max(event.at);
            })
            .or_insert((event.at, event.at));
    }
    let rows: Vec<Vec<Param>> = taken
        .into_iter()
        .map(|((package, customer, upload), (first, last))| {
            vec![
                package.into(),
                customer.into(),
                upload.into(),
                first.into(),
                last.into(),
                first.into(),
                last.into(),
            ]
        })
        .collect();
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "{} on conflict (download_id, customer_number, upload_id) do update \
             set last_at = excluded.last_at, updated_at = excluded.updated_at \
             where excluded.last_at > package_takers.last_at",
            insert_sql("package_takers", &COLUMNS, chunk.len(), None)
        );
        let values: Vec<Param> = chunk.iter().flatten().cloned().collect();
        tx.execute(&sql, &values).await?;
    }
    Ok(())
}

/// The names of the files of package `download_id` that customer number `customer_number`
/// took, in the package's order (files deleted since are left out).
pub async fn files_taken(
    db: &Db,
    download_id: i64,
    customer_number: i64,
) -> Result<Vec<String>, sqlx::Error> {
    crate::db_run!(db, pool => {
        sqlx::query_scalar::<_, String>(
            "select u.name from package_takers t join uploads u on u.id = t.upload_id \
             left join download_uploads du on du.download_id = t.download_id \
             and du.upload_id = t.upload_id \
             where t.download_id = $1 and t.customer_number = $2 \
             order by coalesce(du.position, 2147483647), u.name, u.id",
        )
        .bind(download_id)
        .bind(customer_number)
        .fetch_all(pool)
        .await
    })
}

/// Deletes the takers of packages that ended before `ended_before` or no longer exist; how
/// many rows went.
pub async fn expire(db: &Db, ended_before: DateTime<Utc>) -> Result<u64, sqlx::Error> {
    crate::db_run!(db, pool => {
        Ok(sqlx::query(
            "delete from package_takers where not exists (select 1 from downloads d \
             where d.id = package_takers.download_id and d.end_at >= $1)",
        )
        .bind(ended_before)
        .execute(pool)
        .await?
        .rows_affected())
    })
}
