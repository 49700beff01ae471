//! Queries whose text is put together at run time: optional filters and `in (…)` lists. The
//! parameters are numbered as they are added (`$1`, `$2`, …; SQLite accepts them too), and
//! the same query runs on either backend.

use chrono::{DateTime, Utc};
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;

use crate::db::{Backend, Db};
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
    OptBool(Option<bool>),
    OptBytes(Option<Vec<u8>>),
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
                Param::OptBool(v) => query.bind(*v),
                Param::OptBytes(v) => query.bind(v.as_deref()),
            };
        }
        query
    }};
}
pub(crate) use bind_all;

/// `sql` with its parameters `$1, $2, … $n` (each once, in this order, as the bulk statements
/// write them) turned into SQLite's anonymous `?`; any other `sql` as it is. SQLite looks a
/// named or numbered parameter up in a list from its start, when it parses the statement and
/// again for each value bound, so a statement with thousands of `$N` costs time in the square
/// of their number (a batch of 500 download events: a fifth of the CPU of serving them);
/// `?` it binds by position.
pub(crate) fn positional(sql: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let (mut next, mut copied, mut at, mut quoted) = (1u64, 0, 0, false);
    while at < bytes.len() {
        match bytes[at] {
            b'\'' => quoted = !quoted,
            b'$' if !quoted => {
                let digits = bytes[at + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                if digits > 0 {
                    if sql[at + 1..at + 1 + digits].parse::<u64>().ok() != Some(next) {
                        return Cow::Borrowed(sql);
                    }
                    next += 1;
                    out.push_str(&sql[copied..at]);
                    out.push('?');
                    at += 1 + digits;
                    copied = at;
                    continue;
                }
            }
            _ => {}
        }
        at += 1;
    }
    if next == 1 {
        return Cow::Borrowed(sql);
    }
    out.push_str(&sql[copied..]);
    Cow::Owned(out)
}

/// The aggregate that joins the texts `expr` of a group with `separator` (SQLite's
/// `group_concat`, PostgreSQL's `string_agg`).
pub fn joined(db: &Db, expr: &str, separator: &str) -> String {
    match db {
        Db::Sqlite(..) => format!("group_concat({expr}, '{separator}')"),
        Db::Postgres(..) => format!("string_agg(cast({expr} as text), '{separator}')"),
    }
}

/// The comment a list's statements begin with: PostgreSQL shows it in `pg_stat_activity`,
/// where [`cancel_lists_over`] finds the statements of lists that took too long.
pub(crate) const LIST_TAG: &str = "/* list */ ";

/// Cancels this database's list statements (those of [`DynQuery::list`]) that have run longer
/// than `limit`, and returns how many. A list whose request gave up over its bound has dropped
/// its statement, but PostgreSQL would finish it and the connection would wait for that; SQLite
/// stops a dropped statement at its next step, so there is nothing to do.
pub async fn cancel_lists_over(db: &Db, limit: std::time::Duration) -> Result<i64, sqlx::Error> {
    let Db::Postgres(pool, _) = db else {
        return Ok(0);
    };
    let millis = i64::try_from(limit.as_millis()).unwrap_or(i64::MAX);
    sqlx::query_scalar(
        "select count(*) filter (where pg_cancel_backend(pid)) from pg_stat_activity \
         where datname = current_database() and pid <> pg_backend_pid() and state = 'active' \
         and starts_with(query, $1) \
         and clock_timestamp() - query_start > $2 * interval '1 millisecond'",
    )
    .bind(LIST_TAG)
    .bind(millis)
    .fetch_one(pool)
    .await
}

impl DynQuery {
    pub fn new(sql: &str) -> DynQuery {
        DynQuery {
            sql: sql.to_string(),
            params: Vec::new(),
        }
    }

    /// A statement of a list a request waits for within `AP_LIST_TIME_LIMIT_MS`: marked so
    /// that [`cancel_lists_over`] can end it once the request has given up.
    pub fn list(sql: &str) -> DynQuery {
        DynQuery::new(&format!("{LIST_TAG}{sql}"))
    }

    /// Makes the statement so far the inner part of `outer(inner)`, with its parameters (and a
    /// list's mark still first).
    pub fn nest(&mut self, outer: impl FnOnce(&str) -> String) -> &mut Self {
        let tag = if self.sql.starts_with(LIST_TAG) {
            LIST_TAG
        } else {
            ""
        };
        self.sql = format!("{tag}{}", outer(&self.sql[tag.len()..]));
        self
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

    /// `column` is one of `ids` (callers handle the empty list), in a text that is the same
    /// whatever their number: one parameter holds them all, a JSON array on SQLite and an
    /// array on PostgreSQL. With one placeholder per id, every count of ids is a statement of
    /// its own, prepared anew on each connection (issue 41: a page of packages, one prepare of
    /// the package select with its four subqueries for nearly every new question).
    pub fn one_of(&mut self, column: &str, ids: &[i64], backend: Backend) -> String {
        let numbers: Vec<String> = ids.iter().map(i64::to_string).collect();
        match backend {
            Backend::Sqlite => {
                let p = self.param(format!("[{}]", numbers.join(",")));
                format!("{column} in (select value from json_each({p}))")
            }
            Backend::Postgres => {
                let p = self.param(format!("{{{}}}", numbers.join(",")));
                format!("{column} = any(cast({p} as bigint[]))")
            }
        }
    }

    #[cfg(test)]
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// The text as `db` binds it fastest (see [`positional`]).
    fn text_for(&self, db: &Db) -> std::borrow::Cow<'_, str> {
        match db {
            Db::Sqlite(..) => positional(&self.sql),
            Db::Postgres(..) => std::borrow::Cow::Borrowed(&self.sql),
        }
    }

    pub async fn fetch_all<R>(&self, db: &Db) -> Result<Vec<R>, sqlx::Error>
    where
        R: for<'r> sqlx::FromRow<'r, SqliteRow> + for<'r> sqlx::FromRow<'r, PgRow> + Send + Unpin,
    {
        let sql = &*self.text_for(db);
        db_run!(db, pool => bind_all!(sqlx::query_as::<_, R>(sql), &self.params)
            .fetch_all(pool)
            .await)
    }

    /// The text and its parameters, to run inside an open transaction (`Tx::fetch_all`).
    pub fn parts(&self) -> (&str, &[Param]) {
        (&self.sql, &self.params)
    }

    /// The first column of every row, as ids.
    pub async fn fetch_ids(&self, db: &Db) -> Result<Vec<i64>, sqlx::Error> {
        let sql = &*self.text_for(db);
        db_run!(db, pool => bind_all!(sqlx::query_scalar::<_, i64>(sql), &self.params)
            .fetch_all(pool)
            .await)
    }

    pub async fn fetch_count(&self, db: &Db) -> Result<i64, sqlx::Error> {
        let sql = &*self.text_for(db);
        db_run!(db, pool => bind_all!(sqlx::query_scalar::<_, i64>(sql), &self.params)
            .fetch_one(pool)
            .await)
    }
}

/// `%term%` for `like` on one of SQLite's FTS5 trigram tables (`contact_search`, `company_search`,
/// `package_name_search`, `package_file_search`), or `None` when such a table cannot answer the
/// term from its index: they answer `like` only without `escape`, so a term with a wildcard
/// character is not looked up there, nor one of fewer than three characters (no trigram), nor
/// one with a line break (the tables separate fields and file names by line breaks, and a term
/// must not match across two).
pub(crate) fn trigram_pattern(term: &str) -> Option<String> {
    (term.chars().count() >= 3 && !term.contains(['%', '_', '\\', '\n']))
        .then(|| format!("%{}%", term.to_lowercase()))
}

/// `%digits%` for a run of four or more digits in a longer ASCII term (`kontakt012345`,
/// `Nr. 01234`), or `None`. A trigram index finds such a run in few rows, while the letters
/// around it may be in every row (every address of a large installation may start with the
/// same word): a search looks the digits up and checks the whole term in the rows found, which
/// is the same answer. Only ASCII terms, so that SQLite's `like` (which folds ASCII letters
/// only) checks them exactly as the trigram table's `like` would.
pub(crate) fn selective_digits(term: &str) -> Option<String> {
    if !term.is_ascii() {
        return None;
    }
    let longest = term
        .split(|c: char| !c.is_ascii_digit())
        .max_by_key(|run| run.len())?;
    (longest.len() >= 4 && longest.len() < term.len()).then(|| format!("%{longest}%"))
}

/// `%term%` for `like … escape '\'`, lower-cased, with the wildcards of the term escaped.
pub(crate) fn like_pattern(term: &str) -> String {
    let escaped = term
        .to_lowercase()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{escaped}%")
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_terms_a_trigram_table_can_look_up_get_its_pattern() {
        use super::trigram_pattern;
        assert_eq!(trigram_pattern("Süd Nr. 1").as_deref(), Some("%süd nr. 1%"));
        for term in ["ab", "50%", "a_b", "back\\slash", "Zeile\nzwei"] {
            assert_eq!(trigram_pattern(term), None, "{term:?}");
        }
    }

    #[test]
    fn only_a_run_of_four_digits_in_a_longer_ascii_term_is_looked_up_first() {
        use super::selective_digits;
        assert_eq!(
            selective_digits("kontakt012345").as_deref(),
            Some("%012345%")
        );
        assert_eq!(
            selective_digits("Nr. 12 Nr. 04711x").as_deref(),
            Some("%04711%")
        );
        // The digits alone are the whole term; three digits are in too many rows; not ASCII.
        for term in ["012345", "kontakt012", "Müller 12345", "weber"] {
            assert_eq!(selective_digits(term), None, "{term:?}");
        }
    }

    #[test]
    fn numbered_parameters_in_order_become_positional() {
        use super::positional;
        assert_eq!(
            positional("insert into t (a, b) values ($1, $2), ($3, $4)"),
            "insert into t (a, b) values (?, ?), (?, ?)"
        );
        assert_eq!(
            positional("select '$1' as x, a from t where a = $1 and b > $2"),
            "select '$1' as x, a from t where a = ? and b > ?"
        );
        // Used twice, out of order, or none: as it is.
        for sql in [
            "select $1 where a = $1",
            "select $2, $1",
            "select 1",
            "select $1, $3",
        ] {
            assert_eq!(positional(sql), sql);
        }
    }

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
    async fn one_of_is_one_text_for_any_number_of_ids() {
        let t = TestDb::new().await;
        let backend = t.db.backend();
        let query = |ids: &[i64]| {
            let mut q = DynQuery::new(
                "select count(*) from (select 1 as x union all select 2 union all select 3) t where ",
            );
            let condition = q.one_of("x", ids, backend);
            q.push(&condition);
            q
        };
        assert_eq!(query(&[1]).sql(), query(&[1, 3, 9, 12]).sql());
        assert_eq!(query(&[1, 3, 9]).fetch_count(&t.db).await.unwrap(), 2);
        assert_eq!(query(&[2]).fetch_count(&t.db).await.unwrap(), 1);
        assert_eq!(query(&[-4, 7]).fetch_count(&t.db).await.unwrap(), 0);
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
