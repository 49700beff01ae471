//! The packages whose mail's link ("Zum Paket", issue 37) the browser followed in this visit:
//! a cookie set by `/user/downloads?paket={id}&von=mail` and read by the file and ZIP
//! deliveries, which count those packages' files with the channel `mail`. It names package
//! ids only, nothing about the person, and ends two hours after the last link followed.

use axum::http::HeaderMap;

use super::session::cookie_value;

pub const MAIL_VISIT_COOKIE: &str = "ap_mail";

/// How long a visit that followed a mail's link lasts.
const VISIT_SECONDS: i64 = 2 * 60 * 60;

/// Packages a visit remembers at most (the oldest are forgotten first); the cookie stays
/// within the 128 characters `cookie_value` reads.
const MOST_PACKAGES: usize = 12;

/// The packages of this visit's mail links (none when the cookie is absent or malformed).
pub fn packages(headers: &HeaderMap) -> Vec<i64> {
    let Some(value) = cookie_value(headers, MAIL_VISIT_COOKIE) else {
        return Vec::new();
    };
    let ids: Vec<i64> = value
        .split('.')
        .filter_map(|id| id.parse::<i64>().ok())
        .filter(|id| *id > 0)
        .collect();
    let skip = ids.len().saturating_sub(MOST_PACKAGES);
    ids[skip..].to_vec()
}

/// The `Set-Cookie` value after following the link of package `id`'s mail: the visit's
/// packages with `id` last.
pub fn cookie_after_following(headers: &HeaderMap, id: i64, secure: bool) -> String {
    let mut ids: Vec<i64> = packages(headers)
        .into_iter()
        .filter(|known| *known != id)
        .collect();
    ids.push(id);
    let skip = ids.len().saturating_sub(MOST_PACKAGES);
    let value: Vec<String> = ids[skip..].iter().map(i64::to_string).collect();
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{MAIL_VISIT_COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={VISIT_SECONDS}{secure}",
        value.join(".")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_visit_keeps_the_packages_followed_last_and_ignores_anything_else() {
        let mut headers = HeaderMap::new();
        assert!(packages(&headers).is_empty());
        let cookie = cookie_after_following(&headers, 7, true);
        assert!(cookie.starts_with("ap_mail=7; Path=/; HttpOnly; SameSite=Lax; Max-Age=7200"));
        assert!(cookie.ends_with("; Secure"));
        headers.insert("cookie", HeaderValue::from_static("ap_mail=3.x.-4.7.9"));
        assert_eq!(packages(&headers), [3, 7, 9]);
        let cookie = cookie_after_following(&headers, 7, false);
        assert!(cookie.starts_with("ap_mail=3.9.7;"), "{cookie}");
        let many: Vec<String> = (1..=14).map(|i| i.to_string()).collect();
        let value = HeaderValue::from_str(&format!("ap_mail={}", many.join("."))).unwrap();
        headers.insert("cookie", value);
        assert_eq!(packages(&headers), (3..=14).collect::<Vec<_>>());
        let cookie = cookie_after_following(&headers, 99, false);
        assert!(
            cookie.starts_with("ap_mail=4.5."),
            "the oldest go: {cookie}"
        );
        assert!(cookie.contains(".14.99;"), "{cookie}");
    }
}
