//! The audit log (`audit_log`): entries are inserted in the transaction of the change they
//! describe ([`record!`] inside a `db_run!` body, [`record_in`] on a [`Tx`]), read a page at a
//! time for the Protokoll, and deleted only by the sweep when older than `AP_AUDIT_DAYS`.
//! Nothing updates an entry; a trigger refuses it.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::sql::{DynQuery, Param};
use crate::db::tx::Tx;
use crate::db::{Db, now};
use crate::db_run;
use crate::domain::audit::{Entry, Filter, Named};
use crate::domain::paging::Paging;

pub(crate) const INSERT: &str = "insert into audit_log (at, actor, action, entity, entity_id, changes, entity_name) \
     values ($1, $2, $3, $4, $5, $6, $7)";

/// Writes `$entry` (`&domain::audit::Entry`) through `$tx`, a transaction of either backend
/// inside a `db_run!` body, so that the entry commits with the change or not at all.
macro_rules! record {
    ($tx:expr, $entry:expr) => {{
        let entry: &$crate::domain::audit::Entry = $entry;
        sqlx::query($crate::db::insight::audit::INSERT)
            .bind($crate::db::now())
            .bind(entry.actor.name())
            .bind(entry.action.as_str())
            .bind(entry.entity.as_str())
            .bind(entry.entity_id)
            .bind(entry.changes.to_json())
            .bind(entry.name())
            .execute(&mut *$tx)
            .await
            .map(|_| ())
    }};
}
pub(crate) use record;

/// Writes `entry` in the open bulk transaction `tx`.
pub(crate) async fn record_in(tx: &mut Tx, entry: &Entry) -> Result<(), sqlx::Error> {
    tx.execute(
        INSERT,
        &[
            now().into(),
            entry.actor.name().into(),
            entry.action.as_str().into(),
            entry.entity.as_str().into(),
            entry.entity_id.into(),
            entry.changes.to_json().into(),
            entry.name().into(),
        ],
    )
    .await
    .map(|_| ())
}

/// Runs one statement and, when it changed a row, writes `entry` with it in one transaction.
/// Whether it changed any (when not, nothing is written).
pub(crate) async fn execute_audited(
    db: &Db,
    sql: &str,
    values: &[Param],
    entry: &Entry,
) -> Result<bool, sqlx::Error> {
    let mut tx = Tx::begin(db).await?;
    let changed = tx.execute(sql, values).await?;
    if changed > 0 {
        record_in(&mut tx, entry).await?;
        tx.commit().await?;
    }
    Ok(changed > 0)
}

/// Writes an entry that changes no data of its own: a request for a contact's data.
pub async fn record_alone(db: &Db, entry: &Entry) -> Result<(), sqlx::Error> {
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        record!(tx, entry)?;
        tx.commit().await
    })
}

/// One entry as the Protokoll shows it.
#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct AuditRow {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    pub action: String,
    pub entity: String,
    pub entity_id: Option<i64>,
    /// The JSON object of changed fields, as stored.
    pub changes: String,
    /// The erasures that rewrote it (`domain::erasure::ErasureMark`s as JSON), if any.
    pub erasures: Option<String>,
    /// The record's name when the entry was written (migration 0025); none for older ones.
    #[sqlx(default)]
    pub entity_name: Option<String>,
}

/// `where …` for a filter, its parameters added to `query`.
fn push_filter(query: &mut DynQuery, filter: &Filter) {
    let mut and = " where ";
    let mut clause = |query: &mut DynQuery, sql: &str| {
        query.push(and).push(sql);
        and = " and ";
    };
    if let Some(entity) = filter.entity {
        let p = query.param(entity.as_str());
        clause(query, &format!("entity = {p}"));
    }
    if let Some(id) = filter.entity_id {
        let p = query.param(id);
        clause(query, &format!("entity_id = {p}"));
    }
    if let Some(actor) = &filter.actor {
        let p = query.param(actor.as_str());
        clause(query, &format!("actor = {p}"));
    }
    if let Some(from) = filter.from {
        let p = query.param(from);
        clause(query, &format!("at >= {p}"));
    }
    if let Some(to) = filter.to {
        let p = query.param(to);
        clause(query, &format!("at < {p}"));
    }
}

/// The newest entries first (oldest first with `paging.ascending`), and how many match.
pub async fn page(
    db: &Db,
    filter: &Filter,
    paging: Paging,
) -> Result<(Vec<AuditRow>, i64), sqlx::Error> {
    let mut rows = DynQuery::list(
        "select id, at, actor, action, entity, entity_id, changes, erasures, entity_name \
         from audit_log",
    );
    push_filter(&mut rows, filter);
    let direction = if paging.ascending { "asc" } else { "desc" };
    let limit = rows.param(paging.limit);
    let offset = rows.param(paging.offset);
    rows.push(&format!(
        " order by at {direction}, id {direction} limit {limit} offset {offset}"
    ));
    let mut count = DynQuery::list("select count(*) from audit_log");
    push_filter(&mut count, filter);
    let rows = rows.fetch_all(db).await?;
    let count = count.fetch_count(db).await?;
    Ok((rows, count))
}

/// The present names of the records `ids` of one kind, as `(id, name)`: one query.
pub async fn names_of(
    db: &Db,
    kind: Named,
    ids: &[i64],
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let (select, id) = match kind {
        Named::Provider => ("select id, name from providers", "id"),
        Named::List => ("select id, name from lists", "id"),
        Named::Package => ("select id, name from downloads", "id"),
        Named::Upload => ("select id, name from uploads", "id"),
        Named::Tag => ("select id, name from tags", "id"),
        Named::Contact => (
            "select id, trim(firstname || ' ' || lastname) as name from contacts",
            "id",
        ),
        Named::CustomerGroup => (
            "select customer_number as id, company_name as name from companies",
            "customer_number",
        ),
        Named::User => ("select id, login as name from users", "id"),
    };
    let mut query = DynQuery::list(select);
    let list = query.id_list(ids);
    query.push(&format!(" where {id} in {list}"));
    query.fetch_all::<(i64, String)>(db).await
}

/// The youngest entries a sweep may delete are this old (`AP_AUDIT_DAYS` is at least 1).
pub const SWEEP_MIN_AGE: chrono::TimeDelta = chrono::TimeDelta::days(1);

/// Deletes the entries older than `before` (the retention sweep); how many went. This is the
/// only way an entry goes: the sweep is recorded in `audit_sweeps` in the same transaction, and
/// the log's trigger lets a delete through only for entries older than a recorded sweep's
/// `before` (migration 0024). A `before` less than [`SWEEP_MIN_AGE`] ago is refused.
pub async fn delete_before(db: &Db, before: DateTime<Utc>) -> Result<u64, sqlx::Error> {
    let at = now();
    if before > at - SWEEP_MIN_AGE {
        return Err(sqlx::Error::Protocol(format!(
            "an audit sweep keeps at least a day, not up to {before}"
        )));
    }
    let mut tx = Tx::begin(db).await?;
    tx.execute(
        "insert into audit_sweeps (at, before) values ($1, $2)",
        &[at.into(), before.into()],
    )
    .await?;
    let deleted = tx
        .execute("delete from audit_log where at < $1", &[before.into()])
        .await?;
    tx.commit().await?;
    Ok(deleted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::audit::{Action, Actor, Changes, Entity};
    use crate::test_support::TestDb;

    fn entry(entity: Entity, id: i64) -> Entry {
        Entry::new(&Actor::Cli, Action::Update, entity, Some(id))
            .with_changes(Changes::none().field("name", "a", "b"))
    }

    #[tokio::test]
    async fn entries_are_paged_newest_first_and_filtered() {
        let t = TestDb::new().await;
        for id in 1..=3 {
            record_alone(&t.db, &entry(Entity::Package, id))
                .await
                .unwrap();
        }
        record_alone(&t.db, &entry(Entity::Provider, 1))
            .await
            .unwrap();
        let paging = Paging::parse(Some(2), None, None, 1000).unwrap();
        let (rows, count) = page(&t.db, &Filter::default(), paging).await.unwrap();
        assert_eq!(count, 4);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].entity, "provider");
        assert_eq!(rows[1].entity_id, Some(3));
        assert_eq!(rows[0].changes, r#"{"name":{"after":"b","before":"a"}}"#);
        let filter = Filter {
            entity: Some(Entity::Package),
            entity_id: Some(2),
            ..Filter::default()
        };
        let (rows, count) = page(&t.db, &filter, paging).await.unwrap();
        assert_eq!((rows.len(), count), (1, 1));
        let filter = Filter {
            actor: Some("System".into()),
            ..Filter::default()
        };
        assert_eq!(page(&t.db, &filter, paging).await.unwrap().1, 0);
    }

    #[tokio::test]
    async fn entries_cannot_be_changed_and_old_ones_are_swept() {
        let t = TestDb::new().await;
        record_alone(&t.db, &entry(Entity::Contact, 1))
            .await
            .unwrap();
        let changed = db_run!(&t.db, pool => {
            sqlx::query("update audit_log set actor = 'jemand'").execute(pool).await.map(drop)
        });
        assert!(changed.is_err(), "an entry was changed");
        assert_eq!(
            delete_before(&t.db, now() - chrono::Duration::days(1))
                .await
                .unwrap(),
            0
        );
        // An entry of last year goes; today's stays, and no sweep may take what is younger
        // than a day.
        let old = now() - chrono::Duration::days(365);
        db_run!(&t.db, pool => {
            sqlx::query(INSERT)
                .bind(old)
                .bind("CLI")
                .bind("update")
                .bind("contact")
                .bind(Some(2_i64))
                .bind("{}")
                .bind(None::<String>)
                .execute(pool)
                .await
                .map(drop)
        })
        .unwrap();
        assert_eq!(
            delete_before(&t.db, now() - chrono::Duration::days(1))
                .await
                .unwrap(),
            1
        );
        assert!(
            delete_before(&t.db, now() + chrono::Duration::seconds(1))
                .await
                .is_err()
        );
    }
}
