//! German civil time (Europe/Berlin): the day boundaries the portal's rules count in, and the
//! one place where dates and times that clients send are read.
//!
//! The EU rule since 1996 is enough and needs no time-zone database: summer time (UTC+2) from
//! 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October, else UTC+1.

use std::ops::RangeInclusive;

use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc, Weekday,
};

/// The years a date sent by a client may name. The portal's packages and reports cover
/// months around today; 2000–2100 leaves ample room for old data and far plans, and keeps
/// every date so far from chrono's limits (±262,000 years) that no arithmetic on it can
/// overflow. chrono's `%Y` alone reads signed and five-digit years (`-262143-01-01`).
pub const YEARS: RangeInclusive<i32> = 2000..=2100;

/// A day as the API describes it: exactly `YYYY-MM-DD`, four digits for the year.
pub const DAY_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

/// The German message for a day parameter `field` that is not a day of [`YEARS`].
pub fn day_message(field: &str) -> String {
    format!(
        "{field} muss ein Datum der Form JJJJ-MM-TT sein, z. B. 2026-11-01 (Jahre {} bis {}).",
        YEARS.start(),
        YEARS.end()
    )
}

/// The number that `digits` spell, when all are ASCII digits (at most 9, so no overflow).
fn number(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    digits.iter().try_fold(0u32, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
    })
}

/// A calendar day exactly as [`DAY_PATTERN`] writes it, in [`YEARS`], that exists.
fn day_of(bytes: &[u8]) -> Option<NaiveDate> {
    let [y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = *bytes else {
        return None;
    };
    let year = i32::try_from(number(&[y0, y1, y2, y3])?).ok()?;
    if !YEARS.contains(&year) {
        return None;
    }
    NaiveDate::from_ymd_opt(year, number(&[m0, m1])?, number(&[d0, d1])?)
}

/// A day parameter (`from`, `to`, …): exactly `YYYY-MM-DD` (no spaces, no sign), an existing
/// day of [`YEARS`]. Anything else is refused with [`day_message`]. Every day a client sends
/// is read here.
pub fn parse_day(text: &str, field: &str) -> Result<NaiveDate, String> {
    day_of(text.as_bytes()).ok_or_else(|| day_message(field))
}

/// A start or end as clients send it; `None` for anything else. Read are an RFC 3339 instant
/// with seconds and a zone (`2026-12-01T07:00:00Z`, `2026-12-01T08:00:00.000+01:00`), a German
/// wall-clock time `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`, or a date `YYYY-MM-DD`; a space
/// may stand for the `T`, years are [`YEARS`]. A date alone is the start of that German day, or its last second when `end_of_day`.
/// Every date-time a client sends is read here.
pub fn parse_instant(text: &str, end_of_day: bool) -> Option<DateTime<Utc>> {
    let bytes = text.as_bytes();
    let date = day_of(bytes.get(..10)?)?;
    let rest = &bytes[10..];
    let [separator, rest @ ..] = rest else {
        return Some(if end_of_day {
            berlin_end_of_day(date)
        } else {
            berlin_start_of_day(date)
        });
    };
    if !matches!(separator, b'T' | b't' | b' ') {
        return None;
    }
    let [h0, h1, b':', m0, m1, rest @ ..] = rest else {
        return None;
    };
    let (hour, minute) = (number(&[*h0, *h1])?, number(&[*m0, *m1])?);
    let (second, nanos, rest) = match rest {
        [b':', s0, s1, rest @ ..] => {
            let second = number(&[*s0, *s1])?;
            match rest {
                [b'.', fraction @ ..] => {
                    let len = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
                    if !(1..=9).contains(&len) {
                        return None;
                    }
                    let nanos = number(&fraction[..len])? * 10u32.pow(9 - len as u32);
                    (Some(second), Some(nanos), &fraction[len..])
                }
                _ => (Some(second), None, rest),
            }
        }
        _ => (None, None, rest),
    };
    let time = NaiveTime::from_hms_nano_opt(hour, minute, second.unwrap_or(0), nanos.unwrap_or(0))?;
    let local = date.and_time(time);
    match rest {
        // German wall-clock time: whole minutes or seconds.
        [] if nanos.is_none() => Some(from_berlin(local)),
        // RFC 3339: seconds and a zone.
        [b'Z' | b'z'] if second.is_some() => Some(local.and_utc()),
        [sign @ (b'+' | b'-'), oh0, oh1, b':', om0, om1] if second.is_some() => {
            let (hours, minutes) = (number(&[*oh0, *oh1])?, number(&[*om0, *om1])?);
            if hours > 23 || minutes > 59 {
                return None;
            }
            let offset = Duration::minutes(i64::from(hours * 60 + minutes));
            let utc = if *sign == b'+' {
                local.checked_sub_signed(offset)
            } else {
                local.checked_add_signed(offset)
            };
            Some(utc?.and_utc())
        }
        _ => None,
    }
}

/// The last Sunday of `month` in `year`, 01:00 UTC: when summer time starts or ends.
fn last_sunday_1am(year: i32, month: u32) -> Option<DateTime<Utc>> {
    let mut day = NaiveDate::from_ymd_opt(year, month, 31)?;
    while day.weekday() != Weekday::Sun {
        day = day.pred_opt()?;
    }
    Some(Utc.from_utc_datetime(&day.and_time(NaiveTime::from_hms_opt(1, 0, 0)?)))
}

/// The offset of German civil time from UTC at `instant`.
pub fn berlin_offset(instant: DateTime<Utc>) -> Duration {
    let year = instant.year();
    // Only at chrono's outermost years can the dates be missing; winter time then.
    match (last_sunday_1am(year, 3), last_sunday_1am(year, 10)) {
        (Some(start), Some(end)) if instant >= start && instant < end => Duration::hours(2),
        _ => Duration::hours(1),
    }
}

/// The German calendar day of `instant`.
pub fn berlin_date(instant: DateTime<Utc>) -> NaiveDate {
    instant
        .checked_add_signed(berlin_offset(instant))
        .unwrap_or(instant)
        .date_naive()
}

/// The instant a German wall-clock time names. In the hour that repeats in October the
/// earlier one; in the hour that is skipped in March, the time an hour later.
pub fn from_berlin(local: NaiveDateTime) -> DateTime<Utc> {
    let back = |hours| {
        Utc.from_utc_datetime(
            &local
                .checked_sub_signed(Duration::hours(hours))
                .unwrap_or(local),
        )
    };
    let (winter, summer) = (back(1), back(2));
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
    // A second before midnight: `NaiveTime` subtraction wraps around the day.
    let last_second = NaiveTime::MIN - Duration::seconds(1);
    from_berlin(date.and_time(last_second))
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

    #[test]
    fn days_are_exactly_four_digit_years_of_2000_to_2100() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(parse_day("2026-11-01", "from"), Ok(day(2026, 11, 1)));
        assert_eq!(parse_day("2000-01-01", "from"), Ok(day(2000, 1, 1)));
        assert_eq!(parse_day("2100-12-31", "from"), Ok(day(2100, 12, 31)));
        for bad in [
            "-262143-01-01",
            "+2026-11-01",
            "12026-11-01",
            "1999-12-31",
            "2101-01-01",
            " 2026-11-01",
            "2026-11-01 ",
            "2026-1-01",
            "2026-02-30",
            "2026-11-01T00:00",
            "２０２６-11-01",
            "",
        ] {
            assert_eq!(
                parse_day(bad, "from"),
                Err("from muss ein Datum der Form JJJJ-MM-TT sein, z. B. 2026-11-01 (Jahre 2000 bis 2100).".into()),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn instants_read_rfc3339_wall_clock_times_and_days() {
        let winter = |d, h, min, s| Utc.with_ymd_and_hms(2026, 12, d, h, min, s).unwrap();
        for (text, at) in [
            ("2026-12-01T10:00:00Z", winter(1, 10, 0, 0)),
            ("2026-12-01t10:00:00z", winter(1, 10, 0, 0)),
            ("2026-12-01 10:00:00.000Z", winter(1, 10, 0, 0)),
            ("2026-12-01T11:30:00+01:30", winter(1, 10, 0, 0)),
            ("2026-12-01T08:00:00-02:00", winter(1, 10, 0, 0)),
            ("2026-12-01T11:00", winter(1, 10, 0, 0)),
            ("2026-12-01 11:00:05", winter(1, 10, 0, 5)),
            ("2026-12-02", winter(1, 23, 0, 0)),
        ] {
            assert_eq!(parse_instant(text, false), Some(at), "{text}");
        }
        assert_eq!(
            parse_instant("2026-12-02", true),
            Some(winter(2, 22, 59, 59))
        );
        for bad in [
            "-262143-01-01",
            "-262143-01-01T00:00:00Z",
            "+262142-12-31T23:59:59Z",
            "1999-12-31T23:00:00Z",
            "2026-12-01T10:00Z",
            "2026-12-01T10:00:00.Z",
            "2026-12-01T10:00:00.0000000000Z",
            "2026-12-01T10:00:00.5",
            "2026-12-01T24:00",
            "2026-12-01T10:00:60Z",
            "2026-12-01T10:00:00+24:00",
            "2026-12-01T10:00:00+0100",
            "2026-12-01X10:00",
            " 2026-12-01",
            "morgen",
            "",
        ] {
            assert_eq!(parse_instant(bad, false), None, "{bad:?}");
        }
    }

    /// Texts near the date grammar: signs, extra digits, odd separators and zones.
    fn date_like() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::string::string_regex(
            "[-+ ]?[0-9]{0,7}-[0-9]{0,3}-[0-9]{0,3}([Tt ][0-9]{0,3}(:[0-9]{0,3}){0,3}(\\.[0-9]{0,12})?([Zz]|[-+][0-9]{0,3}:?[0-9]{0,3})?)?",
        )
        .expect("a valid regex")
    }

    fn any_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![any::<String>(), "\\PC{0,40}", date_like()]
    }

    proptest::proptest! {
        /// No text panics the readers, and what they accept is a day of 2000–2100 written
        /// exactly as `YYYY-MM-DD`.
        #[test]
        fn no_text_panics_the_date_readers(text in any_text(), end_of_day: bool) {
            if let Ok(day) = parse_day(&text, "from") {
                proptest::prop_assert!(YEARS.contains(&day.year()));
                proptest::prop_assert_eq!(day.format("%Y-%m-%d").to_string(), text.clone());
            }
            if let Some(instant) = parse_instant(&text, end_of_day) {
                proptest::prop_assert!(parse_day(&text[..10], "from").is_ok());
                // A zone moves a day of 2000–2100 by at most a day.
                proptest::prop_assert!((1999..=2101).contains(&instant.year()));
                let day = berlin_date(instant);
                proptest::prop_assert!((1999..=2101).contains(&day.year()));
            }
        }
    }
}
