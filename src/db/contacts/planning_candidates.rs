//! Import candidates from CSV files of the planning system (`planning_candidates`).

use chrono::{DateTime, Utc};

use crate::db::Db;
use crate::db::sql::Param;
use crate::db_run;
use crate::domain::contacts::normalize_email;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PlanningCandidate {
    pub customer_number: i64,
    pub company_name: String,
    pub salutation: i16,
    pub firstname: String,
    pub lastname: String,
    pub email: String,
}

/// Replaces the candidates of every customer number in `candidates` by these, in one
/// transaction with `audit`. Returns how many rows were written.
pub async fn replace(
    db: &Db,
    candidates: &[PlanningCandidate],
    now: DateTime<Utc>,
    audit: &crate::domain::audit::Entry,
) -> Result<u64, sqlx::Error> {
    let mut numbers: Vec<i64> = candidates.iter().map(|c| c.customer_number).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let mut tx = crate::db::tx::Tx::begin(db).await?;
    for chunk in numbers.chunks(500) {
        let placeholders: Vec<String> = (1..=chunk.len()).map(|n| format!("${n}")).collect();
        let sql = format!(
            "delete from planning_candidates where customer_number in ({})",
            placeholders.join(", ")
        );
        let params: Vec<Param> = chunk.iter().map(|n| Param::Int(*n)).collect();
        tx.execute(&sql, &params).await?;
    }
    let rows: Vec<Vec<Param>> = candidates
        .iter()
        .map(|c| {
            vec![
                Param::Int(c.customer_number),
                Param::Text(c.company_name.clone()),
                Param::Int16(c.salutation),
                Param::Text(c.firstname.clone()),
                Param::Text(c.lastname.clone()),
                Param::Text(normalize_email(&c.email)),
                Param::Time(now),
                Param::Time(now),
            ]
        })
        .collect();
    let (written, _) = tx
        .insert(
            "planning_candidates",
            &[
                "customer_number",
                "company_name",
                "salutation",
                "firstname",
                "lastname",
                "email",
                "created_at",
                "updated_at",
            ],
            rows,
            None,
        )
        .await?;
    crate::db::insight::audit::record_in(&mut tx, audit).await?;
    tx.commit().await?;
    Ok(written)
}

/// The candidates of one customer number.
pub async fn of_customer(
    db: &Db,
    customer_number: i64,
) -> Result<Vec<PlanningCandidate>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, PlanningCandidate>(
            "select customer_number, company_name, salutation, firstname, lastname, email \
             from planning_candidates where customer_number = $1 order by id",
        )
        .bind(customer_number)
        .fetch_all(pool)
        .await
    })
}

/// How many candidates there are.
pub async fn count(db: &Db) -> Result<i64, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, i64>("select count(*) from planning_candidates")
            .fetch_one(pool)
            .await
    })
}
