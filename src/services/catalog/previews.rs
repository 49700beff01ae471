//! Previews of stored files (issue 21), made off the request path: after an upload is
//! stored its worker is woken; it finds every content without previews (also those from
//! before previews existed, so it is the backfill as well), claims each in the database (one
//! instance renders a content, the others skip it), renders it in a child process within
//! limits (`previews::isolated`) and stores the two JPEGs in the file store. A file that
//! cannot be drawn is recorded as failed, with a log line, and keeps its type icon. Previews
//! belong to a content (SHA-256): uploads with the same bytes share them, and they go when the
//! last such upload goes.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::Notify;

use crate::db::catalog::previews::{PreviewCandidate, StoredPreviews};
use crate::db::{self, Db};
use crate::previews::DrawingKind;
use crate::previews::isolated::{Limits, RenderFailure, Renderer};
use crate::services::error::ServiceError;
use crate::storage::FileStore;

/// Contents looked at per query while walking the uploads.
const BATCH: i64 = 64;
/// How often the worker looks without being woken (uploads of other instances, and claims of
/// an instance that died).
const LOOK_EVERY: Duration = Duration::from_secs(60);

/// This instance's preview maker: the renderer (none when previews are switched off) and the
/// signal that new uploads wait.
#[derive(Clone, Debug, Default)]
pub struct PreviewWorker {
    renderer: Option<Renderer>,
    wake: Arc<Notify>,
}

impl PreviewWorker {
    pub fn new(limits: Option<Limits>) -> PreviewWorker {
        PreviewWorker {
            renderer: limits.map(Renderer::new),
            wake: Arc::default(),
        }
    }

    pub fn from_config(config: &crate::config::Config) -> PreviewWorker {
        PreviewWorker::new(Limits::from_config(config))
    }

    /// New uploads wait: the worker looks at once.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    pub fn renderer(&self) -> Option<&Renderer> {
        self.renderer.as_ref()
    }
}

/// What became of one content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreviewOutcome {
    Made,
    /// No preview, for good (the reason is logged and stored).
    Failed,
    /// Another renderer has it, or it was done meanwhile.
    Skipped,
    /// Not now (the file store or the renderer is unavailable); tried again later.
    Postponed,
}

/// What one walk over the uploads did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassReport {
    pub made: usize,
    pub failed: usize,
    pub postponed: usize,
}

/// Makes the previews of every content that has none, at most one render per core at a
/// time; `progress` hears of each content as it is done.
pub async fn pass(
    db: &Db,
    files: &FileStore,
    renderer: &Renderer,
    progress: &mut (dyn FnMut(&PreviewOutcome) + Send),
) -> Result<PassReport, ServiceError> {
    let mut report = PassReport::default();
    let places = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut after = 0;
    loop {
        let mut batch = db::catalog::previews::candidates(
            db,
            &DrawingKind::CONTENT_TYPES,
            after,
            BATCH,
            db::now(),
        )
        .await?;
        let Some(last) = batch.last() else {
            break;
        };
        after = last.upload_id;
        // Uploads of the same content: one render.
        let mut seen = std::collections::HashSet::new();
        batch.retain(|candidate| seen.insert(candidate.sha256.clone()));
        let mut outcomes = futures_util::stream::iter(batch)
            .map(|candidate| make(db, files, renderer, candidate))
            .buffer_unordered(places);
        while let Some(outcome) = outcomes.next().await {
            match outcome {
                PreviewOutcome::Made => report.made += 1,
                PreviewOutcome::Failed => report.failed += 1,
                PreviewOutcome::Postponed => report.postponed += 1,
                PreviewOutcome::Skipped => {}
            }
            progress(&outcome);
        }
    }
    Ok(report)
}

/// Claims, renders and stores the previews of one content.
async fn make(
    db: &Db,
    files: &FileStore,
    renderer: &Renderer,
    candidate: PreviewCandidate,
) -> PreviewOutcome {
    let Some(kind) = DrawingKind::of(&candidate.content_type) else {
        return PreviewOutcome::Skipped;
    };
    let limits = renderer.limits();
    let now = db::now();
    let until = now
        + chrono::Duration::from_std(limits.timeout * 2 + Duration::from_secs(30))
            .unwrap_or(chrono::Duration::minutes(5));
    match db::catalog::previews::claim(db, &candidate.sha256, now, until).await {
        Ok(true) => {}
        Ok(false) => return PreviewOutcome::Skipped,
        Err(err) => {
            tracing::error!(error = %err, "preview not claimed");
            return PreviewOutcome::Postponed;
        }
    }
    if candidate.size.max(0) as u64 > limits.max_input_bytes {
        let why = format!("{} bytes, more than the limit", candidate.size);
        return give_up(db, &candidate, &why).await;
    }
    // The claim runs out by itself when the store is away now; another look tries again.
    let bytes = match files.read(&candidate.storage_key).await {
        Ok(bytes) => bytes,
        Err(err) => {
            tracing::warn!(error = %err, upload = candidate.upload_id, "file not readable for its preview");
            return PreviewOutcome::Postponed;
        }
    };
    let rendered = match renderer.render(bytes, kind).await {
        Ok(rendered) => rendered,
        Err(RenderFailure::Spawn(err)) => {
            tracing::error!(error = %err, exe = %limits.exe.display(), "preview renderer could not be started");
            return PreviewOutcome::Postponed;
        }
        Err(failure) => return give_up(db, &candidate, &failure.to_string()).await,
    };
    let mut keys = Vec::new();
    for preview in [&rendered.thumb, &rendered.large] {
        match files.put_bytes(&preview.jpeg, "jpg").await {
            Ok(key) => keys.push(key),
            Err(err) => {
                tracing::warn!(error = %err, "preview not stored");
                remove_keys(files, &keys).await;
                return PreviewOutcome::Postponed;
            }
        }
    }
    let stored = StoredPreviews {
        thumb_key: keys[0].clone(),
        thumb_width: rendered.thumb.width as i32,
        thumb_height: rendered.thumb.height as i32,
        large_key: keys[1].clone(),
        large_width: rendered.large.width as i32,
        large_height: rendered.large.height as i32,
    };
    match db::catalog::previews::finish(db, &candidate.sha256, &stored).await {
        Ok(true) => PreviewOutcome::Made,
        // Someone else finished first, or the file went meanwhile.
        Ok(false) => {
            remove_keys(files, &keys).await;
            PreviewOutcome::Skipped
        }
        Err(err) => {
            tracing::error!(error = %err, "preview not recorded");
            remove_keys(files, &keys).await;
            PreviewOutcome::Postponed
        }
    }
}

/// Records that a content gets no preview, with a log line.
async fn give_up(db: &Db, candidate: &PreviewCandidate, why: &str) -> PreviewOutcome {
    tracing::warn!(
        upload = candidate.upload_id,
        sha256 = candidate.sha256,
        content_type = candidate.content_type,
        reason = why,
        "no preview for this file"
    );
    match db::catalog::previews::fail(db, &candidate.sha256, why).await {
        Ok(()) => PreviewOutcome::Failed,
        Err(err) => {
            tracing::error!(error = %err, "failed preview not recorded");
            PreviewOutcome::Postponed
        }
    }
}

async fn remove_keys(files: &FileStore, keys: &[String]) {
    for key in keys {
        if let Err(err) = files.delete(key).await {
            // The sweep removes a stored file no row names.
            tracing::warn!(error = %err, key, "preview file stays until the sweep");
        }
    }
}

/// Removes the previews of these contents when no upload has them any more (`None`: of all
/// contents), rows and stored files.
pub async fn forget(
    db: &Db,
    files: &FileStore,
    sha256s: Option<&[String]>,
) -> Result<usize, ServiceError> {
    let keys = db::catalog::previews::delete_unused(db, sha256s).await?;
    remove_keys(files, &keys).await;
    Ok(keys.len())
}

/// Makes previews for the life of the server: at start, when woken by an upload, and every
/// minute.
pub async fn run(db: Db, files: FileStore, worker: PreviewWorker) {
    let Some(renderer) = worker.renderer.clone() else {
        tracing::info!("previews are switched off");
        return;
    };
    loop {
        match pass(&db, &files, &renderer, &mut |_| {}).await {
            Ok(report) if report != PassReport::default() => {
                tracing::info!(?report, "previews made")
            }
            Ok(_) => {}
            Err(err) => tracing::error!(error = %err, "preview round failed"),
        }
        let _ = tokio::time::timeout(LOOK_EVERY, worker.wake.notified()).await;
    }
}
