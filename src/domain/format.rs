//! German (de-DE) display of dates and file sizes for server-rendered pages, the same as
//! the islands show them (`islands/src/lib/format.ts`).

use chrono::{DateTime, Utc};

use super::time::berlin_offset;

/// `05.03.2025, 15:07` in German time.
pub fn date_time(instant: DateTime<Utc>) -> String {
    (instant + berlin_offset(instant))
        .format("%d.%m.%Y, %H:%M")
        .to_string()
}

/// `05.03.2025, 15:07:09` in German time (the audit log's precision).
pub fn date_time_seconds(instant: DateTime<Utc>) -> String {
    (instant + berlin_offset(instant))
        .format("%d.%m.%Y, %H:%M:%S")
        .to_string()
}

/// `05.03.2025` in German time.
pub fn date(instant: DateTime<Utc>) -> String {
    (instant + berlin_offset(instant))
        .format("%d.%m.%Y")
        .to_string()
}

/// A whole number with German thousands points: `1.234`, `-12.345.678`.
pub fn count(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('.');
        }
        out.push(digit);
    }
    out
}

/// Binary units with a German decimal comma: `1 Byte`, `1,5 KiB`, `1 MiB`.
pub fn file_size(bytes: i64) -> String {
    if bytes < 1024 {
        let bytes = bytes.max(0);
        return format!("{bytes} {}", if bytes == 1 { "Byte" } else { "Bytes" });
    }
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while unit < UNITS.len() - 1 && (value * 10.0).round() / 10.0 >= 1024.0 {
        value /= 1024.0;
        unit += 1;
    }
    let rounded = (value * 10.0).round() / 10.0;
    let text = if rounded.fract() == 0.0 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded:.1}").replace('.', ",")
    };
    format!("{text} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_have_thousands_points() {
        assert_eq!(super::count(0), "0");
        assert_eq!(super::count(999), "999");
        assert_eq!(super::count(1_234), "1.234");
        assert_eq!(super::count(200_000), "200.000");
        assert_eq!(super::count(-12_345_678), "-12.345.678");
    }

    use super::*;
    use chrono::TimeZone;

    #[test]
    fn dates_are_german_local_time() {
        let winter = Utc.with_ymd_and_hms(2025, 3, 5, 14, 7, 0).unwrap();
        assert_eq!(date_time(winter), "05.03.2025, 15:07");
        assert_eq!(date(winter), "05.03.2025");
        let summer = Utc.with_ymd_and_hms(2026, 6, 30, 22, 30, 0).unwrap();
        assert_eq!(date_time(summer), "01.07.2026, 00:30");
    }

    #[test]
    fn sizes_in_binary_units() {
        assert_eq!(file_size(0), "0 Bytes");
        assert_eq!(file_size(1), "1 Byte");
        assert_eq!(file_size(1023), "1023 Bytes");
        assert_eq!(file_size(1536), "1,5 KiB");
        assert_eq!(file_size(1024 * 1024), "1 MiB");
        assert_eq!(
            file_size(1024 * 1024 - 1),
            "1 MiB",
            "rounded, then the unit moves up"
        );
        assert_eq!(
            file_size(5 * 1024 * 1024 * 1024 + 300 * 1024 * 1024),
            "5,3 GiB"
        );
    }
}
