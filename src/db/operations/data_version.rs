//! The data version (`data_version`, migration 0014): a number that database triggers count up
//! with every change to what the package and contact lists show, in the transaction of the
//! change. An answer made after reading version `v` is right for as long as the version is `v`,
//! on every instance that shares the database (`services::operations::answers`).

use crate::db::Db;
use crate::db_run;

/// The current version. The version of the contacts' searched texts comes in the same read
/// and is noted for the contact search (`db::contacts::texts`).
pub async fn current(db: &Db) -> Result<i64, sqlx::Error> {
    let (version, texts) = db_run!(db, pool => {
        sqlx::query_as::<_, (i64, i64)>(
            "select version, contact_text_version from data_version where id = 1",
        )
        .fetch_one(pool)
        .await
    })?;
    crate::db::contacts::texts::seen(db, texts);
    Ok(version)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;

    /// Runs `sql` and tells whether the version moved.
    async fn counts(t: &TestDb, sql: &str) -> bool {
        let before = current(&t.db).await.unwrap();
        db_run!(&t.db, pool => sqlx::raw_sql(sql).execute(pool).await.map(|_| ())).unwrap();
        current(&t.db).await.unwrap() > before
    }

    /// Every table a list shows, written each way, counts; tables no list shows do not.
    #[tokio::test]
    async fn every_write_to_what_lists_show_counts_the_version() {
        let t = TestDb::new().await;
        {
            let now = "'2026-01-01T00:00:00Z'";
            let steps = [
                format!(
                    "insert into providers (id, name, created_at, updated_at) values (900, 'P', {now}, {now})"
                ),
                format!(
                    "insert into provider_roles (provider_id, role, created_at, updated_at) values (900, 'R', {now}, {now})"
                ),
                "update provider_roles set role = 'R2' where provider_id = 900".to_string(),
                format!(
                    "insert into lists (id, provider_id, name, active, created_at, updated_at) values (900, 900, 'L', true, {now}, {now})"
                ),
                format!(
                    "insert into tags (id, name, icon, created_at, updated_at) values (900, 'T', 'bi-star', {now}, {now})"
                ),
                format!(
                    "insert into uploads (id, name, ext, size, content_type, storage_key, created_at, updated_at) values (900, 'a.pdf', 'pdf', 1, 'application/pdf', 'k900', {now}, {now})"
                ),
                format!(
                    "insert into downloads (id, provider_id, name, start_at, end_at, created_at, updated_at) values (900, 900, 'Paket', {now}, {now}, {now}, {now})"
                ),
                format!(
                    "insert into download_uploads (download_id, upload_id, name, created_at, updated_at) values (900, 900, 'a.pdf', {now}, {now})"
                ),
                format!(
                    "insert into download_upload_tags (download_id, upload_id, tag_id, created_at, updated_at) values (900, 900, 900, {now}, {now})"
                ),
                format!(
                    "insert into download_lists (download_id, list_id, created_at, updated_at) values (900, 900, {now}, {now})"
                ),
                format!(
                    "insert into companies (customer_number, company_name, created_at, updated_at) values (900, 'Firma', {now}, {now})"
                ),
                format!(
                    "insert into contacts (id, customer_number, email, firstname, lastname, created_at, updated_at) values (900, 900, 'a@b.de', 'A', 'B', {now}, {now})"
                ),
                format!(
                    "insert into contact_lists (contact_id, list_id, created_at, updated_at) values (900, 900, {now}, {now})"
                ),
                // Updates of every table a list shows (a rename shows at once).
                "update providers set name = 'P 2' where id = 900".to_string(),
                "update tags set name = 'T 2' where id = 900".to_string(),
                "update uploads set name = 'b.pdf' where id = 900".to_string(),
                "update download_uploads set name = 'c.pdf' where download_id = 900".to_string(),
                "update download_upload_tags set updated_at = '2026-01-02T00:00:00Z' where download_id = 900"
                    .to_string(),
                "update download_lists set updated_at = '2026-01-02T00:00:00Z' where download_id = 900"
                    .to_string(),
                "update contact_lists set updated_at = '2026-01-02T00:00:00Z' where contact_id = 900"
                    .to_string(),
                "update contacts set firstname = 'C' where id = 900".to_string(),
                "update companies set company_name = 'Firma 2' where customer_number = 900"
                    .to_string(),
                "update downloads set name = 'Paket 2' where id = 900".to_string(),
                "update lists set active = false where id = 900".to_string(),
                "delete from contact_lists where contact_id = 900".to_string(),
                "delete from contacts where id = 900".to_string(),
                "delete from download_lists where download_id = 900".to_string(),
                "delete from download_upload_tags where download_id = 900".to_string(),
                "delete from download_uploads where download_id = 900".to_string(),
                "delete from downloads where id = 900".to_string(),
                "delete from uploads where id = 900".to_string(),
                "delete from tags where id = 900".to_string(),
                "delete from lists where id = 900".to_string(),
                "delete from provider_roles where provider_id = 900".to_string(),
                "delete from providers where id = 900".to_string(),
            ];
            for sql in &steps {
                assert!(counts(&t, sql).await, "{:?}: {sql}", t.db.backend());
            }
            // Sessions, visits and throttles are not what a list shows.
            assert!(
                !counts(
                    &t,
                    &format!("insert into customer_visits (subject, last_seen_at, created_at, updated_at) values ('local:1', {now}, {now}, {now})")
                )
                .await
            );
        }
    }

    /// A preview counts when it becomes ready and when a ready one goes, not while it renders.
    #[tokio::test]
    async fn previews_count_when_ready() {
        let t = TestDb::new().await;
        {
            let now = "'2026-01-01T00:00:00Z'";
            assert!(
                !counts(
                    &t,
                    &format!("insert into previews (sha256, state, claimed_until, created_at, updated_at) values ('ab', 'rendering', {now}, {now}, {now})")
                )
                .await
            );
            assert!(
                counts(
                    &t,
                    "update previews set state = 'ready', thumb_key = 't', large_key = 'l', thumb_width = 1, thumb_height = 1 where sha256 = 'ab'"
                )
                .await
            );
            assert!(counts(&t, "delete from previews where sha256 = 'ab'").await);
        }
    }

    /// A change's count is seen with the change, not before its commit; on PostgreSQL a
    /// transaction counts once, however many statements it runs.
    #[tokio::test]
    async fn the_count_commits_with_the_change() {
        let t = TestDb::new().await;
        let before = current(&t.db).await.unwrap();
        let insert = crate::test_support::company_insert_sql;
        db_run!(&t.db, pool => {
            let mut tx = pool.begin_write().await.unwrap();
            for n in 0..5 {
                sqlx::raw_sql(&insert(800 + n)).execute(&mut *tx).await.unwrap();
            }
            assert_eq!(current(&t.db).await.unwrap(), before, "not before the commit");
            tx.commit().await.unwrap();
        });
        let after = current(&t.db).await.unwrap();
        match t.db.backend() {
            crate::db::Backend::Postgres => assert_eq!(after, before + 1),
            crate::db::Backend::Sqlite => assert_eq!(after, before + 5),
        }
    }
}
