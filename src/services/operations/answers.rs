//! Whole answers kept for identical requests (issue 22): a list answer, a page's island, a
//! count, a provider list. Each is kept under the key of everything it depends on:
//!
//! - the **data version** (`db::operations::data_version`), which database triggers count up in the
//!   transaction of every change to what lists show. It is read once per request, before any
//!   data, so an answer is never kept under a version older than its data, and a change made
//!   through any instance sharing the database is seen by the next request on every instance;
//! - the **period** until the next instant at which a list may read differently without a
//!   change (a package starts or ends, German midnight turns a badge): answers made before it
//!   are not used after it;
//! - the **viewer**: what the answer shows depends on (roles, customer number, previous visit);
//!   the callers put exactly that into the key, never less;
//! - the request's parameters, in a canonical form (filter ids sorted, without duplicates and
//!   restricted to ids the viewer may use), so one question has one key.
//!
//! Concurrent requests for a missing answer wait for one of them to make it.
//!
//! **Memory** (issue 34): bodies and small values share one bound in bytes
//! (`AP_KEPT_ANSWERS_MB`, default 80 MiB), in which every entry is weighed: its bytes (a
//! value by the length of its JSON form), its key and a fixed overhead for the cache's own
//! bookkeeping. A key is kept as the SHA-256 of its text (32 bytes), so a request's parameters
//! cannot make a key large, however many ids it sends. Entries live at most [`LONGEST_LIFE`],
//! and those of an older stamp go as soon as a request reads a newer one.
//!
//! **Asked once, asked again** (issue 37): an answer is first kept in a small part of the
//! bound (one in [`FIRST_SHARE`] bytes, the least recently used going first) and moves into
//! the rest when it is asked for again while it is there. Questions asked once (a random deep
//! page, a search while typing) pass through the small part and never push out what is asked
//! again. In one cache they filled it and, being many small entries, outweighed a larger
//! answer asked again and again in the cache's admission (which weighs the summed frequency of
//! all entries a newcomer would push out): after the benchmark's random contact pages, the
//! dealer search was made anew many times per question, and its p99 at 50 clients rose from
//! 11 to 28 ms. An answer asked again only after the small part has turned over is made anew:
//! it is asked for more rarely than the questions that turned it over.
//!
//! The process's other cache, the content site's menus, holds two menus of at most
//! `MAX_MENU_BODY_BYTES` each (`integrations::content_site`).

use std::any::Any;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use moka::future::Cache;
use moka::policy::EvictionPolicy;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::db::{self, Db};
use crate::domain::time::{berlin_date, berlin_start_of_day};
use crate::domain::user::User;
use crate::services::error::{ServiceError, ServiceResult};

/// How many bytes all kept answers take together at most, by default (`AP_KEPT_ANSWERS_MB`).
pub const DEFAULT_MAX_BYTES: u64 = 80 * 1024 * 1024;
/// What an entry costs besides its bytes: the key's digest, moka's node and its access-order
/// links, the `Arc`s (measured from moka's source, rounded up).
const ENTRY_OVERHEAD: usize = 256;
/// An entry not used again within this time goes, whatever the version.
const LONGEST_LIFE: Duration = Duration::from_secs(15 * 60);
/// The part of the bound for answers asked for once so far (one in this many bytes; 16 of the
/// default 80 MiB): enough for thousands of answers, so a question asked again within seconds
/// is found there. The rest (64 MiB) holds on seed-large what the lists ask for again, the
/// packages' parts above all: with 48 MiB (a quarter of 64 for the first part) the admin
/// list's random pages fell from 3,789 to 1,519 req/s at 50 clients, as its parts no longer
/// fitted; with 64 MiB it answered 3,148 (`scripts/bench.sh mails`, SQLite, issue 37).
const FIRST_SHARE: u64 = 5;

/// The answer kept under `key`, or the error that something else is kept there.
fn kept_answer(kept: Kept, key: &str) -> ServiceResult<Arc<Answer>> {
    match kept {
        Kept::Body(answer) => Ok(answer),
        Kept::Value { .. } => Err(another_kind(key)),
    }
}

/// A kept answer: the bytes sent and their entity tag.
#[derive(Debug)]
pub struct Answer {
    pub body: Vec<u8>,
    /// A strong entity tag of `body` (quoted, for `ETag`).
    pub etag: String,
}

impl Answer {
    pub fn new(body: Vec<u8>) -> Answer {
        let digest = Sha256::digest(&body);
        Answer::with_digest(body, &digest)
    }

    /// An answer whose maker knows a digest that changes whenever `body` does (one made from
    /// the digests of its parts), so the whole body need not be hashed again.
    pub fn with_digest(body: Vec<u8>, digest: &[u8]) -> Answer {
        let etag = format!("\"{}\"", hex(digest.get(..16).unwrap_or(digest)));
        Answer { body, etag }
    }

    /// The body as JSON to embed in a page's props as it is (no second serialisation).
    pub fn raw_json(&self) -> ServiceResult<Box<serde_json::value::RawValue>> {
        let text = String::from_utf8(self.body.clone()).map_err(ServiceError::internal)?;
        serde_json::value::RawValue::from_string(text).map_err(ServiceError::internal)
    }

    /// Whether an `If-None-Match` value names this answer (`*` or a list of tags; a weak tag
    /// matches its strong twin, as RFC 9110 has it for `If-None-Match`).
    pub fn matches(&self, if_none_match: &str) -> bool {
        if_none_match.trim() == "*"
            || if_none_match
                .split(',')
                .map(|tag| tag.trim().trim_start_matches("W/"))
                .any(|tag| tag == self.etag)
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// What a request's answers are kept under: the data version and the end of the period in
/// which nothing changes on its own. Its `Display` is the key's prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub version: i64,
    /// Answers made now are right until this instant (at most the next German midnight).
    pub until: DateTime<Utc>,
}

impl std::fmt::Display for Stamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{}", self.version, self.until.timestamp_micros())
    }
}

/// The next German midnight after `now`: file and package badges count days (spec §4).
fn next_midnight(now: DateTime<Utc>) -> DateTime<Utc> {
    berlin_start_of_day(berlin_date(now) + chrono::Duration::days(1))
}

/// A user's roles as a key part: what rights in an answer (`mayManage`, the providers shown)
/// depend on. Quoted, so no role name can pass for two.
pub fn roles_key(user: &User) -> String {
    let mut roles = user.roles.clone();
    roles.sort();
    roles.dedup();
    format!("{roles:?}")
}

type Value = Arc<dyn Any + Send + Sync>;

/// A key as kept: the SHA-256 of its text.
type Key = [u8; 32];

fn key_of(text: &str) -> Key {
    Sha256::digest(text.as_bytes()).into()
}

/// One kept entry with its weight in bytes.
#[derive(Clone)]
enum Kept {
    Body(Arc<Answer>),
    Value { value: Value, bytes: usize },
}

impl Kept {
    fn weight(&self) -> u32 {
        let bytes = match self {
            Kept::Body(answer) => answer.body.len() + answer.etag.len(),
            Kept::Value { bytes, .. } => *bytes,
        };
        u32::try_from(bytes.saturating_add(ENTRY_OVERHEAD)).unwrap_or(u32::MAX)
    }
}

/// The bytes of a value's JSON form, counted without writing them anywhere: what a value
/// weighs (ids and names take about as much room in memory as in JSON).
fn json_len(value: &impl Serialize) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    // Serialising a value the portal made does not fail; if it did, the entry weighs its size.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0.max(std::mem::size_of_val(value))
}

/// The kept answers of this process.
pub struct Answers {
    /// Answers asked for once so far, least recently used going first.
    first: Cache<Key, Kept>,
    /// Answers asked for again, and the parts of answers ([`Answers::keep_value`]).
    kept: Cache<Key, Kept>,
    /// Whether whole answers ([`Answers::body`], [`Answers::bytes`]) are kept; without, only
    /// what they are made of is (`AP_KEEP_WHOLE_ANSWERS`, for measuring new questions).
    keep_whole: bool,
    /// The period found for a version: (version, until).
    period: Mutex<Option<(i64, DateTime<Utc>)>>,
}

impl Default for Answers {
    fn default() -> Answers {
        Answers::new(DEFAULT_MAX_BYTES)
    }
}

impl Answers {
    /// Kept answers that take at most `max_bytes` together, keys and overhead included.
    pub fn new(max_bytes: u64) -> Answers {
        let first_bytes = max_bytes / FIRST_SHARE;
        Answers {
            first: Cache::builder()
                .max_capacity(first_bytes)
                .weigher(|_key: &Key, kept: &Kept| kept.weight())
                .time_to_idle(LONGEST_LIFE)
                .eviction_policy(EvictionPolicy::lru())
                .build(),
            kept: Cache::builder()
                .max_capacity(max_bytes - first_bytes)
                .weigher(|_key: &Key, kept: &Kept| kept.weight())
                .time_to_idle(LONGEST_LIFE)
                .build(),
            keep_whole: true,
            period: Mutex::new(None),
        }
    }

    /// These answers, keeping whole answers or not (then each is made anew, from kept parts).
    pub fn keeping_whole(self, keep_whole: bool) -> Answers {
        Answers { keep_whole, ..self }
    }

    /// The stamp for a request now: reads the data version (one indexed row) and, once per
    /// version and period, the next start or end of a package.
    pub async fn stamp(&self, db: &Db) -> ServiceResult<Stamp> {
        let version = db::operations::data_version::current(db).await?;
        self.stamp_of(db, version).await
    }

    /// The stamp of the version the session loader read with the session, or of the version
    /// read now when the request has none (no session).
    pub async fn stamp_of_request(
        &self,
        db: &Db,
        read: Option<crate::domain::user::DataVersionRead>,
    ) -> ServiceResult<Stamp> {
        match read {
            Some(read) => self.stamp_of(db, read.0).await,
            None => self.stamp(db).await,
        }
    }

    /// The stamp of a data version the caller has just read.
    pub async fn stamp_of(&self, db: &Db, version: i64) -> ServiceResult<Stamp> {
        let now = Utc::now();
        if let Some((known, until)) = *self.period.lock().unwrap_or_else(|e| e.into_inner())
            && known == version
            && now < until
        {
            return Ok(Stamp { version, until });
        }
        let midnight = next_midnight(now);
        let until = match db::catalog::packages::next_period_change(db, now).await? {
            Some(change) => change.min(midnight),
            None => midnight,
        };
        let mut period = self.period.lock().unwrap_or_else(|e| e.into_inner());
        match *period {
            // A request that read the version before another's newer one: its stamp is right
            // for it, but the newer one stays.
            Some((known, _)) if version < known => {}
            Some((known, known_until)) if (known, known_until) != (version, until) => {
                *period = Some((version, until));
                drop(period);
                // Nothing kept under an older stamp is asked for again. Dropped at once, or
                // the cache stays full of it: moka admits a new entry only when it is asked
                // for more often than the entries it would push out, so for many minutes
                // after a change new answers were not kept (issue 37: the dealer search at
                // half its rate after a package's announcement was saved).
                self.first.invalidate_all();
                self.kept.invalidate_all();
            }
            _ => *period = Some((version, until)),
        }
        Ok(Stamp { version, until })
    }

    /// The answer kept under `key`, or the one `make` serialises (then kept). Callers key it
    /// with a [`Stamp`] and the viewer.
    pub async fn body<T, F>(&self, key: String, make: F) -> ServiceResult<Arc<Answer>>
    where
        T: Serialize,
        F: Future<Output = ServiceResult<T>>,
    {
        self.bytes(key, async move {
            let value = make.await?;
            serde_json::to_vec(&value).map_err(ServiceError::internal)
        })
        .await
    }

    /// Like [`Answers::body`] for bytes made otherwise (a page's rendered HTML). Not through
    /// [`Answers::answer`]: one more future around `make` (a whole page's rendering) took more
    /// stack than the unoptimised test builds have.
    pub async fn bytes<F>(&self, key: String, make: F) -> ServiceResult<Arc<Answer>>
    where
        F: Future<Output = ServiceResult<Vec<u8>>>,
    {
        if !self.keep_whole {
            return Ok(Arc::new(Answer::new(make.await?)));
        }
        // Boxed first: the future of a whole page's rendering is large, and each move of it
        // takes stack in the unoptimised test builds.
        let make = Box::pin(make);
        let kept = self
            .kept_or_made(key_of(&key), async move {
                make.await.map(|b| Kept::Body(Arc::new(Answer::new(b))))
            })
            .await?;
        kept_answer(kept, &key)
    }

    /// Like [`Answers::body`] for an answer made with its tag ([`Answer::with_digest`]).
    pub async fn answer<F>(&self, key: String, make: F) -> ServiceResult<Arc<Answer>>
    where
        F: Future<Output = ServiceResult<Answer>>,
    {
        if !self.keep_whole {
            return Ok(Arc::new(make.await?));
        }
        let make = Box::pin(make);
        let kept = self
            .kept_or_made(key_of(&key), async move {
                make.await.map(|answer| Kept::Body(Arc::new(answer)))
            })
            .await?;
        kept_answer(kept, &key)
    }

    /// A small value kept under `key` (a count, a provider list), or the one `make` returns.
    pub async fn value<T, F>(&self, key: String, make: F) -> ServiceResult<Arc<T>>
    where
        T: Serialize + Send + Sync + 'static,
        F: Future<Output = ServiceResult<T>>,
    {
        let make = Box::pin(make);
        let kept = self
            .kept_or_made(key_of(&key), async move {
                make.await.map(|value| Kept::Value {
                    bytes: json_len(&value),
                    value: Arc::new(value) as Value,
                })
            })
            .await?;
        match kept {
            Kept::Value { value, .. } => value.downcast::<T>().map_err(|_| another_kind(&key)),
            Kept::Body(_) => Err(another_kind(&key)),
        }
    }

    /// The small values kept under `keys`, in their order (`None` where nothing is kept, or
    /// something of another type).
    pub async fn kept_values<T>(&self, keys: &[String]) -> Vec<Option<Arc<T>>>
    where
        T: Send + Sync + 'static,
    {
        let mut found = Vec::with_capacity(keys.len());
        for key in keys {
            found.push(match self.kept_entry(key_of(key)).await {
                Some(Kept::Value { value, .. }) => value.downcast::<T>().ok(),
                _ => None,
            });
        }
        found
    }

    /// The entry kept under `key`: one asked for once before moves to those asked again.
    async fn kept_entry(&self, key: Key) -> Option<Kept> {
        if let Some(kept) = self.kept.get(&key).await {
            return Some(kept);
        }
        let kept = self.first.get(&key).await?;
        // Kept before it leaves the first part, so that a request in between finds it in one.
        self.kept.insert(key, kept.clone()).await;
        self.first.invalidate(&key).await;
        Some(kept)
    }

    /// The entry kept under `key`, or the one `make` makes, kept as asked for once; concurrent
    /// requests for it wait for one making.
    async fn kept_or_made<F>(&self, key: Key, make: F) -> ServiceResult<Kept>
    where
        F: Future<Output = ServiceResult<Kept>>,
    {
        if let Some(kept) = self.kept_entry(key).await {
            return Ok(kept);
        }
        Box::pin(self.first.try_get_with(key, make))
            .await
            .map_err(shared)
    }

    /// Keeps `value` under `key` (a value [`Answers::kept_values`] finds), and returns it. A
    /// part of answers (a package's JSON) is kept with those asked again: it is, by every
    /// answer that holds it.
    pub async fn keep_value<T>(&self, key: &str, value: T) -> Arc<T>
    where
        T: Serialize + Send + Sync + 'static,
    {
        let value = Arc::new(value);
        let kept = Kept::Value {
            bytes: json_len(&*value),
            value: value.clone() as Value,
        };
        self.kept.insert(key_of(key), kept).await;
        value
    }

    /// How many bytes the kept answers take, keys and overhead included (for the benchmark's
    /// memory figures and tests).
    pub async fn weighed_bytes(&self) -> u64 {
        self.first.run_pending_tasks().await;
        self.kept.run_pending_tasks().await;
        self.first.weighted_size() + self.kept.weighted_size()
    }
}

fn another_kind(key: &str) -> ServiceError {
    ServiceError::Internal(anyhow::anyhow!("kept value of another type under {key}"))
}

/// The error of a making that other requests waited for: theirs too.
fn shared(err: Arc<ServiceError>) -> ServiceError {
    Arc::try_unwrap(err).unwrap_or_else(|err| match &*err {
        ServiceError::NotFound => ServiceError::NotFound,
        ServiceError::Forbidden => ServiceError::Forbidden,
        ServiceError::Refused(m) => ServiceError::Refused(m.clone()),
        ServiceError::Invalid(m) => ServiceError::Invalid(m.clone()),
        ServiceError::Conflict { code, message } => ServiceError::Conflict {
            code,
            message: message.clone(),
        },
        ServiceError::Upstream(m) => ServiceError::Upstream(m.clone()),
        // The cause stays in the log of the request that made it; the kind is kept, so a
        // database away is 503 for every request that waited, not 500.
        ServiceError::DatabaseUnavailable(e) => {
            ServiceError::DatabaseUnavailable(anyhow::anyhow!("{e}"))
        }
        ServiceError::FileStoreUnavailable(e) => {
            ServiceError::FileStoreUnavailable(anyhow::anyhow!("{e}"))
        }
        ServiceError::TooSlow => ServiceError::TooSlow,
        other => ServiceError::Internal(anyhow::anyhow!("{other}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn entity_tags_match_as_if_none_match_reads_them() {
        let answer = Answer::new(b"{\"count\":0}".to_vec());
        assert!(answer.etag.starts_with('"') && answer.etag.ends_with('"'));
        assert_eq!(answer.etag.len(), 34);
        assert!(answer.matches(&answer.etag));
        assert!(answer.matches(&format!("\"x\", W/{}", answer.etag)));
        assert!(answer.matches("*"));
        assert!(!answer.matches("\"x\""));
        assert!(!answer.matches(""));
        assert_ne!(Answer::new(b"{}".to_vec()).etag, answer.etag);
    }

    #[test]
    fn the_period_ends_at_the_next_german_midnight() {
        let now: DateTime<Utc> = "2026-07-01T21:59:59Z".parse().unwrap();
        assert_eq!(
            next_midnight(now),
            "2026-07-01T22:00:00Z".parse::<DateTime<Utc>>().unwrap()
        );
        let winter: DateTime<Utc> = "2026-12-01T23:00:00Z".parse().unwrap();
        assert_eq!(
            next_midnight(winter),
            "2026-12-02T23:00:00Z".parse::<DateTime<Utc>>().unwrap()
        );
    }

    #[tokio::test]
    async fn an_answer_is_made_once_for_concurrent_requests_and_kept() {
        let answers = Answers::default();
        let made = Arc::new(AtomicUsize::new(0));
        let ask = || {
            let made = made.clone();
            answers.body("k".to_string(), async move {
                made.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(50)).await;
                Ok(vec![1, 2, 3])
            })
        };
        let (a, b, c) = tokio::join!(ask(), ask(), ask());
        assert_eq!(made.load(Ordering::SeqCst), 1);
        assert_eq!(a.unwrap().body, b"[1,2,3]");
        assert_eq!(b.unwrap().etag, c.unwrap().etag);
        ask().await.unwrap();
        assert_eq!(made.load(Ordering::SeqCst), 1, "kept");
    }

    #[tokio::test]
    async fn a_newer_version_makes_room_for_its_answers_in_a_full_cache() {
        let t = TestDb::new().await;
        // Room for about 50 answers of 1,000 bytes in all (with the cache's weight of an entry).
        let answers = Answers::new(64 * 1024);
        let kept = |stamp: Stamp, i: usize, made: Arc<AtomicUsize>| {
            let answers = &answers;
            async move {
                answers
                    .body(format!("list|{stamp}|{i}"), async move {
                        made.fetch_add(1, Ordering::SeqCst);
                        Ok(vec![b'x'; 1000])
                    })
                    .await
                    .unwrap();
                answers.kept.run_pending_tasks().await;
            }
        };
        // The cache full of answers of version 1, each asked for often.
        let old = answers.stamp_of(&t.db, 1).await.unwrap();
        let made_old = Arc::new(AtomicUsize::new(0));
        for i in 0..80 {
            for _ in 0..5 {
                kept(old, i, made_old.clone()).await;
            }
        }
        // A change: each new answer is made once and then kept, though asked for less often
        // than the old ones were.
        assert!(answers.kept.entry_count() > 10);
        let new = answers.stamp_of(&t.db, 2).await.unwrap();
        assert_ne!(new, old);
        // The cache's housekeeping (at its next write) drops what the new stamp made dead.
        answers.kept.run_pending_tasks().await;
        answers.first.run_pending_tasks().await;
        assert_eq!(answers.kept.entry_count() + answers.first.entry_count(), 0);
        let made = Arc::new(AtomicUsize::new(0));
        for i in 0..10 {
            for _ in 0..3 {
                kept(new, i, made.clone()).await;
            }
        }
        assert_eq!(
            made.load(Ordering::SeqCst),
            10,
            "kept after being made once"
        );
        // A request that read version 1 just before the change does not push version 2 out.
        assert_eq!(answers.stamp_of(&t.db, 1).await.unwrap().version, 1);
        kept(new, 0, made.clone()).await;
        assert_eq!(made.load(Ordering::SeqCst), 10);
    }

    #[tokio::test]
    async fn without_whole_answers_each_is_made_anew_and_the_parts_are_kept() {
        let answers = Answers::default().keeping_whole(false);
        let made = Arc::new(AtomicUsize::new(0));
        for _ in 0..2 {
            let made = made.clone();
            let answer = answers
                .body("k".to_string(), async move {
                    made.fetch_add(1, Ordering::SeqCst);
                    Ok(vec![1])
                })
                .await
                .unwrap();
            assert_eq!(answer.body, b"[1]");
        }
        assert_eq!(made.load(Ordering::SeqCst), 2, "a whole answer is not kept");
        let part = answers.value("part".into(), async { Ok(7) }).await.unwrap();
        let again = answers
            .value::<i32, _>("part".into(), async { Ok(8) })
            .await
            .unwrap();
        assert_eq!((*part, *again), (7, 7), "a part is kept");
    }

    #[tokio::test]
    async fn a_failed_making_is_not_kept() {
        let answers = Answers::default();
        let failed = answers
            .body::<Vec<u8>, _>("k".to_string(), async {
                Err(ServiceError::Invalid("kaputt".into()))
            })
            .await;
        assert!(matches!(failed, Err(ServiceError::Invalid(m)) if m == "kaputt"));
        let made = answers
            .body("k".to_string(), async { Ok(1) })
            .await
            .unwrap();
        assert_eq!(made.body, b"1");
    }

    #[tokio::test]
    async fn memory_stays_within_the_bound() {
        let answers = Answers::new(1024 * 1024);
        for n in 0..100 {
            answers
                .bytes(format!("k{n}"), async { Ok(vec![b'x'; 64 * 1024]) })
                .await
                .unwrap();
        }
        assert!(answers.weighed_bytes().await <= 1024 * 1024);
    }

    #[tokio::test]
    async fn values_and_long_keys_are_weighed_within_the_one_bound() {
        let answers = Answers::new(1024 * 1024);
        // 2,000 values under keys of 40 KB each (the filter ids of issue 34): without weighing
        // keys and values they would hold about 80 MB.
        let long = "9".repeat(40 * 1024);
        for n in 0..2_000 {
            let ids: Vec<i64> = (0..500).map(|i| i * n).collect();
            answers
                .value(format!("package-count|{n}|{long}"), async move { Ok(ids) })
                .await
                .unwrap();
        }
        answers
            .bytes("body".into(), async { Ok(vec![b'x'; 512 * 1024]) })
            .await
            .unwrap();
        let weighed = answers.weighed_bytes().await;
        assert!(weighed <= 1024 * 1024, "{weighed}");
        // Each asked for once: they fill the part for those (a fifth of the bound).
        assert!(weighed > 128 * 1024, "values are weighed: {weighed}");
        // A value weighs its JSON form plus the overhead.
        let one = Answers::default();
        one.value("k".into(), async { Ok(vec![12_345_i64; 100]) })
            .await
            .unwrap();
        assert_eq!(
            one.weighed_bytes().await,
            (100 * 5 + 99 + 2 + ENTRY_OVERHEAD) as u64
        );
    }

    #[tokio::test]
    async fn answers_asked_once_do_not_push_out_one_asked_again() {
        let answers = Answers::new(256 * 1024);
        let made = Arc::new(AtomicUsize::new(0));
        let ask_again = || {
            let made = made.clone();
            answers.bytes("again".to_string(), async move {
                made.fetch_add(1, Ordering::SeqCst);
                Ok(vec![b'x'; 8_000])
            })
        };
        // A thousand random deep pages, each asked for once, before and after a larger answer
        // that is asked for again and again (in one cache, the many small ones would outweigh
        // it and it would be made again each time).
        let ask_once =
            |n: usize| answers.bytes(format!("once{n}"), async { Ok(vec![b'y'; 1_000]) });
        for n in 0..1_000 {
            ask_once(n).await.unwrap();
        }
        for round in 0..5 {
            ask_again().await.unwrap();
            ask_again().await.unwrap();
            for n in 0..1_000 {
                ask_once(1_000 * (round + 1) + n).await.unwrap();
            }
        }
        assert_eq!(made.load(Ordering::SeqCst), 1, "made once, then kept");
        // The last ones asked once are still there when asked again, and then kept; a new
        // question is made once and kept when asked again.
        let made_again = Arc::new(AtomicUsize::new(0));
        for key in ["once5999", "once5999", "new", "new", "new"] {
            let made_again = made_again.clone();
            answers
                .bytes(key.to_string(), async move {
                    made_again.fetch_add(1, Ordering::SeqCst);
                    Ok(vec![b'y'; 1_000])
                })
                .await
                .unwrap();
        }
        assert_eq!(
            made_again.load(Ordering::SeqCst),
            1,
            "only the new one made"
        );
        assert!(answers.weighed_bytes().await <= 256 * 1024);
    }

    #[tokio::test]
    async fn values_keep_their_type() {
        let answers = Answers::default();
        let n = answers
            .value("n".to_string(), async { Ok(7_i64) })
            .await
            .unwrap();
        assert_eq!(*n, 7);
        assert!(
            answers
                .value::<String, _>("n".to_string(), async { Ok(String::new()) })
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn the_stamp_moves_with_every_change_and_ends_at_a_packages_start() {
        let t = TestDb::new().await;
        let answers = Answers::default();
        let first = answers.stamp(&t.db).await.unwrap();
        assert_eq!(
            answers.stamp(&t.db).await.unwrap(),
            first,
            "nothing changed"
        );
        assert!(first.until <= next_midnight(Utc::now()));
        // A package that starts in an hour ends the period then.
        let start = crate::db::now() + chrono::Duration::hours(1);
        let provider = crate::db::marketing::providers::create(
            &t.db,
            &crate::db::marketing::providers::NewProvider {
                name: "Anbieter".into(),
                allowed_roles: Vec::new(),
                brevo_active_folder_id: None,
                brevo_inactive_folder_id: None,
                upload_id: None,
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        crate::db::catalog::packages::create(
            &t.db,
            &crate::db::catalog::packages::NewPackage {
                provider_id: provider.id,
                name: "Paket eins".into(),
                start_at: start,
                end_at: start + chrono::Duration::days(30),
                files: Vec::new(),
                list_ids: Vec::new(),
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        let second = answers.stamp(&t.db).await.unwrap();
        assert!(second.version > first.version);
        assert_eq!(second.until, start.min(next_midnight(Utc::now())));
    }
}
