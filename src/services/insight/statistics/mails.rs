//! The packages mailed in a range and what their mails brought (issue 37), for the statistics
//! screen ("E-Mails je Paket") and its CSV. Read fresh on every request: sending changes the
//! figures, and no version follows the mail queue.

use super::mail_figures::{PackageMails, row};
use super::reports::{Reach, reach};
use crate::db::{self, Db};
use crate::domain::statistics::DayRange;
use crate::domain::time::{berlin_end_of_day, berlin_start_of_day};
use crate::domain::user::User;
use crate::services::error::ServiceResult;

/// Packages the statistics screen lists at most.
const MOST_PACKAGES: i64 = 100;

/// The packages of the user's providers (or of `provider`) whose mails were queued in the
/// range, the newest first, each with what its mails brought (`GET /api/statistics/mails`).
pub async fn mailed(
    db: &Db,
    user: &User,
    range: DayRange,
    provider: Option<i64>,
) -> ServiceResult<Vec<PackageMails>> {
    let reach = reach(db, user, provider).await?;
    mailed_in(db, &reach, range).await
}

/// The same for a reach the caller checked.
pub(super) async fn mailed_in(
    db: &Db,
    reach: &Reach,
    range: DayRange,
) -> ServiceResult<Vec<PackageMails>> {
    let span = (berlin_start_of_day(range.from), berlin_end_of_day(range.to));
    let ids =
        db::insight::statistics::mails::packages_mailed(db, reach.providers(), span, MOST_PACKAGES)
            .await?;
    let mut figures = db::insight::statistics::mails::mail_figures(db, &ids).await?;
    let names: std::collections::BTreeMap<i64, String> = db::catalog::packages::get_many(db, &ids)
        .await?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    Ok(ids
        .into_iter()
        .filter_map(|id| {
            let name = names
                .get(&id)
                .cloned()
                .unwrap_or_else(|| super::reports::DELETED.into());
            figures.remove(&id).map(|f| row(id, name, f))
        })
        .collect())
}
