//! How many rows of the contact and company search tables hold each trigram, so that a search
//! looks up the rare trigrams of its term first (issue 41).
//!
//! SQLite's FTS5 answers `text like '%term%'` by reading the rows of every trigram of the term
//! and checking the term in the rows all of them share; pg_trgm's GIN index does the same. The
//! common trigrams of a company name ("sch", "ber", "ung") are in a large part of all rows, its
//! rare ones ("t e" of "Schmidt Energieberatung") in a few. Reading only the rarest and checking
//! the whole term in the rows found (`(text || '') like …`, the check both leave to the
//! database for their own `like` too) is the same answer from far fewer entries. The counts come
//! from each FTS5 table's `_vocab` table (migration 0028) and, on PostgreSQL, from `show_trgm`
//! over the company names. They are read in the background at first use and again when older
//! than [`FRESH_FOR`]; they only steer the speed: a stale or missing count never changes an
//! answer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::db::Db;

/// Counts older than this are read again (in the background; the old ones serve meanwhile).
const FRESH_FOR: Duration = Duration::from_secs(600);
/// At most this many trigrams are counted per table, so that the memory stays bounded whatever
/// the data; one not counted is taken as rare, which costs speed at most.
const MOST_COUNTED: i64 = 1_000_000;

/// What looking up a piece and checking a row cost, per database.
#[derive(Clone, Copy, Debug)]
struct Costs {
    /// About how many index entries are read in the time one row is checked (the row read and
    /// the term matched): a further piece is looked up only when the checks it spares cost more
    /// than reading its rows.
    reads_per_check: f64,
    /// Rows few enough to check one by one: no further piece is looked up once those chosen
    /// are expected in at most this many rows together.
    few_rows: f64,
    /// At most this many pieces of a term are looked up.
    most: usize,
    /// Only trigrams of three ASCII letters or digits are pieces: pg_trgm indexes the words of
    /// a text, so `like '%t e%'` is no lookup of one trigram there, and it keeps trigrams with
    /// other characters as hashes `show_trgm` cannot name.
    word_trigrams_only: bool,
}

/// SQLite's FTS5 (`perf`: `fts5SegIterNext_None` against the row lookups; 1 µs per row).
const SQLITE: Costs = Costs {
    reads_per_check: 50.0,
    few_rows: 64.0,
    most: 3,
    word_trigrams_only: false,
};

/// PostgreSQL's GIN index: three posting lists of 5,000–10,000 entries read in 0.3 ms, a row
/// rechecked on the heap in about 7 µs (`EXPLAIN (ANALYZE, BUFFERS)` on `seed-large`).
const POSTGRES: Costs = Costs {
    reads_per_check: 400.0,
    few_rows: 16.0,
    most: 4,
    word_trigrams_only: true,
};

/// The search tables whose trigrams are counted: SQLite's FTS5 tables, and on PostgreSQL the
/// company names (pg_trgm's index of `lower(company_name)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SearchTable {
    /// `contact_search`: a contact's email, names and customer number.
    Contacts,
    /// `company_search`: a company's name, by customer number.
    Companies,
    /// `package_name_search` (SQLite only): a package's name, by package id.
    PackageNames,
    /// `package_file_search` (SQLite only): a package's file names, by package id.
    PackageFiles,
}

impl SearchTable {
    /// The FTS5 table (on PostgreSQL only the name in log lines).
    pub(crate) fn name(self) -> &'static str {
        match self {
            SearchTable::Contacts => "contact_search",
            SearchTable::Companies => "company_search",
            SearchTable::PackageNames => "package_name_search",
            SearchTable::PackageFiles => "package_file_search",
        }
    }

    fn vocabulary(self) -> &'static str {
        match self {
            SearchTable::Contacts => "contact_search_vocab",
            SearchTable::Companies => "company_search_vocab",
            SearchTable::PackageNames => "package_name_search_vocab",
            SearchTable::PackageFiles => "package_file_search_vocab",
        }
    }
}

/// The counts of one database's search tables (one per pool, shared by its clones).
#[derive(Debug, Default)]
pub struct TrigramCounts {
    tables: Mutex<HashMap<SearchTable, TableCounts>>,
}

/// A table's rows, and how many of them hold each trigram.
#[derive(Debug, Default)]
struct TrigramRows {
    rows: u64,
    by_trigram: HashMap<String, u64>,
}

#[derive(Debug, Default)]
struct TableCounts {
    counts: Option<Arc<TrigramRows>>,
    /// When the last read started: the next one starts [`FRESH_FOR`] later, also after a read
    /// that failed (the searches look up whole terms meanwhile), so no search waits or retries.
    started_at: Option<Instant>,
}

/// The `like` patterns of the rarest trigrams of `term` (lower-case, at least three
/// characters, no wildcard) in `table`: the rows holding all of them are a superset of the
/// rows holding the term. `None` while the counts are not read yet, and on PostgreSQL for the
/// contacts' own fields (several indexed columns, each with its own trigrams).
pub(crate) fn rare_patterns(db: &Db, table: SearchTable, term: &str) -> Option<Vec<String>> {
    let costs = match db {
        Db::Sqlite(..) => SQLITE,
        Db::Postgres(..) if table == SearchTable::Companies => POSTGRES,
        Db::Postgres(..) => return None,
    };
    let counts = counts_of(db, table)?;
    Some(lookup(term, &counts, costs).patterns)
}

/// About how many rows of SQLite's `table` hold `term` (lower-case, at least three characters,
/// no wildcard), from the counts of its rarest trigrams, and how many rows it has: `None` on
/// PostgreSQL and while the counts are not read yet. A list of a few hundred packages checks a
/// common term in its own rows faster than the trigram table hands over every row holding it.
pub(crate) fn expected_rows(db: &Db, table: SearchTable, term: &str) -> Option<(f64, f64)> {
    match db {
        Db::Sqlite(..) => {
            let counts = counts_of(db, table)?;
            let holding = lookup(term, &counts, SQLITE).expected_rows;
            Some((holding, counts.rows as f64))
        }
        Db::Postgres(..) => None,
    }
}

/// The counts of `table`, `None` while not read yet; starts a read in the background when
/// there are none or they are older than [`FRESH_FOR`].
fn counts_of(db: &Db, table: SearchTable) -> Option<Arc<TrigramRows>> {
    let counted = &db.search_aids().trigrams;
    let mut tables = counted.tables.lock().unwrap_or_else(|e| e.into_inner());
    let entry = tables.entry(table).or_default();
    if entry.started_at.is_none_or(|at| at.elapsed() > FRESH_FOR) {
        entry.started_at = Some(Instant::now());
        let db = db.clone();
        tokio::spawn(async move { read(&db, table).await });
    }
    entry.counts.clone()
}

/// Reads the counts of `table` now (the tests' way to be sure the counts steer a search).
#[cfg(test)]
pub(crate) async fn read_now(db: &Db, table: SearchTable) {
    read(db, table).await;
}

async fn read(db: &Db, table: SearchTable) {
    let read = async {
        let (rows, by_trigram): (i64, Vec<(String, i64)>) = match db {
            Db::Sqlite(pool, _) => {
                let rows = sqlx::query_scalar(&format!("select count(*) from {}", table.name()))
                    .fetch_one(pool)
                    .await?;
                let sql = format!(
                    "select term, doc from {} limit {MOST_COUNTED}",
                    table.vocabulary()
                );
                (rows, sqlx::query_as(&sql).fetch_all(pool).await?)
            }
            // The trigrams pg_trgm's index holds for each name (migration 0010), in how many
            // names each: 0.5 s for 50,000 names. Padded ones (word starts and ends) and hashed
            // ones are never a piece.
            Db::Postgres(pool, _) => {
                let rows = sqlx::query_scalar("select count(*) from companies")
                    .fetch_one(pool)
                    .await?;
                let sql = format!(
                    "select t, count(*) from companies, \
                     unnest(show_trgm(lower(company_name))) t \
                     where t ~ '^[a-z0-9]{{3}}$' group by t limit {MOST_COUNTED}"
                );
                (rows, sqlx::query_as(&sql).fetch_all(pool).await?)
            }
        };
        let by_trigram = by_trigram
            .into_iter()
            .map(|(term, rows)| (term, u64::try_from(rows).unwrap_or(0)))
            .collect();
        let rows = u64::try_from(rows).unwrap_or(0);
        Ok::<_, sqlx::Error>(TrigramRows { rows, by_trigram })
    };
    let counted = &db.search_aids().trigrams;
    match read.await {
        Ok(counts) => {
            let mut tables = counted.tables.lock().unwrap_or_else(|e| e.into_inner());
            tables.entry(table).or_default().counts = Some(Arc::new(counts));
        }
        Err(error) => tracing::warn!(%error, table = table.name(), "trigram counts not read"),
    }
}

/// A part of the term the index can look up: one trigram, or a run of digits (all its
/// trigrams).
struct TermPiece {
    /// Its characters in the term, `start..end`.
    start: usize,
    end: usize,
    /// The run of letters or digits it lies in, `None` when it spans two or a separator.
    word: Option<usize>,
    /// The rows expected to hold it, and the index entries read to find them.
    rows: f64,
    reads: f64,
}

/// The pieces of a term to look up first, and how many rows are expected to hold them all.
struct TrigramLookup {
    patterns: Vec<String>,
    expected_rows: f64,
}

/// The pieces of `term` to look up first, as `like` patterns: from the rarest on, while the
/// rows a piece spares checking cost more than reading its own, until those chosen are expected
/// in few rows together or the most of `costs` are chosen, each text once.
///
/// Pieces are taken as independent unless they overlap or lie in the same word: the trigrams of
/// a word ("chn", "eid" of "schneider") are in nearly the same rows, while those of two words
/// or across a separator ("r-s", "t e") narrow each other down. A run of four or more digits
/// is one piece (its digits are as good as independent: each one narrows a number by a tenth).
/// A trigram not counted is in no row (or beyond the counted ones) and comes first.
fn lookup(term: &str, counts: &TrigramRows, costs: Costs) -> TrigramLookup {
    let chars: Vec<char> = term.chars().collect();
    let all = counts.rows.max(1) as f64;
    let rows_of = |at: usize| {
        let trigram: String = chars[at..at + 3].iter().collect();
        (counts.by_trigram.get(&trigram).copied().unwrap_or(0) as f64).min(all)
    };
    // The run of letters or of digits each character is in.
    let class = |c: char| {
        if c.is_alphabetic() {
            1
        } else if c.is_numeric() {
            2
        } else {
            0
        }
    };
    let mut word_of = vec![None; chars.len()];
    let mut word = 0;
    for at in 0..chars.len() {
        if at > 0 && class(chars[at]) != class(chars[at - 1]) {
            word += 1;
        }
        word_of[at] = (class(chars[at]) != 0).then_some(word);
    }
    let mut pieces: Vec<TermPiece> = (0..chars.len().saturating_sub(2))
        .filter(|at| {
            !costs.word_trigrams_only
                || chars[*at..*at + 3]
                    .iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
        .map(|at| {
            let rows = rows_of(at);
            let word = word_of[at].filter(|w| word_of[at + 2] == Some(*w));
            TermPiece {
                start: at,
                end: at + 3,
                word,
                rows,
                reads: rows,
            }
        })
        .collect();
    let digits = word_of
        .iter()
        .enumerate()
        .filter(|(at, _)| chars[*at].is_ascii_digit())
        .fold(Vec::<(usize, usize)>::new(), |mut runs, (at, _)| {
            match runs.last_mut() {
                Some((_, end)) if *end == at => *end = at + 1,
                _ => runs.push((at, at + 1)),
            }
            runs
        });
    for (start, end) in digits.into_iter().filter(|(start, end)| end - start >= 4) {
        let trigrams = (start..end - 2).map(rows_of);
        let fewest = trigrams.clone().fold(all, f64::min);
        let tenths = i32::try_from(end - start - 3).unwrap_or(i32::MAX);
        pieces.push(TermPiece {
            start,
            end,
            word: None,
            rows: fewest * 0.1_f64.powi(tenths),
            reads: trigrams.sum(),
        });
    }
    pieces.sort_by(|a, b| a.rows.total_cmp(&b.rows).then(a.start.cmp(&b.start)));
    let mut chosen: Vec<&TermPiece> = Vec::new();
    let mut expected = all;
    for piece in &pieces {
        if chosen.len() == costs.most || expected <= costs.few_rows {
            break;
        }
        let related = chosen.iter().any(|other| {
            (piece.start < other.end && other.start < piece.end)
                || (piece.word.is_some() && piece.word == other.word)
                || chars[piece.start..piece.end] == chars[other.start..other.end]
        });
        let after = expected * piece.rows / all;
        if !chosen.is_empty()
            && (related || piece.reads / costs.reads_per_check >= expected - after)
        {
            continue;
        }
        chosen.push(piece);
        expected = after;
    }
    let patterns = chosen
        .into_iter()
        .map(|piece| {
            format!(
                "%{}%",
                chars[piece.start..piece.end].iter().collect::<String>()
            )
        })
        .collect();
    TrigramLookup {
        patterns,
        expected_rows: expected,
    }
}

#[cfg(test)]
mod tests {
    use super::{Costs, POSTGRES, SQLITE, TrigramRows, lookup};

    fn rarest(term: &str, counts: &TrigramRows, costs: Costs) -> Vec<String> {
        lookup(term, counts, costs).patterns
    }

    fn counts(rows: u64, pairs: &[(&str, u64)]) -> TrigramRows {
        let by_trigram = pairs.iter().map(|(t, n)| (t.to_string(), *n)).collect();
        TrigramRows { rows, by_trigram }
    }

    /// The trigram counts of `seed-large`'s 50,000 companies for the words used here.
    fn companies() -> TrigramRows {
        let mut pairs = vec![
            ("r-s", 7_875),
            ("-sc", 14_250),
            ("er-", 26_125),
            ("r &", 5_500),
            (" & ", 10_000),
            ("& p", 10_000),
            (" pa", 10_000),
            ("er ", 33_440),
            ("t e", 1_065),
            ("dt ", 2_500),
            (" en", 10_000),
        ];
        for word in [
            "schneider",
            "schäfer",
            "partner",
            "weber",
            "schmidt",
            "energieberatung",
        ] {
            let chars: Vec<char> = word.chars().collect();
            for window in chars.windows(3) {
                let trigram: String = window.iter().collect();
                let rows = if word == "partner" || word == "energieberatung" {
                    10_000
                } else {
                    4_875
                };
                pairs.push((Box::leak(trigram.into_boxed_str()), rows));
            }
        }
        pairs.push(("sch", 28_875));
        counts(50_000, &pairs)
    }

    #[test]
    fn one_trigram_per_word_and_those_across_words_are_chosen() {
        // One of each name and one across the names; the other trigrams of "schneider" are in
        // the same rows as "chn".
        assert_eq!(
            rarest("schneider-schäfer & partner", &companies(), SQLITE),
            ["%chn%", "%chä%", "%r &%"]
        );
        // "t e" across the words; "dt " overlaps it; "r-s" would spare less than it reads.
        assert_eq!(
            rarest("weber-schmidt energieberatung", &companies(), SQLITE),
            ["%t e%", "%web%"]
        );
    }

    #[test]
    fn postgresql_looks_up_trigrams_within_words_only() {
        // pg_trgm's index holds the trigrams of words: "t e" and "r-s" are none; one trigram
        // of each word narrows the rows down (three are few rows enough here).
        assert_eq!(
            rarest("weber-schmidt energieberatung", &companies(), POSTGRES),
            ["%web%", "%chm%", "%ene%"]
        );
        // Umlauts are stored as hashes: "chä" is no piece; "fer" is the rarest of "schäfer".
        assert_eq!(
            rarest("schneider-schäfer & partner", &companies(), POSTGRES),
            ["%chn%", "%fer%", "%par%"]
        );
    }

    #[test]
    fn a_run_of_digits_is_one_piece() {
        let counts = counts(
            200_000,
            &[
                ("kon", 200_000),
                ("ont", 200_000),
                ("nta", 200_000),
                ("tak", 200_000),
                ("akt", 200_000),
                ("kt0", 99_999),
                ("t05", 10_000),
                ("054", 1_400),
                ("543", 1_390),
                ("432", 1_410),
                ("321", 1_420),
            ],
        );
        assert_eq!(rarest("kontakt054321", &counts, SQLITE), ["%054321%"]);
        assert_eq!(rarest("054321", &counts, SQLITE), ["%054321%"]);
    }

    #[test]
    fn a_piece_is_looked_up_only_while_it_spares_more_than_it_reads() {
        let common = counts(200_000, &[("kon", 200_000), ("akt", 150_000)]);
        assert_eq!(
            rarest("kontakt", &common, SQLITE),
            ["%ont%"],
            "not counted: in no row"
        );
        let counted = counts(
            200_000,
            &[
                ("kon", 200_000),
                ("ont", 200_000),
                ("nta", 200_000),
                ("tak", 200_000),
                ("akt", 150_000),
            ],
        );
        assert_eq!(
            rarest("kontakt", &counted, SQLITE),
            ["%akt%"],
            "one is always looked up"
        );
        let words = counts(
            1_000_000,
            &[
                ("abc", 100_000),
                ("bc-", 100_000),
                ("c-d", 100_000),
                ("-de", 100_000),
                ("def", 100_000),
                ("ef-", 100_000),
                ("f-g", 100_000),
                ("-gh", 100_000),
                ("ghi", 100_000),
            ],
        );
        assert_eq!(
            rarest("abc-def-ghi", &words, SQLITE),
            ["%abc%", "%-de%", "%f-g%"],
            "at most three"
        );
    }

    #[test]
    fn a_trigram_in_no_row_is_enough_and_short_terms_have_none() {
        let counts = counts(
            10_000,
            &[("abc", 10), ("bcd", 5_000), ("cde", 5_000), ("def", 7)],
        );
        assert_eq!(rarest("abcdef", &counts, SQLITE), ["%def%"]);
        assert_eq!(rarest("abcdefx", &counts, SQLITE), ["%efx%"]);
        assert_eq!(rarest("ab", &counts, SQLITE), Vec::<String>::new());
    }

    #[test]
    fn umlauts_are_one_character_each() {
        let counts = counts(
            1_000,
            &[("mül", 3), ("üll", 100), ("lle", 90), ("ler", 200)],
        );
        assert_eq!(rarest("müller", &counts, SQLITE), ["%mül%"]);
    }
}
