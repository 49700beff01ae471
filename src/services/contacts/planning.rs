//! Import candidates from the planning system (issue 12): its service (see
//! `integrations::planning`) is asked by the contact editor; for companies without one, a CSV
//! file (see `domain::planning_csv`) is checked (preview) and then imported. A file with any
//! bad line imports nothing, so a corrected file is imported whole.

use std::collections::HashSet;

use serde::Serialize;

use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::planning_csv::{self, CsvCandidate, LineError, Parsed};
use crate::domain::user::User;
use crate::services::error::{ServiceError, ServiceResult};
use serde_json::Value;

/// Largest CSV file taken (50,000 lines of contacts are far below).
pub const MAX_CSV_BYTES: usize = 5 * 1024 * 1024;
/// Rows and errors a preview shows at most.
pub const PREVIEW_ROWS: usize = 200;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PlanningStatus)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    /// A planning system service is configured.
    pub service: bool,
    /// Candidates imported from CSV files.
    pub csv_candidates: i64,
}

pub async fn status(db: &Db, service: bool) -> ServiceResult<Status> {
    Ok(Status {
        service,
        csv_candidates: db::contacts::planning_candidates::count(db).await?,
    })
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CsvPreview {
    /// The first valid rows.
    pub candidates: Vec<CsvCandidate>,
    /// Valid rows in all.
    pub count: usize,
    /// Customer numbers among them.
    pub companies: usize,
    /// The first errors (each names its line).
    pub errors: Vec<LineError>,
    /// Errors in all.
    pub error_count: usize,
}

/// Reads the file: the candidates and every line that cannot be taken. A contact named twice
/// for the same customer number is an error of its second line.
fn read(bytes: &[u8]) -> ServiceResult<Parsed> {
    if bytes.len() > MAX_CSV_BYTES {
        return Err(ServiceError::Invalid(format!(
            "Die Datei ist größer als {} MB.",
            MAX_CSV_BYTES / 1024 / 1024
        )));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ServiceError::Invalid("Die Datei ist leer.".into()));
    }
    let mut parsed = planning_csv::parse(bytes);
    if parsed.no_header {
        return Err(ServiceError::Invalid(format!(
            "Die Datei hat keine Kopfzeile mit den Spalten {}.",
            planning_csv::COLUMNS.join(";")
        )));
    }
    let mut seen = HashSet::new();
    let mut kept = Vec::with_capacity(parsed.candidates.len());
    for candidate in parsed.candidates {
        let key = (
            candidate.customer_number,
            crate::domain::contacts::normalize_email(&candidate.email),
        );
        if seen.insert(key) {
            kept.push(candidate);
        } else {
            parsed.errors.push(LineError {
                line: candidate.line,
                message: format!(
                    "Die E-Mail {} steht für die Kundennummer {} schon in einer früheren Zeile.",
                    candidate.email, candidate.customer_number
                ),
            });
        }
    }
    parsed.candidates = kept;
    parsed.errors.sort_by_key(|e| e.line);
    Ok(parsed)
}

fn companies(candidates: &[CsvCandidate]) -> usize {
    candidates
        .iter()
        .map(|c| c.customer_number)
        .collect::<HashSet<_>>()
        .len()
}

/// `POST /api/planning/csv/preview`: what an import of this file would take.
pub fn preview(bytes: &[u8]) -> ServiceResult<CsvPreview> {
    let parsed = read(bytes)?;
    Ok(CsvPreview {
        count: parsed.candidates.len(),
        companies: companies(&parsed.candidates),
        error_count: parsed.errors.len(),
        candidates: parsed.candidates.into_iter().take(PREVIEW_ROWS).collect(),
        errors: parsed.errors.into_iter().take(PREVIEW_ROWS).collect(),
    })
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CsvImported)]
#[serde(rename_all = "camelCase")]
pub struct Imported {
    pub imported: u64,
    pub companies: usize,
}

/// Refusal of a file with bad lines: nothing was imported.
#[derive(Debug)]
pub struct BadFile {
    pub errors: Vec<LineError>,
    pub error_count: usize,
}

pub const BAD_FILE: &str = "Die Datei enthält fehlerhafte Zeilen; es wurde nichts importiert. Bitte korrigieren Sie die \
     genannten Zeilen und importieren Sie die Datei erneut.";

/// `POST /api/planning/csv/import`: replaces the candidates of the file's customer numbers.
pub async fn import(
    db: &Db,
    user: &User,
    bytes: &[u8],
) -> ServiceResult<Result<Imported, BadFile>> {
    let parsed = read(bytes)?;
    if !parsed.errors.is_empty() {
        return Ok(Err(BadFile {
            error_count: parsed.errors.len(),
            errors: parsed.errors.into_iter().take(PREVIEW_ROWS).collect(),
        }));
    }
    if parsed.candidates.is_empty() {
        return Err(ServiceError::Invalid(
            "Die Datei enthält keine Kontakte.".into(),
        ));
    }
    let rows: Vec<db::contacts::planning_candidates::PlanningCandidate> = parsed
        .candidates
        .iter()
        .map(|c| db::contacts::planning_candidates::PlanningCandidate {
            customer_number: c.customer_number,
            company_name: c.company_name.clone(),
            salutation: c.salutation,
            firstname: c.firstname.clone(),
            lastname: c.lastname.clone(),
            email: c.email.clone(),
        })
        .collect();
    let companies = companies(&parsed.candidates);
    let audit = Entry::new(&Actor::of(user), Action::Import, Entity::Import, None).with_changes(
        Changes::none()
            .field("planning_candidates", Value::Null, rows.len())
            .field("companies", Value::Null, companies),
    );
    let imported = db::contacts::planning_candidates::replace(db, &rows, db::now(), &audit).await?;
    Ok(Ok(Imported {
        imported,
        companies,
    }))
}
