//! Providers (`providers`) and the roles allowed to see them (`provider_roles`).
//!
//! Provider names are unique regardless of letter case (ASCII letters on SQLite, as its
//! `nocase` collation folds only those). Roles are kept one row per role and read back sorted.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::{Db, dedup_keep_order, insight::audit, now};
use crate::db_run;
use crate::domain::audit::Entry;

macro_rules! provider_columns {
    () => {
        "id, name, brevo_active_folder_id, brevo_inactive_folder_id, upload_id, \
         created_at, updated_at"
    };
}

/// Inserts a provider's roles inside an open transaction of either backend.
macro_rules! insert_roles {
    ($tx:expr, $provider_id:expr, $roles:expr, $now:expr) => {
        for role in $roles {
            sqlx::query(
                "insert into provider_roles (provider_id, role, created_at, updated_at) \
                 values ($1, $2, $3, $3)",
            )
            .bind($provider_id)
            .bind(role)
            .bind($now)
            .execute(&mut *$tx)
            .await?;
        }
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Provider {
    pub id: i64,
    pub name: String,
    /// Sorted by name; filled from `provider_roles`.
    #[sqlx(skip)]
    pub allowed_roles: Vec<String>,
    pub brevo_active_folder_id: Option<i64>,
    pub brevo_inactive_folder_id: Option<i64>,
    /// The logo.
    pub upload_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct NewProvider {
    pub name: String,
    pub allowed_roles: Vec<String>,
    pub brevo_active_folder_id: Option<i64>,
    pub brevo_inactive_folder_id: Option<i64>,
    pub upload_id: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct ProviderRoleRow {
    provider_id: i64,
    role: String,
}

/// Creates a provider and its roles in one transaction. A name that exists in any letter case
/// fails with a unique violation. `audit` is written with it, for the new id.
pub async fn create(db: &Db, new: &NewProvider, audit: &Entry) -> Result<Provider, sqlx::Error> {
    let now = now();
    let mut roles = dedup_keep_order(&new.allowed_roles);
    roles.sort();
    let mut provider = db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let provider = sqlx::query_as::<_, Provider>(concat!(
            "insert into providers (name, brevo_active_folder_id, brevo_inactive_folder_id, \
             upload_id, created_at, updated_at) values ($1, $2, $3, $4, $5, $5) returning ",
            provider_columns!()
        ))
        .bind(&new.name)
        .bind(new.brevo_active_folder_id)
        .bind(new.brevo_inactive_folder_id)
        .bind(new.upload_id)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        insert_roles!(tx, provider.id, &roles, now);
        audit::record!(tx, &audit.for_id(provider.id))?;
        tx.commit().await?;
        provider
    });
    provider.allowed_roles = roles;
    Ok(provider)
}

pub async fn get(db: &Db, id: i64) -> Result<Option<Provider>, sqlx::Error> {
    let provider = db_run!(db, pool => {
        sqlx::query_as::<_, Provider>(concat!(
            "select ",
            provider_columns!(),
            " from providers where id = $1"
        ))
        .bind(id)
        .fetch_optional(pool)
        .await?
    });
    let Some(mut provider) = provider else {
        return Ok(None);
    };
    provider.allowed_roles = roles_of(db, provider.id).await?;
    Ok(Some(provider))
}

/// The roles allowed to see one provider, sorted.
pub async fn roles_of(db: &Db, provider_id: i64) -> Result<Vec<String>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, String>(
            "select role from provider_roles where provider_id = $1 order by role",
        )
        .bind(provider_id)
        .fetch_all(pool)
        .await
    })
}

/// Every provider ordered by id, with its roles (two queries in all).
pub async fn list_all(db: &Db) -> Result<Vec<Provider>, sqlx::Error> {
    let (mut providers, roles) = db_run!(db, pool => {
        let providers = sqlx::query_as::<_, Provider>(concat!(
            "select ",
            provider_columns!(),
            " from providers order by id"
        ))
        .fetch_all(pool)
        .await?;
        let roles = sqlx::query_as::<_, ProviderRoleRow>(
            "select provider_id, role from provider_roles order by provider_id, role",
        )
        .fetch_all(pool)
        .await?;
        (providers, roles)
    });
    let mut by_provider: HashMap<i64, Vec<String>> = HashMap::new();
    for row in roles {
        by_provider
            .entry(row.provider_id)
            .or_default()
            .push(row.role);
    }
    for provider in &mut providers {
        provider.allowed_roles = by_provider.remove(&provider.id).unwrap_or_default();
    }
    Ok(providers)
}

/// The providers with these ids, with their roles (two queries).
pub async fn get_many(db: &Db, ids: &[i64]) -> Result<Vec<Provider>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = crate::db::sql::DynQuery::new(concat!(
        "select ",
        provider_columns!(),
        " from providers where id in "
    ));
    let list = query.id_list(ids);
    query.push(&list);
    let mut providers: Vec<Provider> = query.fetch_all(db).await?;
    let mut roles = crate::db::sql::DynQuery::new(
        "select provider_id, role from provider_roles where provider_id in ",
    );
    let list = roles.id_list(ids);
    roles.push(&list).push(" order by provider_id, role");
    let roles: Vec<ProviderRoleRow> = roles.fetch_all(db).await?;
    for provider in &mut providers {
        provider.allowed_roles = roles
            .iter()
            .filter(|r| r.provider_id == provider.id)
            .map(|r| r.role.clone())
            .collect();
    }
    Ok(providers)
}

/// The providers one of `roles` may manage (their `allowedRoles` contain it).
pub async fn ids_for_roles(db: &Db, roles: &[String]) -> Result<Vec<i64>, sqlx::Error> {
    if roles.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = crate::db::sql::DynQuery::new(
        "select distinct provider_id from provider_roles where role in (",
    );
    let placeholders: Vec<String> = roles.iter().map(|r| query.param(r.as_str())).collect();
    query
        .push(&placeholders.join(", "))
        .push(") order by provider_id");
    let rows: Vec<(i64,)> = query.fetch_all(db).await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

pub async fn count(db: &Db) -> Result<i64, sqlx::Error> {
    db_run!(db, pool => sqlx::query_scalar::<_, i64>("select count(*) from providers")
            .fetch_one(pool)
            .await
    )
}

/// Deletes a provider with its roles, lists and downloads, and writes `audit`. False when it
/// did not exist (and nothing is written).
pub async fn delete(db: &Db, id: i64, audit: &Entry) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let done = sqlx::query("delete from providers where id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done == 0 {
            return Ok(false);
        }
        audit::record!(tx, audit)?;
        tx.commit().await?;
        Ok(true)
    })
}

/// Replaces a provider's fields and roles in one transaction with `audit`; `None` when it does
/// not exist.
pub async fn update(
    db: &Db,
    id: i64,
    changes: &NewProvider,
    audit: &Entry,
) -> Result<Option<Provider>, sqlx::Error> {
    let now = now();
    let mut roles = dedup_keep_order(&changes.allowed_roles);
    roles.sort();
    let updated = db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let provider = sqlx::query_as::<_, Provider>(concat!(
            "update providers set name = $2, brevo_active_folder_id = $3, \
             brevo_inactive_folder_id = $4, upload_id = $5, updated_at = $6 where id = $1 returning ",
            provider_columns!()
        ))
        .bind(id)
        .bind(&changes.name)
        .bind(changes.brevo_active_folder_id)
        .bind(changes.brevo_inactive_folder_id)
        .bind(changes.upload_id)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        if provider.is_some() {
            sqlx::query("delete from provider_roles where provider_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            insert_roles!(tx, id, &roles, now);
            audit::record!(tx, audit)?;
        }
        tx.commit().await?;
        provider
    });
    Ok(updated.map(|mut provider| {
        provider.allowed_roles = roles;
        provider
    }))
}

/// Whether an upload is some provider's logo (logos are shown to every signed-in user).
pub async fn is_logo(db: &Db, upload_id: i64) -> Result<bool, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>("select count(*) from providers where upload_id = $1")
            .bind(upload_id)
            .fetch_one(pool)
            .await
            .map(|n| n > 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{catalog::uploads, is_unique_violation, marketing::lists};
    use crate::test_support::TestDb;

    pub(crate) fn new_provider(name: &str, roles: &[&str]) -> NewProvider {
        NewProvider {
            name: name.to_string(),
            allowed_roles: roles.iter().map(|r| r.to_string()).collect(),
            brevo_active_folder_id: Some(11),
            brevo_inactive_folder_id: Some(12),
            upload_id: None,
        }
    }

    #[tokio::test]
    async fn create_get_list_count() {
        let t = TestDb::new().await;
        let a = create(
            &t.db,
            &new_provider(
                "Glasfaser Süd",
                &["GS-Aktionsportal-BU-Glasfaser", "Verzeichnis Süd"],
            ),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        assert_eq!(
            a.allowed_roles,
            vec!["GS-Aktionsportal-BU-Glasfaser", "Verzeichnis Süd"]
        );
        let b = create(
            &t.db,
            &new_provider("Energie Plus", &[]),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();

        let got = get(&t.db, a.id).await.unwrap().unwrap();
        assert_eq!(got.name, "Glasfaser Süd");
        assert_eq!(got.brevo_active_folder_id, Some(11));
        assert_eq!(got.brevo_inactive_folder_id, Some(12));
        assert_eq!(got.allowed_roles, a.allowed_roles);
        assert!(get(&t.db, 999).await.unwrap().is_none());

        let all = list_all(&t.db).await.unwrap();
        assert_eq!(
            all.iter().map(|p| p.id).collect::<Vec<_>>(),
            vec![a.id, b.id]
        );
        assert_eq!(all[0].allowed_roles.len(), 2);
        assert!(all[1].allowed_roles.is_empty());
        assert_eq!(count(&t.db).await.unwrap(), 2);
    }

    #[tokio::test]
    async fn name_is_unique_ignoring_case() {
        let t = TestDb::new().await;
        create(
            &t.db,
            &new_provider("Stadtwerke Nord", &["A"]),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        for name in ["Stadtwerke Nord", "stadtwerke nord", "STADTWERKE NORD"] {
            let err = create(
                &t.db,
                &new_provider(name, &["B"]),
                &crate::test_support::cli_change(),
            )
            .await
            .unwrap_err();
            assert!(is_unique_violation(&err), "{name}: {err:?}");
        }
        // The failed creates left no roles behind.
        let all = list_all(&t.db).await.unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].allowed_roles, vec!["A"]);
        let roles = db_run!(&t.db, pool => {
            sqlx::query_scalar::<_, i64>("select count(*) from provider_roles")
                .fetch_one(pool)
                .await
                .unwrap()
        });
        assert_eq!(roles, 1);
    }

    #[tokio::test]
    async fn delete_cascades_to_roles_and_lists_and_logo_delete_unsets() {
        let t = TestDb::new().await;
        let logo = uploads::create(
            &t.db,
            &uploads::NewUpload {
                name: "Logo.svg".to_string(),
                storage_key: "aa/aa.svg".to_string(),
                ext: "svg".to_string(),
                size: 10,
                content_type: "image/svg+xml".to_string(),
                sha256: None,
                crc32: None,
                uploaded_by: None,
            },
            &crate::domain::audit::Actor::Cli,
        )
        .await
        .unwrap();
        let mut new = new_provider("Mobilfunk Mitte", &["GS-Aktionsportal-BU-Mobilfunk"]);
        new.upload_id = Some(logo.id);
        let p = create(&t.db, &new, &crate::test_support::cli_change())
            .await
            .unwrap();
        let keep = create(
            &t.db,
            &new_provider("Energie Plus", &["E"]),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        for provider_id in [p.id, keep.id] {
            lists::create(
                &t.db,
                &lists::NewListRecord {
                    provider_id,
                    name: "Tarifwechsler".to_string(),
                    brevo_list_id: None,
                    active: true,
                },
                &crate::test_support::cli_change(),
            )
            .await
            .unwrap();
        }

        // Deleting the logo keeps the provider without one.
        assert!(
            uploads::delete(&t.db, logo.id, &crate::domain::audit::Actor::Cli)
                .await
                .unwrap()
        );
        assert_eq!(get(&t.db, p.id).await.unwrap().unwrap().upload_id, None);

        assert!(
            delete(&t.db, p.id, &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        assert!(
            !delete(&t.db, p.id, &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        assert!(roles_of(&t.db, p.id).await.unwrap().is_empty());
        assert!(
            lists::list_by_provider(&t.db, p.id)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            lists::list_by_provider(&t.db, keep.id).await.unwrap().len(),
            1
        );
        assert_eq!(roles_of(&t.db, keep.id).await.unwrap(), vec!["E"]);
    }
}
