//! Download statistics (issue 24): what a delivery counts as, how many bytes of each file it
//! sent, the distinct customers of a day as an anonymous sketch, the date range a report
//! covers, and CSV cells German Excel opens safely.

use chrono::{Datelike, Duration, NaiveDate};

use super::time::parse_day;

/// What one delivered file counts as. HEAD and 304 answers count as nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeliveryKind {
    /// The answer starts at byte 0 of the file (or of the ZIP holding it).
    Download,
    /// A Range request that goes on later in the file (or ZIP): not a new download.
    Resumption,
}

impl DeliveryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryKind::Download => "download",
            DeliveryKind::Resumption => "resumption",
        }
    }
}

/// How a delivery came to the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// `/files/{id}/{name}`.
    File,
    /// `/api/download/{id}/zip`.
    PackageZip,
    /// `/api/downloads/zip?files=…`.
    SelectionZip,
    /// Any of them, of a package whose mail's link ("Zum Paket") the user followed in the same
    /// visit (issue 37): what the mail brought counts here, not as a file or ZIP.
    Mail,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::File => "file",
            Channel::PackageZip => "package_zip",
            Channel::SelectionZip => "selection_zip",
            Channel::Mail => "mail",
        }
    }

    /// Whether a stored channel is one of the ZIPs.
    pub fn is_zip(channel: &str) -> bool {
        channel == Channel::PackageZip.as_str() || channel == Channel::SelectionZip.as_str()
    }
}

/// How the delivery of one file ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeliveryOutcome {
    /// Every byte of the file the request asked for went out.
    Complete,
    /// The connection ended (or failed) before.
    Aborted,
}

impl DeliveryOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryOutcome::Complete => "complete",
            DeliveryOutcome::Aborted => "aborted",
        }
    }
}

/// One file's bytes within an answer's whole body (for a ZIP: its entry's data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub from: u64,
    pub to: u64,
}

/// What an answer that covered `requested` (a half-open byte range of the whole body) and
/// sent `sent` bytes of it did for the file at `span`: `None` when the request did not touch
/// the file, else its kind, the file's bytes sent, and how it ended.
pub fn file_share(
    span: Span,
    requested: Span,
    sent: u64,
) -> Option<(DeliveryKind, u64, DeliveryOutcome)> {
    let from = span.from.max(requested.from);
    let to = span.to.min(requested.to);
    // An empty file counts when the answer reaches it.
    let touches = from < to
        || (span.from == span.to && requested.from <= span.from && span.to <= requested.to);
    if !touches {
        return None;
    }
    let kind = if requested.from == 0 {
        DeliveryKind::Download
    } else {
        DeliveryKind::Resumption
    };
    let reached = requested.from.saturating_add(sent);
    let bytes = reached.min(to).saturating_sub(from);
    let outcome = if reached >= to {
        DeliveryOutcome::Complete
    } else {
        DeliveryOutcome::Aborted
    };
    Some((kind, bytes, outcome))
}

/// The distinct customers of a day, kept without their numbers: a HyperLogLog sketch with
/// 4,096 one-byte registers. Sketches of several days merge into the distinct customers of the
/// whole range, which a sum of daily counts would overstate. Up to a few thousand customers
/// the estimate is within a customer or two; beyond, within about 1.6 %.
///
/// Why a sketch: the events that name a customer are deleted after `AP_STATS_PERSONAL_DAYS`,
/// and "how many dealers took it" must still be answerable for a year from roll-ups alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sketch {
    registers: Vec<u8>,
}

const SKETCH_BITS: u32 = 12;
const SKETCH_REGISTERS: usize = 1 << SKETCH_BITS;
const SPARSE: u8 = 1;
const DENSE: u8 = 2;

impl Default for Sketch {
    fn default() -> Self {
        Sketch {
            registers: vec![0; SKETCH_REGISTERS],
        }
    }
}

/// SplitMix64's finaliser: a fixed, well-mixed hash, the same on every instance and version.
fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Sketch {
    pub fn add(&mut self, customer_number: i64) {
        let hash = mix(customer_number as u64);
        let index = (hash >> (64 - SKETCH_BITS)) as usize;
        // The rank of the first 1 bit after the index bits (a guard bit ends the count).
        let rest = (hash << SKETCH_BITS) | (1 << (SKETCH_BITS - 1));
        let rank = rest.leading_zeros() as u8 + 1;
        if rank > self.registers[index] {
            self.registers[index] = rank;
        }
    }

    pub fn merge(&mut self, other: &Sketch) {
        for (mine, theirs) in self.registers.iter_mut().zip(&other.registers) {
            *mine = (*mine).max(*theirs);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.registers.iter().all(|r| *r == 0)
    }

    /// The estimated number of distinct customers added.
    pub fn estimate(&self) -> i64 {
        let m = SKETCH_REGISTERS as f64;
        let zeros = self.registers.iter().filter(|r| **r == 0).count();
        if zeros == SKETCH_REGISTERS {
            return 0;
        }
        let sum: f64 = self
            .registers
            .iter()
            .map(|r| 2f64.powi(-i32::from(*r)))
            .sum();
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        let raw = alpha * m * m / sum;
        let estimate = if raw <= 2.5 * m && zeros > 0 {
            // Few customers: linear counting is nearly exact.
            m * (m / zeros as f64).ln()
        } else {
            raw
        };
        estimate.round() as i64
    }

    /// As stored: the set registers (index, rank) while few are set, else all of them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let set: Vec<(usize, u8)> = self
            .registers
            .iter()
            .enumerate()
            .filter(|(_, r)| **r > 0)
            .map(|(i, r)| (i, *r))
            .collect();
        if set.len() * 3 < SKETCH_REGISTERS {
            let mut bytes = Vec::with_capacity(1 + set.len() * 3);
            bytes.push(SPARSE);
            for (index, rank) in set {
                bytes.extend_from_slice(&(index as u16).to_le_bytes());
                bytes.push(rank);
            }
            bytes
        } else {
            let mut bytes = Vec::with_capacity(1 + SKETCH_REGISTERS);
            bytes.push(DENSE);
            bytes.extend_from_slice(&self.registers);
            bytes
        }
    }

    /// A stored sketch; `None` when the bytes are none.
    pub fn from_bytes(bytes: &[u8]) -> Option<Sketch> {
        let mut sketch = Sketch::default();
        match bytes.split_first()? {
            (&SPARSE, rest) if rest.len() % 3 == 0 => {
                for pair in rest.chunks_exact(3) {
                    let index = usize::from(u16::from_le_bytes([pair[0], pair[1]]));
                    let rank = pair[2];
                    if index >= SKETCH_REGISTERS || rank > 64 - SKETCH_BITS as u8 + 1 {
                        return None;
                    }
                    sketch.registers[index] = rank;
                }
                Some(sketch)
            }
            (&DENSE, rest) if rest.len() == SKETCH_REGISTERS => {
                sketch.registers.copy_from_slice(rest);
                Some(sketch)
            }
            _ => None,
        }
    }
}

/// The days a report covers, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DayRange {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

/// The default range: the last 30 days up to `today`.
pub const DEFAULT_DAYS: i64 = 30;
/// The longest range a report covers (a leap year and a day of slack).
pub const MAX_DAYS: i64 = 367;

impl DayRange {
    /// `from` and `to` as `YYYY-MM-DD` (read by [`crate::domain::time::parse_day`]: years
    /// 2000–2100); missing or empty ones default to the last 30 days up to `today`. Refused
    /// (German) when unreadable, reversed or longer than a year.
    pub fn parse(
        from: Option<&str>,
        to: Option<&str>,
        today: NaiveDate,
    ) -> Result<DayRange, String> {
        let to = match to.filter(|t| !t.is_empty()) {
            Some(text) => parse_day(text, "to")?,
            None => today,
        };
        let from = match from.filter(|t| !t.is_empty()) {
            Some(text) => parse_day(text, "from")?,
            None => to - Duration::days(DEFAULT_DAYS - 1),
        };
        if from > to {
            return Err("from darf nicht nach to liegen.".into());
        }
        if (to - from).num_days() + 1 > MAX_DAYS {
            return Err(format!(
                "Der Zeitraum darf höchstens {MAX_DAYS} Tage umfassen."
            ));
        }
        Ok(DayRange { from, to })
    }

    /// Every day of the range, in order.
    pub fn days(self) -> impl Iterator<Item = NaiveDate> {
        self.from.iter_days().take_while(move |d| *d <= self.to)
    }

    /// The range as the roll-ups read it: the whole months inside it from the monthly rows,
    /// the days before and after them from the daily rows. A year reads 12 monthly rows per
    /// package and at most a month's days, not 365 days.
    pub fn parts(self) -> RangeParts {
        let text = |d: NaiveDate| d.format("%Y-%m-%d").to_string();
        let month = |d: NaiveDate| d.format("%Y-%m").to_string();
        let first_whole = if self.from.day() == 1 {
            self.from
        } else {
            first_of_next_month(self.from)
        };
        let last_whole = if first_of_next_month(self.to) - Duration::days(1) == self.to {
            self.to
        } else {
            start_of_month(self.to) - Duration::days(1)
        };
        if first_whole > last_whole {
            return RangeParts {
                months: None,
                days: vec![(text(self.from), text(self.to))],
                minus_days: Vec::new(),
            };
        }
        let mut days = Vec::new();
        if self.from < first_whole {
            days.push((text(self.from), text(first_whole - Duration::days(1))));
        }
        if last_whole < self.to {
            days.push((text(last_whole + Duration::days(1)), text(self.to)));
        }
        RangeParts {
            months: Some((month(first_whole), month(last_whole))),
            days,
            minus_days: Vec::new(),
        }
    }

    /// Like [`DayRange::parts`], for counts: a month the range covers more than half of is read
    /// whole, and its days outside the range are counted off. A range up to today reads this
    /// month whole and takes off the days still to come, which have nothing to take.
    pub fn counting_parts(self) -> RangeParts {
        let text = |d: NaiveDate| d.format("%Y-%m-%d").to_string();
        let month = |d: NaiveDate| d.format("%Y-%m").to_string();
        let start_of = start_of_month;
        let end_of = |d: NaiveDate| first_of_next_month(d) - Duration::days(1);
        let mut first = start_of(self.from);
        let mut last = end_of(self.to);
        let mut days = Vec::new();
        let mut minus_days = Vec::new();
        if first == start_of(self.to) {
            // One month: the month less what is outside the range, or the range's days.
            let outside = (self.from - first).num_days() + (last - self.to).num_days();
            if outside > (self.to - self.from).num_days() {
                return RangeParts {
                    months: None,
                    days: vec![(text(self.from), text(self.to))],
                    minus_days,
                };
            }
            if self.from > first {
                minus_days.push((text(first), text(self.from - Duration::days(1))));
            }
            if self.to < last {
                minus_days.push((text(self.to + Duration::days(1)), text(last)));
            }
        } else {
            // The first month: whole, whole less its days before the range, or its days.
            let outside = (self.from - first).num_days();
            if outside > (end_of(self.from) - self.from).num_days() {
                days.push((text(self.from), text(end_of(self.from))));
                first = first_of_next_month(self.from);
            } else if outside > 0 {
                minus_days.push((text(first), text(self.from - Duration::days(1))));
            }
            // The last month likewise.
            let outside = (last - self.to).num_days();
            if outside > (self.to - start_of(self.to)).num_days() {
                days.push((text(start_of(self.to)), text(self.to)));
                last = start_of(self.to) - Duration::days(1);
            } else if outside > 0 {
                minus_days.push((text(self.to + Duration::days(1)), text(last)));
            }
        }
        RangeParts {
            months: (first <= last).then(|| (month(first), month(last))),
            days,
            minus_days,
        }
    }
}

// A range's days are of 2000–2100 (`DayRange::parse`), far from chrono's limits, so the day
// arithmetic here and above cannot overflow.
fn start_of_month(day: NaiveDate) -> NaiveDate {
    day - Duration::days(i64::from(day.day0()))
}

fn first_of_next_month(day: NaiveDate) -> NaiveDate {
    day.checked_add_months(chrono::Months::new(1))
        .map(start_of_month)
        .unwrap_or(day)
}

/// A [`DayRange`] split for the roll-ups: the whole months (`YYYY-MM`, first and last), the
/// runs of days (`YYYY-MM-DD`, both included) added to them, and those taken off them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeParts {
    pub months: Option<(String, String)>,
    pub days: Vec<(String, String)>,
    /// Days of the months that are not in the range: counted off again. Only for counts
    /// ([`DayRange::counting_parts`]); customers' sketches cannot be taken off.
    pub minus_days: Vec<(String, String)>,
}

/// The first day a ranking made on `today` does not hold (`services::insight::statistics::
/// ranking`): it holds the days before the day before yesterday, which only a late batch, a
/// seed, a backfill or an import changes; the days after are read from the database.
pub fn ranked_until(today: NaiveDate) -> NaiveDate {
    today - Duration::days(2)
}

/// Whether writing roll-ups of `day` (`YYYY-MM-DD`) on `today` may change a day a ranking
/// holds: any day before yesterday. One day earlier than [`ranked_until`], so that instances
/// whose clocks are up to a day apart still agree.
pub fn touches_ranked(day: &str, today: NaiveDate) -> bool {
    let yesterday = (today - Duration::days(1)).format("%Y-%m-%d").to_string();
    day < yesterday.as_str()
}

/// The scope of a totals row that holds a whole month (`day` is then `YYYY-MM`).
pub fn month_scope(scope: &str) -> &'static str {
    match scope {
        "all" => "all:month",
        "provider" => "provider:month",
        _ => "package:month",
    }
}

/// A CSV cell for German Excel: a text that begins with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading apostrophe, so Excel shows it instead of running it as a
/// formula (OWASP "CSV injection"). Package and file names come from users.
pub fn csv_cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// The byte-order mark that makes Excel read a CSV as UTF-8.
pub const CSV_BOM: &str = "\u{feff}";

/// `part / whole`, rounded to three places; 0 without a whole.
pub fn share(part: i64, whole: i64) -> f64 {
    if whole <= 0 {
        return 0.0;
    }
    (part as f64 / whole as f64 * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_rounded_and_safe_without_a_whole() {
        assert_eq!(share(1, 3), 0.333);
        assert_eq!(share(0, 0), 0.0);
        assert_eq!(share(5, -1), 0.0);
    }

    #[test]
    fn a_ranking_holds_no_day_the_live_writer_or_a_clock_a_day_ahead_changes() {
        let today = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
        assert_eq!(ranked_until(today).to_string(), "2026-02-27");
        // Today and yesterday are the live writer's; they change no ranking.
        assert!(!touches_ranked("2026-03-01", today));
        assert!(!touches_ranked("2026-02-28", today));
        assert!(touches_ranked("2026-02-27", today));
        // A writer whose clock is a day behind still flags every day a ranking holds.
        let behind = today - Duration::days(1);
        assert!(touches_ranked("2026-02-26", behind));
        assert!(ranked_until(today).to_string().as_str() > "2026-02-26");
    }

    fn range(from: &str, to: &str) -> DayRange {
        DayRange {
            from: NaiveDate::parse_from_str(from, "%Y-%m-%d").unwrap(),
            to: NaiveDate::parse_from_str(to, "%Y-%m-%d").unwrap(),
        }
    }

    fn days(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn a_range_reads_whole_months_and_the_days_around_them() {
        let year = range("2025-11-26", "2026-11-25").parts();
        assert_eq!(year.months, Some(("2025-12".into(), "2026-10".into())));
        assert_eq!(
            year.days,
            days(&[("2025-11-26", "2025-11-30"), ("2026-11-01", "2026-11-25")])
        );
        let whole = range("2026-02-01", "2026-02-28").parts();
        assert_eq!(whole.months, Some(("2026-02".into(), "2026-02".into())));
        assert!(whole.days.is_empty());
        let within = range("2026-02-02", "2026-02-28").parts();
        assert_eq!(within.months, None);
        assert_eq!(within.days, days(&[("2026-02-02", "2026-02-28")]));
        let across = range("2025-12-15", "2026-01-31").parts();
        assert_eq!(across.months, Some(("2026-01".into(), "2026-01".into())));
        assert_eq!(across.days, days(&[("2025-12-15", "2025-12-31")]));
        let two_halves = range("2025-12-15", "2026-01-10").parts();
        assert_eq!(two_halves.months, None);
        assert_eq!(two_halves.days, days(&[("2025-12-15", "2026-01-10")]));
    }

    #[test]
    fn counts_read_a_month_that_is_mostly_in_the_range_whole_and_take_off_the_rest() {
        // A year up to today: November read whole, the days still to come taken off.
        let year = range("2025-11-26", "2026-11-25").counting_parts();
        assert_eq!(year.months, Some(("2025-12".into(), "2026-11".into())));
        assert_eq!(year.days, days(&[("2025-11-26", "2025-11-30")]));
        assert_eq!(year.minus_days, days(&[("2026-11-26", "2026-11-30")]));
        // The last 30 days.
        let month = range("2026-10-27", "2026-11-25").counting_parts();
        assert_eq!(month.months, Some(("2026-11".into(), "2026-11".into())));
        assert_eq!(month.days, days(&[("2026-10-27", "2026-10-31")]));
        assert_eq!(month.minus_days, days(&[("2026-11-26", "2026-11-30")]));
        // Mostly in January at the start: January whole, its first days taken off.
        let start = range("2026-01-05", "2026-02-28").counting_parts();
        assert_eq!(start.months, Some(("2026-01".into(), "2026-02".into())));
        assert!(start.days.is_empty());
        assert_eq!(start.minus_days, days(&[("2026-01-01", "2026-01-04")]));
        // Within one month: the month less what is outside, or the days.
        let most = range("2026-02-02", "2026-02-27").counting_parts();
        assert_eq!(most.months, Some(("2026-02".into(), "2026-02".into())));
        assert!(most.days.is_empty());
        assert_eq!(
            most.minus_days,
            days(&[("2026-02-01", "2026-02-01"), ("2026-02-28", "2026-02-28")])
        );
        let few = range("2026-02-10", "2026-02-12").counting_parts();
        assert_eq!(few.months, None);
        assert_eq!(few.days, days(&[("2026-02-10", "2026-02-12")]));
        assert!(few.minus_days.is_empty());
        let whole = range("2026-02-01", "2026-03-31").counting_parts();
        assert_eq!(whole.months, Some(("2026-02".into(), "2026-03".into())));
        assert!(whole.days.is_empty() && whole.minus_days.is_empty());
    }

    fn span(from: u64, to: u64) -> Span {
        Span { from, to }
    }

    #[test]
    fn a_whole_answer_counts_each_file_as_a_complete_download() {
        assert_eq!(
            file_share(span(100, 200), span(0, 300), 300),
            Some((DeliveryKind::Download, 100, DeliveryOutcome::Complete))
        );
    }

    #[test]
    fn an_answer_cut_short_counts_what_went_out() {
        // A ZIP cut after 150 bytes: the first file half sent, the second not reached.
        assert_eq!(
            file_share(span(100, 200), span(0, 300), 150),
            Some((DeliveryKind::Download, 50, DeliveryOutcome::Aborted))
        );
        assert_eq!(
            file_share(span(220, 300), span(0, 300), 150),
            Some((DeliveryKind::Download, 0, DeliveryOutcome::Aborted))
        );
    }

    #[test]
    fn a_range_later_in_the_body_is_a_resumption_of_the_files_it_touches() {
        assert_eq!(
            file_share(span(0, 1000), span(400, 1000), 600),
            Some((DeliveryKind::Resumption, 600, DeliveryOutcome::Complete))
        );
        // A file wholly before the range is not part of the answer.
        assert_eq!(file_share(span(0, 100), span(400, 1000), 600), None);
        // A range that starts at 0 is a download, even when it ends early.
        assert_eq!(
            file_share(span(0, 1000), span(0, 500), 500),
            Some((DeliveryKind::Download, 500, DeliveryOutcome::Complete))
        );
    }

    #[test]
    fn an_empty_file_counts_when_the_answer_reaches_it() {
        assert_eq!(
            file_share(span(50, 50), span(0, 100), 100),
            Some((DeliveryKind::Download, 0, DeliveryOutcome::Complete))
        );
        assert_eq!(
            file_share(span(50, 50), span(0, 100), 10),
            Some((DeliveryKind::Download, 0, DeliveryOutcome::Aborted))
        );
    }

    #[test]
    fn a_sketch_counts_distinct_customers_and_merges_days() {
        let mut monday = Sketch::default();
        for number in [100_001, 100_002, 100_003, 100_001] {
            monday.add(number);
        }
        assert_eq!(monday.estimate(), 3);
        let mut tuesday = Sketch::default();
        for number in [100_003, 100_004] {
            tuesday.add(number);
        }
        let mut week = monday.clone();
        week.merge(&tuesday);
        assert_eq!(week.estimate(), 4, "customer 100003 counts once");
        assert_eq!(Sketch::default().estimate(), 0);
    }

    #[test]
    fn a_sketch_stays_close_for_many_customers() {
        let mut sketch = Sketch::default();
        for number in 0..2_000 {
            sketch.add(500_000 + number);
        }
        let estimate = sketch.estimate();
        assert!((1_980..=2_020).contains(&estimate), "{estimate}");
        let mut big = Sketch::default();
        for number in 0..100_000 {
            big.add(number);
        }
        let estimate = big.estimate() as f64;
        assert!((estimate / 100_000.0 - 1.0).abs() < 0.05, "{estimate}");
    }

    #[test]
    fn a_sketch_survives_storage_sparse_and_dense() {
        let mut few = Sketch::default();
        few.add(7);
        let bytes = few.to_bytes();
        assert_eq!(bytes.len(), 4, "one register, sparse");
        assert_eq!(Sketch::from_bytes(&bytes), Some(few));
        let mut many = Sketch::default();
        for number in 0..50_000 {
            many.add(number);
        }
        let bytes = many.to_bytes();
        assert_eq!(bytes.len(), 1 + 4096, "dense");
        assert_eq!(Sketch::from_bytes(&bytes), Some(many));
        assert_eq!(Sketch::from_bytes(&[]), None);
        assert_eq!(
            Sketch::from_bytes(&[1, 0xff, 0xff, 1]),
            None,
            "index out of range"
        );
        assert_eq!(Sketch::from_bytes(&[9]), None);
    }

    #[test]
    fn a_range_defaults_to_the_last_30_days_and_refuses_nonsense() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 25).unwrap();
        let range = DayRange::parse(None, None, today).unwrap();
        assert_eq!(range.from, NaiveDate::from_ymd_opt(2026, 10, 27).unwrap());
        assert_eq!(range.to, today);
        assert_eq!(range.days().count(), 30);
        assert!(DayRange::parse(Some("2026-13-01"), None, today).is_err());
        assert!(DayRange::parse(Some("2026-11-02"), Some("2026-11-01"), today).is_err());
        assert!(DayRange::parse(Some("2025-01-01"), Some("2026-11-01"), today).is_err());
        let year = DayRange::parse(Some("2025-11-25"), Some("2026-11-25"), today).unwrap();
        assert_eq!(year.days().count(), 366);
    }

    #[test]
    fn csv_cells_that_excel_would_run_are_neutralised() {
        for evil in ["=HYPERLINK(\"x\")", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(csv_cell(evil), format!("'{evil}"));
        }
        assert_eq!(csv_cell("Flyer Herbst.pdf"), "Flyer Herbst.pdf");
        assert_eq!(csv_cell(""), "");
    }

    /// A day parameter as clients might send it: anything, near the grammar, or a real day.
    fn day_text() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::prop_oneof![
            "\\PC{0,14}",
            "[-+ ]?[0-9]{0,7}-[0-9]{0,3}-[0-9]{0,3}",
            "(1999|20[0-9]{2}|2100|2101)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])",
            "2026-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])",
        ]
    }

    proptest::proptest! {
        /// No `from`/`to` panics the range reader or the roll-up splits of what it accepts
        /// (issue 34: `-262143-01-01` panicked in `parts`), and what it accepts is in bounds.
        #[test]
        fn no_text_panics_a_range(
            from in day_text(),
            to in day_text(),
            today in 0i64..36890,
        ) {
            let today = NaiveDate::from_ymd_opt(2000, 1, 1).unwrap() + Duration::days(today);
            if let Ok(range) = DayRange::parse(Some(&from), Some(&to), today) {
                proptest::prop_assert!(range.from <= range.to);
                proptest::prop_assert!((range.to - range.from).num_days() < MAX_DAYS);
                proptest::prop_assert!((2000..=2100).contains(&range.to.year()));
                let _ = (range.parts(), range.counting_parts(), range.days().count());
            }
            for (from, to) in [(None, Some(to.as_str())), (Some(from.as_str()), None)] {
                if let Ok(range) = DayRange::parse(from, to, today) {
                    let _ = (range.parts(), range.counting_parts());
                }
            }
        }
    }
}
