//! The audit log as the Protokoll screen and `GET /api/audit` read it (Admin only), and its
//! retention sweep. Entries are written by the data layer, in the transaction of each change.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use crate::db::{self, Db};
use crate::domain::audit::{Action, Entity, Filter};
use crate::domain::paging::{MAX_PAGE_SIZE, Paging};
use crate::domain::user::User;
use crate::services::error::{ServiceError, ServiceResult};

/// One entry.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    /// When (RFC 3339, UTC).
    pub at: DateTime<Utc>,
    /// A person's login (e-mail address), `CLI` or `System`.
    pub actor: String,
    /// What happened, e.g. `create`, `update`, `delete`, `archive`, `block`.
    pub action: String,
    /// The German label of `action`, e.g. "geändert".
    pub action_label: String,
    /// What it happened to, e.g. `provider`, `list`, `package`, `contact`.
    pub entity: String,
    /// The German label of `entity`, e.g. "Anbieter".
    pub entity_label: String,
    /// The record's id; `null` for changes of many records (a mail to all pending contacts).
    pub entity_id: Option<i64>,
    /// The changed fields: `{"field": {"before": …, "after": …}}`; `before` is `null` for a
    /// new record, `after` for a deleted one. Secrets are never recorded.
    #[schema(value_type = Object)]
    pub changes: Value,
    /// The erasures of a person (DSGVO Art. 17) that replaced values of this entry with
    /// "gelöscht": which erasure (its own entry's id), when, and which fields. Empty for an
    /// entry no erasure touched.
    pub erasures: Vec<crate::domain::erasure::ErasureMark>,
}

/// A page of entries, newest first, and how many match the filter.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct AuditPage {
    pub content: Vec<AuditEntry>,
    pub count: i64,
}

/// What a page is asked for: the filter's texts as given (empty means any) and the page.
#[derive(Clone, Debug, Default)]
pub struct AuditQuery<'a> {
    pub entity: Option<&'a str>,
    pub entity_id: Option<&'a str>,
    pub actor: Option<&'a str>,
    pub from: Option<&'a str>,
    pub to: Option<&'a str>,
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

/// A page of the log for an admin; everyone else is refused.
pub async fn page(db: &Db, user: &User, query: &AuditQuery<'_>) -> ServiceResult<AuditPage> {
    if !user.is_admin() {
        return Err(ServiceError::Forbidden);
    }
    let filter = Filter::parse(
        query.entity,
        query.entity_id,
        query.actor,
        query.from,
        query.to,
    )
    .map_err(ServiceError::Invalid)?;
    let paging = Paging::parse(query.limit, query.offset, None, MAX_PAGE_SIZE)
        .map_err(ServiceError::Invalid)?;
    let (rows, count) = db::audit::page(db, &filter, paging).await?;
    let content = rows.into_iter().map(entry_of).collect();
    Ok(AuditPage { content, count })
}

pub(crate) fn entry_of(row: db::audit::AuditRow) -> AuditEntry {
    let label = |word: Option<&'static str>, stored: &str| word.unwrap_or(stored).to_owned();
    AuditEntry {
        at: row.at,
        action_label: label(Action::parse(&row.action).map(Action::label), &row.action),
        entity_label: label(Entity::parse(&row.entity).map(Entity::label), &row.entity),
        actor: row.actor,
        action: row.action,
        entity: row.entity,
        entity_id: row.entity_id,
        changes: serde_json::from_str(&row.changes).unwrap_or(Value::Null),
        erasures: crate::domain::erasure::read_marks(row.erasures.as_deref()),
    }
}

/// Deletes the entries older than `keep_days` (`AP_AUDIT_DAYS`); run daily.
pub async fn expire(db: &Db, keep_days: u32) {
    let before = Utc::now() - chrono::Duration::days(i64::from(keep_days));
    match db::audit::delete_before(db, before).await {
        Ok(0) => {}
        Ok(deleted) => tracing::info!(deleted, "audit entries past their keeping time deleted"),
        Err(err) => tracing::warn!(error = %err, "old audit entries not deleted"),
    }
}
