//! An open transaction on either backend, and the multi-row `INSERT` statements written
//! once with `$1, $2, …` placeholders that run in it: generated data (`seed-large`), the
//! statistics' roll-ups, and the link sets of `bulk`.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::time::Instant;

use crate::db::BeginWrite;
use crate::db::Db;
use crate::db::sql::{Param, bind_all, positional};

/// Rows per `INSERT` statement (fewer when the columns would exceed `MAX_PARAMETERS`).
pub const ROWS_PER_STATEMENT: usize = 500;
/// Bound parameters per statement at most (SQLite allows 32766, PostgreSQL 65535).
const MAX_PARAMETERS: usize = 30_000;

/// An open transaction on either backend.
pub(crate) enum Tx {
    Sqlite(sqlx::Transaction<'static, sqlx::Sqlite>),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
}

/// Runs the same block against whichever transaction `$tx` holds; `$conn` names it inside.
macro_rules! tx_run {
    ($tx:expr, $conn:ident => $body:expr) => {
        match $tx {
            Tx::Sqlite($conn) => $body,
            Tx::Postgres($conn) => $body,
        }
    };
}

pub(crate) use tx_run;

/// `insert into t (a, b) values ($1, $2), ($3, $4) … [returning …]` for `rows` rows.
pub(crate) fn insert_sql(
    table: &str,
    columns: &[&str],
    rows: usize,
    returning: Option<&str>,
) -> String {
    let mut sql = format!(
        "insert into {table} ({}) values {}",
        columns.join(", "),
        tuples(columns.len(), rows)
    );
    if let Some(returning) = returning {
        sql.push_str(" returning ");
        sql.push_str(returning);
    }
    sql
}

/// `($1, $2), ($3, $4), …`: `rows` tuples of `width` placeholders, numbered on.
pub(crate) fn tuples(width: usize, rows: usize) -> String {
    let mut sql = String::with_capacity(rows * width * 5);
    let mut n = 0;
    for row in 0..rows {
        sql.push_str(if row == 0 { "(" } else { ", (" });
        for column in 0..width {
            n += 1;
            if column > 0 {
                sql.push_str(", ");
            }
            let _ = write!(sql, "${n}");
        }
        sql.push(')');
    }
    sql
}

impl Tx {
    pub(crate) async fn begin(db: &Db) -> Result<Tx, sqlx::Error> {
        Ok(match db {
            Db::Sqlite(pool, _) => Tx::Sqlite(pool.begin_write().await?),
            Db::Postgres(pool, _) => Tx::Postgres(pool.begin_write().await?),
        })
    }

    pub(crate) async fn commit(self) -> Result<(), sqlx::Error> {
        tx_run!(self, tx => tx.commit().await)
    }

    /// `sql` as this backend binds it fastest (see [`positional`]).
    fn text<'a>(&self, sql: &'a str) -> Cow<'a, str> {
        match self {
            Tx::Sqlite(_) => positional(sql),
            Tx::Postgres(_) => Cow::Borrowed(sql),
        }
    }

    /// Runs one statement that answers `(id, text)` pairs.
    pub(crate) async fn pairs(
        &mut self,
        sql: &str,
        values: &[Param],
    ) -> Result<Vec<(i64, String)>, sqlx::Error> {
        let sql = &*self.text(sql);
        tx_run!(self, tx => {
            bind_all!(sqlx::query_as::<_, (i64, String)>(sql), values)
                .fetch_all(&mut **tx)
                .await
        })
    }

    /// Runs one statement that answers rows of `R`.
    pub(crate) async fn fetch_all<R>(
        &mut self,
        sql: &str,
        values: &[Param],
    ) -> Result<Vec<R>, sqlx::Error>
    where
        R: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>
            + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>
            + Send
            + Unpin,
    {
        let sql = &*self.text(sql);
        tx_run!(self, tx => {
            bind_all!(sqlx::query_as::<_, R>(sql), values)
                .fetch_all(&mut **tx)
                .await
        })
    }

    /// Whether the transaction runs on PostgreSQL.
    pub(crate) fn is_postgres(&self) -> bool {
        matches!(self, Tx::Postgres(_))
    }

    pub(crate) async fn execute(
        &mut self,
        sql: &str,
        values: &[Param],
    ) -> Result<u64, sqlx::Error> {
        let sql = &*self.text(sql);
        tx_run!(self, tx => {
            Ok(bind_all!(sqlx::query(sql), values)
                .execute(&mut **tx)
                .await?
                .rows_affected())
        })
    }

    /// Inserts `rows` (each with one value per column) with multi-row statements, and logs
    /// how many and how long. With `returning` (two columns: an id and a text key) the
    /// returned pairs are collected.
    pub(crate) async fn insert(
        &mut self,
        table: &str,
        columns: &[&str],
        rows: impl IntoIterator<Item = Vec<Param>>,
        returning: Option<&str>,
    ) -> Result<(u64, Vec<(i64, String)>), sqlx::Error> {
        let started = Instant::now();
        let (inserted, returned) = self.insert_rows(table, columns, rows, returning).await?;
        tracing::info!(
            table,
            rows = inserted,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "inserted"
        );
        Ok((inserted, returned))
    }

    /// `insert` without the log line, for the small writes of a request.
    pub(crate) async fn insert_rows(
        &mut self,
        table: &str,
        columns: &[&str],
        rows: impl IntoIterator<Item = Vec<Param>>,
        returning: Option<&str>,
    ) -> Result<(u64, Vec<(i64, String)>), sqlx::Error> {
        let per_statement = (MAX_PARAMETERS / columns.len()).clamp(1, ROWS_PER_STATEMENT);
        let mut inserted = 0u64;
        let mut returned = Vec::new();
        let mut batch: Vec<Param> = Vec::with_capacity(per_statement * columns.len());
        let mut in_batch = 0usize;
        let mut full_sql = None;
        let mut rows = rows.into_iter().peekable();
        while let Some(row) = rows.next() {
            debug_assert_eq!(row.len(), columns.len(), "{table}");
            batch.extend(row);
            in_batch += 1;
            if in_batch == per_statement || rows.peek().is_none() {
                let sql = if in_batch == per_statement {
                    full_sql
                        .get_or_insert_with(|| insert_sql(table, columns, in_batch, returning))
                        .clone()
                } else {
                    insert_sql(table, columns, in_batch, returning)
                };
                if returning.is_some() {
                    returned.extend(self.pairs(&sql, &batch).await?);
                } else {
                    self.execute(&sql, &batch).await?;
                }
                inserted += in_batch as u64;
                batch.clear();
                in_batch = 0;
            }
        }
        Ok((inserted, returned))
    }
}
