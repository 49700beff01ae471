//! `aktionsportal import`: the archive checked whole, then loaded into an empty target.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::Context as _;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use super::{OnProgress, Progress, Throttled, hex, human_bytes};
use crate::db::Db;
use crate::db::snapshot::{self, Loader};
use crate::domain::backup::{
    self, FILE_LIST, FileEntry, MANIFEST, Manifest, Refusal, file_part, table_part,
};
use crate::domain::format;
use crate::storage::FileStore;

/// Rows handed to the database at once.
const ROWS_PER_BATCH: usize = 2_000;
/// The longest line of a table part an import reads (a row of the portal is far smaller):
/// a damaged or crafted archive cannot make it hold more.
const MAX_LINE: usize = 64 * 1024 * 1024;

/// What an import loaded.
#[derive(Debug)]
pub struct ImportReport {
    pub tables: usize,
    pub rows: u64,
    pub files: u64,
    pub file_bytes: u64,
    /// The schema of the archive; the database was then migrated to the newest.
    pub schema: i64,
}

type Archive = zip::ZipArchive<BufReader<File>>;

fn damaged(detail: impl std::fmt::Display) -> anyhow::Error {
    Refusal::Damaged(detail.to_string()).into()
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

/// Reads a part whole and compares its SHA-256 (and, for a table, its line count; for a file,
/// its size) with the manifest.
fn check_part(
    archive: &mut Archive,
    name: &str,
    sha256: &str,
    lines: Option<u64>,
    size: Option<u64>,
) -> anyhow::Result<()> {
    let mut part = archive
        .by_name(name)
        .map_err(|_| damaged(format!("{name} fehlt")))?;
    let mut hash = Sha256::new();
    let mut buffer = vec![0u8; 256 * 1024];
    let (mut count, mut newlines) = (0u64, 0u64);
    loop {
        let n = part
            .read(&mut buffer)
            .map_err(|e| damaged(format!("{name}: {e}")))?;
        if n == 0 {
            break;
        }
        hash.update(&buffer[..n]);
        count += n as u64;
        newlines += buffer[..n].iter().filter(|b| **b == b'\n').count() as u64;
    }
    if hex(&hash.finalize()) != sha256 {
        return Err(damaged(format!(
            "{name} hat nicht die Prüfsumme des Manifests"
        )));
    }
    if lines.is_some_and(|lines| lines != newlines) || size.is_some_and(|size| size != count) {
        return Err(damaged(format!(
            "{name} hat nicht den Umfang des Manifests"
        )));
    }
    Ok(())
}

/// Reads the next line of a part into `line` (emptied first); false at its end. A line longer
/// than [`MAX_LINE`] is refused.
fn next_line(part: &mut impl BufRead, name: &str, line: &mut Vec<u8>) -> anyhow::Result<bool> {
    line.clear();
    let n = part
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', line)
        .map_err(damaged)?;
    if line.len() > MAX_LINE {
        return Err(damaged(format!("{name}: eine Zeile ist zu lang")));
    }
    Ok(n > 0)
}

/// The entries of `files.jsonl` (checked before).
fn file_entries(archive: &mut Archive) -> anyhow::Result<Vec<FileEntry>> {
    let mut part = BufReader::new(archive.by_name(FILE_LIST).map_err(damaged)?);
    let mut entries = Vec::new();
    let mut line = Vec::new();
    while next_line(&mut part, FILE_LIST, &mut line)? {
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
    check_part(archive, FILE_LIST, &manifest.files.sha256, None, None)?;
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
    let tables = manifest
        .tables
        .iter()
        .map(|t| (table_part(&t.name), &t.sha256, Some(t.rows), None));
    let files = entries
        .iter()
        .map(|e| (file_part(&e.key), &e.sha256, None, Some(e.size)));
    for (n, (name, sha256, lines, size)) in tables.chain(files).enumerate() {
        check_part(archive, &name, sha256, lines, size)?;
        if status.due() || n + 1 == total {
            progress(Progress::Status(format!(
                "Prüfe das Archiv: {} von {total} Teilen",
                n + 1
            )));
        }
    }
    progress(Progress::Line(String::new()));
    Ok(())
}

/// What the reader thread hands over of the archive's files.
enum FileChunk {
    Start(FileEntry),
    Bytes(Vec<u8>),
}

/// Fills the empty database `db` and the empty file store `files` from the archive at `from`.
pub async fn import(
    db: &Db,
    files: &FileStore,
    from: &Path,
    progress: OnProgress,
) -> anyhow::Result<ImportReport> {
    let (archive, manifest) = {
        let from = from.to_path_buf();
        tokio::task::spawn_blocking(move || open_archive(&from)).await??
    };
    backup::check_manifest(&manifest, snapshot::newest_known_schema(db))?;
    progress(Progress::Line(format!(
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
    progress(Progress::Line(
        "Das Archiv ist vollständig und unbeschädigt.".into(),
    ));
    if !manifest.files.missing.is_empty() {
        progress(Progress::Line(format!(
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
    // The rows are in: the files go into place.
    let keys: HashSet<&str> = entries.iter().map(|e| e.key.as_str()).collect();
    if files.bucket().is_none() {
        for leftover in files.leftovers().await? {
            if keys.contains(leftover.key.as_str()) {
                files.complete(leftover).await?;
            }
        }
    }
    db.migrate().await?;
    crate::db::bulk::analyze(db).await?;
    Ok(ImportReport {
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
        return Err(Refusal::TargetSchemaNewer {
            target: applied,
            archive: manifest.schema,
        }
        .into());
    }
    let existing = snapshot::tables(db).await?;
    if let Some((table, rows)) = snapshot::first_filled(db, &existing).await? {
        return Err(Refusal::DatabaseNotEmpty { table, rows }.into());
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
        return Err(Refusal::StoreNotEmpty {
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
                    progress(Progress::Status(format!(
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
        progress(Progress::Line(String::new()));
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
        let (sender, mut receiver) = mpsc::channel(4);
        let reader = {
            let name = table.name.clone();
            tokio::task::spawn_blocking(move || read_rows(archive, &name, sender))
        };
        let mut loaded = 0u64;
        let mut status = Throttled::new();
        let result: anyhow::Result<()> = async {
            while let Some(rows) = receiver.recv().await {
                loader.insert(target, &table.columns, &rows, loaded).await?;
                loaded += rows.len() as u64;
                if status.due() {
                    progress(Progress::Status(format!(
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
        progress(Progress::Line(format!(
            "Tabelle {}: {loaded} Zeilen",
            table.name
        )));
        total += loaded;
    }
    progress(Progress::Status("Schreibe die Zeilen fest …".into()));
    loader.commit().await?;
    progress(Progress::Line("Die Zeilen sind gespeichert.".into()));
    Ok(total)
}

fn read_rows(
    mut archive: Archive,
    table: &str,
    sender: mpsc::Sender<Vec<Vec<Value>>>,
) -> anyhow::Result<Archive> {
    let read = |archive: &mut Archive| -> anyhow::Result<()> {
        let part = archive.by_name(&table_part(table)).map_err(damaged)?;
        let mut lines = BufReader::with_capacity(256 * 1024, part);
        let mut line = Vec::new();
        let mut batch = Vec::with_capacity(ROWS_PER_BATCH);
        while next_line(&mut lines, table, &mut line)? {
            let row: Vec<Value> =
                serde_json::from_slice(&line).map_err(|e| damaged(format!("{table}: {e}")))?;
            batch.push(row);
            if batch.len() == ROWS_PER_BATCH {
                let full = std::mem::replace(&mut batch, Vec::with_capacity(ROWS_PER_BATCH));
                // A closed channel means the loading side gave up; it says why.
                if sender.blocking_send(full).is_err() {
                    return Ok(());
                }
            }
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
