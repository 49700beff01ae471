//! Requests of the people whose data the portal keeps (issue 25; DSGVO Art. 15 and 20):
//! everything stored about a contact, as one JSON document. Admin only; each request is
//! written to the audit log.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Entity, Entry, Filter};
use crate::domain::paging::Paging;
use crate::domain::user::User;
use crate::services::audit::AuditEntry;
use crate::services::contacts::{AssignedListView, CompanyView, ContactView};
use crate::services::error::{ServiceError, ServiceResult};

/// Audit entries an export names at most (the newest); the log keeps `AP_AUDIT_DAYS`.
const MAX_AUDIT_ENTRIES: i64 = 10_000;

/// `GET /api/contacts/{id}/export`: everything stored about one contact.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactExport {
    /// When the export was made.
    pub exported_at: DateTime<Utc>,
    /// The contact with its Brevo id and its proof of consent (`consent`).
    pub contact: ContactView,
    /// The customer group (company) the contact belongs to.
    pub company: CompanyView,
    /// The lists (criteria) the contact is on, with their providers.
    pub lists: Vec<AssignedListView>,
    /// The words of the consent text the contact confirmed (`contact.consent.textVersion`);
    /// `null` without a proof.
    pub consent_text: Option<String>,
    /// The contact's mails of mail jobs (double opt-in to all pending contacts), oldest first.
    pub mails: Vec<db::mail_jobs::ContactMail>,
    /// The audit log's entries about the contact, oldest first.
    pub audit: Vec<AuditEntry>,
}

/// Everything stored about contact `id`, for an admin; the request is logged.
pub async fn export(db: &Db, user: &User, id: i64) -> ServiceResult<ContactExport> {
    if !user.is_admin() {
        return Err(ServiceError::Forbidden);
    }
    let contact = db::contacts::get_contact(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let consent_text = match &contact.double_opt_in_consent_version {
        Some(version) => db::contacts::consent_text(db, version).await?,
        None => None,
    };
    let contact = crate::services::contacts::view(db, contact).await?;
    let lists =
        crate::services::contacts::group_lists(db::contacts::assigned_lists(db, &[id]).await?);
    let mails = db::mail_jobs::mails_of_contact(db, id).await?;
    let filter = Filter {
        entity: Some(Entity::Contact),
        entity_id: Some(id),
        ..Filter::default()
    };
    let newest = Paging::parse(Some(MAX_AUDIT_ENTRIES), None, None, MAX_AUDIT_ENTRIES)
        .map_err(ServiceError::Invalid)?;
    let (rows, _) = db::audit::page(db, &filter, newest).await?;
    let mut audit: Vec<AuditEntry> = rows
        .into_iter()
        .map(crate::services::audit::entry_of)
        .collect();
    audit.reverse();
    let entry = Entry::new(&Actor::of(user), Action::Export, Entity::Contact, Some(id));
    db::audit::record_alone(db, &entry).await?;
    tracing::info!(contact = id, "contact's data exported");
    Ok(ContactExport {
        exported_at: db::now(),
        company: contact.company.clone(),
        contact,
        lists,
        consent_text,
        mails,
        audit,
    })
}
