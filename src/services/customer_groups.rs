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

use crate::db::contacts::{Contact, ContactChange, NewContact};
use crate::db::customer_groups::GroupEdit;
use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::contacts::{
    CustomerNumber, Email, Salutation, company_name, email_taken_message, first_name, last_name,
};
use crate::domain::input::{IdInput, IdsInput, SalutationInput, id_of_text, ids_of};
use crate::domain::permissions::Capability;
use crate::domain::roles::BU_DOI;
use crate::domain::user::User;
use crate::integrations::brevo::{BrevoClient, UpdateContact};
use crate::integrations::planning::{PlanningClient, PlanningError};
use crate::services::contact_mirror::{self as mirror, ContactFields, ContactSnapshot};
use crate::services::contacts::{
    CompanyInput, CompanyView, ContactView, DOI_KEEPS_LISTS, checked_lists, company_of, invalid,
    views,
};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;

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
                        firstname: clip(&contact.firstname),
                        lastname: clip(&contact.lastname),
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
    let from_csv = db::planning_candidates::of_customer(db, number).await?;
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

/// Names from outside are cut to the 100 characters a contact may have.
fn clip(text: &str) -> String {
    text.trim().chars().take(100).collect()
}

/// The fields of one contact in the payload.
struct PayloadContact {
    email: Email,
    salutation: Salutation,
    firstname: String,
    lastname: String,
}

fn fields_of(item: &GroupContactInput) -> ServiceResult<PayloadContact> {
    let email = item.email.as_deref().filter(|e| !e.trim().is_empty());
    let label = email
        .map(|e| format!("Kontakt {}: ", e.trim()))
        .unwrap_or_else(|| "Kontakt ohne E-Mail: ".into());
    let with_label = |message: String| invalid(format!("{label}{message}"));
    let email = item
        .email
        .as_deref()
        .ok_or_else(|| with_label(Email::MESSAGE.into()))
        .and_then(|e| Email::parse(e).map_err(with_label))?;
    Ok(PayloadContact {
        email,
        salutation: Salutation::from_code(item.salutation.and_then(SalutationInput::get))
            .map_err(with_label)?,
        firstname: first_name(item.firstname.as_deref()).map_err(with_label)?,
        lastname: last_name(item.lastname.as_deref()).map_err(with_label)?,
    })
}

/// One step in Brevo, planned before anything is written.
enum Step {
    Delete(Contact),
    /// An existing contact: new fields (or the old ones) and the group's list changes.
    Update(Contact, Option<PayloadContact>),
    Create(PayloadContact),
}

/// What the audit log keeps of one save: the company's name, each contact removed, changed or
/// added (before → after), and the lists put on or taken off the group.
fn recorded_changes(old_company: Option<&str>, edit: &GroupEdit, steps: &[Step]) -> Changes {
    let person = |email: &str, salutation: i16, firstname: &str, lastname: &str| {
        serde_json::json!({
            "email": email, "salutation": salutation, "firstname": firstname, "lastname": lastname
        })
    };
    let of_contact = |c: &Contact| person(&c.email, c.salutation, &c.firstname, &c.lastname);
    let mut changes = Changes::none();
    if old_company != Some(edit.company_name.as_str()) {
        changes = changes.field("company_name", old_company, &edit.company_name);
    }
    for step in steps {
        match step {
            Step::Delete(c) => {
                changes = changes.field(&format!("contact {}", c.id), of_contact(c), Value::Null);
            }
            Step::Update(c, Some(_)) => {
                if let Some((_, to)) = edit.change.iter().find(|(id, _)| *id == c.id) {
                    let after = person(&to.email, to.salutation, &to.firstname, &to.lastname);
                    changes = changes.field(&format!("contact {}", c.id), of_contact(c), after);
                }
            }
            Step::Update(_, None) | Step::Create(_) => {}
        }
    }
    for new in &edit.create {
        let after = person(&new.email, new.salutation, &new.firstname, &new.lastname);
        changes = changes.field(&format!("new contact {}", new.email), Value::Null, after);
    }
    if !edit.add_lists.is_empty() {
        changes = changes.field("listsAdded", Value::Null, &edit.add_lists);
    }
    if !edit.remove_lists.is_empty() {
        changes = changes.field("listsRemoved", Value::Null, &edit.remove_lists);
    }
    changes
}

/// `PUT /api/contacts/customer-number/{n}`: the editor's save (see the module comment), in
/// three phases: everything checked first ([`planned_steps`], [`planned_lists`]), then Brevo,
/// each step undoable ([`mirror_steps`]), then our database in one transaction
/// ([`write_group`]).
#[tracing::instrument(skip_all, fields(customer_number = number_text))]
pub async fn save(
    db: &Db,
    marketing: &Marketing,
    planning: Option<&PlanningClient>,
    user: &User,
    number_text: &str,
    body: &CustomerGroupInput,
) -> ServiceResult<CustomerGroup> {
    let number = number_of(number_text)?;
    if let Some(given) = body.customer_number
        && given.get() != Some(number)
    {
        return Err(invalid(
            "Die Kundennummer im Formular passt nicht zur Kundennummer der Seite.",
        ));
    }
    let company = company_of(body.company_name.as_deref(), body.company.as_ref());
    let company = company_name(company).map_err(invalid)?;
    let (steps, old_company) = planned_steps(db, user, number, body).await?;
    let lists = planned_lists(db, user, number, body, &steps).await?;
    let mut edit = GroupEdit {
        customer_number: number,
        company_name: company.clone(),
        add_lists: lists.add.clone(),
        remove_lists: lists.remove.clone(),
        ..GroupEdit::default()
    };
    let done = mirror_steps(db, marketing, &steps, &lists, &mut edit).await?;
    write_group(
        db,
        marketing,
        user,
        &edit,
        old_company.as_deref(),
        &steps,
        done,
    )
    .await?;
    load(db, planning, number_text).await
}

/// The contact steps of a save, checked: who may change what, no email twice in the group,
/// none another customer uses. With the company's name before the save.
async fn planned_steps(
    db: &Db,
    user: &User,
    number: i64,
    body: &CustomerGroupInput,
) -> ServiceResult<(Vec<Step>, Option<String>)> {
    let may_edit_details = Capability::ContactDetails.allows(user);
    let current = db::contacts::list_by_customer_number(db, number).await?;
    let old_company = current.first().map(|c| c.company_name.clone());
    let mut by_id: HashMap<i64, Contact> = current.into_iter().map(|c| (c.id, c)).collect();
    let items = body.contacts.as_deref().unwrap_or_default();
    let imported = body.alpha_plan_contacts.as_deref().unwrap_or_default();
    if items.len() + imported.len() > MAX_CONTACTS_PER_SAVE {
        return Err(invalid(format!(
            "Es können höchstens {MAX_CONTACTS_PER_SAVE} Kontakte auf einmal gespeichert werden."
        )));
    }

    let mut steps = Vec::new();
    let mut named = HashSet::new();
    for item in items {
        match item.id {
            Some(id) => {
                if !named.insert(id) {
                    return Err(invalid(format!("Der Kontakt {id} ist doppelt angegeben.")));
                }
                let contact = by_id.remove(&id).ok_or_else(|| {
                    invalid(format!(
                        "Der Kontakt {id} gehört nicht zur Kundennummer {number}."
                    ))
                })?;
                if item.remove == Some(true) {
                    if !may_edit_details {
                        return Err(ServiceError::Forbidden);
                    }
                    steps.push(Step::Delete(contact));
                } else {
                    let fields = fields_of(item)?;
                    let names_changed = fields.salutation.code() != contact.salutation
                        || fields.firstname != contact.firstname
                        || fields.lastname != contact.lastname;
                    if names_changed && !may_edit_details {
                        return Err(ServiceError::Forbidden);
                    }
                    let changed = names_changed || fields.email.as_str() != contact.email;
                    steps.push(Step::Update(contact, changed.then_some(fields)));
                }
            }
            None => steps.push(Step::Create(fields_of(item)?)),
        }
    }
    for item in imported {
        steps.push(Step::Create(fields_of(item)?));
    }
    // The contacts not named stay, and get the group's list changes too.
    let mut untouched: Vec<Contact> = by_id.into_values().collect();
    untouched.sort_by_key(|c| c.id);
    steps.extend(untouched.into_iter().map(|c| Step::Update(c, None)));

    // No email twice in the group after the save; none that another customer uses.
    let mut emails = HashSet::new();
    for step in &steps {
        let email = match step {
            Step::Delete(_) => continue,
            Step::Update(_, Some(f)) | Step::Create(f) => f.email.as_str().to_string(),
            Step::Update(c, None) => c.email.clone(),
        };
        if !emails.insert(email) {
            return Err(ServiceError::Conflict {
                code: "email_exists",
                message: DUPLICATE_EMAIL.into(),
            });
        }
    }
    // One query for all new and changed emails (up to 500), in the payload's order.
    let asked: Vec<String> = steps
        .iter()
        .filter_map(|step| match step {
            Step::Update(_, Some(f)) | Step::Create(f) => Some(f.email.as_str().to_string()),
            _ => None,
        })
        .collect();
    let owners: HashMap<String, i64> = db::contacts::customer_numbers_of_emails(db, &asked)
        .await?
        .into_iter()
        .collect();
    if let Some((email, other)) = asked
        .iter()
        .find_map(|e| owners.get(e).filter(|n| **n != number).map(|n| (e, *n)))
    {
        return Err(ServiceError::Conflict {
            code: "email_exists",
            message: email_taken_message(email, other),
        });
    }

    Ok((steps, old_company))
}

/// The list changes of a save, checked against the user's rights and the criterion rule.
struct ListPlan {
    add: Vec<i64>,
    remove: Vec<i64>,
    /// Brevo's ids of the lists every contact is put on, and taken off.
    brevo_add: Vec<i64>,
    brevo_remove: Vec<i64>,
}

async fn planned_lists(
    db: &Db,
    user: &User,
    number: i64,
    body: &CustomerGroupInput,
    steps: &[Step],
) -> ServiceResult<ListPlan> {
    let may_edit_details = Capability::ContactDetails.allows(user);
    // Spec §5: holding BU-DOI (also beside another role) exempts from the criterion rule.
    let needs_criterion = !user.has_role(BU_DOI);
    // Lists: those the group has may stay (also for new contacts); adding others or taking
    // any off needs the provider's role, and BU-DOI does neither (spec §6).
    let add = ids_of(body.lists_ids.as_ref(), "listsIds").map_err(invalid)?;
    let remove: Vec<i64> = ids_of(body.unchecked_lists_ids.as_ref(), "uncheckedListsIds")
        .map_err(invalid)?
        .into_iter()
        .filter(|l| !add.contains(l))
        .collect();
    let has: HashSet<i64> = db::contacts::list_ids_of_customer(db, number)
        .await?
        .into_iter()
        .collect();
    let new_lists: Vec<i64> = add.iter().copied().filter(|l| !has.contains(l)).collect();
    if !may_edit_details && (!new_lists.is_empty() || remove.iter().any(|l| has.contains(l))) {
        return Err(ServiceError::Refused(DOI_KEEPS_LISTS.into()));
    }
    checked_lists(db, user, &new_lists).await?;
    let brevo_remove = checked_lists(db, user, &remove).await?;
    let owners = db::lists::owners(db, &add).await?;
    if owners.len() != add.len() {
        return Err(invalid("Ein gewähltes Kriterium existiert nicht."));
    }
    let brevo_add: Vec<i64> = owners.iter().filter_map(|o| o.brevo_list_id).collect();
    let keeps_contacts = steps.iter().any(|s| !matches!(s, Step::Delete(_)));
    if add.is_empty() && keeps_contacts && needs_criterion {
        return Err(invalid(CRITERION_REQUIRED));
    }

    Ok(ListPlan {
        add,
        remove,
        brevo_add,
        brevo_remove,
    })
}

/// Brevo's side of a save, step by step; on a refusal what was done is undone (or left to
/// the background retry when Brevo is gone) and the save is refused. What `edit` must write
/// is filled in on the way (Brevo's ids of new contacts).
async fn mirror_steps(
    db: &Db,
    marketing: &Marketing,
    steps: &[Step],
    lists: &ListPlan,
    edit: &mut GroupEdit,
) -> ServiceResult<Vec<Option<ContactSnapshot>>> {
    let mut done: Vec<Option<ContactSnapshot>> = Vec::new();
    let (number, company) = (edit.customer_number, edit.company_name.clone());
    for step in steps {
        match brevo_step(
            db,
            marketing,
            step,
            number,
            &company,
            &lists.brevo_add,
            &lists.brevo_remove,
            edit,
        )
        .await
        {
            Ok(snapshot) => done.push(snapshot),
            Err(err) => {
                let undone = done.len();
                let all_undone = match &err {
                    // Brevo gone or hanging: the undos wait for the background retry.
                    ServiceError::Marketing(cause) if cause.is_unavailable() => {
                        for snapshot in done {
                            mirror::defer_undo(db, snapshot, cause).await;
                        }
                        undone == 0
                    }
                    _ => undo_all(db, marketing, done).await,
                };
                return Err(refused(err, undone, all_undone));
            }
        }
    }
    Ok(done)
}

/// Our database's side of a save, in one transaction with its audit entry; when it fails,
/// Brevo's steps (`done`) are undone.
async fn write_group(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    edit: &GroupEdit,
    old_company: Option<&str>,
    steps: &[Step],
    done: Vec<Option<ContactSnapshot>>,
) -> ServiceResult<()> {
    let audit = Entry::new(
        &Actor::of(user),
        Action::Update,
        Entity::CustomerGroup,
        Some(edit.customer_number),
    )
    .named(edit.company_name.as_str())
    .with_changes(recorded_changes(old_company, edit, steps));
    let written = db::customer_groups::apply(db, edit, db::now(), &audit).await;
    match written {
        Ok(true) => {}
        Ok(false) => {
            undo_all(db, marketing, done).await;
            return Err(ServiceError::Conflict {
                code: "changed_meanwhile",
                message: "Die Kontakte wurden zwischenzeitlich geändert. Bitte laden Sie die \
                          Seite neu."
                    .into(),
            });
        }
        Err(err) => {
            undo_all(db, marketing, done).await;
            if db::is_unique_violation(&err) {
                return Err(ServiceError::Conflict {
                    code: "email_exists",
                    message: DUPLICATE_EMAIL.into(),
                });
            }
            return Err(err.into());
        }
    }
    Ok(())
}

/// Puts Brevo back step by step, newest first; false when an undo had to be stored for the
/// background retry.
async fn undo_all(db: &Db, marketing: &Marketing, done: Vec<Option<ContactSnapshot>>) -> bool {
    let mut all = true;
    for snapshot in done.into_iter().rev() {
        all &= mirror::undo(db, marketing, snapshot).await;
    }
    all
}

/// Brevo's refusal, with what happened to the steps before it.
fn refused(err: ServiceError, undone: usize, all_undone: bool) -> ServiceError {
    match err {
        ServiceError::Marketing(err) => {
            tracing::error!(error = %err, undone, "customer group refused by Brevo");
            let mut message = String::from(
                "Brevo hat eine Änderung abgelehnt oder war nicht erreichbar; es wurde nichts \
                 gespeichert.",
            );
            if undone > 0 && all_undone {
                message.push_str(&format!(
                    " {undone} bereits in Brevo ausgeführte Änderung(en) wurden zurückgenommen."
                ));
            } else if undone > 0 {
                message.push_str(&format!(
                    " {undone} bereits in Brevo ausgeführte Änderung(en) werden automatisch \
                     zurückgenommen, sobald Brevo wieder erreichbar ist."
                ));
            }
            ServiceError::Upstream(message)
        }
        other => other,
    }
}

fn attributes(
    number: i64,
    company: &str,
    salutation: Salutation,
    firstname: &str,
    lastname: &str,
    double_opt_in: bool,
) -> Map<String, Value> {
    ContactFields {
        customer_number: number,
        company_name: company,
        salutation,
        firstname,
        lastname,
        double_opt_in,
    }
    .attributes()
}

/// Does one step in Brevo (nothing in local mode) and records its database part in `edit`.
#[allow(clippy::too_many_arguments)]
async fn brevo_step(
    db: &Db,
    marketing: &Marketing,
    step: &Step,
    number: i64,
    company: &str,
    brevo_add: &[i64],
    brevo_remove: &[i64],
    edit: &mut GroupEdit,
) -> ServiceResult<Option<ContactSnapshot>> {
    let client: Option<&BrevoClient> = match marketing {
        Marketing::Brevo(client) => Some(client),
        Marketing::Local => None,
    };
    match step {
        Step::Delete(contact) => {
            let target = || mirror::identifier(contact.brevo_contact_id, &contact.email);
            let snapshot = mirror::before_change(
                db,
                marketing,
                target(),
                &contact.email,
                target(),
                Vec::new(),
            )
            .await?;
            if let Some(client) = client {
                mirror::delete_remote(client, contact.brevo_contact_id, &contact.email).await?;
            }
            edit.remove.push(contact.id);
            Ok(snapshot.map(ContactSnapshot::deleted))
        }
        Step::Update(contact, fields) => {
            let email = fields
                .as_ref()
                .map_or(contact.email.clone(), |f| f.email.as_str().to_string());
            let mut touched = brevo_add.to_vec();
            touched.extend(brevo_remove);
            let snapshot = mirror::before_change(
                db,
                marketing,
                mirror::identifier(contact.brevo_contact_id, &contact.email),
                &contact.email,
                mirror::identifier(contact.brevo_contact_id, &email),
                touched,
            )
            .await?;
            let salutation = match fields {
                Some(f) => f.salutation,
                None => Salutation::from_code(Some(contact.salutation)).unwrap_or(Salutation::NONE),
            };
            let (firstname, lastname) = match fields {
                Some(f) => (f.firstname.as_str(), f.lastname.as_str()),
                None => (contact.firstname.as_str(), contact.lastname.as_str()),
            };
            let mut brevo_id = contact.brevo_contact_id;
            if let Some(client) = client {
                // The confirmation belongs to the address: a new one starts unconfirmed.
                let attrs = attributes(
                    number,
                    company,
                    salutation,
                    firstname,
                    lastname,
                    contact.double_opt_in && email == contact.email,
                );
                let update = UpdateContact {
                    attributes: mirror::with_email_change(attrs, &contact.email, &email),
                    list_ids: brevo_add.to_vec(),
                    unlink_list_ids: brevo_remove.to_vec(),
                    email_blacklisted: None,
                    ext_id: None,
                };
                let target = mirror::identifier(contact.brevo_contact_id, &contact.email);
                let blacklisted = contact.email_blacklisted;
                if let Some(created) =
                    mirror::update_or_create(client, target, &email, &update, blacklisted).await?
                {
                    brevo_id = Some(created);
                }
            }
            let changed = fields.is_some() || brevo_id != contact.brevo_contact_id;
            if changed {
                edit.change.push((
                    contact.id,
                    ContactChange {
                        customer_number: number,
                        email,
                        salutation: salutation.code(),
                        firstname: firstname.to_string(),
                        lastname: lastname.to_string(),
                        brevo_contact_id: brevo_id,
                        extern_id: brevo_id
                            .map(|id| id.to_string())
                            .or(contact.extern_id.clone()),
                    },
                ));
            }
            Ok(snapshot)
        }
        Step::Create(fields) => {
            let email = fields.email.as_str().to_string();
            let mut snapshot = mirror::before_change(
                db,
                marketing,
                mirror::identifier(None, &email),
                &email,
                mirror::identifier(None, &email),
                brevo_add.to_vec(),
            )
            .await?;
            let mut brevo_id = None;
            if let Some(client) = client {
                let attrs = attributes(
                    number,
                    company,
                    fields.salutation,
                    &fields.firstname,
                    &fields.lastname,
                    false,
                );
                let id =
                    mirror::create_remote(client, &email, attrs, brevo_add.to_vec(), false).await?;
                if let Some(snapshot) = snapshot.as_mut() {
                    snapshot.created_as(id);
                }
                brevo_id = Some(id);
            }
            edit.create.push(NewContact {
                customer_number: number,
                brevo_contact_id: brevo_id,
                email,
                salutation: fields.salutation.code(),
                firstname: fields.firstname.clone(),
                lastname: fields.lastname.clone(),
                extern_id: brevo_id.map(|id| id.to_string()),
                double_opt_in: false,
                email_blacklisted: false,
            });
            Ok(snapshot)
        }
    }
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
    let mut providers: Vec<EditorProvider> = db::providers::list_all(db)
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
