//! The marketing changes Brevo did not take, kept for the minute job: a contact's call
//! (`services::marketing::contact_mirror` runs it again), a provider's lists or an unused folder
//! (`services::marketing::providers::run_retry`). Only the keeping is here, so that the modules that
//! make and run such changes import this one and not each other.

use serde_json::Value;

use crate::db::{self, Db};
use crate::services::error::ServiceError;

/// A stored provider update to finish: every list of the provider into the folder of its
/// status, then the given folders deleted (when no provider uses them and they are empty).
pub(crate) const RETRY_PROVIDER_LISTS: &str = "provider_lists";
/// A stored folder delete of a deleted provider (skipped when a provider uses it meanwhile).
pub(crate) const RETRY_DELETE_FOLDER: &str = "delete_folder";

/// Whether a stored retry is a folder or list change (`services::marketing::providers::run_retry`).
pub fn is_folder_retry(operation: &str) -> bool {
    matches!(operation, RETRY_PROVIDER_LISTS | RETRY_DELETE_FOLDER)
}

/// Stores a folder or list change Brevo did not take (run by `services::marketing::providers::run_retry`) for the
/// minute job; `subject` says in German what waits (it stands where a contact's email would).
pub async fn remember_change(db: &Db, subject: &str, operation: &str, body: &Value, why: &str) {
    store(db, subject, operation, &body.to_string(), why).await;
}

pub(crate) async fn store(db: &Db, key: &str, operation: &str, body: &str, why: &str) {
    tracing::error!(error = why, operation, "marketing change kept for a retry");
    if let Err(db_err) = db::marketing::marketing_retries::add(db, key, operation, body, why).await
    {
        // Both sides failed: only the log is left to tell.
        tracing::error!(error = %db_err, operation, "marketing retry could not be stored");
    }
}

/// Stores, for the minute job, that the lists of `provider` must be brought back to our
/// state in Brevo (name and folder of each), and `orphan_lists` deleted there: what is left
/// when a list change was made in Brevo, our database refused it and Brevo then refused the
/// undo as well.
pub(crate) async fn remember_provider_lists(
    db: &Db,
    provider: &db::marketing::providers::Provider,
    orphan_lists: &[i64],
    why: &ServiceError,
) {
    remember_change(
        db,
        &format!("Listen des Anbieters {}", provider.name),
        RETRY_PROVIDER_LISTS,
        &serde_json::json!({ "providerId": provider.id, "folders": [], "orphanLists": orphan_lists }),
        &why.to_string(),
    )
    .await;
}

/// Stores, for the minute job, that folder `id`, made for a request that then failed, is to
/// be deleted in Brevo (unless a provider uses it by then).
pub(crate) async fn remember_unused_folder(db: &Db, id: i64, why: &str) {
    remember_change(
        db,
        &format!("Nicht mehr benötigter Marketing-Ordner {id}"),
        RETRY_DELETE_FOLDER,
        &serde_json::json!({ "folders": [id] }),
        why,
    )
    .await;
}
