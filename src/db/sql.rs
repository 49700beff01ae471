//! Queries whose text is put together at run time: optional filters and `in (…)` lists. The
//! parameters are numbered as they are added (`$1`, `$2`, …; SQLite accepts them too), and
//! the same query runs on either backend.

use chrono::{DateTime, Utc};
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;

use super::Db;
use crate::db_run;

#[derive(Clone, Debug)]
pub(crate) enum Param {
    Int(i64),
    Int32(i32),
    Int16(i16),
    Bool(bool),
    Text(String),
    Time(DateTime<Utc>),
    OptTime(Option<DateTime<Utc>>),
    OptInt(Option<i64>),
    OptText(Option<String>),
    Bytes(Vec<u8>),
}

impl From<Option<i64>> for Param {
    fn from(value: Option<i64>) -> Self {
        Param::OptInt(value)
    }
}

impl From<Option<String>> for Param {
    fn from(value: Option<String>) -> Self {
        Param::OptText(value)
    }
}

impl From<Vec<u8>> for Param {
    fn from(value: Vec<u8>) -> Self {
        Param::Bytes(value)
    }
}

impl From<i32> for Param {
    fn from(value: i32) -> Self {
        Param::Int32(value)
    }
}

impl From<i16> for Param {
    fn from(value: i16) -> Self {
        Param::Int16(value)
    }
}

impl From<Option<DateTime<Utc>>> for Param {
    fn from(value: Option<DateTime<Utc>>) -> Self {
        Param::OptTime(value)
    }
}

impl From<i64> for Param {
    fn from(value: i64) -> Self {
        Param::Int(value)
    }
}

impl From<bool> for Param {
    fn from(value: bool) -> Self {
        Param::Bool(value)
    }
}

impl From<String> for Param {
    fn from(value: String) -> Self {
        Param::Text(value)
    }
}

impl From<&str> for Param {
    fn from(value: &str) -> Self {
        Param::Text(value.to_string())
    }
}

impl From<DateTime<Utc>> for Param {
    fn from(value: DateTime<Utc>) -> Self {
        Param::Time(value)
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct DynQuery {
    sql: String,
    params: Vec<Param>,
}

/// Binds every parameter of `$params` (an iterator of `&Param`) to the query `$query`
/// (either backend).
macro_rules! bind_all {
    ($query:expr, $params:expr) => {{
        use $crate::db::sql::Param;
        let mut query = $query;
        for param in $params {
            query = match param {
                Param::Int(v) => query.bind(*v),
                Param::Int32(v) => query.bind(*v),
                Param::Int16(v) => query.bind(*v),
                Param::Bool(v) => query.bind(*v),
                Param::Text(v) => query.bind(v.as_str()),
                Param::Time(v) => query.bind(*v),
                Param::OptTime(v) => query.bind(*v),
                Param::OptInt(v) => query.bind(*v),
                Param::OptText(v) => query.bind(v.as_deref()),
                Param::Bytes(v) => query.bind(v.as_slice()),
            };
        }
        query
    }};
}
pub(crate) use bind_all;

impl DynQuery {
    pub fn new(sql: &str) -> DynQuery {
        DynQuery {
            sql: sql.to_string(),
            params: Vec::new(),
        }
    }

    /// Appends SQL text.
    pub fn push(&mut self, sql: &str) -> &mut Self {
        self.sql.push_str(sql);
        self
    }

    /// Adds a parameter and returns its placeholder.
    pub fn param(&mut self, value: impl Into<Param>) -> String {
        self.params.push(value.into());
        format!("${}", self.params.len())
    }

    /// `(…)` with one placeholder per id, for `in`; callers handle the empty list.
    pub fn id_list(&mut self, ids: &[i64]) -> String {
        let placeholders: Vec<String> = ids.iter().map(|id| self.param(*id)).collect();
        format!("({})", placeholders.join(", "))
    }

    #[cfg(test)]
    pub fn sql(&self) -> &str {
        &self.sql
    }

    pub async fn fetch_all<R>(&self, db: &Db) -> Result<Vec<R>, sqlx::Error>
    where
        R: for<'r> sqlx::FromRow<'r, SqliteRow> + for<'r> sqlx::FromRow<'r, PgRow> + Send + Unpin,
    {
        db_run!(db, pool => bind_all!(sqlx::query_as::<_, R>(&self.sql), &self.params)
            .fetch_all(pool)
            .await)
    }

    /// Runs the query inside the open transaction `tx`.
    pub async fn fetch_all_in<R>(&self, tx: &mut super::bulk::Tx) -> Result<Vec<R>, sqlx::Error>
    where
        R: for<'r> sqlx::FromRow<'r, SqliteRow> + for<'r> sqlx::FromRow<'r, PgRow> + Send + Unpin,
    {
        tx.fetch_all(&self.sql, &self.params).await
    }

    pub async fn fetch_count(&self, db: &Db) -> Result<i64, sqlx::Error> {
        db_run!(db, pool => bind_all!(sqlx::query_scalar::<_, i64>(&self.sql), &self.params)
            .fetch_one(pool)
            .await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;

    #[test]
    fn placeholders_are_numbered_in_order() {
        let mut q = DynQuery::new("select 1 where a = ");
        let a = q.param(1i64);
        q.push(&a);
        let list = q.id_list(&[5, 6, 7]);
        q.push(" and b in ").push(&list);
        assert_eq!(q.sql(), "select 1 where a = $1 and b in ($2, $3, $4)");
    }

    #[tokio::test]
    async fn runs_on_the_test_backend() {
        let t = TestDb::new().await;
        let mut q = DynQuery::new(
            "select count(*) from (select 1 as x union all select 2 union all select 3) t where x in ",
        );
        let list = q.id_list(&[1, 3, 9]);
        q.push(&list);
        assert_eq!(q.fetch_count(&t.db).await.unwrap(), 2);
    }
}
