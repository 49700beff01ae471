//! Sessions: a random token in the cookie, only its SHA-256 in the database.

use axum::http::HeaderMap;
use chrono::{DateTime, Duration, Utc};

use crate::db::{self, Db};
use crate::domain::secret::{hash_token, new_token};
use crate::domain::user::{DataVersionRead, User};

pub const SESSION_COOKIE: &str = "ap_session";
/// A session ends after this long without a request.
pub const IDLE_TIMEOUT: Duration = Duration::hours(8);
/// A session ends this long after login, however active.
pub const ABSOLUTE_TIMEOUT: Duration = Duration::hours(24);
/// `last_seen_at` is written at most this often, not on every request.
const TOUCH_INTERVAL: Duration = Duration::minutes(1);

/// The session token from the request's `Cookie` headers, if any.
pub fn token_from_headers(headers: &HeaderMap) -> Option<String> {
    cookie_value(headers, SESSION_COOKIE)
}

/// The value of the cookie `cookie` in the request's `Cookie` headers, if any (none longer
/// than 128 characters: our cookies are shorter).
pub fn cookie_value(headers: &HeaderMap, cookie: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == cookie)
        .map(|(_, value)| value.trim().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// Starts a session for `user` (under `user.subject`) and returns the cookie token.
pub async fn create(
    db: &Db,
    user_id: Option<i64>,
    user: &User,
    now: DateTime<Utc>,
) -> Result<String, sqlx::Error> {
    let token = new_token();
    db::accounts::sessions::create(
        db,
        &db::accounts::sessions::NewSession {
            id_hash: hash_token(&token),
            user_id,
            subject: user.subject.clone(),
            name: user.name.clone(),
            email: user.email.clone(),
            customer_number: user.customer_number,
            roles: user.roles.clone(),
            created_at: now,
            expires_at: now + ABSOLUTE_TIMEOUT,
        },
    )
    .await?;
    Ok(token)
}

/// The user a live session belongs to, with the data version read in the same statement;
/// expired or idle sessions count as none.
pub async fn user_for_token(
    db: &Db,
    token: &str,
    now: DateTime<Utc>,
) -> Result<Option<(User, DataVersionRead)>, sqlx::Error> {
    let id_hash = hash_token(token);
    let Some((session, version)) =
        db::accounts::sessions::find_with_data_version(db, &id_hash).await?
    else {
        return Ok(None);
    };
    if session.expires_at <= now || session.last_seen_at + IDLE_TIMEOUT <= now {
        db::accounts::sessions::delete(db, &id_hash).await?;
        return Ok(None);
    }
    if session.last_seen_at + TOUCH_INTERVAL <= now {
        db::accounts::sessions::touch(db, &id_hash, now).await?;
    }
    let user = User {
        name: session.name,
        customer_number: session.customer_number,
        email: session.email,
        roles: session.roles,
        subject: session.subject,
    };
    Ok(Some((user, DataVersionRead(version))))
}

/// The `Set-Cookie` value that removes the session cookie.
pub const CLEAR_COOKIE: &str = "ap_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0";

/// The `Set-Cookie` value that stores a session token in the browser.
pub fn cookie_for(token: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        ABSOLUTE_TIMEOUT.num_seconds()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn token_is_read_from_any_cookie_header() {
        let mut headers = HeaderMap::new();
        headers.append("cookie", HeaderValue::from_static("theme=dark"));
        headers.append(
            "cookie",
            HeaderValue::from_static("a=1; ap_session=abc123 ; b=2"),
        );
        assert_eq!(token_from_headers(&headers).as_deref(), Some("abc123"));
    }

    #[test]
    fn no_or_empty_cookie_is_no_token() {
        let mut headers = HeaderMap::new();
        assert_eq!(token_from_headers(&headers), None);
        headers.append("cookie", HeaderValue::from_static("ap_session="));
        assert_eq!(token_from_headers(&headers), None);
    }

    #[test]
    fn cookie_is_http_only_and_lax() {
        let cookie = cookie_for("t", true);
        assert!(
            cookie.contains("HttpOnly")
                && cookie.contains("SameSite=Lax")
                && cookie.ends_with("Secure")
        );
        assert!(!cookie_for("t", false).contains("Secure"));
    }
}
