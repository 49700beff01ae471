//! Erasure of a contact (issue 25, DSGVO Art. 17) in one transaction: the contact, the rows
//! of every [`Place`] that keeps something about it (list memberships, double opt-in links,
//! mails of mail jobs, unsubscribe links, changes for the marketing service still waiting for
//! it, import candidates with its address, the files its customer number took when its group
//! goes), its customer group when it was the last one there, and its personal values in the
//! audit log (`domain::erasure`). Either all of it goes or nothing.
//! The data export reads the same places ([`stored_about`]) before anything goes.

use crate::db::Db;
use crate::db::sql::Param;
use crate::db::tx::Tx;
use crate::domain::audit::Entry;
use crate::domain::erasure::{Person, Rewrite};

/// How much an erasure removed, for the answer and the log.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Erased {
    /// List memberships.
    pub lists: u64,
    /// Double opt-in links.
    pub tokens: u64,
    /// Mails of mail jobs (their record, not the mails sent).
    pub mails: u64,
    /// Unsubscribe links of the package mails sent to it.
    pub unsubscribe_links: u64,
    /// Changes for the marketing service that were still waiting.
    pub marketing_retries: u64,
    /// Import candidates of the planning system with the address.
    pub planning_candidates: u64,
    /// Files its customer number took, kept for the notice before a package's end; only when
    /// the customer group goes too (else they are the other contacts' as well).
    pub package_takers: u64,
    /// Whether the customer group went too (no other contact was in it).
    pub customer_group: bool,
    /// Audit entries whose personal values became "gelöscht".
    pub audit_entries: u64,
}

/// A place where the portal keeps something about a contact besides its own row. The data
/// export reads every place and the erasure deletes every place, through the same
/// [`Place::condition`]: one list, so the two cannot drift apart (issue 34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    Lists,
    Tokens,
    Mails,
    /// The unsubscribe links of the package mails sent to it (issue 37).
    UnsubscribeLinks,
    MarketingRetries,
    PlanningCandidates,
    /// The files its customer number took, for the notice before a package's end (issue 37).
    PackageTakers,
}

impl Place {
    pub const ALL: [Place; 7] = [
        Place::Lists,
        Place::Tokens,
        Place::Mails,
        Place::UnsubscribeLinks,
        Place::MarketingRetries,
        Place::PlanningCandidates,
        Place::PackageTakers,
    ];

    /// The name in the export (`stored`) and in the erasure's report.
    pub fn name(self) -> &'static str {
        match self {
            Place::Lists => "lists",
            Place::Tokens => "tokens",
            Place::Mails => "mails",
            Place::UnsubscribeLinks => "unsubscribeLinks",
            Place::MarketingRetries => "marketingRetries",
            Place::PlanningCandidates => "planningCandidates",
            Place::PackageTakers => "packageTakers",
        }
    }

    fn table(self) -> &'static str {
        match self {
            Place::Lists => "contact_lists",
            Place::Tokens => "double_opt_in_tokens",
            Place::Mails => "mail_job_items",
            Place::UnsubscribeLinks => "unsubscribe_tokens",
            Place::MarketingRetries => "marketing_retries",
            Place::PlanningCandidates => "planning_candidates",
            Place::PackageTakers => "package_takers",
        }
    }

    /// Whether the place names the contact by its address (else by its id).
    fn by_address(self) -> bool {
        matches!(self, Place::MarketingRetries | Place::PlanningCandidates)
    }

    /// The rows of the person: `$1` is the contact's id, its address lower-cased (the form
    /// in which the portal compares addresses), or its customer number.
    fn condition(self) -> &'static str {
        if self.by_address() {
            "lower(email) = $1"
        } else if self == Place::PackageTakers {
            "customer_number = $1"
        } else {
            "contact_id = $1"
        }
    }

    /// What the export shows of a row: everything but the link's secret hash.
    fn columns(self) -> &'static [&'static str] {
        match self {
            Place::Lists => &["list_id", "created_at"],
            Place::Tokens => &["expires_at", "created_at"],
            Place::UnsubscribeLinks => &["created_at", "used_at"],
            Place::PackageTakers => &[
                "download_id",
                "upload_id",
                "first_at",
                "last_at",
                "created_at",
            ],
            Place::Mails => &[
                "job_id",
                "state",
                "attempts",
                "message_id",
                "error",
                "created_at",
                "updated_at",
            ],
            Place::MarketingRetries => &[
                "email",
                "operation",
                "body",
                "attempts",
                "last_error",
                "created_at",
                "updated_at",
            ],
            Place::PlanningCandidates => &[
                "customer_number",
                "company_name",
                "salutation",
                "firstname",
                "lastname",
                "email",
                "created_at",
                "updated_at",
            ],
        }
    }

    fn key(self, person: &Person) -> Param {
        if self.by_address() {
            person.email.as_str().into()
        } else if self == Place::PackageTakers {
            person.customer_number.into()
        } else {
            person.contact_id.into()
        }
    }

    /// The person's rows here, each column as text (`null` where empty).
    async fn read(self, tx: &mut Tx, person: &Person) -> Result<Vec<PlaceFields>, sqlx::Error> {
        let columns: Vec<String> = self
            .columns()
            .iter()
            .map(|c| format!("cast({c} as text) as {c}"))
            .collect();
        let sql = format!(
            "select {} from {} where {} order by created_at",
            columns.join(", "),
            self.table(),
            self.condition()
        );
        tx.fetch_all::<PlaceFields>(&sql, &[self.key(person)]).await
    }

    /// Deletes the person's rows here; how many went. What its customer number took stays
    /// while another contact is in its customer group: it is theirs as well.
    async fn delete(self, tx: &mut Tx, person: &Person) -> Result<u64, sqlx::Error> {
        if self == Place::PackageTakers && !person.company_erased {
            return Ok(0);
        }
        let sql = format!("delete from {} where {}", self.table(), self.condition());
        tx.execute(&sql, &[self.key(person)]).await
    }
}

/// One row of a [`Place`]: its columns by name, as text.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct PlaceFields(pub std::collections::BTreeMap<String, Option<String>>);

macro_rules! fields_from_row {
    ($row:ty) => {
        impl<'r> sqlx::FromRow<'r, $row> for PlaceFields {
            fn from_row(row: &'r $row) -> Result<Self, sqlx::Error> {
                use sqlx::{Column, Row};
                let mut fields = std::collections::BTreeMap::new();
                for (i, column) in row.columns().iter().enumerate() {
                    fields.insert(
                        column.name().to_owned(),
                        row.try_get::<Option<String>, _>(i)?,
                    );
                }
                Ok(PlaceFields(fields))
            }
        }
    };
}
fields_from_row!(sqlx::sqlite::SqliteRow);
fields_from_row!(sqlx::postgres::PgRow);

/// Everything the portal keeps about a contact outside its own row and its customer group:
/// what the erasure removes, read without removing it (the data export).
#[derive(Clone, Debug, Default)]
pub struct StoredAbout {
    /// The rows of each [`Place`], by its name.
    pub places: std::collections::BTreeMap<&'static str, Vec<PlaceFields>>,
    /// The audit entries that name the person (and would be rewritten by an erasure), oldest
    /// first.
    pub audit: Vec<crate::db::insight::audit::AuditRow>,
}

#[derive(sqlx::FromRow)]
struct Target {
    email: String,
    customer_number: i64,
    others_in_group: i64,
}

#[derive(sqlx::FromRow)]
struct Id {
    id: i64,
}

/// The person behind contact `id`, read in `tx` (locked on PostgreSQL); whether its customer
/// group goes with it is whether no other contact is in it.
async fn person(tx: &mut Tx, id: i64) -> Result<Option<Person>, sqlx::Error> {
    let lock = if tx.is_postgres() { " for update" } else { "" };
    let target = tx
        .fetch_all::<Target>(
            &format!(
                "select email, customer_number, (select count(*) from contacts o \
                 where o.customer_number = c.customer_number and o.id <> c.id) as others_in_group \
                 from contacts c where id = $1{lock}"
            ),
            &[id.into()],
        )
        .await?
        .pop();
    Ok(target.map(|target| Person {
        contact_id: id,
        email: target.email.to_lowercase(),
        customer_number: target.customer_number,
        company_erased: target.others_in_group == 0,
    }))
}

/// What the portal keeps about contact `id` that an erasure would remove, for its data
/// export; `None` when there is no such contact.
pub async fn stored_about(db: &Db, id: i64) -> Result<Option<StoredAbout>, sqlx::Error> {
    let mut tx = Tx::begin(db).await?;
    let Some(person) = person(&mut tx, id).await? else {
        return Ok(None);
    };
    let mut stored = StoredAbout::default();
    for place in Place::ALL {
        stored
            .places
            .insert(place.name(), place.read(&mut tx, &person).await?);
    }
    stored.audit = naming(&mut tx, &person, None)
        .await?
        .into_iter()
        .map(|(row, _)| row)
        .collect();
    // Read only; nothing to keep.
    tx.commit().await?;
    Ok(Some(stored))
}

/// Erases contact `id` and writes `audit` (the erasure itself) with it. `None` when there is no
/// such contact.
pub async fn erase_contact(db: &Db, id: i64, audit: &Entry) -> Result<Option<Erased>, sqlx::Error> {
    let mut tx = Tx::begin(db).await?;
    let Some(person) = person(&mut tx, id).await? else {
        return Ok(None);
    };
    let mut removed = std::collections::BTreeMap::new();
    for place in Place::ALL {
        removed.insert(place, place.delete(&mut tx, &person).await?);
    }
    let mut erased = Erased {
        lists: removed[&Place::Lists],
        tokens: removed[&Place::Tokens],
        mails: removed[&Place::Mails],
        unsubscribe_links: removed[&Place::UnsubscribeLinks],
        marketing_retries: removed[&Place::MarketingRetries],
        planning_candidates: removed[&Place::PlanningCandidates],
        package_takers: removed[&Place::PackageTakers],
        ..Erased::default()
    };
    tx.execute("delete from contacts where id = $1", &[id.into()])
        .await?;
    erased.customer_group = tx
        .execute(
            "delete from companies where customer_number = $1 \
             and not exists (select 1 from contacts where customer_number = $1)",
            &[person.customer_number.into()],
        )
        .await?
        > 0;
    debug_assert_eq!(erased.customer_group, person.company_erased);
    // The erasure's own entry first: each rewrite names it (the log's trigger checks that).
    let at = crate::db::now();
    let erasure = tx
        .fetch_all::<Id>(
            &format!("{} returning id", crate::db::insight::audit::INSERT),
            &[
                at.into(),
                audit.actor.name().into(),
                audit.action.as_str().into(),
                audit.entity.as_str().into(),
                audit.entity_id.into(),
                audit.changes.to_json().into(),
                // The erasure's own entry keeps no name of the person.
                None::<String>.into(),
            ],
        )
        .await?
        .pop()
        .ok_or(sqlx::Error::RowNotFound)?
        .id;
    erased.audit_entries = erase_from_log(&mut tx, &person, erasure, at).await?;
    tx.commit().await?;
    if let Db::Sqlite(pool, _) = db {
        // Copies of the erased pages may still be in the write-ahead log; fold it into the
        // file (whose freed pages `secure_delete` has zeroed) and empty it. A reader that holds
        // an old snapshot keeps the log for now; the next checkpoint does it then.
        if let Err(err) = sqlx::query("pragma wal_checkpoint(truncate)")
            .execute(pool)
            .await
        {
            tracing::warn!(%err, "checkpoint after an erasure failed");
        }
    }
    Ok(Some(erased))
}

/// The audit entries that name the person, oldest first, each with what an erasure makes of
/// it. The `like` only narrows the search; `Person::erase_from` decides, by whole addresses.
async fn naming(
    tx: &mut Tx,
    person: &Person,
    except: Option<i64>,
) -> Result<Vec<(crate::db::insight::audit::AuditRow, Rewrite)>, sqlx::Error> {
    let pattern = crate::db::sql::like_pattern(&person.email);
    let rows = tx
        .fetch_all::<crate::db::insight::audit::AuditRow>(
            "select id, at, actor, action, entity, entity_id, changes, erasures, entity_name \
             from audit_log \
             where ((entity = 'contact' and entity_id = $1) \
             or (entity = 'customerGroup' and entity_id = $2) \
             or lower(changes) like $3 escape '\\') and id <> $4 order by at, id",
            &[
                person.contact_id.into(),
                person.customer_number.into(),
                pattern.into(),
                except.unwrap_or(0).into(),
            ],
        )
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            let rewrite = match person.erase_from(&row.entity, row.entity_id, &row.changes) {
                Some(rewrite) => rewrite,
                // An entry that names the person only by its record's name (issue 35).
                None if names_person(person, &row) => Rewrite {
                    changes: row.changes.clone(),
                    fields: Vec::new(),
                },
                None => return None,
            };
            Some((row, rewrite))
        })
        .collect())
}

/// Whether the entry keeps the person's name as its record's name (`entity_name`): an entry
/// about the contact, or about its customer group when the group goes too.
fn names_person(person: &Person, row: &crate::db::insight::audit::AuditRow) -> bool {
    use crate::domain::audit::Entity;
    row.entity_name.is_some()
        && ((row.entity == Entity::Contact.as_str() && row.entity_id == Some(person.contact_id))
            || (person.company_erased
                && row.entity == Entity::CustomerGroup.as_str()
                && row.entity_id == Some(person.customer_number)))
}

/// Replaces the person's values in the audit entries that name them, and records in each
/// entry which fields erasure `erasure` (its entry, written at `at`) rewrote.
async fn erase_from_log(
    tx: &mut Tx,
    person: &Person,
    erasure: i64,
    at: chrono::DateTime<chrono::Utc>,
) -> Result<u64, sqlx::Error> {
    let mut rewritten = 0;
    for (entry, rewrite) in naming(tx, person, Some(erasure)).await? {
        let named = names_person(person, &entry);
        let mut fields = rewrite.fields.clone();
        if named {
            fields.push("entity_name".into());
        }
        let erasures =
            crate::domain::erasure::record_rewrite(entry.erasures.as_deref(), erasure, at, &fields);
        rewritten += tx
            .execute(
                "update audit_log set changes = $1, erased_at = $2, erased_by = $3, \
                 erasures = $4, entity_name = case when $6 then null else entity_name end \
                 where id = $5",
                &[
                    rewrite.changes.into(),
                    Some(at).into(),
                    Some(erasure).into(),
                    Some(erasures).into(),
                    entry.id.into(),
                    named.into(),
                ],
            )
            .await?;
    }
    Ok(rewritten)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db_run;
    use crate::domain::audit::{Action, Actor, Entity};
    use crate::test_support::TestDb;

    async fn update(db: &Db, sql: &str) -> Result<u64, sqlx::Error> {
        db_run!(db, pool => sqlx::query(sql).execute(pool).await.map(|r| r.rows_affected()))
    }

    /// Writes an entry at `at` directly; its id.
    async fn entry_at(db: &Db, action: &str, at: chrono::DateTime<chrono::Utc>) -> i64 {
        db_run!(db, pool => sqlx::query_scalar::<_, i64>(
            "insert into audit_log (at, actor, action, entity, entity_id, changes) \
             values ($1, 'CLI', $2, 'contact', 7, '{\"email\":{\"before\":\"a@example.de\",\"after\":null}}') \
             returning id",
        )
        .bind(at)
        .bind(action)
        .fetch_one(pool)
        .await)
        .unwrap()
    }

    #[tokio::test]
    async fn the_log_lets_only_an_erasure_rewrite_an_entry_and_only_the_sweep_delete_one() {
        let t = TestDb::new().await;
        let now = crate::db::now();
        let entry = entry_at(&t.db, "update", now).await;
        let other = entry_at(&t.db, "update", now).await;
        let erasure = entry_at(&t.db, "erase", now).await;
        let marks = "'[{\"erasure\":1,\"at\":\"2026-01-01T00:00:00Z\",\"fields\":[\"email\"]}]'";
        let at_of = |id: i64| format!("(select at from audit_log where id = {id})");
        for refused in [
            // No erasure named.
            "update audit_log set changes = '{}'".to_owned(),
            format!(
                "update audit_log set changes = '{{}}', erased_at = {}",
                at_of(erasure)
            ),
            // An entry that is no erasure, or none at all, or not of the same instant.
            format!(
                "update audit_log set changes = '{{}}', erased_at = {}, erased_by = {other}, erasures = {marks} where id = {entry}",
                at_of(other)
            ),
            format!(
                "update audit_log set changes = '{{}}', erased_at = {}, erased_by = 999, erasures = {marks} where id = {entry}",
                at_of(erasure)
            ),
            // Without the record of what it rewrote.
            format!(
                "update audit_log set changes = '{{}}', erased_at = {}, erased_by = {erasure} where id = {entry}",
                at_of(erasure)
            ),
            // Who, what and which record stay.
            format!(
                "update audit_log set actor = 'jemand', erased_at = {}, erased_by = {erasure}, erasures = {marks} where id = {entry}",
                at_of(erasure)
            ),
            format!(
                "update audit_log set entity_id = 8, erased_at = {}, erased_by = {erasure}, erasures = {marks} where id = {entry}",
                at_of(erasure)
            ),
        ] {
            let err = update(&t.db, &refused).await.unwrap_err();
            assert!(err.to_string().contains("append-only"), "{refused}: {err}");
        }
        let erased = format!(
            "update audit_log set changes = '{{}}', erased_at = {}, erased_by = {erasure}, erasures = {marks} where id = {entry}",
            at_of(erasure)
        );
        assert_eq!(update(&t.db, &erased).await.unwrap(), 1);

        // Nothing deletes an entry but the sweep, and the sweep only what is old enough.
        let old = entry_at(&t.db, "update", now - chrono::Duration::days(400)).await;
        for refused in [
            "delete from audit_log".to_owned(),
            format!("delete from audit_log where id = {old}"),
        ] {
            let err = update(&t.db, &refused).await.unwrap_err();
            assert!(
                err.to_string().contains("retention sweep"),
                "{refused}: {err}"
            );
        }
        assert!(
            crate::db::insight::audit::delete_before(&t.db, now)
                .await
                .is_err(),
            "a sweep keeps at least a day"
        );
        let deleted =
            crate::db::insight::audit::delete_before(&t.db, now - chrono::Duration::days(365))
                .await
                .unwrap();
        assert_eq!(deleted, 1);
        // The recorded sweep lets nothing younger go, and cannot itself be undone.
        let err = update(&t.db, &format!("delete from audit_log where id = {other}"))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("retention sweep"), "{err}");
        for refused in [
            "delete from audit_sweeps",
            "update audit_sweeps set before = at",
        ] {
            let err = update(&t.db, refused).await.unwrap_err();
            assert!(err.to_string().contains("append-only"), "{refused}: {err}");
        }
        let count: i64 =
            db_run!(&t.db, pool => sqlx::query_scalar("select count(*) from audit_log")
            .fetch_one(pool)
            .await)
            .unwrap();
        assert_eq!(count, 3);
    }

    #[tokio::test]
    async fn an_unknown_contact_is_not_erased_and_nothing_is_logged() {
        let t = TestDb::new().await;
        let entry = Entry::new(&Actor::Cli, Action::Erase, Entity::Contact, Some(404));
        assert_eq!(erase_contact(&t.db, 404, &entry).await.unwrap(), None);
        let count: i64 =
            db_run!(&t.db, pool => sqlx::query_scalar("select count(*) from audit_log")
            .fetch_one(pool)
            .await)
            .unwrap();
        assert_eq!(count, 0);
    }
}
