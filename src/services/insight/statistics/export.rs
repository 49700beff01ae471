//! Each statistics view as CSV for German Excel (issue 24): UTF-8 with a byte-order mark, `;`
//! between cells, CRLF, days as `TT.MM.JJJJ` and shares with a decimal comma. Names come from
//! users, so every text cell is neutralised (`csv_cell`) and quoted where needed.

use std::sync::Arc;

use chrono::NaiveDate;

use super::reports::{self, DELETED, Reach, day_text, reach};
use crate::db::{self, Db};
use crate::domain::statistics::{CSV_BOM, DayRange, csv_cell};
use crate::domain::user::User;
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::operations::answers::{Answer, Answers};

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
    /// What the mails of the packages mailed in the range brought (issue 37).
    Mails,
}

impl View {
    /// The words of `view=…`.
    pub const WORDS: [&'static str; 7] = [
        "days",
        "packages",
        "files",
        "untouched",
        "providers",
        "package",
        "mails",
    ];

    pub fn parse(word: &str) -> Option<View> {
        Some(match word {
            "days" => View::Days,
            "packages" => View::Packages,
            "files" => View::Files,
            "untouched" => View::Untouched,
            "providers" => View::Providers,
            "package" => View::Package,
            "mails" => View::Mails,
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
            View::Mails => "E-Mails je Paket",
        }
    }
}

/// A CSV file and the name to save it under.
pub struct Export {
    pub file_name: String,
    /// The file's bytes, kept for whoever asks the same next (see `reports::kept_key`).
    pub csv: Arc<Answer>,
}

/// Whose figures a view shows: a reach, or one package.
enum Scope {
    Reach(Reach),
    Package(i64),
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scope::Reach(reach) => reach.fmt(f),
            Scope::Package(id) => write!(f, "package{id}"),
        }
    }
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
/// see is refused as there). The rights are checked before a file kept for others is used.
pub async fn export(
    db: &Db,
    answers: &Answers,
    user: &User,
    view: View,
    range: DayRange,
    provider: Option<i64>,
    package: Option<i64>,
) -> ServiceResult<Export> {
    let scope = match view {
        View::Package => {
            let id = package
                .ok_or_else(|| ServiceError::Invalid("Für view=package fehlt packageId.".into()))?;
            reports::managed_package(db, user, id).await?;
            Scope::Package(id)
        }
        // Every provider the user sees, as on the screen.
        View::Providers => Scope::Reach(reach(db, user, None).await?),
        _ => Scope::Reach(reach(db, user, provider).await?),
    };
    let csv = if let (View::Mails, Scope::Reach(reach)) = (view, &scope) {
        // Read fresh: sending changes the figures, and no version follows the mail queue.
        Arc::new(Answer::new(
            mails_csv(db, reach, range).await?.0.into_bytes(),
        ))
    } else {
        let key = reports::kept_key(db, answers, view.title(), &scope, range)
            .await?
            .key;
        answers
            .bytes(key, async {
                Ok(csv_of(db, answers, view, &scope, range)
                    .await?
                    .0
                    .into_bytes())
            })
            .await?
    };
    Ok(Export {
        file_name: format!(
            "{} {} bis {}.csv",
            view.title(),
            range.from.format("%d.%m.%Y"),
            range.to.format("%d.%m.%Y")
        ),
        csv,
    })
}

async fn csv_of(
    db: &Db,
    answers: &Answers,
    view: View,
    scope: &Scope,
    range: DayRange,
) -> ServiceResult<Csv> {
    let reach = match scope {
        Scope::Reach(reach) => reach,
        Scope::Package(id) => return package_csv(db, *id, range).await,
    };
    let (from, to) = (day_text(range.from), day_text(range.to));
    let parts = range.counting_parts();
    let providers = reach.providers();
    Ok(match view {
        View::Days => {
            let mut csv = Csv::new(&["Datum", "Downloads"]);
            for day in reports::days_of(db, reach, range).await? {
                csv.row(vec![german_day(&day.date), day.downloads.to_string()]);
            }
            csv
        }
        View::Packages => {
            let mut csv = Csv::new(&["Paket-ID", "Paket", "Downloads"]);
            for row in
                db::insight::statistics::top_packages(db, providers, &parts, MAX_ROWS).await?
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
            for row in
                db::insight::statistics::top_files(db, providers, None, &parts, MAX_ROWS).await?
            {
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
        View::Untouched => {
            let mut csv = Csv::new(&["Paket-ID", "Paket"]);
            let rows = db::insight::statistics::untouched_packages(
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
        View::Providers => {
            let mut csv = Csv::new(&[
                "Anbieter-ID",
                "Anbieter",
                "Händler erreicht",
                "Händler gesamt",
                "Anteil",
            ]);
            for share in reports::shares_of(db, answers, reach, range).await? {
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
        View::Package | View::Mails => {
            return Err(ServiceError::internal(anyhow::anyhow!(
                "view={view:?} is not made here"
            )));
        }
    })
}

/// What the mails of the packages mailed in the range brought, one row per package.
async fn mails_csv(db: &Db, reach: &Reach, range: DayRange) -> ServiceResult<Csv> {
    let mut csv = Csv::new(&[
        "Paket-ID",
        "Paket",
        "E-Mails gesendet",
        "Fehlgeschlagen",
        "Abmeldungen",
        "Downloads über E-Mail",
        "Kundennummern angeschrieben",
        "davon danach heruntergeladen",
        "Anteil",
    ]);
    for row in super::mails::mailed_in(db, reach, range).await? {
        csv.row(vec![
            row.id.to_string(),
            row.name,
            row.sent.to_string(),
            row.failed.to_string(),
            row.unsubscribes.to_string(),
            row.mail_downloads.to_string(),
            row.mailed_customers.to_string(),
            row.took_afterwards.to_string(),
            german_share(row.took_share),
        ]);
    }
    Ok(csv)
}

/// One package's files (the user's right to it checked).
async fn package_csv(db: &Db, id: i64, range: DayRange) -> ServiceResult<Csv> {
    let name = db::catalog::packages::get(db, id)
        .await?
        .map_or_else(|| reports::DELETED.to_string(), |p| p.name);
    let figures = reports::package_figures(db, id, &name, range).await?;
    let mut csv = Csv::new(&["Datei-ID", "Datei", "Downloads"]);
    for file in figures.files {
        csv.row(vec![
            file.id.to_string(),
            file.name,
            file.downloads.to_string(),
        ]);
    }
    Ok(csv)
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
        assert_eq!(View::WORDS.map(|w| View::parse(w).is_some()), [true; 7]);
        assert_eq!(View::parse("all"), None);
    }
}
