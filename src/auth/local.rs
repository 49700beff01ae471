//! Sign-in with a local account (the embedded default when no OpenID provider is configured).

use std::net::IpAddr;
use std::sync::OnceLock;
use std::time::Duration;

use crate::auth::password::{hash_password, verify_password};
use crate::auth::session;
use crate::auth::throttle::{self, GateError, HashPool, ThrottleKey};
use crate::db::{self, Db};
use crate::domain::user::User;

#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    /// Wrong login or password; one message for both, so logins cannot be probed.
    #[error("Login oder Passwort ist nicht korrekt.")]
    InvalidCredentials,
    #[error("Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in {} Minuten erneut.", minutes(.0))]
    Throttled(Duration),
    /// Too many logins at once; nothing was checked.
    #[error(
        "Die Anmeldung ist gerade stark ausgelastet. Bitte versuchen Sie es in einer Minute erneut."
    )]
    Busy,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<GateError> for LoginError {
    fn from(err: GateError) -> Self {
        match err {
            GateError::Throttled(wait) => LoginError::Throttled(wait),
            GateError::Busy => LoginError::Busy,
            GateError::Database(err) => LoginError::Internal(err.into()),
            GateError::Internal(err) => LoginError::Internal(err),
        }
    }
}

fn minutes(wait: &Duration) -> u64 {
    wait.as_secs().div_ceil(60).max(1)
}

/// A hash to verify against when the login does not exist, so that both cases take as long.
/// Computed on first use, inside the hash pool.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_password("decoy-password-never-used").unwrap_or_default())
}

/// The subject (the user's stable id in sessions, visits, statistics) of a local account.
pub fn subject_of(account_id: i64) -> String {
    format!("local:{account_id}")
}

/// Checks the password and starts a session; returns the cookie token and the user.
/// The attempt is counted before the password is hashed (see `throttle`).
pub async fn login(
    db: &Db,
    hashing: &HashPool,
    login: &str,
    password: &str,
    client: IpAddr,
) -> Result<(String, User), LoginError> {
    let login = login.trim().to_string();
    let keys = [
        ThrottleKey::Account(login.to_lowercase()),
        ThrottleKey::Address(client),
    ];
    let reservation = throttle::reserve(db, &keys).await?;
    if login.is_empty() || password.is_empty() || login.len() > 100 || password.len() > 1024 {
        return Err(LoginError::InvalidCredentials);
    }
    let account = db::accounts::users::find_by_login(db, &login)
        .await
        .map_err(anyhow::Error::from)?;
    let hash = account.as_ref().map(|a| a.password_hash.clone());
    let password = password.to_string();
    let matches = match hashing
        .run(move || verify_password(&password, hash.as_deref().unwrap_or_else(|| decoy_hash())))
        .await
    {
        Ok(matches) => matches,
        Err(GateError::Busy) => {
            reservation
                .give_back(db)
                .await
                .map_err(anyhow::Error::from)?;
            return Err(LoginError::Busy);
        }
        Err(err) => return Err(err.into()),
    };
    let Some(account) = account.filter(|_| matches) else {
        return Err(LoginError::InvalidCredentials);
    };
    reservation
        .succeeded(db)
        .await
        .map_err(anyhow::Error::from)?;
    let user = User {
        name: account.name.clone(),
        customer_number: account.customer_number,
        email: account.email.clone(),
        roles: account.roles.clone(),
        subject: subject_of(account.id),
    };
    let token = session::create(db, Some(account.id), &user, crate::domain::time::now())
        .await
        .map_err(anyhow::Error::from)?;
    tracing::info!(user_id = account.id, "local login");
    Ok((token, user))
}
