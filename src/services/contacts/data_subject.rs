//! Requests of the people whose data the portal keeps (issue 25): everything stored about a
//! contact as one JSON document (DSGVO Art. 15 and 20), and its erasure (Art. 17). Admin only;
//! each request is written to the audit log.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Entity, Entry};
use crate::domain::user::User;
use crate::integrations::mail::Mailer;
use crate::services::contacts::{AssignedListView, CompanyView, ContactView};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::insight::audit::AuditEntry;
use crate::services::marketing::Marketing;
use crate::services::marketing::contact_mirror as mirror;

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
    pub mails: Vec<db::operations::mail_jobs::ContactMail>,
    /// The audit log's entries that name the contact, oldest first: about the contact itself,
    /// its share of its customer group's entries, and any other entry naming its address.
    /// These are the entries an erasure rewrites.
    pub audit: Vec<AuditEntry>,
    /// Every other place that keeps something about the contact, each a list of rows with
    /// their columns as text: `lists` (list memberships), `tokens` (double opt-in links, their
    /// times only), `mails` (mails of mail jobs), `unsubscribeLinks` (of the package mails,
    /// their times only), `marketingRetries` (changes for Brevo still waiting),
    /// `planningCandidates` (import candidates of the planning system with the address) and
    /// `packageTakers` (the files its customer number took, for the notice before a package's
    /// end). An erasure removes exactly these rows; `packageTakers` only when the customer
    /// group goes with the contact.
    #[schema(value_type = Object)]
    pub stored: std::collections::BTreeMap<&'static str, Vec<db::contacts::erasure::PlaceFields>>,
    /// The portal's copies of mails to the contact in the outbox folder (file names; only
    /// when mail goes to the outbox instead of Brevo or SMTP).
    pub outbox_files: Vec<String>,
}

/// Everything stored about contact `id`, for an admin; the request is logged.
pub async fn export(
    db: &Db,
    mailer: &Mailer,
    user: &User,
    id: i64,
) -> ServiceResult<ContactExport> {
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
    let mails = db::operations::mail_jobs::mails_of_contact(db, id).await?;
    let outbox_files = outbox_of(mailer, &contact.email).await?;
    let stored = db::contacts::erasure::stored_about(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let audit: Vec<AuditEntry> = stored
        .audit
        .into_iter()
        .map(crate::services::insight::audit::entry_of)
        .collect();
    // No name kept: the request writes nothing of the person that an erasure would have to
    // rewrite after the export has shown it (the Protokoll names the contact while it exists).
    let entry = Entry::new(&Actor::of(user), Action::Export, Entity::Contact, Some(id));
    db::insight::audit::record_alone(db, &entry).await?;
    tracing::info!(contact = id, "contact's data exported");
    Ok(ContactExport {
        exported_at: db::now(),
        company: contact.company.clone(),
        contact,
        lists,
        consent_text,
        mails,
        audit,
        stored: stored.places,
        outbox_files,
    })
}

/// The file names of the outbox's mails to `email`.
async fn outbox_of(mailer: &Mailer, email: &str) -> ServiceResult<Vec<String>> {
    let files = mailer.outbox_mails_to(email).await.map_err(outbox_failed)?;
    Ok(files
        .iter()
        .filter_map(|path| path.file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .collect())
}

fn outbox_failed(err: crate::integrations::mail::MailError) -> ServiceError {
    ServiceError::Internal(anyhow::anyhow!("Ablage der Mails: {err}"))
}

/// Added to Brevo's refusal: the admin learns that the portal kept everything.
const NOTHING_ERASED: &str = "Es wurde nichts gelöscht.";

/// `POST /api/contacts/{id}/erase`: what an erasure removed.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErasureReport {
    /// `Der Kontakt wurde endgültig gelöscht.`
    pub message: String,
    pub id: i64,
    /// Whether the marketing service (Brevo) was asked to delete it (false in local mode).
    pub marketing_service: bool,
    /// Copies of mails to the contact deleted from the outbox folder.
    pub outbox_files: usize,
    #[serde(flatten)]
    pub erased: db::contacts::erasure::Erased,
}

/// Erases contact `id` for an admin: in Brevo first (when that fails, nothing here changes),
/// then the outbox's copies of its mails, then everything in the database in one transaction.
#[tracing::instrument(skip_all, fields(contact = id))]
pub async fn erase(
    db: &Db,
    marketing: &Marketing,
    mailer: &Mailer,
    user: &User,
    id: i64,
) -> ServiceResult<ErasureReport> {
    if !user.is_admin() {
        return Err(ServiceError::Forbidden);
    }
    let contact = db::contacts::get_contact(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    if let Marketing::Brevo(client) = marketing {
        mirror::delete_remote(client, contact.brevo_contact_id, &contact.email)
            .await
            .map_err(|err| {
                tracing::warn!(error = %err, contact = id, "Brevo did not delete: nothing erased");
                ServiceError::Upstream(format!("{} {NOTHING_ERASED}", err.user_message()))
            })?;
    }
    let outbox_files = mailer
        .forget_mails_to(&contact.email)
        .await
        .map_err(outbox_failed)?;
    let entry = Entry::new(&Actor::of(user), Action::Erase, Entity::Contact, Some(id));
    let erased = db::contacts::erasure::erase_contact(db, id, &entry)
        .await?
        .ok_or(ServiceError::NotFound)?;
    tracing::info!(contact = id, ?erased, outbox_files, "contact erased");
    Ok(ErasureReport {
        message: "Der Kontakt wurde endgültig gelöscht.".into(),
        id,
        marketing_service: matches!(marketing, Marketing::Brevo(_)),
        outbox_files,
        erased,
    })
}
