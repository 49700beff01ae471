//! Uploaded files (spec §5 "Upload", §8): each file streamed to the staging folder with
//! bounded memory while size, SHA-256, CRC-32 and type are measured; ZIP archives unpacked
//! into their files, each checked like an upload; rows written in one transaction, and only
//! then the files renamed into place. A refused or broken upload leaves no row and no file.

use std::collections::HashMap;
use std::io::Read;

use serde::{Deserialize, Serialize};

use crate::db::{self, Db};
use crate::domain::audit::Actor;
use crate::domain::files::{content_type, extension_of, is_archive, is_nested_archive};
use crate::domain::permissions::may_use_upload;
use crate::domain::text::is_invisible;
use crate::domain::user::User;
use crate::services::error::ServiceError;
use crate::storage::{FileStore, StagedFile, StagedWriter};

/// The upload rules of the configuration (`GET /api/upload-requirements/`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadRules {
    pub limit_size_mb: u64,
    /// Lower-case extensions without the dot.
    pub allowed_ext: Vec<String>,
    /// Most entries an uploaded archive may have.
    pub zip_max_entries: usize,
    /// Largest ratio of unpacked to packed size of an archive entry over 1 MiB.
    pub zip_max_ratio: u64,
}

impl UploadRules {
    /// The upload rules the server enforces and `/api/upload-requirements/` reports.
    pub fn from_config(config: &crate::config::Config) -> UploadRules {
        UploadRules {
            limit_size_mb: config.upload_limit_mb,
            allowed_ext: config.allowed_extensions(),
            zip_max_entries: config.zip_max_entries,
            zip_max_ratio: config.zip_max_ratio,
        }
    }

    pub fn limit_bytes(&self) -> u64 {
        self.limit_size_mb.saturating_mul(1024 * 1024)
    }

    pub fn allows(&self, ext: &str) -> bool {
        self.allowed_ext.iter().any(|allowed| allowed == ext)
    }
}

/// Most files one upload request may carry.
pub const MAX_FILES_PER_REQUEST: usize = 100;

/// Why an upload was refused (spec §8): the API answers 413 and 422 with these fields.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    #[error("Die Datei {file_name} ist zu groß. Erlaubt sind höchstens {limit_size_mb} MB.")]
    TooLarge {
        file_name: String,
        limit_size_mb: u64,
    },
    #[error("Diese Dateitypen sind nicht erlaubt: {}.", file_extensions.join(", "))]
    ExtensionNotAllowed {
        files_over_ext_limit: Vec<String>,
        file_extensions: Vec<String>,
        allowed_ext_array: Vec<String>,
    },
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl From<std::io::Error> for UploadError {
    fn from(err: std::io::Error) -> Self {
        UploadError::Service(ServiceError::internal(err))
    }
}

fn invalid(message: String) -> UploadError {
    UploadError::Service(ServiceError::Invalid(message))
}

/// An upload as other answers embed it (`Upload` in spec §3).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct UploadRef {
    pub id: i64,
    pub name: String,
    /// Site-relative URL that serves the file to users allowed to see it.
    pub path: String,
}

/// Characters kept as they are in a file URL's name: letters, digits and `-._~`.
const PATH_NAME: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The URL path under which an upload is served: the id and the name (percent-encoded, so
/// umlauts and spaces survive).
pub fn file_path(id: i64, name: &str) -> String {
    format!(
        "/files/{id}/{}",
        percent_encoding::utf8_percent_encode(name, PATH_NAME)
    )
}

pub fn upload_ref(upload: &db::catalog::uploads::Upload) -> UploadRef {
    UploadRef {
        id: upload.id,
        name: upload.name.clone(),
        path: file_path(upload.id, &upload.name),
    }
}

/// A stored upload as `POST /api/upload/` answers it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct StoredUpload {
    pub id: i64,
    pub name: String,
    pub path: String,
    pub ext: String,
    pub size: i64,
    #[serde(rename = "contentType")]
    pub content_type: String,
}

/// The answer of `POST /api/upload/`: the first file's fields (spec §7 reads `id`), and all
/// files (an archive becomes many).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct UploadAnswer {
    #[serde(flatten)]
    pub first: StoredUpload,
    pub uploads: Vec<StoredUpload>,
}

/// A name to store a file under: no path, no invisible characters, at most 255 characters
/// with the extension kept; "Datei.<ext>" when nothing is left.
pub fn clean_file_name(raw: &str, ext: &str) -> String {
    let base = raw.rsplit(['/', '\\']).next().unwrap_or("");
    let visible: String = base.chars().filter(|c| !is_invisible(*c)).collect();
    let cleaned = crate::domain::text::clean(&visible).unwrap_or_default();
    let cleaned = cleaned.trim_start_matches('.').to_string();
    if cleaned.is_empty() {
        return if ext.is_empty() {
            "Datei".to_string()
        } else {
            format!("Datei.{ext}")
        };
    }
    if cleaned.chars().count() <= 255 {
        return cleaned;
    }
    let suffix = if ext.is_empty() {
        String::new()
    } else {
        format!(".{ext}")
    };
    let stem: String = cleaned.chars().take(255 - suffix.chars().count()).collect();
    format!("{stem}{suffix}")
}

/// A file that passed every check, waiting for its row.
struct Accepted {
    name: String,
    ext: String,
    content_type: &'static str,
    staged: StagedFile,
}

/// A file arriving in an upload.
pub struct IncomingFile {
    name: String,
    ext: String,
    writer: StagedWriter,
}

/// The files of one upload request, checked as they arrive and stored together.
pub struct UploadBatch<'a> {
    store: &'a FileStore,
    rules: &'a UploadRules,
    accepted: Vec<Accepted>,
    refused_names: Vec<String>,
    refused_exts: Vec<String>,
    files_seen: usize,
    new_name: Option<String>,
}

impl<'a> UploadBatch<'a> {
    pub fn new(store: &'a FileStore, rules: &'a UploadRules) -> Self {
        UploadBatch {
            store,
            rules,
            accepted: Vec::new(),
            refused_names: Vec::new(),
            refused_exts: Vec::new(),
            files_seen: 0,
            new_name: None,
        }
    }

    /// The name the (single) uploaded file shall have instead of its own (`newName`).
    pub fn set_new_name(&mut self, name: &str) {
        let name = name.trim();
        self.new_name = (!name.is_empty()).then(|| name.to_string());
    }

    /// Starts a file; `None` when its extension is not allowed (it is reported at the end,
    /// together with every other refused file, and its bytes are skipped).
    pub async fn begin(
        &mut self,
        file_name: Option<&str>,
    ) -> Result<Option<IncomingFile>, UploadError> {
        self.files_seen += 1;
        if self.files_seen > MAX_FILES_PER_REQUEST {
            return Err(invalid(format!(
                "Es können höchstens {MAX_FILES_PER_REQUEST} Dateien auf einmal hochgeladen werden."
            )));
        }
        let raw = file_name.unwrap_or("");
        let ext = extension_of(raw).unwrap_or_default();
        let name = clean_file_name(raw, &ext);
        if ext.is_empty() || !self.rules.allows(&ext) {
            self.refused_names.push(name);
            let shown = if ext.is_empty() {
                "(ohne Endung)".to_string()
            } else {
                ext
            };
            if !self.refused_exts.contains(&shown) {
                self.refused_exts.push(shown);
            }
            return Ok(None);
        }
        // An archive is read again to be unpacked and never kept: it stays on disk.
        let writer = if is_archive(&ext) {
            self.store.begin_on_disk(&ext).await?
        } else {
            self.store.begin(&ext).await?
        };
        Ok(Some(IncomingFile { name, ext, writer }))
    }

    /// Writes a chunk; a file over the size limit ends the upload with 413.
    pub async fn write(&self, file: &mut IncomingFile, chunk: &[u8]) -> Result<(), UploadError> {
        if file.writer.size() + chunk.len() as u64 > self.rules.limit_bytes() {
            return Err(UploadError::TooLarge {
                file_name: file.name.clone(),
                limit_size_mb: self.rules.limit_size_mb,
            });
        }
        file.writer.write(chunk).await?;
        Ok(())
    }

    /// Completes a file: checks it and, for an archive, unpacks it.
    pub async fn finish(&mut self, file: IncomingFile) -> Result<(), UploadError> {
        let IncomingFile { name, ext, writer } = file;
        let staged = writer.finish().await?;
        if staged.digest().size == 0 {
            return Err(invalid(format!(
                "Die Datei {name} muss größer als 0 KB sein."
            )));
        }
        if is_archive(&ext) {
            let archive = staged;
            let unpacked = unpack(self.store, self.rules, &name, archive).await?;
            for entry in unpacked {
                match entry {
                    Unpacked::Accepted(accepted) => self.accepted.push(accepted),
                    Unpacked::Refused { name, ext } => {
                        self.refused_names.push(name);
                        if !self.refused_exts.contains(&ext) {
                            self.refused_exts.push(ext);
                        }
                    }
                }
            }
            return Ok(());
        }
        let content_type = check_content(&name, &ext, staged.head())?;
        self.accepted.push(Accepted {
            name,
            ext,
            content_type,
            staged,
        });
        Ok(())
    }

    /// Writes the rows in one transaction, then renames the files into place. The files are
    /// the uploader's: fresh, only they may put them into a package.
    pub async fn commit(mut self, db: &Db, uploader: &User) -> Result<UploadAnswer, UploadError> {
        if !self.refused_names.is_empty() {
            return Err(UploadError::ExtensionNotAllowed {
                files_over_ext_limit: self.refused_names,
                file_extensions: self.refused_exts,
                allowed_ext_array: self.rules.allowed_ext.clone(),
            });
        }
        if self.accepted.is_empty() {
            return Err(invalid("Es wurde keine Datei hochgeladen.".into()));
        }
        if let Some(new_name) = self.new_name.take()
            && self.accepted.len() == 1
        {
            let first = &mut self.accepted[0];
            first.name = crate::domain::packages::FileName::parse(&new_name, &first.ext)
                .map_err(invalid)?
                .into_inner();
        }
        let rows: Vec<db::catalog::uploads::NewUpload> = self
            .accepted
            .iter()
            .map(|file| db::catalog::uploads::NewUpload {
                name: file.name.clone(),
                storage_key: file.staged.key().to_string(),
                ext: file.ext.clone(),
                size: file.staged.digest().size as i64,
                content_type: file.content_type.to_string(),
                sha256: Some(file.staged.digest().sha256.clone()),
                crc32: Some(i64::from(file.staged.digest().crc32)),
                uploaded_by: Some(uploader.subject.clone()).filter(|s| !s.is_empty()),
            })
            .collect();
        let stored = db::catalog::uploads::create_many(db, &rows, &Actor::of(uploader))
            .await
            .map_err(ServiceError::from)?;
        for (file, row) in self.accepted.into_iter().zip(&stored) {
            if let Err(err) = file.staged.persist().await {
                // Without their files the rows are useless: remove them all again.
                for row in &stored {
                    let _ = db::catalog::uploads::delete(db, row.id, &Actor::System).await;
                }
                tracing::error!(error = %err, upload = row.id, "stored file could not be moved into place");
                return Err(ServiceError::internal(err).into());
            }
        }
        let uploads: Vec<StoredUpload> = stored
            .iter()
            .map(|u| StoredUpload {
                id: u.id,
                name: u.name.clone(),
                path: file_path(u.id, &u.name),
                ext: u.ext.clone(),
                size: u.size,
                content_type: u.content_type.clone(),
            })
            .collect();
        Ok(UploadAnswer {
            first: uploads[0].clone(),
            uploads,
        })
    }
}

/// The content type of a file whose first bytes are `head`, or the German refusal.
fn check_content(name: &str, ext: &str, head: &[u8]) -> Result<&'static str, UploadError> {
    content_type(ext, head).ok_or_else(|| {
        invalid(format!(
            "Der Inhalt der Datei {name} passt nicht zu ihrer Endung .{ext}."
        ))
    })
}

enum Unpacked {
    Accepted(Accepted),
    Refused { name: String, ext: String },
}

/// Entries above this size are checked for a suspicious compression ratio.
const RATIO_CHECK_FROM: u64 = 1024 * 1024;

/// Unpacks an uploaded archive into staged files, one per entry, each checked like an upload.
/// Refuses the whole archive (naming it) for paths that leave the archive, links, encrypted
/// entries, archives inside, empty files, too many entries, too many bytes and zip bombs.
async fn unpack(
    store: &FileStore,
    rules: &UploadRules,
    archive_name: &str,
    archive: StagedFile,
) -> Result<Vec<Unpacked>, UploadError> {
    let store = store.clone();
    let rules = rules.clone();
    let archive_name = archive_name.to_string();
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let refuse =
            |why: &str| invalid(format!("Das Archiv {archive_name} wurde abgelehnt: {why}"));
        let path = archive
            .path()
            .ok_or_else(|| std::io::Error::other("archive not on disk"))?;
        let file = std::fs::File::open(path)?;
        let mut zip = zip::ZipArchive::new(std::io::BufReader::new(file))
            .map_err(|_| refuse("Es ist keine lesbare ZIP-Datei."))?;
        if zip.len() > rules.zip_max_entries {
            return Err(refuse(&format!(
                "Es enthält mehr als {} Einträge.",
                rules.zip_max_entries
            )));
        }
        let mut declared_total = 0u64;
        let mut out = Vec::new();
        for index in 0..zip.len() {
            let mut entry = zip
                .by_index(index)
                .map_err(|_| refuse("Ein Eintrag ist verschlüsselt oder beschädigt."))?;
            let raw_name = entry
                .name()
                .map_err(|_| refuse("Ein Dateiname im Archiv ist nicht lesbar."))?
                .to_string();
            let shown: String = raw_name
                .chars()
                .filter(|c| !c.is_control())
                .take(120)
                .collect();
            if raw_name.starts_with('/') || raw_name.starts_with('\\') || raw_name.contains(':') {
                return Err(refuse(&format!(
                    "Der Eintrag „{shown}“ hat einen absoluten Pfad."
                )));
            }
            let Some(enclosed) = entry.enclosed_name() else {
                return Err(refuse(&format!(
                    "Der Eintrag „{shown}“ zeigt aus dem Archiv heraus."
                )));
            };
            if entry.is_symlink() {
                return Err(refuse(&format!(
                    "Der Eintrag „{shown}“ ist ein Verweis (Symlink)."
                )));
            }
            if entry.is_dir() {
                continue;
            }
            if entry.encrypted() {
                return Err(refuse(&format!("Der Eintrag „{shown}“ ist verschlüsselt.")));
            }
            let declared = entry.size();
            declared_total = declared_total.saturating_add(declared);
            if declared > rules.limit_bytes() || declared_total > rules.limit_bytes() {
                return Err(refuse(&format!(
                    "Entpackt ist es größer als {} MB.",
                    rules.limit_size_mb
                )));
            }
            let packed = entry.compressed_size().max(1);
            if declared > RATIO_CHECK_FROM && declared / packed > rules.zip_max_ratio {
                return Err(refuse("Es ist verdächtig stark komprimiert (ZIP-Bombe)."));
            }
            let file_name = enclosed
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let ext = extension_of(&file_name).unwrap_or_default();
            let name = clean_file_name(&file_name, &ext);
            let label = format!("{archive_name}/{name}");
            if ext.is_empty() || !rules.allows(&ext) || is_archive(&ext) {
                if is_archive(&ext) {
                    return Err(refuse(&format!("Es enthält ein weiteres Archiv ({name}).")));
                }
                out.push(Unpacked::Refused {
                    name: label,
                    ext: if ext.is_empty() {
                        "(ohne Endung)".into()
                    } else {
                        ext
                    },
                });
                continue;
            }
            // Never more than the header declared: a lying header cannot inflate the disk.
            let mut limited = (&mut entry).take(declared + 1);
            let mut writer = runtime.block_on(store.begin(&ext))?;
            let mut buffer = vec![0u8; 256 * 1024];
            loop {
                let n = limited
                    .read(&mut buffer)
                    .map_err(|_| refuse(&format!("Der Eintrag „{shown}“ ist beschädigt.")))?;
                if n == 0 {
                    break;
                }
                if writer.size() + n as u64 > declared {
                    return Err(refuse("Ein Eintrag ist größer als angegeben (ZIP-Bombe)."));
                }
                runtime.block_on(writer.write(&buffer[..n]))?;
            }
            let staged = runtime.block_on(writer.finish())?;
            if staged.digest().size == 0 {
                return Err(invalid(format!(
                    "Die Datei {label} muss größer als 0 KB sein."
                )));
            }
            if is_nested_archive(&ext, staged.head()) {
                return Err(refuse(&format!("Es enthält ein weiteres Archiv ({name}).")));
            }
            let content_type = check_content(&label, &ext, staged.head())?;
            out.push(Unpacked::Accepted(Accepted {
                name,
                ext,
                content_type,
                staged,
            }));
        }
        drop(archive);
        Ok(out)
    })
    .await
    .map_err(|e| UploadError::Service(ServiceError::internal(e)))?
}

/// The refusal of an upload that is not the user's to use.
pub const NOT_YOURS: &str = "Diese Datei dürfen Sie nicht verwenden. Sie können nur Dateien \
     hinzufügen, die Sie selbst hochgeladen haben oder die schon in einem Download eines Ihrer \
     Anbieter liegen.";

/// Refuses (403, nothing changed) unless the user may put every one of these uploads into a
/// package or make it a logo: see [`may_use_upload`]. One query for the packages holding
/// them, one for their providers.
pub async fn check_usable(
    db: &Db,
    user: &User,
    uploads: &[&db::catalog::uploads::Upload],
) -> Result<(), ServiceError> {
    if user.is_admin() || uploads.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = uploads.iter().map(|u| u.id).collect();
    let held = db::catalog::uploads::package_providers(db, &ids).await?;
    let mut provider_ids: Vec<i64> = held.iter().map(|(_, provider)| *provider).collect();
    provider_ids.sort_unstable();
    provider_ids.dedup();
    let roles: HashMap<i64, Vec<String>> = db::marketing::providers::get_many(db, &provider_ids)
        .await?
        .into_iter()
        .map(|p| (p.id, p.allowed_roles))
        .collect();
    for upload in uploads {
        let holders: Vec<&[String]> = held
            .iter()
            .filter(|(id, _)| *id == upload.id)
            .filter_map(|(_, provider)| roles.get(provider).map(Vec::as_slice))
            .collect();
        if !may_use_upload(user, upload.uploaded_by.as_deref(), &holders) {
            tracing::warn!(upload = upload.id, "upload refused: not the user's to use");
            return Err(ServiceError::Refused(NOT_YOURS.into()));
        }
    }
    Ok(())
}

/// Stores small generated bytes as an upload (logos and files of the demo data).
pub async fn store_bytes(
    db: &Db,
    files: &FileStore,
    bytes: &[u8],
    name: &str,
) -> Result<db::catalog::uploads::Upload, ServiceError> {
    let ext = extension_of(name).unwrap_or_default();
    let content_type = content_type(&ext, bytes).unwrap_or("application/octet-stream");
    let staged = files
        .stage_bytes(bytes, &ext)
        .await
        .map_err(anyhow::Error::from)?;
    let upload = db::catalog::uploads::create(
        db,
        &db::catalog::uploads::NewUpload {
            name: clean_file_name(name, &ext),
            storage_key: staged.key().to_string(),
            ext,
            size: bytes.len() as i64,
            content_type: content_type.to_string(),
            sha256: Some(staged.digest().sha256.clone()),
            crc32: Some(i64::from(staged.digest().crc32)),
            uploaded_by: None,
        },
        &Actor::System,
    )
    .await?;
    if let Err(err) = staged.persist().await {
        let _ = db::catalog::uploads::delete(db, upload.id, &Actor::System).await;
        return Err(ServiceError::internal(err));
    }
    Ok(upload)
}

/// Removes the rows and files of those uploads that nothing uses any more (after a package
/// or provider was deleted, or files were taken out of a package).
pub async fn remove_unreferenced(
    db: &Db,
    files: &FileStore,
    ids: &[i64],
    actor: &Actor,
) -> Result<usize, ServiceError> {
    let deleted = db::catalog::uploads::delete_unreferenced(db, ids, actor).await?;
    for upload in &deleted {
        if let Err(err) = files.delete(&upload.storage_key).await {
            // The row is gone; the sweep removes the file later.
            tracing::warn!(error = %err, upload = upload.id, "file of a deleted upload stays until the sweep");
        }
    }
    let contents: Vec<String> = deleted.iter().filter_map(|u| u.sha256.clone()).collect();
    crate::services::catalog::previews::forget(db, files, Some(&contents)).await?;
    Ok(deleted.len())
}

/// How old an unused upload or an unknown file must be before the sweep removes it: a form
/// may hold fresh uploads for a while before it is saved.
pub const SWEEP_AGE: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

/// What the sweep did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    pub completed: usize,
    pub discarded: usize,
    pub unused_uploads: usize,
    pub unknown_files: usize,
    pub measured: usize,
    /// Stored previews of contents no upload has any more.
    pub unused_previews: usize,
}

/// Settles what a crash left in the staging folder: a file whose row committed is moved into
/// place (the crash came between commit and rename), any other is removed. Runs before the
/// server accepts requests.
pub async fn settle_leftovers(db: &Db, files: &FileStore) -> Result<SweepReport, ServiceError> {
    let mut report = SweepReport::default();
    for leftover in files.leftovers().await.map_err(anyhow::Error::from)? {
        // An upload's file, or a preview's (an import moves both in after its rows commit).
        if db::catalog::uploads::key_in_use(db, &leftover.key).await?
            || db::catalog::previews::key_in_use(db, &leftover.key).await?
        {
            files
                .complete(leftover)
                .await
                .map_err(anyhow::Error::from)?;
            report.completed += 1;
        } else {
            files.discard(leftover).await.map_err(anyhow::Error::from)?;
            report.discarded += 1;
        }
    }
    Ok(report)
}

/// Removes uploads nothing has used for [`SWEEP_AGE`] (abandoned forms), previews of
/// contents no upload has, files on disk that no row names and that are older than that,
/// and measures the checksums of rows from before
/// they were measured at upload.
pub async fn sweep(db: &Db, files: &FileStore) -> Result<SweepReport, ServiceError> {
    sweep_as_of(db, files, db::now()).await
}

/// [`sweep`] as if it were `now` (a bucket's objects cannot be made older in a test).
pub async fn sweep_as_of(
    db: &Db,
    files: &FileStore,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<SweepReport, ServiceError> {
    let mut report = settle_leftovers(db, files).await?;
    let age = chrono::Duration::from_std(SWEEP_AGE).expect("fits");
    loop {
        let unused = db::catalog::uploads::unreferenced_before(db, now - age, 500).await?;
        if unused.is_empty() {
            break;
        }
        let removed = remove_unreferenced(db, files, &unused, &Actor::System).await?;
        report.unused_uploads += removed;
        if removed < unused.len() {
            break;
        }
    }
    report.unused_previews = crate::services::catalog::previews::forget(db, files, None).await?;
    let cutoff = std::time::SystemTime::from(now) - SWEEP_AGE;
    for (key, modified) in files.stored_keys().await.map_err(anyhow::Error::from)? {
        if modified < cutoff
            && !db::catalog::uploads::key_in_use(db, &key).await?
            && !db::catalog::previews::key_in_use(db, &key).await?
        {
            files.delete(&key).await.map_err(anyhow::Error::from)?;
            report.unknown_files += 1;
        }
    }
    loop {
        let batch = db::catalog::uploads::without_checksums(db, 100).await?;
        if batch.is_empty() {
            break;
        }
        for upload in &batch {
            match files.measure(&upload.storage_key).await {
                Ok(digest) => {
                    db::catalog::uploads::set_checksums(
                        db,
                        upload.id,
                        digest.size as i64,
                        &digest.sha256,
                        i64::from(digest.crc32),
                    )
                    .await?;
                    report.measured += 1;
                }
                Err(err) => {
                    tracing::error!(error = %err, upload = upload.id, "stored file missing or unreadable");
                    return Ok(report);
                }
            }
        }
    }
    Ok(report)
}

/// What copying a local store into a bucket did and found.
#[derive(Debug, Default)]
pub struct CopyReport {
    /// Files uploaded by this run.
    pub copied: usize,
    /// Files that were in the bucket already with the right size.
    pub present: usize,
    /// Rows whose file is neither on disk nor in the bucket.
    pub missing: Vec<String>,
    /// Rows whose file in the bucket has another size or checksum than the row says.
    pub mismatched: Vec<String>,
}

impl CopyReport {
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty() && self.mismatched.is_empty()
    }
}

impl std::fmt::Display for CopyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} Dateien kopiert, {} waren schon im Bucket.",
            self.copied, self.present
        )?;
        for key in &self.missing {
            writeln!(f, "Fehlt (weder im Ordner noch im Bucket): {key}")?;
        }
        for key in &self.mismatched {
            writeln!(f, "Größe oder Prüfsumme stimmt nicht: {key}")?;
        }
        if self.is_complete() {
            write!(f, "Geprüft: jede Datei der Datenbank ist im Bucket.")?;
        }
        Ok(())
    }
}

/// Copies every file a row names from the folder store `local` into the bucket store
/// `bucket` (operator command `copy-files-to-bucket`) and checks the result: a file already in
/// the bucket with the row's size is kept; a copied file is read back and its SHA-256
/// compared with the row's. Files no row names are not copied (the sweep would remove them).
pub async fn copy_to_bucket(
    db: &Db,
    local: &FileStore,
    bucket: &FileStore,
) -> Result<CopyReport, ServiceError> {
    let target = bucket
        .bucket()
        .ok_or_else(|| ServiceError::Invalid("Es ist kein Bucket eingestellt.".into()))?;
    let mut report = CopyReport::default();
    let mut after = 0;
    loop {
        let page = db::catalog::uploads::page_after(db, after, 500).await?;
        let Some(last) = page.last() else {
            break;
        };
        after = last.id;
        for upload in &page {
            let key = &upload.storage_key;
            let expected = upload.size.max(0) as u64;
            if target.size(key).await.map_err(anyhow::Error::from)? == Some(expected) {
                report.present += 1;
                continue;
            }
            let Some(path) = local.path_of(key).filter(|path| path.is_file()) else {
                report.missing.push(key.clone());
                continue;
            };
            target
                .upload_file(&path, key)
                .await
                .map_err(anyhow::Error::from)?;
            let copied = bucket.measure(key).await.map_err(anyhow::Error::from)?;
            let sha_matches = upload
                .sha256
                .as_deref()
                .is_none_or(|sha| sha == copied.sha256);
            if copied.size != expected || !sha_matches {
                report.mismatched.push(key.clone());
            } else {
                report.copied += 1;
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_paths_keep_umlauts_and_spaces_encoded() {
        assert_eq!(file_path(7, "Logo Süd.png"), "/files/7/Logo%20S%C3%BCd.png");
        assert_eq!(file_path(8, "a/b?.pdf"), "/files/8/a%2Fb%3F.pdf");
    }

    #[test]
    fn names_lose_paths_and_invisible_characters() {
        assert_eq!(
            clean_file_name("C:\\Bilder\\Flyer Süd.PDF", "pdf"),
            "Flyer Süd.PDF"
        );
        assert_eq!(clean_file_name("../../etc/passwd", ""), "passwd");
        assert_eq!(clean_file_name("Fly\u{202E}er.pdf", "pdf"), "Flyer.pdf");
        assert_eq!(clean_file_name("", "pdf"), "Datei.pdf");
        assert_eq!(clean_file_name(".htaccess", ""), "htaccess");
        let long = format!("{}.pdf", "x".repeat(300));
        let cleaned = clean_file_name(&long, "pdf");
        assert_eq!(cleaned.chars().count(), 255);
        assert!(cleaned.ends_with(".pdf"));
    }
}
