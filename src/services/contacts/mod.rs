//! Contacts (spec §2 "Admin contacts", §3 "Contact", §5 "Contact create", §7 "Contacts"):
//! the paged table, lookups, create, edit, delete and the email block, each mirrored to the
//! marketing service through `contact_mirror`.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::db::contacts::{CompanyWrite, Contact, ContactFilter, ContactSort};
use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry, person_name};
use crate::domain::contacts::{
    CustomerNumber, Email, Salutation, company_name, email_taken_message, first_name, last_name,
};
use crate::domain::input::{IdInput, IdsInput, SalutationInput, id_of_text, ids_in_text, ids_of};
use crate::domain::paging::{MAX_PAGE_SIZE, Paging};
use crate::domain::permissions::{Capability, may_manage_provider};
use crate::domain::user::User;
use crate::integrations::brevo::UpdateContact;
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;
use crate::services::marketing::contact_mirror::{self as mirror, ContactFields};
use crate::services::operations::answers::{Answer, Answers, Stamp};

pub mod contact_start;
pub mod customer_groups;
pub mod data_subject;
pub mod double_opt_in;
mod listing;
pub mod mail_queue;
pub mod mailing;
pub mod package_mails;
pub mod planning;
pub mod unsubscribe;
mod writes;

pub(crate) use listing::group_lists;
pub use listing::{
    AssignedListView, ContactBody, ContactPage, ContactParams, ContactQuery, ContactStatus,
    NO_CONTACT_IDS, by_email, list_info, lists_of, lists_of_many, page, page_answer,
    page_answer_at, pending_counts, provider_ids,
};
pub use writes::{
    CompanyInput, DOI_KEEPS_LISTS, MOVE_REFUSED, create, delete, toggle_blacklist, update,
};
pub(crate) use writes::{checked_lists, company_of};

/// "Kein Eintrag gefunden!" (spec §8: a lookup finds nothing).
pub const NOT_FOUND: &str = "Kein Eintrag gefunden!";

/// How long a contact counts as new (the filter panel's "new/active", like the NEU badge).
pub const NEW_FOR_DAYS: i64 = 7;

/// The company of a contact.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[schema(as = ContactCompany)]
#[serde(rename_all = "camelCase")]
pub struct CompanyView {
    pub customer_number: i64,
    pub company_name: String,
}

/// A contact as the API and the islands see it (spec §3).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[schema(as = Contact)]
#[serde(rename_all = "camelCase")]
pub struct ContactView {
    pub id: i64,
    /// The marketing service's contact id; `null` in local mode or before it is known.
    pub brevo_contact_id: Option<i64>,
    /// Whether the contact has confirmed the email address.
    pub double_opt_in: bool,
    /// When the contact confirmed.
    pub double_opt_in_at: Option<DateTime<Utc>>,
    /// When the last confirmation mail went out.
    pub double_opt_in_sent_at: Option<DateTime<Utc>>,
    /// Trimmed and lower-cased.
    pub email: String,
    pub customer_number: i64,
    pub company_name: String,
    pub company: CompanyView,
    /// 0 none, 1 Firma, 2 Herr, 3 Frau, 4 Diverses.
    pub salutation: i16,
    pub firstname: String,
    pub lastname: String,
    /// External id (the marketing service's contact id as text).
    pub extern_id: Option<String>,
    /// Blocked: no mails go to the address.
    pub email_blacklisted: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Ids of the lists (criteria) the contact is on, ascending.
    pub lists_ids: Vec<i64>,
    /// The proof of the contact's consent; `null` while the address is not confirmed.
    pub consent: Option<ConsentView>,
}

/// The proof of a confirmed contact's consent (DSGVO Art. 7(1)): the mail whose link was
/// used, and the request that confirmed with the consent text its page showed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[schema(as = ConsentProof)]
#[serde(rename_all = "camelCase")]
pub struct ConsentView {
    /// False for confirmations from before the proof was kept, or taken over from the
    /// marketing service: the editor says "Nachweis nicht vorhanden".
    pub proven: bool,
    pub confirmed_at: Option<DateTime<Utc>>,
    /// The confirming request's client address.
    pub address: Option<String>,
    /// The confirming request's `User-Agent`.
    pub user_agent: Option<String>,
    /// When the mail whose link was used went out, and its Message-ID.
    pub mail_sent_at: Option<DateTime<Utc>>,
    pub message_id: Option<String>,
    /// The version (hex SHA-256) of the consent text the confirmation page showed.
    pub text_version: Option<String>,
}

impl ContactView {
    fn new(contact: Contact, lists_ids: Vec<i64>) -> ContactView {
        ContactView {
            id: contact.id,
            brevo_contact_id: contact.brevo_contact_id,
            double_opt_in: contact.double_opt_in,
            double_opt_in_at: contact.double_opt_in_at,
            double_opt_in_sent_at: contact.double_opt_in_sent_at,
            email: contact.email,
            customer_number: contact.customer_number,
            company: CompanyView {
                customer_number: contact.customer_number,
                company_name: contact.company_name.clone(),
            },
            company_name: contact.company_name,
            salutation: contact.salutation,
            firstname: contact.firstname,
            lastname: contact.lastname,
            extern_id: contact.extern_id,
            email_blacklisted: contact.email_blacklisted,
            created_at: contact.created_at,
            updated_at: contact.updated_at,
            lists_ids,
            consent: contact.double_opt_in.then(|| ConsentView {
                proven: contact.double_opt_in_consent_version.is_some(),
                confirmed_at: contact.double_opt_in_at,
                address: contact.double_opt_in_address,
                user_agent: contact.double_opt_in_user_agent,
                mail_sent_at: contact.double_opt_in_mail_sent_at,
                message_id: contact.double_opt_in_message_id,
                text_version: contact.double_opt_in_consent_version,
            }),
        }
    }
}

pub(crate) fn invalid(message: impl Into<String>) -> ServiceError {
    ServiceError::Invalid(message.into())
}

/// Views of contacts with their list ids (one query for all lists).
pub(crate) async fn views(db: &Db, contacts: Vec<Contact>) -> ServiceResult<Vec<ContactView>> {
    let ids: Vec<i64> = contacts.iter().map(|c| c.id).collect();
    let assigned = db::contacts::assigned_lists(db, &ids).await?;
    Ok(contacts
        .into_iter()
        .map(|contact| {
            let mut lists: Vec<i64> = assigned
                .iter()
                .filter(|a| a.contact_id == contact.id)
                .map(|a| a.list_id)
                .collect();
            lists.sort_unstable();
            ContactView::new(contact, lists)
        })
        .collect())
}

pub(crate) async fn view(db: &Db, contact: Contact) -> ServiceResult<ContactView> {
    Ok(views(db, vec![contact]).await?.remove(0))
}
