//! Erasure of a contact (issue 25, DSGVO Art. 17) in one transaction: the contact (its list
//! memberships and double opt-in links go with it by foreign key), its mails of mail jobs,
//! changes for the marketing service still waiting for it, import candidates with its address,
//! its customer group when it was the last one there, and its personal values in the audit log
//! (`domain::erasure`). Either all of it goes or nothing.

use super::Db;
use super::bulk::Tx;
use super::sql::Param;
use crate::domain::audit::Entry;
use crate::domain::erasure::Person;

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
    /// Changes for the marketing service that were still waiting.
    pub marketing_retries: u64,
    /// Import candidates of the planning system with the address.
    pub planning_candidates: u64,
    /// Whether the customer group went too (no other contact was in it).
    pub customer_group: bool,
    /// Audit entries whose personal values became "gelöscht".
    pub audit_entries: u64,
}

#[derive(sqlx::FromRow)]
struct Target {
    email: String,
    customer_number: i64,
}

#[derive(sqlx::FromRow)]
struct LoggedChange {
    id: i64,
    entity: String,
    entity_id: Option<i64>,
    changes: String,
}

/// Erases contact `id` and writes `audit` (the erasure itself) with it. `None` when there is no
/// such contact.
pub async fn erase_contact(db: &Db, id: i64, audit: &Entry) -> Result<Option<Erased>, sqlx::Error> {
    let mut tx = Tx::begin(db).await?;
    let lock = if tx.is_postgres() { " for update" } else { "" };
    let Some(target) = tx
        .fetch_all::<Target>(
            &format!("select email, customer_number from contacts where id = $1{lock}"),
            &[id.into()],
        )
        .await?
        .pop()
    else {
        return Ok(None);
    };
    let email = target.email.to_lowercase();
    let by_id = || -> Vec<Param> { vec![id.into()] };
    let by_email = || -> Vec<Param> { vec![email.as_str().into()] };
    let mut erased = Erased {
        lists: tx
            .execute("delete from contact_lists where contact_id = $1", &by_id())
            .await?,
        tokens: tx
            .execute(
                "delete from double_opt_in_tokens where contact_id = $1",
                &by_id(),
            )
            .await?,
        mails: tx
            .execute("delete from mail_job_items where contact_id = $1", &by_id())
            .await?,
        marketing_retries: tx
            .execute(
                "delete from marketing_retries where lower(email) = $1",
                &by_email(),
            )
            .await?,
        planning_candidates: tx
            .execute(
                "delete from planning_candidates where lower(email) = $1",
                &by_email(),
            )
            .await?,
        ..Erased::default()
    };
    tx.execute("delete from contacts where id = $1", &by_id())
        .await?;
    erased.customer_group = tx
        .execute(
            "delete from companies where customer_number = $1 \
             and not exists (select 1 from contacts where customer_number = $1)",
            &[target.customer_number.into()],
        )
        .await?
        > 0;
    let person = Person {
        contact_id: id,
        email: email.clone(),
        customer_number: target.customer_number,
        company_erased: erased.customer_group,
    };
    erased.audit_entries = erase_from_log(&mut tx, &person).await?;
    super::audit::record_in(&mut tx, audit).await?;
    tx.commit().await?;
    if let Db::Sqlite(pool) = db {
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

/// Replaces the person's values in the audit entries about them, or that name their address.
async fn erase_from_log(tx: &mut Tx, person: &Person) -> Result<u64, sqlx::Error> {
    let pattern = super::lists::like_pattern(&person.email);
    let entries = tx
        .fetch_all::<LoggedChange>(
            "select id, entity, entity_id, changes from audit_log \
             where (entity = 'contact' and entity_id = $1) \
             or (entity = 'customerGroup' and entity_id = $2) \
             or lower(changes) like $3 escape '\\'",
            &[
                person.contact_id.into(),
                person.customer_number.into(),
                pattern.into(),
            ],
        )
        .await?;
    let now = super::now();
    let mut rewritten = 0;
    for entry in entries {
        if let Some(changes) = person.erase_from(&entry.entity, entry.entity_id, &entry.changes) {
            rewritten += tx
                .execute(
                    "update audit_log set changes = $1, erased_at = $2 where id = $3",
                    &[changes.into(), Some(now).into(), entry.id.into()],
                )
                .await?;
        }
    }
    Ok(rewritten)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db_run;
    use crate::domain::audit::{Action, Actor, Changes, Entity};
    use crate::test_support::TestDb;

    async fn update(db: &Db, sql: &str) -> Result<u64, sqlx::Error> {
        db_run!(db, pool => sqlx::query(sql).execute(pool).await.map(|r| r.rows_affected()))
    }

    #[tokio::test]
    async fn the_log_lets_only_an_erasure_rewrite_an_entry() {
        let t = TestDb::new().await;
        let entry = Entry::new(&Actor::Cli, Action::Update, Entity::Contact, Some(7))
            .with_changes(Changes::none().field("email", "a@example.de", "b@example.de"));
        super::super::audit::record_alone(&t.db, &entry)
            .await
            .unwrap();
        let now = if t.db.backend() == super::super::Backend::Postgres {
            "now()"
        } else {
            "'2026-11-25T12:00:00Z'"
        };
        for refused in [
            "update audit_log set changes = '{}'".to_owned(),
            format!("update audit_log set actor = 'jemand', erased_at = {now}"),
            format!("update audit_log set entity_id = 8, erased_at = {now}"),
        ] {
            let err = update(&t.db, &refused).await.unwrap_err();
            assert!(err.to_string().contains("append-only"), "{refused}: {err}");
        }
        let erased = format!("update audit_log set changes = '{{}}', erased_at = {now}");
        assert_eq!(update(&t.db, &erased).await.unwrap(), 1);
        // The sweep still deletes old entries.
        assert_eq!(update(&t.db, "delete from audit_log").await.unwrap(), 1);
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
