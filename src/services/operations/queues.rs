//! The work the portal has queued in the shared database, for the metrics (issue 25): the
//! same numbers on every instance.

use crate::db::{self, Db};

/// How much waits, as read now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Queues {
    /// Mails of running mail jobs not sent yet (pending or being sent).
    pub mails_open: i64,
    /// Contact changes that still have to reach Brevo.
    pub brevo_retries: i64,
    /// Files of a previewed kind without a preview yet.
    pub previews_waiting: i64,
}

pub async fn queues(db: &Db) -> Result<Queues, sqlx::Error> {
    let (mails_open, brevo_retries, previews) = tokio::try_join!(
        db::operations::mail_jobs::open_items(db),
        db::marketing::marketing_retries::count(db),
        db::catalog::previews::counts(db, &crate::previews::DrawingKind::CONTENT_TYPES),
    )?;
    Ok(Queues {
        mails_open,
        brevo_retries,
        previews_waiting: previews.waiting,
    })
}
