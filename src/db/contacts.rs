//! Customer groups (`companies`), their contacts (`contacts`) and the criteria (lists) a contact
//! is assigned to (`contact_lists`).

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{Db, dedup_keep_order, now};
use crate::db_run;

macro_rules! contact_columns {
    () => {
        "id, customer_number, brevo_contact_id, email, salutation, firstname, lastname, \
         extern_id, double_opt_in, double_opt_in_at, double_opt_in_token, email_blacklisted, \
         created_at, updated_at"
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
    /// The secret of the confirmation link; never serialised.
    #[serde(skip_serializing)]
    pub double_opt_in_token: Option<String>,
    pub email_blacklisted: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
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

/// The form in which emails are stored and compared: trimmed, lower-case.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

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
pub async fn create_contact(db: &Db, new: &NewContact) -> Result<Contact, sqlx::Error> {
    let now = now();
    let email = normalize_email(&new.email);
    let confirmed_at = new.double_opt_in.then_some(now);
    db_run!(db, pool => {
        sqlx::query_as::<_, Contact>(concat!(
            "insert into contacts (customer_number, brevo_contact_id, email, salutation, \
             firstname, lastname, extern_id, double_opt_in, double_opt_in_at, \
             email_blacklisted, created_at, updated_at) \
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) returning ",
            contact_columns!()
        ))
        .bind(new.customer_number)
        .bind(new.brevo_contact_id)
        .bind(&email)
        .bind(new.salutation)
        .bind(&new.firstname)
        .bind(&new.lastname)
        .bind(&new.extern_id)
        .bind(new.double_opt_in)
        .bind(confirmed_at)
        .bind(new.email_blacklisted)
        .bind(now)
        .fetch_one(pool)
        .await
    })
}

pub async fn get_contact(db: &Db, id: i64) -> Result<Option<Contact>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, Contact>(concat!(
            "select ",
            contact_columns!(),
            " from contacts where id = $1"
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
            " from contacts where email = $1"
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
            " from contacts where customer_number = $1 order by id"
        ))
        .bind(customer_number)
        .fetch_all(pool)
        .await
    })
}

/// Deletes a contact (its list assignments go with it). False when it did not exist.
pub async fn delete_contact(db: &Db, id: i64) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query("delete from contacts where id = $1")
            .bind(id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
}

/// Replaces the lists a contact is assigned to, in one transaction. False when the contact does
/// not exist; an unknown list id fails with a foreign-key violation and changes nothing.
pub async fn set_lists(db: &Db, contact_id: i64, list_ids: &[i64]) -> Result<bool, sqlx::Error> {
    let now = now();
    let list_ids = dedup_keep_order(list_ids);
    db_run!(db, pool => {
        let mut tx = pool.begin().await?;
        let found = sqlx::query("update contacts set updated_at = $2 where id = $1")
            .bind(contact_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if found == 0 {
            return Ok(false);
        }
        sqlx::query("delete from contact_lists where contact_id = $1")
            .bind(contact_id)
            .execute(&mut *tx)
            .await?;
        for list_id in &list_ids {
            sqlx::query(
                "insert into contact_lists (contact_id, list_id, created_at, updated_at) \
                 values ($1, $2, $3, $3)",
            )
            .bind(contact_id)
            .bind(list_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
    });
    Ok(true)
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{is_foreign_key_violation, is_unique_violation, lists, providers};
    use crate::test_support::TestDb;

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
        )
        .await
        .unwrap();
        let mut ids = Vec::new();
        for name in ["Privatkunden Süd", "Geschäftskunden Süd"] {
            let list = lists::create(
                &t.db,
                &lists::NewList {
                    provider_id: provider.id,
                    name: name.to_string(),
                    brevo_list_id: None,
                    active: true,
                },
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
        assert!(created.double_opt_in_token.is_none());

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
        assert!(lists::delete(&t.db, l2).await.unwrap());
        assert!(
            list_ids_of_contact(&t.db, contact.id)
                .await
                .unwrap()
                .is_empty()
        );
        set_lists(&t.db, contact.id, &[l1]).await.unwrap();
        assert!(delete_contact(&t.db, contact.id).await.unwrap());
        assert!(
            list_ids_of_contact(&t.db, contact.id)
                .await
                .unwrap()
                .is_empty()
        );
    }
}
