//! The contacts list: its filters, sort orders and search (pg_trgm on PostgreSQL, an FTS5
//! trigram table on SQLite), one page and the total.

use super::*;
use crate::db::trigrams::SearchTable;

/// Which contacts a page of the contacts table shows (spec §2, §7).
#[derive(Clone, Debug, Default)]
pub struct ContactFilter {
    /// Part of the email, a name, the company or the customer number.
    pub search: Option<String>,
    pub email_blacklisted: Option<bool>,
    pub double_opt_in: Option<bool>,
    /// Only contacts created at or after this instant ("new").
    pub created_from: Option<DateTime<Utc>>,
    /// Only contacts created before this instant ("active").
    pub created_before: Option<DateTime<Utc>>,
    /// Only contacts on this list.
    pub list_id: Option<i64>,
    /// Only contacts on a list of one of these providers.
    pub provider_ids: Option<Vec<i64>>,
}

impl ContactFilter {
    /// The search term without its surrounding spaces; `None` when there is none left.
    fn search_term(&self) -> Option<&str> {
        self.search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    /// True when the filter lets every contact through.
    pub(super) fn is_everyone(&self) -> bool {
        let ContactFilter {
            search,
            email_blacklisted,
            double_opt_in,
            created_from,
            created_before,
            list_id,
            provider_ids,
        } = self;
        search.as_deref().is_none_or(|s| s.trim().is_empty())
            && email_blacklisted.is_none()
            && double_opt_in.is_none()
            && created_from.is_none()
            && created_before.is_none()
            && list_id.is_none()
            && provider_ids.is_none()
    }
}

/// The columns the contacts table sorts by, `id` by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactSort {
    Id,
    CustomerNumber,
    Email,
    Salutation,
    Firstname,
    Lastname,
    CompanyName,
    DoubleOptIn,
    EmailBlacklisted,
    CreatedAt,
    UpdatedAt,
}

/// The API's `sortBy` names (the field names of spec §3, and `company` for the company name):
/// one table for reading them, the German message and the API description alike.
pub(super) const SORT_NAMES: &[(&str, ContactSort)] = &[
    ("id", ContactSort::Id),
    ("customerNumber", ContactSort::CustomerNumber),
    ("email", ContactSort::Email),
    ("salutation", ContactSort::Salutation),
    ("firstname", ContactSort::Firstname),
    ("lastname", ContactSort::Lastname),
    ("companyName", ContactSort::CompanyName),
    ("company", ContactSort::CompanyName),
    ("doubleOptIn", ContactSort::DoubleOptIn),
    ("emailBlacklisted", ContactSort::EmailBlacklisted),
    ("createdAt", ContactSort::CreatedAt),
    ("updatedAt", ContactSort::UpdatedAt),
];

/// Exactly the words [`ContactSort::parse`] takes, so the description cannot promise less or
/// more.
impl utoipa::PartialSchema for ContactSort {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let names: Vec<&str> = SORT_NAMES.iter().map(|(name, _)| *name).collect();
        crate::domain::paging::word_choice(&names, "The column to sort by; empty: `id`.")
    }
}

impl utoipa::ToSchema for ContactSort {}

impl ContactSort {
    /// From the API's `sortBy`: empty or missing is `id`; another name answers with the
    /// German message that lists the possible ones.
    pub fn parse(name: Option<&str>) -> Result<ContactSort, String> {
        let Some(name) = name.filter(|name| !name.is_empty()) else {
            return Ok(ContactSort::Id);
        };
        SORT_NAMES
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, sort)| *sort)
            .ok_or_else(|| {
                let names: Vec<&str> = SORT_NAMES.iter().map(|(name, _)| *name).collect();
                format!(
                    "Nach „{name}“ kann nicht sortiert werden. Möglich sind: {}.",
                    names.join(", ")
                )
            })
    }

    /// The sort key of an order every contact is kept in with the texts (`orders`): one the
    /// texts' version follows (emails, names, customer numbers, company names change it, and
    /// so does every contact added or removed; a creation time never changes).
    fn kept_order_key(self) -> Option<&'static str> {
        match self {
            ContactSort::CustomerNumber
            | ContactSort::Email
            | ContactSort::Firstname
            | ContactSort::Lastname
            | ContactSort::CompanyName
            | ContactSort::CreatedAt => Some(self.column()),
            _ => None,
        }
    }

    pub(super) fn column(self) -> &'static str {
        match self {
            ContactSort::Id => "c.id",
            ContactSort::CustomerNumber => "c.customer_number",
            ContactSort::Email => "c.email",
            ContactSort::Salutation => "c.salutation",
            ContactSort::Firstname => "c.firstname",
            ContactSort::Lastname => "c.lastname",
            ContactSort::CompanyName => "co.company_name",
            ContactSort::DoubleOptIn => "c.double_opt_in",
            ContactSort::EmailBlacklisted => "c.email_blacklisted",
            ContactSort::CreatedAt => "c.created_at",
            ContactSort::UpdatedAt => "c.updated_at",
        }
    }
}

/// The query's `from` and `where`. The company is joined only when a row needs its name or
/// the search looks at it: a plain count then reads an index of `contacts` alone.
pub(super) fn filtered(
    select: &str,
    filter: &ContactFilter,
    with_company: bool,
    db: &Db,
) -> DynQuery {
    let backend = db.backend();
    let mut query = DynQuery::list(select);
    let search = filter.search_term();
    // SQLite's trigram tables (migrations 0014, 0028) cannot answer every term
    // (`db::sql::trigram_pattern`): those read the contacts.
    let trigram = search
        .filter(|_| backend == crate::db::Backend::Sqlite)
        .and_then(crate::db::sql::trigram_pattern);
    if with_company || (search.is_some() && trigram.is_none()) {
        query.push(from_contacts!());
    } else {
        query.push(" from contacts c");
    }
    query.push(" where 1 = 1");
    if let Some(pattern) = trigram {
        // The contacts' own fields, and the contacts of the companies whose name holds the
        // term (the company names have their own table, migration 0028).
        let own = trigram_lookup(&mut query, db, SearchTable::Contacts, &pattern);
        let by_company = trigram_lookup(&mut query, db, SearchTable::Companies, &pattern);
        query.push(&format!(
            " and c.id in (select rowid from contact_search where {own} union all \
             select c3.id from contacts c3 where c3.customer_number in \
             (select rowid from company_search where {by_company}))"
        ));
    } else if let Some(search) = search {
        let p = query.param(crate::db::sql::like_pattern(search));
        let plain = format!(
            " and (c.email like {p} escape '\\' or lower(c.firstname) like {p} escape '\\' \
             or lower(c.lastname) like {p} escape '\\' \
             or lower(co.company_name) like {p} escape '\\' \
             or cast(c.customer_number as text) like {p} escape '\\')"
        );
        if backend == crate::db::Backend::Postgres && search.chars().count() >= 3 {
            // A run of digits in the term is looked up first, the whole term checked in the
            // rows found (`db::sql::selective_digits`): same answer, far fewer entries read.
            let digits = crate::db::sql::selective_digits(search);
            // Each arm alone can use its trigram index (migration 0010); an OR across the
            // join could only be answered by reading every contact. The ids found are an
            // array the rows are looked up by: then the prepared statement's generic plan is
            // as good as a plan for the term (0.3 ms, where `in (…)` planned 0.4 ms per
            // search and its generic plan took 30 ms), and PostgreSQL may stop planning it.
            let found_by = |p: &str, company: &str| {
                format!(
                    " and c.id = any(array(select id from contacts where email like {p} escape '\\' \
                     or lower(firstname) like {p} escape '\\' \
                     or lower(lastname) like {p} escape '\\' \
                     or cast(customer_number as text) like {p} escape '\\' \
                     union select c2.id from contacts c2 join companies co2 \
                     on co2.customer_number = c2.customer_number where {company}))"
                )
            };
            match digits {
                Some(digits) => {
                    let d = query.param(digits);
                    let company = format!("lower(co2.company_name) like {d} escape '\\'");
                    query.push(&found_by(&d, &company));
                    query.push(&plain);
                }
                None => {
                    let company = company_lookup(&mut query, db, search, &p);
                    query.push(&found_by(&p, &company));
                }
            }
        } else {
            query.push(&plain);
        }
    }
    push_filters(&mut query, filter);
    query
}

/// The query's `from` and `where` for the contacts a search found in the kept texts
/// (`texts`): `ids`, on the condition that the texts' version is still the database's (else no
/// row), and the other filters.
fn found_in_texts(
    query: &mut DynQuery,
    filter: &ContactFilter,
    ids: &[i64],
    version: i64,
    db: &Db,
) {
    query.push(from_contacts!());
    let ids = query.one_of("c.id", ids, db.backend());
    let version = query.param(version);
    query.push(&format!(
        " where {ids} and {version} = \
         (select contact_text_version from data_version where id = 1)"
    ));
    push_filters(query, filter);
}

/// The filters besides the search.
fn push_filters(query: &mut DynQuery, filter: &ContactFilter) {
    if let Some(blocked) = filter.email_blacklisted {
        let p = query.param(blocked);
        query.push(&format!(" and c.email_blacklisted = {p}"));
    }
    if let Some(confirmed) = filter.double_opt_in {
        let p = query.param(confirmed);
        query.push(&format!(" and c.double_opt_in = {p}"));
    }
    if let Some(from) = filter.created_from {
        let p = query.param(from);
        query.push(&format!(" and c.created_at >= {p}"));
    }
    if let Some(before) = filter.created_before {
        let p = query.param(before);
        query.push(&format!(" and c.created_at < {p}"));
    }
    if let Some(list_id) = filter.list_id {
        let p = query.param(list_id);
        query.push(&format!(
            " and exists (select 1 from contact_lists cl where cl.contact_id = c.id \
             and cl.list_id = {p})"
        ));
    }
    if let Some(providers) = &filter.provider_ids {
        if providers.is_empty() {
            query.push(" and 1 = 0");
        } else {
            let ids = query.id_list(providers);
            query.push(&format!(
                " and exists (select 1 from contact_lists cl join lists l on l.id = cl.list_id \
                 where cl.contact_id = c.id and l.provider_id in {ids})"
            ));
        }
    }
}

/// The condition on an FTS5 trigram table's `text` for the rows holding `pattern` (`%term%`):
/// the rarest trigrams of the term looked up and the whole term checked in the rows found
/// (`db::trigrams`), or, while their counts are not read, a run of digits in the same way
/// (`db::sql::selective_digits`), else the whole term. Same rows either way.
fn trigram_lookup(query: &mut DynQuery, db: &Db, table: SearchTable, pattern: &str) -> String {
    let term = &pattern[1..pattern.len() - 1];
    let first = crate::db::trigrams::rare_patterns(db, table, term)
        .filter(|rare| !rare.is_empty())
        .or_else(|| crate::db::sql::selective_digits(term).map(|digits| vec![digits]))
        .unwrap_or_default();
    let whole = query.param(pattern.to_string());
    pieces_then_whole(query, "text", first, &whole)
}

/// PostgreSQL's condition on `co2` for the companies whose name holds `search` (`p` its
/// escaped `%term%` parameter): the rarest trigrams of the term first, as in
/// [`trigram_lookup`], or, while their counts are not read, the whole term. The pieces are
/// letters and digits of the term itself (`db::trigrams`), so they need no escaping.
fn company_lookup(query: &mut DynQuery, db: &Db, search: &str, p: &str) -> String {
    let term = search.to_lowercase();
    let rare =
        crate::db::trigrams::rare_patterns(db, SearchTable::Companies, &term).unwrap_or_default();
    let whole = format!("{p} escape '\\'");
    pieces_then_whole(query, "lower(co2.company_name)", rare, &whole)
}

/// `column like` each of `pieces`, and the whole term (`whole`, the right side of its `like`)
/// checked in the rows they find: `(column || '')` is neither FTS5's column nor pg_trgm's
/// indexed expression, so the index reads only the pieces' rows. No pieces: the whole term is
/// looked up.
fn pieces_then_whole(
    query: &mut DynQuery,
    column: &str,
    pieces: Vec<String>,
    whole: &str,
) -> String {
    if pieces.is_empty() {
        return format!("{column} like {whole}");
    }
    let mut parts: Vec<String> = pieces
        .into_iter()
        .map(|piece| format!("{column} like {}", query.param(piece)))
        .collect();
    parts.push(format!("({column} || '') like {whole}"));
    parts.join(" and ")
}

/// A contact of a page with the ids of the lists it is on, read in the page's query.
#[derive(Debug, sqlx::FromRow)]
pub struct ContactWithLists {
    #[sqlx(flatten)]
    pub contact: Contact,
    /// The list ids, comma-separated; `None` on no list.
    list_ids: Option<String>,
    /// How many contacts the search finds in all, read with a search's page (`None` without
    /// a search: a count from an index or the kept totals is cheaper then).
    #[sqlx(default)]
    pub total: Option<i64>,
}

impl ContactWithLists {
    /// The ids of the contact's lists, ascending.
    pub fn list_ids(&self) -> Vec<i64> {
        let mut ids: Vec<i64> = self
            .list_ids
            .as_deref()
            .unwrap_or_default()
            .split(',')
            .filter_map(|id| id.trim().parse().ok())
            .collect();
        ids.sort_unstable();
        ids
    }
}

/// One page of contacts, sorted by `sort` (then by id in the same direction), each with its
/// lists (one statement for both: each statement is a hand-off to the database's thread).
/// A search's page also tells the total (`ContactWithLists::total`): the search's ids are
/// found once for both, from the kept texts where they answer (`texts`), and only the page's
/// contacts are read in full.
pub async fn page(
    db: &Db,
    filter: &ContactFilter,
    sort: ContactSort,
    ascending: bool,
    limit: i64,
    offset: i64,
) -> Result<Vec<ContactWithLists>, sqlx::Error> {
    let page = PagePlace {
        sort,
        ascending,
        limit,
        offset,
        lists: lists_of_contact(db),
    };
    if let Some(rows) = page_from_texts(db, filter, &page).await? {
        return Ok(rows);
    }
    let searching = filter.search_term().is_some();
    let found = if searching {
        Found::WithTotal
    } else if page.offset >= DEEP_PAGE {
        Found::Ids
    } else {
        Found::Contacts
    };
    // A page of ids needs the companies only to sort by their names.
    let with_company = found != Found::Ids || page.sort == ContactSort::CompanyName;
    let query = filtered(&page.select(found), filter, with_company, db);
    page.read(query, found, db).await
}

/// From this offset on a page without a search finds its contacts' ids first: the database
/// then skips index entries, not whole contacts with their lists (400 ms for place 190,000 of
/// `seed-large` on PostgreSQL, which built the skipped rows' list columns too).
const DEEP_PAGE: i64 = 1_000;

/// How long a deep or sorted page of every contact waits for the texts and the order being
/// read, in all, before the database answers it (within `AP_LIST_TIME_LIMIT_MS`' default of 5 s; on
/// `seed-large` the texts took 3.3 s to read, the order by last name 0.7 s).
const WAIT_FOR_KEPT: std::time::Duration = std::time::Duration::from_secs(4);

/// What a page's statement selects before its contacts are read in full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    /// The contacts in full, with their lists.
    Contacts,
    /// The ids and sort keys of the page's contacts.
    Ids,
    /// The ids and sort keys, with the number found in all (a search).
    WithTotal,
}

/// Where a page lies in its list.
struct PagePlace {
    sort: ContactSort,
    ascending: bool,
    limit: i64,
    offset: i64,
    /// [`lists_of_contact`] of the database.
    lists: String,
}

impl PagePlace {
    fn direction(&self) -> &'static str {
        if self.ascending { "asc" } else { "desc" }
    }

    fn order_by(&self, key: &str) -> String {
        let direction = self.direction();
        if self.sort == ContactSort::Id {
            format!(" order by c.id {direction}")
        } else {
            format!(" order by {key} {direction}, c.id {direction}")
        }
    }

    /// The select list: ids and sort keys, with a search's total (the page's contacts are
    /// read in full around it), or the contacts in full.
    fn select(&self, found: Found) -> String {
        let key = self.sort.column();
        match found {
            Found::WithTotal => {
                format!("select c.id, {key} as sort_key, count(*) over () as total")
            }
            Found::Ids => format!("select c.id, {key} as sort_key"),
            Found::Contacts => format!(
                concat!("select ", contact_columns!(), ", {lists}"),
                lists = self.lists
            ),
        }
    }

    /// Sorts and pages `query` (made with [`PagePlace::select`]) and reads its contacts.
    async fn read(
        &self,
        mut query: DynQuery,
        found: Found,
        db: &Db,
    ) -> Result<Vec<ContactWithLists>, sqlx::Error> {
        let limit = query.param(self.limit);
        let offset = query.param(self.offset);
        query.push(&self.order_by(self.sort.column()));
        query.push(&format!(" limit {limit} offset {offset}"));
        if found != Found::Contacts {
            let total = if found == Found::WithTotal {
                ", p.total"
            } else {
                ""
            };
            query.nest(|ids| {
                format!(
                    concat!(
                        "select ",
                        contact_columns!(),
                        ", {lists}{total} from ({ids}) p join contacts c on c.id = p.id \
                         join companies co on co.customer_number = c.customer_number{order}"
                    ),
                    lists = self.lists,
                    total = total,
                    ids = ids,
                    order = self.order_by("p.sort_key"),
                )
            });
        }
        query.fetch_all(db).await
    }
}

/// The select list's column of a contact's list ids.
fn lists_of_contact(db: &Db) -> String {
    let lists = crate::db::sql::joined(db, "cl.list_id", ",");
    format!("(select {lists} from contact_lists cl where cl.contact_id = c.id) as list_ids")
}

/// A search's page from the contacts the kept texts find (`texts`), or `None` when the texts
/// cannot answer it: none kept, a term they leave to the database, nothing found, or (told by
/// an empty page) texts older than the database's or a page past the end. The database then
/// answers with the term, so an empty page costs a second statement.
async fn page_from_texts(
    db: &Db,
    filter: &ContactFilter,
    page: &PagePlace,
) -> Result<Option<Vec<ContactWithLists>>, sqlx::Error> {
    // Without a search, every contact's page comes from the texts (their ids, or a kept
    // order of them) when deep, or in an order the database can only sort all contacts for
    // (100 ms for a first page by last name on `seed-large`); a first page by id is quick
    // from the database.
    let everyone =
        filter.is_everyone() && (page.offset >= DEEP_PAGE || page.sort.kept_order_key().is_some());
    if filter.search_term().is_none() && !everyone {
        return Ok(None);
    }
    // A deep or sorted page of every contact would skip or sort them all in the database: it
    // waits for the first texts since the start (and a sorted one for their first order) to be
    // read, if the read is under way (after a start, 50 clients asking deep pages by id had a
    // p99 of 1.4 s until then, those asking pages by last name 5 answers a second).
    let sorted_everyone = filter.is_everyone() && page.sort.kept_order_key().is_some();
    let waiting_since = std::time::Instant::now();
    let texts = if everyone {
        super::texts::kept_waiting(db, WAIT_FOR_KEPT).await
    } else {
        super::texts::kept(db)
    };
    let Some(texts) = texts else {
        return Ok(None);
    };
    let (found, ordered);
    let ids: &[i64] = match filter.search_term() {
        Some(term) => match texts.find(&term.to_lowercase()) {
            super::texts::FoundInTexts::Ids(ids) => {
                found = ids;
                &found
            }
            super::texts::FoundInTexts::Unanswered => return Ok(None),
        },
        None if page.sort == ContactSort::Id => texts.contact_ids(),
        None => {
            let Some(key) = page.sort.kept_order_key() else {
                return Ok(None);
            };
            let order = if sorted_everyone && texts.first_since_start {
                super::orders::kept_order_waiting(
                    &texts.orders,
                    texts.version,
                    db,
                    key,
                    WAIT_FOR_KEPT.saturating_sub(waiting_since.elapsed()),
                )
                .await
            } else {
                super::orders::kept_order(&texts.orders, texts.version, db, key)
            };
            match order {
                Some(order) => {
                    ordered = order;
                    &ordered
                }
                None => return Ok(None),
            }
        }
    };
    if ids.is_empty() {
        return Ok(None);
    }
    let only_search = ContactFilter {
        search: None,
        ..filter.clone()
    }
    .is_everyone();
    // Ascending in the page's order: a search's ids by id, or a kept order.
    let in_order = page.sort == ContactSort::Id || filter.search_term().is_none();
    let rows = if only_search && in_order {
        // The ids are the list in its order: the page is a slice of them, its total their
        // number, and only its contacts are read.
        let total = ids.len();
        let start = usize::try_from(page.offset)
            .unwrap_or(usize::MAX)
            .min(total);
        let end = start
            .saturating_add(usize::try_from(page.limit).unwrap_or(0))
            .min(total);
        let slice: Vec<i64> = if page.ascending {
            ids[start..end].to_vec()
        } else {
            ids.iter()
                .rev()
                .skip(start)
                .take(end - start)
                .copied()
                .collect()
        };
        if slice.is_empty() {
            return Ok(None);
        }
        let mut query = DynQuery::list("");
        let total = query.param(i64::try_from(total).unwrap_or(i64::MAX));
        query.push(&format!(
            concat!(
                "select ",
                contact_columns!(),
                ", {lists}, cast({total} as bigint) as total"
            ),
            lists = page.lists,
            total = total,
        ));
        found_in_texts(&mut query, filter, &slice, texts.version, db);
        query.push(&page.order_by(page.sort.column()));
        query.fetch_all(db).await?
    } else {
        let mut query = DynQuery::list(&page.select(Found::WithTotal));
        found_in_texts(&mut query, filter, ids, texts.version, db);
        page.read(query, Found::WithTotal, db).await?
    };
    Ok((!rows.is_empty()).then_some(rows))
}

/// How many contacts match.
pub async fn count(db: &Db, filter: &ContactFilter) -> Result<i64, sqlx::Error> {
    if filter.is_everyone() {
        return db_run!(db, pool => {
            sqlx::query_scalar::<_, i64>("select contacts from contact_totals where id = 1")
                .fetch_one(pool)
                .await
        });
    }
    filtered("select count(*)", filter, false, db)
        .fetch_count(db)
        .await
}
