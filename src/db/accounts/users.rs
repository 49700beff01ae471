//! Local user accounts (`users`) and their roles (`user_roles`).
//!
//! Roles live in their own table, one row per role; an `Account` carries them sorted by name.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::bulk::{LinkSet, replace_links};
use crate::db::sql::Param;
use crate::db::{Db, dedup_keep_order, now};
use crate::db_run;
use crate::domain::audit::Entry;

macro_rules! user_columns {
    () => {
        "id, login, password_hash, name, email, customer_number, created_at, updated_at"
    };
}

/// A local account. The password hash is never serialised.
#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Account {
    pub id: i64,
    pub login: String,
    #[serde(skip_serializing)]
    pub password_hash: String,
    pub name: String,
    pub email: String,
    pub customer_number: Option<i64>,
    /// Sorted by name; filled from `user_roles`.
    #[sqlx(skip)]
    pub roles: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct NewAccount {
    pub login: String,
    pub password_hash: String,
    pub name: String,
    pub email: String,
    pub customer_number: Option<i64>,
    pub roles: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct AccountRoleRow {
    user_id: i64,
    role: String,
}

/// Creates a user and its roles in one transaction, with `audit` for the new id. A taken login
/// fails with a unique violation.
pub async fn create(db: &Db, new: &NewAccount, audit: &Entry) -> Result<Account, sqlx::Error> {
    let now = now();
    let mut roles = dedup_keep_order(&new.roles);
    roles.sort();
    let mut user = db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let user = sqlx::query_as::<_, Account>(concat!(
            "insert into users \
             (login, password_hash, name, email, customer_number, created_at, updated_at) \
             values ($1, $2, $3, $4, $5, $6, $6) returning ",
            user_columns!()
        ))
        .bind(&new.login)
        .bind(&new.password_hash)
        .bind(&new.name)
        .bind(&new.email)
        .bind(new.customer_number)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        for role in &roles {
            sqlx::query(
                "insert into user_roles (user_id, role, created_at, updated_at) \
                 values ($1, $2, $3, $3)",
            )
            .bind(user.id)
            .bind(role)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        crate::db::insight::audit::record!(tx, &audit.for_id(user.id))?;
        tx.commit().await?;
        user
    });
    user.roles = roles;
    Ok(user)
}

pub async fn find_by_login(db: &Db, login: &str) -> Result<Option<Account>, sqlx::Error> {
    let user = db_run!(db, pool => {
        sqlx::query_as::<_, Account>(concat!(
            "select ",
            user_columns!(),
            " from users where login = $1"
        ))
        .bind(login)
        .fetch_optional(pool)
        .await?
    });
    with_roles(db, user).await
}

pub async fn find_by_id(db: &Db, id: i64) -> Result<Option<Account>, sqlx::Error> {
    let user = db_run!(db, pool => {
        sqlx::query_as::<_, Account>(concat!(
            "select ",
            user_columns!(),
            " from users where id = $1"
        ))
        .bind(id)
        .fetch_optional(pool)
        .await?
    });
    with_roles(db, user).await
}

async fn with_roles(db: &Db, user: Option<Account>) -> Result<Option<Account>, sqlx::Error> {
    let Some(mut user) = user else {
        return Ok(None);
    };
    user.roles = roles_of(db, user.id).await?;
    Ok(Some(user))
}

/// The roles of one user, sorted by name.
pub async fn roles_of(db: &Db, user_id: i64) -> Result<Vec<String>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_scalar::<_, String>(
            "select role from user_roles where user_id = $1 order by role",
        )
        .bind(user_id)
        .fetch_all(pool)
        .await
    })
}

/// All users ordered by login, with their roles (two queries in all).
pub async fn list(db: &Db) -> Result<Vec<Account>, sqlx::Error> {
    let (mut users, roles) = db_run!(db, pool => {
        let users = sqlx::query_as::<_, Account>(concat!(
            "select ",
            user_columns!(),
            " from users order by login"
        ))
        .fetch_all(pool)
        .await?;
        let roles = sqlx::query_as::<_, AccountRoleRow>(
            "select user_id, role from user_roles order by user_id, role",
        )
        .fetch_all(pool)
        .await?;
        (users, roles)
    });
    let mut by_user: HashMap<i64, Vec<String>> = HashMap::new();
    for row in roles {
        by_user.entry(row.user_id).or_default().push(row.role);
    }
    for user in &mut users {
        user.roles = by_user.remove(&user.id).unwrap_or_default();
    }
    Ok(users)
}

/// Deletes a user (its roles and sessions go with it) with `audit`. False when no such login
/// exists.
pub async fn delete_by_login(db: &Db, login: &str, audit: &Entry) -> Result<bool, sqlx::Error> {
    crate::db::insight::audit::execute_audited(
        db,
        "delete from users where login = $1",
        &[login.into()],
        audit,
    )
    .await
}

/// Replaces the roles of a user in one transaction with `audit`. False when the user does not
/// exist.
pub async fn set_roles(
    db: &Db,
    user_id: i64,
    roles: &[String],
    audit: &Entry,
) -> Result<bool, sqlx::Error> {
    let roles = dedup_keep_order(roles).into_iter().map(Param::from);
    replace_links(db, &USER_ROLES, user_id, roles.collect(), audit).await
}

/// The roles of each user.
const USER_ROLES: LinkSet = LinkSet {
    owners: "users",
    links: "user_roles",
    owner_column: "user_id",
    value_column: "role",
};

/// Stores a new password hash with `audit` (which holds no hash). False when the user does
/// not exist.
pub async fn set_password_hash(
    db: &Db,
    user_id: i64,
    password_hash: &str,
    audit: &Entry,
) -> Result<bool, sqlx::Error> {
    crate::db::insight::audit::execute_audited(
        db,
        "update users set password_hash = $2, updated_at = $3 where id = $1",
        &[user_id.into(), password_hash.into(), now().into()],
        audit,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::is_unique_violation;
    use crate::test_support::TestDb;

    fn new_user(login: &str, roles: &[&str]) -> NewAccount {
        NewAccount {
            login: login.to_string(),
            password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".to_string(),
            name: format!("Name {login}"),
            email: format!("{login}@example.de"),
            customer_number: Some(100001),
            roles: roles.iter().map(|r| r.to_string()).collect(),
        }
    }

    #[tokio::test]
    async fn create_find_and_list_round_trip() {
        let t = TestDb::new().await;
        let created = create(
            &t.db,
            &new_user("zoe", &["GS-Aktionsportal-Admin", "GS-Aktionsportal"]),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        assert_eq!(
            created.roles,
            vec!["GS-Aktionsportal", "GS-Aktionsportal-Admin"]
        );
        create(
            &t.db,
            &new_user("anna", &[]),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();

        let found = find_by_login(&t.db, "zoe").await.unwrap().unwrap();
        assert_eq!(found.id, created.id);
        assert_eq!(found.email, "zoe@example.de");
        assert_eq!(found.customer_number, Some(100001));
        assert_eq!(found.roles, created.roles);
        assert_eq!(found.created_at, created.created_at);
        assert_eq!(
            find_by_id(&t.db, created.id).await.unwrap().unwrap().login,
            "zoe"
        );
        assert!(find_by_login(&t.db, "nobody").await.unwrap().is_none());
        assert!(find_by_id(&t.db, 999_999).await.unwrap().is_none());

        let all = list(&t.db).await.unwrap();
        let logins: Vec<_> = all.iter().map(|u| u.login.as_str()).collect();
        assert_eq!(logins, vec!["anna", "zoe"]);
        assert!(all[0].roles.is_empty());
        assert_eq!(all[1].roles.len(), 2);
        // The hash never leaves the server in JSON.
        let json = serde_json::to_value(&all[1]).unwrap();
        assert!(json.get("password_hash").is_none());
    }

    #[tokio::test]
    async fn duplicate_login_is_a_unique_violation_and_leaves_no_roles() {
        let t = TestDb::new().await;
        create(
            &t.db,
            &new_user("max", &["A"]),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        let err = create(
            &t.db,
            &new_user("max", &["B"]),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap_err();
        assert!(is_unique_violation(&err), "{err:?}");
        let users = list(&t.db).await.unwrap();
        assert_eq!(users.len(), 1);
        assert_eq!(users[0].roles, vec!["A"]);
    }

    #[tokio::test]
    async fn roles_password_and_delete() {
        let t = TestDb::new().await;
        let user = create(
            &t.db,
            &new_user("lena", &["A", "A", "B"]),
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        assert_eq!(user.roles, vec!["A", "B"]);
        assert!(
            set_roles(
                &t.db,
                user.id,
                &["C".to_string(), "B".to_string()],
                &crate::test_support::cli_change()
            )
            .await
            .unwrap()
        );
        assert_eq!(roles_of(&t.db, user.id).await.unwrap(), vec!["B", "C"]);
        assert!(
            !set_roles(
                &t.db,
                424_242,
                &["C".to_string()],
                &crate::test_support::cli_change()
            )
            .await
            .unwrap()
        );

        assert!(
            set_password_hash(&t.db, user.id, "neu", &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        assert_eq!(
            find_by_id(&t.db, user.id)
                .await
                .unwrap()
                .unwrap()
                .password_hash,
            "neu"
        );
        assert!(
            !set_password_hash(&t.db, 424_242, "x", &crate::test_support::cli_change())
                .await
                .unwrap()
        );

        assert!(
            delete_by_login(&t.db, "lena", &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        assert!(
            !delete_by_login(&t.db, "lena", &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        assert!(roles_of(&t.db, user.id).await.unwrap().is_empty());
    }
}
