//! Status badges of download packages and their files (spec §4), counted in German calendar
//! days. The API sends the badge so that every island shows the same one.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use super::time::{berlin_date, berlin_end_of_day};

/// Days before the end in which a package "ends soon", and after the start in which it is
/// "new" (spec §9).
pub const BADGE_DAYS: i64 = 7;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub enum Badge {
    #[serde(rename = "NEU")]
    New,
    #[serde(rename = "BEVORSTEHENDE")]
    Upcoming,
    #[serde(rename = "LÄUFT IN KÜRZE AB")]
    EndingSoon,
    #[serde(rename = "BEENDET")]
    Finished,
    #[serde(rename = "ARCHIVIERT")]
    Archived,
}

/// A package's badge at `now`, the first that applies:
/// ARCHIVIERT when archived; BEENDET when the end has passed; LÄUFT IN KÜRZE AB when the end
/// is at most 7 German days away; BEVORSTEHENDE when the start day is later than tomorrow;
/// NEU when the start day is today or at most 7 days ago; otherwise none.
pub fn package_badge(
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    archived: bool,
    now: DateTime<Utc>,
) -> Option<Badge> {
    let today = berlin_date(now);
    let days_to_end = (berlin_date(end) - today).num_days();
    let days_since_start = (today - berlin_date(start)).num_days();
    if archived {
        Some(Badge::Archived)
    } else if end < now {
        Some(Badge::Finished)
    } else if days_to_end <= BADGE_DAYS {
        Some(Badge::EndingSoon)
    } else if days_since_start < -1 {
        Some(Badge::Upcoming)
    } else if (0..=BADGE_DAYS).contains(&days_since_start) {
        Some(Badge::New)
    } else {
        None
    }
}

/// The day the badge of a file "ends" (spec §4): so far away that a file only ever shows NEU.
pub fn file_badge_end() -> DateTime<Utc> {
    berlin_end_of_day(NaiveDate::from_ymd_opt(2100, 12, 10).expect("valid date"))
}

/// A file's badge, from its update date (NEU for 7 days after an upload or a change).
pub fn file_badge(updated_at: DateTime<Utc>, now: DateTime<Utc>) -> Option<Badge> {
    package_badge(updated_at, file_badge_end(), false, now)
}

/// The first and last day of the month after `date`'s month, as a duplicated package's period.
pub fn next_month_period(date: NaiveDate) -> (NaiveDate, NaiveDate) {
    use chrono::Datelike;
    let (year, month) = if date.month() == 12 {
        (date.year() + 1, 1)
    } else {
        (date.year(), date.month() + 1)
    };
    let first = NaiveDate::from_ymd_opt(year, month, 1).expect("valid date");
    let (after_year, after_month) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    let last = NaiveDate::from_ymd_opt(after_year, after_month, 1).expect("valid date")
        - Duration::days(1);
    (first, last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::time::berlin_start_of_day;
    use chrono::TimeZone;

    /// 22 Nov 2026, 12:00 German time.
    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 11, 0, 0).unwrap()
    }

    fn day(offset: i64) -> NaiveDate {
        berlin_date(now()) + Duration::days(offset)
    }

    fn badge(start_day: i64, end_day: i64) -> Option<Badge> {
        package_badge(
            berlin_start_of_day(day(start_day)),
            berlin_end_of_day(day(end_day)),
            false,
            now(),
        )
    }

    #[test]
    fn archived_wins_over_everything() {
        let start = berlin_start_of_day(day(-100));
        let end = berlin_end_of_day(day(-50));
        assert_eq!(
            package_badge(start, end, true, now()),
            Some(Badge::Archived)
        );
    }

    #[test]
    fn finished_once_the_end_has_passed() {
        assert_eq!(badge(-30, -1), Some(Badge::Finished));
        let just_ended = now() - Duration::seconds(1);
        assert_eq!(
            package_badge(now() - Duration::days(3), just_ended, false, now()),
            Some(Badge::Finished)
        );
        let ends_in_a_second = now() + Duration::seconds(1);
        assert_eq!(
            package_badge(now() - Duration::days(30), ends_in_a_second, false, now()),
            Some(Badge::EndingSoon)
        );
    }

    #[test]
    fn ending_soon_within_seven_days_of_the_end() {
        assert_eq!(badge(-30, 0), Some(Badge::EndingSoon));
        assert_eq!(badge(-30, 7), Some(Badge::EndingSoon));
        assert_eq!(badge(-30, 8), None);
    }

    #[test]
    fn upcoming_when_the_start_is_later_than_tomorrow() {
        assert_eq!(badge(2, 60), Some(Badge::Upcoming));
        assert_eq!(badge(1, 60), None, "tomorrow is not later than tomorrow");
    }

    #[test]
    fn new_when_started_within_the_last_seven_days() {
        assert_eq!(badge(0, 60), Some(Badge::New));
        assert_eq!(badge(-7, 60), Some(Badge::New));
        assert_eq!(badge(-8, 60), None);
    }

    #[test]
    fn days_are_german_days_not_utc_days() {
        // 23:30 UTC on 30 Nov is already 1 Dec in Germany.
        let now = Utc.with_ymd_and_hms(2026, 11, 30, 23, 30, 0).unwrap();
        // The package ends at the end of 8 Dec (German time): 7 German days away, but in
        // UTC days it would be 8.
        let end = berlin_end_of_day(NaiveDate::from_ymd_opt(2026, 12, 8).unwrap());
        let start = now - Duration::days(30);
        assert_eq!(
            package_badge(start, end, false, now),
            Some(Badge::EndingSoon)
        );
        // A start on 3 Dec (German) is "later than tomorrow" (2 Dec) in Germany.
        let start = berlin_start_of_day(NaiveDate::from_ymd_opt(2026, 12, 3).unwrap());
        let end = start + Duration::days(60);
        assert_eq!(package_badge(start, end, false, now), Some(Badge::Upcoming));
    }

    #[test]
    fn files_are_new_for_seven_days_after_a_change() {
        assert_eq!(
            file_badge(now() - Duration::days(2), now()),
            Some(Badge::New)
        );
        assert_eq!(
            file_badge(berlin_start_of_day(day(-7)), now()),
            Some(Badge::New)
        );
        assert_eq!(file_badge(berlin_start_of_day(day(-8)), now()), None);
        assert_eq!(
            berlin_date(file_badge_end()),
            NaiveDate::from_ymd_opt(2100, 12, 10).unwrap()
        );
    }

    #[test]
    fn badges_serialise_with_their_german_labels() {
        assert_eq!(
            serde_json::to_string(&Badge::EndingSoon).unwrap(),
            "\"LÄUFT IN KÜRZE AB\""
        );
        assert_eq!(
            serde_json::to_string(&Badge::Upcoming).unwrap(),
            "\"BEVORSTEHENDE\""
        );
    }

    #[test]
    fn copies_move_to_the_next_month() {
        let date = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(
            next_month_period(date(2026, 11, 22)),
            (date(2026, 12, 1), date(2026, 12, 31))
        );
        assert_eq!(
            next_month_period(date(2026, 12, 5)),
            (date(2027, 1, 1), date(2027, 1, 31))
        );
        assert_eq!(
            next_month_period(date(2028, 1, 31)),
            (date(2028, 2, 1), date(2028, 2, 29))
        );
    }
}
