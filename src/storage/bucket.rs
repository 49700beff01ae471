//! The file store in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage, SeaweedFS), for
//! several portal instances sharing their files. Keys are the same as on disk, under an
//! optional prefix.
//!
//! Uploads are written straight to their final key: small files with one PUT, larger ones as
//! a multipart upload in [`PART`]-sized parts with at most [`PARTS_IN_FLIGHT`] parts on the
//! way, so memory stays bounded whatever the size. There is no rename in S3; an object whose
//! row never committed (a refused upload, a crash) is deleted by its [`super::StagedFile`]
//! or, after a crash, by the daily sweep, which lists the bucket. The parts of a multipart
//! upload an instance could not finish or abort (it was killed) are no object; the bucket's
//! lifecycle rule removes them (AbortIncompleteMultipartUpload, see the README).

use std::io;
use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::body::Bytes;
use futures_util::{Stream, StreamExt, TryStreamExt};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as ObjectPath;
use object_store::{
    ClientOptions, GetOptions, ObjectStore, PutPayload, RetryConfig, WriteMultipart,
};

use crate::config::Config;

/// Size of one part of a multipart upload (S3's smallest part is 5 MiB).
pub const PART: usize = 8 * 1024 * 1024;
/// Parts uploaded at the same time by one upload.
pub const PARTS_IN_FLIGHT: usize = 2;
/// Time limit of one request that is not a download (a part, a listing page, a delete).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a download may wait for the store's next bytes before it counts as hung (the
/// download as a whole has no limit: a slow client may take hours).
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// The store could not be reached or failed; the answer is a German 503.
#[derive(Debug, thiserror::Error)]
#[error("Dateispeicher nicht erreichbar: {0}")]
pub struct StoreUnavailable(#[source] pub Box<dyn std::error::Error + Send + Sync>);

/// Whether `err` (or an I/O error wrapping it) says the bucket is unreachable.
pub fn is_unavailable(err: &(dyn std::error::Error + 'static)) -> bool {
    err.is::<StoreUnavailable>()
        || err
            .downcast_ref::<io::Error>()
            .and_then(|io| io.get_ref())
            .is_some_and(|inner| inner.is::<StoreUnavailable>())
}

fn unavailable(err: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> io::Error {
    io::Error::other(StoreUnavailable(err.into()))
}

/// A bucket and the prefix under which the portal keeps its files.
pub struct Bucket {
    /// For everything but downloads: each request is time-limited.
    store: AmazonS3,
    /// For downloads: no overall limit, an idle limit per chunk instead.
    reader: AmazonS3,
    prefix: String,
    /// For messages: `s3://bucket/prefix`.
    name: String,
}

impl std::fmt::Debug for Bucket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

fn to_io(err: object_store::Error) -> io::Error {
    match err {
        object_store::Error::NotFound { .. } => io::Error::new(io::ErrorKind::NotFound, err),
        other => unavailable(other),
    }
}

impl Bucket {
    /// The bucket the configuration names, or `None` when files live on disk.
    pub fn from_config(config: &Config) -> io::Result<Option<Arc<Bucket>>> {
        let Some(bucket) = &config.s3_bucket else {
            return Ok(None);
        };
        // Without keys of our own: the usual AWS environment (keys, web identity, roles).
        let mut builder = match (&config.s3_access_key_id, &config.s3_secret_access_key) {
            (Some(id), Some(secret)) => AmazonS3Builder::new()
                .with_access_key_id(id)
                .with_secret_access_key(secret),
            _ => AmazonS3Builder::from_env(),
        }
        .with_bucket_name(bucket)
        .with_region(&config.s3_region)
        .with_virtual_hosted_style_request(!config.s3_path_style);
        let allow_http = config
            .s3_endpoint
            .as_deref()
            .is_some_and(|endpoint| endpoint.starts_with("http://"));
        if let Some(endpoint) = &config.s3_endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        // A few quick retries (S3 answers 503 SlowDown under load); an outage is reported
        // within seconds rather than the crate's default three minutes.
        let builder = builder.with_retry(RetryConfig {
            max_retries: 3,
            retry_timeout: Duration::from_secs(15),
            ..RetryConfig::default()
        });
        // (Client options replace those set before, `allow_http` among them.)
        let options = ClientOptions::new()
            .with_allow_http(allow_http)
            .with_connect_timeout(Duration::from_secs(5));
        let store = builder
            .clone()
            .with_client_options(options.clone().with_timeout(REQUEST_TIMEOUT))
            .build()
            .map_err(io::Error::other)?;
        let reader = builder
            .with_client_options(options.with_timeout_disabled())
            .build()
            .map_err(io::Error::other)?;
        let prefix = config.s3_prefix.trim_matches('/').to_string();
        Ok(Some(Arc::new(Bucket {
            store,
            reader,
            name: format!("s3://{bucket}/{prefix}"),
            prefix,
        })))
    }

    fn location(&self, key: &str) -> ObjectPath {
        if self.prefix.is_empty() {
            ObjectPath::from(key)
        } else {
            ObjectPath::from(format!("{}/{key}", self.prefix))
        }
    }

    /// Stores `bytes` under `key` with one request.
    pub async fn put(&self, key: &str, bytes: Bytes) -> io::Result<()> {
        self.store
            .put(&self.location(key), PutPayload::from_bytes(bytes))
            .await
            .map(drop)
            .map_err(to_io)
    }

    /// Starts a multipart upload to `key`.
    pub async fn begin_parts(&self, key: &str) -> io::Result<WriteMultipart> {
        let upload = self
            .store
            .put_multipart(&self.location(key))
            .await
            .map_err(to_io)?;
        Ok(WriteMultipart::new_with_chunk_size(upload, PART))
    }

    /// Hands `bytes` to a multipart upload, waiting while too many parts are on the way.
    pub async fn put_part(upload: &mut WriteMultipart, bytes: Bytes) -> io::Result<()> {
        upload
            .wait_for_capacity(PARTS_IN_FLIGHT)
            .await
            .map_err(to_io)?;
        upload.put(bytes);
        Ok(())
    }

    pub async fn finish_parts(upload: WriteMultipart) -> io::Result<()> {
        upload.finish().await.map(drop).map_err(to_io)
    }

    /// Copies a file from disk to `key`, streamed in parts.
    pub async fn upload_file(&self, path: &std::path::Path, key: &str) -> io::Result<u64> {
        use tokio::io::AsyncReadExt;
        let mut file = tokio::fs::File::open(path).await?;
        let mut upload: Option<WriteMultipart> = None;
        let mut size = 0u64;
        loop {
            let mut buffer = Vec::with_capacity(PART);
            while buffer.len() < PART {
                if (&mut file)
                    .take((PART - buffer.len()) as u64)
                    .read_to_end(&mut buffer)
                    .await?
                    == 0
                {
                    break;
                }
            }
            let last = buffer.len() < PART;
            size += buffer.len() as u64;
            match (&mut upload, last) {
                (None, true) => return self.put(key, Bytes::from(buffer)).await.map(|_| size),
                (None, false) => {
                    let mut parts = self.begin_parts(key).await?;
                    Self::put_part(&mut parts, Bytes::from(buffer)).await?;
                    upload = Some(parts);
                }
                (Some(parts), _) => {
                    if !buffer.is_empty() {
                        Self::put_part(parts, Bytes::from(buffer)).await?;
                    }
                    if last {
                        let parts = upload.take().expect("present");
                        Self::finish_parts(parts).await?;
                        return Ok(size);
                    }
                }
            }
        }
    }

    /// Bytes `range` of `key` (everything with `None`) as a stream; a store that sends
    /// nothing for [`IDLE_TIMEOUT`] ends it with an error.
    pub async fn get_range(
        &self,
        key: &str,
        range: Option<Range<u64>>,
    ) -> io::Result<impl Stream<Item = io::Result<Bytes>> + Send + 'static + use<>> {
        let options = GetOptions {
            range: range.map(Into::into),
            ..GetOptions::default()
        };
        let result = tokio::time::timeout(
            IDLE_TIMEOUT,
            self.reader.get_opts(&self.location(key), options),
        )
        .await
        .map_err(|_| unavailable("no answer"))?
        .map_err(to_io)?;
        let body = result.into_stream().map_err(to_io).boxed();
        Ok(futures_util::stream::unfold(body, |mut body| async move {
            match tokio::time::timeout(IDLE_TIMEOUT, body.next()).await {
                Ok(Some(chunk)) => Some((chunk, body)),
                Ok(None) => None,
                // One error ends the stream: the reader stops at it.
                Err(_) => Some((Err(unavailable("no bytes within the idle limit")), body)),
            }
        }))
    }

    /// The size of `key`, `None` when there is no such object.
    pub async fn size(&self, key: &str) -> io::Result<Option<u64>> {
        match self.store.head(&self.location(key)).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(err) => Err(to_io(err)),
        }
    }

    /// Deletes `key` (S3 answers the same whether or not it existed).
    pub async fn delete(&self, key: &str) -> io::Result<()> {
        match self.store.delete(&self.location(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(err) => Err(to_io(err)),
        }
    }

    /// Every key under the prefix with its last change (the sweep's view of the bucket).
    pub async fn keys(&self) -> io::Result<Vec<(String, SystemTime)>> {
        let prefix = (!self.prefix.is_empty()).then(|| ObjectPath::from(self.prefix.as_str()));
        let mut listing = self.store.list(prefix.as_ref());
        let mut keys = Vec::new();
        let strip = if self.prefix.is_empty() {
            0
        } else {
            self.prefix.len() + 1
        };
        while let Some(meta) = listing.next().await {
            let meta = meta.map_err(to_io)?;
            let key = meta
                .location
                .as_ref()
                .get(strip..)
                .unwrap_or("")
                .to_string();
            if super::is_valid_key(&key) {
                keys.push((key, SystemTime::from(meta.last_modified)));
            }
        }
        Ok(keys)
    }

    /// One cheap request (a listing of the top level under the prefix) that fails when the
    /// bucket cannot be reached, does not exist or the keys are refused.
    pub async fn check(&self) -> io::Result<()> {
        let prefix = (!self.prefix.is_empty()).then(|| ObjectPath::from(self.prefix.as_str()));
        self.store
            .list_with_delimiter(prefix.as_ref())
            .await
            .map(drop)
            .map_err(to_io)
    }

    /// `s3://bucket/prefix`, for logs and messages.
    pub fn describe(&self) -> &str {
        &self.name
    }
}
