//! The restore (`aktionsportal import`): the archive checked whole, then loaded into an empty target.
//!
//! **Memory.** Whatever an archive holds, an import keeps at most [`ROWS_IN_FLIGHT_BYTES`]
//! (64 MiB) of rows in memory, plus about [`BYTES_PER_FILE`] (1 KiB) per file of the archive
//! (its directory and list), plus the program itself ([`PROGRAM_BYTES`]): [`memory_bound`],
//! 128 MiB for an archive without files, 226 MiB with 100,000 files.
//! - a table's line is read only up to the length its columns allow
//!   ([`backup::row_limit`], at most [`backup::MAX_ROW_BYTES`], 4 MiB); a longer one is
//!   refused before it is parsed, already while the archive is checked;
//! - a row is parsed into exactly as many values as the table has columns, or refused
//!   ([`backup::parse_row`]);
//! - rows go to the database in batches of at most [`ROWS_PER_BATCH`] rows or
//!   [`BATCH_BYTES`] (4 MiB) of lines, and one batch waits while the one before is written:
//!   the line being read, the batch being filled, the waiting batch and the batch being
//!   written (its values, its parameters and the statements' copy) stay under 64 MiB;
//! - files go through in chunks of 1 MiB, at most 16 of them waiting.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::Context as _;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use super::{BackupProgress, OnProgress, Throttled, hex, human_bytes};
use crate::db::Db;
use crate::db::operations::snapshot::{self, ColumnKind, Loader, Table};
use crate::domain::backup::{
    self, CellWidth, FILE_LIST, FileEntry, MANIFEST, Manifest, RestoreRefusal, file_part,
    table_part,
};
use crate::domain::format;
use crate::storage::FileStore;

/// Rows handed to the database at once, at most.
const ROWS_PER_BATCH: usize = 2_000;
/// The lines of a batch together, at most: a batch is handed over before a row would take
/// it past this.
const BATCH_BYTES: usize = 4 * 1024 * 1024;
/// Batches read ahead while one is written.
const BATCHES_WAITING: usize = 1;
/// The ceiling of the rows an import holds at once (see the module's notes): the line
/// buffer, the batch being filled, [`BATCHES_WAITING`] batches and the batch being written
/// three times over (values, parameters, the statements'), each with its values' overhead.
pub const ROWS_IN_FLIGHT_BYTES: usize = 64 * 1024 * 1024;
/// What each file of an archive costs in memory: its entry in the ZIP directory, its line
/// of `files.jsonl` and its key in the lookups (an estimate; not measured).
pub const BYTES_PER_FILE: usize = 1024;
/// What the program itself takes while it imports (runtime, database driver, buffers of the
/// archive and of the file copies): `tests/backup.rs` measures about 60 MiB for a refused
/// archive, 95–103 MiB for one of 24 rows of 4 MiB (rows included; the debug build, with
/// mimalloc giving freed blocks back at once, see `src/main.rs`).
pub const PROGRAM_BYTES: usize = 64 * 1024 * 1024;

/// The most memory an import of an archive of `files` files takes: the figure the README
/// gives and `tests/backup.rs` measures.
pub fn memory_bound(files: u64) -> u64 {
    (PROGRAM_BYTES + ROWS_IN_FLIGHT_BYTES) as u64 + files.saturating_mul(BYTES_PER_FILE as u64)
}

/// The longest line of `files.jsonl` (a key, a size and a SHA-256 take about 150 bytes).
const MAX_FILE_LINE: usize = 4 * 1024;

/// What a restore loaded.
#[derive(Debug)]
pub struct RestoreReport {
    pub tables: usize,
    pub rows: u64,
    pub files: u64,
    pub file_bytes: u64,
    /// The schema of the archive; the database was then migrated to the newest.
    pub schema: i64,
}

type Archive = zip::ZipArchive<BufReader<File>>;

fn damaged(detail: impl std::fmt::Display) -> anyhow::Error {
    RestoreRefusal::Damaged(detail.to_string()).into()
}

/// Opens the archive and reads its manifest.
fn open_archive(path: &Path) -> anyhow::Result<(Archive, Manifest)> {
    let file = File::open(path)
        .with_context(|| format!("{} kann nicht gelesen werden", path.display()))?;
    let mut archive = zip::ZipArchive::new(BufReader::new(file)).map_err(damaged)?;
    let mut text = Vec::new();
    archive
        .by_name(MANIFEST)
        .map_err(|_| damaged("ohne manifest.json"))?
        .take(16 * 1024 * 1024)
        .read_to_end(&mut text)
        .map_err(damaged)?;
    let manifest: Manifest =
        serde_json::from_slice(&text).map_err(|e| damaged(format!("manifest.json: {e}")))?;
    Ok((archive, manifest))
}

/// What a part must be besides its SHA-256.
enum Extent {
    /// A table's part: its lines, none longer than [`backup::MAX_ROW_BYTES`].
    Table {
        name: String,
        rows: u64,
    },
    /// A file: its size.
    File(u64),
    Unchecked,
}

/// Reads a part whole and compares its SHA-256 and its extent with the manifest.
fn check_part(
    archive: &mut Archive,
    name: &str,
    sha256: &str,
    extent: Extent,
) -> anyhow::Result<()> {
    let mut part = archive
        .by_name(name)
        .map_err(|_| damaged(format!("{name} fehlt")))?;
    let mut hash = Sha256::new();
    let mut buffer = vec![0u8; 256 * 1024];
    let (mut count, mut newlines) = (0u64, 0u64);
    // The length of the line being read: a table's line too long for any table is refused
    // here, before anything is written.
    let mut line = 0usize;
    loop {
        let n = part
            .read(&mut buffer)
            .map_err(|e| damaged(format!("{name}: {e}")))?;
        if n == 0 {
            break;
        }
        hash.update(&buffer[..n]);
        count += n as u64;
        for piece in buffer[..n].split_inclusive(|b| *b == b'\n') {
            let ends = piece.ends_with(b"\n");
            line += piece.len();
            if let Extent::Table { name, .. } = &extent
                && line - usize::from(ends) > backup::MAX_ROW_BYTES
            {
                return Err(RestoreRefusal::RowTooLong {
                    table: name.clone(),
                    line: newlines + 1,
                    limit: backup::MAX_ROW_BYTES,
                }
                .into());
            }
            if ends {
                newlines += 1;
                line = 0;
            }
        }
    }
    if hex(&hash.finalize()) != sha256 {
        return Err(damaged(format!(
            "{name} hat nicht die Prüfsumme des Manifests"
        )));
    }
    let fits = match extent {
        Extent::Table { rows, .. } => rows == newlines,
        Extent::File(size) => size == count,
        Extent::Unchecked => true,
    };
    if !fits {
        return Err(damaged(format!(
            "{name} hat nicht den Umfang des Manifests"
        )));
    }
    Ok(())
}

/// Reads the next line of a part into `line` (emptied first), at most `limit` bytes and its
/// line break; `None` at the part's end, `Some(false)` for a line longer than `limit` (of
/// which only `limit + 1` bytes were read).
fn next_line(
    part: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> anyhow::Result<Option<bool>> {
    line.clear();
    let n = part
        .take(limit as u64 + 2)
        .read_until(b'\n', line)
        .map_err(damaged)?;
    if n == 0 {
        return Ok(None);
    }
    let text = line.strip_suffix(b"\n").unwrap_or(line);
    Ok(Some(text.len() <= limit))
}

/// The entries of `files.jsonl` (checked before).
fn file_entries(archive: &mut Archive) -> anyhow::Result<Vec<FileEntry>> {
    let mut part = BufReader::new(archive.by_name(FILE_LIST).map_err(damaged)?);
    let mut entries = Vec::new();
    let mut line = Vec::new();
    while let Some(fits) = next_line(&mut part, &mut line, MAX_FILE_LINE)? {
        if !fits {
            return Err(damaged(format!("{FILE_LIST}: eine Zeile ist zu lang")));
        }
        let entry: FileEntry =
            serde_json::from_slice(&line).map_err(|e| damaged(format!("{FILE_LIST}: {e}")))?;
        if !crate::storage::is_valid_key(&entry.key) {
            return Err(damaged(format!("ungültiger Dateischlüssel {}", entry.key)));
        }
        entries.push(entry);
    }
    Ok(entries)
}

/// The archive's list of files, checked against the manifest (its SHA-256, its count, each
/// key valid and named once): read before the target is looked at, which needs the keys.
fn file_list(archive: &mut Archive, manifest: &Manifest) -> anyhow::Result<Vec<FileEntry>> {
    check_part(
        archive,
        FILE_LIST,
        &manifest.files.sha256,
        Extent::Unchecked,
    )?;
    let entries = file_entries(archive)?;
    if entries.len() as u64 != manifest.files.count {
        return Err(damaged(format!(
            "{FILE_LIST} hat nicht den Umfang des Manifests"
        )));
    }
    let mut keys = HashSet::with_capacity(entries.len());
    if let Some(twice) = entries.iter().find(|e| !keys.insert(e.key.as_str())) {
        return Err(damaged(format!(
            "{} steht zweimal in {FILE_LIST}",
            twice.key
        )));
    }
    Ok(entries)
}

/// Checks every table and file of the archive against the manifest before anything is
/// written.
fn check_parts(
    archive: &mut Archive,
    manifest: &Manifest,
    entries: &[FileEntry],
    progress: &OnProgress,
) -> anyhow::Result<()> {
    let total = manifest.tables.len() + entries.len();
    let mut status = Throttled::new();
    let tables = manifest.tables.iter().map(|t| {
        let extent = Extent::Table {
            name: t.name.clone(),
            rows: t.rows,
        };
        (table_part(&t.name), &t.sha256, extent)
    });
    let files = entries
        .iter()
        .map(|e| (file_part(&e.key), &e.sha256, Extent::File(e.size)));
    for (n, (name, sha256, extent)) in tables.chain(files).enumerate() {
        check_part(archive, &name, sha256, extent)?;
        if status.due() || n + 1 == total {
            progress(BackupProgress::Status(format!(
                "Prüfe das Archiv: {} von {total} Teilen",
                n + 1
            )));
        }
    }
    progress(BackupProgress::Line(String::new()));
    Ok(())
}

/// What the reader thread hands over of the archive's files.
enum FileChunk {
    Start(FileEntry),
    Bytes(Vec<u8>),
}

/// Fills the empty database `db` and the empty file store `files` from the archive at `from`.
pub async fn restore(
    db: &Db,
    files: &FileStore,
    from: &Path,
    progress: OnProgress,
) -> anyhow::Result<RestoreReport> {
    let (archive, manifest) = {
        let from = from.to_path_buf();
        tokio::task::spawn_blocking(move || open_archive(&from)).await??
    };
    backup::check_manifest(&manifest, snapshot::newest_known_schema(db))?;
    progress(BackupProgress::Line(format!(
        "Archiv vom {} ({}, {}, Datenbankschema {}): {} Tabellen, {} Dateien ({})",
        format::date_time(manifest.created_at),
        manifest.source,
        manifest.program,
        manifest.schema,
        manifest.tables.len(),
        manifest.files.count,
        human_bytes(manifest.files.bytes)
    )));
    // The cheap refusals first: the file list, then the target; then every part.
    let (archive, entries) = {
        let manifest = manifest.clone();
        tokio::task::spawn_blocking(move || {
            let mut archive = archive;
            file_list(&mut archive, &manifest).map(|entries| (archive, entries))
        })
        .await??
    };
    check_target(db, files, &manifest, &entries).await?;
    let (mut archive, entries) = {
        let (manifest, progress) = (manifest.clone(), progress.clone());
        tokio::task::spawn_blocking(move || {
            let mut archive = archive;
            check_parts(&mut archive, &manifest, &entries, &progress).map(|()| (archive, entries))
        })
        .await??
    };
    progress(BackupProgress::Line(
        "Das Archiv ist vollständig und unbeschädigt.".into(),
    ));
    if !manifest.files.missing.is_empty() {
        progress(BackupProgress::Line(format!(
            "{} Dateien fehlten schon beim Export (während des Exports gelöscht); ihre Zeilen kommen ohne Datei.",
            manifest.files.missing.len()
        )));
    }

    snapshot::migrate_to(db, manifest.schema).await?;
    let mut written = Vec::new();
    let loaded = async {
        archive = copy_files(archive, files, &entries, &mut written, &progress).await?;
        load_rows(archive, db, &manifest, &progress).await
    }
    .await;
    let rows = match loaded {
        Ok(rows) => rows,
        Err(err) => {
            clean_up(files, written).await;
            return Err(err.context(
                "Der Import wurde abgebrochen; die Datenbank hat keine Zeile des Archivs erhalten",
            ));
        }
    };
    // The rows are in: the files go into place. Killed from here on, the next `serve` does
    // this (the start-up sweep moves in every waiting file whose row committed).
    let keys: HashSet<&str> = entries.iter().map(|e| e.key.as_str()).collect();
    if files.bucket().is_none() && !keys.is_empty() {
        progress(BackupProgress::Line(
            "Die Zeilen sind gespeichert; die Dateien kommen an ihren Platz …".into(),
        ));
        let mut placed = 0usize;
        for leftover in files.leftovers().await? {
            if keys.contains(leftover.key.as_str()) {
                files.complete(leftover).await?;
                placed += 1;
            }
        }
        progress(BackupProgress::Line(format!(
            "{placed} Dateien sind an ihrem Platz."
        )));
    } else {
        progress(BackupProgress::Line("Die Zeilen sind gespeichert.".into()));
    }
    db.migrate().await?;
    crate::db::bulk::analyze(db).await?;
    Ok(RestoreReport {
        tables: manifest.tables.len(),
        rows,
        files: entries.len() as u64,
        file_bytes: entries.iter().map(|e| e.size).sum(),
        schema: manifest.schema,
    })
}

/// Refuses a target that is not empty, before anything is written. Files a killed import
/// of an archive left behind (in a bucket at their keys, on disk in the staging folder) do
/// not count: this import writes them again.
async fn check_target(
    db: &Db,
    files: &FileStore,
    manifest: &Manifest,
    entries: &[FileEntry],
) -> anyhow::Result<()> {
    if let Some(applied) = snapshot::applied_schema(db).await?
        && applied > manifest.schema
    {
        return Err(RestoreRefusal::TargetSchemaNewer {
            target: applied,
            archive: manifest.schema,
        }
        .into());
    }
    let existing = snapshot::tables(db).await?;
    if let Some((table, rows)) = snapshot::first_filled(db, &existing).await? {
        return Err(RestoreRefusal::DatabaseNotEmpty { table, rows }.into());
    }
    let keys: HashSet<&str> = entries.iter().map(|e| e.key.as_str()).collect();
    let foreign: Vec<String> = files
        .stored_keys()
        .await?
        .into_iter()
        .map(|(key, _)| key)
        .filter(|key| !keys.contains(key.as_str()))
        .collect();
    if let Some(example) = foreign.first() {
        return Err(RestoreRefusal::StoreNotEmpty {
            place: files.describe(),
            count: foreign.len(),
            example: example.clone(),
        }
        .into());
    }
    Ok(())
}

/// Writes every file of the archive into the store (on disk into the staging folder) and
/// checks it once more as it goes.
async fn copy_files(
    archive: Archive,
    files: &FileStore,
    entries: &[FileEntry],
    written: &mut Vec<String>,
    progress: &OnProgress,
) -> anyhow::Result<Archive> {
    let (sender, mut receiver) = mpsc::channel(16);
    let reader = {
        let entries = entries.to_vec();
        tokio::task::spawn_blocking(move || read_files(archive, &entries, sender))
    };
    let total = entries.len();
    let (mut done, mut bytes) = (0usize, 0u64);
    let mut status = Throttled::new();
    let mut current: Option<(FileEntry, crate::storage::StagedWriter)> = None;
    let result: anyhow::Result<()> = async {
        loop {
            let message = receiver.recv().await;
            if matches!(message, Some(FileChunk::Start(_)) | None)
                && let Some((entry, writer)) = current.take()
            {
                let staged = writer.finish().await?;
                let digest = staged.digest();
                if digest.size != entry.size || digest.sha256 != entry.sha256 {
                    return Err(damaged(format!(
                        "{} hat sich beim Lesen verändert",
                        entry.key
                    )));
                }
                written.push(staged.leave_staged());
                done += 1;
                bytes += entry.size;
                if status.due() || done == total {
                    progress(BackupProgress::Status(format!(
                        "Dateien: {done} von {total} ({})",
                        human_bytes(bytes)
                    )));
                }
            }
            match message {
                Some(FileChunk::Start(entry)) => {
                    let writer = files.begin_at(&entry.key).await?;
                    current = Some((entry, writer));
                }
                Some(FileChunk::Bytes(chunk)) => {
                    if let Some((_, writer)) = current.as_mut() {
                        writer.write(&chunk).await?;
                    }
                }
                None => return Ok(()),
            }
        }
    }
    .await;
    drop(receiver);
    let archive = reader.await??;
    result?;
    if total > 0 {
        progress(BackupProgress::Line(String::new()));
    }
    Ok(archive)
}

fn read_files(
    mut archive: Archive,
    entries: &[FileEntry],
    sender: mpsc::Sender<FileChunk>,
) -> anyhow::Result<Archive> {
    let mut buffer = vec![0u8; 1024 * 1024];
    // A closed channel means the writing side gave up; it says why.
    'files: for entry in entries {
        if sender
            .blocking_send(FileChunk::Start(entry.clone()))
            .is_err()
        {
            break;
        }
        let mut part = archive.by_name(&file_part(&entry.key)).map_err(damaged)?;
        loop {
            let n = part.read(&mut buffer).map_err(damaged)?;
            if n == 0 {
                break;
            }
            if sender
                .blocking_send(FileChunk::Bytes(buffer[..n].to_vec()))
                .is_err()
            {
                break 'files;
            }
        }
    }
    drop(sender);
    Ok(archive)
}

/// Loads every table of the archive in one transaction; returns how many rows.
async fn load_rows(
    archive: Archive,
    db: &Db,
    manifest: &Manifest,
    progress: &OnProgress,
) -> anyhow::Result<u64> {
    let targets = snapshot::tables(db).await?;
    let mut loader = Loader::begin(db).await?;
    progress(BackupProgress::Line(format!(
        "Lade die Zeilen von {} Tabellen in einer Transaktion …",
        manifest.tables.len()
    )));
    let mut total = 0u64;
    let mut archive = archive;
    for table in &manifest.tables {
        let target = targets
            .iter()
            .find(|t| t.name == table.name)
            .ok_or_else(|| {
                damaged(format!(
                    "die Tabelle {} gibt es im Schema {} nicht",
                    table.name, manifest.schema
                ))
            })?;
        let shape = RowShape::of(target, &table.columns)?;
        let (sender, mut receiver) = mpsc::channel(BATCHES_WAITING);
        let reader = {
            let name = table.name.clone();
            tokio::task::spawn_blocking(move || read_rows(archive, &name, shape, sender))
        };
        let mut loaded = 0u64;
        let mut status = Throttled::new();
        let result: anyhow::Result<()> = async {
            while let Some(rows) = receiver.recv().await {
                let count = rows.len() as u64;
                loader.insert(target, &table.columns, rows, loaded).await?;
                loaded += count;
                if status.due() {
                    progress(BackupProgress::Status(format!(
                        "Tabelle {}: {loaded} von {} Zeilen",
                        table.name, table.rows
                    )));
                }
            }
            Ok(())
        }
        .await;
        drop(receiver);
        archive = reader.await??;
        result?;
        if loaded != table.rows {
            return Err(damaged(format!(
                "{} hat nicht den Umfang des Manifests",
                table.name
            )));
        }
        progress(BackupProgress::Line(format!(
            "Tabelle {}: {loaded} Zeilen",
            table.name
        )));
        total += loaded;
    }
    progress(BackupProgress::Status("Schreibe die Zeilen fest …".into()));
    loader.commit().await?;
    Ok(total)
}

/// What a table's lines must be: how many values, and how long at most.
struct RowShape {
    columns: usize,
    limit: usize,
}

impl RowShape {
    /// The shape of the archive's `columns` of `table` (each must be one of its columns; the
    /// loader says which is not).
    fn of(table: &Table, columns: &[String]) -> anyhow::Result<RowShape> {
        let widths = columns
            .iter()
            .map(|name| {
                let column = table.column(name).ok_or_else(|| {
                    anyhow::anyhow!(
                        "Das Archiv nennt die Spalte {}.{name}, die die Datenbank nicht hat.",
                        table.name
                    )
                })?;
                Ok(match column.kind {
                    ColumnKind::Int64 | ColumnKind::Int32 | ColumnKind::Int16 => CellWidth::Number,
                    ColumnKind::Bool => CellWidth::Flag,
                    ColumnKind::Time => CellWidth::Time,
                    ColumnKind::Text | ColumnKind::Bytes => CellWidth::Text,
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(RowShape {
            columns: columns.len(),
            limit: backup::row_limit(widths),
        })
    }
}

/// Reads a table's lines and hands them over in batches of at most [`ROWS_PER_BATCH`] rows
/// and [`BATCH_BYTES`] of lines.
fn read_rows(
    mut archive: Archive,
    table: &str,
    shape: RowShape,
    sender: mpsc::Sender<Vec<Vec<Value>>>,
) -> anyhow::Result<Archive> {
    let read = |archive: &mut Archive| -> anyhow::Result<()> {
        let part = archive.by_name(&table_part(table)).map_err(damaged)?;
        let mut lines = BufReader::with_capacity(256 * 1024, part);
        // Room for the longest line allowed, so that reading never grows it.
        let mut line = Vec::with_capacity(shape.limit + 2);
        let mut batch = Vec::new();
        let (mut batch_bytes, mut number) = (0usize, 0u64);
        while let Some(fits) = next_line(&mut lines, &mut line, shape.limit)? {
            number += 1;
            if !fits {
                return Err(RestoreRefusal::RowTooLong {
                    table: table.to_string(),
                    line: number,
                    limit: shape.limit,
                }
                .into());
            }
            if !batch.is_empty()
                && (batch.len() == ROWS_PER_BATCH || batch_bytes + line.len() > BATCH_BYTES)
            {
                // A closed channel means the loading side gave up; it says why.
                if sender.blocking_send(std::mem::take(&mut batch)).is_err() {
                    return Ok(());
                }
                batch_bytes = 0;
            }
            let row = backup::parse_row(&line, shape.columns)
                .map_err(|e| damaged(format!("Tabelle {table}, Zeile {number}: {e}")))?;
            batch.push(row);
            batch_bytes += line.len();
        }
        if !batch.is_empty() {
            let _ = sender.blocking_send(batch);
        }
        Ok(())
    };
    read(&mut archive)?;
    Ok(archive)
}

/// Removes what a failed import wrote: files waiting in the staging folder, or objects in
/// the bucket.
async fn clean_up(files: &FileStore, written: Vec<String>) {
    let keys: HashSet<String> = written.into_iter().collect();
    if files.bucket().is_some() {
        for key in &keys {
            if let Err(err) = files.delete(key).await {
                tracing::warn!(error = %err, key, "file of a failed import stays until the sweep");
            }
        }
        return;
    }
    if let Ok(leftovers) = files.leftovers().await {
        for leftover in leftovers {
            if keys.contains(&leftover.key) {
                let _ = files.discard(leftover).await;
            }
        }
    }
}
