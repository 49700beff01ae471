//! A customer group's edit (the contact editor) written as one transaction: the company, the
//! removed, changed and new contacts, and the lists of every contact of the group.

use chrono::{DateTime, Utc};

use crate::db::Db;
use crate::db::contacts::{ContactChange, NewContact};
use crate::db_run;
use crate::domain::audit::{Entity, Entry};
use crate::domain::contacts::normalize_email;

/// Everything one save of the contact editor writes.
#[derive(Debug, Default)]
pub struct GroupEdit {
    pub customer_number: i64,
    pub company_name: String,
    /// Contacts of the group to delete.
    pub remove: Vec<i64>,
    /// Contacts of the group to change.
    pub change: Vec<(i64, ContactChange)>,
    pub create: Vec<NewContact>,
    /// Lists every contact of the group is put on.
    pub add_lists: Vec<i64>,
    /// Lists every contact of the group is taken off.
    pub remove_lists: Vec<i64>,
}

/// Writes the edit, all of it or nothing. A changed address ends the consent of the old one. `Ok(false)` when a contact to change or remove is no
/// longer in the group (someone else changed it meanwhile): nothing is written then.
/// `audit` is written with it.
pub async fn apply(
    db: &Db,
    edit: &GroupEdit,
    now: DateTime<Utc>,
    audit: &Entry,
) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        sqlx::query(crate::db::contacts::UPSERT_COMPANY)
        .bind(edit.customer_number)
        .bind(&edit.company_name)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for id in &edit.remove {
            let gone = sqlx::query("delete from contacts where id = $1 and customer_number = $2")
                .bind(id)
                .bind(edit.customer_number)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if gone == 0 {
                return Ok(false);
            }
        }
        for (id, change) in &edit.change {
            // The change's customer number is the group's (services::contacts::customer_groups).
            debug_assert_eq!(change.customer_number, edit.customer_number);
            if update_contact!(tx, *id, change, now, in_group) == 0 {
                return Ok(false);
            }
        }
        for new in &edit.create {
            sqlx::query(
                "insert into contacts (customer_number, brevo_contact_id, email, salutation, \
                 firstname, lastname, extern_id, double_opt_in, email_blacklisted, \
                 created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, false, false, \
                 $8, $8)",
            )
            .bind(edit.customer_number)
            .bind(new.brevo_contact_id)
            .bind(normalize_email(&new.email))
            .bind(new.salutation)
            .bind(&new.firstname)
            .bind(&new.lastname)
            .bind(&new.extern_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        for list_id in &edit.remove_lists {
            sqlx::query(
                "delete from contact_lists where list_id = $1 and contact_id in \
                 (select id from contacts where customer_number = $2)",
            )
            .bind(list_id)
            .bind(edit.customer_number)
            .execute(&mut *tx)
            .await?;
        }
        for list_id in &edit.add_lists {
            sqlx::query(
                "insert into contact_lists (contact_id, list_id, created_at, updated_at) \
                 select id, $1, $3, $3 from contacts where customer_number = $2 \
                 on conflict (contact_id, list_id) do nothing",
            )
            .bind(list_id)
            .bind(edit.customer_number)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        crate::db::insight::audit::record!(tx, audit)?;
        tx.commit().await?;
        Ok(true)
    })
}

/// A customer group a person changed, as the contact editor's start page lists it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ChangedGroup {
    pub customer_number: i64,
    /// The company's current name; `None` when the company is gone.
    pub company_name: Option<String>,
    /// The person's last change of it.
    pub changed_at: DateTime<Utc>,
}

/// The customer groups `actor` (an audit log actor) changed last, newest change first, each
/// once, at most `limit`: read from the audit log's `customerGroup` entries.
pub async fn changed_last_by(
    db: &Db,
    actor: &str,
    limit: i64,
) -> Result<Vec<ChangedGroup>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, ChangedGroup>(
            "select g.customer_number, c.company_name, g.changed_at from ( \
             select entity_id as customer_number, max(at) as changed_at from audit_log \
             where entity = $1 and actor = $2 and entity_id is not null group by entity_id \
             ) g left join companies c on c.customer_number = g.customer_number \
             order by g.changed_at desc, g.customer_number limit $3",
        )
        .bind(Entity::CustomerGroup.as_str())
        .bind(actor)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}
