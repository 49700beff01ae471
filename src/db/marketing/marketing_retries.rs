//! Changes to the marketing service that still have to be made there (see
//! `services::contacts`): kept until a retry succeeds, shown to admins meanwhile.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::{Db, now};
use crate::db_run;

#[derive(Debug, Clone, sqlx::FromRow, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketingRetry {
    pub id: i64,
    /// The contact's email: how the marketing service knows the contact. For folder and list
    /// changes a German description of what waits (never an address).
    pub email: String,
    /// `upsert`, `update` or `delete` of a contact; `provider_lists` or `delete_folder`.
    pub operation: String,
    /// The request body as JSON.
    #[serde(skip)]
    pub body: String,
    pub attempts: i32,
    pub last_error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

macro_rules! retry_columns {
    () => {
        "id, email, operation, body, attempts, last_error, created_at, updated_at"
    };
}

pub async fn add(
    db: &Db,
    email: &str,
    operation: &str,
    body: &str,
    error: &str,
) -> Result<(), sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        sqlx::query(
            "insert into marketing_retries (email, operation, body, attempts, last_error, \
             created_at, updated_at) values ($1, $2, $3, 1, $4, $5, $5)",
        )
        .bind(email)
        .bind(operation)
        .bind(body)
        .bind(error)
        .bind(now)
        .execute(pool)
        .await
        .map(drop)
    })
}

/// The open retries, oldest first (at most `limit`).
pub async fn oldest(db: &Db, limit: i64) -> Result<Vec<MarketingRetry>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MarketingRetry>(concat!(
            "select ", retry_columns!(), " from marketing_retries order by id limit $1"
        ))
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// The open retries of one contact, oldest first.
pub async fn of_email(db: &Db, email: &str) -> Result<Vec<MarketingRetry>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, MarketingRetry>(concat!(
            "select ", retry_columns!(), " from marketing_retries where email = $1 order by id"
        ))
        .bind(email)
        .fetch_all(pool)
        .await
    })
}

pub async fn count(db: &Db) -> Result<i64, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>("select count(*) from marketing_retries")
            .fetch_one(pool)
            .await
    })
}

pub async fn done(db: &Db, id: i64) -> Result<(), sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query("delete from marketing_retries where id = $1")
            .bind(id)
            .execute(pool)
            .await
            .map(drop)
    })
}

pub async fn failed_again(db: &Db, id: i64, error: &str) -> Result<(), sqlx::Error> {
    let now = now();
    db_run!(db, pool => {
        sqlx::query(
            "update marketing_retries set attempts = attempts + 1, last_error = $2, \
             updated_at = $3 where id = $1",
        )
        .bind(id)
        .bind(error)
        .bind(now)
        .execute(pool)
        .await
        .map(drop)
    })
}
