//! Customer groups (spec §2 "Contact edit", §3 "Customer group", §5, §6): the contacts of
//! one customer number with their import candidates from the planning system, and the
//! editor's save, applied as one unit in Brevo and in our database.
//!
//! A save is checked completely before anything is written. Brevo is changed first, contact by
//! contact, each after a snapshot of its state there; when a step fails, the steps already
//! done are undone in reverse order (what cannot be undone at once is queued as a marketing
//! retry) and the user is told. Our database is written last in one transaction; when that
//! fails, Brevo is put back the same way.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::db::contacts::customer_groups::GroupEdit;
use crate::db::contacts::{Contact, ContactChange, NewContact};
use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::contacts::{
    CustomerNumber, Email, Salutation, clip_name, company_name, email_taken_message, first_name,
    last_name,
};
use crate::domain::input::{IdInput, IdsInput, SalutationInput, id_of_text, ids_of};
use crate::domain::permissions::Capability;
use crate::domain::roles::BU_DOI;
use crate::domain::user::User;
use crate::integrations::brevo::{BrevoClient, UpdateContact};
use crate::integrations::planning::{PlanningClient, PlanningError};
use crate::services::contacts::{
    CompanyInput, CompanyView, ContactView, DOI_KEEPS_LISTS, checked_lists, company_of, invalid,
    views,
};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;
use crate::services::marketing::contact_mirror::{self as mirror, ContactFields, ContactSnapshot};

mod save;

pub use save::save;

/// 'E-Mail doppelt vorhanden!' (spec §5).
pub const DUPLICATE_EMAIL: &str = "E-Mail doppelt vorhanden!";

/// Saving needs a criterion unless the user has BU-DOI (spec §5, in German).
pub const CRITERION_REQUIRED: &str = "Es muss mindestens ein Kriterium ausgewählt werden.";

/// Contacts one save may name at most.
pub const MAX_CONTACTS_PER_SAVE: usize = 500;

/// A contact the planning system (or a CSV file) offers for the customer number.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
#[schema(as = ImportCandidate)]
#[serde(rename_all = "camelCase")]
pub struct CandidateView {
    /// 0 none, 1 Firma, 2 Herr, 3 Frau, 4 Diverses.
    pub salutation: i16,
    pub firstname: String,
    pub lastname: String,
    pub email: String,
    pub company_name: String,
    /// `service` or `csv`.
    #[schema(value_type = String)]
    pub source: &'static str,
    /// The email is a contact of another customer number already.
    pub existing_customer_number: Option<i64>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Imports {
    /// The company: ours, else as the planning system or a CSV file names it; null when nobody
    /// knows it.
    pub company: Option<CompanyView>,
    pub contacts: Vec<CandidateView>,
    /// Why there are no candidates from the planning system (German), if that is worth saying.
    pub message: Option<String>,
}

/// The contact editor's save (spec §3 "Customer group"), applied as one unit: every contact
/// created, changed or removed and every list added or taken off, in our database and in
/// Brevo, or none of it. Contacts of the group not named in `contacts` stay, but get
/// `listsIds` and lose `uncheckedListsIds` like the others. At most 500 contacts per save.
#[derive(Debug, Default, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerGroupInput {
    /// Must be the path's number when given.
    pub customer_number: Option<IdInput>,
    /// The company (Firma); instead of it, `company` may be sent.
    #[schema(required = true, min_length = 1, max_length = 100)]
    pub company_name: Option<String>,
    /// Alternative to `companyName` (used when `companyName` is absent).
    pub company: Option<CompanyInput>,
    /// Lists every contact of the group is put on. At least one unless the user has BU-DOI.
    /// Lists the group has not yet need a role of their provider (or Admin); BU-DOI adds none.
    pub lists_ids: Option<IdsInput>,
    /// Lists every contact of the group is taken off (a role of their provider, or Admin).
    pub unchecked_lists_ids: Option<IdsInput>,
    #[schema(max_items = 500)]
    pub contacts: Option<Vec<GroupContactInput>>,
    /// Import candidates chosen: created as new contacts.
    #[schema(max_items = 500)]
    pub alpha_plan_contacts: Option<Vec<GroupContactInput>>,
}

/// One contact of a customer-group save: with `id` an existing contact of the group (changed,
/// or deleted with `remove: true`); without `id` a new contact. Unknown fields are ignored.
#[derive(Debug, Default, serde::Deserialize, utoipa::ToSchema)]
pub struct GroupContactInput {
    #[schema(minimum = 1)]
    pub id: Option<i64>,
    pub remove: Option<bool>,
    #[schema(min_length = 3, max_length = 254)]
    pub email: Option<String>,
    pub salutation: Option<SalutationInput>,
    #[schema(min_length = 1, max_length = 100)]
    pub firstname: Option<String>,
    #[schema(min_length = 1, max_length = 100)]
    pub lastname: Option<String>,
}

/// `GET /api/contacts/customer-number/{n}` (spec §7): content and imports.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CustomerGroup {
    pub content: Vec<ContactView>,
    pub imports: Imports,
}

fn number_of(text: &str) -> ServiceResult<i64> {
    CustomerNumber::new(id_of_text(text))
        .map(CustomerNumber::get)
        .map_err(invalid)
}

/// The German message for a planning system that gave no answer.
fn planning_message(err: &PlanningError) -> String {
    match err {
        PlanningError::Timeout => {
            "Das Planungssystem antwortet nicht rechtzeitig. Bitte versuchen Sie es später erneut."
                .into()
        }
        _ => "Das Planungssystem ist nicht erreichbar oder antwortet fehlerhaft. Bitte versuchen \
              Sie es später erneut."
            .into(),
    }
}

pub const NO_PLANNING_SYSTEM: &str = "Es ist kein Planungssystem angebunden. Importkandidaten \
     lassen sich über „Import aus der Planung“ als CSV-Datei bereitstellen.";

/// The group with its candidates. A slow or failing planning system gives a message, not an
/// error: the editor works without candidates.
pub async fn load(
    db: &Db,
    planning: Option<&PlanningClient>,
    number_text: &str,
) -> ServiceResult<CustomerGroup> {
    let number = number_of(number_text)?;
    let contacts = db::contacts::list_by_customer_number(db, number).await?;
    let company = db::contacts::get_company(db, number).await?;
    let mut message = None;
    let mut candidates: Vec<CandidateView> = Vec::new();
    let mut planned_company = None;
    match planning {
        None => {}
        Some(client) => match client.customer(number).await {
            Ok(Some(planned)) => {
                if !planned.company_name.trim().is_empty() {
                    planned_company = Some(planned.company_name.trim().to_string());
                }
                for contact in planned.contacts {
                    let salutation = match &contact.salutation {
                        Value::String(text) => Salutation::parse_text(text).ok(),
                        other => Salutation::from_code(
                            other.as_i64().and_then(|n| i16::try_from(n).ok()),
                        )
                        .ok(),
                    };
                    let Ok(email) = Email::parse(&contact.email) else {
                        continue;
                    };
                    candidates.push(CandidateView {
                        salutation: salutation.map_or(0, Salutation::code),
                        firstname: clip_name(&contact.firstname),
                        lastname: clip_name(&contact.lastname),
                        email: email.into_inner(),
                        company_name: planned.company_name.trim().to_string(),
                        source: "service",
                        existing_customer_number: None,
                    });
                }
            }
            Ok(None) => {
                message = Some(format!(
                    "Das Planungssystem kennt die Kundennummer {number} nicht."
                ));
            }
            Err(err) => {
                tracing::warn!(error = %err, number, "planning system gave no candidates");
                message = Some(planning_message(&err));
            }
        },
    }
    let from_csv = db::contacts::planning_candidates::of_customer(db, number).await?;
    if planning.is_none() && from_csv.is_empty() {
        message = Some(NO_PLANNING_SYSTEM.into());
    }
    let csv_company = from_csv.first().map(|c| c.company_name.clone());
    candidates.extend(from_csv.into_iter().map(|c| CandidateView {
        salutation: c.salutation,
        firstname: c.firstname,
        lastname: c.lastname,
        email: c.email,
        company_name: c.company_name,
        source: "csv",
        existing_customer_number: None,
    }));
    // Candidates that are contacts of this group already are no candidates; those that are
    // contacts elsewhere say so.
    let ours: HashSet<String> = contacts.iter().map(|c| c.email.clone()).collect();
    let mut seen = HashSet::new();
    candidates.retain(|c| !ours.contains(&c.email) && seen.insert(c.email.clone()));
    let emails: Vec<String> = candidates.iter().map(|c| c.email.clone()).collect();
    let elsewhere: HashMap<String, i64> = db::contacts::customer_numbers_of_emails(db, &emails)
        .await?
        .into_iter()
        .collect();
    for candidate in &mut candidates {
        candidate.existing_customer_number = elsewhere.get(&candidate.email).copied();
    }
    let company_name = company
        .map(|c| c.company_name)
        .or(planned_company)
        .or(csv_company);
    Ok(CustomerGroup {
        content: views(db, contacts).await?,
        imports: Imports {
            company: company_name.map(|company_name| CompanyView {
                customer_number: number,
                company_name,
            }),
            contacts: candidates,
            message,
        },
    })
}

/// A provider in the editor's criteria picker; its lists are selectable with `may_manage`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditorProvider {
    pub id: i64,
    pub name: String,
    pub may_manage: bool,
}

/// Every provider, each saying whether the user may choose its lists (spec §6).
pub async fn editor_providers(db: &Db, user: &User) -> ServiceResult<Vec<EditorProvider>> {
    let mut providers: Vec<EditorProvider> = db::marketing::providers::list_all(db)
        .await?
        .into_iter()
        .map(|p| EditorProvider {
            may_manage: crate::domain::permissions::may_manage_provider(user, &p.allowed_roles),
            id: p.id,
            name: p.name,
        })
        .collect();
    providers.sort_by_key(|p| p.name.to_lowercase());
    Ok(providers)
}
