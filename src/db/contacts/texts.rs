//! The contacts' searched texts in memory (issue 41): the contact search's answer without
//! asking the database which contacts hold the term.
//!
//! The search looks for its term in five texts of each contact: its email, first and last name,
//! customer number and its company's name (`search::filtered`). The database answers that from
//! trigram indexes (SQLite's FTS5 tables, pg_trgm), and on `seed-large` (200,000 contacts) that
//! lookup and the rows it finds were most of a search's time. Here the texts are read once per
//! version of them (`data_version.contact_text_version`, migration 0029: only a change to one
//! of those texts moves it), exactly as the database's own expressions give them
//! (`lower(firstname)` and so on), and kept with the contacts holding each uncommon trigram. A
//! term is then looked up in the contacts of its rarest trigram and checked in their texts the
//! way the database's `like` checks it: PostgreSQL's character by character, SQLite's with
//! ASCII letters of either case alike. The ids found go into the page's statement, which also
//! checks that the texts' version is still the database's: an answer is never made from older
//! texts (`search::page`).
//!
//! The texts are read in the background, at the first search and after a change (at most one
//! read at a time, and not more often than every fourth of the time the last one took); until
//! then, and for terms the texts cannot answer quickly, the search asks the database as before.
//! Memory: the texts (about 100 bytes per contact) and the ids of the contacts of each trigram
//! held by at most [`UNCOMMON_SHARE`] of them; none above [`MOST_TEXT_BYTES`].

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{Stream, TryStreamExt};
use rustc_hash::FxHashMap;

use crate::db::Db;
use crate::db_run;

/// A trigram held by more than this share of the rows is not kept with its rows (a term with
/// only such trigrams matches many, and the database answers it).
const UNCOMMON_SHARE: usize = 4;
/// The texts of more contacts than fit in this are not kept (the database answers).
const MOST_TEXT_BYTES: usize = 64 * 1024 * 1024;
/// More contacts than this found: the database answers, with the term (a list of ids this
/// long in a statement costs more than the lookup it spares).
const MOST_FOUND: usize = 5_000;
/// Candidates few enough to check their texts without narrowing them down further.
const FEW_CANDIDATES: usize = 32;
/// After a read that found too much, the next one waits this long.
const AFTER_FAILURE: Duration = Duration::from_secs(600);
/// After a read that failed (a lock, a lost connection), the next one waits this long.
const AFTER_ERROR: Duration = Duration::from_secs(30);

/// The searched texts at one version: the contacts' own, and their companies' names.
#[derive(Debug)]
pub(crate) struct ContactTexts {
    /// `data_version.contact_text_version` when the texts were read.
    pub(crate) version: i64,
    /// Whether ASCII letters are compared in either case (SQLite's `like`).
    ascii_case_blind: bool,
    /// Per contact (by id): its email, first and last name, customer number.
    contacts: TextTable,
    /// Per company (by customer number): its name. A company's name is kept once, not with
    /// each of its contacts, so its trigrams' lists are a quarter as long on `seed-large`.
    companies: TextTable,
    /// (customer number, contact id) of every contact, ascending.
    contacts_of_company: Vec<(i64, i64)>,
    /// Every contact's id in other orders, read when a deep page first asks (`orders`).
    pub(crate) orders: Arc<super::orders::KeptOrders>,
    /// The first texts read since the start: their orders are the first too, and a page
    /// waits for them ([`kept_waiting`]).
    pub(crate) first_since_start: bool,
}

/// What a lookup found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FoundInTexts {
    /// The ids of exactly the contacts whose texts hold the term, ascending.
    Ids(Vec<i64>),
    /// The term cannot be looked up here quickly (too short, only common trigrams, too many
    /// contacts found): the database answers it.
    Unanswered,
}

/// A contact's texts as [`ContactTexts::new`] takes them: its id, customer number, and email,
/// first name, last name and customer number as text, as the database's expressions give them
/// (`None`: no text).
pub(crate) type ContactRow = (i64, i64, [Option<String>; 4]);

impl ContactTexts {
    /// The texts of contacts (ascending by id) and of companies (customer number and name,
    /// ascending by customer number), or `None` when they do not fit in [`MOST_TEXT_BYTES`].
    /// Only contacts of a company given are found (the search joins the companies).
    pub(crate) fn new(
        version: i64,
        ascii_case_blind: bool,
        contacts: Vec<ContactRow>,
        companies: Vec<(i64, Option<String>)>,
    ) -> Option<ContactTexts> {
        let mut budget = MOST_TEXT_BYTES;
        let mut contacts_of_company: Vec<(i64, i64)> = contacts
            .iter()
            .map(|(id, number, _)| (*number, *id))
            .collect();
        contacts_of_company.sort_unstable();
        let contacts = TextTable::new(
            ascii_case_blind,
            contacts.into_iter().map(|(id, _, texts)| (id, texts)),
            &mut budget,
        )?;
        let companies = TextTable::new(
            ascii_case_blind,
            companies.into_iter().map(|(number, name)| (number, [name])),
            &mut budget,
        )?;
        Some(ContactTexts {
            version,
            ascii_case_blind,
            contacts,
            companies,
            contacts_of_company,
            orders: Default::default(),
            first_since_start: false,
        })
    }

    /// The contacts whose texts hold `literal` (the search term in lower case, as
    /// `db::sql::like_pattern` puts it between its wildcards).
    pub(crate) fn find(&self, literal: &str) -> FoundInTexts {
        let term: Vec<u8> = if self.ascii_case_blind {
            literal.bytes().map(|b| b.to_ascii_lowercase()).collect()
        } else {
            literal.as_bytes().to_vec()
        };
        if term.len() < 3 || term.contains(&0) {
            return FoundInTexts::Unanswered;
        }
        let (Some(mut ids), Some(numbers)) =
            (self.contacts.find(&term), self.companies.find(&term))
        else {
            return FoundInTexts::Unanswered;
        };
        for number in numbers {
            let from = self
                .contacts_of_company
                .partition_point(|(n, _)| *n < number);
            ids.extend(
                self.contacts_of_company[from..]
                    .iter()
                    .take_while(|(n, _)| *n == number)
                    .map(|(_, id)| *id),
            );
            if ids.len() > MOST_FOUND {
                return FoundInTexts::Unanswered;
            }
        }
        ids.sort_unstable();
        ids.dedup();
        FoundInTexts::Ids(ids)
    }

    /// Every contact's id, ascending.
    pub(crate) fn contact_ids(&self) -> &[i64] {
        &self.contacts.keys
    }

    /// About how many bytes the texts take (for the log).
    fn bytes(&self) -> usize {
        self.contacts.bytes() + self.companies.bytes() + self.contacts_of_company.len() * 16
    }

    /// How many contacts the texts hold.
    fn contacts(&self) -> usize {
        self.contacts.keys.len()
    }
}

/// Texts under keys, with the rows holding each uncommon trigram.
#[derive(Debug)]
struct TextTable {
    /// The rows' keys, ascending; a row's place here is its number below.
    keys: Vec<i64>,
    /// Where each row's texts start in `text` (one more entry than `keys`).
    starts: Vec<u32>,
    /// Every row's texts, each followed by a zero byte (no term holds one, so no term is
    /// found across two texts).
    text: Vec<u8>,
    /// Per trigram ([`trigram`]): in how many rows, and where its rows start in `rows`
    /// (`None`: too common to keep).
    trigrams: FxHashMap<u32, (u32, Option<u32>)>,
    /// The row numbers of each kept trigram, ascending.
    rows: Vec<u32>,
}

impl TextTable {
    /// The texts of rows given in ascending key order, or `None` when they take more than
    /// `budget` bytes (which they take off it).
    fn new<const N: usize>(
        ascii_case_blind: bool,
        rows: impl IntoIterator<Item = (i64, [Option<String>; N])>,
        budget: &mut usize,
    ) -> Option<TextTable> {
        let mut keys = Vec::new();
        let mut starts = vec![0u32];
        let mut text = Vec::new();
        for (key, fields) in rows {
            keys.push(key);
            for field in fields.iter().flatten() {
                let bytes = field.as_bytes();
                if bytes.contains(&0) {
                    // Unreachable for texts the portal writes; such a field can never hold a
                    // search term, so it is as good as empty.
                    continue;
                }
                if ascii_case_blind {
                    text.extend(bytes.iter().map(u8::to_ascii_lowercase));
                } else {
                    text.extend_from_slice(bytes);
                }
                text.push(0);
            }
            if text.len() > *budget {
                return None;
            }
            starts.push(u32::try_from(text.len()).ok()?);
        }
        *budget -= text.len();
        let mut table = TextTable {
            keys,
            starts,
            text,
            trigrams: FxHashMap::default(),
            rows: Vec::new(),
        };
        table.index_trigrams();
        Some(table)
    }

    fn text_of(&self, n: usize) -> &[u8] {
        &self.text[self.starts[n] as usize..self.starts[n + 1] as usize]
    }

    /// The trigrams of row `n`, each once.
    fn trigrams_of(&self, n: usize, into: &mut Vec<u32>) {
        into.clear();
        into.extend(
            self.text_of(n)
                .windows(3)
                .filter(|w| !w.contains(&0))
                .map(trigram),
        );
        into.sort_unstable();
        into.dedup();
    }

    /// Counts the rows of each trigram, then lists those of the uncommon ones (two passes, so
    /// that the lists take exactly their room).
    fn index_trigrams(&mut self) {
        let mut counts: FxHashMap<u32, u32> = FxHashMap::default();
        let mut trigrams = Vec::new();
        for n in 0..self.keys.len() {
            self.trigrams_of(n, &mut trigrams);
            for trigram in &trigrams {
                *counts.entry(*trigram).or_default() += 1;
            }
        }
        let most = (self.keys.len() / UNCOMMON_SHARE).max(1_000);
        let mut next = 0u32;
        self.trigrams = counts
            .into_iter()
            .map(|(trigram, count)| {
                let start = (count as usize <= most).then(|| {
                    let start = next;
                    next += count;
                    start
                });
                (trigram, (count, start))
            })
            .collect();
        let mut filled: FxHashMap<u32, u32> = FxHashMap::default();
        self.rows = vec![0; next as usize];
        for n in 0..self.keys.len() {
            self.trigrams_of(n, &mut trigrams);
            for trigram in &trigrams {
                if let Some((_, Some(start))) = self.trigrams.get(trigram) {
                    let at = filled.entry(*trigram).or_default();
                    self.rows[(*start + *at) as usize] = n as u32;
                    *at += 1;
                }
            }
        }
    }

    /// The keys of exactly the rows whose texts hold `term` (at least three bytes, no zero),
    /// ascending, or `None` when only common trigrams could find them or they are more than
    /// [`MOST_FOUND`].
    fn find(&self, term: &[u8]) -> Option<Vec<i64>> {
        // The kept lists of the term's trigrams, the shortest first.
        let mut lists: Vec<&[u32]> = Vec::new();
        for window in term.windows(3) {
            match self.trigrams.get(&trigram(window)) {
                None => return Some(Vec::new()),
                Some((count, Some(start))) => {
                    lists.push(&self.rows[*start as usize..(*start + *count) as usize]);
                }
                Some(_) => {}
            }
        }
        lists.sort_unstable_by_key(|list| list.len());
        lists.dedup_by_key(|list| list.as_ptr());
        let (first, others) = lists.split_first()?;
        // The rows in all of the shortest lists: a search in a longer list costs less than
        // checking the text of a row it rules out.
        let mut candidates = first.to_vec();
        for list in others.iter().take(4) {
            if candidates.len() <= FEW_CANDIDATES {
                break;
            }
            keep_shared(&mut candidates, list);
        }
        let finder = memchr::memmem::Finder::new(term);
        let mut keys = Vec::new();
        for n in candidates {
            if finder.find(self.text_of(n as usize)).is_some() {
                if keys.len() == MOST_FOUND {
                    return None;
                }
                keys.push(self.keys[n as usize]);
            }
        }
        Some(keys)
    }

    fn bytes(&self) -> usize {
        self.text.len() + self.keys.len() * 12 + self.rows.len() * 4 + self.trigrams.len() * 16
    }
}

/// Keeps the rows of `candidates` that are also in `list` (both ascending). Each is sought
/// from where the last one was found, in steps that double: as fast as a merge when the lists
/// are alike in length, as a binary search when `list` is far longer.
fn keep_shared(candidates: &mut Vec<u32>, list: &[u32]) {
    let mut at = 0;
    candidates.retain(|&n| {
        let rest = &list[at..];
        let mut bound = 1;
        while bound < rest.len() && rest[bound] < n {
            bound *= 2;
        }
        at += rest[..(bound + 1).min(rest.len())].partition_point(|&x| x < n);
        list.get(at) == Some(&n)
    });
}

/// Three bytes as one number (the key of [`ContactTexts::trigrams`]).
fn trigram(bytes: &[u8]) -> u32 {
    u32::from(bytes[0]) << 16 | u32::from(bytes[1]) << 8 | u32::from(bytes[2])
}

/// The texts of one database (one per pool, shared by its clones) and when to read them again.
#[derive(Debug, Default)]
pub struct KeptTexts {
    state: Mutex<TextsState>,
    /// The newest text version a request has seen (read with the data version on every
    /// request, so kept apart from the lock).
    seen: AtomicI64,
    /// Told when a read ends, for those who wait for it ([`kept_waiting`]).
    read_ended: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct TextsState {
    texts: Option<Arc<ContactTexts>>,
    reading: bool,
    /// No read starts before this.
    not_before: Option<Instant>,
}

impl KeptTexts {
    /// The kept texts unless a request has seen a newer version (then they would only cost a
    /// statement that finds them stale).
    fn current(&self, state: &TextsState) -> Option<Arc<ContactTexts>> {
        let seen = self.seen.load(Ordering::Relaxed);
        state.texts.clone().filter(|texts| texts.version >= seen)
    }
}

/// The kept texts of `db`, if any: a search uses them when its statement finds their version
/// still current. Starts a read when there are none yet or a newer version was seen.
pub(crate) fn kept(db: &Db) -> Option<Arc<ContactTexts>> {
    let kept = &db.search_aids().contact_texts;
    let mut state = kept.state.lock().unwrap_or_else(|e| e.into_inner());
    read_if_due(db, kept, &mut state);
    kept.current(&state)
}

/// [`kept`], but when the first read since the start is under way (started now or before) it
/// waits for it, at most `within`: a page the database can only answer by sorting every
/// contact (100 ms and more on `seed-large`) waits for the one read rather than many such
/// statements slowing it down (after a start, 50 clients asking sorted pages got 5 answers a
/// second until it ended). A read after a change does not make anyone wait: a single
/// user's page is quicker from the database (115 ms) than the read (2 s).
pub(crate) async fn kept_waiting(db: &Db, within: Duration) -> Option<Arc<ContactTexts>> {
    let kept = &db.search_aids().contact_texts;
    let ended = kept.read_ended.notified();
    tokio::pin!(ended);
    {
        let mut state = kept.state.lock().unwrap_or_else(|e| e.into_inner());
        read_if_due(db, kept, &mut state);
        if let Some(texts) = kept.current(&state) {
            return Some(texts);
        }
        if !state.reading || state.texts.is_some() {
            return None;
        }
        // Under the lock: a read that ends after this tells this waiter.
        ended.as_mut().enable();
    }
    let _ = tokio::time::timeout(within, ended).await;
    let state = kept.state.lock().unwrap_or_else(|e| e.into_inner());
    kept.current(&state)
}

/// Notes the text version a request read with the data version: newer than any seen before,
/// it starts a read of the kept texts.
pub(crate) fn seen(db: &Db, version: i64) {
    let kept = &db.search_aids().contact_texts;
    if kept.seen.fetch_max(version, Ordering::Relaxed) >= version {
        return;
    }
    let mut state = kept.state.lock().unwrap_or_else(|e| e.into_inner());
    // Only once texts were asked for: an installation nobody searches keeps none.
    if state.texts.is_some() {
        read_if_due(db, kept, &mut state);
    }
}

fn read_if_due(db: &Db, kept: &KeptTexts, state: &mut TextsState) {
    let fresh = kept.current(state).is_some();
    if state.reading || fresh || state.not_before.is_some_and(|t| Instant::now() < t) {
        return;
    }
    state.reading = true;
    let db = db.clone();
    tokio::spawn(async move {
        let started = Instant::now();
        let read = read(&db).await;
        let took = started.elapsed();
        let kept = &db.search_aids().contact_texts;
        let mut state = kept.state.lock().unwrap_or_else(|e| e.into_inner());
        state.reading = false;
        match read {
            Ok(Some(mut texts)) => {
                texts.first_since_start = state.texts.is_none();
                tracing::info!(
                    version = texts.version,
                    contacts = texts.contacts(),
                    bytes = texts.bytes(),
                    ms = took.as_millis() as u64,
                    "contact texts read"
                );
                // A read takes at most a fifth of the time.
                state.not_before = Some(Instant::now() + took * 4);
                state.texts = Some(Arc::new(texts));
            }
            Ok(None) => {
                tracing::info!("contact texts too large to keep: the database answers searches");
                state.not_before = Some(Instant::now() + AFTER_FAILURE);
                state.texts = None;
            }
            Err(error) => {
                tracing::warn!(%error, "contact texts not read");
                state.not_before = Some(Instant::now() + AFTER_ERROR);
            }
        }
        drop(state);
        kept.read_ended.notify_waiters();
    });
}

/// Reads the texts now and keeps them (the tests' way to be sure a search uses them).
#[cfg(test)]
pub(crate) async fn read_now(db: &Db) {
    let texts = read(db).await.unwrap().unwrap();
    let kept = &db.search_aids().contact_texts;
    let mut state = kept.state.lock().unwrap_or_else(|e| e.into_inner());
    state.texts = Some(Arc::new(texts));
}

/// The texts as they are now: the version and the texts in one snapshot (a transaction;
/// repeatable read on PostgreSQL), or `None` when they take more than [`MOST_TEXT_BYTES`]
/// (found while reading, before more rows are held).
async fn read(db: &Db) -> Result<Option<ContactTexts>, sqlx::Error> {
    const VERSION: &str = "select contact_text_version from data_version where id = 1";
    // The expressions of the search's own `like`s (`search::filtered`), and its join.
    const CONTACTS: &str = "select c.id, c.customer_number, c.email, lower(c.firstname), \
         lower(c.lastname), cast(c.customer_number as text) \
         from contacts c join companies co on co.customer_number = c.customer_number \
         order by c.id";
    const COMPANIES: &str =
        "select customer_number, lower(company_name) from companies order by customer_number";
    type Row = (
        i64,
        i64,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    type Company = (i64, Option<String>);
    let text_len = |texts: &[&Option<String>]| {
        texts
            .iter()
            .map(|t| t.as_ref().map_or(0, String::len))
            .sum::<usize>()
    };
    // A read in the background waits for no lock (a migration, an import): it tries again
    // later, and the searches ask the database meanwhile.
    let setup: &[&str] = match db.backend() {
        crate::db::Backend::Sqlite => &[],
        crate::db::Backend::Postgres => &[
            "set transaction isolation level repeatable read, read only",
            "set local lock_timeout = '1s'",
        ],
    };
    let mut budget = MOST_TEXT_BYTES;
    let read = db_run!(db, pool => async {
        let mut tx = pool.begin().await?;
        for sql in setup {
            sqlx::query(sql).execute(&mut *tx).await?;
        }
        let version: i64 = sqlx::query_scalar(VERSION).fetch_one(&mut *tx).await?;
        let Some(contacts) = within(
            sqlx::query_as::<_, Row>(CONTACTS).fetch(&mut *tx),
            &mut budget,
            |row| text_len(&[&row.2, &row.3, &row.4, &row.5]),
        )
        .await?
        else {
            return Ok(None);
        };
        let Some(companies) = within(
            sqlx::query_as::<_, Company>(COMPANIES).fetch(&mut *tx),
            &mut budget,
            |company| text_len(&[&company.1]),
        )
        .await?
        else {
            return Ok(None);
        };
        tx.commit().await?;
        Ok::<_, sqlx::Error>(Some((version, contacts, companies)))
    }
    .await)?;
    let Some((version, contacts, companies)) = read else {
        return Ok(None);
    };
    let ascii_case_blind = db.backend() == crate::db::Backend::Sqlite;
    Ok(tokio::task::spawn_blocking(move || {
        let contacts = contacts
            .into_iter()
            .map(|(id, number, a, b, c, d)| (id, number, [a, b, c, d]))
            .collect();
        ContactTexts::new(version, ascii_case_blind, contacts, companies)
    })
    .await
    .ok()
    .flatten())
}

/// The rows of `rows` while their texts (`len`) fit in `budget` (which they take off it), or
/// `None` once they do not.
async fn within<R>(
    rows: impl Stream<Item = Result<R, sqlx::Error>>,
    budget: &mut usize,
    len: impl Fn(&R) -> usize,
) -> Result<Option<Vec<R>>, sqlx::Error> {
    let mut rows = std::pin::pin!(rows);
    let mut kept = Vec::new();
    while let Some(row) = rows.try_next().await? {
        let Some(left) = budget.checked_sub(len(&row)) else {
            return Ok(None);
        };
        *budget = left;
        kept.push(row);
    }
    Ok(Some(kept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Contacts as (id, email, first name, last name, customer number, company name).
    fn texts(case_blind: bool, rows: &[(i64, &str, &str, &str, i64, &str)]) -> ContactTexts {
        let contacts = rows
            .iter()
            .map(|(id, email, first, last, number, _)| {
                let texts = [*email, *first, *last, &number.to_string()];
                (*id, *number, texts.map(|t| Some(t.to_string())))
            })
            .collect();
        let mut companies: Vec<(i64, Option<String>)> = rows
            .iter()
            .map(|(_, _, _, _, number, name)| (*number, Some(name.to_string())))
            .collect();
        companies.sort();
        companies.dedup();
        ContactTexts::new(1, case_blind, contacts, companies).unwrap()
    }

    #[tokio::test]
    async fn rows_are_read_only_while_their_texts_fit() {
        let rows = || futures_util::stream::iter(["abc", "defg", "hi"].map(Ok::<_, sqlx::Error>));
        let mut budget = 9;
        let read = within(rows(), &mut budget, |row| row.len()).await.unwrap();
        assert_eq!(read, Some(vec!["abc", "defg", "hi"]));
        assert_eq!(budget, 0);
        let mut budget = 8;
        assert_eq!(
            within(rows(), &mut budget, |row| row.len()).await.unwrap(),
            None
        );
    }

    #[test]
    fn the_rows_in_both_lists_are_kept() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..200 {
            let mut list = |most: u32| {
                let mut list: Vec<u32> = (0..rng.gen_range(0..60))
                    .map(|_| rng.gen_range(0..most))
                    .collect();
                list.sort_unstable();
                list.dedup();
                list
            };
            let (mut candidates, other) = (list(100), list(400));
            let expected: Vec<u32> = candidates
                .iter()
                .copied()
                .filter(|n| other.contains(n))
                .collect();
            keep_shared(&mut candidates, &other);
            assert_eq!(candidates, expected);
        }
    }

    #[test]
    fn finds_exactly_the_contacts_holding_the_term_within_one_text() {
        let t = texts(
            false,
            &[
                (3, "anna@beispiel.de", "anna", "weber", 100, "weber gmbh"),
                (
                    7,
                    "bernd@beispiel.de",
                    "bernd",
                    "schmidt",
                    200,
                    "schmidt ag",
                ),
                (9, "Carla@Beispiel.de", "carla", "weber", 300, "c gmbh"),
                (11, "dora@beispiel.de", "dora", "kurz", 100, "weber gmbh"),
            ],
        );
        assert_eq!(t.find("weber"), FoundInTexts::Ids(vec![3, 9, 11]));
        // By the company's name, every contact of the company.
        assert_eq!(t.find("weber gmbh"), FoundInTexts::Ids(vec![3, 11]));
        assert_eq!(t.find("gmbh"), FoundInTexts::Ids(vec![3, 9, 11]));
        // Not across two texts of a contact (last name, then customer number).
        assert_eq!(t.find("weber100"), FoundInTexts::Ids(vec![]));
        // PostgreSQL compares the email as it is: the lower-case term misses "Carla@".
        assert_eq!(t.find("carla@"), FoundInTexts::Ids(vec![]));
        assert_eq!(t.find("xyz"), FoundInTexts::Ids(vec![]));
        // Too short to look up: the database answers.
        assert_eq!(t.find("we"), FoundInTexts::Unanswered);
    }

    #[test]
    fn sqlite_compares_ascii_letters_in_either_case_and_other_letters_as_they_are() {
        let t = texts(
            true,
            &[
                (1, "Carla@Beispiel.de", "carla", "mÜller", 1, "X"),
                (2, "d@e.de", "dora", "müller", 2, "Y"),
            ],
        );
        assert_eq!(t.find("carla@"), FoundInTexts::Ids(vec![1]));
        // SQLite's lower() leaves "Ü" as it is, and its `like` tells "Ü" from "ü".
        assert_eq!(t.find("müller"), FoundInTexts::Ids(vec![2]));
    }

    /// `n` contacts, each of its own company, with `email(id)` and the company `company(id)`.
    fn many(
        n: i64,
        email: impl Fn(i64) -> String,
        company: impl Fn(i64) -> String,
    ) -> ContactTexts {
        let contacts = (1..=n)
            .map(|id| (id, id, [Some(email(id)), None, None, None]))
            .collect();
        let companies = (1..=n).map(|id| (id, Some(company(id)))).collect();
        ContactTexts::new(1, false, contacts, companies).unwrap()
    }

    #[test]
    fn common_trigrams_alone_leave_the_term_to_the_database() {
        let t = many(
            20_000,
            |id| format!("kontakt{id:06}@kunde.de"),
            |id| format!("firma {}", id % 3),
        );
        assert_eq!(t.find("kontakt"), FoundInTexts::Unanswered);
        assert_eq!(t.find("kontakt012345"), FoundInTexts::Ids(vec![12_345]));
        assert_eq!(t.find("@kunde.de"), FoundInTexts::Unanswered);
        assert_eq!(t.find("19999@"), FoundInTexts::Ids(vec![19_999]));
        // Common in the company names only.
        assert_eq!(t.find("firma"), FoundInTexts::Unanswered);
    }

    #[test]
    fn too_many_contacts_found_leave_the_term_to_the_database() {
        let t = many(
            200_000,
            |id| {
                let tag = if id % 30 == 0 { "selten" } else { "oft" };
                format!("{tag}{}", id % 7)
            },
            |_| "firma".to_string(),
        );
        // "selten" is in 6,666 contacts: more than the statement takes.
        assert_eq!(t.find("selten"), FoundInTexts::Unanswered);
        match t.find("selten3") {
            FoundInTexts::Ids(ids) => {
                assert_eq!(
                    ids,
                    (1..=200_000)
                        .filter(|id| id % 210 == 150)
                        .collect::<Vec<_>>()
                )
            }
            FoundInTexts::Unanswered => panic!("952 contacts are few enough"),
        }
    }
}
