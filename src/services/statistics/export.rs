//! Each statistics view as CSV for German Excel (issue 24): UTF-8 with a byte-order mark, `;`
//! between cells, CRLF, days as `TT.MM.JJJJ` and shares with a decimal comma. Names come from
//! users, so every text cell is neutralised (`csv_cell`) and quoted where needed.

use chrono::NaiveDate;

use super::reports::{self, DELETED, day_text, reach};
use crate::db::{self, Db};
use crate::domain::statistics::{CSV_BOM, DayRange, csv_cell};
use crate::domain::user::User;
use crate::services::answers::Answers;
use crate::services::error::{ServiceError, ServiceResult};

/// Rows a CSV holds at most.
const MAX_ROWS: i64 = 100_000;

/// Which view to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Downloads per day.
    Days,
    /// Packages by downloads.
    Packages,
    /// Files by downloads.
    Files,
    /// Packages valid in the range that nobody downloaded.
    Untouched,
    /// Each provider's share of its dealers.
    Providers,
    /// One package's files (needs the package).
    Package,
}

impl View {
    /// The words of `view=…`.
    pub const WORDS: [&'static str; 6] = [
        "days",
        "packages",
        "files",
        "untouched",
        "providers",
        "package",
    ];

    pub fn parse(word: &str) -> Option<View> {
        Some(match word {
            "days" => View::Days,
            "packages" => View::Packages,
            "files" => View::Files,
            "untouched" => View::Untouched,
            "providers" => View::Providers,
            "package" => View::Package,
            _ => return None,
        })
    }

    fn title(self) -> &'static str {
        match self {
            View::Days => "Downloads je Tag",
            View::Packages => "Downloads je Paket",
            View::Files => "Downloads je Datei",
            View::Untouched => "Unberührte Downloads",
            View::Providers => "Händler je Anbieter",
            View::Package => "Downloads eines Pakets",
        }
    }
}

/// A CSV file and the name to save it under.
pub struct Export {
    pub file_name: String,
    pub csv: String,
}

/// A CSV being written.
struct Csv(String);

impl Csv {
    fn new(header: &[&str]) -> Csv {
        let mut csv = Csv(String::from(CSV_BOM));
        csv.row(header.iter().map(|h| h.to_string()).collect());
        csv
    }

    fn row(&mut self, cells: Vec<String>) {
        let cells: Vec<String> = cells.iter().map(|c| field(c)).collect();
        self.0.push_str(&cells.join(";"));
        self.0.push_str("\r\n");
    }
}

/// A cell: neutralised (see `csv_cell`) and quoted when it holds `;`, a quote or a break.
fn field(text: &str) -> String {
    let cell = csv_cell(text);
    if cell.contains([';', '"', '\r', '\n']) {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell
    }
}

fn german_day(day: &str) -> String {
    NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .map(|d| d.format("%d.%m.%Y").to_string())
        .unwrap_or_else(|_| day.to_string())
}

/// A share 0–1 as Excel reads it in German: `0,750`.
fn german_share(share: f64) -> String {
    format!("{share:.3}").replace('.', ",")
}

/// The view as CSV, with the rights of the screen (a provider or package the user may not
/// see is refused as there).
pub async fn export(
    db: &Db,
    answers: &Answers,
    user: &User,
    view: View,
    range: DayRange,
    provider: Option<i64>,
    package: Option<i64>,
) -> ServiceResult<Export> {
    let (from, to) = (day_text(range.from), day_text(range.to));
    let parts = range.counting_parts();
    let csv = match view {
        View::Days => {
            let summary = reports::summary(db, user, range, provider).await?;
            let mut csv = Csv::new(&["Datum", "Downloads"]);
            for day in summary.days {
                csv.row(vec![german_day(&day.date), day.downloads.to_string()]);
            }
            csv
        }
        View::Packages | View::Files | View::Untouched => {
            let reach = reach(db, user, provider).await?;
            let providers = reach.providers();
            match view {
                View::Packages => {
                    let mut csv = Csv::new(&["Paket-ID", "Paket", "Downloads"]);
                    for row in db::statistics::top_packages(db, providers, &parts, MAX_ROWS).await?
                    {
                        let name = row.name.unwrap_or_else(|| DELETED.into());
                        csv.row(vec![
                            row.package_id.to_string(),
                            name,
                            row.downloads.to_string(),
                        ]);
                    }
                    csv
                }
                View::Files => {
                    let mut csv = Csv::new(&["Paket-ID", "Datei-ID", "Datei", "Downloads"]);
                    let rows =
                        db::statistics::top_files(db, providers, None, &parts, MAX_ROWS).await?;
                    for row in rows {
                        let name = row.name.unwrap_or_else(|| DELETED.into());
                        csv.row(vec![
                            row.package_id.to_string(),
                            row.upload_id.to_string(),
                            name,
                            row.downloads.to_string(),
                        ]);
                    }
                    csv
                }
                _ => {
                    let mut csv = Csv::new(&["Paket-ID", "Paket"]);
                    let rows = db::statistics::untouched_packages(
                        db,
                        providers,
                        crate::domain::time::berlin_start_of_day(range.from),
                        crate::domain::time::berlin_end_of_day(range.to),
                        (&from, &to),
                        MAX_ROWS,
                    )
                    .await?;
                    for row in rows {
                        csv.row(vec![row.id.to_string(), row.name]);
                    }
                    csv
                }
            }
        }
        View::Providers => {
            let mut csv = Csv::new(&[
                "Anbieter-ID",
                "Anbieter",
                "Händler erreicht",
                "Händler gesamt",
                "Anteil",
            ]);
            for share in reports::provider_shares(db, answers, user, range).await? {
                csv.row(vec![
                    share.id.to_string(),
                    share.name,
                    share.customers.to_string(),
                    share.dealers.to_string(),
                    german_share(share.share),
                ]);
            }
            csv
        }
        View::Package => {
            let id = package
                .ok_or_else(|| ServiceError::Invalid("Für view=package fehlt packageId.".into()))?;
            let figures = reports::package(db, user, id, range).await?;
            let mut csv = Csv::new(&["Datei-ID", "Datei", "Downloads"]);
            for file in figures.files {
                csv.row(vec![
                    file.id.to_string(),
                    file.name,
                    file.downloads.to_string(),
                ]);
            }
            csv
        }
    };
    Ok(Export {
        file_name: format!(
            "{} {} bis {}.csv",
            view.title(),
            range.from.format("%d.%m.%Y"),
            range.to.format("%d.%m.%Y")
        ),
        csv: csv.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_neutralised_and_quoted() {
        assert_eq!(field("=1+1"), "'=1+1");
        assert_eq!(field("Herbst; Winter"), "\"Herbst; Winter\"");
        assert_eq!(field("Sag \"Hallo\""), "\"Sag \"\"Hallo\"\"\"");
        assert_eq!(field("-5;x"), "\"'-5;x\"");
    }

    #[test]
    fn days_and_shares_are_written_the_german_way() {
        assert_eq!(german_day("2026-11-25"), "25.11.2026");
        assert_eq!(german_share(0.75), "0,750");
        assert_eq!(View::WORDS.map(|w| View::parse(w).is_some()), [true; 6]);
        assert_eq!(View::parse("all"), None);
    }
}
