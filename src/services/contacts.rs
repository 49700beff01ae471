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
use crate::services::answers::{Answer, Answers, Stamp};
use crate::services::contact_mirror::{self as mirror, ContactFields};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;

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

/// A page of contacts and how many match (spec §7).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct ContactPage {
    pub content: Vec<ContactView>,
    /// Number of matching contacts in all pages.
    pub count: i64,
}

/// The query of `GET /api/contacts/{query}` (spec §3 "Paging", §7).
#[derive(Clone, Debug, Default, Deserialize, Serialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ContactQuery {
    /// Page size; default 20 (spec §9), 1–1000 (others answer 400).
    #[param(minimum = 1, maximum = 1000)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    pub limit: Option<i64>,
    /// Entries to skip; from 0 (negative answers 400).
    #[param(minimum = 0)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    pub offset: Option<i64>,
    /// `ASC` or `DESC` (default), any letter case; anything else answers 400.
    #[param(value_type = Option<crate::domain::paging::SortOrder>, inline)]
    pub sort: Option<String>,
    /// Column: `id` (default, also when empty), `customerNumber`, `email`, `salutation`,
    /// `firstname`, `lastname`, `companyName` (also `company`), `doubleOptIn`,
    /// `emailBlacklisted`, `createdAt`, `updatedAt`; anything else answers 400.
    #[param(value_type = Option<crate::db::contacts::ContactSort>, inline)]
    pub sort_by: Option<String>,
    /// `true` (or `1`): only blocked contacts; `false` (or `0`): only the others; empty or
    /// absent: no filter; anything else answers 400.
    #[param(value_type = Option<crate::domain::paging::Flag>, inline)]
    pub email_blacklisted: Option<String>,
    /// `true` (or `1`): only confirmed contacts; `false` (or `0`): only unconfirmed ones;
    /// empty or absent: no filter; anything else answers 400.
    #[param(value_type = Option<crate::domain::paging::Flag>, inline)]
    pub double_opt_in: Option<String>,
    /// Part of the email, first or last name, company or customer number, any letter case;
    /// trimmed (at most 200 characters used), empty means no filter.
    pub search: Option<String>,
    /// `new`: created in the last 7 days; `active`: older; `all`, empty or absent: no
    /// filter; anything else answers 400.
    #[param(value_type = Option<ContactStatus>, inline)]
    pub status: Option<String>,
    /// Only the contacts on the list (criterion) with this id (the provider screen's "show
    /// contacts"); empty or absent: every list; not a positive number answers 400.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 1000000000000000000i64)]
    pub liste: Option<String>,
    /// JSON array of provider ids (or ids separated by commas); empty or absent: every
    /// provider.
    #[param(value_type = Option<crate::domain::input::IdsFilter>)]
    pub provider_ids: Option<String>,
}

/// The `status` values [`ContactQuery::params`] reads.
pub struct ContactStatus;

impl utoipa::PartialSchema for ContactStatus {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::domain::paging::word_choice(
            &["new", "active", "all"],
            "`new` (created in the last 7 days), `active` (older), `all`; empty: all.",
        )
    }
}

impl utoipa::ToSchema for ContactStatus {}

/// Body of `POST /api/contacts` and `PUT /api/contacts/{id}`; unknown keys are allowed.
/// Validation (spec §5), first failure answered in the form's order: `customerNumber` ("Die
/// Kundennummer muss eine Zahl sein."), the company 1–100 characters ("Bitte geben Sie eine
/// Firma an.", "Die Firma darf höchstens 100 Zeichen lang sein."), `email` ("Bitte geben Sie
/// eine gültige E-Mail-Adresse an."), `salutation` ("Bitte wählen Sie eine Anrede (Anrede
/// wählen)."), `firstname` / `lastname` 1–100 characters ("Bitte geben Sie einen Vornamen
/// an.", "Bitte geben Sie einen Nachnamen an."), then the list ids ("listsIds muss eine Liste
/// von Ids sein.", "Ein gewähltes Kriterium existiert nicht.").
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ContactInput)]
pub struct ContactBody {
    /// A new customer number creates its company.
    #[schema(required = true)]
    pub customer_number: Option<IdInput>,
    /// The company (Firma). Instead of it, `company` may be sent (a string or an object with
    /// `companyName`).
    #[schema(min_length = 1, max_length = 100)]
    pub company_name: Option<String>,
    /// Alternative to `companyName` (used when `companyName` is absent).
    pub company: Option<CompanyInput>,
    /// Trimmed and lower-cased before it is stored; must not belong to another contact (409
    /// `email_exists`).
    #[schema(required = true, min_length = 3, max_length = 254)]
    pub email: Option<String>,
    #[schema(required = true)]
    pub salutation: Option<SalutationInput>,
    #[schema(required = true, min_length = 1, max_length = 100)]
    pub firstname: Option<String>,
    #[schema(required = true, min_length = 1, max_length = 100)]
    pub lastname: Option<String>,
    /// Lists (criteria) to put the contact on (at most 1000); each must exist and belong to a
    /// provider the user may manage (else 403). Absent or `null`: none.
    pub lists_ids: Option<IdsInput>,
    /// Update only: lists to take the contact off (ids also in `listsIds` are ignored); same
    /// rules as `listsIds`.
    pub unchecked_lists_ids: Option<IdsInput>,
}

/// The company as [`ContactBody`] may name it instead of `companyName`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum CompanyInput {
    Name(String),
    #[serde(rename_all = "camelCase")]
    Object {
        #[schema(min_length = 1, max_length = 100)]
        company_name: Option<String>,
    },
}

impl CompanyInput {
    fn name(&self) -> Option<&str> {
        match self {
            CompanyInput::Name(name) => Some(name),
            CompanyInput::Object { company_name } => company_name.as_deref(),
        }
    }
}

/// The company a body names: `companyName`, else `company` (the spec names it both ways).
pub(crate) fn company_of<'a>(
    company_name: Option<&'a str>,
    company: Option<&'a CompanyInput>,
) -> Option<&'a str> {
    company_name.or_else(|| company.and_then(CompanyInput::name))
}

/// Parsed [`ContactQuery`].
#[derive(Clone, Debug)]
pub struct ContactParams {
    pub limit: i64,
    pub offset: i64,
    pub ascending: bool,
    pub sort: ContactSort,
    pub filter: ContactFilter,
}

pub(crate) fn invalid(message: impl Into<String>) -> ServiceError {
    ServiceError::Invalid(message.into())
}

/// `true`/`false` (also 1/0); empty means "no filter".
fn flag(value: Option<&str>, name: &str) -> ServiceResult<Option<bool>> {
    crate::domain::paging::parse_flag(value, name).map_err(invalid)
}

impl ContactQuery {
    pub fn params(&self, now: DateTime<Utc>) -> ServiceResult<ContactParams> {
        let sort = ContactSort::parse(self.sort_by.as_deref()).map_err(invalid)?;
        let paging = Paging::parse(self.limit, self.offset, self.sort.as_deref(), MAX_PAGE_SIZE)
            .map_err(invalid)?;
        let new_since = now - Duration::days(NEW_FOR_DAYS);
        let (created_from, created_before) = match self.status.as_deref() {
            None | Some("") | Some("all") => (None, None),
            Some("new") => (Some(new_since), None),
            Some("active") => (None, Some(new_since)),
            Some(_) => return Err(invalid("status muss new oder active sein.")),
        };
        // Digits exactly (the described integer); empty is "not given", as for the filters.
        let list_id = match self.liste.as_deref() {
            None | Some("") => None,
            Some(text) => Some(
                id_of_text(text)
                    .ok_or_else(|| invalid("liste muss die Id eines Kriteriums sein."))?,
            ),
        };
        let provider_ids = match self.provider_ids.as_deref() {
            None | Some("") => None,
            Some(text) => Some(provider_ids(text)?),
        };
        let search = self
            .search
            .as_deref()
            .map(crate::domain::text::search_text)
            .filter(|s| !s.is_empty());
        Ok(ContactParams {
            limit: paging.limit,
            offset: paging.offset,
            ascending: paging.ascending,
            sort,
            filter: ContactFilter {
                search,
                email_blacklisted: flag(self.email_blacklisted.as_deref(), "emailBlacklisted")?,
                double_opt_in: flag(self.double_opt_in.as_deref(), "doubleOptIn")?,
                created_from,
                created_before,
                list_id,
                provider_ids,
            },
        })
    }
}

/// Provider ids as the path or query sends them: a JSON array (or ids separated by commas).
pub fn provider_ids(text: &str) -> ServiceResult<Vec<i64>> {
    // A JSON array (`[1,2]`), comma-separated ids (`1,2`) or a single id (`5`).
    ids_in_text(text)
        .ok_or_else(|| invalid("Die Anbieter müssen als Liste von Ids angegeben werden."))
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

/// One page of the contacts table (`GET /api/contacts/{query}` and, with `providers`,
/// `GET /api/contacts/providers/{ids}/{query}`).
pub async fn page(db: &Db, params: &ContactParams) -> ServiceResult<ContactPage> {
    page_counted(db, params, async {
        Ok(db::contacts::count(db, &params.filter).await?)
    })
    .await
}

/// A page of contacts with the total `count` gives.
async fn page_counted(
    db: &Db,
    params: &ContactParams,
    count: impl std::future::Future<Output = ServiceResult<i64>>,
) -> ServiceResult<ContactPage> {
    let rows = db::contacts::page(
        db,
        &params.filter,
        params.sort,
        params.ascending,
        params.limit,
        params.offset,
    )
    .await?;
    Ok(ContactPage {
        content: views(db, rows).await?,
        count: count.await?,
    })
}

/// The contacts table's page (`GET /api/contacts`) as kept JSON: the same for everybody in the
/// admin area, kept under the data version with its total (which "load more" asks again).
/// The `new`/`active` filters move with the clock, so their answers are made afresh.
pub async fn page_answer(
    db: &Db,
    answers: &Answers,
    params: &ContactParams,
) -> ServiceResult<Arc<Answer>> {
    page_answer_at(db, answers, answers.stamp(db).await?, params).await
}

/// [`page_answer`] under a stamp the request read already.
pub async fn page_answer_at(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    params: &ContactParams,
) -> ServiceResult<Arc<Answer>> {
    let filter = &params.filter;
    if filter.created_from.is_some() || filter.created_before.is_some() {
        let page = page(db, params).await?;
        let body = serde_json::to_vec(&page).map_err(ServiceError::internal)?;
        return Ok(Arc::new(Answer::new(body)));
    }
    answers
        .body(
            format!("contacts|{stamp}|{params:?}"),
            page_counted(db, params, async {
                let count = answers
                    .value(format!("contact-count|{stamp}|{filter:?}"), async {
                        Ok(db::contacts::count(db, filter).await?)
                    })
                    .await?;
                Ok(*count)
            }),
        )
        .await
}

/// The contact with this email, or `None` (spec §7: "a contact with id, or empty").
pub async fn by_email(db: &Db, email: &str) -> ServiceResult<Option<ContactView>> {
    let Ok(email) = Email::parse(email) else {
        return Ok(None);
    };
    match db::contacts::find_contact_by_email(db, email.as_str()).await? {
        Some(contact) => Ok(Some(view(db, contact).await?)),
        None => Ok(None),
    }
}

/// A list a contact is on, with its provider (for the criteria side panel).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[schema(as = AssignedList)]
#[serde(rename_all = "camelCase")]
pub struct AssignedListView {
    pub id: i64,
    pub name: String,
    pub active: bool,
    /// The marketing service's list id; `null` in local mode.
    pub brevo_id: Option<i64>,
    #[serde(rename = "ProviderId")]
    pub provider_id: i64,
    pub provider_name: String,
    /// The contacts (of those asked for) on this list.
    pub contact_ids: Vec<i64>,
}

pub(crate) fn group_lists(assigned: Vec<db::contacts::AssignedList>) -> Vec<AssignedListView> {
    let mut out: Vec<AssignedListView> = Vec::new();
    for row in assigned {
        match out.iter_mut().find(|l| l.id == row.list_id) {
            Some(list) => list.contact_ids.push(row.contact_id),
            None => out.push(AssignedListView {
                id: row.list_id,
                name: row.list_name,
                active: row.list_active,
                brevo_id: row.brevo_list_id,
                provider_id: row.provider_id,
                provider_name: row.provider_name,
                contact_ids: vec![row.contact_id],
            }),
        }
    }
    out
}

/// `GET /api/contacts/{id}/lists`: the contact's lists, grouped by provider name.
pub async fn lists_of(db: &Db, id: i64) -> ServiceResult<Vec<AssignedListView>> {
    db::contacts::get_contact(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    Ok(group_lists(db::contacts::assigned_lists(db, &[id]).await?))
}

pub const NO_CONTACT_IDS: &str = "No contacts ids array set.";

/// `GET /api/contacts/lists/{contactIds}/{query}`: the lists of several contacts.
pub async fn lists_of_many(
    db: &Db,
    ids: Option<&str>,
) -> ServiceResult<(Vec<AssignedListView>, i64)> {
    let ids = ids
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .and_then(|text| provider_ids(text).ok())
        .filter(|ids| !ids.is_empty())
        .ok_or_else(|| invalid(NO_CONTACT_IDS))?;
    let lists = group_lists(db::contacts::assigned_lists(db, &ids).await?);
    let count = lists.len() as i64;
    Ok((lists, count))
}

/// The validated fields of a create or edit (spec §5 "Contact create"); the first error in
/// the form's order is reported.
struct ContactInput {
    customer_number: i64,
    company_name: String,
    email: Email,
    salutation: Salutation,
    firstname: String,
    lastname: String,
}

fn contact_input(body: &ContactBody) -> ServiceResult<ContactInput> {
    let customer_number =
        CustomerNumber::new(body.customer_number.and_then(IdInput::get)).map_err(invalid)?;
    let company_name = company_name(company_of(
        body.company_name.as_deref(),
        body.company.as_ref(),
    ))
    .map_err(invalid)?;
    let email = body
        .email
        .as_deref()
        .ok_or_else(|| invalid(Email::MESSAGE))
        .and_then(|e| Email::parse(e).map_err(invalid))?;
    let salutation =
        Salutation::from_code(body.salutation.and_then(SalutationInput::get)).map_err(invalid)?;
    let firstname = first_name(body.firstname.as_deref()).map_err(invalid)?;
    let lastname = last_name(body.lastname.as_deref()).map_err(invalid)?;
    Ok(ContactInput {
        customer_number: customer_number.get(),
        company_name,
        email,
        salutation,
        firstname,
        lastname,
    })
}

/// Lists the user assigns or removes: they must exist and belong to providers the user may
/// manage. Returns their Brevo ids (those that have one).
pub(crate) async fn checked_lists(db: &Db, user: &User, ids: &[i64]) -> ServiceResult<Vec<i64>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let owners = db::lists::owners(db, ids).await?;
    if owners.len() != ids.len() {
        return Err(invalid("Ein gewähltes Kriterium existiert nicht."));
    }
    let provider_ids: Vec<i64> = owners.iter().map(|o| o.provider_id).collect();
    let providers = db::providers::get_many(db, &provider_ids).await?;
    for owner in &owners {
        let allowed = providers
            .iter()
            .find(|p| p.id == owner.provider_id)
            .is_some_and(|p| may_manage_provider(user, &p.allowed_roles));
        if !allowed {
            return Err(ServiceError::Forbidden);
        }
    }
    Ok(owners.iter().filter_map(|o| o.brevo_list_id).collect())
}

/// Refuses an email that another contact uses (409, naming its customer number).
async fn check_email_free(db: &Db, email: &Email, except: Option<i64>) -> ServiceResult<()> {
    if let Some(other) = db::contacts::find_contact_by_email(db, email.as_str()).await?
        && Some(other.id) != except
    {
        return Err(ServiceError::Conflict {
            code: "email_exists",
            message: email_taken_message(email.as_str(), other.customer_number),
        });
    }
    Ok(())
}

/// A unique violation that slipped past the checks (two saves at once).
fn taken_or(err: sqlx::Error, email: &Email) -> ServiceError {
    if db::is_unique_violation(&err) {
        ServiceError::Conflict {
            code: "email_exists",
            message: format!("Die E-Mail {} ist bereits registriert.", email.as_str()),
        }
    } else {
        err.into()
    }
}

fn fields(input: &ContactInput, double_opt_in: bool) -> ContactFields<'_> {
    ContactFields {
        customer_number: input.customer_number,
        company_name: &input.company_name,
        salutation: input.salutation,
        firstname: &input.firstname,
        lastname: &input.lastname,
        double_opt_in,
    }
}

/// `POST /api/contacts`: creates the contact (and its company when the customer number is
/// new; an existing company keeps its name) on the given lists, in Brevo first. BU-DOI may
/// only name lists the customer's group has already.
#[tracing::instrument(skip_all)]
pub async fn create(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    body: &ContactBody,
) -> ServiceResult<ContactView> {
    let mut input = contact_input(body)?;
    let list_ids = ids_of(body.lists_ids.as_ref(), "listsIds").map_err(invalid)?;
    let brevo_lists = checked_lists(db, user, &list_ids).await?;
    // BU-DOI adds no lists: a new contact gets only lists its group has (as in the editor).
    if !Capability::ContactDetails.allows(user) && !list_ids.is_empty() {
        let group = db::contacts::list_ids_of_customer(db, input.customer_number).await?;
        if list_ids.iter().any(|l| !group.contains(l)) {
            return Err(ServiceError::Refused(DOI_KEEPS_LISTS.into()));
        }
    }
    check_email_free(db, &input.email, None).await?;
    let email = input.email.as_str().to_string();
    // A new customer number gets its company; an existing one keeps its name.
    if let Some(company) = db::contacts::get_company(db, input.customer_number).await? {
        input.company_name = company.company_name;
    }

    let mut snapshot = mirror::before_change(
        db,
        marketing,
        mirror::identifier(None, &email),
        &email,
        mirror::identifier(None, &email),
        brevo_lists.clone(),
    )
    .await?;
    let brevo_id = match marketing {
        Marketing::Local => None,
        Marketing::Brevo(client) => Some(
            mirror::create_remote(
                client,
                &email,
                fields(&input, false).attributes(),
                brevo_lists,
                false,
            )
            .await?,
        ),
    };
    if let (Some(snapshot), Some(id)) = (snapshot.as_mut(), brevo_id) {
        snapshot.created_as(id);
    }
    let new = db::contacts::NewContact {
        customer_number: input.customer_number,
        brevo_contact_id: brevo_id,
        email: email.clone(),
        salutation: input.salutation.code(),
        firstname: input.firstname.clone(),
        lastname: input.lastname.clone(),
        extern_id: brevo_id.map(|id| id.to_string()),
        double_opt_in: false,
        email_blacklisted: false,
    };
    let company = CompanyWrite::CreateMissing(input.customer_number, &input.company_name);
    let audit = Entry::new(&Actor::of(user), Action::Create, Entity::Contact, None)
        .named(person_name(&new.firstname, &new.lastname))
        .with_changes(Changes::created(&RecordedContact::of_new(
            &new,
            &input.company_name,
            &list_ids,
        )));
    match db::contacts::create_with_lists(db, Some(company), &new, &list_ids, &audit).await {
        Ok(contact) => view(db, contact).await,
        Err(err) => {
            mirror::undo(db, marketing, snapshot).await;
            Err(taken_or(err, &input.email))
        }
    }
}

/// What the audit log keeps of a contact: who it is and where it is assigned (never its
/// consent's client address).
#[derive(Serialize)]
struct RecordedContact<'a> {
    customer_number: i64,
    company_name: &'a str,
    email: &'a str,
    salutation: i16,
    firstname: &'a str,
    lastname: &'a str,
    lists: Vec<i64>,
}

impl<'a> RecordedContact<'a> {
    fn of(contact: &'a Contact, mut lists: Vec<i64>) -> RecordedContact<'a> {
        lists.sort_unstable();
        RecordedContact {
            customer_number: contact.customer_number,
            company_name: &contact.company_name,
            email: &contact.email,
            salutation: contact.salutation,
            firstname: &contact.firstname,
            lastname: &contact.lastname,
            lists,
        }
    }

    fn of_new(
        new: &'a db::contacts::NewContact,
        company_name: &'a str,
        lists: &[i64],
    ) -> RecordedContact<'a> {
        let mut lists = lists.to_vec();
        lists.sort_unstable();
        RecordedContact {
            customer_number: new.customer_number,
            company_name,
            email: &new.email,
            salutation: new.salutation,
            firstname: &new.firstname,
            lastname: &new.lastname,
            lists,
        }
    }
}

/// BU-DOI's limit (spec §6), on every call that changes a contact.
pub const DOI_KEEPS_LISTS: &str = "Mit der Rolle BU-DOI können Sie einem Kontakt keine \
     Kriterien hinzufügen und keine entfernen.";

/// The refusal of a move to another customer number.
pub const MOVE_REFUSED: &str = "Der Kontakt kann nicht zu einer anderen Kundennummer \
     verschoben werden: Dafür müssen Sie Kontakte bearbeiten und alle Kriterien des Kontakts \
     verwalten dürfen.";

/// A move to another customer number takes the contact out of its group, with its lists, into
/// another: Admin and BU-Moderator only, and only when they manage each of its lists.
async fn check_move(db: &Db, user: &User, list_ids: &[i64]) -> ServiceResult<()> {
    if !Capability::ContactDetails.allows(user) {
        return Err(ServiceError::Refused(MOVE_REFUSED.into()));
    }
    match checked_lists(db, user, list_ids).await {
        Err(ServiceError::Forbidden) => Err(ServiceError::Refused(MOVE_REFUSED.into())),
        other => other.map(drop),
    }
}

async fn existing(db: &Db, id: i64) -> ServiceResult<Contact> {
    db::contacts::get_contact(db, id)
        .await?
        .ok_or(ServiceError::NotFound)
}

/// `PUT /api/contacts/{id}`: the same fields plus `uncheckedListsIds`. Lists in `listsIds`
/// are assigned, those in `uncheckedListsIds` taken off; both need the lists' providers
/// (else 403). Salutation and names change only for Admin and BU-Moderator (spec §6); BU-DOI
/// may change the email but, as in the contact editor, neither add lists nor take any off.
/// Another customer number moves the contact into that group: only for Admin and BU-Moderator
/// when they manage every list the contact is on (the lists travel with it and decide what
/// the other customer sees); that group's company keeps its name. A new email ends the
/// consent of the old one, here and in Brevo.
#[tracing::instrument(skip_all, fields(contact = id))]
pub async fn update(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    id: i64,
    body: &ContactBody,
) -> ServiceResult<ContactView> {
    let current = existing(db, id).await?;
    let mut input = contact_input(body)?;
    let may_edit_details = Capability::ContactDetails.allows(user);
    if !may_edit_details {
        let names_changed = input.salutation.code() != current.salutation
            || input.firstname != current.firstname
            || input.lastname != current.lastname;
        if names_changed {
            return Err(ServiceError::Forbidden);
        }
        input.firstname = current.firstname.clone();
        input.lastname = current.lastname.clone();
    }
    let add = ids_of(body.lists_ids.as_ref(), "listsIds").map_err(invalid)?;
    let remove: Vec<i64> = ids_of(body.unchecked_lists_ids.as_ref(), "uncheckedListsIds")
        .map_err(invalid)?
        .into_iter()
        .filter(|l| !add.contains(l))
        .collect();
    let has = db::contacts::list_ids_of_contact(db, id).await?;
    let moving = input.customer_number != current.customer_number;
    if moving {
        check_move(db, user, &has).await?;
    }
    let brevo_add = checked_lists(db, user, &add).await?;
    let brevo_remove = checked_lists(db, user, &remove).await?;
    if !may_edit_details
        && (add.iter().any(|l| !has.contains(l)) || remove.iter().any(|l| has.contains(l)))
    {
        return Err(ServiceError::Refused(DOI_KEEPS_LISTS.into()));
    }
    let company = if moving {
        if let Some(company) = db::contacts::get_company(db, input.customer_number).await? {
            input.company_name = company.company_name;
        }
        CompanyWrite::CreateMissing(input.customer_number, &input.company_name)
    } else {
        CompanyWrite::CreateOrRename(input.customer_number, &input.company_name)
    };
    check_email_free(db, &input.email, Some(id)).await?;

    let email = input.email.as_str().to_string();
    // The confirmation belongs to the address: a new one starts unconfirmed.
    let confirmed = current.double_opt_in && email == current.email;
    let mut touched = brevo_add.clone();
    touched.extend(&brevo_remove);
    let snapshot = mirror::before_change(
        db,
        marketing,
        mirror::identifier(current.brevo_contact_id, &current.email),
        &current.email,
        mirror::identifier(current.brevo_contact_id, &email),
        touched,
    )
    .await?;
    let mut brevo_id = current.brevo_contact_id;
    if let Marketing::Brevo(client) = marketing {
        let update = UpdateContact {
            attributes: mirror::with_email_change(
                fields(&input, confirmed).attributes(),
                &current.email,
                &email,
            ),
            list_ids: brevo_add,
            unlink_list_ids: brevo_remove,
            email_blacklisted: None,
            ext_id: None,
        };
        let target = mirror::identifier(current.brevo_contact_id, &current.email);
        let blacklisted = current.email_blacklisted;
        if let Some(created) =
            mirror::update_or_create(client, target, &email, &update, blacklisted).await?
        {
            brevo_id = Some(created);
        }
    }
    let change = db::contacts::ContactChange {
        customer_number: input.customer_number,
        email: email.clone(),
        salutation: input.salutation.code(),
        firstname: input.firstname.clone(),
        lastname: input.lastname.clone(),
        brevo_contact_id: brevo_id,
        extern_id: brevo_id
            .map(|id| id.to_string())
            .or(current.extern_id.clone()),
    };
    let mut lists_after: Vec<i64> = has
        .iter()
        .filter(|l| !remove.contains(l))
        .copied()
        .collect();
    lists_after.extend(add.iter().filter(|l| !has.contains(l)));
    lists_after.sort_unstable();
    let after = RecordedContact {
        customer_number: change.customer_number,
        company_name: &input.company_name,
        email: &change.email,
        salutation: change.salutation,
        firstname: &change.firstname,
        lastname: &change.lastname,
        lists: lists_after,
    };
    let before = RecordedContact::of(&current, has.clone());
    let audit = Entry::new(&Actor::of(user), Action::Update, Entity::Contact, Some(id))
        .named(person_name(&change.firstname, &change.lastname))
        .with_changes(Changes::between(Some(&before), Some(&after)));
    match db::contacts::update_with_lists(db, id, Some(company), &change, &add, &remove, &audit)
        .await
    {
        Ok(Some(contact)) => view(db, contact).await,
        Ok(None) => {
            mirror::undo(db, marketing, snapshot).await;
            Err(ServiceError::NotFound)
        }
        Err(err) => {
            mirror::undo(db, marketing, snapshot).await;
            Err(taken_or(err, &input.email))
        }
    }
}

/// `DELETE /api/contacts/{id}`.
#[tracing::instrument(skip_all, fields(contact = id))]
pub async fn delete(db: &Db, marketing: &Marketing, user: &User, id: i64) -> ServiceResult<()> {
    let current = existing(db, id).await?;
    let lists = db::contacts::list_ids_of_contact(db, id).await?;
    let audit = Entry::new(&Actor::of(user), Action::Delete, Entity::Contact, Some(id))
        .named(person_name(&current.firstname, &current.lastname))
        .with_changes(Changes::deleted(&RecordedContact::of(&current, lists)));
    let target = || mirror::identifier(current.brevo_contact_id, &current.email);
    let snapshot = mirror::before_change(
        db,
        marketing,
        target(),
        &current.email,
        target(),
        Vec::new(),
    )
    .await?;
    if let Marketing::Brevo(client) = marketing {
        mirror::delete_remote(client, current.brevo_contact_id, &current.email).await?;
    }
    match db::contacts::delete_contact(db, id, &audit).await {
        Ok(_) => Ok(()),
        Err(err) => {
            mirror::undo(
                db,
                marketing,
                snapshot.map(mirror::ContactSnapshot::deleted),
            )
            .await;
            Err(err.into())
        }
    }
}

/// `PATCH /api/contacts/email-blacklist/{id}`: blocks or unblocks the email.
#[tracing::instrument(skip_all, fields(contact = id))]
pub async fn toggle_blacklist(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    id: i64,
) -> ServiceResult<ContactView> {
    let current = existing(db, id).await?;
    let blocked = !current.email_blacklisted;
    let action = if blocked {
        Action::Block
    } else {
        Action::Unblock
    };
    let audit = Entry::new(&Actor::of(user), action, Entity::Contact, Some(id))
        .named(person_name(&current.firstname, &current.lastname))
        .with_changes(Changes::none().field(
            "email_blacklisted",
            current.email_blacklisted,
            blocked,
        ));
    let target = || mirror::identifier(current.brevo_contact_id, &current.email);
    let snapshot = mirror::before_change(
        db,
        marketing,
        target(),
        &current.email,
        target(),
        Vec::new(),
    )
    .await?;
    if let Marketing::Brevo(client) = marketing {
        let update = UpdateContact {
            email_blacklisted: Some(blocked),
            ..UpdateContact::default()
        };
        client.update_contact(target(), &update).await?;
    }
    match db::contacts::set_blacklisted(db, id, blocked, &audit).await {
        Ok(_) => view(db, existing(db, id).await?).await,
        Err(err) => {
            mirror::undo(db, marketing, snapshot).await;
            Err(err.into())
        }
    }
}

/// The list a contacts page is limited to, with its provider: (id, name, provider id,
/// provider name).
pub async fn list_info(db: &Db, list_id: i64) -> ServiceResult<Option<(i64, String, i64, String)>> {
    let Some(list) = db::lists::get(db, list_id).await? else {
        return Ok(None);
    };
    let provider = db::providers::get(db, list.provider_id).await?;
    Ok(provider.map(|p| (list.id, list.name, p.id, p.name)))
}

/// Contacts still to confirm: (those a mail can go to, all of them).
pub async fn pending_counts(db: &Db, answers: &Answers, stamp: Stamp) -> ServiceResult<(i64, i64)> {
    let counts = answers
        .value(format!("pending-counts|{stamp}"), async {
            Ok(db::contacts::pending_counts(db).await?)
        })
        .await?;
    Ok(*counts)
}
