//! A ZIP archive whose every byte is known before the first one is sent, the way nginx's
//! mod_zip builds them: entries are stored (no compression: the files are PDFs, images and
//! videos that do not shrink) with the CRC-32 and size measured at upload, so the headers can
//! be written in advance. The archive is a list of [`Piece`]s (headers in memory, file bytes
//! on disk): its exact length goes into Content-Length, and any byte range maps to a slice of
//! headers and files, so an interrupted download resumes with a Range request.
//!
//! Why not the `zip` crate here: its writer produces the archive as a stream without knowing
//! its length and cannot answer a Range request without producing everything before it. It
//! still reads the archives users upload (`services::catalog::uploads`).
//!
//! Format (APPNOTE 6.3.x): per entry a local header (+ ZIP64 extra when the file is 4 GiB or
//! larger) and the bytes; then the central directory (+ ZIP64 extras where sizes or offsets
//! do not fit 32 bits), then the ZIP64 end records when needed, then the end record. Names are
//! UTF-8 (flag bit 11).

use axum::body::Bytes;
use chrono::{DateTime, Datelike, NaiveDateTime, Timelike, Utc};

use super::serve::{Piece, Source};
use crate::domain::time::berlin_offset;

const LOCAL_HEADER: u32 = 0x0403_4b50;
const CENTRAL_HEADER: u32 = 0x0201_4b50;
const ZIP64_END: u32 = 0x0606_4b50;
const ZIP64_LOCATOR: u32 = 0x0706_4b50;
const END: u32 = 0x0605_4b50;
/// Version 4.5 (ZIP64), made on Unix.
const MADE_BY: u16 = (3 << 8) | 45;
const FLAG_UTF8: u16 = 1 << 11;
const STORED: u16 = 0;
const MAX32: u64 = 0xFFFF_FFFF;
const MAX16: u64 = 0xFFFF;

/// A file to put into the archive.
#[derive(Clone, Debug)]
pub struct ZipEntry {
    /// Path inside the archive, `/`-separated.
    pub name: String,
    /// Where its bytes are.
    pub source: Source,
    pub size: u64,
    pub crc32: u32,
    pub modified: DateTime<Utc>,
}

/// The archive as pieces, and its length.
#[derive(Clone, Debug)]
pub struct ZipLayout {
    pub pieces: Vec<Piece>,
    pub len: u64,
}

/// DOS date and time of `instant` in German civil time (ZIP stores local time), clamped to
/// the years DOS can express.
fn dos_date_time(instant: DateTime<Utc>) -> (u16, u16) {
    let local: NaiveDateTime = (instant + berlin_offset(instant)).naive_utc();
    let year = local.year().clamp(1980, 2107);
    let (month, day, hour, minute, second) = if local.year() < 1980 {
        (1, 1, 0, 0, 0)
    } else {
        (
            local.month(),
            local.day(),
            local.hour(),
            local.minute(),
            local.second(),
        )
    };
    let date = (((year - 1980) as u16) << 9) | ((month as u16) << 5) | day as u16;
    let time = ((hour as u16) << 11) | ((minute as u16) << 5) | (second as u16 / 2);
    (date, time)
}

struct Writer(Vec<u8>);

impl Writer {
    fn u16(&mut self, value: u16) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }
    fn u32(&mut self, value: u32) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }
    fn u64(&mut self, value: u64) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }
    fn bytes(&mut self, value: &[u8]) {
        self.0.extend_from_slice(value);
    }
}

fn clamp32(value: u64) -> u32 {
    value.min(MAX32) as u32
}

impl ZipLayout {
    /// Where each entry's data lies in the archive (`from..to`), in the entries' order.
    pub fn data_spans(&self) -> Vec<(u64, u64)> {
        let mut spans = Vec::new();
        let mut offset = 0u64;
        for piece in &self.pieces {
            let len = piece.len();
            if matches!(piece, Piece::File { .. }) {
                spans.push((offset, offset + len));
            }
            offset += len;
        }
        spans
    }

    /// The layout of an archive of `entries`, in their order. With `force_zip64` every entry
    /// and the end carry ZIP64 records even when small (tests use it to check those records
    /// without writing 4 GiB).
    pub fn new(entries: &[ZipEntry], force_zip64: bool) -> ZipLayout {
        let mut pieces = Vec::with_capacity(entries.len() * 2 + 1);
        let mut offset = 0u64;
        let mut central = Writer(Vec::with_capacity(entries.len() * 100));
        for entry in entries {
            let name = entry.name.as_bytes();
            let (date, time) = dos_date_time(entry.modified);
            let big = force_zip64 || entry.size >= MAX32;
            let far = force_zip64 || offset >= MAX32;

            let mut local = Writer(Vec::with_capacity(30 + name.len() + 20));
            local.u32(LOCAL_HEADER);
            local.u16(if big { 45 } else { 20 });
            local.u16(FLAG_UTF8);
            local.u16(STORED);
            local.u16(time);
            local.u16(date);
            local.u32(entry.crc32);
            let size32 = if big { MAX32 as u32 } else { entry.size as u32 };
            local.u32(size32);
            local.u32(size32);
            local.u16(name.len() as u16);
            local.u16(if big { 20 } else { 0 });
            local.bytes(name);
            if big {
                local.u16(0x0001);
                local.u16(16);
                local.u64(entry.size);
                local.u64(entry.size);
            }
            let local = local.0;

            let mut extra = Writer(Vec::new());
            if big {
                extra.u64(entry.size);
                extra.u64(entry.size);
            }
            if far {
                extra.u64(offset);
            }
            central.u32(CENTRAL_HEADER);
            central.u16(MADE_BY);
            central.u16(if big || far { 45 } else { 20 });
            central.u16(FLAG_UTF8);
            central.u16(STORED);
            central.u16(time);
            central.u16(date);
            central.u32(entry.crc32);
            central.u32(size32);
            central.u32(size32);
            central.u16(name.len() as u16);
            central.u16(if extra.0.is_empty() {
                0
            } else {
                4 + extra.0.len() as u16
            });
            central.u16(0); // comment
            central.u16(0); // disk
            central.u16(0); // internal attributes
            central.u32(0o100644 << 16); // a regular file, rw-r--r--
            central.u32(if far { MAX32 as u32 } else { offset as u32 });
            central.bytes(name);
            if !extra.0.is_empty() {
                central.u16(0x0001);
                central.u16(extra.0.len() as u16);
                central.bytes(&extra.0);
            }

            offset += local.len() as u64 + entry.size;
            pieces.push(Piece::Bytes(Bytes::from(local)));
            pieces.push(Piece::File {
                source: entry.source.clone(),
                offset: 0,
                len: entry.size,
            });
        }

        let central_offset = offset;
        let central_size = central.0.len() as u64;
        let count = entries.len() as u64;
        let mut end = central;
        if force_zip64 || count >= MAX16 || central_offset >= MAX32 || central_size >= MAX32 {
            let zip64_end_offset = central_offset + central_size;
            end.u32(ZIP64_END);
            end.u64(44);
            end.u16(MADE_BY);
            end.u16(45);
            end.u32(0);
            end.u32(0);
            end.u64(count);
            end.u64(count);
            end.u64(central_size);
            end.u64(central_offset);
            end.u32(ZIP64_LOCATOR);
            end.u32(0);
            end.u64(zip64_end_offset);
            end.u32(1);
        }
        end.u32(END);
        end.u16(0);
        end.u16(0);
        end.u16(count.min(MAX16) as u16);
        end.u16(count.min(MAX16) as u16);
        end.u32(clamp32(central_size));
        end.u32(clamp32(central_offset));
        end.u16(0);
        let end = end.0;
        let len = central_offset + end.len() as u64;
        pieces.push(Piece::Bytes(Bytes::from(end)));
        ZipLayout { pieces, len }
    }
}

/// A name for a path segment inside the archive: no slashes, no control characters, not
/// `.`/`..`, at most 200 characters.
pub fn safe_segment(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\') || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').to_string();
    let cleaned: String = cleaned.chars().take(200).collect();
    if cleaned.is_empty() {
        "Datei".to_string()
    } else {
        cleaned
    }
}

/// `name` made unique among `taken` by a counter before the extension: "Flyer (2).pdf".
pub fn unique_name(name: &str, taken: &mut std::collections::HashSet<String>) -> String {
    if taken.insert(name.to_lowercase()) {
        return name.to_string();
    }
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem, format!(".{ext}")),
        _ => (name, String::new()),
    };
    (2..)
        .map(|n| format!("{stem} ({n}){ext}"))
        .find(|candidate| taken.insert(candidate.to_lowercase()))
        .expect("some number is free")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use std::path::PathBuf;

    fn entry(name: &str, size: u64) -> ZipEntry {
        ZipEntry {
            name: name.to_string(),
            source: Source::Disk(PathBuf::from("/nicht/gelesen")),
            size,
            crc32: 0x1234_5678,
            modified: Utc.with_ymd_and_hms(2026, 7, 1, 10, 30, 20).unwrap(),
        }
    }

    fn u16_at(bytes: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([bytes[at], bytes[at + 1]])
    }

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    fn u64_at(bytes: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
    }

    fn bytes_of(piece: &Piece) -> &[u8] {
        match piece {
            Piece::Bytes(bytes) => bytes,
            Piece::File { .. } => panic!("a file piece"),
        }
    }

    #[test]
    fn the_length_is_the_sum_of_the_pieces() {
        let layout = ZipLayout::new(
            &[entry("Paket/Flyer.pdf", 1000), entry("Paket/Bild.png", 5)],
            false,
        );
        let sum: u64 = layout.pieces.iter().map(Piece::len).sum();
        assert_eq!(layout.len, sum);
        // Two local headers of 30 bytes + name, the files, two central headers of 46 + name,
        // the end record of 22 bytes.
        assert_eq!(
            layout.len,
            (30 + 15) + 1000 + (30 + 14) + 5 + (46 + 15) + (46 + 14) + 22
        );
        let local = bytes_of(&layout.pieces[0]);
        assert_eq!(u32_at(local, 0), LOCAL_HEADER);
        assert_eq!(u16_at(local, 6), FLAG_UTF8);
        assert_eq!(u32_at(local, 14), 0x1234_5678);
        assert_eq!(u32_at(local, 18), 1000);
        assert_eq!(&local[30..], b"Paket/Flyer.pdf");
    }

    #[test]
    fn dos_times_are_german_local_time() {
        // 10:30:20 UTC in July is 12:30:20 in Germany.
        let (date, time) = dos_date_time(Utc.with_ymd_and_hms(2026, 7, 1, 10, 30, 20).unwrap());
        assert_eq!(date, ((2026 - 1980) << 9) | (7 << 5) | 1);
        assert_eq!(time, (12 << 11) | (30 << 5) | 10);
        let (date, _) = dos_date_time(Utc.with_ymd_and_hms(1970, 1, 1, 0, 0, 0).unwrap());
        assert_eq!(date, (1 << 5) | 1, "clamped to 1980-01-01");
    }

    #[test]
    fn files_of_4_gib_and_more_get_zip64_records() {
        let size = 5 * 1024 * 1024 * 1024u64;
        let layout = ZipLayout::new(&[entry("gross.mp4", size), entry("klein.txt", 3)], false);
        let local = bytes_of(&layout.pieces[0]);
        assert_eq!(u32_at(local, 18), u32::MAX);
        assert_eq!(u16_at(local, 28), 20, "zip64 extra");
        assert_eq!(u64_at(local, 30 + 9 + 4), size);
        // The second entry starts beyond 4 GiB: its central record carries the offset in
        // the ZIP64 extra, and the end needs the ZIP64 records.
        let end = bytes_of(layout.pieces.last().unwrap());
        let central_second = 46 + 9 + 4 + 16;
        assert_eq!(u32_at(end, central_second + 42), u32::MAX);
        let tail = &end[end.len() - 22..];
        assert_eq!(u32_at(tail, 0), END);
        assert_eq!(
            u32_at(tail, 16),
            u32::MAX,
            "central directory offset is in ZIP64"
        );
        let locator = &end[end.len() - 22 - 20..end.len() - 22];
        assert_eq!(u32_at(locator, 0), ZIP64_LOCATOR);
        let zip64_end_offset = u64_at(locator, 8);
        assert_eq!(zip64_end_offset, layout.len - 22 - 20 - 56);
    }

    #[test]
    fn names_become_safe_and_unique() {
        assert_eq!(
            safe_segment("../Flyer/Herbst\u{0007}.pdf"),
            "_Flyer_Herbst_.pdf"
        );
        assert_eq!(safe_segment("  "), "Datei");
        let mut taken = std::collections::HashSet::new();
        assert_eq!(unique_name("Flyer.pdf", &mut taken), "Flyer.pdf");
        assert_eq!(unique_name("flyer.PDF", &mut taken), "flyer (2).PDF");
        assert_eq!(unique_name("Flyer.pdf", &mut taken), "Flyer (3).pdf");
        assert_eq!(unique_name("Ordner", &mut taken), "Ordner");
        assert_eq!(unique_name("Ordner", &mut taken), "Ordner (2)");
    }
}
