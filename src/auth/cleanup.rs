//! The clean-up of what sign-ins leave behind: expired and idle sessions, OpenID logins
//! never finished, past login-attempt windows. Apart from `session` and `oidc`, which it
//! reads both, so that neither imports the other.

use chrono::Utc;

use crate::db::{self, Db};

/// Deletes expired and idle sessions, abandoned OpenID logins and past login-attempt windows
/// every few minutes, for as long as the server runs.
pub async fn clean_up_periodically(db: Db) {
    let mut interval = tokio::time::interval(std::time::Duration::from_secs(300));
    loop {
        interval.tick().await;
        let now = Utc::now();
        match db::accounts::sessions::delete_expired(&db, now, now - super::session::IDLE_TIMEOUT)
            .await
        {
            Ok(0) => {}
            Ok(n) => tracing::info!(sessions = n, "expired sessions removed"),
            Err(err) => tracing::warn!(error = %err, "session clean-up failed"),
        }
        let abandoned = now - super::oidc::LOGIN_TIMEOUT;
        if let Err(err) = db::accounts::oidc_logins::delete_older_than(&db, abandoned).await {
            tracing::warn!(error = %err, "clean-up of abandoned logins failed");
        }
        let window = chrono::Duration::from_std(super::throttle::WINDOW).expect("window fits");
        if let Err(err) = db::accounts::login_attempts::delete_older_than(&db, now - window).await {
            tracing::warn!(error = %err, "clean-up of old login attempts failed");
        }
    }
}
