//! `aktionsportal export`: the archive written from one snapshot while the portal serves.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use axum::body::Bytes;
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use super::{BackupProgress, OnProgress, Throttled, hex, human_bytes};
use crate::db::Db;
use crate::db::operations::snapshot::{self, ReadSnapshot};
use crate::domain::backup::{
    self, FILE_LIST, FileEntry, FilesPart, MANIFEST, Manifest, TablePart, file_part, table_part,
};
use crate::storage::FileStore;

/// What an export wrote.
#[derive(Debug)]
pub struct ExportReport {
    pub tables: usize,
    pub rows: u64,
    pub files: u64,
    pub file_bytes: u64,
    /// Files the rows named that were deleted before they were read.
    pub missing: Vec<String>,
    /// Size of the archive.
    pub archive_bytes: u64,
}

/// What the ZIP writer thread is told.
enum ToZip {
    Start { name: String, compressed: bool },
    Bytes(Bytes),
}

/// Hands `part` to the ZIP writer; fails when the writer has stopped (its error says why).
async fn send(parts: &mpsc::Sender<ToZip>, part: ToZip) -> anyhow::Result<()> {
    parts
        .send(part)
        .await
        .map_err(|_| anyhow::anyhow!("Das Archiv konnte nicht weitergeschrieben werden."))
}

/// Writes the archive at `path` from what arrives; returns its size.
fn write_zip(path: &Path, mut parts: mpsc::Receiver<ToZip>) -> anyhow::Result<u64> {
    use zip::write::SimpleFileOptions;
    let file = File::create_new(path)
        .with_context(|| format!("{} kann nicht angelegt werden", path.display()))?;
    let mut zip = zip::ZipWriter::new(BufWriter::with_capacity(1024 * 1024, file));
    while let Some(part) = parts.blocking_recv() {
        match part {
            ToZip::Start { name, compressed } => {
                let method = if compressed {
                    zip::CompressionMethod::Deflated
                } else {
                    // Pictures, PDFs and videos are compressed already.
                    zip::CompressionMethod::Stored
                };
                let options = SimpleFileOptions::default()
                    .compression_method(method)
                    .large_file(true)
                    .unix_permissions(0o644);
                zip.start_file(name, options)?;
            }
            ToZip::Bytes(bytes) => zip.write_all(&bytes)?,
        }
    }
    let mut out = zip.finish()?;
    out.flush()?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok(file.metadata()?.len())
}

/// The sending side of the ZIP writer, with the SHA-256 of the part being written.
struct ZipSink {
    parts: mpsc::Sender<ToZip>,
    sha256: Sha256,
}

impl ZipSink {
    async fn start(&mut self, name: String, compressed: bool) -> anyhow::Result<()> {
        self.sha256 = Sha256::new();
        send(&self.parts, ToZip::Start { name, compressed }).await
    }

    async fn write(&mut self, bytes: impl Into<Bytes>) -> anyhow::Result<()> {
        let bytes = bytes.into();
        self.sha256.update(&bytes);
        send(&self.parts, ToZip::Bytes(bytes)).await
    }

    fn finish_part(&mut self) -> String {
        hex(&std::mem::take(&mut self.sha256).finalize())
    }
}

/// Writes the archive of the installation to `to` (refused when the file exists).
pub async fn export(
    db: &Db,
    files: &FileStore,
    to: &Path,
    progress: OnProgress,
) -> anyhow::Result<ExportReport> {
    anyhow::ensure!(
        !to.exists(),
        "Die Datei {} gibt es schon; bitte einen neuen Namen wählen.",
        to.display()
    );
    let partial = partial_path(to);
    let _ = std::fs::remove_file(&partial);
    let (sender, receiver) = mpsc::channel(16);
    let writer = {
        let partial = partial.clone();
        tokio::task::spawn_blocking(move || write_zip(&partial, receiver))
    };
    let mut sink = ZipSink {
        parts: sender,
        sha256: Sha256::new(),
    };
    let written = write_parts(db, files, &mut sink, &progress).await;
    drop(sink);
    let zipped = writer.await.map_err(anyhow::Error::from).and_then(|r| r);
    let result = match (written, zipped) {
        (Ok(mut report), Ok(size)) => {
            report.archive_bytes = size;
            std::fs::rename(&partial, to)
                .with_context(|| format!("{} kann nicht angelegt werden", to.display()))?;
            Ok(report)
        }
        // The writer's own error says more than "could not be written on".
        (Err(_), Err(err)) | (Ok(_), Err(err)) | (Err(err), Ok(_)) => Err(err),
    };
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    result
}

/// `<to>.part`: where the archive is written until it is complete.
fn partial_path(to: &Path) -> PathBuf {
    let mut name = to.file_name().unwrap_or_default().to_os_string();
    name.push(".part");
    to.with_file_name(name)
}

async fn write_parts(
    db: &Db,
    files: &FileStore,
    sink: &mut ZipSink,
    progress: &OnProgress,
) -> anyhow::Result<ExportReport> {
    let tables = snapshot::tables(db).await?;
    let schema = snapshot::applied_schema(db).await?.unwrap_or(0);
    let mut report = ExportReport {
        tables: tables.len(),
        rows: 0,
        files: 0,
        file_bytes: 0,
        missing: Vec::new(),
        archive_bytes: 0,
    };
    let mut snapshot = ReadSnapshot::begin(db).await?;
    let mut table_parts = Vec::with_capacity(tables.len());
    for table in &tables {
        sink.start(table_part(&table.name), true).await?;
        let mut sent = 0usize;
        let mut status = Throttled::new();
        let rows = snapshot
            .rows(table, |chunk| {
                sent += chunk.len();
                if status.due() {
                    progress(BackupProgress::Status(format!(
                        "Tabelle {}: {} …",
                        table.name,
                        human_bytes(sent as u64)
                    )));
                }
                // Not `sink.write`: the closure's future cannot hold the sink it borrows.
                sink.sha256.update(&chunk);
                let parts = sink.parts.clone();
                async move { send(&parts, ToZip::Bytes(chunk.into())).await }
            })
            .await?;
        progress(BackupProgress::Line(format!(
            "Tabelle {}: {rows} Zeilen",
            table.name
        )));
        report.rows += rows;
        table_parts.push(TablePart {
            name: table.name.clone(),
            columns: table.columns.iter().map(|c| c.name.clone()).collect(),
            rows,
            sha256: sink.finish_part(),
        });
    }
    let keys = snapshot.file_keys(&tables).await?;
    // The rows are read: the files they name do not change (a key is never reused), so the
    // snapshot need not be held while they are copied.
    drop(snapshot);
    let mut entries = Vec::with_capacity(keys.len());
    let mut status = Throttled::new();
    for (n, key) in keys.iter().enumerate() {
        if let Some(entry) = copy_file(files, key, sink).await? {
            report.files += 1;
            report.file_bytes += entry.size;
            entries.push(entry);
        } else {
            progress(BackupProgress::Line(format!(
                "Datei {key} fehlt im Dateispeicher (während des Exports gelöscht?); ihre Zeile ist im Archiv ohne Datei."
            )));
            report.missing.push(key.clone());
        }
        if status.due() || n + 1 == keys.len() {
            progress(BackupProgress::Status(format!(
                "Dateien: {} von {} ({})",
                n + 1,
                keys.len(),
                human_bytes(report.file_bytes)
            )));
        }
    }
    if !keys.is_empty() {
        progress(BackupProgress::Line(String::new()));
    }
    sink.start(FILE_LIST.into(), true).await?;
    let mut list = Vec::new();
    for entry in &entries {
        serde_json::to_writer(&mut list, entry)?;
        list.push(b'\n');
    }
    sink.write(list).await?;
    let files_part = FilesPart {
        count: report.files,
        bytes: report.file_bytes,
        sha256: sink.finish_part(),
        missing: report.missing.clone(),
    };
    let manifest = Manifest {
        format: backup::FORMAT.into(),
        format_version: backup::FORMAT_VERSION,
        program: format!("aktionsportal {}", env!("CARGO_PKG_VERSION")),
        created_at: crate::db::now(),
        source: match db.backend() {
            crate::db::Backend::Sqlite => "sqlite".into(),
            crate::db::Backend::Postgres => "postgres".into(),
        },
        schema,
        tables: table_parts,
        files: files_part,
    };
    sink.start(MANIFEST.into(), true).await?;
    sink.write(serde_json::to_vec_pretty(&manifest)?).await?;
    Ok(report)
}

/// Copies one stored file into the archive; `None` when it is gone.
async fn copy_file(
    files: &FileStore,
    key: &str,
    sink: &mut ZipSink,
) -> anyhow::Result<Option<FileEntry>> {
    let mut chunks = match files.chunks(key).await {
        Ok(chunks) => chunks,
        Err(err) => {
            return match files.size(key).await {
                Ok(None) => Ok(None),
                _ => Err(anyhow::Error::from(err).context(format!("Datei {key}"))),
            };
        }
    };
    sink.start(file_part(key), false).await?;
    let mut size = 0u64;
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.with_context(|| format!("Datei {key}"))?;
        size += chunk.len() as u64;
        sink.write(chunk).await?;
    }
    Ok(Some(FileEntry {
        key: key.to_string(),
        size,
        sha256: sink.finish_part(),
    }))
}
