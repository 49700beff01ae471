//! The audit log as the Protokoll screen and `GET /api/audit` read it (Admin only), and its
//! retention sweep. Entries are written by the data layer, in the transaction of each change.

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::db::{self, Db};
use crate::domain::audit::{Action, Entity, Filter, Named, field_label, ids_in, same_value};
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
    /// How the record was named when the entry was written, e.g. "Privatkunden" or a
    /// contact's first and last name; `null` for entries written before names were kept and
    /// for changes of many records.
    pub entity_name: Option<String>,
    /// The record's name today; `null` when it no longer exists or the entry names no record.
    /// Differs from `entityName` after a rename.
    pub current_name: Option<String>,
    /// The changed fields by their stored key: `{"field": {"before": …, "after": …, "label":
    /// "Firma"}}`, with the German label of the screen where the field is edited. `before` is
    /// `null` for a new record, `after` for a deleted one. Secrets are never recorded; a set of
    /// ids whose order alone changed (older entries) is left out, since it is no change.
    #[schema(value_type = Object, example = json!({"company_name": {"before": "Muster GmbH", "after": "Muster AG", "label": "Firma"}}))]
    pub changes: Value,
    /// The erasures of a person (DSGVO Art. 17) that replaced values of this entry with
    /// "gelöscht": which erasure (its own entry's id), when, and which fields. Empty for an
    /// entry no erasure touched.
    pub erasures: Vec<crate::domain::erasure::ErasureMark>,
    /// The changes exactly as stored, for the Protokoll's "Details".
    #[serde(skip)]
    #[schema(ignore)]
    pub stored: String,
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

/// A page of the log for an admin with the names it needs; everyone else is refused.
pub async fn named_page(db: &Db, user: &User, query: &AuditQuery<'_>) -> ServiceResult<NamedPage> {
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
    let (rows, count) = db::insight::audit::page(db, &filter, paging).await?;
    let mut content: Vec<AuditEntry> = rows.into_iter().map(entry_of).collect();
    let names = Names::read(db, &content).await?;
    for entry in &mut content {
        entry.current_name = entry
            .entity_id
            .zip(Named::of_entity(&entry.entity))
            .and_then(|(id, kind)| names.get(kind, id))
            .map(str::to_owned);
    }
    Ok(NamedPage {
        page: AuditPage { content, count },
        names,
    })
}

/// A page of the log for an admin (`GET /api/audit`); everyone else is refused.
pub async fn page(db: &Db, user: &User, query: &AuditQuery<'_>) -> ServiceResult<AuditPage> {
    Ok(named_page(db, user, query).await?.page)
}

/// A page with the names of the records its entries name (the Protokoll screen's).
pub struct NamedPage {
    pub page: AuditPage,
    pub names: Names,
}

/// The present names of the records a page names by id (lists, tags, providers, files,
/// packages) and of the records its entries are about: read with one query per kind.
#[derive(Clone, Debug, Default)]
pub struct Names(HashMap<(Named, i64), String>);

impl Names {
    async fn read(db: &Db, entries: &[AuditEntry]) -> ServiceResult<Names> {
        let mut wanted: HashMap<Named, BTreeSet<i64>> = HashMap::new();
        for entry in entries {
            if let (Some(id), Some(kind)) = (entry.entity_id, Named::of_entity(&entry.entity)) {
                wanted.entry(kind).or_default().insert(id);
            }
            for (key, pair) in entry.changes.as_object().into_iter().flatten() {
                for side in ["before", "after"] {
                    ids_in(key, &pair[side], &mut |kind, id| {
                        wanted.entry(kind).or_default().insert(id);
                    });
                }
            }
        }
        let mut names = HashMap::new();
        for (kind, ids) in wanted {
            let ids: Vec<i64> = ids.into_iter().collect();
            for (id, name) in db::insight::audit::names_of(db, kind, &ids).await? {
                names.insert((kind, id), name);
            }
        }
        Ok(Names(names))
    }

    pub fn get(&self, kind: Named, id: i64) -> Option<&str> {
        self.0.get(&(kind, id)).map(String::as_str)
    }
}

/// An entry as stored, its fields labelled in German; a set whose order alone changed is
/// left out (entries written before the log compared sets).
pub(crate) fn entry_of(row: db::insight::audit::AuditRow) -> AuditEntry {
    let label = |word: Option<&'static str>, stored: &str| word.unwrap_or(stored).to_owned();
    let changes = match serde_json::from_str::<Value>(&row.changes) {
        Ok(Value::Object(fields)) => Value::Object(labelled(&row.entity, fields)),
        Ok(other) => other,
        Err(_) => Value::Null,
    };
    AuditEntry {
        at: row.at,
        action_label: label(Action::parse(&row.action).map(Action::label), &row.action),
        entity_label: label(Entity::parse(&row.entity).map(Entity::label), &row.entity),
        actor: row.actor,
        action: row.action,
        entity: row.entity,
        entity_id: row.entity_id,
        entity_name: row.entity_name,
        current_name: None,
        changes,
        erasures: crate::domain::erasure::read_marks(row.erasures.as_deref()),
        stored: row.changes,
    }
}

/// The changed fields with a `label` each, without the ones that did not change.
fn labelled(entity: &str, fields: Map<String, Value>) -> Map<String, Value> {
    fields
        .into_iter()
        .filter_map(|(key, pair)| {
            let Value::Object(mut pair) = pair else {
                return Some((key, pair));
            };
            let (before, after) = (pair.get("before"), pair.get("after"));
            if let (Some(before), Some(after)) = (before, after)
                && same_value(before, after)
            {
                return None;
            }
            pair.insert("label".into(), Value::String(field_label(entity, &key)));
            Some((key, Value::Object(pair)))
        })
        .collect()
}

/// Deletes the entries older than `keep_days` (`AP_AUDIT_DAYS`); run daily.
pub async fn expire(db: &Db, keep_days: u32) {
    let before = Utc::now() - chrono::Duration::days(i64::from(keep_days));
    match db::insight::audit::delete_before(db, before).await {
        Ok(0) => {}
        Ok(deleted) => tracing::info!(deleted, "audit entries past their keeping time deleted"),
        Err(err) => tracing::warn!(error = %err, "old audit entries not deleted"),
    }
}
