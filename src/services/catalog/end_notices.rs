//! The notice before a package's end (issue 37): on the German day its reminder days before
//! the end, the confirmed, unblocked contacts of every customer number that took any of its
//! files are told that it ends and which files they took (UWG §5: the material must not be
//! used after the end). Queued once per package through the mail queue, like the announcement.

use chrono::Utc;

use crate::db::catalog::announcements::PackageMail;
use crate::db::{self, Db};
use crate::domain::announcements::ReminderDays;
use crate::domain::time::berlin_date;
use crate::services::catalog::announcements::queue_mail;
use crate::services::error::ServiceResult;

/// Queues every notice before the end that is due (switched on, not queued yet, the package
/// live and its day come); how many were queued. Every instance runs this; each package is
/// queued by one of them only.
pub async fn queue_due(db: &Db) -> ServiceResult<usize> {
    let now = Utc::now();
    let today = berlin_date(now);
    // One day more than the most reminder days, for the German day's offset.
    let within = chrono::Duration::days(i64::from(ReminderDays::MAX) + 1);
    let mut queued = 0;
    for (id, days, end_at) in
        db::catalog::announcements::end_notice_candidates(db, now, within).await?
    {
        let Ok(days) = ReminderDays::parse(i64::from(days)) else {
            continue;
        };
        if days.is_due(today, berlin_date(end_at)) {
            queued += usize::from(queue_mail(db, PackageMail::EndNotice, id).await?);
        }
    }
    Ok(queued)
}
