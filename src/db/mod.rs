//! Data access for SQLite and PostgreSQL with one copy of every query, one folder per product
//! area (README "Product areas") beside the shared transaction, query and link-table helpers.
//!
//! `Db` wraps the pool of the configured backend. The `db_run!` macro expands the same
//! query body once per backend, so each query is written once with `$1, $2` placeholders
//! (SQLite accepts them too) and decodes into native types on both sides.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{PgPool, SqlitePool};

pub mod accounts;
pub(crate) mod bulk;
pub mod catalog;
pub mod contacts;
pub mod insight;
pub mod marketing;
pub mod operations;
pub(crate) mod sql;
pub(crate) mod trigrams;
pub(crate) mod tx;

static SQLITE_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// The database of the running portal: the embedded SQLite file or a PostgreSQL server.
#[derive(Clone, Debug)]
pub enum Db {
    /// The pool, and what speeds its searches up (shared by the clones).
    Sqlite(SqlitePool, std::sync::Arc<SearchAids>),
    /// The pool, and what speeds its searches up (shared by the clones).
    Postgres(PgPool, std::sync::Arc<SearchAids>),
}

/// What a database's searches keep in memory (issue 41); it only ever changes their speed.
#[derive(Debug, Default)]
pub struct SearchAids {
    /// How common each trigram of the search tables is (SQLite), of the company names
    /// (PostgreSQL).
    pub(crate) trigrams: trigrams::TrigramCounts,
    /// The contacts' searched texts.
    pub(crate) contact_texts: contacts::texts::KeptTexts,
}

/// Runs the same block against whichever pool `$db` holds; `$pool` names the pool inside.
#[macro_export]
macro_rules! db_run {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            // `begin_write` (`BeginWrite`) is in scope of every body.
            $crate::db::Db::Sqlite($pool, _) => {
                #[allow(unused_imports)]
                use $crate::db::BeginWrite as _;
                $body
            }
            $crate::db::Db::Postgres($pool, _) => {
                #[allow(unused_imports)]
                use $crate::db::BeginWrite as _;
                $body
            }
        }
    };
}

/// Starts a transaction that writes. On SQLite it takes the write lock at once (`BEGIN
/// IMMEDIATE`): a deferred transaction that reads first fails at its first write, without
/// waiting for the busy timeout, when another connection has written in between.
pub trait BeginWrite {
    type Database: sqlx::Database;
    fn begin_write(
        &self,
    ) -> impl Future<Output = Result<sqlx::Transaction<'static, Self::Database>, sqlx::Error>> + Send;
}

impl BeginWrite for SqlitePool {
    type Database = sqlx::Sqlite;
    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error> {
        self.begin_with("BEGIN IMMEDIATE").await
    }
}

impl BeginWrite for PgPool {
    type Database = sqlx::Postgres;
    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, sqlx::Error> {
        self.begin().await
    }
}

/// Which backend a database URL selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Option<Backend> {
        if url.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }
}

/// The pool for a SQLite file. Its connections live in this process and cannot be closed
/// from outside, so the `ping` sqlx would send through each one's worker thread before every
/// statement is left out.
fn sqlite_pool() -> SqlitePoolOptions {
    SqlitePoolOptions::new()
        .max_connections(8)
        .test_before_acquire(false)
}

/// How many connections a pool may hold, holds, and holds unused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolState {
    pub max: u32,
    pub open: u32,
    pub idle: u32,
}

impl Db {
    /// Opens the SQLite file at `path`, creating it (and its folder) when missing.
    pub async fn open_sqlite(path: &Path) -> anyhow::Result<Db> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .foreign_keys(true)
            // Deleted content is overwritten, so that an erased contact (issue 25) is not
            // left in free pages of the file.
            .pragma("secure_delete", "on")
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10));
        let pool = sqlite_pool().connect_with(options).await?;
        Ok(Db::Sqlite(pool, Default::default()))
    }

    /// Connects to the database a URL names (`postgres://…` or `sqlite:…`).
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        match Backend::of_url(url) {
            Some(Backend::Postgres) => {
                let options = PgConnectOptions::from_str(url)?;
                let pool = PgPoolOptions::new()
                    .max_connections(16)
                    // A database that is gone gets a 503 after this long, not the 30 s of
                    // the request time limit.
                    .acquire_timeout(Duration::from_secs(5))
                    // A `ping` only for a connection that rested: one before every statement
                    // was a second round trip each (10 % of a package list's CPU under load),
                    // while a connection in steady use is known to be alive.
                    .test_before_acquire(false)
                    .before_acquire(|connection, meta| {
                        Box::pin(async move {
                            if meta.idle_for > Duration::from_secs(1) {
                                sqlx::Connection::ping(connection).await?;
                            }
                            Ok(true)
                        })
                    })
                    .connect_with(options)
                    .await?;
                Ok(Db::Postgres(pool, Default::default()))
            }
            Some(Backend::Sqlite) => {
                let options = SqliteConnectOptions::from_str(url)?
                    .create_if_missing(true)
                    .foreign_keys(true)
                    .pragma("secure_delete", "on")
                    .busy_timeout(Duration::from_secs(10));
                let pool = sqlite_pool().connect_with(options).await?;
                Ok(Db::Sqlite(pool, Default::default()))
            }
            None => anyhow::bail!("DATABASE_URL muss mit postgres:// oder sqlite: beginnen"),
        }
    }

    /// The same database through a pool of its own of `connections` connections, opened when
    /// first used, sharing the search aids. A background worker's statements then do not
    /// queue behind the requests' for a connection of the shared pool: under a burst of 50
    /// clients the mail queue's five statements per mail each waited as long as a request,
    /// and it sent 34 instead of 100 mails a second (issue 37).
    pub fn with_own_pool(&self, connections: u32) -> Db {
        match self {
            Db::Sqlite(pool, aids) => Db::Sqlite(
                sqlite_pool()
                    .max_connections(connections)
                    .connect_lazy_with((*pool.connect_options()).clone()),
                aids.clone(),
            ),
            Db::Postgres(pool, aids) => Db::Postgres(
                PgPoolOptions::new()
                    .max_connections(connections)
                    .acquire_timeout(Duration::from_secs(5))
                    .connect_lazy_with((*pool.connect_options()).clone()),
                aids.clone(),
            ),
        }
    }

    /// The pool's connections now, for the metrics.
    pub fn pool_state(&self) -> PoolState {
        db_run!(self, pool => PoolState {
            max: pool.options().get_max_connections(),
            open: pool.size(),
            idle: pool.num_idle() as u32,
        })
    }

    /// How many connections the pool holds at most.
    pub fn pool_size(&self) -> u32 {
        db_run!(self, pool => pool.options().get_max_connections())
    }

    /// What this database's searches keep in memory.
    pub(crate) fn search_aids(&self) -> &SearchAids {
        match self {
            Db::Sqlite(_, aids) | Db::Postgres(_, aids) => aids,
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            Db::Sqlite(..) => Backend::Sqlite,
            Db::Postgres(..) => Backend::Postgres,
        }
    }

    /// Brings the schema up to the newest migration.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        match self {
            Db::Sqlite(pool, _) => SQLITE_MIGRATOR.run(pool).await?,
            Db::Postgres(pool, _) => POSTGRES_MIGRATOR.run(pool).await?,
        }
        Ok(())
    }

    /// A cheap round trip that proves the database answers (used by /healthz).
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        db_run!(self, pool => sqlx::query("select 1").execute(pool).await.map(|_| ()))
    }

    pub async fn close(&self) {
        db_run!(self, pool => pool.close().await)
    }
}

pub use crate::domain::time::now;

/// Removes duplicates from `items`, keeping the first occurrence of each (order preserved).
pub(crate) fn dedup_keep_order<T: PartialEq + Clone>(items: &[T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if !out.contains(item) {
            out.push(item.clone());
        }
    }
    out
}

/// True when an error is a unique-constraint violation (mapped to 409 by the API layer).
pub fn is_unique_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(e) if e.is_unique_violation())
}

/// True when the database could not be reached (server gone, connection lost, no connection
/// free in time): the API answers 503 and the pool reconnects by itself once it is back.
pub fn is_unavailable(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => true,
        // PostgreSQL: connection exceptions (08…), shutdown and "cannot connect now" (57P0…).
        sqlx::Error::Database(e) => e
            .code()
            .is_some_and(|code| code.starts_with("08") || code.starts_with("57P0")),
        _ => false,
    }
}

/// True when an error is a foreign-key violation.
pub fn is_foreign_key_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(e) if e.is_foreign_key_violation())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    /// A write transaction that reads first is not refused because another connection wrote
    /// in between: on SQLite `begin_write` holds the write lock from the start, and the other
    /// writer waits for it (a deferred transaction failed here with "database is locked").
    #[tokio::test]
    async fn a_write_transaction_that_reads_first_survives_another_writer() {
        let t = crate::test_support::TestDb::new().await;
        let insert = crate::test_support::company_insert_sql;
        db_run!(&t.db, pool => {
            let mut tx = pool.begin_write().await.unwrap();
            let _: i64 = sqlx::query_scalar("select count(*) from companies")
                .fetch_one(&mut *tx)
                .await
                .unwrap();
            let other = {
                let (pool, sql) = (pool.clone(), insert(901));
                tokio::spawn(async move { sqlx::raw_sql(&sql).execute(&pool).await.map(|_| ()) })
            };
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            sqlx::raw_sql(&insert(900)).execute(&mut *tx).await.unwrap();
            tx.commit().await.unwrap();
            other.await.unwrap().unwrap();
        });
    }

    const SQLITE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite");
    const POSTGRES_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/postgres");

    /// Tables with their column names, and index names, as a migration file declares them.
    /// A table's `alter table … add/drop column` lines are listed under `alter <table>` as
    /// `+column` and `-column`.
    fn schema_outline(sql: &str) -> (BTreeMap<String, Vec<String>>, Vec<String>) {
        let mut tables = BTreeMap::new();
        let mut indexes = Vec::new();
        let mut current: Option<(String, Vec<String>)> = None;
        for line in sql.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("alter table ") {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let change = match words.as_slice() {
                    [_, "add", "column", column, ..] => format!("+{column}"),
                    [_, "drop", "column", column, ..] => {
                        format!("-{}", column.trim_end_matches(';'))
                    }
                    [_, "rename", "to", name, ..] => format!(">{}", name.trim_end_matches(';')),
                    _ => panic!("unexpected alter: {line}"),
                };
                tables
                    .entry(format!("alter {}", words[0]))
                    .or_insert_with(Vec::new)
                    .push(change);
            } else if let Some(rest) = line.strip_prefix("create table ") {
                let name = rest.split_whitespace().next().unwrap().to_string();
                current = Some((name, Vec::new()));
            } else if line.starts_with(");") || line == ") without rowid;" {
                let (name, columns) = current.take().expect("table open");
                tables.insert(name, columns);
            } else if let Some((_, columns)) = current.as_mut() {
                let word = line.split_whitespace().next().unwrap_or("");
                if !word.is_empty() && word != "primary" && !word.starts_with("--") {
                    columns.push(word.to_string());
                }
            } else if line.starts_with("create index ") || line.starts_with("create unique index ")
            {
                let name = line
                    .split_whitespace()
                    .find(|w| w.ends_with("_idx") || w.ends_with("_key"));
                indexes.push(name.unwrap().to_string());
            }
        }
        (tables, indexes)
    }

    #[test]
    fn both_migrations_declare_the_same_schema() {
        let sqlite = std::fs::read_dir(SQLITE_DIR).unwrap();
        for entry in sqlite {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_owned();
            let postgres = std::path::Path::new(POSTGRES_DIR).join(&name);
            let (lite_tables, lite_indexes) =
                schema_outline(&std::fs::read_to_string(&path).unwrap());
            let (pg_tables, mut pg_indexes) =
                schema_outline(&std::fs::read_to_string(&postgres).unwrap());
            assert_eq!(lite_tables, pg_tables, "{name:?}");
            let sqlite_sql = std::fs::read_to_string(&path).unwrap();
            if sqlite_sql.starts_with("-- postgres-only")
                || sqlite_sql.starts_with("-- sqlite-only")
            {
                // Indexes only PostgreSQL can have (pg_trgm), created in a guarded block, or
                // SQLite's FTS5 tables (`create virtual table`) with their triggers.
                assert!(lite_indexes.is_empty(), "{name:?}");
                assert!(pg_indexes.is_empty() || !sqlite_sql.starts_with("-- sqlite-only"));
                continue;
            }
            // Each migration declares something both backends see: tables, or indexes alone.
            assert!(
                !lite_tables.is_empty() || !lite_indexes.is_empty(),
                "{name:?}"
            );
            // PostgreSQL's case-insensitive provider names need an expression index; SQLite
            // declares `collate nocase unique` on the column instead.
            pg_indexes.retain(|i| i != "providers_name_lower_key");
            // pg_trgm's indexes are PostgreSQL's; SQLite answers the same searches from an FTS5
            // table (`create virtual table`, migration 0014).
            pg_indexes.retain(|i| !i.ends_with("_trgm_idx"));
            assert_eq!(lite_indexes, pg_indexes, "{name:?}");
            // The data and statistics versions, the contact totals and the download roll-ups are counters, not
            // records anybody edits; a download event and an audit entry are written once, at
            // their `at`.
            let counters = [
                "data_version",
                "statistics_version",
                "contact_totals",
                "download_daily",
                "download_totals",
                "download_monthly",
                "download_events",
                "audit_log",
                "audit_sweeps",
            ];
            for (table, columns) in lite_tables
                .iter()
                .filter(|(t, _)| !t.starts_with("alter ") && !counters.contains(&t.as_str()))
            {
                assert!(
                    columns.iter().any(|c| c == "created_at"),
                    "{table} lacks created_at"
                );
                assert!(
                    columns.iter().any(|c| c == "updated_at"),
                    "{table} lacks updated_at"
                );
            }
        }
        assert_eq!(
            std::fs::read_dir(SQLITE_DIR).unwrap().count(),
            std::fs::read_dir(POSTGRES_DIR).unwrap().count()
        );
    }

    #[test]
    fn now_has_microsecond_precision() {
        use chrono::Timelike;
        assert_eq!(super::now().nanosecond() % 1_000, 0);
    }
}
