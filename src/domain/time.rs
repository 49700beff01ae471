//! German civil time (Europe/Berlin): the day boundaries the portal's rules count in.
//!
//! The EU rule since 1996 is enough and needs no time-zone database: summer time (UTC+2) from
//! 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October, else UTC+1.

use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc, Weekday,
};

/// The offset of German civil time from UTC at `instant`.
pub fn berlin_offset(instant: DateTime<Utc>) -> Duration {
    let year = instant.year();
    let last_sunday = |month: u32| {
        let mut day = NaiveDate::from_ymd_opt(year, month, 31).expect("valid date");
        while day.weekday() != Weekday::Sun {
            day = day.pred_opt().expect("valid date");
        }
        Utc.from_utc_datetime(&day.and_hms_opt(1, 0, 0).expect("valid time"))
    };
    if instant >= last_sunday(3) && instant < last_sunday(10) {
        Duration::hours(2)
    } else {
        Duration::hours(1)
    }
}

/// The German calendar day of `instant`.
pub fn berlin_date(instant: DateTime<Utc>) -> NaiveDate {
    (instant + berlin_offset(instant)).date_naive()
}

/// The instant a German wall-clock time names. In the hour that repeats in October the
/// earlier one; in the hour that is skipped in March, the time an hour later.
pub fn from_berlin(local: NaiveDateTime) -> DateTime<Utc> {
    let winter = Utc.from_utc_datetime(&(local - Duration::hours(1)));
    let summer = Utc.from_utc_datetime(&(local - Duration::hours(2)));
    if berlin_offset(summer) == Duration::hours(2) {
        summer
    } else {
        winter
    }
}

/// 00:00 German time on `date`.
pub fn berlin_start_of_day(date: NaiveDate) -> DateTime<Utc> {
    from_berlin(date.and_time(NaiveTime::MIN))
}

/// 23:59:59 German time on `date`.
pub fn berlin_end_of_day(date: NaiveDate) -> DateTime<Utc> {
    from_berlin(date.and_hms_opt(23, 59, 59).expect("valid time"))
}

/// The current time as the database stores it: UTC, truncated to whole microseconds (the
/// precision of PostgreSQL's `timestamptz`), so a value written to SQLite and to PostgreSQL reads
/// back identically. Every timestamp is passed to SQL as a parameter; no query calls `now()`.
pub fn now() -> chrono::DateTime<chrono::Utc> {
    use chrono::SubsecRound;
    chrono::Utc::now().trunc_subsecs(6)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
    }

    #[test]
    fn summer_and_winter_offsets() {
        assert_eq!(berlin_offset(utc(2026, 7, 1, 12, 0)), Duration::hours(2));
        assert_eq!(berlin_offset(utc(2026, 1, 15, 12, 0)), Duration::hours(1));
        // 2026: summer time from 29 March 01:00 UTC to 25 October 01:00 UTC.
        assert_eq!(berlin_offset(utc(2026, 3, 29, 0, 59)), Duration::hours(1));
        assert_eq!(berlin_offset(utc(2026, 3, 29, 1, 0)), Duration::hours(2));
        assert_eq!(berlin_offset(utc(2026, 10, 25, 0, 59)), Duration::hours(2));
        assert_eq!(berlin_offset(utc(2026, 10, 25, 1, 0)), Duration::hours(1));
    }

    #[test]
    fn german_days_start_before_utc_days() {
        assert_eq!(
            berlin_date(utc(2025, 12, 31, 23, 0)),
            NaiveDate::from_ymd_opt(2026, 1, 1).unwrap()
        );
        assert_eq!(
            berlin_date(utc(2026, 6, 30, 22, 0)),
            NaiveDate::from_ymd_opt(2026, 7, 1).unwrap()
        );
        assert_eq!(
            berlin_date(utc(2026, 6, 30, 21, 59)),
            NaiveDate::from_ymd_opt(2026, 6, 30).unwrap()
        );
    }

    #[test]
    fn wall_clock_times_become_instants() {
        let day = NaiveDate::from_ymd_opt(2026, 12, 1).unwrap();
        assert_eq!(berlin_start_of_day(day), utc(2026, 11, 30, 23, 0));
        assert_eq!(
            berlin_end_of_day(day),
            Utc.with_ymd_and_hms(2026, 12, 1, 22, 59, 59).unwrap()
        );
        let summer = NaiveDate::from_ymd_opt(2026, 7, 31).unwrap();
        assert_eq!(berlin_start_of_day(summer), utc(2026, 7, 30, 22, 0));
        for date in [day, summer, NaiveDate::from_ymd_opt(2026, 3, 29).unwrap()] {
            assert_eq!(berlin_date(berlin_start_of_day(date)), date);
            assert_eq!(berlin_date(berlin_end_of_day(date)), date);
        }
    }
}
