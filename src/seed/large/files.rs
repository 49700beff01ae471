//! The files of the large data set: their content (real PDF, PNG, JPEG and text of
//! plausible size), written to the file store before any row, and removed again when the rows
//! fail.

use super::*;

/// A file written to the store, waiting for its row.
pub(super) struct WrittenFile {
    pub(super) name: String,
    pub(super) ext: &'static str,
    pub(super) content_type: &'static str,
    pub(super) key: String,
    pub(super) size: i64,
    pub(super) sha256: String,
    pub(super) crc32: i64,
    pub(super) tags: Vec<usize>,
}

pub(super) fn random_key(ext: &str) -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}/{hex}.{ext}", &hex[..2])
}

/// The bytes of file `f` of package `g`: (name, ext, content type, tags, bytes).
pub(super) fn file_content(
    g: usize,
    f: usize,
    package: &PackagePlan,
    rng: &mut StdRng,
) -> (String, &'static str, &'static str, Vec<usize>, Vec<u8>) {
    let suffix = if f < 5 {
        String::new()
    } else {
        format!(" {}", f + 1)
    };
    // Two banner colours per provider: one for the banner, one for the social media picture.
    let banner = Banner::ALL[package.provider % Banner::ALL.len()].png();
    let social = Banner::ALL[(package.provider + 1) % Banner::ALL.len()].png();
    let number = format!("Paket-Nr. {:05}, Datei {}", g + 1, f + 1);
    match f % 5 {
        0 => {
            let tags = if rng.gen_bool(0.6) {
                vec![TAG_FLYER]
            } else {
                vec![]
            };
            (
                format!("Flyer {}{suffix}.pdf", package.name),
                "pdf",
                "application/pdf",
                tags,
                FLYER_PDF.to_vec(),
            )
        }
        1 => {
            let tags = if rng.gen_bool(0.5) {
                vec![TAG_PLAKAT]
            } else {
                vec![]
            };
            (
                format!("Banner {}{suffix}.png", package.name),
                "png",
                "image/png",
                tags,
                banner.to_vec(),
            )
        }
        2 => {
            let tags = if rng.gen_bool(0.5) {
                vec![TAG_PRICES]
            } else {
                vec![]
            };
            (
                format!("Preisübersicht {}{suffix}.pdf", package.name),
                "pdf",
                "application/pdf",
                tags,
                PRICE_LIST_PDF.to_vec(),
            )
        }
        3 => {
            let text = format!(
                "Hinweise zum Paket „{}“\n\n- Die Unterlagen nur im Aktionszeitraum verwenden.\n\
                 - Bitte keine eigenen Preise ergänzen.\n- {number}\n",
                package.name
            );
            (
                format!("Hinweise {}{suffix}.txt", package.name),
                "txt",
                "text/plain; charset=utf-8",
                vec![],
                text.into_bytes(),
            )
        }
        _ => {
            let tags = if rng.gen_bool(0.3) {
                vec![TAG_SOCIAL, TAG_PLAKAT]
            } else {
                vec![]
            };
            (
                format!("Social Media {}{suffix}.png", package.name),
                "png",
                "image/png",
                tags,
                social.to_vec(),
            )
        }
    }
}

/// Writes the files of `packages` into the store on every core; returns them in package
/// order (`files_per_package` per package). On failure the files written are removed.
pub(super) fn write_files(
    root: PathBuf,
    packages: &[PackagePlan],
    files_per_package: usize,
) -> anyhow::Result<Vec<WrittenFile>> {
    for shard in 0..=255u8 {
        std::fs::create_dir_all(root.join(format!("{shard:02x}")))?;
    }
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 8);
    let per_thread = packages.len().div_ceil(threads).max(1);
    let results: Vec<std::io::Result<Vec<WrittenFile>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = packages
            .chunks(per_thread)
            .enumerate()
            .map(|(chunk_index, chunk)| {
                let root = &root;
                scope.spawn(move || {
                    let mut rng = StdRng::seed_from_u64(1_000 + chunk_index as u64);
                    let mut out = Vec::with_capacity(chunk.len() * files_per_package);
                    for (i, package) in chunk.iter().enumerate() {
                        let g = chunk_index * per_thread + i;
                        for f in 0..files_per_package {
                            let (name, ext, content_type, tags, bytes) =
                                file_content(g, f, package, &mut rng);
                            let key = random_key(ext);
                            debug_assert!(is_valid_key(&key));
                            let result = std::fs::OpenOptions::new()
                                .write(true)
                                .create_new(true)
                                .open(root.join(&key))
                                .and_then(|mut file| file.write_all(&bytes));
                            if let Err(err) = result {
                                remove_written(root, &out);
                                return Err(err);
                            }
                            out.push(WrittenFile {
                                name,
                                ext,
                                content_type,
                                key,
                                size: bytes.len() as i64,
                                sha256: Sha256::digest(&bytes)
                                    .iter()
                                    .map(|b| format!("{b:02x}"))
                                    .collect(),
                                crc32: i64::from(crc32fast::hash(&bytes)),
                                tags,
                            });
                        }
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("writer panicked")))
            })
            .collect()
    });
    let mut all = Vec::with_capacity(packages.len() * files_per_package);
    let mut failure = None;
    for result in results {
        match result {
            Ok(files) => all.extend(files),
            Err(err) => failure = Some(err),
        }
    }
    if let Some(err) = failure {
        remove_written(&root, &all);
        return Err(anyhow::Error::from(err).context("Dateien konnten nicht geschrieben werden"));
    }
    Ok(all)
}

pub(super) fn remove_written(root: &std::path::Path, files: &[WrittenFile]) {
    for file in files {
        let _ = std::fs::remove_file(root.join(&file.key));
    }
}
