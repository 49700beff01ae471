//! File store: uploaded files under `<data dir>/files`, never served as a public folder, or
//! in an S3-compatible bucket ([`bucket`]) when several instances share them.
//!
//! A file is stored under a content-independent key: 128 random bits in lower-case hex, sharded
//! into a subfolder named after its first two characters, plus the lower-case extension, e.g.
//! `3f/3fa85f6457174562b3fc2c963f66afa6.pdf`.
//!
//! On disk, bytes arrive in a staging folder first (`.staging/<hex>.<ext>`), streamed by a
//! [`StagedWriter`] that measures size, SHA-256 and CRC-32 on the way; a [`StagedFile`] is
//! renamed into place by [`StagedFile::persist`] only after its database row has committed.
//! Dropping a staged file removes it. What a crash leaves in the staging folder is settled by
//! the start-up sweep: renamed into place when its row committed, else removed. In a bucket
//! the bytes go to their final key at once (S3 has no rename); dropping an unpersisted file
//! deletes the object, and what a crash leaves is an object without a row, which the daily
//! sweep removes.

pub mod bucket;
pub mod serve;
pub mod zip;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use axum::body::Bytes;
use futures_util::StreamExt;
use object_store::WriteMultipart;
use rand::RngCore;
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

pub use bucket::{Bucket, is_unavailable};
pub use serve::Source;

/// Folder under the store's root where files are written before they are renamed into place.
const STAGING: &str = ".staging";
/// How much a writer collects before it hands a write to the file system.
const WRITE_BUFFER: usize = 1024 * 1024;
/// How many leading bytes a staged file keeps for recognising its type.
pub const HEAD_BYTES: usize = 8 * 1024;

/// Where the files are: a folder on disk (`root`), or a bucket (then `root` only holds the
/// staging folder for archives being unpacked).
#[derive(Debug, Clone)]
pub struct FileStore {
    root: PathBuf,
    bucket: Option<Arc<Bucket>>,
}

/// What was measured while a file was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digest32 {
    pub size: u64,
    /// Lower-case hex.
    pub sha256: String,
    pub crc32: u32,
}

/// Where a writer's bytes go.
enum Sink {
    Disk {
        path: PathBuf,
        target: PathBuf,
        file: Option<tokio::fs::File>,
    },
    /// Straight to the final key; the multipart upload starts once a part is full.
    Bucket {
        bucket: Arc<Bucket>,
        upload: Option<WriteMultipart>,
    },
    /// Finished (or given up).
    Done,
}

/// A file being written.
pub struct StagedWriter {
    key: String,
    sink: Sink,
    buffer: Vec<u8>,
    size: u64,
    sha256: Sha256,
    crc32: crc32fast::Hasher,
    head: Vec<u8>,
}

/// Where written bytes wait for their row.
#[derive(Debug)]
enum StagingPlace {
    Disk { path: PathBuf, target: PathBuf },
    Bucket(Arc<Bucket>),
}

/// Bytes written and measured, waiting for their row to commit.
#[derive(Debug)]
pub struct StagedFile {
    key: String,
    place: StagingPlace,
    digest: Digest32,
    head: Vec<u8>,
    persisted: bool,
}

pub use crate::domain::files::{is_valid_key, valid_ext};

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_string())
}

fn invalid_key() -> io::Error {
    invalid("ungültiger Dateischlüssel")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new random key for a file with this extension (no extension when `ext` is empty).
fn new_key(ext: &str) -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    let hex = hex(&bytes);
    if ext.is_empty() {
        format!("{}/{hex}", &hex[..2])
    } else {
        format!("{}/{hex}.{ext}", &hex[..2])
    }
}

/// Runs `work` on the runtime in the background; for clean-ups started from `Drop`.
fn clean_up_later(work: impl std::future::Future<Output = ()> + Send + 'static) {
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(work);
    }
}

impl StagedWriter {
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Bytes written so far.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn buffer_limit(&self) -> usize {
        match self.sink {
            Sink::Bucket { .. } => bucket::PART,
            _ => WRITE_BUFFER,
        }
    }

    pub async fn write(&mut self, chunk: &[u8]) -> io::Result<()> {
        self.size += chunk.len() as u64;
        self.sha256.update(chunk);
        self.crc32.update(chunk);
        if self.head.len() < HEAD_BYTES {
            let take = (HEAD_BYTES - self.head.len()).min(chunk.len());
            self.head.extend_from_slice(&chunk[..take]);
        }
        let limit = self.buffer_limit();
        let mut rest = chunk;
        while !rest.is_empty() {
            let take = (limit - self.buffer.len()).min(rest.len());
            self.buffer.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.buffer.len() >= limit {
                self.flush_buffer().await?;
            }
        }
        Ok(())
    }

    async fn flush_buffer(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        match &mut self.sink {
            Sink::Disk { file, .. } => {
                let file = file
                    .as_mut()
                    .ok_or_else(|| io::Error::other("file closed"))?;
                file.write_all(&self.buffer).await?;
                self.buffer.clear();
            }
            Sink::Bucket { bucket, upload } => {
                if upload.is_none() {
                    *upload = Some(bucket.begin_parts(&self.key).await?);
                }
                let part = std::mem::replace(&mut self.buffer, Vec::with_capacity(bucket::PART));
                let upload = upload.as_mut().expect("started above");
                Bucket::put_part(upload, Bytes::from(part)).await?;
            }
            Sink::Done => return Err(io::Error::other("file closed")),
        }
        Ok(())
    }

    /// Writes what is left, makes it durable and returns the staged file.
    pub async fn finish(mut self) -> io::Result<StagedFile> {
        if let Sink::Disk { .. } = self.sink {
            // On failure the sink stays as it is, and Drop removes the file.
            self.flush_buffer().await?;
            if let Sink::Disk {
                file: Some(file), ..
            } = &mut self.sink
            {
                file.flush().await?;
                file.sync_all().await?;
            }
        }
        let place = match std::mem::replace(&mut self.sink, Sink::Done) {
            Sink::Disk { path, target, .. } => StagingPlace::Disk { path, target },
            Sink::Bucket { bucket, upload } => {
                let rest = Bytes::from(std::mem::take(&mut self.buffer));
                match upload {
                    // Smaller than a part: one request.
                    None => bucket.put(&self.key, rest).await?,
                    Some(mut upload) => {
                        let sent = if rest.is_empty() {
                            Ok(())
                        } else {
                            Bucket::put_part(&mut upload, rest).await
                        };
                        if let Err(err) = sent {
                            // Best effort: parts an abort misses go with the bucket's
                            // lifecycle rule (README).
                            let _ = upload.abort().await;
                            return Err(err);
                        }
                        Bucket::finish_parts(upload).await?;
                    }
                }
                StagingPlace::Bucket(bucket)
            }
            Sink::Done => return Err(io::Error::other("file closed")),
        };
        Ok(StagedFile {
            key: std::mem::take(&mut self.key),
            place,
            digest: Digest32 {
                size: self.size,
                sha256: hex(&std::mem::take(&mut self.sha256).finalize()),
                crc32: std::mem::take(&mut self.crc32).finalize(),
            },
            head: std::mem::take(&mut self.head),
            persisted: false,
        })
    }
}

impl Drop for StagedWriter {
    fn drop(&mut self) {
        // Not finished: an abandoned or refused upload leaves nothing behind.
        match std::mem::replace(&mut self.sink, Sink::Done) {
            Sink::Disk { path, .. } => {
                let _ = std::fs::remove_file(path);
            }
            Sink::Bucket {
                upload: Some(upload),
                ..
            } => clean_up_later(async move {
                if let Err(err) = upload.abort().await {
                    tracing::warn!(error = %err, "unfinished multipart upload not aborted");
                }
            }),
            _ => {}
        }
    }
}

impl StagedFile {
    /// The key the file will have once persisted.
    pub fn key(&self) -> &str {
        &self.key
    }

    pub fn digest(&self) -> &Digest32 {
        &self.digest
    }

    /// The first bytes of the file (up to [`HEAD_BYTES`]).
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// The staged bytes on disk, for reading them once more before they are persisted
    /// (archives, which [`FileStore::begin_on_disk`] always writes to disk).
    pub fn path(&self) -> Option<&Path> {
        match &self.place {
            StagingPlace::Disk { path, .. } => Some(path),
            StagingPlace::Bucket(_) => None,
        }
    }

    /// Leaves the file where it waits for its row and returns its key: on disk in the
    /// staging folder, from where [`FileStore::complete`] (or the start-up sweep, once the
    /// row has committed) moves it into place; in a bucket at its key.
    pub fn leave_staged(mut self) -> String {
        self.persisted = true;
        std::mem::take(&mut self.key)
    }

    /// Moves the file into place and returns its key. Never replaces an existing file.
    pub async fn persist(mut self) -> io::Result<String> {
        if let StagingPlace::Disk { path, target } = &self.place {
            let (from, to) = (path.clone(), target.clone());
            tokio::task::spawn_blocking(move || {
                if let Some(folder) = to.parent() {
                    std::fs::create_dir_all(folder)?;
                }
                if to.exists() {
                    return Err(io::Error::new(io::ErrorKind::AlreadyExists, "key taken"));
                }
                std::fs::rename(&from, &to)
            })
            .await
            .map_err(io::Error::other)??;
        }
        // In a bucket the object is at its key already.
        self.persisted = true;
        Ok(std::mem::take(&mut self.key))
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if self.persisted {
            return;
        }
        match &self.place {
            StagingPlace::Disk { path, .. } => {
                let _ = std::fs::remove_file(path);
            }
            StagingPlace::Bucket(bucket) => {
                let (bucket, key) = (bucket.clone(), std::mem::take(&mut self.key));
                clean_up_later(async move {
                    if let Err(err) = bucket.delete(&key).await {
                        // The sweep removes it later: no row names it.
                        tracing::warn!(error = %err, key, "refused upload stays until the sweep");
                    }
                });
            }
        }
    }
}

/// A file found in the staging folder by the sweep.
#[derive(Debug)]
pub struct Leftover {
    /// The key it would have had.
    pub key: String,
    path: PathBuf,
}

impl FileStore {
    /// A store in the folder `root`, creating it when missing.
    pub fn new(root: impl Into<PathBuf>) -> io::Result<FileStore> {
        let root = root.into();
        std::fs::create_dir_all(root.join(STAGING))?;
        Ok(FileStore { root, bucket: None })
    }

    /// A store in `bucket`; `root` holds only the staging folder for archives.
    pub fn in_bucket(root: impl Into<PathBuf>, bucket: Arc<Bucket>) -> io::Result<FileStore> {
        let mut store = FileStore::new(root)?;
        store.bucket = Some(bucket);
        Ok(store)
    }

    /// The store the configuration asks for: its bucket, else `<data dir>/files`.
    pub fn from_config(config: &crate::config::Config) -> io::Result<FileStore> {
        match Bucket::from_config(config)? {
            Some(bucket) => FileStore::in_bucket(config.files_dir(), bucket),
            None => FileStore::new(config.files_dir()),
        }
    }

    /// The folder of the store (or of its staging folder, with a bucket).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the files are, for people: the bucket's name or the folder.
    pub fn describe(&self) -> String {
        match &self.bucket {
            Some(bucket) => format!("Bucket {}", bucket.describe()),
            None => self.root.display().to_string(),
        }
    }

    /// The bucket, when the files live in one.
    pub fn bucket(&self) -> Option<&Arc<Bucket>> {
        self.bucket.as_ref()
    }

    /// The path of the file a key names on disk, or `None` for a key that could leave the
    /// store.
    pub fn path_of(&self, key: &str) -> Option<PathBuf> {
        is_valid_key(key).then(|| self.root.join(key))
    }

    /// Where the bytes of `key` are read from, `None` for an invalid key.
    pub fn source_of(&self, key: &str) -> Option<Source> {
        if !is_valid_key(key) {
            return None;
        }
        Some(match &self.bucket {
            Some(bucket) => Source::Bucket {
                bucket: bucket.clone(),
                key: key.to_string(),
            },
            None => Source::Disk(self.root.join(key)),
        })
    }

    fn writer(key: String, sink: Sink, buffer: usize) -> StagedWriter {
        StagedWriter {
            key,
            sink,
            buffer: Vec::with_capacity(buffer),
            size: 0,
            sha256: Sha256::new(),
            crc32: crc32fast::Hasher::new(),
            head: Vec::with_capacity(HEAD_BYTES),
        }
    }

    /// Starts writing a new file with this extension (lower case without the dot; may be
    /// empty).
    pub async fn begin(&self, ext: &str) -> io::Result<StagedWriter> {
        match &self.bucket {
            Some(bucket) => {
                if !ext.is_empty() && !valid_ext(ext) {
                    return Err(invalid("ungültige Dateiendung"));
                }
                let sink = Sink::Bucket {
                    bucket: bucket.clone(),
                    upload: None,
                };
                Ok(Self::writer(new_key(ext), sink, WRITE_BUFFER))
            }
            None => self.begin_on_disk(ext).await,
        }
    }

    /// Starts writing a new file into the staging folder on disk, also with a bucket: for
    /// archives, which are read again to be unpacked and never kept.
    pub async fn begin_on_disk(&self, ext: &str) -> io::Result<StagedWriter> {
        if !ext.is_empty() && !valid_ext(ext) {
            return Err(invalid("ungültige Dateiendung"));
        }
        self.staged_on_disk(new_key(ext), false).await
    }

    /// A writer of `key` into the staging folder: a new file, or (`replace`) whatever is
    /// there under that name replaced.
    async fn staged_on_disk(&self, key: String, replace: bool) -> io::Result<StagedWriter> {
        let file_name = key.split_once('/').map_or(key.as_str(), |(_, f)| f);
        let path = self.root.join(STAGING).join(file_name);
        tokio::fs::create_dir_all(self.root.join(STAGING)).await?;
        let file = tokio::fs::OpenOptions::new()
            .write(true)
            .create(replace)
            .truncate(replace)
            .create_new(!replace)
            .open(&path)
            .await?;
        let sink = Sink::Disk {
            path,
            target: self.root.join(&key),
            file: Some(file),
        };
        Ok(Self::writer(key, sink, WRITE_BUFFER))
    }

    /// Starts writing the file of an existing `key` (an installation's archive being
    /// imported): on disk into the staging folder, whatever an earlier attempt left there
    /// replaced; in a bucket to the key itself.
    pub async fn begin_at(&self, key: &str) -> io::Result<StagedWriter> {
        if !is_valid_key(key) {
            return Err(invalid_key());
        }
        if let Some(bucket) = &self.bucket {
            let sink = Sink::Bucket {
                bucket: bucket.clone(),
                upload: None,
            };
            return Ok(Self::writer(key.to_string(), sink, WRITE_BUFFER));
        }
        self.staged_on_disk(key.to_string(), true).await
    }

    /// Writes `bytes` to a new staged file (small files: logos, demo data).
    pub async fn stage_bytes(&self, bytes: &[u8], ext: &str) -> io::Result<StagedFile> {
        let mut writer = self.begin(ext).await?;
        writer.write(bytes).await?;
        writer.finish().await
    }

    /// Stores `bytes` under a new key (staged, then renamed) and returns the key.
    pub async fn put_bytes(&self, bytes: &[u8], ext: &str) -> io::Result<String> {
        self.stage_bytes(bytes, ext).await?.persist().await
    }

    /// The bytes of a stored file, chunk by chunk.
    pub async fn chunks(
        &self,
        key: &str,
    ) -> io::Result<futures_util::stream::BoxStream<'static, io::Result<Bytes>>> {
        let source = self.source_of(key).ok_or_else(invalid_key)?;
        match source {
            Source::Bucket { bucket, key } => Ok(bucket.get_range(&key, None).await?.boxed()),
            Source::Disk(path) => {
                let file = tokio::fs::File::open(path).await?;
                Ok(file_chunks(file).boxed())
            }
        }
    }

    /// Reads a whole stored file.
    pub async fn read(&self, key: &str) -> io::Result<Vec<u8>> {
        let mut chunks = self.chunks(key).await?;
        let mut all = Vec::new();
        while let Some(chunk) = chunks.next().await {
            all.extend_from_slice(&chunk?);
        }
        Ok(all)
    }

    /// Size, SHA-256 and CRC-32 of a stored file, read once (for rows from before the
    /// checksums were measured at upload).
    pub async fn measure(&self, key: &str) -> io::Result<Digest32> {
        let mut chunks = self.chunks(key).await?;
        let mut sha = Sha256::new();
        let mut crc = crc32fast::Hasher::new();
        let mut size = 0u64;
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk?;
            sha.update(&chunk);
            crc.update(&chunk);
            size += chunk.len() as u64;
        }
        Ok(Digest32 {
            size,
            sha256: hex(&sha.finalize()),
            crc32: crc.finalize(),
        })
    }

    /// The size of a stored file; `None` when there is none.
    pub async fn size(&self, key: &str) -> io::Result<Option<u64>> {
        match self.source_of(key).ok_or_else(invalid_key)? {
            Source::Bucket { bucket, key } => bucket.size(&key).await,
            Source::Disk(path) => match tokio::fs::metadata(path).await {
                Ok(meta) => Ok(Some(meta.len())),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            },
        }
    }

    /// Removes a stored file. False when there was none (on disk; a bucket does not say).
    pub async fn delete(&self, key: &str) -> io::Result<bool> {
        let source = self.source_of(key).ok_or_else(invalid_key)?;
        match source {
            Source::Bucket { bucket, key } => bucket.delete(&key).await.map(|()| true),
            Source::Disk(path) => match tokio::fs::remove_file(path).await {
                Ok(()) => Ok(true),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
                Err(e) => Err(e),
            },
        }
    }

    /// What the staging folder holds (files a crash or a killed process left behind).
    pub async fn leftovers(&self) -> io::Result<Vec<Leftover>> {
        let staging = self.root.join(STAGING);
        tokio::task::spawn_blocking(move || {
            let mut found = Vec::new();
            let entries = match std::fs::read_dir(&staging) {
                Ok(entries) => entries,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(found),
                Err(e) => return Err(e),
            };
            for entry in entries {
                let entry = entry?;
                let name = entry.file_name().to_string_lossy().into_owned();
                let key = match name.get(..2) {
                    Some(shard) => format!("{shard}/{name}"),
                    None => name.clone(),
                };
                found.push(Leftover {
                    key,
                    path: entry.path(),
                });
            }
            Ok(found)
        })
        .await
        .map_err(io::Error::other)?
    }

    /// Moves a leftover whose row committed into place (into the bucket, with one).
    pub async fn complete(&self, leftover: Leftover) -> io::Result<()> {
        if !is_valid_key(&leftover.key) {
            return Err(invalid_key());
        }
        if let Some(bucket) = &self.bucket {
            bucket.upload_file(&leftover.path, &leftover.key).await?;
            return self.discard(leftover).await;
        }
        let target = self.root.join(&leftover.key);
        tokio::task::spawn_blocking(move || {
            if let Some(folder) = target.parent() {
                std::fs::create_dir_all(folder)?;
            }
            std::fs::rename(&leftover.path, &target)
        })
        .await
        .map_err(io::Error::other)?
    }

    /// Removes a leftover whose row never committed.
    pub async fn discard(&self, leftover: Leftover) -> io::Result<()> {
        match tokio::fs::remove_file(&leftover.path).await {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Every stored key with the time its file was last modified (the sweep's view of the
    /// disk or the bucket).
    pub async fn stored_keys(&self) -> io::Result<Vec<(String, SystemTime)>> {
        if let Some(bucket) = &self.bucket {
            return bucket.keys().await;
        }
        local_keys(self.root.clone()).await
    }
}

/// Every key in the folder `root` with its file's last change.
pub async fn local_keys(root: PathBuf) -> io::Result<Vec<(String, SystemTime)>> {
    tokio::task::spawn_blocking(move || {
        let mut keys = Vec::new();
        for shard in std::fs::read_dir(&root)? {
            let shard = shard?;
            let shard_name = shard.file_name().to_string_lossy().into_owned();
            if shard_name.starts_with('.') || !shard.file_type()?.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(shard.path())? {
                let file = file?;
                let key = format!("{shard_name}/{}", file.file_name().to_string_lossy());
                if is_valid_key(&key) && file.file_type()?.is_file() {
                    keys.push((key, file.metadata()?.modified()?));
                }
            }
        }
        Ok(keys)
    })
    .await
    .map_err(io::Error::other)?
}

/// A file's bytes as a stream of chunks of up to [`WRITE_BUFFER`].
fn file_chunks(
    file: tokio::fs::File,
) -> impl futures_util::Stream<Item = io::Result<Bytes>> + Send + 'static {
    futures_util::stream::try_unfold(file, |mut file| async move {
        use tokio::io::AsyncReadExt;
        let mut buffer = Vec::with_capacity(WRITE_BUFFER);
        let n = (&mut file)
            .take(WRITE_BUFFER as u64)
            .read_to_end(&mut buffer)
            .await?;
        Ok((n > 0).then(|| (Bytes::from(buffer), file)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_of_rejects_keys_that_leave_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path().join("files")).unwrap();
        assert_eq!(
            store.path_of("ab/abcdef0123.pdf"),
            Some(dir.path().join("files").join("ab/abcdef0123.pdf"))
        );
        assert!(store.path_of("readme").is_some());
        for bad in [
            "",
            "..",
            "../x.pdf",
            "ab/../../etc/passwd",
            "ab/..",
            "/etc/passwd",
            "ab//x.pdf",
            "ab/",
            "./ab/x.pdf",
            ".staging/ab12.pdf",
            "AB/x.pdf",
            "ab/x.PDF",
            "ab\\x.pdf",
            "ab/x y.pdf",
            "ab/x%2e.pdf",
            "ab/ü.pdf",
            "ab/x.pdf\0",
            "c:/x.pdf",
        ] {
            assert!(store.path_of(bad).is_none(), "accepted {bad:?}");
        }
        assert!(store.path_of(&"a".repeat(256)).is_none());
    }

    #[tokio::test]
    async fn put_open_delete() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path()).unwrap();
        let key = store.put_bytes(b"Hallo Welt", "txt").await.unwrap();
        assert!(is_valid_key(&key), "{key}");
        let (shard, file) = key.split_once('/').unwrap();
        assert_eq!(shard.len(), 2);
        assert!(file.starts_with(shard));
        assert!(file.ends_with(".txt"));
        assert_eq!(file.len(), 32 + 4);

        assert_eq!(store.read(&key).await.unwrap(), b"Hallo Welt");
        assert!(
            store.leftovers().await.unwrap().is_empty(),
            "nothing left in staging"
        );

        let other = store.put_bytes(b"Hallo Welt", "txt").await.unwrap();
        assert_ne!(other, key, "same content, different key");
        assert!(store.delete(&key).await.unwrap());
        assert!(!store.delete(&key).await.unwrap());
        assert_eq!(
            store.read(&key).await.unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert_eq!(
            store.read("../x").await.unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
        let keys: Vec<String> = store
            .stored_keys()
            .await
            .unwrap()
            .into_iter()
            .map(|k| k.0)
            .collect();
        assert_eq!(keys, vec![other]);
    }

    #[tokio::test]
    async fn bad_extensions_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path()).unwrap();
        for ext in [
            "PDF",
            ".pdf",
            "p/df",
            "tar.gz",
            "x y",
            "ü",
            "abcdefghijklmnopq",
        ] {
            let err = store.put_bytes(b"x", ext).await.unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{ext}");
        }
    }

    #[tokio::test]
    async fn a_writer_measures_what_it_writes() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path()).unwrap();
        let mut writer = store.begin("txt").await.unwrap();
        // More than the write buffer, in odd pieces.
        let chunk = vec![b'a'; 300_001];
        for _ in 0..5 {
            writer.write(&chunk).await.unwrap();
        }
        assert_eq!(writer.size(), 1_500_005);
        let staged = writer.finish().await.unwrap();
        let expected_sha = hex(&Sha256::digest(vec![b'a'; 1_500_005]));
        assert_eq!(staged.digest().sha256, expected_sha);
        assert_eq!(
            staged.digest().crc32,
            crc32fast::hash(&vec![b'a'; 1_500_005])
        );
        assert_eq!(staged.head().len(), HEAD_BYTES);
        let key = staged.persist().await.unwrap();
        assert_eq!(store.measure(&key).await.unwrap().sha256, expected_sha);
        assert_eq!(
            crc32fast::hash(b"123456789"),
            0xCBF4_3926,
            "the standard check value"
        );
    }

    #[tokio::test]
    async fn unfinished_and_unpersisted_files_leave_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path()).unwrap();
        let mut writer = store.begin("pdf").await.unwrap();
        writer.write(b"%PDF-1.4 halb").await.unwrap();
        drop(writer);
        let staged = store.stage_bytes(b"weg", "txt").await.unwrap();
        let key = staged.key().to_string();
        drop(staged);
        assert!(store.leftovers().await.unwrap().is_empty());
        assert!(!store.path_of(&key).unwrap().exists());
        assert!(store.stored_keys().await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn leftovers_of_a_crash_are_completed_or_discarded() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path()).unwrap();
        let committed = store.stage_bytes(b"mit Zeile", "txt").await.unwrap();
        let lost = store.stage_bytes(b"ohne Zeile", "txt").await.unwrap();
        let (committed_key, lost_key) = (committed.key().to_string(), lost.key().to_string());
        // A crash: neither was renamed nor removed.
        std::mem::forget(committed);
        std::mem::forget(lost);
        let mut leftovers = store.leftovers().await.unwrap();
        assert_eq!(leftovers.len(), 2);
        leftovers.sort_by_key(|l| l.key != committed_key);
        let mut it = leftovers.into_iter();
        store.complete(it.next().unwrap()).await.unwrap();
        store.discard(it.next().unwrap()).await.unwrap();
        assert_eq!(store.read(&committed_key).await.unwrap(), b"mit Zeile");
        assert!(!store.path_of(&lost_key).unwrap().exists());
        assert!(store.leftovers().await.unwrap().is_empty());
    }
}
