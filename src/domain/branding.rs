//! Header logo choice: the jubilee logo until the end of 2025 (spec §9).

use chrono::{DateTime, NaiveDate, Utc};

/// First day on which the normal logo replaces the jubilee logo.
pub fn jubilee_ends() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).expect("valid date")
}

pub const NORMAL_LOGO: &str = "/static/logo.svg";
pub const JUBILEE_LOGO: &str = "/static/logo-jubilaeum.svg";

/// The logo to show at `now` (the server clock; the day counts in German time).
pub fn logo_for(now: DateTime<Utc>) -> &'static str {
    let berlin_date = (now + chrono::Duration::hours(berlin_offset_hours(now))).date_naive();
    if berlin_date < jubilee_ends() {
        JUBILEE_LOGO
    } else {
        NORMAL_LOGO
    }
}

/// Offset of German civil time: +2 in summer time (last Sunday of March to last Sunday of
/// October, 01:00 UTC), +1 otherwise. Enough for a day boundary without a time-zone database.
fn berlin_offset_hours(now: DateTime<Utc>) -> i64 {
    use chrono::{Datelike, TimeZone, Weekday};
    let year = now.year();
    let last_sunday = |month: u32| {
        let mut day = NaiveDate::from_ymd_opt(year, month, 31).expect("valid date");
        while day.weekday() != Weekday::Sun {
            day = day.pred_opt().expect("valid date");
        }
        Utc.from_utc_datetime(&day.and_hms_opt(1, 0, 0).expect("valid time"))
    };
    if now >= last_sunday(3) && now < last_sunday(10) {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn jubilee_logo_before_2026() {
        let before = Utc.with_ymd_and_hms(2025, 12, 31, 22, 59, 59).unwrap();
        assert_eq!(logo_for(before), JUBILEE_LOGO);
    }

    #[test]
    fn normal_logo_from_new_year_in_germany() {
        // 23:00 UTC on 31 Dec is already 1 Jan in Germany.
        let new_year = Utc.with_ymd_and_hms(2025, 12, 31, 23, 0, 0).unwrap();
        assert_eq!(logo_for(new_year), NORMAL_LOGO);
        let later = Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap();
        assert_eq!(logo_for(later), NORMAL_LOGO);
    }

    #[test]
    fn summer_time_offset() {
        let summer = Utc.with_ymd_and_hms(2026, 7, 1, 12, 0, 0).unwrap();
        let winter = Utc.with_ymd_and_hms(2026, 1, 15, 12, 0, 0).unwrap();
        assert_eq!(berlin_offset_hours(summer), 2);
        assert_eq!(berlin_offset_hours(winter), 1);
    }
}
