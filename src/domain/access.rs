//! Route guard of spec §2: who may open which page.

use super::permissions::Capability;
use super::user::User;

/// What a page requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageAccess {
    /// Anyone, signed in or not (login, login failed, double opt-in, error pages).
    Public,
    /// A signed-in user with the capability.
    Requires(Capability),
}

/// What the guard decides for one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuardOutcome {
    Allow,
    /// No user: send the browser to the login page.
    Login,
    /// Signed in, but the roles are missing: send to /unauthorized.
    Unauthorized,
}

pub const LOGIN_PATH: &str = "/login";
pub const UNAUTHORIZED_PATH: &str = "/unauthorized";

/// The first page after login: the customer view when the user may see it, else the admin
/// area; users with neither reach /unauthorized from the customer view.
pub fn start_page(user: &User) -> &'static str {
    if !Capability::CustomerDownloads.allows(user) && Capability::AdminArea.allows(user) {
        "/admin/contacts"
    } else {
        "/user/downloads"
    }
}

/// The query parameter that carries the page to return to after signing in.
pub const RETURN_PARAM: &str = "next";

/// The login page, remembering `return_to` when it is a page worth returning to.
pub fn login_path_returning_to(return_to: &str) -> String {
    match safe_return_path(return_to) {
        Some(path) => format!(
            "{LOGIN_PATH}?{RETURN_PARAM}={}",
            url::form_urlencoded::byte_serialize(path.as_bytes()).collect::<String>()
        ),
        None => LOGIN_PATH.to_string(),
    }
}

/// `raw` as a path on this site to send the browser to after signing in, or `None` when it
/// could lead anywhere else (`//host`, `https://…`, `/\host`, their percent-encoded forms,
/// control characters) or back into the login and the API.
pub fn safe_return_path(raw: &str) -> Option<String> {
    fn plain_path(text: &str) -> bool {
        text.starts_with('/')
            && !text.starts_with("//")
            && !text.contains('\\')
            && !text.chars().any(|c| c.is_control() || c.is_whitespace())
    }
    if raw.len() > 2048 || !plain_path(raw) {
        return None;
    }
    // Browsers and proxies may decode again: every decoded form must be harmless too.
    let mut decoded = raw.to_string();
    for _ in 0..3 {
        let next = percent_encoding::percent_decode_str(&decoded)
            .decode_utf8_lossy()
            .into_owned();
        if !plain_path(&next) {
            return None;
        }
        if next == decoded {
            break;
        }
        decoded = next;
    }
    let base = url::Url::parse("http://portal.invalid/").expect("valid base");
    let joined = base.join(raw).ok()?;
    if joined.origin() != base.origin() {
        return None;
    }
    let path = joined.path();
    if path.starts_with("/api/") || path == "/api" || path == LOGIN_PATH || path == "/login-failed"
    {
        return None;
    }
    Some(joined[url::Position::BeforePath..].to_string())
}

pub fn guard(access: PageAccess, user: Option<&User>) -> GuardOutcome {
    match (access, user) {
        (PageAccess::Public, _) => GuardOutcome::Allow,
        (PageAccess::Requires(_), None) => GuardOutcome::Login,
        (PageAccess::Requires(capability), Some(user)) if capability.allows(user) => {
            GuardOutcome::Allow
        }
        (PageAccess::Requires(_), Some(_)) => GuardOutcome::Unauthorized,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::roles::{BU_DOI, PORTAL};
    const ADMIN_AREA: PageAccess = PageAccess::Requires(Capability::AdminArea);
    const CONTACT_EDIT: PageAccess = PageAccess::Requires(Capability::ContactEdit);

    fn user(roles: &[&str]) -> User {
        User {
            name: "Erika Muster".into(),
            customer_number: Some(10042),
            email: "erika@example.de".into(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
            subject: "test:erika".into(),
        }
    }

    #[test]
    fn start_page_follows_the_roles() {
        assert_eq!(start_page(&user(&[PORTAL])), "/user/downloads");
        assert_eq!(
            start_page(&user(&["GS-Aktionsportal-BU-Moderator"])),
            "/user/downloads"
        );
        assert_eq!(start_page(&user(&["x"])), "/user/downloads");
    }

    #[test]
    fn return_paths_stay_on_this_site() {
        assert_eq!(
            safe_return_path("/admin/provider/3?x=1").as_deref(),
            Some("/admin/provider/3?x=1")
        );
        assert_eq!(
            safe_return_path("/user/downloads").as_deref(),
            Some("/user/downloads")
        );
        assert_eq!(
            safe_return_path("/admin/../user/downloads").as_deref(),
            Some("/user/downloads")
        );
        for hostile in [
            "//evil.example",
            "//evil.example/admin",
            "https://evil.example",
            "http:evil.example",
            "/\\evil.example",
            "\\evil.example",
            "/%2F%2Fevil.example",
            "/%2f/evil.example",
            "%2F%2Fevil.example",
            "/%5Cevil.example",
            "/%255C%255Cevil.example",
            "/\t/evil.example",
            "/\n//evil.example",
            " /admin",
            "javascript:alert(1)",
            "evil.example",
            "",
            "/api/auth/logout",
            "/login",
        ] {
            assert_eq!(safe_return_path(hostile), None, "{hostile:?}");
        }
    }

    #[test]
    fn the_login_path_carries_the_return_target() {
        assert_eq!(
            login_path_returning_to("/admin/provider/3"),
            "/login?next=%2Fadmin%2Fprovider%2F3"
        );
        assert_eq!(login_path_returning_to("//evil.example"), "/login");
    }

    #[test]
    fn public_pages_need_nobody() {
        assert_eq!(guard(PageAccess::Public, None), GuardOutcome::Allow);
    }

    #[test]
    fn no_user_goes_to_login() {
        assert_eq!(guard(ADMIN_AREA, None), GuardOutcome::Login);
    }

    #[test]
    fn missing_role_goes_to_unauthorized() {
        let doi = user(&[BU_DOI]);
        assert_eq!(guard(ADMIN_AREA, Some(&doi)), GuardOutcome::Unauthorized);
        assert_eq!(guard(CONTACT_EDIT, Some(&doi)), GuardOutcome::Allow);
        assert_eq!(
            guard(CONTACT_EDIT, Some(&user(&[PORTAL]))),
            GuardOutcome::Unauthorized
        );
    }
}
