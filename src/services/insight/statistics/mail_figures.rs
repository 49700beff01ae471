//! What a package's mails brought (issue 37): mails sent and failed, unsubscribes, downloads
//! through the mail's link, and the share of the customer numbers the announcement reached that
//! took anything afterwards. Read fresh on every request: sending changes them, and no version
//! follows the mail queue.

use serde::Serialize;
use utoipa::ToSchema;

use crate::db::insight::statistics::mails::MailFigures;
use crate::db::{self, Db};
use crate::domain::statistics::share;
use crate::services::error::ServiceResult;

/// One package's mails and what they brought.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageMails {
    /// The package's id.
    pub id: i64,
    /// Its name; "(gelöscht)" when it no longer exists.
    pub name: String,
    /// Mails sent: the announcement's and the notice before the end's.
    pub sent: i64,
    /// Mails that failed for good.
    pub failed: i64,
    /// Addresses unsubscribed through these mails' links.
    pub unsubscribes: i64,
    /// Downloads that followed a mail's link in the same visit (channel `mail`).
    pub mail_downloads: i64,
    /// Customer numbers the announcement was sent to.
    pub mailed_customers: i64,
    /// Of those, the customer numbers that took any file of the package after their mail.
    pub took_afterwards: i64,
    /// `tookAfterwards` / `mailedCustomers`, 0–1 (0 without mailed customer numbers).
    pub took_share: f64,
}

pub(super) fn row(id: i64, name: String, figures: MailFigures) -> PackageMails {
    PackageMails {
        id,
        name,
        took_share: share(figures.took_afterwards, figures.mailed_customers),
        sent: figures.sent,
        failed: figures.failed,
        unsubscribes: figures.unsubscribes,
        mail_downloads: figures.mail_downloads,
        mailed_customers: figures.mailed_customers,
        took_afterwards: figures.took_afterwards,
    }
}

/// The mails of package `id` (whose rights the caller checked); `None` when it has none.
pub(super) async fn of_package(
    db: &Db,
    id: i64,
    name: &str,
) -> ServiceResult<Option<PackageMails>> {
    let mut figures = db::insight::statistics::mails::mail_figures(db, &[id]).await?;
    Ok(figures
        .remove(&id)
        .map(|figures| row(id, name.to_string(), figures)))
}
