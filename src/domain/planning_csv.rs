//! The CSV import of contact candidates for companies whose planning system has no service
//! (issue 12): semicolon-separated, UTF-8 (with or without BOM) or Windows-1252, one contact
//! per line under a header of German column names:
//!
//! `Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail`
//!
//! Column order is free, names are matched without regard to case, and `Anrede` takes the
//! words of spec §3 (Firma, Herr, Frau, Divers/Diverses) or their numbers 0–4 (empty is 0).
//! Fields may be quoted with `"` (a doubled quote inside stands for one; a quoted field may hold
//! `;` and line breaks, read by the `csv` crate). Every record is
//! checked like the contact form; errors are reported per line and such lines are left out.

use serde::Serialize;

use super::contacts::{CustomerNumber, Email, Salutation, company_name, first_name, last_name};

/// The columns, as the header names them.
pub const COLUMNS: [&str; 6] = [
    "Kundennummer",
    "Firma",
    "Anrede",
    "Vorname",
    "Nachname",
    "E-Mail",
];

/// Most lines one file may have.
pub const MAX_LINES: usize = 50_000;

/// One valid line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CsvCandidate {
    /// Line number in the file (the header is line 1).
    pub line: usize,
    pub customer_number: i64,
    pub company_name: String,
    pub salutation: i16,
    pub firstname: String,
    pub lastname: String,
    pub email: String,
}

/// A line that could not be taken, and why (German).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = CsvLineError)]
pub struct LineError {
    /// Line in the file; the header is line 1.
    pub line: usize,
    pub message: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Parsed {
    pub candidates: Vec<CsvCandidate>,
    pub errors: Vec<LineError>,
    /// No column of the header was found: not a file of this import at all.
    pub no_header: bool,
}

/// Text of the file: UTF-8 when it is valid UTF-8 (a BOM is dropped), else Windows-1252 (as
/// browsers read it: Latin-1 with typographic characters at 0x80–0x9F).
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

fn salutation(text: &str) -> Result<i16, String> {
    Salutation::parse_text(text).map(Salutation::code)
}

/// One record of the file: the line it starts on and its fields (a quoted field may hold
/// `;` and line breaks), or why it cannot be read.
struct Record {
    line: usize,
    fields: Result<Vec<String>, String>,
}

/// The records of the text, blank ones left out. A quote opened and never closed takes the
/// rest of the file; that record is reported as such.
fn records(text: &str) -> Vec<Record> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b';')
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    let mut record = csv::StringRecord::new();
    // Lines are counted here: the reader's own count leaves out blank lines.
    let (mut counted_to, mut line) = (0usize, 1usize);
    let mut last_start = 0usize;
    loop {
        let start = reader.position().byte() as usize;
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                let mut begin = record.position().map_or(start, |p| p.byte() as usize);
                // The reader may start a record at the blank lines it skipped before it.
                begin += text[begin..].len() - text[begin..].trim_start_matches(['\r', '\n']).len();
                line += text[counted_to..begin].matches('\n').count();
                counted_to = begin;
                if record.iter().all(|f| f.trim().is_empty()) {
                    continue;
                }
                last_start = begin;
                out.push(Record {
                    line,
                    fields: Ok(record.iter().map(str::to_string).collect()),
                });
            }
            Err(err) => {
                line += text[counted_to..start.min(text.len())]
                    .matches('\n')
                    .count();
                out.push(Record {
                    line,
                    fields: Err(format!("Die Zeile kann nicht gelesen werden ({err}).")),
                });
                return out;
            }
        }
    }
    // A quote opened and never closed runs to the end of the file: an odd number of quotes
    // from the last record's start on.
    if let Some(last) = out.last_mut()
        && text[last_start..].matches('"').count() % 2 == 1
    {
        last.fields = Err("Ein Anführungszeichen wird nicht geschlossen.".into());
    }
    out
}

/// Reads the file. A missing column in the header is one error for line 1 and no candidates.
pub fn parse(bytes: &[u8]) -> Parsed {
    let text = decode(bytes);
    let mut parsed = Parsed::default();
    let mut records = records(&text).into_iter();
    let Some(header) = records.next() else {
        parsed.errors.push(LineError {
            line: 1,
            message: "Die Datei ist leer.".into(),
        });
        return parsed;
    };
    let header = match header.fields {
        Ok(header) => header,
        Err(message) => {
            // A header that cannot be read holds none of the columns either.
            parsed.no_header = true;
            parsed.errors.push(LineError { line: 1, message });
            return parsed;
        }
    };
    let mut positions = [0usize; 6];
    let mut missing = Vec::new();
    for (i, column) in COLUMNS.iter().enumerate() {
        match header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(column))
        {
            Some(position) => positions[i] = position,
            None => missing.push(*column),
        }
    }
    if !missing.is_empty() {
        parsed.no_header = missing.len() == COLUMNS.len();
        parsed.errors.push(LineError {
            line: 1,
            message: format!(
                "Es fehlen die Spalten {}. Erwartet: {}",
                missing.join(", "),
                COLUMNS.join(";")
            ),
        });
        return parsed;
    }
    for record in records {
        if parsed.candidates.len() + parsed.errors.len() >= MAX_LINES {
            parsed.errors.push(LineError {
                line: record.line,
                message: format!("Mehr als {MAX_LINES} Zeilen: der Rest wurde nicht gelesen."),
            });
            break;
        }
        match record
            .fields
            .and_then(|fields| candidate(record.line, &fields, &positions))
        {
            Ok(candidate) => parsed.candidates.push(candidate),
            Err(message) => parsed.errors.push(LineError {
                line: record.line,
                message,
            }),
        }
    }
    // The same address twice in one file: the first line wins.
    let mut seen = std::collections::HashSet::new();
    let mut duplicates = Vec::new();
    parsed.candidates.retain(|c| {
        let fresh = seen.insert(c.email.clone());
        if !fresh {
            duplicates.push(LineError {
                line: c.line,
                message: format!("E-Mail doppelt vorhanden! ({})", c.email),
            });
        }
        fresh
    });
    parsed.errors.extend(duplicates);
    parsed.errors.sort_by_key(|e| e.line);
    parsed
}

fn candidate(
    line: usize,
    fields: &[String],
    positions: &[usize; 6],
) -> Result<CsvCandidate, String> {
    let get = |i: usize| fields.get(positions[i]).map(|s| s.trim()).unwrap_or("");
    let customer_number = CustomerNumber::parse_text(get(0))?.get();
    let company_name = company_name(Some(get(1)))?;
    let salutation = salutation(get(2))?;
    let firstname = first_name(Some(get(3)))?;
    let lastname = last_name(Some(get(4)))?;
    let email = Email::parse(get(5))?.into_inner();
    Ok(CsvCandidate {
        line,
        customer_number,
        company_name,
        salutation,
        firstname,
        lastname,
        email,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail\n";

    #[test]
    fn reads_utf8_with_quotes_and_any_column_order() {
        let file = format!(
            "\u{FEFF}{HEADER}100001;\"Müller; Söhne GmbH\";Herr;Jürgen;Müller;juergen@example.de\n\
             \n100002;\"Weber \"\"Die Bäcker\"\" KG\";3;Anna;Weber;ANNA@example.de\r\n"
        );
        let parsed = parse(file.as_bytes());
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        assert_eq!(parsed.candidates.len(), 2);
        let first = &parsed.candidates[0];
        assert_eq!((first.line, first.customer_number), (2, 100_001));
        assert_eq!(first.company_name, "Müller; Söhne GmbH");
        assert_eq!(first.salutation, 2);
        assert_eq!(parsed.candidates[1].company_name, "Weber \"Die Bäcker\" KG");
        assert_eq!(parsed.candidates[1].email, "anna@example.de");
        assert_eq!(parsed.candidates[1].line, 4);

        let swapped =
            "E-Mail;Nachname;Vorname;Anrede;Firma;Kundennummer\nx@example.de;Y;Z;;Firma X;7\n";
        let parsed = parse(swapped.as_bytes());
        assert_eq!(parsed.candidates[0].customer_number, 7);
        assert_eq!(parsed.candidates[0].salutation, 0);
    }

    #[test]
    fn reads_windows_1252() {
        let mut file = HEADER.as_bytes().to_vec();
        file.extend_from_slice(b"100001;M\xfcller \x80 Co;Frau;J\xfcrgen;Gro\xdf;j@example.de\n");
        let parsed = parse(&file);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        assert_eq!(parsed.candidates[0].company_name, "Müller € Co");
        assert_eq!(parsed.candidates[0].lastname, "Groß");
    }

    #[test]
    fn reports_errors_per_line_and_keeps_the_good_lines() {
        let file = format!(
            "{HEADER}abc;Firma;Herr;A;B;a@example.de\n\
             100001;Firma;Graf;A;B;b@example.de\n\
             100001;;Herr;A;B;c@example.de\n\
             100001;Firma;Herr;A;B;kein-at\n\
             100001;Firma;Herr;A;B;gut@example.de\n\
             100002;Firma;Frau;A;B;GUT@example.de\n\
             100001;\"offen;Herr;A;B;d@example.de\n"
        );
        let parsed = parse(file.as_bytes());
        assert_eq!(parsed.candidates.len(), 1);
        assert_eq!(parsed.candidates[0].line, 6);
        let lines: Vec<(usize, &str)> = parsed
            .errors
            .iter()
            .map(|e| (e.line, e.message.as_str()))
            .collect();
        assert_eq!(
            lines,
            vec![
                (2, "Die Kundennummer muss eine Zahl sein."),
                (
                    3,
                    "Unbekannte Anrede „Graf“ (Firma, Herr, Frau oder Divers)."
                ),
                (4, "Bitte geben Sie eine Firma an."),
                (5, "Bitte geben Sie eine gültige E-Mail-Adresse an."),
                (7, "E-Mail doppelt vorhanden! (gut@example.de)"),
                (8, "Ein Anführungszeichen wird nicht geschlossen."),
            ]
        );
    }

    #[test]
    fn a_quoted_field_may_hold_a_line_break_and_stays_one_record() {
        let file = format!(
            "{HEADER}100001;\"Müller\nSöhne\";Herr;A;B;a@example.de\n\
             100002;Weber KG;Frau;C;D;c@example.de\n"
        );
        let parsed = parse(file.as_bytes());
        // The line break is no part of a name; the record is one error, on the line it starts.
        assert_eq!(parsed.errors.len(), 1, "{:?}", parsed.errors);
        assert_eq!(parsed.errors[0].line, 2);
        assert_eq!(parsed.candidates.len(), 1);
        assert_eq!(
            parsed.candidates[0].line, 4,
            "lines are counted in the file"
        );
        assert_eq!(parsed.candidates[0].company_name, "Weber KG");
    }

    #[test]
    fn a_wrong_header_or_an_empty_file_is_one_error() {
        let parsed = parse(b"Kunde;Firma\n1;2\n");
        assert!(parsed.candidates.is_empty());
        assert_eq!(parsed.errors.len(), 1);
        assert!(
            parsed.errors[0]
                .message
                .starts_with("Es fehlen die Spalten Kundennummer, Anrede")
        );
        assert_eq!(parse(b"").errors[0].message, "Die Datei ist leer.");
    }
}
