//! Every table at once, for the archive of an installation (issue 25, `domain::backup`):
//! which tables and columns the database has, their rows read in one consistent snapshot
//! ([`Snapshot`]), and rows written back into an empty database in one transaction
//! ([`Loader`]). Works on whatever schema the database has, so an archive of an older schema
//! loads into a database migrated to that schema.

use std::collections::BTreeMap;
use std::future::Future;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use chrono::{DateTime, Utc};
use futures_util::TryStreamExt;
use serde_json::Value;
use sqlx::Row;

use crate::db::sql::Param;
use crate::db::tx::{Tx, tx_run};
use crate::db::{Db, POSTGRES_MIGRATOR, SQLITE_MIGRATOR};
use crate::domain::backup;

/// Tables an archive leaves out, and why:
/// - counters and search indexes the database's triggers keep (`data_version`,
///   `statistics_version`, `contact_totals`, SQLite's `contact_search`, `company_search`,
///   `package_name_search`, `package_file_search` and their parts): the import's inserts count
///   and index again;
/// - the state of work in progress on the old installation (`job_leases` of its workers, the
///   mail queue's `mail_pace`, `oidc_logins` under way, `login_attempts` of the throttle) and
///   its `sessions`: after an import everybody signs in again, and a session ended after the
///   backup cannot come back.
const LEFT_OUT: [&str; 8] = [
    "data_version",
    "statistics_version",
    "contact_totals",
    "job_leases",
    "mail_pace",
    "oidc_logins",
    "login_attempts",
    "sessions",
];

/// Whether an archive leaves `table` out (see [`LEFT_OUT`]; also the databases' own tables).
pub fn is_left_out(table: &str) -> bool {
    LEFT_OUT.contains(&table) || LEFT_OUT_PREFIXES.iter().any(|p| table.starts_with(p))
}

/// SQLite's FTS5 search tables with their parts (`contact_search_data`, …), and the
/// databases' own tables.
const LEFT_OUT_PREFIXES: [&str; 6] = [
    "contact_search",
    "company_search",
    "package_name_search",
    "package_file_search",
    "sqlite_",
    "_sqlx",
];

/// Columns that name a stored file: the files an archive carries.
const FILE_KEY_COLUMNS: [(&str, &str); 3] = [
    ("uploads", "storage_key"),
    ("previews", "thumb_key"),
    ("previews", "large_key"),
];

/// How a column's values are read and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    Int64,
    Int32,
    Int16,
    Bool,
    Text,
    /// PostgreSQL's `timestamptz` (SQLite holds times as text).
    Time,
    Bytes,
}

impl ColumnKind {
    /// The kind of a column SQLite declares as `declared` (it keeps every integer in 64 bits).
    fn of_sqlite(declared: &str) -> Option<ColumnKind> {
        Some(match declared.to_ascii_lowercase().as_str() {
            "bigint" | "integer" | "int" | "smallint" => ColumnKind::Int64,
            "boolean" => ColumnKind::Bool,
            "text" => ColumnKind::Text,
            "blob" => ColumnKind::Bytes,
            _ => return None,
        })
    }

    /// The kind of a column PostgreSQL reports as `data_type`.
    fn of_postgres(data_type: &str) -> Option<ColumnKind> {
        Some(match data_type {
            "bigint" => ColumnKind::Int64,
            "integer" => ColumnKind::Int32,
            "smallint" => ColumnKind::Int16,
            "boolean" => ColumnKind::Bool,
            "text" => ColumnKind::Text,
            "timestamp with time zone" => ColumnKind::Time,
            "bytea" => ColumnKind::Bytes,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    pub kind: ColumnKind,
}

/// A table as the database has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub name: String,
    pub columns: Vec<Column>,
    /// Its primary key's columns: rows are read in their order.
    pub key: Vec<String>,
}

impl Table {
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The tables an archive holds, in the order they load in (`domain::backup::load_order`).
pub async fn tables(db: &Db) -> anyhow::Result<Vec<Table>> {
    let mut shapes = BTreeMap::new();
    let mut refers = BTreeMap::new();
    match db {
        Db::Sqlite(pool, _) => {
            let names: Vec<String> = sqlx::query_scalar(
                "select name from sqlite_master where type = 'table' order by name",
            )
            .fetch_all(pool)
            .await?;
            for name in names.into_iter().filter(|n| !is_left_out(n)) {
                let rows: Vec<(String, String, i64)> =
                    sqlx::query_as("select name, type, pk from pragma_table_info($1) order by cid")
                        .bind(&name)
                        .fetch_all(pool)
                        .await?;
                let mut columns = Vec::new();
                let mut key: Vec<(i64, String)> = Vec::new();
                for (column, declared, pk) in rows {
                    let kind = ColumnKind::of_sqlite(&declared).ok_or_else(|| {
                        anyhow::anyhow!("Spalte {name}.{column}: unbekannter Typ „{declared}“")
                    })?;
                    if pk > 0 {
                        key.push((pk, column.clone()));
                    }
                    columns.push(Column { name: column, kind });
                }
                key.sort();
                let parents: Vec<String> =
                    sqlx::query_scalar("select \"table\" from pragma_foreign_key_list($1)")
                        .bind(&name)
                        .fetch_all(pool)
                        .await?;
                refers.insert(name.clone(), parents);
                let key = key.into_iter().map(|(_, c)| c).collect();
                shapes.insert(name.clone(), Table { name, columns, key });
            }
        }
        Db::Postgres(pool, _) => {
            let names: Vec<String> = sqlx::query_scalar(
                "select table_name::text from information_schema.tables \
                 where table_schema = current_schema() and table_type = 'BASE TABLE' \
                 order by table_name",
            )
            .fetch_all(pool)
            .await?;
            for name in names.into_iter().filter(|n| !is_left_out(n)) {
                let rows: Vec<(String, String)> = sqlx::query_as(
                    "select column_name::text, data_type::text from information_schema.columns \
                     where table_schema = current_schema() and table_name = $1 \
                     order by ordinal_position",
                )
                .bind(&name)
                .fetch_all(pool)
                .await?;
                let mut columns = Vec::new();
                for (column, data_type) in rows {
                    let kind = ColumnKind::of_postgres(&data_type).ok_or_else(|| {
                        anyhow::anyhow!("Spalte {name}.{column}: unbekannter Typ „{data_type}“")
                    })?;
                    columns.push(Column { name: column, kind });
                }
                let key: Vec<String> = sqlx::query_scalar(
                    "select a.attname::text from pg_index i \
                     join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey) \
                     where i.indrelid = $1::regclass and i.indisprimary \
                     order by array_position(i.indkey::int2[], a.attnum)",
                )
                .bind(&name)
                .fetch_all(pool)
                .await?;
                let parents: Vec<String> = sqlx::query_scalar(
                    "select c.relname::text from pg_constraint f \
                     join pg_class c on c.oid = f.confrelid \
                     where f.contype = 'f' and f.conrelid = $1::regclass",
                )
                .bind(&name)
                .fetch_all(pool)
                .await?;
                refers.insert(name.clone(), parents);
                shapes.insert(name.clone(), Table { name, columns, key });
            }
        }
    }
    let names: Vec<String> = shapes.keys().cloned().collect();
    Ok(backup::load_order(&names, &refers)
        .into_iter()
        .filter_map(|name| shapes.remove(&name))
        .collect())
}

/// The newest migration this program knows for the database's backend.
pub fn newest_known_schema(db: &Db) -> i64 {
    let migrator = match db {
        Db::Sqlite(..) => &SQLITE_MIGRATOR,
        Db::Postgres(..) => &POSTGRES_MIGRATOR,
    };
    migrator.iter().map(|m| m.version).max().unwrap_or(0)
}

/// The newest migration applied to the database; `None` for a database without the
/// portal's tables.
pub async fn applied_schema(db: &Db) -> Result<Option<i64>, sqlx::Error> {
    let exists: bool = match db {
        Db::Sqlite(pool, _) => sqlx::query_scalar(
            "select count(*) > 0 from sqlite_master where type = 'table' and name = '_sqlx_migrations'",
        )
        .fetch_one(pool)
        .await?,
        Db::Postgres(pool, _) => sqlx::query_scalar(
            "select count(*) > 0 from information_schema.tables \
             where table_schema = current_schema() and table_name = '_sqlx_migrations'",
        )
        .fetch_one(pool)
        .await?,
    };
    if !exists {
        return Ok(None);
    }
    crate::db_run!(db, pool => {
        sqlx::query_scalar::<_, Option<i64>>(
            "select max(version) from _sqlx_migrations where success",
        )
        .fetch_one(pool)
        .await
    })
}

/// Runs the migrations up to `version` (an archive's schema), not beyond.
pub async fn migrate_to(db: &Db, version: i64) -> anyhow::Result<()> {
    fn up_to(all: &sqlx::migrate::Migrator, version: i64) -> sqlx::migrate::Migrator {
        // The fields are public for `migrate!`; a migrator of the first migrations is one of
        // those with a shorter list.
        sqlx::migrate::Migrator {
            migrations: all
                .iter()
                .filter(|m| m.version <= version)
                .cloned()
                .collect::<Vec<_>>()
                .into(),
            ignore_missing: false,
            locking: true,
            no_tx: false,
        }
    }
    match db {
        Db::Sqlite(pool, _) => up_to(&SQLITE_MIGRATOR, version).run(pool).await?,
        Db::Postgres(pool, _) => up_to(&POSTGRES_MIGRATOR, version).run(pool).await?,
    }
    Ok(())
}

/// The first of `tables` that holds rows, with how many.
pub async fn first_filled(db: &Db, tables: &[Table]) -> Result<Option<(String, i64)>, sqlx::Error> {
    for table in tables {
        let sql = format!("select count(*) from {}", quoted(&table.name));
        let rows: i64 = crate::db_run!(db, pool => {
            sqlx::query_scalar(&sql).fetch_one(pool).await?
        });
        if rows > 0 {
            return Ok(Some((table.name.clone(), rows)));
        }
    }
    Ok(None)
}

/// A read transaction that sees the database as it was at its start, while others write on:
/// SQLite's deferred transaction reads one state of its write-ahead log (and takes no write
/// lock), PostgreSQL's `repeatable read` one snapshot.
pub struct ReadSnapshot {
    tx: Tx,
}

/// How many bytes of JSON lines are handed on at once.
const LINES_CHUNK: usize = 256 * 1024;

impl ReadSnapshot {
    pub async fn begin(db: &Db) -> Result<ReadSnapshot, sqlx::Error> {
        let tx = match db {
            Db::Sqlite(pool, _) => Tx::Sqlite(pool.begin().await?),
            Db::Postgres(pool, _) => Tx::Postgres(
                pool.begin_with("begin isolation level repeatable read read only")
                    .await?,
            ),
        };
        let mut snapshot = ReadSnapshot { tx };
        // SQLite fixes the snapshot at the first read of the database, PostgreSQL at the
        // first statement.
        let first = match db {
            Db::Sqlite(..) => "select count(*) from sqlite_master",
            Db::Postgres(..) => "select 1",
        };
        snapshot.tx.execute(first, &[]).await?;
        Ok(snapshot)
    }

    /// The rows of `table` as JSON lines (`domain::backup`), handed to `each` in chunks of
    /// whole lines; returns how many rows there were.
    pub async fn rows<F, Fut>(&mut self, table: &Table, mut each: F) -> anyhow::Result<u64>
    where
        F: FnMut(Vec<u8>) -> Fut,
        Fut: Future<Output = anyhow::Result<()>>,
    {
        let names: Vec<String> = table.columns.iter().map(|c| quoted(&c.name)).collect();
        let mut sql = format!("select {} from {}", names.join(", "), quoted(&table.name));
        // In the order of the primary key (of all columns without one), text by its bytes
        // as SQLite compares it: an archive reads the same from either database.
        let order: Vec<&Column> = if table.key.is_empty() {
            table.columns.iter().collect()
        } else {
            table.key.iter().filter_map(|k| table.column(k)).collect()
        };
        let postgres = matches!(self.tx, Tx::Postgres(_));
        let order: Vec<String> = order
            .iter()
            .map(|c| match (c.kind, postgres) {
                (ColumnKind::Text, true) => format!("{} collate \"C\"", quoted(&c.name)),
                _ => quoted(&c.name),
            })
            .collect();
        if !order.is_empty() {
            sql.push_str(&format!(" order by {}", order.join(", ")));
        }
        let kinds: Vec<ColumnKind> = table.columns.iter().map(|c| c.kind).collect();
        let mut buffer = Vec::with_capacity(LINES_CHUNK + 4096);
        let mut count = 0u64;
        tx_run!(&mut self.tx, tx => {
            let mut rows = sqlx::query(&sql).fetch(&mut **tx);
            while let Some(row) = rows.try_next().await? {
                encode_row(&row, &kinds, &mut buffer)?;
                count += 1;
                if buffer.len() >= LINES_CHUNK {
                    each(std::mem::take(&mut buffer)).await?;
                }
            }
        });
        if !buffer.is_empty() {
            each(buffer).await?;
        }
        Ok(count)
    }

    /// The keys of every stored file the snapshot's rows name, each once, in order.
    pub async fn file_keys(&mut self, tables: &[Table]) -> Result<Vec<String>, sqlx::Error> {
        let selects: Vec<String> = FILE_KEY_COLUMNS
            .iter()
            .filter(|(table, column)| {
                tables
                    .iter()
                    .any(|t| t.name == *table && t.column(column).is_some())
            })
            .map(|(table, column)| {
                format!("select {column} as k from {table} where {column} is not null")
            })
            .collect();
        if selects.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "select distinct k from ({}) keys order by k",
            selects.join(" union all ")
        );
        self.tx
            .fetch_all::<(String,)>(&sql, &[])
            .await
            .map(|rows| rows.into_iter().map(|(k,)| k).collect())
    }
}

/// Appends `row` as one JSON array and a line break.
fn encode_row<R>(row: &R, kinds: &[ColumnKind], out: &mut Vec<u8>) -> anyhow::Result<()>
where
    R: Row,
    usize: sqlx::ColumnIndex<R>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i32>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i16>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<bool>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<Vec<u8>>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<DateTime<Utc>>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    out.push(b'[');
    for (i, kind) in kinds.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        match kind {
            ColumnKind::Int64 => {
                serde_json::to_writer(&mut *out, &row.try_get::<Option<i64>, _>(i)?)?
            }
            ColumnKind::Int32 => {
                serde_json::to_writer(&mut *out, &row.try_get::<Option<i32>, _>(i)?)?
            }
            ColumnKind::Int16 => {
                serde_json::to_writer(&mut *out, &row.try_get::<Option<i16>, _>(i)?)?
            }
            ColumnKind::Bool => {
                serde_json::to_writer(&mut *out, &row.try_get::<Option<bool>, _>(i)?)?
            }
            ColumnKind::Text => {
                serde_json::to_writer(&mut *out, &row.try_get::<Option<String>, _>(i)?)?
            }
            ColumnKind::Time => {
                let time = row.try_get::<Option<DateTime<Utc>>, _>(i)?;
                serde_json::to_writer(&mut *out, &time.as_ref().map(backup::format_time))?
            }
            ColumnKind::Bytes => {
                let bytes = row.try_get::<Option<Vec<u8>>, _>(i)?;
                serde_json::to_writer(&mut *out, &bytes.map(|b| BASE64.encode(b)))?
            }
        }
    }
    out.extend_from_slice(b"]\n");
    Ok(())
}

/// The value of an archive's cell for a column of `kind` (`domain::backup`'s encoding; a
/// boolean and a number stand for each other, as SQLite holds booleans as numbers); the cell
/// back when it does not fit. A text is moved, not copied: an import's rows may be 4 MiB each
/// (`services::operations::backup::restore`).
fn param_of(value: Value, kind: ColumnKind) -> Result<Param, Value> {
    match (kind, value) {
        (ColumnKind::Text, Value::String(s)) => Ok(Param::Text(s)),
        (kind, value) => copied_param_of(&value, kind).ok_or(value),
    }
}

/// [`param_of`] for a cell that is not a text of a text column.
fn copied_param_of(value: &Value, kind: ColumnKind) -> Option<Param> {
    Some(match (kind, value) {
        (ColumnKind::Bool, Value::Null) => Param::OptBool(None),
        (ColumnKind::Bool, Value::Bool(b)) => Param::Bool(*b),
        (ColumnKind::Bool, Value::Number(n)) => Param::Bool(n.as_i64()? != 0),
        (ColumnKind::Int64 | ColumnKind::Int32 | ColumnKind::Int16, Value::Null) => {
            Param::OptInt(None)
        }
        (ColumnKind::Int64, Value::Number(n)) => Param::Int(n.as_i64()?),
        (ColumnKind::Int32, Value::Number(n)) => Param::Int32(i32::try_from(n.as_i64()?).ok()?),
        (ColumnKind::Int16, Value::Number(n)) => Param::Int16(i16::try_from(n.as_i64()?).ok()?),
        (ColumnKind::Int64 | ColumnKind::Int32 | ColumnKind::Int16, Value::Bool(b)) => {
            Param::Int(i64::from(*b))
        }
        (ColumnKind::Text, Value::Null) => Param::OptText(None),
        (ColumnKind::Time, Value::Null) => Param::OptTime(None),
        (ColumnKind::Time, Value::String(s)) => Param::Time(backup::parse_time(s)?),
        (ColumnKind::Bytes, Value::Null) => Param::OptBytes(None),
        (ColumnKind::Bytes, Value::String(s)) => Param::Bytes(BASE64.decode(s).ok()?),
        _ => return None,
    })
}

/// Rows written into an empty database in one transaction: all of them, or none.
pub struct Loader {
    tx: Tx,
}

impl Loader {
    pub async fn begin(db: &Db) -> Result<Loader, sqlx::Error> {
        Ok(Loader {
            tx: Tx::begin(db).await?,
        })
    }

    /// Inserts rows of `table` whose values are in the order of `columns` (an archive's
    /// columns, each of which the table must have). A row that does not fit says where, in
    /// German.
    pub async fn insert(
        &mut self,
        table: &Table,
        columns: &[String],
        rows: Vec<Vec<Value>>,
        first_row: u64,
    ) -> anyhow::Result<()> {
        let kinds: Vec<ColumnKind> = columns
            .iter()
            .map(|name| {
                table.column(name).map(|c| c.kind).ok_or_else(|| {
                    anyhow::anyhow!(
                        "Das Archiv nennt die Spalte {}.{name}, die die Datenbank nicht hat.",
                        table.name
                    )
                })
            })
            .collect::<anyhow::Result<_>>()?;
        let mut params = Vec::with_capacity(rows.len());
        for (n, row) in rows.into_iter().enumerate() {
            let line = first_row + n as u64 + 1;
            anyhow::ensure!(
                row.len() == kinds.len(),
                "Tabelle {}, Zeile {line}: {} Werte statt {}.",
                table.name,
                row.len(),
                kinds.len()
            );
            let values = row
                .into_iter()
                .zip(&kinds)
                .zip(columns)
                .map(|((value, kind), column)| {
                    param_of(value, *kind).map_err(|value| {
                        anyhow::anyhow!(
                            "Tabelle {}, Zeile {line}: der Wert {value} passt nicht in die Spalte {column}.",
                            table.name
                        )
                    })
                })
                .collect::<anyhow::Result<Vec<Param>>>()?;
            params.push(values);
        }
        let names: Vec<String> = columns.iter().map(|c| quoted(c)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        self.tx
            .insert_rows(&quoted(&table.name), &names, params, None)
            .await?;
        Ok(())
    }

    /// Sets PostgreSQL's id sequences past the ids loaded (SQLite takes the next id from the
    /// rows), counts the statistics and history versions up, then commits.
    pub async fn commit(mut self) -> Result<(), sqlx::Error> {
        if let Tx::Postgres(tx) = &mut self.tx {
            let sequences: Vec<(String, String)> = sqlx::query_as(
                "select table_name::text, column_name::text from information_schema.columns \
                 where table_schema = current_schema() \
                 and (is_identity = 'YES' or column_default like 'nextval(%')",
            )
            .fetch_all(&mut **tx)
            .await?;
            for (table, column) in sequences {
                let sql = format!(
                    "select setval(pg_get_serial_sequence($1, $2), coalesce(max({c}), 0) + 1, false) from {t}",
                    c = quoted(&column),
                    t = quoted(&table)
                );
                sqlx::query(&sql)
                    .bind(&table)
                    .bind(&column)
                    .execute(&mut **tx)
                    .await?;
            }
        }
        // The roll-ups came in by insert: reports and rankings made before are not served.
        crate::db::insight::statistics::count_version(
            &mut self.tx,
            crate::db::insight::statistics::Changed::History,
        )
        .await?;
        self.tx.commit().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_become_values_of_their_column_or_are_refused() {
        let time = "2026-11-25T15:37:36.123456+00:00";
        assert!(matches!(
            param_of(Value::from(time), ColumnKind::Time),
            Ok(Param::Time(_))
        ));
        assert!(matches!(
            param_of(Value::from(time), ColumnKind::Text),
            Ok(Param::Text(t)) if t == time
        ));
        assert!(matches!(
            param_of(Value::from(1), ColumnKind::Bool),
            Ok(Param::Bool(true))
        ));
        assert!(matches!(
            param_of(Value::from(false), ColumnKind::Int64),
            Ok(Param::Int(0))
        ));
        assert!(matches!(
            param_of(Value::from("AAE="), ColumnKind::Bytes),
            Ok(Param::Bytes(b)) if b == [0, 1]
        ));
        assert!(matches!(
            param_of(Value::Null, ColumnKind::Bool),
            Ok(Param::OptBool(None))
        ));
        assert!(param_of(Value::from(70_000), ColumnKind::Int16).is_err());
        assert!(param_of(Value::from("x"), ColumnKind::Int64).is_err());
        assert!(param_of(Value::from("gestern"), ColumnKind::Time).is_err());
        assert!(param_of(Value::from("*"), ColumnKind::Bytes).is_err());
        assert!(param_of(Value::from(1.5), ColumnKind::Int64).is_err());
    }
}
