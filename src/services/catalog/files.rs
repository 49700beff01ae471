//! Who may download which stored file, and the package ZIP (spec §6, design "Who sees a
//! package"). The rule is the one of `packages::visibility`: Admin everything; others the
//! files of packages whose provider lists one of their roles, and of packages offered to a
//! list a contact with their customer number is on. A provider logo is shown to everyone
//! signed in. Anything else is `NotFound`, exactly like a missing file, so ids reveal nothing.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use crate::db::{self, Db};
use crate::domain::files::PreviewSize;
use crate::domain::secret::{picture_tag, same_secret};
use crate::domain::statistics::{Channel, Span};
use crate::domain::time::berlin_date;
use crate::domain::user::User;
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::insight::statistics::{CountedFile, Recorder, Tally};
use crate::storage::zip::{ZipEntry, ZipLayout, safe_segment, unique_name};
use crate::storage::{FileStore, Source};

/// A file the user may download, and the name to download it under.
#[derive(Debug)]
struct Readable {
    pub upload: db::catalog::uploads::Upload,
    pub name: String,
    /// A provider logo (cached by browsers; package files are checked on every use).
    pub is_logo: bool,
    /// The package (and its provider) whose name was chosen.
    pub package: Option<(i64, i64)>,
}

/// The upload `id` when `user` may download it. `requested_name` is the name in the URL;
/// it is used when it is one of the names the file has in a package the user sees.
async fn readable(db: &Db, user: &User, id: i64, requested_name: &str) -> ServiceResult<Readable> {
    let upload = db::catalog::uploads::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let names = if user.is_admin() {
        db::catalog::uploads::names_in_packages(db, id).await?
    } else {
        db::catalog::uploads::names_visible_to(db, id, &user.roles, user.customer_number).await?
    };
    if let Some(first) = names.first() {
        let chosen = names
            .iter()
            .find(|n| n.name == requested_name)
            .unwrap_or(first)
            .clone();
        return Ok(Readable {
            upload,
            name: chosen.name,
            is_logo: false,
            package: Some((chosen.download_id, chosen.provider_id)),
        });
    }
    let is_logo = db::marketing::providers::is_logo(db, id).await?;
    if is_logo || user.is_admin() {
        return Ok(Readable {
            name: upload.name.clone(),
            upload,
            is_logo,
            package: None,
        });
    }
    Err(ServiceError::NotFound)
}

/// A file the user may download, with what its answer needs.
#[derive(Debug)]
pub struct Download {
    pub source: Source,
    pub len: u64,
    /// Strong validator, without quotes: the content hash when known.
    pub etag: String,
    pub last_modified: DateTime<Utc>,
    pub content_type: String,
    pub name: String,
    /// `Cache-Control`: a logo may be cached for an hour; package files are checked on every
    /// use, since access to them can end at any time.
    pub cache: &'static str,
    /// Shown in the browser (previews), not saved as a download.
    pub inline: bool,
    /// What the statistics count: a file downloaded from a package; `None` for logos,
    /// previews and files in no package.
    pub tally: Option<Tally>,
}

/// Where a stored object's bytes are read from, asked once before an answer starts: in a
/// bucket a missing object is a 404 and an unreachable store a 503, not a download that
/// breaks off after its headers.
async fn present(files: &FileStore, key: &str, upload: i64) -> ServiceResult<Source> {
    let source = files.source_of(key).ok_or(ServiceError::NotFound)?;
    if let Source::Bucket { bucket, key } = &source {
        match bucket.size(key).await {
            Ok(Some(_)) => {}
            Ok(None) => {
                tracing::error!(key, upload, "stored object missing");
                return Err(ServiceError::NotFound);
            }
            Err(err) => return Err(ServiceError::internal(err)),
        }
    }
    Ok(source)
}

/// The stored file `id` for `user` (see `readable`), `NotFound` when it is not theirs to see
/// or its stored bytes are gone.
pub async fn download(
    db: &Db,
    files: &FileStore,
    recorder: &Recorder,
    user: &User,
    id: i64,
    requested_name: &str,
) -> ServiceResult<Download> {
    let file = readable(db, user, id, requested_name).await?;
    let source = present(files, &file.upload.storage_key, file.upload.id).await?;
    let len = file.upload.size.max(0) as u64;
    Ok(Download {
        source,
        len,
        etag: file
            .upload
            .sha256
            .clone()
            .unwrap_or_else(|| format!("{}-{len}", file.upload.id)),
        last_modified: file.upload.created_at,
        content_type: file.upload.content_type,
        name: file.name,
        cache: if file.is_logo {
            "private, max-age=3600"
        } else {
            "private, no-cache"
        },
        inline: false,
        tally: file.package.map(|(package_id, provider_id)| {
            let file = CountedFile {
                package_id,
                provider_id,
                upload_id: id,
                span: Span { from: 0, to: len },
            };
            recorder.tally(user, Channel::File, vec![file])
        }),
    })
}

/// A preview of the stored file `id`, with exactly the file's rights (see `readable`):
/// `NotFound` when the user may not see the file, or it has no preview (yet). A preview never
/// changes for its upload (the bytes of an upload never do), so browsers keep it.
pub async fn preview(
    db: &Db,
    files: &FileStore,
    user: &User,
    id: i64,
    size: PreviewSize,
) -> ServiceResult<Download> {
    let file = readable(db, user, id, "").await?;
    let sha256 = file
        .upload
        .sha256
        .as_deref()
        .ok_or(ServiceError::NotFound)?;
    let stored = db::catalog::previews::ready(db, sha256)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let key = match size {
        PreviewSize::Thumb => &stored.thumb_key,
        PreviewSize::Large => &stored.large_key,
    };
    let (source, len) = stored_preview(files, key, id).await?;
    let stem = file
        .name
        .rsplit_once('.')
        .map_or(file.name.as_str(), |(stem, _)| stem);
    Ok(Download {
        source,
        len,
        etag: format!("{sha256}-{}", size.file_name()),
        last_modified: file.upload.created_at,
        content_type: "image/jpeg".into(),
        name: format!("Vorschau {stem}.jpg"),
        cache: "private, max-age=31536000, immutable",
        inline: true,
        tally: None,
    })
}

/// A picture of a package's mail (`/mail-bilder/{id}/{tag}`): the thumbnail of a provider's
/// logo or of a package's file, to anyone with the address a mail carries (mail programs load
/// pictures without a session). A wrong tag, an upload that is neither, and one without a
/// thumbnail are `NotFound` alike.
pub async fn mail_picture(
    db: &Db,
    files: &FileStore,
    id: i64,
    tag: &str,
) -> ServiceResult<Download> {
    let picture = db::catalog::previews::mail_picture(db, id)
        .await?
        .filter(|p| same_secret(tag, &picture_tag(&p.storage_key)))
        .ok_or(ServiceError::NotFound)?;
    let (source, len) = stored_preview(files, &picture.thumb_key, id).await?;
    Ok(Download {
        source,
        len,
        etag: format!("{}-{}", picture.sha256, PreviewSize::Thumb.file_name()),
        last_modified: picture.created_at,
        content_type: "image/jpeg".into(),
        name: "Bild.jpg".into(),
        // Mail programs and their image proxies may keep it; its bytes never change.
        cache: "public, max-age=86400",
        inline: true,
        tally: None,
    })
}

/// The stored preview image `key` of upload `upload_id` and its length; `NotFound` (logged)
/// when the store has lost it.
async fn stored_preview(
    files: &FileStore,
    key: &str,
    upload_id: i64,
) -> ServiceResult<(Source, u64)> {
    let len = match files.size(key).await {
        Ok(Some(len)) => len,
        Ok(None) => {
            tracing::error!(key, upload = upload_id, "stored preview missing");
            return Err(ServiceError::NotFound);
        }
        Err(err) => return Err(ServiceError::internal(err)),
    };
    let source = files.source_of(key).ok_or(ServiceError::NotFound)?;
    Ok((source, len))
}

/// The public address of upload `upload_id`'s picture in a mail (see [`mail_picture`]).
pub fn mail_picture_url(link_base: &str, upload_id: i64, storage_key: &str) -> String {
    format!(
        "{link_base}/mail-bilder/{upload_id}/{}",
        picture_tag(storage_key)
    )
}

/// What a ZIP is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZipSelection {
    /// Every file of a package.
    Package(i64),
    /// Chosen files: (package id, upload id), across packages.
    Files(Vec<(i64, i64)>),
}

/// Most files one ZIP may hold.
pub const MAX_ZIP_FILES: usize = 10_000;

/// A ZIP ready to be sent.
pub struct ZipPlan {
    pub layout: ZipLayout,
    /// Each entry's file, package and provider, with its data's bytes in the archive: what
    /// the statistics count.
    pub tally: Tally,
    /// Changes when any entry's name or bytes change, so a resumed download notices.
    pub etag: String,
    pub last_modified: DateTime<Utc>,
    pub file_name: String,
}

/// The name of a download manager's ZIP (spec §4): the date and the portal's name.
pub fn zip_name(product_name: &str, now: DateTime<Utc>) -> String {
    format!(
        "{}_{} Aktionsportal.zip",
        berlin_date(now).format("%Y-%m-%d"),
        safe_segment(product_name)
    )
}

/// Chosen files as (package, upload) pairs; `None`: every file of the one package.
type ChosenFiles = Option<HashSet<(i64, i64)>>;

/// The packages of a selection, in its order, and the chosen files; refused when empty or over
/// [`MAX_ZIP_FILES`].
fn selected(selection: &ZipSelection) -> ServiceResult<(Vec<i64>, ChosenFiles)> {
    Ok(match selection {
        ZipSelection::Package(id) => (vec![*id], None),
        ZipSelection::Files(pairs) => {
            if pairs.is_empty() {
                return Err(ServiceError::Invalid(
                    "Es wurden keine Dateien ausgewählt.".into(),
                ));
            }
            if pairs.len() > MAX_ZIP_FILES {
                return Err(ServiceError::Invalid(format!(
                    "Ein ZIP kann höchstens {MAX_ZIP_FILES} Dateien enthalten."
                )));
            }
            let mut ids: Vec<i64> = Vec::new();
            for (package, _) in pairs {
                if !ids.contains(package) {
                    ids.push(*package);
                }
            }
            (ids, Some(pairs.iter().copied().collect()))
        }
    })
}

/// The ZIP's entries of `files` (in their order), a folder per package name (`names`), with
/// the ETag of the whole and the newest change; checksums a row lacks are measured now, once.
async fn zip_entries(
    db: &Db,
    store: &FileStore,
    files: &[db::catalog::packages::PackageFile],
    names: &HashMap<i64, &str>,
) -> ServiceResult<(Vec<ZipEntry>, String, DateTime<Utc>)> {
    let mut folders: HashMap<i64, String> = HashMap::new();
    let mut taken_folders = HashSet::new();
    let mut taken_names: HashMap<i64, HashSet<String>> = HashMap::new();
    let mut entries = Vec::with_capacity(files.len());
    let mut hasher = Sha256::new();
    hasher.update(b"aktionsportal-zip-1\n");
    let mut last_modified = DateTime::<Utc>::MIN_UTC;
    for file in files {
        let folder = folders
            .entry(file.download_id)
            .or_insert_with(|| {
                unique_name(&safe_segment(names[&file.download_id]), &mut taken_folders)
            })
            .clone();
        let name = unique_name(
            &safe_segment(&file.name),
            taken_names.entry(file.download_id).or_default(),
        );
        let (size, crc32, sha256) = match (file.crc32, &file.sha256) {
            (Some(crc), Some(sha)) => (file.size as u64, crc as u32, sha.clone()),
            _ => {
                // A row from before checksums were measured: measure it now, once.
                let digest = store
                    .measure(&file.storage_key)
                    .await
                    .map_err(ServiceError::internal)?;
                db::catalog::uploads::set_checksums(
                    db,
                    file.upload_id,
                    digest.size as i64,
                    &digest.sha256,
                    i64::from(digest.crc32),
                )
                .await?;
                (digest.size, digest.crc32, digest.sha256)
            }
        };
        let source = store
            .source_of(&file.storage_key)
            .ok_or(ServiceError::NotFound)?;
        let entry_name = format!("{folder}/{name}");
        hasher.update(
            format!(
                "{entry_name}\0{sha256}\0{size}\0{}\n",
                file.updated_at.timestamp()
            )
            .as_bytes(),
        );
        last_modified = last_modified.max(file.updated_at);
        entries.push(ZipEntry {
            name: entry_name,
            source,
            size,
            crc32,
            modified: file.updated_at,
        });
    }
    let etag: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((entries, etag, last_modified))
}

/// Plans the ZIP of `selection` with a folder per package name, checking that the user sees
/// every package and file in it (else `NotFound`).
pub async fn plan_zip(
    db: &Db,
    store: &FileStore,
    recorder: &Recorder,
    user: &User,
    selection: &ZipSelection,
    product_name: &str,
) -> ServiceResult<ZipPlan> {
    let (package_ids, chosen) = selected(selection)?;
    let packages = db::catalog::packages::get_many(db, &package_ids).await?;
    if packages.len() != package_ids.len() {
        return Err(ServiceError::NotFound);
    }
    if let Some(visible) = crate::services::catalog::packages::visibility(db, user).await?
        && !crate::services::catalog::packages::sees_all(db, &visible, &packages).await?
    {
        return Err(ServiceError::NotFound);
    }
    let mut files = db::catalog::packages::files_of(db, &package_ids).await?;
    if let Some(chosen) = &chosen {
        files.retain(|f| chosen.contains(&(f.download_id, f.upload_id)));
        if files.len() != chosen.len() {
            return Err(ServiceError::NotFound);
        }
    }
    if files.is_empty() {
        return Err(ServiceError::Invalid(
            "Der Download enthält keine Dateien.".into(),
        ));
    }
    // Keep the order of the selection's packages.
    files.sort_by_key(|f| {
        (
            package_ids.iter().position(|id| *id == f.download_id),
            f.position,
            f.upload_id,
        )
    });
    let names: HashMap<i64, &str> = packages.iter().map(|p| (p.id, p.name.as_str())).collect();
    let (entries, etag, last_modified) = zip_entries(db, store, &files, &names).await?;
    let layout = ZipLayout::new(&entries, false);
    let providers: HashMap<i64, i64> = packages.iter().map(|p| (p.id, p.provider_id)).collect();
    let counted: Vec<CountedFile> = files
        .iter()
        .zip(layout.data_spans())
        .map(|(file, (from, to))| CountedFile {
            package_id: file.download_id,
            provider_id: providers[&file.download_id],
            upload_id: file.upload_id,
            span: Span { from, to },
        })
        .collect();
    let channel = match selection {
        ZipSelection::Package(_) => Channel::PackageZip,
        ZipSelection::Files(_) => Channel::SelectionZip,
    };
    Ok(ZipPlan {
        layout,
        tally: recorder.tally(user, channel, counted),
        etag,
        last_modified,
        file_name: zip_name(product_name, Utc::now()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn zips_are_named_by_the_german_date_and_the_portal() {
        let late = Utc.with_ymd_and_hms(2026, 11, 30, 23, 30, 0).unwrap();
        assert_eq!(
            zip_name("Netzvermarktung", late),
            "2026-12-01_Netzvermarktung Aktionsportal.zip"
        );
    }
}
