//! The service layer's error; the API layer maps it to statuses and `{message, code}`.

use std::sync::Arc;

use crate::integrations::brevo::BrevoError;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("nicht gefunden")]
    NotFound,
    #[error("keine Berechtigung")]
    Forbidden,
    /// Not allowed, with the German reason for the user (403).
    #[error("{0}")]
    Refused(String),
    /// Invalid input, with the German message for the user.
    #[error("{0}")]
    Invalid(String),
    /// The request contradicts the current state (e.g. deleting an active list).
    #[error("{message}")]
    Conflict { code: &'static str, message: String },
    /// The marketing service refused or was unreachable; nothing was changed.
    #[error(transparent)]
    Marketing(#[from] BrevoError),
    /// Another third party (the mail server) refused or could not be reached, with the
    /// German message for the user.
    #[error("{0}")]
    Upstream(String),
    /// The database cannot be reached; the faces answer 503 with
    /// [`DATABASE_UNAVAILABLE`]. The cause is for the log.
    #[error("Datenbank nicht erreichbar: {0}")]
    DatabaseUnavailable(anyhow::Error),
    /// The file store (bucket) cannot be reached; 503 with [`FILE_STORE_UNAVAILABLE`].
    #[error("Dateispeicher nicht erreichbar: {0}")]
    FileStoreUnavailable(anyhow::Error),
    /// A list took longer than its bound ([`within_list_time`]); 503 with [`LIST_TOO_SLOW`].
    #[error("Liste zu langsam")]
    TooSlow,
    #[error(transparent)]
    Internal(anyhow::Error),
}

/// The bound of every list (`AP_LIST_TIME_LIMIT_MS`): a list that reads for long holds a
/// connection and a core; it gets a German 503 and its reads end (dropped, a statement stops
/// at its next row or wait), so that the fast calls behind it do not wait (issue 41).
/// PostgreSQL would finish a dropped statement, so there its list statements over the bound
/// are cancelled in the background ([`crate::db::sql::cancel_lists_over`]).
#[derive(Clone)]
pub struct ListBound {
    limit: std::time::Duration,
    db: crate::db::Db,
    /// How many lists went over the bound; the sweep goes on while this moves.
    over: Arc<std::sync::atomic::AtomicU64>,
    sweeping: Arc<std::sync::atomic::AtomicBool>,
}

impl ListBound {
    pub fn new(db: crate::db::Db, limit: std::time::Duration) -> ListBound {
        ListBound {
            limit,
            db,
            over: Arc::default(),
            sweeping: Arc::default(),
        }
    }

    /// `work`, or [`ServiceError::TooSlow`] once it has taken the limit.
    pub async fn within<T>(
        &self,
        work: impl std::future::Future<Output = ServiceResult<T>>,
    ) -> ServiceResult<T> {
        match tokio::time::timeout(self.limit, work).await {
            Ok(result) => result,
            Err(_) => {
                crate::metrics::list_too_slow();
                self.sweep();
                Err(ServiceError::TooSlow)
            }
        }
    }

    /// Cancels the list statements that have run longer than the limit, now and once more a
    /// limit later (a statement of the list that gave up started after its request did, so it
    /// may not be over the limit yet), and again while further lists give up: one sweep at a
    /// time, so that a burst of slow lists asks the database a few times, not once each.
    fn sweep(&self) {
        use std::sync::atomic::Ordering;
        self.over.fetch_add(1, Ordering::AcqRel);
        if self.db.backend() != crate::db::Backend::Postgres
            || self.sweeping.swap(true, Ordering::AcqRel)
        {
            return;
        }
        let bound = self.clone();
        tokio::spawn(async move {
            loop {
                let seen = bound.over.load(Ordering::Acquire);
                bound.cancel_overlong().await;
                tokio::time::sleep(bound.limit).await;
                bound.cancel_overlong().await;
                if bound.over.load(Ordering::Acquire) != seen {
                    continue;
                }
                bound.sweeping.store(false, Ordering::Release);
                // A list that gave up just now found the sweep still on: take it on.
                if bound.over.load(Ordering::Acquire) == seen
                    || bound.sweeping.swap(true, Ordering::AcqRel)
                {
                    break;
                }
            }
        });
    }

    async fn cancel_overlong(&self) {
        if let Err(err) = crate::db::sql::cancel_lists_over(&self.db, self.limit).await {
            tracing::warn!(error = %err, "overlong list statements could not be cancelled");
        }
    }
}

impl ServiceError {
    /// A failure nobody asked for, classified: a database or a file store that cannot be
    /// reached is said so (anywhere in the cause's chain), everything else is internal.
    pub fn internal(err: impl Into<anyhow::Error>) -> ServiceError {
        let err = err.into();
        let database_errors = || err.chain().filter_map(|e| e.downcast_ref::<sqlx::Error>());
        if database_errors().any(|e| matches!(e, sqlx::Error::PoolTimedOut)) {
            crate::metrics::pool_timeout();
        }
        if database_errors().any(crate::db::is_unavailable) {
            ServiceError::DatabaseUnavailable(err)
        } else if err.chain().any(crate::storage::is_unavailable) {
            ServiceError::FileStoreUnavailable(err)
        } else {
            ServiceError::Internal(err)
        }
    }
}

impl From<anyhow::Error> for ServiceError {
    fn from(err: anyhow::Error) -> Self {
        ServiceError::internal(err)
    }
}

impl From<sqlx::Error> for ServiceError {
    fn from(err: sqlx::Error) -> Self {
        // A unique violation that slipped past a service's own check (two saves at once).
        if crate::db::is_unique_violation(&err) {
            return ServiceError::Conflict {
                code: "conflict",
                message: "Der Eintrag existiert bereits.".into(),
            };
        }
        ServiceError::internal(err)
    }
}

pub use crate::domain::outage::{DATABASE_UNAVAILABLE, FILE_STORE_UNAVAILABLE, LIST_TOO_SLOW};

pub type ServiceResult<T> = Result<T, ServiceError>;

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn a_database_away_is_said_so_wherever_it_is_in_the_chain() {
        let err: anyhow::Result<()> = Err(sqlx::Error::PoolTimedOut).context("Kontakte lesen");
        assert!(matches!(
            ServiceError::internal(err.unwrap_err()),
            ServiceError::DatabaseUnavailable(_)
        ));
        assert!(matches!(
            ServiceError::from(sqlx::Error::PoolClosed),
            ServiceError::DatabaseUnavailable(_)
        ));
        assert!(matches!(
            ServiceError::from(sqlx::Error::RowNotFound),
            ServiceError::Internal(_)
        ));
        assert!(matches!(
            ServiceError::internal(anyhow::anyhow!("kaputt")),
            ServiceError::Internal(_)
        ));
    }
}
