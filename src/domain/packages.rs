//! Rules of download packages and their files (spec §3, §4, §5): validated names, dates,
//! the sortable columns and the customer search modes.

use chrono::{DateTime, Utc};

use super::text::bounded;

pub const LISTS_REQUIRED: &str = "Es muss mindestens ein Kriterium hinterlegt werden";
pub const PROVIDER_REQUIRED: &str = "Bitte wählen Sie einen Anbieter aus.";
pub const START_REQUIRED: &str = "Bitte geben Sie ein gültiges Startdatum an.";
pub const END_REQUIRED: &str = "Bitte geben Sie ein gültiges Enddatum an.";
pub const END_BEFORE_START: &str = "Das Enddatum darf nicht vor dem Startdatum liegen.";

/// A package's name ("Bezeichnung"): 5 to 100 characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageName(String);

impl PackageName {
    pub const MIN: usize = 5;
    pub const MAX: usize = 100;

    pub fn parse(value: &str) -> Result<PackageName, String> {
        bounded(value, "Die Bezeichnung", Self::MIN, Self::MAX).map(PackageName)
    }

    /// The name of a copy: the original's name with " (Kopie)", shortened to fit.
    pub fn copy_of(original: &str) -> PackageName {
        const SUFFIX: &str = " (Kopie)";
        let room = Self::MAX - SUFFIX.chars().count();
        let base: String = original.trim().chars().take(room).collect();
        PackageName(format!("{}{SUFFIX}", base.trim_end()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// A file's name in a package: 5 to 255 characters, no path, ending in the file's extension
/// (added when a rename left it out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileName(String);

impl FileName {
    pub const MIN: usize = 5;
    pub const MAX: usize = 255;

    /// `ext` is the stored file's extension (lower case, without the dot; may be empty).
    pub fn parse(value: &str, ext: &str) -> Result<FileName, String> {
        let name = bounded(value, "Der Dateiname", Self::MIN, Self::MAX)?;
        if name.contains(['/', '\\']) {
            return Err("Der Dateiname darf keine Schrägstriche enthalten.".into());
        }
        if name.starts_with('.') {
            return Err("Der Dateiname darf nicht mit einem Punkt beginnen.".into());
        }
        let has_ext = ext.is_empty()
            || name
                .rsplit_once('.')
                .is_some_and(|(_, e)| e.eq_ignore_ascii_case(ext));
        let name = if has_ext {
            name
        } else {
            format!("{name}.{ext}")
        };
        if name.chars().count() > Self::MAX {
            return Err(format!(
                "Der Dateiname darf höchstens {} Zeichen lang sein.",
                Self::MAX
            ));
        }
        Ok(FileName(name))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// A start or end as clients send it (see [`super::time::parse_instant`], the one reader of
/// date-times): `None` when it is none.
pub fn parse_instant(text: &str, end_of_day: bool) -> Option<DateTime<Utc>> {
    super::time::parse_instant(text, end_of_day)
}

/// The period of a package: both dates present and valid, the end not before the start.
pub fn period(
    start: Option<&str>,
    end: Option<&str>,
) -> Result<(DateTime<Utc>, DateTime<Utc>), String> {
    let start = start
        .and_then(|v| parse_instant(v, false))
        .ok_or(START_REQUIRED)?;
    let end = end
        .and_then(|v| parse_instant(v, true))
        .ok_or(END_REQUIRED)?;
    if end < start {
        return Err(END_BEFORE_START.into());
    }
    Ok((start, end))
}

/// The columns a package list may be sorted by (spec §2), with `id` as the default.
/// Serialized as the API's `sortBy` names ([`SortColumn::parse`] reads them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SortColumn {
    Id,
    Provider,
    Name,
    StartAt,
    EndAt,
    UpdatedAt,
}

/// Exactly the words [`SortColumn::parse`] takes (with the spec's spellings of the provider
/// column), so the description cannot promise less or more.
impl utoipa::PartialSchema for SortColumn {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::domain::paging::word_choice(
            &[
                "id",
                "provider",
                "Provider.name",
                "ProviderId",
                "name",
                "startAt",
                "endAt",
                "updatedAt",
            ],
            "The column to sort by; empty: `id`.",
        )
    }
}

impl utoipa::ToSchema for SortColumn {}

impl SortColumn {
    pub const ACCEPTED: &'static str = "id, provider, name, startAt, endAt, updatedAt";

    pub fn parse(value: Option<&str>) -> Result<SortColumn, String> {
        match value {
            None | Some("") | Some("id") => Ok(SortColumn::Id),
            Some("provider") | Some("Provider.name") | Some("ProviderId") => {
                Ok(SortColumn::Provider)
            }
            Some("name") => Ok(SortColumn::Name),
            Some("startAt") => Ok(SortColumn::StartAt),
            Some("endAt") => Ok(SortColumn::EndAt),
            Some("updatedAt") => Ok(SortColumn::UpdatedAt),
            Some(other) => Err(format!(
                "Nach „{}“ kann nicht sortiert werden. Möglich sind: {}.",
                other.chars().take(40).collect::<String>(),
                Self::ACCEPTED
            )),
        }
    }
}

/// How the customer's search box searches (`searchMethode`).
/// Serialized as the API's `searchMethode` names ([`SearchMethod::parse`] reads them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SearchMethod {
    ByName,
    ByFilename,
}

/// Exactly the words [`SearchMethod::parse`] takes, empty included.
impl utoipa::PartialSchema for SearchMethod {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::domain::paging::word_choice(
            &["byName", "byFilename"],
            "`byName` or `byFilename`; empty: `byName`.",
        )
    }
}

impl utoipa::ToSchema for SearchMethod {}

impl SearchMethod {
    pub fn parse(value: Option<&str>) -> Result<SearchMethod, String> {
        match value {
            None | Some("") | Some("byName") => Ok(SearchMethod::ByName),
            Some("byFilename") => Ok(SearchMethod::ByFilename),
            Some(_) => Err("Die Suchart muss byName oder byFilename sein.".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_documented_sort_and_search_names_are_the_ones_read() {
        use SortColumn::*;
        for column in [Id, Provider, Name, StartAt, EndAt, UpdatedAt] {
            let name = serde_json::to_value(column).unwrap();
            assert_eq!(SortColumn::parse(name.as_str()), Ok(column), "{name}");
        }
        for method in [SearchMethod::ByName, SearchMethod::ByFilename] {
            let name = serde_json::to_value(method).unwrap();
            assert_eq!(
                SearchMethod::parse(name.as_str()).ok(),
                Some(method),
                "{name}"
            );
        }
    }

    #[test]
    fn package_names_are_5_to_100_characters() {
        assert_eq!(PackageName::parse(" Flyer ").unwrap().as_str(), "Flyer");
        assert_eq!(
            PackageName::parse("Test").unwrap_err(),
            "Die Bezeichnung muss mindestens 5 Zeichen lang sein."
        );
        assert!(PackageName::parse(&"ä".repeat(100)).is_ok());
        assert_eq!(
            PackageName::parse(&"x".repeat(101)).unwrap_err(),
            "Die Bezeichnung darf höchstens 100 Zeichen lang sein."
        );
        assert!(PackageName::parse("Flyer\u{200B}Herbst").is_err());
    }

    #[test]
    fn copies_are_named_with_kopie_and_still_fit() {
        assert_eq!(
            PackageName::copy_of("Sommeraktion").as_str(),
            "Sommeraktion (Kopie)"
        );
        let long = PackageName::copy_of(&"x".repeat(100));
        assert_eq!(long.as_str().chars().count(), 100);
        assert!(long.as_str().ends_with(" (Kopie)"));
    }

    #[test]
    fn file_names_are_5_to_255_characters_and_keep_their_extension() {
        assert_eq!(
            FileName::parse("Flyer.pdf", "pdf").unwrap().as_str(),
            "Flyer.pdf"
        );
        assert_eq!(
            FileName::parse("Flyer neu", "pdf").unwrap().as_str(),
            "Flyer neu.pdf"
        );
        assert_eq!(
            FileName::parse("Bild.JPG", "jpg").unwrap().as_str(),
            "Bild.JPG"
        );
        assert_eq!(
            FileName::parse("a.ai", "ai").unwrap_err(),
            "Der Dateiname muss mindestens 5 Zeichen lang sein."
        );
        assert!(FileName::parse(&format!("{}.pdf", "x".repeat(251)), "pdf").is_ok());
        assert!(FileName::parse(&"x".repeat(256), "pdf").is_err());
        assert!(
            FileName::parse(&"x".repeat(252), "pdf").is_err(),
            "too long with .pdf"
        );
        assert!(FileName::parse("../../etc/passwd", "pdf").is_err());
        assert!(FileName::parse("C:\\x\\Flyer.pdf", "pdf").is_err());
        assert!(FileName::parse(".htaccess", "").is_err());
    }

    #[test]
    fn dates_arrive_as_instants_wall_clock_times_or_days() {
        let winter = |d, h, m, s| Utc.with_ymd_and_hms(2026, 12, d, h, m, s).unwrap();
        assert_eq!(
            parse_instant("2026-12-01T10:00:00.000Z", false),
            Some(winter(1, 10, 0, 0))
        );
        assert_eq!(
            parse_instant("2026-12-01T10:00", false),
            Some(winter(1, 9, 0, 0)),
            "German wall clock"
        );
        assert_eq!(
            parse_instant("2026-12-02", false),
            Some(winter(1, 23, 0, 0))
        );
        assert_eq!(
            parse_instant("2026-12-02", true),
            Some(winter(2, 22, 59, 59))
        );
        for bad in ["morgen", "", "12", "2026-13-01"] {
            assert_eq!(parse_instant(bad, false), None, "{bad}");
        }
    }

    #[test]
    fn a_period_needs_both_dates_in_order() {
        assert!(period(Some("2026-12-01"), Some("2026-12-01")).is_ok());
        assert_eq!(
            period(None, Some("2026-12-01")).unwrap_err(),
            START_REQUIRED
        );
        assert_eq!(period(Some("2026-12-01"), None).unwrap_err(), END_REQUIRED);
        assert_eq!(
            period(Some("2026-12-02"), Some("2026-12-01")).unwrap_err(),
            END_BEFORE_START
        );
    }

    #[test]
    fn only_the_sortable_columns_sort() {
        assert_eq!(SortColumn::parse(None).unwrap(), SortColumn::Id);
        assert_eq!(
            SortColumn::parse(Some("startAt")).unwrap(),
            SortColumn::StartAt
        );
        assert_eq!(
            SortColumn::parse(Some("Provider.name")).unwrap(),
            SortColumn::Provider
        );
        let err = SortColumn::parse(Some("password_hash")).unwrap_err();
        assert!(
            err.starts_with("Nach „password_hash“ kann nicht sortiert werden."),
            "{err}"
        );
    }

    #[test]
    fn search_methods() {
        assert_eq!(SearchMethod::parse(None).unwrap(), SearchMethod::ByName);
        assert_eq!(
            SearchMethod::parse(Some("byFilename")).unwrap(),
            SearchMethod::ByFilename
        );
        assert!(SearchMethod::parse(Some("byContent")).is_err());
    }
}
