//! Sign-in with a local account (the embedded default when no OpenID provider is configured).

use std::net::IpAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::auth::password::{hash_password, verify_password};
use crate::auth::session;
use crate::auth::throttle::{LoginThrottle, ThrottleKey};
use crate::db::{self, Db};
use crate::domain::user::User;

#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    /// Wrong login or password; one message for both, so logins cannot be probed.
    #[error("Login oder Passwort ist nicht korrekt.")]
    InvalidCredentials,
    #[error("Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in {} Minuten erneut.", minutes(.0))]
    Throttled(Duration),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

fn minutes(wait: &Duration) -> u64 {
    wait.as_secs().div_ceil(60).max(1)
}

/// A hash to verify against when the login does not exist, so that both cases take as long.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_password("decoy-password-never-used").unwrap_or_default())
}

/// Checks the password and starts a session; returns the cookie token and the user.
pub async fn login(
    db: &Db,
    throttle: &LoginThrottle,
    login: &str,
    password: &str,
    client: IpAddr,
) -> Result<(String, User), LoginError> {
    let login = login.trim().to_string();
    let keys = [
        ThrottleKey::Account(login.to_lowercase()),
        ThrottleKey::Address(client),
    ];
    throttle
        .check(&keys, Instant::now())
        .map_err(LoginError::Throttled)?;
    if login.is_empty() || password.is_empty() || login.len() > 100 || password.len() > 1024 {
        throttle.record_failure(&keys, Instant::now());
        return Err(LoginError::InvalidCredentials);
    }
    let account = db::users::find_by_login(db, &login)
        .await
        .map_err(anyhow::Error::from)?;
    let hash = account
        .as_ref()
        .map(|a| a.password_hash.clone())
        .unwrap_or_else(|| decoy_hash().to_string());
    let password = password.to_string();
    // Argon2 takes tens of milliseconds of CPU: keep it off the async workers.
    let matches = tokio::task::spawn_blocking(move || verify_password(&password, &hash))
        .await
        .map_err(anyhow::Error::from)?;
    let Some(account) = account.filter(|_| matches) else {
        throttle.record_failure(&keys, Instant::now());
        return Err(LoginError::InvalidCredentials);
    };
    throttle.record_success(&keys[0]);
    let user = User {
        name: account.name.clone(),
        customer_number: account.customer_number,
        email: account.email.clone(),
        roles: account.roles.clone(),
    };
    let subject = format!("local:{}", account.id);
    let token = session::create(db, Some(account.id), &subject, &user, chrono::Utc::now())
        .await
        .map_err(anyhow::Error::from)?;
    tracing::info!(user_id = account.id, "local login");
    Ok((token, user))
}
