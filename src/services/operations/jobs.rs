//! Timed background work that every instance starts on its own clock: a round runs on the
//! instance that takes the job's lease (see `db::operations::job_leases`), so several instances on one
//! database never run the same round at once.

use std::future::Future;

use chrono::Duration;

use crate::db::{self, Db};
use crate::domain::secret::new_token;
use crate::services::error::ServiceResult;

/// The round of marketing changes that still have to reach Brevo.
pub const MARKETING_RETRIES: &str = "marketing_retries";
/// The file store's sweep of unused uploads and unknown files.
pub const FILE_SWEEP: &str = "file_sweep";

/// Runs `work` when this caller gets the lease of job `name` for at most `lease` (longer
/// than a round takes; a holder that crashed blocks the job no longer than that), and
/// releases it afterwards. `None` when another holder runs the job right now.
pub async fn exclusively<T, E>(
    db: &Db,
    name: &str,
    lease: Duration,
    work: impl Future<Output = Result<T, E>>,
) -> ServiceResult<Option<Result<T, E>>> {
    let owner = new_token();
    let now = db::now();
    if !db::operations::job_leases::take(db, name, &owner, now, now + lease).await? {
        return Ok(None);
    }
    let outcome = work.await;
    db::operations::job_leases::release(db, name, &owner, db::now()).await?;
    Ok(Some(outcome))
}
