//! The contact sync from Brevo (`brevo_syncs`): one row per run, held by a lease so that one
//! run goes on at a time across instances, and resumable at `next_offset` after a crash. The
//! contacts of a page are written in one transaction (`apply_page`).

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

use std::collections::HashSet;

use crate::db::Db;
use crate::db::bulk::link_lists;
use crate::db_run;
use crate::domain::audit::{Changes, Entry};
use crate::domain::contacts::normalize_email;
use serde_json::Value;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncRun {
    pub id: i64,
    /// `running` or `done`.
    pub status: String,
    /// The run takes Brevo's contacts changed after this instant (all when `None`).
    pub modified_since: Option<DateTime<Utc>>,
    pub next_offset: i64,
    pub created: i64,
    pub updated: i64,
    pub unchanged: i64,
    pub skipped: i64,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

macro_rules! run_columns {
    () => {
        "id, status, modified_since, next_offset, created, updated, unchanged, skipped, \
         started_at, finished_at"
    };
}

/// How far a run has come (the counters written with each page).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SyncProgress {
    pub next_offset: i64,
    pub created: i64,
    pub updated: i64,
    pub unchanged: i64,
    pub skipped: i64,
}

/// Why a new run could not start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acquired {
    /// A new run (`false`) or an interrupted one taken over (`true`).
    Run(bool),
    /// Another holder's lease is still running.
    Busy,
}

/// Takes the interrupted run whose lease ran out, or starts a new one that takes what Brevo
/// changed since the start of the last completed run (less `overlap`, for clocks that differ).
pub async fn acquire(
    db: &Db,
    owner: &str,
    now: DateTime<Utc>,
    lease: Duration,
    overlap: Duration,
) -> Result<(Acquired, Option<SyncRun>), sqlx::Error> {
    let until = now + lease;
    let taken = db_run!(db, pool => {
        sqlx::query_as::<_, SyncRun>(concat!(
            "update brevo_syncs set lease_owner = $1, lease_until = $2, updated_at = $3 \
             where status = 'running' and (lease_until is null or lease_until < $3) returning ",
            run_columns!()
        ))
        .bind(owner)
        .bind(until)
        .bind(now)
        .fetch_optional(pool)
        .await?
    });
    if let Some(run) = taken {
        return Ok((Acquired::Run(true), Some(run)));
    }
    let inserted = db_run!(db, pool => {
        let last: Option<DateTime<Utc>> = sqlx::query_scalar(
            "select started_at from brevo_syncs where status = 'done' \
             order by finished_at desc limit 1",
        )
        .fetch_optional(pool)
        .await?;
        sqlx::query_as::<_, SyncRun>(concat!(
            "insert into brevo_syncs (status, modified_since, lease_owner, lease_until, \
             started_at, created_at, updated_at) values ('running', $1, $2, $3, $4, $4, $4) \
             returning ",
            run_columns!()
        ))
        .bind(last.map(|at| at - overlap))
        .bind(owner)
        .bind(until)
        .bind(now)
        .fetch_one(pool)
        .await
    });
    match inserted {
        Ok(run) => Ok((Acquired::Run(false), Some(run))),
        // The partial unique index: another run is going on (its lease is alive).
        Err(err) if crate::db::is_unique_violation(&err) => Ok((Acquired::Busy, None)),
        Err(err) => Err(err),
    }
}

/// Records a page's progress and extends the lease; false when the lease was lost (another
/// holder took the run over), in which case this holder must stop.
pub async fn advance(
    db: &Db,
    id: i64,
    owner: &str,
    progress: SyncProgress,
    now: DateTime<Utc>,
    lease: Duration,
) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query(
            "update brevo_syncs set next_offset = $3, created = $4, updated = $5, \
             unchanged = $6, skipped = $7, lease_until = $8, updated_at = $9 \
             where id = $1 and lease_owner = $2 and status = 'running'",
        )
        .bind(id)
        .bind(owner)
        .bind(progress.next_offset)
        .bind(progress.created)
        .bind(progress.updated)
        .bind(progress.unchanged)
        .bind(progress.skipped)
        .bind(now + lease)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(done > 0)
}

/// Ends the run: the next one takes what changed since this one started.
pub async fn finish(
    db: &Db,
    id: i64,
    owner: &str,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query(
            "update brevo_syncs set status = 'done', finished_at = $3, lease_owner = null, \
             lease_until = null, updated_at = $3 \
             where id = $1 and lease_owner = $2 and status = 'running'",
        )
        .bind(id)
        .bind(owner)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(done > 0)
}

/// Gives the lease back after an error: the next start resumes the run at once.
pub async fn release(db: &Db, id: i64, owner: &str, now: DateTime<Utc>) -> Result<(), sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query(
            "update brevo_syncs set lease_owner = null, lease_until = null, updated_at = $3 \
             where id = $1 and lease_owner = $2",
        )
        .bind(id)
        .bind(owner)
        .bind(now)
        .execute(pool)
        .await
        .map(drop)
    })
}

/// The newest run, for the sync manager.
pub async fn latest(db: &Db) -> Result<Option<SyncRun>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, SyncRun>(concat!(
            "select ", run_columns!(), " from brevo_syncs order by id desc limit 1"
        ))
        .fetch_optional(pool)
        .await
    })
}

/// A Brevo contact as the portal takes it over.
#[derive(Debug, Clone)]
pub struct SyncedContact {
    pub brevo_id: i64,
    pub email: String,
    pub customer_number: i64,
    /// The company's name when Brevo has one (else an existing company keeps its name).
    pub company_name: Option<String>,
    pub salutation: i16,
    pub firstname: String,
    pub lastname: String,
    pub blacklisted: bool,
    /// Brevo says the contact confirmed (a confirmation is never taken back by a sync, but a
    /// new address starts unconfirmed: the confirmation was the old address's).
    pub double_opt_in: bool,
    /// Our lists the contact is on in Brevo (of `known_lists`).
    pub list_ids: Vec<i64>,
}

/// What a page did with one contact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContactSyncOutcome {
    Created,
    Updated,
    Unchanged,
    /// Not taken, and why (German).
    Skipped(String),
}

/// The row of ours a synced contact is compared with.
#[derive(sqlx::FromRow)]
struct Existing {
    id: i64,
    brevo_contact_id: Option<i64>,
    email: String,
    customer_number: i64,
    salutation: i16,
    firstname: String,
    lastname: String,
    email_blacklisted: bool,
    double_opt_in: bool,
}

/// What one page did.
#[derive(Debug, Default)]
pub struct PageApplied {
    /// One per synced contact, in order.
    pub outcomes: Vec<ContactSyncOutcome>,
    /// Brevo ids of contacts whose address changed while Brevo still says they confirmed:
    /// Brevo must be told that the new address has not confirmed.
    pub consent_ended: Vec<i64>,
}

/// The contact of ours a synced contact is: found by its Brevo id, else by its address.
/// Evaluates to `Err` with the German reason when the two point at different contacts, or the
/// address belongs to a contact linked to another Brevo contact.
macro_rules! existing_contact {
    ($tx:expr, $synced:expr, $email:expr) => {{
        let (synced, email, tx): (&SyncedContact, &str, _) = ($synced, $email, &mut $tx);
        let by_id = sqlx::query_as::<_, Existing>(
            "select id, brevo_contact_id, email, customer_number, salutation, firstname, \
             lastname, email_blacklisted, double_opt_in from contacts \
             where brevo_contact_id = $1",
        )
        .bind(synced.brevo_id)
        .fetch_optional(&mut **tx)
        .await?;
        let by_email = sqlx::query_as::<_, Existing>(
            "select id, brevo_contact_id, email, customer_number, salutation, firstname, \
             lastname, email_blacklisted, double_opt_in from contacts where email = $1",
        )
        .bind(email)
        .fetch_optional(&mut **tx)
        .await?;
        match (by_id, by_email) {
            (Some(a), Some(b)) if a.id != b.id => Err(format!(
                "{email}: die E-Mail gehört im Portal einem anderen Kontakt."
            )),
            (Some(a), _) => Ok(Some(a)),
            (None, Some(b)) => {
                if b.brevo_contact_id.is_some_and(|id| id != synced.brevo_id) {
                    Err(format!(
                        "{email}: im Portal mit einem anderen Brevo-Kontakt verknüpft."
                    ))
                } else {
                    Ok(Some(b))
                }
            }
            (None, None) => Ok(None),
        }
    }};
}

/// Creates the company of a synced contact when it does not exist yet (named after Brevo,
/// else "Kunde {number}"), or renames it after Brevo.
macro_rules! ensure_company {
    ($tx:expr, $synced:expr, $now:expr) => {{
        let (synced, now, tx) = ($synced, $now, &mut $tx);
        let company_name = match &synced.company_name {
            Some(name) => Some(name.clone()),
            None => {
                let known: Option<String> = sqlx::query_scalar(
                    "select company_name from companies where customer_number = $1",
                )
                .bind(synced.customer_number)
                .fetch_optional(&mut **tx)
                .await?;
                match known {
                    Some(_) => None,
                    None => Some(format!("Kunde {}", synced.customer_number)),
                }
            }
        };
        if let Some(name) = &company_name {
            sqlx::query(crate::db::contacts::UPSERT_COMPANY)
                .bind(synced.customer_number)
                .bind(name)
                .bind(now)
                .execute(&mut **tx)
                .await?;
        }
    }};
}

/// Creates the synced contact or brings ours to Brevo's state; a new address ends the old
/// one's consent (and, when Brevo says it confirmed, is noted in `$consent_ended`, since
/// Brevo must learn that it has not). Evaluates to the contact's id and what was done.
macro_rules! write_synced_contact {
    ($tx:expr, $synced:expr, $email:expr, $existing:expr, $now:expr, $consent_ended:expr) => {{
        let (synced, email, now, tx): (&SyncedContact, &str, DateTime<Utc>, _) =
            ($synced, $email, $now, &mut $tx);
        match $existing {
            None => {
                let id: i64 = sqlx::query_scalar(
                    "insert into contacts (customer_number, brevo_contact_id, email, \
                     salutation, firstname, lastname, extern_id, double_opt_in, \
                     double_opt_in_at, email_blacklisted, created_at, updated_at) \
                     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) \
                     returning id",
                )
                .bind(synced.customer_number)
                .bind(synced.brevo_id)
                .bind(email)
                .bind(synced.salutation)
                .bind(&synced.firstname)
                .bind(&synced.lastname)
                .bind(synced.brevo_id.to_string())
                .bind(synced.double_opt_in)
                .bind(synced.double_opt_in.then_some(now))
                .bind(synced.blacklisted)
                .bind(now)
                .fetch_one(&mut **tx)
                .await?;
                (id, ContactSyncOutcome::Created)
            }
            Some(old) => {
                let new_address = old.email != email;
                let confirmed = !new_address && (old.double_opt_in || synced.double_opt_in);
                if new_address {
                    for sql in crate::db::contacts::END_CONSENT_OF_OLD_ADDRESS {
                        sqlx::query(sql)
                            .bind(old.id)
                            .bind(email)
                            .execute(&mut **tx)
                            .await?;
                    }
                    if synced.double_opt_in {
                        $consent_ended.push(synced.brevo_id);
                    }
                }
                let same = old.brevo_contact_id == Some(synced.brevo_id)
                    && old.email == email
                    && old.customer_number == synced.customer_number
                    && old.salutation == synced.salutation
                    && old.firstname == synced.firstname
                    && old.lastname == synced.lastname
                    && old.email_blacklisted == synced.blacklisted
                    && old.double_opt_in == confirmed;
                if !same {
                    sqlx::query(
                        "update contacts set brevo_contact_id = $2, extern_id = $3, \
                         email = $4, customer_number = $5, salutation = $6, \
                         firstname = $7, lastname = $8, email_blacklisted = $9, \
                         double_opt_in = $10, \
                         double_opt_in_at = case when $10 and not double_opt_in \
                         then $11 else double_opt_in_at end, updated_at = $11 \
                         where id = $1",
                    )
                    .bind(old.id)
                    .bind(synced.brevo_id)
                    .bind(synced.brevo_id.to_string())
                    .bind(email)
                    .bind(synced.customer_number)
                    .bind(synced.salutation)
                    .bind(&synced.firstname)
                    .bind(&synced.lastname)
                    .bind(synced.blacklisted)
                    .bind(confirmed)
                    .bind(now)
                    .execute(&mut **tx)
                    .await?;
                }
                (
                    old.id,
                    if same {
                        ContactSyncOutcome::Unchanged
                    } else {
                        ContactSyncOutcome::Updated
                    },
                )
            }
        }
    }};
}

/// Makes contact `$id`'s memberships of `$known_lists` (our lists that are in Brevo) those
/// Brevo says; other lists stay. Evaluates to whether any changed.
macro_rules! sync_memberships {
    ($tx:expr, $id:expr, $synced:expr, $known_lists:expr, $now:expr) => {{
        let (id, synced, known_lists, now, tx) = ($id, $synced, $known_lists, $now, &mut $tx);
        let current: Vec<i64> =
            sqlx::query_scalar("select list_id from contact_lists where contact_id = $1")
                .bind(id)
                .fetch_all(&mut **tx)
                .await?;
        let add: Vec<&i64> = synced
            .list_ids
            .iter()
            .filter(|l| !current.contains(l))
            .collect();
        let remove = current
            .iter()
            .filter(|l| known_lists.contains(l) && !synced.list_ids.contains(l));
        let mut lists_changed = !add.is_empty();
        link_lists!(*tx, contact id, add, now);
        for list_id in remove {
            sqlx::query("delete from contact_lists where contact_id = $1 and list_id = $2")
                .bind(id)
                .bind(list_id)
                .execute(&mut **tx)
                .await?;
            lists_changed = true;
        }
        lists_changed
    }};
}

/// Writes one page of synced contacts in one transaction: each is found by its Brevo id, else
/// by email, and created or brought to Brevo's state; its memberships of `known_lists` (our
/// lists that are in Brevo) become those of Brevo, other lists stay. A company that does not
/// exist yet is created (named after Brevo, else "Kunde {number}"). A contact whose address
/// changes loses its confirmation and its links. `audit` (the run) is written with the page's
/// counts when the page changed anything.
pub async fn apply_page(
    db: &Db,
    contacts: &[SyncedContact],
    known_lists: &HashSet<i64>,
    now: DateTime<Utc>,
    audit: &Entry,
) -> Result<PageApplied, sqlx::Error> {
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let mut outcomes = Vec::with_capacity(contacts.len());
        let mut consent_ended = Vec::new();
        for synced in contacts {
            let email = normalize_email(&synced.email);
            let existing = match existing_contact!(tx, synced, &email) {
                Ok(existing) => existing,
                Err(why) => {
                    outcomes.push(ContactSyncOutcome::Skipped(why));
                    continue;
                }
            };
            ensure_company!(tx, synced, now);
            let (id, mut outcome) =
                write_synced_contact!(tx, synced, &email, existing, now, consent_ended);
            if sync_memberships!(tx, id, synced, known_lists, now)
                && outcome == ContactSyncOutcome::Unchanged
            {
                outcome = ContactSyncOutcome::Updated;
            }
            outcomes.push(outcome);
        }
        let count = |wanted: fn(&ContactSyncOutcome) -> bool| outcomes.iter().filter(|o| wanted(o)).count();
        let created = count(|o| matches!(o, ContactSyncOutcome::Created));
        let updated = count(|o| matches!(o, ContactSyncOutcome::Updated));
        if created + updated > 0 {
            let page = audit.clone().with_changes(
                Changes::none()
                    .field("contactsCreated", Value::Null, created)
                    .field("contactsUpdated", Value::Null, updated),
            );
            crate::db::insight::audit::record!(tx, &page)?;
        }
        tx.commit().await?;
        Ok(PageApplied {
            outcomes,
            consent_ended,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::contacts::{
        NewContact, create_contact, get_company, get_contact, upsert_company,
    };
    use crate::domain::audit::{Action, Actor, Entity};
    use crate::test_support::TestDb;

    fn synced(brevo_id: i64, email: &str, customer_number: i64) -> SyncedContact {
        SyncedContact {
            brevo_id,
            email: email.into(),
            customer_number,
            company_name: None,
            salutation: 0,
            firstname: "Anna".into(),
            lastname: "Berg".into(),
            blacklisted: false,
            double_opt_in: true,
            list_ids: Vec::new(),
        }
    }

    async fn ours(t: &TestDb, email: &str, brevo_id: Option<i64>) -> i64 {
        upsert_company(&t.db, 100_001, "Berg GmbH").await.unwrap();
        let new = NewContact {
            customer_number: 100_001,
            brevo_contact_id: brevo_id,
            email: email.into(),
            salutation: 0,
            firstname: "Anna".into(),
            lastname: "Berg".into(),
            extern_id: None,
            double_opt_in: true,
            email_blacklisted: false,
        };
        create_contact(&t.db, &new).await.unwrap().id
    }

    /// The page's paths each once: a contact linked to another Brevo contact is skipped with
    /// its reason, a new address ends the old one's confirmation (and Brevo is to be told), and
    /// a customer without a company gets "Kunde {number}".
    #[tokio::test]
    async fn a_page_skips_foreign_links_ends_old_consent_and_names_new_customers() {
        let t = TestDb::new().await;
        ours(&t, "linked@example.de", Some(900)).await;
        let moved = ours(&t, "alt@example.de", Some(901)).await;
        let page = [
            synced(902, "linked@example.de", 100_001),
            synced(901, "Neu@Example.de", 100_001),
            synced(903, "frisch@example.de", 100_777),
        ];
        let audit = Entry::new(&Actor::System, Action::Sync, Entity::Sync, None);
        let applied = apply_page(&t.db, &page, &HashSet::new(), crate::db::now(), &audit)
            .await
            .unwrap();
        assert_eq!(
            applied.outcomes,
            [
                ContactSyncOutcome::Skipped(
                    "linked@example.de: im Portal mit einem anderen Brevo-Kontakt verknüpft."
                        .into()
                ),
                ContactSyncOutcome::Updated,
                ContactSyncOutcome::Created,
            ]
        );
        assert_eq!(applied.consent_ended, [901]);
        let moved = get_contact(&t.db, moved).await.unwrap().unwrap();
        assert_eq!(moved.email, "neu@example.de");
        assert!(
            !moved.double_opt_in,
            "the confirmation was the old address's"
        );
        let named = get_company(&t.db, 100_777).await.unwrap().unwrap();
        assert_eq!(named.company_name, "Kunde 100777");
    }
}
