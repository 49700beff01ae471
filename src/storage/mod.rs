//! File store: uploaded files under `<data dir>/files`, never served as a public folder.
//!
//! A file is stored under a content-independent key: 128 random bits in lower-case hex, sharded
//! into a subfolder named after its first two characters, plus the lower-case extension, e.g.
//! `3f/3fa85f6457174562b3fc2c963f66afa6.pdf`. Bytes are written to a temporary file in the target
//! folder, flushed, and only then renamed into place, so a key never names a half-written file.
//!
//! Two ways to store: [`FileStore::put_bytes`] writes and renames at once;
//! [`FileStore::stage_bytes`] writes the temporary file and hands back a [`StagedFile`] to
//! [`StagedFile::persist`] once the database row has committed (dropping it instead removes the
//! temporary file).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rand::RngCore;

#[derive(Debug, Clone)]
pub struct FileStore {
    root: PathBuf,
}

/// Bytes written to a temporary file beside their final place, waiting to be renamed there.
#[derive(Debug)]
pub struct StagedFile {
    key: String,
    target: PathBuf,
    temp: tempfile::NamedTempFile,
}

impl StagedFile {
    /// The key the file will have once persisted.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Renames the temporary file into place and returns its key. Never replaces an existing file.
    pub async fn persist(self) -> io::Result<String> {
        let StagedFile { key, target, temp } = self;
        tokio::task::spawn_blocking(move || temp.persist_noclobber(&target).map_err(|e| e.error))
            .await
            .map_err(io::Error::other)??;
        Ok(key)
    }
}

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_string())
}

/// True for an extension the store accepts: 1–16 characters of `[a-z0-9]`.
fn valid_ext(ext: &str) -> bool {
    (1..=16).contains(&ext.len())
        && ext
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// A new random key for a file with this extension (no extension when `ext` is empty).
fn new_key(ext: &str) -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    if ext.is_empty() {
        format!("{}/{hex}", &hex[..2])
    } else {
        format!("{}/{hex}.{ext}", &hex[..2])
    }
}

/// True for a key that stays inside the store: relative, made of `[a-z0-9./]` only, no empty
/// segment and no segment starting with a dot (which rules out `.`, `..` and temporary files).
pub fn is_valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 255
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'/')
        && key
            .split('/')
            .all(|segment| !segment.is_empty() && !segment.starts_with('.'))
}

impl FileStore {
    /// A store rooted at `root`, creating the folder when missing.
    pub fn new(root: impl Into<PathBuf>) -> io::Result<FileStore> {
        let root = root.into();
        std::fs::create_dir_all(&root)?;
        Ok(FileStore { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path of the file a key names, or `None` for a key that could leave the store.
    pub fn path_of(&self, key: &str) -> Option<PathBuf> {
        is_valid_key(key).then(|| self.root.join(key))
    }

    /// Writes `bytes` to a temporary file in the folder its new key points to and returns the
    /// staged file; nothing is visible under the key until [`StagedFile::persist`].
    /// `ext` is the lower-case extension without the dot (may be empty).
    pub async fn stage_bytes(&self, bytes: &[u8], ext: &str) -> io::Result<StagedFile> {
        if !ext.is_empty() && !valid_ext(ext) {
            return Err(invalid("ungültige Dateiendung"));
        }
        let key = new_key(ext);
        let target = self.root.join(&key);
        let folder = target
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| self.root.clone());
        let bytes = bytes.to_vec();
        let temp = tokio::task::spawn_blocking(move || -> io::Result<tempfile::NamedTempFile> {
            std::fs::create_dir_all(&folder)?;
            let mut temp = tempfile::Builder::new()
                .prefix(".tmp-")
                .tempfile_in(&folder)?;
            temp.write_all(&bytes)?;
            temp.as_file().sync_all()?;
            Ok(temp)
        })
        .await
        .map_err(io::Error::other)??;
        Ok(StagedFile { key, target, temp })
    }

    /// Stores `bytes` under a new key (written to a temporary file, then renamed) and returns it.
    pub async fn put_bytes(&self, bytes: &[u8], ext: &str) -> io::Result<String> {
        self.stage_bytes(bytes, ext).await?.persist().await
    }

    /// Opens a stored file for reading.
    pub async fn open(&self, key: &str) -> io::Result<tokio::fs::File> {
        let path = self
            .path_of(key)
            .ok_or_else(|| invalid("ungültiger Dateischlüssel"))?;
        tokio::fs::File::open(path).await
    }

    /// Reads a whole stored file.
    pub async fn read(&self, key: &str) -> io::Result<Vec<u8>> {
        let path = self
            .path_of(key)
            .ok_or_else(|| invalid("ungültiger Dateischlüssel"))?;
        tokio::fs::read(path).await
    }

    /// Removes a stored file. False when there was none.
    pub async fn delete(&self, key: &str) -> io::Result<bool> {
        let path = self
            .path_of(key)
            .ok_or_else(|| invalid("ungültiger Dateischlüssel"))?;
        match tokio::fs::remove_file(path).await {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt;

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
            "ab/.tmp-xyz",
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

    #[test]
    fn new_creates_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("data").join("files");
        let store = FileStore::new(&root).unwrap();
        assert!(root.is_dir());
        assert_eq!(store.root(), root);
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

        let mut text = String::new();
        store
            .open(&key)
            .await
            .unwrap()
            .read_to_string(&mut text)
            .await
            .unwrap();
        assert_eq!(text, "Hallo Welt");
        assert_eq!(store.read(&key).await.unwrap(), b"Hallo Welt");
        // Only the final file is left in the shard folder: no temporary leftovers.
        let entries: Vec<_> = std::fs::read_dir(dir.path().join(shard)).unwrap().collect();
        assert_eq!(entries.len(), 1);

        // Same content, different key.
        let other = store.put_bytes(b"Hallo Welt", "txt").await.unwrap();
        assert_ne!(other, key);
        let bare = store.put_bytes(b"", "").await.unwrap();
        assert!(!bare.contains('.'));

        assert!(store.delete(&key).await.unwrap());
        assert!(!store.delete(&key).await.unwrap());
        assert_eq!(
            store.open(&key).await.unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert_eq!(
            store.open("../x").await.unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
        assert_eq!(
            store.delete("/x").await.unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
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
    async fn staged_file_appears_only_when_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path()).unwrap();
        let staged = store.stage_bytes(b"%PDF-1.4", "pdf").await.unwrap();
        let key = staged.key().to_string();
        assert!(!store.path_of(&key).unwrap().exists());
        assert_eq!(staged.persist().await.unwrap(), key);
        assert_eq!(store.read(&key).await.unwrap(), b"%PDF-1.4");

        // Dropping a staged file removes its temporary file.
        let dropped = store.stage_bytes(b"weg", "txt").await.unwrap();
        let shard = dir.path().join(&dropped.key()[..2]);
        let dropped_key = dropped.key().to_string();
        drop(dropped);
        assert!(!store.path_of(&dropped_key).unwrap().exists());
        let leftovers = std::fs::read_dir(&shard)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp"))
                    .count()
            })
            .unwrap_or(0);
        assert_eq!(leftovers, 0);
    }
}
