//! Lists, shown as criteria (`lists`): the audiences of a provider. Contacts and downloads are
//! assigned to lists; an inactive list lives in the provider's inactive folder.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{Db, now};
use crate::db_run;

macro_rules! list_columns {
    () => {
        "id, provider_id, brevo_list_id, name, active, total_subscribers, total_blocked, \
         deactivated_at, reactivated_at, created_at, updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct List {
    pub id: i64,
    pub provider_id: i64,
    pub brevo_list_id: Option<i64>,
    pub name: String,
    pub active: bool,
    pub total_subscribers: i64,
    pub total_blocked: i64,
    pub deactivated_at: Option<DateTime<Utc>>,
    pub reactivated_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct NewList {
    pub provider_id: i64,
    pub name: String,
    pub brevo_list_id: Option<i64>,
    /// False creates the list deactivated (`deactivated_at` = now).
    pub active: bool,
}

pub async fn create(db: &Db, new: &NewList) -> Result<List, sqlx::Error> {
    let now = now();
    let deactivated_at = (!new.active).then_some(now);
    db_run!(db, pool => {
        sqlx::query_as::<_, List>(concat!(
            "insert into lists \
             (provider_id, brevo_list_id, name, active, deactivated_at, created_at, updated_at) \
             values ($1, $2, $3, $4, $5, $6, $6) returning ",
            list_columns!()
        ))
        .bind(new.provider_id)
        .bind(new.brevo_list_id)
        .bind(&new.name)
        .bind(new.active)
        .bind(deactivated_at)
        .bind(now)
        .fetch_one(pool)
        .await
    })
}

pub async fn get(db: &Db, id: i64) -> Result<Option<List>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, List>(concat!(
            "select ",
            list_columns!(),
            " from lists where id = $1"
        ))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// The lists of one provider ordered by name (then id).
pub async fn list_by_provider(db: &Db, provider_id: i64) -> Result<Vec<List>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, List>(concat!(
            "select ",
            list_columns!(),
            " from lists where provider_id = $1 order by name, id"
        ))
        .bind(provider_id)
        .fetch_all(pool)
        .await
    })
}

/// Deletes a list (its contact and download assignments go with it). False when it did not exist.
pub async fn delete(db: &Db, id: i64) -> Result<bool, sqlx::Error> {
    let done = db_run!(db, pool => {
        sqlx::query("delete from lists where id = $1")
            .bind(id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{is_foreign_key_violation, is_unique_violation, providers};
    use crate::test_support::TestDb;

    #[tokio::test]
    async fn create_get_and_list_by_provider() {
        let t = TestDb::new().await;
        let p = providers::create(
            &t.db,
            &providers::NewProvider {
                name: "Energie Plus".to_string(),
                allowed_roles: vec!["GS-Aktionsportal-BU-Energie".to_string()],
                brevo_active_folder_id: None,
                brevo_inactive_folder_id: None,
                upload_id: None,
            },
        )
        .await
        .unwrap();
        let b = create(
            &t.db,
            &NewList {
                provider_id: p.id,
                name: "Ökostrom Neukunden".to_string(),
                brevo_list_id: Some(501),
                active: true,
            },
        )
        .await
        .unwrap();
        assert!(b.active);
        assert!(b.deactivated_at.is_none());
        assert_eq!(b.total_subscribers, 0);
        let a = create(
            &t.db,
            &NewList {
                provider_id: p.id,
                name: "Bestandskunden Alt".to_string(),
                brevo_list_id: None,
                active: false,
            },
        )
        .await
        .unwrap();
        assert!(!a.active);
        assert_eq!(a.deactivated_at, Some(a.created_at));

        let got = get(&t.db, b.id).await.unwrap().unwrap();
        assert_eq!(got.name, "Ökostrom Neukunden");
        assert_eq!(got.brevo_list_id, Some(501));
        assert_eq!(got.provider_id, p.id);
        let names: Vec<_> = list_by_provider(&t.db, p.id)
            .await
            .unwrap()
            .into_iter()
            .map(|l| l.name)
            .collect();
        assert_eq!(names, vec!["Bestandskunden Alt", "Ökostrom Neukunden"]);

        let err = create(
            &t.db,
            &NewList {
                provider_id: p.id,
                name: "Doppelte Brevo-ID".to_string(),
                brevo_list_id: Some(501),
                active: true,
            },
        )
        .await
        .unwrap_err();
        assert!(is_unique_violation(&err));
        let err = create(
            &t.db,
            &NewList {
                provider_id: 999,
                name: "Ohne Anbieter".to_string(),
                brevo_list_id: None,
                active: true,
            },
        )
        .await
        .unwrap_err();
        assert!(is_foreign_key_violation(&err));
        assert!(delete(&t.db, a.id).await.unwrap());
        assert!(get(&t.db, a.id).await.unwrap().is_none());
    }
}
