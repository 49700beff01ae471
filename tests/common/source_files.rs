//! The crate's source files, for the tests that read the code itself (`tests/layers.rs`,
//! `tests/circles.rs`, `tests/names.rs`, `tests/sizes.rs`), which include this file alone (not
//! `common`); each uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `src/`.
pub fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `dir`.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A file's code without its test module (`#[cfg(test)] mod …` onwards) and without comment
/// lines. A single `#[cfg(test)]` item before it stays, as code that must obey the same rules.
pub fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let end = text
        .match_indices("#[cfg(test)]")
        .find(|(at, tag)| text[at + tag.len()..].trim_start().starts_with("mod "))
        .map_or(text.len(), |(at, _)| at);
    text[..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}
