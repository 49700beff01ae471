//! Header logo choice: the jubilee logo until the end of 2025 (spec §9).

use chrono::{DateTime, NaiveDate, Utc};

use super::time::berlin_date;

/// First day on which the normal logo replaces the jubilee logo.
pub fn jubilee_ends() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).expect("valid date")
}

pub const NORMAL_LOGO: &str = "/static/logo.svg";
pub const JUBILEE_LOGO: &str = "/static/logo-jubilaeum.svg";

/// The logo to show at `now` (the server clock; the day counts in German time).
/// The width of a logo at its height of 48 px (both are 48 px high): given in the page, so
/// the header keeps its place while the logo loads.
pub fn logo_width(logo: &str) -> u32 {
    if logo == JUBILEE_LOGO { 260 } else { 220 }
}

pub fn logo_for(now: DateTime<Utc>) -> &'static str {
    if berlin_date(now) < jubilee_ends() {
        JUBILEE_LOGO
    } else {
        NORMAL_LOGO
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
}
