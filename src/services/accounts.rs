//! Local accounts: the embedded sign-in when no OpenID provider is configured.
//! Used by the CLI (`user add/list/remove/set-password/set-roles`) and the login.

use crate::auth::password::{MIN_PASSWORD_LENGTH, generate_password, hash_password};
use crate::auth::throttle::ThrottleKey;
use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use serde_json::Value;

/// An account request as typed on the command line, before validation.
#[derive(Clone, Debug, Default)]
pub struct AccountInput {
    pub login: String,
    pub password: String,
    pub name: Option<String>,
    pub email: String,
    pub customer_number: Option<i64>,
    pub roles: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("{0}")]
    Invalid(String),
    #[error("Ein Konto mit dem Login {0} existiert bereits.")]
    Exists(String),
    #[error("Kein Konto mit dem Login {0} gefunden.")]
    NotFound(String),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl From<sqlx::Error> for AccountError {
    fn from(err: sqlx::Error) -> Self {
        AccountError::Other(err.into())
    }
}

pub fn validate_login(login: &str) -> Result<String, AccountError> {
    let login = login.trim();
    let valid_chars = login
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'));
    if login.len() < 2 || login.len() > 100 || !valid_chars {
        return Err(AccountError::Invalid(
            "Der Login muss 2 bis 100 Zeichen lang sein und darf nur Buchstaben, Ziffern und . _ - @ enthalten.".into(),
        ));
    }
    Ok(login.to_string())
}

pub fn validate_password(password: &str) -> Result<(), AccountError> {
    if password.chars().count() < MIN_PASSWORD_LENGTH {
        return Err(AccountError::Invalid(format!(
            "Das Passwort muss mindestens {MIN_PASSWORD_LENGTH} Zeichen lang sein."
        )));
    }
    if password.len() > 1024 {
        return Err(AccountError::Invalid("Das Passwort ist zu lang.".into()));
    }
    Ok(())
}

/// Trims, drops empty entries and duplicates; at least one role is required.
pub fn validate_roles(roles: &[String]) -> Result<Vec<String>, AccountError> {
    let mut clean: Vec<String> = Vec::new();
    for role in roles.iter().map(|r| r.trim()).filter(|r| !r.is_empty()) {
        if role.len() > 200 {
            return Err(AccountError::Invalid(format!(
                "Die Rolle {role} ist zu lang."
            )));
        }
        if !clean.iter().any(|r| r == role) {
            clean.push(role.to_string());
        }
    }
    if clean.is_empty() {
        return Err(AccountError::Invalid(
            "Es muss mindestens eine Rolle angegeben werden.".into(),
        ));
    }
    Ok(clean)
}

pub fn validate_email(email: &str) -> Result<String, AccountError> {
    let email = email.trim();
    let valid = email.len() <= 254
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        })
        && !email.contains(char::is_whitespace);
    if !valid {
        return Err(AccountError::Invalid(format!(
            "{email} ist keine gültige E-Mail-Adresse."
        )));
    }
    Ok(email.to_lowercase())
}

/// An account of generated data (the demo's, the benchmark's): made with a generated password
/// and the address `{login}@aktionsportal.example`, which is returned with it; `None` when the
/// login exists already (its password stays).
pub async fn add_generated(
    db: &Db,
    login: &str,
    name: &str,
    roles: &[&str],
    customer_number: Option<i64>,
) -> Result<Option<(db::accounts::users::Account, String)>, AccountError> {
    if db::accounts::users::find_by_login(db, login)
        .await?
        .is_some()
    {
        return Ok(None);
    }
    let password = generate_password();
    let account = add(
        db,
        AccountInput {
            login: login.into(),
            password: password.clone(),
            name: Some(name.into()),
            email: format!("{login}@aktionsportal.example"),
            customer_number,
            roles: roles.iter().map(|r| r.to_string()).collect(),
        },
    )
    .await?;
    Ok(Some((account, password)))
}

pub async fn add(
    db: &Db,
    input: AccountInput,
) -> Result<db::accounts::users::Account, AccountError> {
    let login = validate_login(&input.login)?;
    validate_password(&input.password)?;
    let roles = validate_roles(&input.roles)?;
    let email = validate_email(&input.email)?;
    if let Some(n) = input.customer_number
        && n <= 0
    {
        return Err(AccountError::Invalid(
            "Die Kundennummer muss eine positive Zahl sein.".into(),
        ));
    }
    let name = input
        .name
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| login.clone());
    if db::accounts::users::find_by_login(db, &login)
        .await?
        .is_some()
    {
        return Err(AccountError::Exists(login));
    }
    let new = db::accounts::users::NewAccount {
        login: login.clone(),
        password_hash: hash_password(&input.password)?,
        name,
        email,
        customer_number: input.customer_number,
        roles,
    };
    let audit = Entry::new(&Actor::Cli, Action::Create, Entity::User, None)
        .named(&new.login)
        .with_changes(
            Changes::none()
                .field("login", Value::Null, &new.login)
                .field("name", Value::Null, &new.name)
                .field("email", Value::Null, &new.email)
                .field("customer_number", Value::Null, new.customer_number)
                .field("roles", Value::Null, &new.roles),
        );
    db::accounts::users::create(db, &new, &audit)
        .await
        .map_err(|err| {
            if db::is_unique_violation(&err) {
                AccountError::Exists(login)
            } else {
                err.into()
            }
        })
}

/// Removes an account and, through the foreign key, every session it had.
pub async fn remove(db: &Db, login: &str) -> Result<(), AccountError> {
    let user = find(db, login).await?;
    let audit = Entry::new(&Actor::Cli, Action::Delete, Entity::User, Some(user.id))
        .named(&user.login)
        .with_changes(Changes::deleted(&user));
    if db::accounts::users::delete_by_login(db, login.trim(), &audit).await? {
        Ok(())
    } else {
        Err(AccountError::NotFound(login.trim().to_string()))
    }
}

/// Sets a new password and ends the account's sessions.
pub async fn set_password(db: &Db, login: &str, password: &str) -> Result<(), AccountError> {
    validate_password(password)?;
    let user = find(db, login).await?;
    let audit = Entry::new(
        &Actor::Cli,
        Action::SetPassword,
        Entity::User,
        Some(user.id),
    )
    .named(&user.login);
    db::accounts::users::set_password_hash(db, user.id, &hash_password(password)?, &audit).await?;
    db::accounts::sessions::delete_for_user(db, user.id).await?;
    Ok(())
}

/// Replaces the account's roles and ends its sessions (they carry the old roles).
pub async fn set_roles(db: &Db, login: &str, roles: &[String]) -> Result<(), AccountError> {
    let roles = validate_roles(roles)?;
    let user = find(db, login).await?;
    let audit = Entry::new(&Actor::Cli, Action::SetRoles, Entity::User, Some(user.id))
        .named(&user.login)
        .with_changes(Changes::none().field("roles", &user.roles, &roles));
    db::accounts::users::set_roles(db, user.id, &roles, &audit).await?;
    db::accounts::sessions::delete_for_user(db, user.id).await?;
    Ok(())
}

async fn find(db: &Db, login: &str) -> Result<db::accounts::users::Account, AccountError> {
    db::accounts::users::find_by_login(db, login.trim())
        .await?
        .ok_or_else(|| AccountError::NotFound(login.trim().to_string()))
}

/// Signs out: ends the session whose token the browser sent; without one there is nothing to
/// end. Only the token's hash is stored, so the lookup hashes it first.
pub async fn sign_out(
    db: &Db,
    session_token: Option<&str>,
) -> crate::services::error::ServiceResult<()> {
    if let Some(token) = session_token {
        db::accounts::sessions::delete(db, &crate::domain::secret::hash_token(token)).await?;
    }
    Ok(())
}

/// Forgets the failed logins of an account or address (see `auth::throttle`); true when
/// there were any.
pub async fn unlock(db: &Db, key: &ThrottleKey) -> anyhow::Result<bool> {
    Ok(db::accounts::login_attempts::clear(db, &key.stored()).await?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;

    fn input(login: &str) -> AccountInput {
        AccountInput {
            login: login.into(),
            password: "Sommer-Aktion-2026".into(),
            name: Some("Erika Admin".into()),
            email: "Erika@Example.de".into(),
            customer_number: Some(10042),
            roles: vec![
                "GS-Aktionsportal-Admin".into(),
                " GS-Aktionsportal-Admin ".into(),
                "".into(),
            ],
        }
    }

    #[test]
    fn validation_messages_are_german() {
        assert!(validate_login("a b").is_err());
        assert!(
            matches!(validate_password("kurz"), Err(AccountError::Invalid(m)) if m.contains("mindestens 10"))
        );
        assert!(validate_roles(&[" ".into()]).is_err());
        assert!(validate_email("kein-at.de").is_err());
        assert_eq!(
            validate_email(" Max@Example.DE ").unwrap(),
            "max@example.de"
        );
    }

    #[tokio::test]
    async fn add_list_and_remove_an_account() {
        let test = TestDb::new().await;
        let user = add(&test.db, input("erika")).await.unwrap();
        assert_eq!(user.roles, vec!["GS-Aktionsportal-Admin".to_string()]);
        assert_eq!(user.email, "erika@example.de");
        assert!(user.password_hash.starts_with("$argon2id$"));
        assert!(matches!(
            add(&test.db, input("erika")).await,
            Err(AccountError::Exists(_))
        ));
        remove(&test.db, "erika").await.unwrap();
        assert!(matches!(
            remove(&test.db, "erika").await,
            Err(AccountError::NotFound(_))
        ));
    }

    #[tokio::test]
    async fn invalid_input_writes_nothing() {
        let test = TestDb::new().await;
        let mut bad = input("max");
        bad.password = "kurz".into();
        assert!(add(&test.db, bad).await.is_err());
        assert!(
            db::accounts::users::find_by_login(&test.db, "max")
                .await
                .unwrap()
                .is_none()
        );
    }

    #[tokio::test]
    async fn changing_roles_or_password_ends_sessions() {
        let test = TestDb::new().await;
        let user = add(&test.db, input("erika")).await.unwrap();
        let session_user = crate::domain::user::User {
            name: user.name.clone(),
            customer_number: user.customer_number,
            email: user.email.clone(),
            roles: user.roles.clone(),
            subject: "local:1".into(),
        };
        let now = chrono::Utc::now();
        let token = crate::auth::session::create(&test.db, Some(user.id), &session_user, now)
            .await
            .unwrap();
        set_roles(&test.db, "erika", &["GS-Aktionsportal".into()])
            .await
            .unwrap();
        assert!(
            crate::auth::session::user_for_token(&test.db, &token, now)
                .await
                .unwrap()
                .is_none()
        );
        let reloaded = db::accounts::users::find_by_login(&test.db, "erika")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(reloaded.roles, vec!["GS-Aktionsportal".to_string()]);
        set_password(&test.db, "erika", "Winter-Aktion-2026")
            .await
            .unwrap();
        let reloaded = db::accounts::users::find_by_login(&test.db, "erika")
            .await
            .unwrap()
            .unwrap();
        assert!(crate::auth::password::verify_password(
            "Winter-Aktion-2026",
            &reloaded.password_hash
        ));
    }
}
