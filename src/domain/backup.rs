//! The archive of a whole installation (`aktionsportal export` / `import`, issue 25): what its
//! manifest says, which archives an installation can take, and the order its tables load in.
//!
//! An archive is a ZIP file:
//! - `manifest.json`: this format's name and version, the schema (newest migration) of the
//!   database it was read from, and every part with its SHA-256;
//! - `tables/<table>.jsonl`: one JSON array per row, the values in the manifest's column order
//!   (numbers, `true`/`false`, text, times as RFC 3339 text, bytes as base64 text, `null`);
//! - `files.jsonl`: one `{"key", "size", "sha256"}` per stored file;
//! - `files/<key>`: the file's bytes.
//!
//! **How long a line may be.** Whoever crafts an archive also computes its checksums, so the
//! manifest vouches for nothing. A table's line is read only up to [`row_limit`] of the target
//! table's columns (at most [`MAX_ROW_BYTES`]) and parsed by [`parse_row`], which refuses a
//! line of the wrong number of values, or with an array or object in a cell, while it reads:
//! a crafted line never becomes more values in memory than the table has columns.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::format;

/// The name in every manifest, so that another ZIP file is not taken for an archive.
pub const FORMAT: &str = "aktionsportal-export";
/// The version of the layout above; an archive of a later layout is refused.
pub const FORMAT_VERSION: u32 = 1;
pub const MANIFEST: &str = "manifest.json";
pub const FILE_LIST: &str = "files.jsonl";

/// The part that holds a table's rows.
pub fn table_part(table: &str) -> String {
    format!("tables/{table}.jsonl")
}

/// The part that holds a stored file's bytes.
pub fn file_part(key: &str) -> String {
    format!("files/{key}")
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: String,
    pub format_version: u32,
    /// The program that wrote it (`aktionsportal 0.1.0`).
    pub program: String,
    pub created_at: DateTime<Utc>,
    /// `sqlite` or `postgres`.
    pub source: String,
    /// The newest migration applied to the database it was read from.
    pub schema: i64,
    /// Tables in the order they load in (a table after those its rows refer to).
    pub tables: Vec<TablePart>,
    pub files: FilesPart,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TablePart {
    pub name: String,
    pub columns: Vec<String>,
    pub rows: u64,
    pub sha256: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FilesPart {
    /// Files in the archive.
    pub count: u64,
    /// Their bytes together.
    pub bytes: u64,
    /// SHA-256 of `files.jsonl`.
    pub sha256: String,
    /// Keys the database named whose file was gone when it was read (deleted during the
    /// export); their rows are in the archive without a file.
    #[serde(default)]
    pub missing: Vec<String>,
}

/// One line of `files.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    pub key: String,
    pub size: u64,
    pub sha256: String,
}

/// Why an archive is not imported; each says that nothing was changed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RestoreRefusal {
    #[error(
        "Das Archiv ist beschädigt oder kein Export des Aktionsportals ({0}). Es wurde nichts verändert."
    )]
    Damaged(String),
    #[error(
        "Das Archiv enthält in der Tabelle {table} (Zeile {line}) eine Zeile von mehr als {}; so lang ist keine Zeile, die das Aktionsportal schreibt. Der Import liest keine längeren Zeilen, damit sein Speicher begrenzt bleibt. Es wurde nichts verändert.",
        format::file_size(i64::try_from(*limit).unwrap_or(i64::MAX))
    )]
    RowTooLong {
        table: String,
        line: u64,
        limit: usize,
    },
    #[error(
        "Das Archiv hat das Format {found}, dieses Programm liest bis Format {known}. Bitte zuerst das Aktionsportal aktualisieren. Es wurde nichts verändert."
    )]
    NewerFormat { found: u32, known: u32 },
    #[error(
        "Das Archiv stammt von einer neueren Version des Aktionsportals (Datenbankschema {found}, dieses Programm kennt bis {known}). Bitte zuerst das Aktionsportal aktualisieren. Es wurde nichts verändert."
    )]
    NewerSchema { found: i64, known: i64 },
    #[error(
        "Die Zieldatenbank ist nicht leer (Tabelle {table}: {rows} Zeilen). Der Import füllt nur eine leere Datenbank. Es wurde nichts verändert."
    )]
    DatabaseNotEmpty { table: String, rows: i64 },
    #[error(
        "Die Zieldatenbank ist schon auf Schema {target} eingerichtet, das Archiv hat das ältere Schema {archive}. Bitte in eine Datenbank ohne Tabellen importieren. Es wurde nichts verändert."
    )]
    TargetSchemaNewer { target: i64, archive: i64 },
    #[error(
        "Der Dateispeicher ({place}) ist nicht leer: {count} Dateien, die nicht aus diesem Archiv stammen (z. B. {example}). Der Import füllt nur einen leeren Dateispeicher. Es wurde nichts verändert."
    )]
    StoreNotEmpty {
        place: String,
        count: usize,
        example: String,
    },
}

/// The longest text (or base64 bytes) one cell of an archive may hold, escaped as in the
/// line. The portal's longest values are far shorter: an icon image of at most 16 KiB as a
/// `data:` URL (22 KB), an audit entry with such an icon before and after (about 50 KB).
pub const MAX_TEXT_CELL_BYTES: usize = 1024 * 1024;
/// The longest line of any table an import reads, whatever its columns.
pub const MAX_ROW_BYTES: usize = 4 * 1024 * 1024;

/// What a column holds, as far as the length of its values in an archive line goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellWidth {
    /// An integer: at most 20 characters (`-9223372036854775808`).
    Number,
    /// `true`, `false`.
    Flag,
    /// A time as RFC 3339 text in quotes (`"2026-11-25T15:37:36.123456789+00:00"`).
    Time,
    /// Text, or bytes as base64 text.
    Text,
}

impl CellWidth {
    /// The longest a value of this kind is in a line (`null` fits each).
    const fn max_bytes(self) -> usize {
        match self {
            CellWidth::Number => 32,
            CellWidth::Flag => 8,
            CellWidth::Time => 64,
            CellWidth::Text => MAX_TEXT_CELL_BYTES,
        }
    }
}

/// The longest line a table of these columns may have in an archive: each value at its
/// longest, with commas and brackets, but never more than [`MAX_ROW_BYTES`]. A table of
/// numbers and times gets lines of a few hundred bytes.
pub fn row_limit(columns: impl IntoIterator<Item = CellWidth>) -> usize {
    columns
        .into_iter()
        .fold(2usize, |sum, cell| sum.saturating_add(cell.max_bytes() + 1))
        .min(MAX_ROW_BYTES)
}

/// Reads one line of a table part: a JSON array of exactly `columns` single values (`null`,
/// a boolean, a number or a text). A line of more values, or with an array or object in a
/// cell, is refused while it is read, before its values are built.
pub fn parse_row(line: &[u8], columns: usize) -> Result<Vec<Value>, String> {
    let mut reader = serde_json::Deserializer::from_slice(line);
    let row = RowSeed { columns }
        .deserialize(&mut reader)
        .and_then(|row| reader.end().map(|()| row))
        .map_err(|e| e.to_string())?;
    Ok(row)
}

/// The values of one row, at most `columns` of them.
struct RowSeed {
    columns: usize,
}

impl<'de> DeserializeSeed<'de> for RowSeed {
    type Value = Vec<Value>;

    fn deserialize<D: de::Deserializer<'de>>(self, reader: D) -> Result<Vec<Value>, D::Error> {
        reader.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for RowSeed {
    type Value = Vec<Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "eine Zeile aus {} Werten", self.columns)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut cells: A) -> Result<Vec<Value>, A::Error> {
        let mut row = Vec::with_capacity(self.columns);
        while let Some(Cell(value)) = cells.next_element()? {
            if row.len() == self.columns {
                return Err(de::Error::custom(format!(
                    "mehr als {} Werte in einer Zeile",
                    self.columns
                )));
            }
            row.push(value);
        }
        if row.len() != self.columns {
            return Err(de::Error::custom(format!(
                "{} Werte statt {}",
                row.len(),
                self.columns
            )));
        }
        Ok(row)
    }
}

/// One value of a row; an array or an object is refused before it is read.
struct Cell(Value);

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: de::Deserializer<'de>>(reader: D) -> Result<Cell, D::Error> {
        reader.deserialize_any(CellVisitor).map(Cell)
    }
}

struct CellVisitor;

impl<'de> Visitor<'de> for CellVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("einen einzelnen Wert (null, Zahl, Wahrheitswert oder Text)")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }
}

/// Checks what the manifest says against this program: its format and schema must not be
/// newer than what it knows, and it must be complete.
pub fn check_manifest(manifest: &Manifest, newest_schema: i64) -> Result<(), RestoreRefusal> {
    if manifest.format != FORMAT {
        return Err(RestoreRefusal::Damaged(
            "das Manifest nennt ein anderes Format".into(),
        ));
    }
    if manifest.format_version > FORMAT_VERSION {
        return Err(RestoreRefusal::NewerFormat {
            found: manifest.format_version,
            known: FORMAT_VERSION,
        });
    }
    if manifest.schema > newest_schema {
        return Err(RestoreRefusal::NewerSchema {
            found: manifest.schema,
            known: newest_schema,
        });
    }
    let mut seen = BTreeSet::new();
    for table in &manifest.tables {
        let valid_name = !table.name.is_empty()
            && table
                .name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid_name || !seen.insert(table.name.as_str()) {
            return Err(RestoreRefusal::Damaged(format!(
                "ungültige Tabelle „{}“ im Manifest",
                table.name
            )));
        }
    }
    Ok(())
}

/// Orders tables so that each comes after the tables it refers to (`refers` maps a table to
/// those its foreign keys name): in rounds of the tables whose parents are all placed, each
/// round in name order, so an export is the same every time.
/// A reference to a table outside `tables`, or to itself, does not constrain the order.
pub fn load_order(tables: &[String], refers: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let known: BTreeSet<&str> = tables.iter().map(String::as_str).collect();
    let mut waiting: BTreeMap<&str, BTreeSet<&str>> = tables
        .iter()
        .map(|t| {
            let parents = refers
                .get(t)
                .into_iter()
                .flatten()
                .map(String::as_str)
                .filter(|p| known.contains(p) && *p != t)
                .collect();
            (t.as_str(), parents)
        })
        .collect();
    let mut order = Vec::with_capacity(tables.len());
    while !waiting.is_empty() {
        let ready: Vec<&str> = waiting
            .iter()
            .filter(|(_, parents)| parents.is_empty())
            .map(|(t, _)| *t)
            .collect();
        // A circle of references (none in the schema): the rest in name order.
        let next = if ready.is_empty() {
            waiting.keys().copied().collect()
        } else {
            ready
        };
        for table in next {
            waiting.remove(table);
            for parents in waiting.values_mut() {
                parents.remove(table);
            }
            order.push(table.to_string());
        }
    }
    order
}

/// A time as an archive holds it: RFC 3339 (what PostgreSQL's times are written as, and what
/// SQLite holds for times the portal wrote), or SQLite's own `YYYY-MM-DD HH:MM:SS[.fff]` in UTC.
pub fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    if let Ok(time) = DateTime::parse_from_rfc3339(text) {
        return Some(time.with_timezone(&Utc));
    }
    ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S%.f"]
        .iter()
        .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
        .map(|naive| naive.and_utc())
}

/// A time as an archive writes it: what SQLite holds for a time the portal wrote, so that an
/// archive reads the same from either database.
pub fn format_time(time: &DateTime<Utc>) -> String {
    time.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(schema: i64, version: u32) -> Manifest {
        Manifest {
            format: FORMAT.into(),
            format_version: version,
            program: "aktionsportal 0.1.0".into(),
            created_at: Utc::now(),
            source: "sqlite".into(),
            schema,
            tables: vec![TablePart {
                name: "providers".into(),
                columns: vec!["id".into()],
                rows: 1,
                sha256: "00".into(),
            }],
            files: FilesPart {
                count: 0,
                bytes: 0,
                sha256: "00".into(),
                missing: vec![],
            },
        }
    }

    #[test]
    fn an_archive_of_this_or_an_older_schema_is_taken_a_newer_one_is_refused() {
        assert_eq!(check_manifest(&manifest(23, 1), 23), Ok(()));
        assert_eq!(check_manifest(&manifest(20, 1), 23), Ok(()));
        let newer = check_manifest(&manifest(24, 1), 23).unwrap_err();
        assert_eq!(
            newer,
            RestoreRefusal::NewerSchema {
                found: 24,
                known: 23
            }
        );
        assert!(newer.to_string().contains("neueren Version"));
        assert!(newer.to_string().ends_with("Es wurde nichts verändert."));
        assert!(matches!(
            check_manifest(&manifest(23, 2), 23),
            Err(RestoreRefusal::NewerFormat { found: 2, known: 1 })
        ));
    }

    #[test]
    fn a_manifest_of_another_format_or_with_odd_table_names_is_damaged() {
        let mut other = manifest(23, 1);
        other.format = "something".into();
        assert!(matches!(
            check_manifest(&other, 23),
            Err(RestoreRefusal::Damaged(_))
        ));
        for name in ["", "users; drop table users", "Users", "../x"] {
            let mut odd = manifest(23, 1);
            odd.tables[0].name = name.into();
            assert!(
                matches!(check_manifest(&odd, 23), Err(RestoreRefusal::Damaged(_))),
                "{name}"
            );
        }
        let mut twice = manifest(23, 1);
        twice.tables.push(twice.tables[0].clone());
        assert!(matches!(
            check_manifest(&twice, 23),
            Err(RestoreRefusal::Damaged(_))
        ));
    }

    #[test]
    fn tables_load_after_the_tables_they_refer_to() {
        let tables: Vec<String> = [
            "contacts",
            "companies",
            "contact_lists",
            "lists",
            "providers",
        ]
        .map(String::from)
        .to_vec();
        let refers = BTreeMap::from([
            ("contacts".to_string(), vec!["companies".to_string()]),
            (
                "contact_lists".to_string(),
                vec!["contacts".to_string(), "lists".to_string()],
            ),
            (
                "lists".to_string(),
                vec!["providers".to_string(), "lists".to_string()],
            ),
            ("providers".to_string(), vec!["skipped".to_string()]),
        ]);
        assert_eq!(
            load_order(&tables, &refers),
            [
                "companies",
                "providers",
                "contacts",
                "lists",
                "contact_lists"
            ]
        );
    }

    #[test]
    fn a_row_limit_follows_the_columns_and_has_a_ceiling() {
        use CellWidth::*;
        // `[id, list_id, contact_id, created_at, updated_at]`: a few hundred bytes.
        let links = row_limit([Number, Number, Number, Time, Time]);
        assert!((200..400).contains(&links), "{links}");
        assert!(row_limit([Number, Text]) > MAX_TEXT_CELL_BYTES);
        assert_eq!(row_limit([Text; 10]), MAX_ROW_BYTES);
        // The longest line the portal writes fits: an icon image as a `data:` URL.
        let icon = format!(
            "data:image/png;base64,{}",
            "A".repeat(16 * 1024 / 3 * 4 + 4)
        );
        let line = serde_json::to_string(&serde_json::json!([
            1,
            "Name",
            icon,
            "2026-11-25T15:37:36.123456789+00:00",
            "2026-11-25T15:37:36.123456789+00:00"
        ]))
        .unwrap();
        assert!(line.len() <= row_limit([Number, Text, Text, Time, Time]));
    }

    #[test]
    fn a_row_has_exactly_its_columns_of_single_values() {
        let row = parse_row(br#"[1, -2, true, null, "Text \"x\"", 1.5]"#, 6).unwrap();
        assert_eq!(
            row,
            [
                Value::from(1),
                Value::from(-2),
                Value::Bool(true),
                Value::Null,
                Value::from("Text \"x\""),
                Value::from(1.5)
            ]
        );
        assert!(parse_row(b"[1,2,3]\n", 3).is_ok());
        let more = parse_row(b"[1,2,3,4]", 3).unwrap_err();
        assert!(more.contains("mehr als 3 Werte"), "{more}");
        let fewer = parse_row(b"[1,2]", 3).unwrap_err();
        assert!(fewer.contains("2 Werte statt 3"), "{fewer}");
        for odd in [
            &b"[[1,2,3]]"[..],
            b"[{\"a\": 1}]",
            b"{\"a\": 1}",
            b"\"text\"",
            b"[1] [2]",
            b"[1",
            b"",
        ] {
            assert!(
                parse_row(odd, 1).is_err(),
                "{}",
                String::from_utf8_lossy(odd)
            );
        }
        // A line of a million values is refused after the first values too many.
        let mut huge = b"[".to_vec();
        huge.extend(std::iter::repeat_n(&b"1,"[..], 1_000_000).flatten());
        huge.extend(b"1]");
        assert!(
            parse_row(&huge, 5)
                .unwrap_err()
                .contains("mehr als 5 Werte")
        );
    }

    #[test]
    fn times_read_back_as_written_from_either_database() {
        let time = DateTime::parse_from_rfc3339("2026-11-25T15:37:36.123456Z")
            .unwrap()
            .with_timezone(&Utc);
        let written = format_time(&time);
        assert_eq!(written, "2026-11-25T15:37:36.123456+00:00");
        assert_eq!(parse_time(&written), Some(time));
        assert_eq!(parse_time("2026-11-25 15:37:36.123456"), Some(time));
        assert_eq!(parse_time("2026-11-25T16:37:36.123456+01:00"), Some(time));
        assert_eq!(parse_time("gestern"), None);
    }
}
