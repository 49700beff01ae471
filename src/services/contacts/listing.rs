//! The contacts list (spec §2 "Kontakte"): its query, filters and kept pages, the lists
//! of contacts, and the counts the admin screens show.

use super::*;
use crate::domain::user::DataVersionRead;

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
    #[param(value_type = Option<crate::domain::input::IdFilter>)]
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

/// Parsed [`ContactQuery`].
#[derive(Clone, Debug)]
pub struct ContactParams {
    pub limit: i64,
    pub offset: i64,
    pub ascending: bool,
    pub sort: ContactSort,
    pub filter: ContactFilter,
}

/// `true`/`false` (also 1/0); empty means "no filter".
pub(super) fn flag(value: Option<&str>, name: &str) -> ServiceResult<Option<bool>> {
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

/// One page of the contacts table (`GET /api/contacts/{query}` and, with `providers`,
/// `GET /api/contacts/providers/{ids}/{query}`).
pub async fn page(db: &Db, params: &ContactParams) -> ServiceResult<ContactPage> {
    page_counted(db, params, async {
        Ok(db::contacts::count(db, &params.filter).await?)
    })
    .await
}

/// A page of contacts with the total `count` gives, which is asked only when the page does
/// not tell it: a page shorter than asked for is the end of the list, so the total is its
/// offset and length, and a search's page reads its total with it (issue 41).
pub(super) async fn page_counted(
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
    // A search's page tells its total; an empty page past the end does not.
    let told = rows.first().and_then(|row| row.total);
    let count = match total_of_last_page(params.limit, params.offset, rows.len()).or(told) {
        Some(total) => total,
        None => count.await?,
    };
    Ok(ContactPage {
        content: rows
            .into_iter()
            .map(|row| {
                let lists = row.list_ids();
                ContactView::new(row.contact, lists)
            })
            .collect(),
        count,
    })
}

/// The list's total when a page of `rows` (asked as `limit` from `offset`) shows it: a page
/// shorter than `limit` ends the list, unless it is empty past the start (the list may then
/// end anywhere before `offset`).
fn total_of_last_page(limit: i64, offset: i64, rows: usize) -> Option<i64> {
    let rows = i64::try_from(rows).ok()?;
    (rows < limit && (rows > 0 || offset == 0)).then(|| offset.saturating_add(rows))
}

/// The contacts table's page (`GET /api/contacts`) as kept JSON: the same for everybody in the
/// admin area, kept under the data version with its total (which "load more" asks again).
/// The `new`/`active` filters move with the clock, so their answers are made afresh.
pub async fn page_answer(
    db: &Db,
    answers: &Answers,
    read: Option<DataVersionRead>,
    params: &ContactParams,
) -> ServiceResult<Arc<Answer>> {
    let stamp = answers.stamp_of_request(db, read).await?;
    page_answer_at(db, answers, stamp, params).await
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

/// The list a contacts page is limited to, with its provider: (id, name, provider id,
/// provider name).
pub async fn list_info(db: &Db, list_id: i64) -> ServiceResult<Option<(i64, String, i64, String)>> {
    let Some(list) = db::marketing::lists::get(db, list_id).await? else {
        return Ok(None);
    };
    let provider = db::marketing::providers::get(db, list.provider_id).await?;
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

#[cfg(test)]
mod tests {
    use super::total_of_last_page;

    #[test]
    fn only_a_short_page_that_shows_the_end_tells_the_total() {
        assert_eq!(total_of_last_page(20, 0, 3), Some(3));
        assert_eq!(total_of_last_page(20, 0, 0), Some(0));
        assert_eq!(total_of_last_page(20, 40, 7), Some(47));
        // A full page may be followed by more; an empty page past the start ends earlier.
        assert_eq!(total_of_last_page(20, 0, 20), None);
        assert_eq!(total_of_last_page(20, 40, 0), None);
        assert_eq!(total_of_last_page(0, 0, 0), None);
    }
}
