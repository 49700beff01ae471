//! Streams stored bytes to a client: whole files, ranges of files, and archives made of
//! generated headers and file ranges. Files are read in large chunks (1 MiB: tower-http's
//! 64 KiB reached about 0.6× nginx here) with one chunk read ahead while the previous one
//! is being sent, so disk and socket work at the same time. Memory stays at two chunks per
//! download, whatever the size. Files in a bucket are read with one ranged GET per piece,
//! whose body is passed on as it arrives.

use std::collections::VecDeque;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Bytes;
use futures_util::stream::BoxStream;
use futures_util::{Stream, StreamExt};
use tokio::task::JoinHandle;

use super::Bucket;

/// Bytes read from a file at a time.
pub const CHUNK: u64 = 1024 * 1024;

/// Where a stored file's bytes are.
#[derive(Clone, Debug)]
pub enum Source {
    Disk(PathBuf),
    Bucket { bucket: Arc<Bucket>, key: String },
}

impl PartialEq for Source {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Source::Disk(a), Source::Disk(b)) => a == b,
            (Source::Bucket { bucket: a, key: x }, Source::Bucket { bucket: b, key: y }) => {
                Arc::ptr_eq(a, b) && x == y
            }
            _ => false,
        }
    }
}

impl Eq for Source {}

/// A piece of an answer body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Bytes that are already in memory (archive headers).
    Bytes(Bytes),
    /// `len` bytes of the stored file at `source`, from `offset`.
    File {
        source: Source,
        offset: u64,
        len: u64,
    },
}

impl Piece {
    pub fn len(&self) -> u64 {
        match self {
            Piece::Bytes(bytes) => bytes.len() as u64,
            Piece::File { len, .. } => *len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The part of this piece from `from` to `to` (exclusive), relative to its start.
    pub fn slice(&self, from: u64, to: u64) -> Piece {
        match self {
            Piece::Bytes(bytes) => Piece::Bytes(bytes.slice(from as usize..to as usize)),
            Piece::File { source, offset, .. } => Piece::File {
                source: source.clone(),
                offset: offset + from,
                len: to - from,
            },
        }
    }
}

struct OpenFile {
    file: Arc<std::fs::File>,
    offset: u64,
    remaining: u64,
}

/// A ranged GET on a bucket being passed on.
struct OpenObject {
    body: BoxStream<'static, io::Result<Bytes>>,
    remaining: u64,
}

struct Reader {
    pieces: VecDeque<Piece>,
    open: Option<OpenFile>,
    ahead: Option<JoinHandle<io::Result<Bytes>>>,
    object: Option<OpenObject>,
}

impl Reader {
    /// Starts reading the next chunk of the open file on a blocking thread.
    fn read_ahead(&mut self) {
        let Some(open) = self.open.as_mut().filter(|open| open.remaining > 0) else {
            self.ahead = None;
            return;
        };
        let len = open.remaining.min(CHUNK);
        let (file, offset) = (open.file.clone(), open.offset);
        open.offset += len;
        open.remaining -= len;
        self.ahead = Some(tokio::task::spawn_blocking(move || {
            let mut buffer = vec![0u8; len as usize];
            file.read_exact_at(&mut buffer, offset)?;
            Ok(Bytes::from(buffer))
        }));
    }

    async fn next_chunk(&mut self) -> io::Result<Option<Bytes>> {
        loop {
            if let Some(object) = &mut self.object {
                match object.body.next().await {
                    Some(chunk) => {
                        let chunk = chunk?;
                        if chunk.len() as u64 > object.remaining {
                            return Err(io::Error::other("store sent more than asked for"));
                        }
                        object.remaining -= chunk.len() as u64;
                        return Ok(Some(chunk));
                    }
                    None if object.remaining > 0 => {
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            "stored file shorter than announced",
                        ));
                    }
                    None => self.object = None,
                }
            }
            if let Some(reading) = self.ahead.take() {
                let chunk = reading.await.map_err(io::Error::other)??;
                self.read_ahead();
                return Ok(Some(chunk));
            }
            self.open = None;
            match self.pieces.pop_front() {
                None => return Ok(None),
                Some(Piece::Bytes(bytes)) if bytes.is_empty() => continue,
                Some(Piece::Bytes(bytes)) => return Ok(Some(bytes)),
                Some(Piece::File { len: 0, .. }) => continue,
                Some(Piece::File {
                    source: Source::Bucket { bucket, key },
                    offset,
                    len,
                }) => {
                    let body = bucket.get_range(&key, Some(offset..offset + len)).await?;
                    self.object = Some(OpenObject {
                        body: body.boxed(),
                        remaining: len,
                    });
                }
                Some(Piece::File {
                    source: Source::Disk(path),
                    offset,
                    len,
                }) => {
                    let file = tokio::task::spawn_blocking(move || std::fs::File::open(path))
                        .await
                        .map_err(io::Error::other)??;
                    self.open = Some(OpenFile {
                        file: Arc::new(file),
                        offset,
                        remaining: len,
                    });
                    self.read_ahead();
                }
            }
        }
    }
}

/// The pieces as one stream of chunks.
pub fn stream(pieces: Vec<Piece>) -> impl Stream<Item = io::Result<Bytes>> + Send + 'static {
    let reader = Reader {
        pieces: pieces.into(),
        open: None,
        ahead: None,
        object: None,
    };
    futures_util::stream::try_unfold(reader, |mut reader| async move {
        Ok(reader.next_chunk().await?.map(|chunk| (chunk, reader)))
    })
}

/// The pieces that make up bytes `start..end` of the concatenation of `pieces`.
pub fn select(pieces: &[Piece], start: u64, end: u64) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut position = 0u64;
    for piece in pieces {
        let (piece_start, piece_end) = (position, position + piece.len());
        position = piece_end;
        if piece_end <= start || piece_start >= end {
            continue;
        }
        let from = start.max(piece_start) - piece_start;
        let to = end.min(piece_end) - piece_start;
        out.push(piece.slice(from, to));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::TryStreamExt;

    async fn collect(pieces: Vec<Piece>) -> Vec<u8> {
        stream(pieces)
            .try_fold(Vec::new(), |mut all, chunk| async move {
                all.extend_from_slice(&chunk);
                Ok(all)
            })
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn files_and_bytes_stream_in_order_and_in_chunks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gross.bin");
        let content: Vec<u8> = (0..(2 * CHUNK + 123)).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &content).unwrap();
        let pieces = vec![
            Piece::Bytes(Bytes::from_static(b"Kopf")),
            Piece::File {
                source: Source::Disk(path.clone()),
                offset: 0,
                len: content.len() as u64,
            },
            Piece::Bytes(Bytes::new()),
            Piece::File {
                source: Source::Disk(path.clone()),
                offset: 5,
                len: 10,
            },
            Piece::Bytes(Bytes::from_static(b"Ende")),
        ];
        let chunks: Vec<Bytes> = stream(pieces.clone()).try_collect().await.unwrap();
        assert!(chunks.iter().all(|c| c.len() as u64 <= CHUNK));
        let mut expected = b"Kopf".to_vec();
        expected.extend_from_slice(&content);
        expected.extend_from_slice(&content[5..15]);
        expected.extend_from_slice(b"Ende");
        assert_eq!(collect(pieces.clone()).await, expected);

        // Any range of the whole is the same bytes as the slice of the whole.
        let total = expected.len() as u64;
        for (start, end) in [
            (0, total),
            (0, 1),
            (3, 5),
            (4, 4 + CHUNK + 7),
            (total - 6, total),
            (10, 10),
        ] {
            let part = collect(select(&pieces, start, end)).await;
            assert_eq!(
                part,
                &expected[start as usize..end as usize],
                "{start}..{end}"
            );
        }
    }

    #[tokio::test]
    async fn a_file_shorter_than_announced_ends_the_stream_with_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kurz.bin");
        std::fs::write(&path, b"abc").unwrap();
        let result: io::Result<Vec<Bytes>> = stream(vec![Piece::File {
            source: Source::Disk(path),
            offset: 0,
            len: 10,
        }])
        .try_collect()
        .await;
        assert!(result.is_err());
    }
}
