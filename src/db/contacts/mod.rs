//! Customer groups (`companies`), their contacts (`contacts`), the criteria (lists) a contact
//! is assigned to (`contact_lists`) and the links of double opt-in mails
//! (`double_opt_in_tokens`).

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::bulk::{LinkSet, link_lists, replace_links};
use crate::db::sql::{DynQuery, Param};
use crate::db::tx::Tx;
use crate::db::{Db, dedup_keep_order, insight::audit, now};
use crate::db_run;
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::contacts::normalize_email;
use serde_json::Value;

macro_rules! contact_columns {
    () => {
        "c.id, c.customer_number, c.brevo_contact_id, c.email, c.salutation, c.firstname, \
         c.lastname, c.extern_id, c.double_opt_in, c.double_opt_in_at, c.double_opt_in_address, \
         c.double_opt_in_sent_at, c.double_opt_in_mail_sent_at, c.double_opt_in_message_id, \
         c.double_opt_in_user_agent, c.double_opt_in_consent_version, c.email_blacklisted, \
         c.created_at, c.updated_at, co.company_name"
    };
}

/// Contacts joined with their company, as every contact query reads them.
macro_rules! from_contacts {
    () => {
        " from contacts c join companies co on co.customer_number = c.customer_number"
    };
}

/// A customer group, keyed by its customer number.
#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Company {
    pub customer_number: i64,
    pub company_name: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Salutation codes as stored in `contacts.salutation` (spec: Firma 1, Herr 2, Frau 3, Diverses 4).
pub mod salutation {
    pub const NONE: i16 = 0;
    pub const FIRMA: i16 = 1;
    pub const HERR: i16 = 2;
    pub const FRAU: i16 = 3;
    pub const DIVERSES: i16 = 4;
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Contact {
    pub id: i64,
    pub customer_number: i64,
    pub brevo_contact_id: Option<i64>,
    /// Lower-case and trimmed.
    pub email: String,
    pub salutation: i16,
    pub firstname: String,
    pub lastname: String,
    pub extern_id: Option<String>,
    pub double_opt_in: bool,
    pub double_opt_in_at: Option<DateTime<Utc>>,
    /// The client address the confirmation came from.
    pub double_opt_in_address: Option<String>,
    /// When the last confirmation mail went out.
    pub double_opt_in_sent_at: Option<DateTime<Utc>>,
    /// Proof of consent (issue 25): when the mail whose link confirmed went out, and its
    /// Message-ID.
    pub double_opt_in_mail_sent_at: Option<DateTime<Utc>>,
    pub double_opt_in_message_id: Option<String>,
    /// The confirming request's `User-Agent`.
    pub double_opt_in_user_agent: Option<String>,
    /// The version of the consent text the confirmation page showed (`consent_texts`);
    /// `None` for confirmations from before the proof was kept, or from Brevo.
    pub double_opt_in_consent_version: Option<String>,
    pub email_blacklisted: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The company of the customer number.
    pub company_name: String,
}

#[derive(Debug, Clone)]
pub struct NewContact {
    pub customer_number: i64,
    pub brevo_contact_id: Option<i64>,
    /// Stored trimmed and lower-cased.
    pub email: String,
    pub salutation: i16,
    pub firstname: String,
    pub lastname: String,
    pub extern_id: Option<String>,
    /// True stores the contact as already confirmed (`double_opt_in_at` = now).
    pub double_opt_in: bool,
    pub email_blacklisted: bool,
}

/// The fields an edit sets (the confirmation and the block are changed on their own).
#[derive(Debug, Clone)]
pub struct ContactChange {
    pub customer_number: i64,
    pub email: String,
    pub salutation: i16,
    pub firstname: String,
    pub lastname: String,
    pub brevo_contact_id: Option<i64>,
    pub extern_id: Option<String>,
}

/// Creates the company or renames it (bind: customer number, name, now); a company whose
/// name is already that is left as it is.
pub(crate) const UPSERT_COMPANY: &str = "insert into companies \
     (customer_number, company_name, created_at, updated_at) values ($1, $2, $3, $3) \
     on conflict (customer_number) do update \
     set company_name = excluded.company_name, updated_at = excluded.updated_at \
     where companies.company_name <> excluded.company_name";

/// Creates the company unless the customer number has one (bind: customer number, name, now).
const CREATE_MISSING_COMPANY: &str = "insert into companies \
     (customer_number, company_name, created_at, updated_at) values ($1, $2, $3, $3) \
     on conflict (customer_number) do nothing";

/// What a contact's write does to the company of its customer number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompanyWrite<'a> {
    /// Creates the company with this name when the customer number has none; an existing one
    /// keeps its name (a contact's body never renames another group's company).
    CreateMissing(i64, &'a str),
    /// Creates the company, or renames the existing one.
    CreateOrRename(i64, &'a str),
}

impl CompanyWrite<'_> {
    fn sql(self) -> (&'static str, i64, String) {
        match self {
            CompanyWrite::CreateMissing(number, name) => {
                (CREATE_MISSING_COMPANY, number, name.to_string())
            }
            CompanyWrite::CreateOrRename(number, name) => {
                (UPSERT_COMPANY, number, name.to_string())
            }
        }
    }
}

/// Ends the consent of a contact whose address changes (bind: contact id, the new address,
/// normalised): the confirmation belongs to the old address, and so do the links mailed to
/// it. Run in the transaction that writes the new address, before it.
pub(crate) const END_CONSENT_OF_OLD_ADDRESS: [&str; 2] = [
    "update contacts set double_opt_in = false, double_opt_in_at = null, \
     double_opt_in_address = null, double_opt_in_sent_at = null, \
     double_opt_in_mail_sent_at = null, double_opt_in_message_id = null, \
     double_opt_in_user_agent = null, double_opt_in_consent_version = null \
     where id = $1 and email <> $2",
    "delete from double_opt_in_tokens where contact_id = $1 and (email is null or email <> $2)",
];

/// Writes contact `$id`'s fields (`$change`, a [`ContactChange`]) in an open transaction of
/// either backend: first ends the consent of an address that changes
/// ([`END_CONSENT_OF_OLD_ADDRESS`]), then the row. With `in_group`, only while the contact
/// still belongs to `$change.customer_number` (the contact editor's check that nobody moved it
/// meanwhile). The one write path of a contact's fields; evaluates to the rows changed (0: the
/// contact is gone, or not in the group).
macro_rules! update_contact {
    ($tx:expr, $id:expr, $change:expr, $now:expr) => {
        $crate::db::contacts::update_contact!(@write $tx, $id, $change, $now, "where id = $1")
    };
    ($tx:expr, $id:expr, $change:expr, $now:expr, in_group) => {
        $crate::db::contacts::update_contact!(@write $tx, $id, $change, $now,
            "where id = $1 and customer_number = $2")
    };
    (@write $tx:expr, $id:expr, $change:expr, $now:expr, $which:literal) => {{
        let email = $crate::domain::contacts::normalize_email(&$change.email);
        for sql in $crate::db::contacts::END_CONSENT_OF_OLD_ADDRESS {
            sqlx::query(sql).bind($id).bind(&email).execute(&mut *$tx).await?;
        }
        sqlx::query(concat!(
            "update contacts set customer_number = $2, email = $3, salutation = $4, \
             firstname = $5, lastname = $6, brevo_contact_id = $7, extern_id = $8, \
             updated_at = $9 ",
            $which
        ))
        .bind($id)
        .bind($change.customer_number)
        .bind(&email)
        .bind($change.salutation)
        .bind(&$change.firstname)
        .bind(&$change.lastname)
        .bind($change.brevo_contact_id)
        .bind(&$change.extern_id)
        .bind($now)
        .execute(&mut *$tx)
        .await?
        .rows_affected()
    }};
}

pub(crate) use update_contact;

/// Creates the company or renames it when the customer number exists.
pub async fn upsert_company(
    db: &Db,
    customer_number: i64,
    company_name: &str,
) -> Result<Company, sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        sqlx::query_as::<_, Company>(
            "insert into companies (customer_number, company_name, created_at, updated_at) \
             values ($1, $2, $3, $3) \
             on conflict (customer_number) do update \
             set company_name = excluded.company_name, updated_at = excluded.updated_at \
             returning customer_number, company_name, created_at, updated_at",
        )
        .bind(customer_number)
        .bind(company_name)
        .bind(now)
        .fetch_one(pool)
        .await
    })
}

pub async fn get_company(db: &Db, customer_number: i64) -> Result<Option<Company>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Company>(
            "select customer_number, company_name, created_at, updated_at from companies \
             where customer_number = $1",
        )
        .bind(customer_number)
        .fetch_optional(pool)
        .await
    })
}

/// Creates a contact. A taken email (or Brevo id) fails with a unique violation, an unknown
/// customer number with a foreign-key violation.
/// Seeds and tests only: the portal's changes go through [`create_with_lists`].
pub async fn create_contact(db: &Db, new: &NewContact) -> Result<Contact, sqlx::Error> {
    let seeded = Entry::new(&Actor::Cli, Action::Create, Entity::Contact, None);
    create_with_lists(db, None, new, &[], &seeded).await
}

/// Creates a contact on its lists in one transaction, with its company first when
/// `company` is given, and `audit` for the new id. Nothing is written when any part fails.
pub async fn create_with_lists(
    db: &Db,
    company: Option<CompanyWrite<'_>>,
    new: &NewContact,
    list_ids: &[i64],
    audit: &Entry,
) -> Result<Contact, sqlx::Error> {
    let now = now();
    let list_ids = dedup_keep_order(list_ids);
    let id = db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        if let Some((sql, number, name)) = company.map(CompanyWrite::sql) {
            sqlx::query(sql)
            .bind(number)
            .bind(name)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let id: i64 = sqlx::query_scalar(
            "insert into contacts (customer_number, brevo_contact_id, email, salutation, \
             firstname, lastname, extern_id, double_opt_in, double_opt_in_at, \
             email_blacklisted, created_at, updated_at) \
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) returning id",
        )
        .bind(new.customer_number)
        .bind(new.brevo_contact_id)
        .bind(normalize_email(&new.email))
        .bind(new.salutation)
        .bind(&new.firstname)
        .bind(&new.lastname)
        .bind(&new.extern_id)
        .bind(new.double_opt_in)
        .bind(new.double_opt_in.then_some(now))
        .bind(new.email_blacklisted)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        link_lists!(tx, contact id, &list_ids, now);
        audit::record!(tx, &audit.for_id(id))?;
        tx.commit().await?;
        id
    });
    get_contact(db, id).await?.ok_or(sqlx::Error::RowNotFound)
}

/// Changes a contact's fields and lists in one transaction: `add` lists are assigned (kept
/// when already), `remove` lists taken off; other lists stay. With `company`, the company is
/// written first. A new address ends the consent of the old one
/// ([`END_CONSENT_OF_OLD_ADDRESS`]). `audit` is written with it. `None` when the contact does
/// not exist; nothing is written when any part fails.
pub async fn update_with_lists(
    db: &Db,
    id: i64,
    company: Option<CompanyWrite<'_>>,
    change: &ContactChange,
    add: &[i64],
    remove: &[i64],
    audit: &Entry,
) -> Result<Option<Contact>, sqlx::Error> {
    let now = now();
    let add = dedup_keep_order(add);
    let found = db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        if let Some((sql, number, name)) = company.map(CompanyWrite::sql) {
            sqlx::query(sql)
            .bind(number)
            .bind(name)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let found = update_contact!(tx, id, change, now) > 0;
        if found {
            for list_id in remove {
                sqlx::query("delete from contact_lists where contact_id = $1 and list_id = $2")
                    .bind(id)
                    .bind(list_id)
                    .execute(&mut *tx)
                    .await?;
            }
            link_lists!(tx, contact id, &add, now);
            audit::record!(tx, audit)?;
            tx.commit().await?;
        }
        found
    });
    if !found {
        return Ok(None);
    }
    get_contact(db, id).await
}

pub async fn get_contact(db: &Db, id: i64) -> Result<Option<Contact>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Contact>(concat!(
            "select ",
            contact_columns!(),
            from_contacts!(),
            " where c.id = $1"
        ))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// The contact with this email (compared in normalised form).
pub async fn find_contact_by_email(db: &Db, email: &str) -> Result<Option<Contact>, sqlx::Error> {
    let email = normalize_email(email);
    db_run!(db, pool => {
        sqlx::query_as::<_, Contact>(concat!(
            "select ",
            contact_columns!(),
            from_contacts!(),
            " where c.email = $1"
        ))
        .bind(&email)
        .fetch_optional(pool)
        .await
    })
}

/// The contacts of one customer group, oldest first.
pub async fn list_by_customer_number(
    db: &Db,
    customer_number: i64,
) -> Result<Vec<Contact>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Contact>(concat!(
            "select ",
            contact_columns!(),
            from_contacts!(),
            " where c.customer_number = $1 order by c.id"
        ))
        .bind(customer_number)
        .fetch_all(pool)
        .await
    })
}

/// Deletes a contact (its list assignments go with it) with `audit`. False when it did not
/// exist.
pub async fn delete_contact(db: &Db, id: i64, audit: &Entry) -> Result<bool, sqlx::Error> {
    audit::execute_audited(
        db,
        "delete from contacts where id = $1",
        &[id.into()],
        audit,
    )
    .await
}

/// Replaces the lists a contact is assigned to, in one transaction. False when the contact does
/// not exist; an unknown list id fails with a foreign-key violation and changes nothing. Seeds
/// and tests only: the portal's changes go through [`update_with_lists`].
pub async fn set_lists(db: &Db, contact_id: i64, list_ids: &[i64]) -> Result<bool, sqlx::Error> {
    let lists = dedup_keep_order(list_ids).into_iter().map(Param::from);
    let seeded = Entry::new(
        &Actor::Cli,
        Action::Update,
        Entity::Contact,
        Some(contact_id),
    )
    .with_changes(Changes::none().field("lists", Value::Null, list_ids));
    replace_links(db, &CONTACT_LISTS, contact_id, lists.collect(), &seeded).await
}

/// The lists of each contact.
const CONTACT_LISTS: LinkSet = LinkSet {
    owners: "contacts",
    links: "contact_lists",
    owner_column: "contact_id",
    value_column: "list_id",
};

/// The lists any contact of a customer number is on: what that customer's packages are
/// offered through.
pub async fn list_ids_of_customer(db: &Db, customer_number: i64) -> Result<Vec<i64>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "select distinct cl.list_id from contacts c \
             join contact_lists cl on cl.contact_id = c.id \
             where c.customer_number = $1 order by cl.list_id",
        )
        .bind(customer_number)
        .fetch_all(pool)
        .await
    })
}

/// (email, customer number) of the contacts among these emails (given normalised).
pub async fn customer_numbers_of_emails(
    db: &Db,
    emails: &[String],
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let mut found = Vec::new();
    for chunk in emails.chunks(500) {
        let mut query = crate::db::sql::DynQuery::new(
            "select email, customer_number from contacts where email in (",
        );
        let placeholders: Vec<String> = chunk
            .iter()
            .map(|e| query.param(normalize_email(e)))
            .collect();
        query.push(&placeholders.join(", ")).push(")");
        found.extend(query.fetch_all::<(String, i64)>(db).await?);
    }
    Ok(found)
}

/// The ids of the lists a contact is assigned to, ascending.
pub async fn list_ids_of_contact(db: &Db, contact_id: i64) -> Result<Vec<i64>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>(
            "select list_id from contact_lists where contact_id = $1 order by list_id",
        )
        .bind(contact_id)
        .fetch_all(pool)
        .await
    })
}

/// Blocks or unblocks a contact's email with `audit`. False when the contact does not exist.
pub async fn set_blacklisted(
    db: &Db,
    id: i64,
    blacklisted: bool,
    audit: &Entry,
) -> Result<bool, sqlx::Error> {
    audit::execute_audited(
        db,
        "update contacts set email_blacklisted = $2, updated_at = $3 where id = $1",
        &[id.into(), blacklisted.into(), now().into()],
        audit,
    )
    .await
}

/// One list assignment with what a criteria panel shows of the list and its provider.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AssignedList {
    pub contact_id: i64,
    pub list_id: i64,
    pub list_name: String,
    pub list_active: bool,
    pub brevo_list_id: Option<i64>,
    pub provider_id: i64,
    pub provider_name: String,
}

/// The lists of these contacts, in one query, by provider name and list name.
pub async fn assigned_lists(
    db: &Db,
    contact_ids: &[i64],
) -> Result<Vec<AssignedList>, sqlx::Error> {
    if contact_ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = DynQuery::new(
        "select cl.contact_id, l.id as list_id, l.name as list_name, l.active as list_active, \
         l.brevo_list_id, p.id as provider_id, p.name as provider_name \
         from contact_lists cl join lists l on l.id = cl.list_id \
         join providers p on p.id = l.provider_id where cl.contact_id in ",
    );
    let ids = query.id_list(&dedup_keep_order(contact_ids));
    query
        .push(&ids)
        .push(" order by p.name, p.id, l.name, l.id, cl.contact_id");
    query.fetch_all(db).await
}

// Declared here, below the column macros they use (a macro is seen only after its definition).
mod consent;
pub mod customer_groups;
pub mod erasure;
mod orders;
pub mod planning_candidates;
mod search;
pub(crate) mod texts;
pub mod unsubscribe;

pub use consent::{
    Proof, add_token, confirm, consent_text, contact_of_token, delete_expired_tokens, delete_token,
    end_older_tokens, mark_mail_sent, pending_counts,
};
pub use search::{ContactFilter, ContactSort, ContactWithLists, count, page};

#[cfg(test)]
mod tests {
    use super::search::SORT_NAMES;
    use super::*;
    use crate::db::{
        is_foreign_key_violation, is_unique_violation, marketing::lists, marketing::providers,
    };
    use crate::test_support::TestDb;

    #[test]
    fn every_sort_name_is_read_and_only_those() {
        for (name, column) in SORT_NAMES {
            assert_eq!(ContactSort::parse(Some(name)), Ok(*column));
        }
        assert_eq!(ContactSort::parse(Some("")), Ok(ContactSort::Id));
        assert_eq!(ContactSort::parse(None), Ok(ContactSort::Id));
        for wrong in [" id", "ID", "password_hash", "c.email"] {
            let message = ContactSort::parse(Some(wrong)).unwrap_err();
            assert!(message.contains("kann nicht sortiert werden"), "{message}");
        }
    }

    fn new_contact(customer_number: i64, email: &str) -> NewContact {
        NewContact {
            customer_number,
            brevo_contact_id: None,
            email: email.to_string(),
            salutation: salutation::FRAU,
            firstname: "Jürgen".to_string(),
            lastname: "Müller-Lüdenscheidt".to_string(),
            extern_id: Some("AP-4711".to_string()),
            double_opt_in: false,
            email_blacklisted: false,
        }
    }

    async fn two_lists(t: &TestDb) -> (i64, i64) {
        let provider = providers::create(
            &t.db,
            &providers::NewProvider {
                name: "Glasfaser Süd".to_string(),
                allowed_roles: vec!["GS-Aktionsportal-BU-Glasfaser".to_string()],
                brevo_active_folder_id: None,
                brevo_inactive_folder_id: None,
                upload_id: None,
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        let mut ids = Vec::new();
        for name in ["Privatkunden Süd", "Geschäftskunden Süd"] {
            let list = lists::create(
                &t.db,
                &lists::NewListRecord {
                    provider_id: provider.id,
                    name: name.to_string(),
                    brevo_list_id: None,
                    active: true,
                },
                &crate::test_support::cli_change(),
            )
            .await
            .unwrap();
            ids.push(list.id);
        }
        (ids[0], ids[1])
    }

    #[tokio::test]
    async fn company_upsert_renames() {
        let t = TestDb::new().await;
        let first = upsert_company(&t.db, 100001, "Müller GmbH").await.unwrap();
        assert_eq!(first.company_name, "Müller GmbH");
        let second = upsert_company(&t.db, 100001, "Müller & Söhne GmbH")
            .await
            .unwrap();
        assert_eq!(second.company_name, "Müller & Söhne GmbH");
        assert_eq!(second.created_at, first.created_at);
        let stored = get_company(&t.db, 100001).await.unwrap().unwrap();
        assert_eq!(stored.company_name, "Müller & Söhne GmbH");
        assert!(get_company(&t.db, 1).await.unwrap().is_none());
    }

    /// The search finds a part of the email, a name, the company or the customer number, in
    /// any letter case, also after each of them changed (on SQLite through the trigram index,
    /// which triggers keep current; short or wildcard searches read the table).
    #[tokio::test]
    async fn the_search_finds_parts_of_every_field_and_follows_changes() {
        let t = TestDb::new().await;
        upsert_company(&t.db, 100001, "Müller GmbH").await.unwrap();
        upsert_company(&t.db, 100002, "Zeta AG").await.unwrap();
        let person = |number: i64, email: &str, first: &str, last: &str| {
            let mut new = new_contact(number, email);
            new.firstname = first.into();
            new.lastname = last.into();
            new
        };
        let anna = create_contact(
            &t.db,
            &person(100001, "anna.s@example.de", "Anna", "Schmidt"),
        )
        .await
        .unwrap();
        let bernd = create_contact(&t.db, &person(100001, "b.weber@firma.de", "Bernd", "Weber"))
            .await
            .unwrap();
        create_contact(
            &t.db,
            &person(100002, "c@beispiel.de", "Carla", "Zimmermann"),
        )
        .await
        .unwrap();
        let found = |search: &'static str| {
            let db = t.db.clone();
            async move {
                let filter = ContactFilter {
                    search: Some(search.into()),
                    ..ContactFilter::default()
                };
                let count = count(&db, &filter).await.unwrap();
                let rows = page(&db, &filter, ContactSort::Id, true, 100, 0)
                    .await
                    .unwrap();
                assert_eq!(rows.len() as i64, count, "{search}");
                rows.into_iter()
                    .map(|c| c.contact.firstname)
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(found("schmi").await, ["Anna"]);
        assert_eq!(found("SCHMIDT").await, ["Anna"]);
        assert_eq!(found("firma.d").await, ["Bernd"]);
        assert_eq!(found("ller gm").await, ["Anna", "Bernd"]);
        assert_eq!(found("MÜLLER").await, ["Anna", "Bernd"]);
        assert_eq!(found("10000").await, ["Anna", "Bernd", "Carla"]);
        assert_eq!(found("100002").await, ["Carla"]);
        assert_eq!(found("nna").await, ["Anna"]);
        // A run of digits is looked up first and the whole term checked in the rows found:
        // the digits alone match all three, the whole term only its own contact or none.
        assert_eq!(found("Nr 100002").await, Vec::<String>::new());
        upsert_company(&t.db, 100003, "Drei AG").await.unwrap();
        for (email, first) in [
            ("kontakt012345@example.de", "Dora"),
            ("kontakt112345@example.de", "Emil"),
        ] {
            create_contact(&t.db, &person(100003, email, first, "Zahl"))
                .await
                .unwrap();
        }
        assert_eq!(found("KONTAKT012345").await, ["Dora"]);
        assert_eq!(found("akt01234").await, ["Dora"]);
        assert_eq!(found("12345@").await, ["Dora", "Emil"]);
        assert!(found("kontakt2345").await.is_empty());
        assert!(
            found("12345 Zahl").await.is_empty(),
            "fields are not joined"
        );
        assert_eq!(
            found("er").await,
            ["Anna", "Bernd", "Carla"],
            "short: the plain scan"
        );
        assert!(found("%").await.is_empty());
        assert!(
            found("a_s").await.is_empty(),
            "an underscore is a character, no wildcard"
        );
        assert!(
            found("schmidt anna").await.is_empty(),
            "fields are not joined"
        );
        // Renamed company, changed email and name, a contact gone: the search follows.
        upsert_company(&t.db, 100002, "Omega KG").await.unwrap();
        assert_eq!(found("omega").await, ["Carla"]);
        assert!(found("zeta").await.is_empty());
        crate::db_run!(&t.db, pool => {
            sqlx::query("update contacts set email = 'anna@neu.de', lastname = 'Berg' where id = $1")
                .bind(anna.id)
                .execute(pool)
                .await
                .map(drop)
                .unwrap()
        });
        assert!(found("schmidt").await.is_empty());
        assert!(found("anna.s@").await.is_empty());
        assert_eq!(found("@neu.de").await, ["Anna"]);
        assert_eq!(found("berg").await, ["Anna"]);
        delete_contact(&t.db, bernd.id, &crate::test_support::cli_change())
            .await
            .unwrap();
        assert!(found("weber").await.is_empty());
        assert_eq!(found("ller gm").await, ["Anna"]);
    }

    /// The search through the trigram tables (SQLite: the rarest trigrams of the term looked
    /// up, `db::trigrams`; PostgreSQL: pg_trgm, the company names' rarest trigrams) finds exactly the contacts a plain reading of
    /// every field finds, for random terms, also after the data changed under counts read
    /// before (issue 41).
    #[tokio::test]
    async fn the_search_answers_as_a_plain_reading_does() {
        use crate::db::trigrams::{SearchTable, rare_patterns, read_now};
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};

        let t = TestDb::new().await;
        let mut rng = StdRng::seed_from_u64(41);
        let words = [
            "Müller",
            "Weber",
            "Schmidt",
            "Straße",
            "Bäckerei",
            "Köln",
            "Energie",
        ];
        let firsts = ["Anna", "Jörg", "Bernd", "Zoë", "Uwe"];
        // (customer number, company) and (id, email, first, last, customer number).
        let mut companies: Vec<(i64, String)> = Vec::new();
        let mut people: Vec<(i64, String, String, String, i64)> = Vec::new();
        let company_name = |rng: &mut StdRng| {
            let first = words[rng.gen_range(0..words.len())];
            let second = words[rng.gen_range(0..words.len())];
            let joint = [" ", "-", " & "][rng.gen_range(0..3)];
            format!(
                "{first}{joint}{second} {}",
                ["GmbH", "KG", "e.K."][rng.gen_range(0..3)]
            )
        };
        for n in 0..40 {
            let number = 240_000 + n * 37;
            let name = company_name(&mut rng);
            upsert_company(&t.db, number, &name).await.unwrap();
            companies.push((number, name));
        }
        let add_person = |rng: &mut StdRng, at: usize, companies: &[(i64, String)]| {
            let number = companies[rng.gen_range(0..companies.len())].0;
            let mut new = new_contact(number, &format!("kontakt{at:06}@kunde{number}.example.de"));
            new.firstname = firsts[rng.gen_range(0..firsts.len())].to_string();
            new.lastname = words[rng.gen_range(0..words.len())].to_string();
            new
        };
        let person_of = |id: i64, new: NewContact| {
            (
                id,
                new.email,
                new.firstname,
                new.lastname,
                new.customer_number,
            )
        };
        for at in 0..160 {
            let new = add_person(&mut rng, at, &companies);
            let id = create_contact(&t.db, &new).await.unwrap().id;
            people.push(person_of(id, new));
        }
        for table in [SearchTable::Contacts, SearchTable::Companies] {
            read_now(&t.db, table).await;
            // PostgreSQL counts the company names' trigrams only.
            let counted =
                t.db.backend() == crate::db::Backend::Sqlite || table == SearchTable::Companies;
            assert_eq!(
                rare_patterns(&t.db, table, "kontakt").is_some(),
                counted,
                "{table:?} counted"
            );
        }
        let term = |rng: &mut StdRng,
                    people: &[(i64, String, String, String, i64)],
                    companies: &[(i64, String)]| {
            let person = &people[rng.gen_range(0..people.len())];
            let company = &companies.iter().find(|(n, _)| *n == person.4).unwrap().1;
            let number = person.4.to_string();
            let source: Vec<char> = match rng.gen_range(0..6) {
                0 => person.1.chars().collect(),
                1 => person.2.chars().collect(),
                2 => person.3.chars().collect(),
                3 => number.chars().collect(),
                4 => format!("{} {}", person.2, person.3).chars().collect(),
                _ => company.chars().collect(),
            };
            let from = rng.gen_range(0..source.len());
            let to = rng.gen_range(from + 1..=source.len());
            let part: String = source[from..to].iter().collect();
            match rng.gen_range(0..4) {
                0 => part.to_uppercase(),
                1 => format!("{part}x"),
                _ => part,
            }
        };
        let check = |people: Vec<(i64, String, String, String, i64)>,
                     companies: Vec<(i64, String)>,
                     terms: Vec<String>| {
            let db = t.db.clone();
            async move {
                for term in terms {
                    let needle = term.trim().to_lowercase();
                    let mut expected: Vec<i64> = people
                        .iter()
                        .filter(|(_, email, first, last, number)| {
                            let company = &companies.iter().find(|(n, _)| n == number).unwrap().1;
                            [email, first, last, &number.to_string(), company]
                                .iter()
                                .any(|field| field.to_lowercase().contains(&needle))
                        })
                        .map(|person| person.0)
                        .collect();
                    expected.sort_unstable();
                    let filter = ContactFilter {
                        search: Some(term.clone()),
                        ..ContactFilter::default()
                    };
                    let got: Vec<i64> = page(&db, &filter, ContactSort::Id, true, 1_000, 0)
                        .await
                        .unwrap()
                        .into_iter()
                        .map(|row| row.contact.id)
                        .collect();
                    assert_eq!(got, expected, "{term:?}");
                    assert_eq!(
                        count(&db, &filter).await.unwrap(),
                        expected.len() as i64,
                        "{term:?}"
                    );
                    // A part of the page sorted by another column tells the same total.
                    let part = page(&db, &filter, ContactSort::CompanyName, false, 3, 1)
                        .await
                        .unwrap();
                    assert_eq!(
                        part.len(),
                        expected.len().saturating_sub(1).min(3),
                        "{term:?}"
                    );
                    for row in part.iter().filter(|_| !needle.is_empty()) {
                        assert!(expected.contains(&row.contact.id), "{term:?}");
                        assert_eq!(row.total, Some(expected.len() as i64), "{term:?}");
                    }
                }
            }
        };
        let terms: Vec<String> = (0..250)
            .map(|_| term(&mut rng, &people, &companies))
            .collect();
        check(people.clone(), companies.clone(), terms.clone()).await;
        // The same from the contacts' texts kept in memory (`texts`), which answer every term
        // of three bytes or more here.
        texts::read_now(&t.db).await;
        let kept = texts::kept(&t.db).unwrap();
        assert_eq!(
            kept.find("kontakt000019"),
            texts::FoundInTexts::Ids(vec![people[19].0])
        );
        check(people.clone(), companies.clone(), terms).await;
        // Companies renamed and contacts added after the counts and texts were read: the
        // counts steer the lookup only, and the texts, older than the data now, are not used;
        // the answers follow the data.
        let mut old_names = Vec::new();
        for (number, name) in companies.iter_mut().take(10) {
            old_names.push(name.clone());
            *name = format!("Neu {}", company_name(&mut rng));
            upsert_company(&t.db, *number, name).await.unwrap();
        }
        for at in 160..200 {
            let mut new = add_person(&mut rng, at, &companies);
            new.lastname = "Zwölfer".to_string();
            let id = create_contact(&t.db, &new).await.unwrap().id;
            people.push(person_of(id, new));
        }
        let mut terms: Vec<String> = (0..150)
            .map(|_| term(&mut rng, &people, &companies))
            .collect();
        terms.extend(["zwölf", "neu ", "Neu M", "kontakt00019", "öl"].map(String::from));
        terms.extend(old_names);
        assert!(
            !matches!(kept.find("zwölfer"), texts::FoundInTexts::Ids(ref ids) if !ids.is_empty()),
            "the kept texts are older than the new contacts"
        );
        check(people.clone(), companies.clone(), terms.clone()).await;
        // Read again, the texts answer with the new data.
        texts::read_now(&t.db).await;
        assert!(
            matches!(texts::kept(&t.db).unwrap().find("zwölfer"), texts::FoundInTexts::Ids(ref ids) if ids.len() == 40)
        );
        check(people, companies, terms).await;
    }

    /// A sorted page of every contact waits for the texts and the order being read rather
    /// than sort every contact in the database. On the test's one thread the reads started
    /// below run only once the waiter yields: what the waiter gets, the reads' ends told it.
    #[tokio::test]
    async fn a_sorted_page_waits_for_the_texts_and_the_order_being_read() {
        let t = TestDb::new().await;
        upsert_company(&t.db, 300001, "Alpha KG").await.unwrap();
        for (n, name) in ["Weber", "Becker", "Schmidt"].into_iter().enumerate() {
            let mut new = new_contact(300001, &format!("w{n}@example.de"));
            new.lastname = name.to_string();
            create_contact(&t.db, &new).await.unwrap();
        }
        let within = std::time::Duration::from_secs(10);
        assert!(
            texts::kept(&t.db).is_none(),
            "the first look starts the read"
        );
        let started = std::time::Instant::now();
        let kept = texts::kept_waiting(&t.db, within)
            .await
            .expect("the texts the read under way brought");
        assert!(started.elapsed() < within, "woken by the read's end");
        let key = ContactSort::Lastname.column();
        assert!(orders::kept_order(&kept.orders, kept.version, &t.db, key).is_none());
        let order = orders::kept_order_waiting(&kept.orders, kept.version, &t.db, key, within)
            .await
            .expect("the order the read under way brought");
        let ids = |rows: Vec<ContactWithLists>| -> Vec<i64> {
            rows.into_iter().map(|row| row.contact.id).collect()
        };
        let sorted = page(
            &t.db,
            &ContactFilter::default(),
            ContactSort::Lastname,
            true,
            10,
            0,
        )
        .await
        .unwrap();
        assert_eq!(order.as_slice(), ids(sorted), "Becker, Schmidt, Weber");
    }

    /// A deep page (from `search::DEEP_PAGE` on: ids first, or a slice of the kept texts' ids
    /// or of a kept order) shows exactly the places of the whole list read at once, in every
    /// order and direction, also when the kept texts are older than the data (issue 41).
    #[tokio::test]
    async fn deep_pages_are_the_places_of_the_whole_list() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};

        let t = TestDb::new().await;
        let mut rng = StdRng::seed_from_u64(1_000);
        for (number, name) in [
            (300001, "Zeta AG"),
            (300002, "Alpha KG"),
            (300003, "Müller"),
        ] {
            upsert_company(&t.db, number, name).await.unwrap();
        }
        let names = ["Weber", "Schmidt", "Zoë", "Becker", "Öztürk"];
        for n in 0..1_150 {
            let mut new = new_contact(300001 + rng.gen_range(0..3), &format!("k{n:05}@example.de"));
            new.lastname = names[rng.gen_range(0..names.len())].to_string();
            new.double_opt_in = rng.gen_bool(0.5);
            create_contact(&t.db, &new).await.unwrap();
        }
        let everyone = ContactFilter::default();
        let ids_of = |rows: Vec<ContactWithLists>| -> Vec<i64> {
            rows.into_iter().map(|row| row.contact.id).collect()
        };
        let check = |step: &'static str| {
            let db = t.db.clone();
            let everyone = everyone.clone();
            async move {
                for sort in [
                    ContactSort::Id,
                    ContactSort::Email,
                    ContactSort::Lastname,
                    ContactSort::CompanyName,
                    ContactSort::DoubleOptIn,
                ] {
                    for ascending in [true, false] {
                        // The list as the plain statement reads it.
                        let direction = if ascending { "asc" } else { "desc" };
                        let plain = format!(
                            "select c.id from contacts c join companies co \
                             on co.customer_number = c.customer_number \
                             order by {} {direction}, c.id {direction}",
                            sort.column()
                        );
                        let whole: Vec<i64> = db_run!(&db, pool => {
                            sqlx::query_scalar(&plain).fetch_all(pool).await
                        })
                        .unwrap();
                        for offset in [0, 5, 999, 1_000, 1_003, 1_140, whole.len() as i64 - 1] {
                            let rows = page(&db, &everyone, sort, ascending, 7, offset)
                                .await
                                .unwrap();
                            if let Some(total) = rows.first().and_then(|row| row.total) {
                                assert_eq!(total, whole.len() as i64, "{step} {sort:?} {offset}");
                            }
                            let expected: Vec<i64> = whole
                                .iter()
                                .skip(offset as usize)
                                .take(7)
                                .copied()
                                .collect();
                            assert_eq!(
                                ids_of(rows),
                                expected,
                                "{step}: {sort:?} ascending {ascending} at {offset}"
                            );
                        }
                        let past = page(&db, &everyone, sort, ascending, 7, whole.len() as i64)
                            .await
                            .unwrap();
                        assert!(past.is_empty(), "{step} {sort:?}");
                    }
                }
            }
        };
        check("from the database").await;
        texts::read_now(&t.db).await;
        let kept = texts::kept(&t.db).unwrap();
        for sort in [
            ContactSort::Email,
            ContactSort::Lastname,
            ContactSort::CompanyName,
        ] {
            orders::read_now(&kept.orders, kept.version, &t.db, sort.column()).await;
        }
        check("with the kept texts and orders").await;
        // Contacts gone and added after the texts were read: their ids are no longer the
        // list, and the pages follow the data.
        let doomed = ids_of(
            page(&t.db, &everyone, ContactSort::Id, true, 10, 1_010)
                .await
                .unwrap(),
        );
        for id in doomed {
            delete_contact(&t.db, id, &crate::test_support::cli_change())
                .await
                .unwrap();
        }
        create_contact(&t.db, &new_contact(300002, "neu@example.de"))
            .await
            .unwrap();
        check("after changes").await;
    }

    /// The kept totals (migration 0014) agree with counting the contacts through inserts,
    /// changes of consent and block, one statement changing many rows, and deletes.
    #[tokio::test]
    async fn the_kept_totals_follow_every_change() {
        let t = TestDb::new().await;
        let agree = |step: &'static str| {
            let db = &t.db;
            async move {
                let counted: (i64, i64, i64) = db_run!(db, pool => {
                    sqlx::query_as(
                        "select count(*), \
                         coalesce(sum(case when double_opt_in = false \
                             and email_blacklisted = false then 1 else 0 end), 0), \
                         coalesce(sum(case when double_opt_in = false then 1 else 0 end), 0) \
                         from contacts",
                    )
                    .fetch_one(pool)
                    .await
                })
                .unwrap();
                let everyone = count(db, &ContactFilter::default()).await.unwrap();
                let (reachable, unconfirmed) = pending_counts(db).await.unwrap();
                assert_eq!((everyone, reachable, unconfirmed), counted, "{step}");
                counted
            }
        };
        assert_eq!(agree("empty").await, (0, 0, 0));
        upsert_company(&t.db, 100001, "Müller GmbH").await.unwrap();
        let mut ids = Vec::new();
        for n in 0..6 {
            let mut new = new_contact(100001, &format!("k{n}@example.de"));
            new.double_opt_in = n % 3 == 0;
            ids.push(create_contact(&t.db, &new).await.unwrap().id);
        }
        assert_eq!(agree("created").await, (6, 4, 4));
        let run = |sql: String| {
            let db = &t.db;
            async move {
                db_run!(db, pool => sqlx::raw_sql(&sql).execute(pool).await.map(|_| ())).unwrap()
            }
        };
        run(format!(
            "update contacts set email_blacklisted = true where id = {}",
            ids[1]
        ))
        .await;
        assert_eq!(agree("blocked").await, (6, 3, 4));
        run(format!(
            "update contacts set double_opt_in = true where id = {}",
            ids[1]
        ))
        .await;
        assert_eq!(agree("confirmed").await, (6, 3, 3));
        run("update contacts set double_opt_in = false, email_blacklisted = false".into()).await;
        assert_eq!(agree("all reset").await, (6, 6, 6));
        run(format!(
            "delete from contacts where id in ({}, {})",
            ids[0], ids[5]
        ))
        .await;
        assert_eq!(agree("deleted").await, (4, 4, 4));
        run("delete from contacts".into()).await;
        assert_eq!(agree("none left").await, (0, 0, 0));
        // A search is still counted, not read from the totals.
        assert!(
            !ContactFilter {
                search: Some("k1".into()),
                ..ContactFilter::default()
            }
            .is_everyone()
        );
    }

    #[tokio::test]
    async fn contact_round_trip_normalises_email() {
        let t = TestDb::new().await;
        upsert_company(&t.db, 100001, "Müller GmbH").await.unwrap();
        let mut new = new_contact(100001, "  Juergen.Mueller@Example.DE ");
        new.double_opt_in = true;
        new.brevo_contact_id = Some(77);
        let created = create_contact(&t.db, &new).await.unwrap();
        assert_eq!(created.email, "juergen.mueller@example.de");
        assert!(created.double_opt_in);
        assert!(created.double_opt_in_at.is_some());

        let got = get_contact(&t.db, created.id).await.unwrap().unwrap();
        assert_eq!(got.firstname, "Jürgen");
        assert_eq!(got.lastname, "Müller-Lüdenscheidt");
        assert_eq!(got.salutation, salutation::FRAU);
        assert_eq!(got.extern_id.as_deref(), Some("AP-4711"));
        assert_eq!(got.brevo_contact_id, Some(77));
        assert_eq!(got.double_opt_in_at, created.double_opt_in_at);
        assert!(!got.email_blacklisted);
        let by_email = find_contact_by_email(&t.db, "JUERGEN.mueller@example.de")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(by_email.id, created.id);

        let pending = create_contact(&t.db, &new_contact(100001, "b@example.de"))
            .await
            .unwrap();
        assert!(!pending.double_opt_in);
        assert!(pending.double_opt_in_at.is_none());
        let all = list_by_customer_number(&t.db, 100001).await.unwrap();
        assert_eq!(
            all.iter().map(|c| c.id).collect::<Vec<_>>(),
            vec![created.id, pending.id]
        );
        assert!(
            list_by_customer_number(&t.db, 999)
                .await
                .unwrap()
                .is_empty()
        );
    }

    #[tokio::test]
    async fn contact_constraints() {
        let t = TestDb::new().await;
        upsert_company(&t.db, 100001, "Müller GmbH").await.unwrap();
        create_contact(&t.db, &new_contact(100001, "a@example.de"))
            .await
            .unwrap();
        // Same address in another spelling.
        let err = create_contact(&t.db, &new_contact(100001, "A@Example.de"))
            .await
            .unwrap_err();
        assert!(is_unique_violation(&err), "{err:?}");
        // Unknown customer group.
        let err = create_contact(&t.db, &new_contact(555, "c@example.de"))
            .await
            .unwrap_err();
        assert!(is_foreign_key_violation(&err), "{err:?}");
        // Salutation out of range.
        let mut bad = new_contact(100001, "d@example.de");
        bad.salutation = 5;
        assert!(create_contact(&t.db, &bad).await.is_err());
        // A company with contacts cannot be deleted.
        let deleted = db_run!(&t.db, pool => {
            sqlx::query("delete from companies where customer_number = 100001")
                .execute(pool)
                .await
                .map(|_| ())
        });
        assert!(deleted.is_err());
    }

    #[tokio::test]
    async fn list_assignment_is_replaced_atomically() {
        let t = TestDb::new().await;
        upsert_company(&t.db, 100001, "Müller GmbH").await.unwrap();
        let contact = create_contact(&t.db, &new_contact(100001, "a@example.de"))
            .await
            .unwrap();
        let (l1, l2) = two_lists(&t).await;

        assert!(set_lists(&t.db, contact.id, &[l2, l1, l2]).await.unwrap());
        assert_eq!(
            list_ids_of_contact(&t.db, contact.id).await.unwrap(),
            vec![l1, l2]
        );

        // An unknown list id fails and leaves the previous assignment untouched.
        let err = set_lists(&t.db, contact.id, &[l1, 987_654])
            .await
            .unwrap_err();
        assert!(is_foreign_key_violation(&err), "{err:?}");
        assert_eq!(
            list_ids_of_contact(&t.db, contact.id).await.unwrap(),
            vec![l1, l2]
        );

        assert!(set_lists(&t.db, contact.id, &[l2]).await.unwrap());
        assert_eq!(
            list_ids_of_contact(&t.db, contact.id).await.unwrap(),
            vec![l2]
        );
        assert!(!set_lists(&t.db, 987_654, &[l1]).await.unwrap());

        // Deleting a list removes its assignments; deleting the contact removes the rest.
        assert!(
            lists::delete(&t.db, l2, &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        assert!(
            list_ids_of_contact(&t.db, contact.id)
                .await
                .unwrap()
                .is_empty()
        );
        set_lists(&t.db, contact.id, &[l1]).await.unwrap();
        assert!(
            delete_contact(&t.db, contact.id, &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        assert!(
            list_ids_of_contact(&t.db, contact.id)
                .await
                .unwrap()
                .is_empty()
        );
    }
}
