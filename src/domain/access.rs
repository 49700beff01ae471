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

/// The start page of a contact editor without the admin area (BU-DOI): a customer-number
/// field and the groups the user changed last. An addition to spec §2's routes.
pub const CONTACT_START_PATH: &str = "/admin/contact/edit";

/// An area of the portal a user may work in, with the page it starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    pub capability: Capability,
    pub path: &'static str,
    /// How the account menu names it.
    pub label: &'static str,
    /// Bootstrap icon, without the `bi ` prefix.
    pub icon: &'static str,
}

/// The areas in the order a user starts in them: the customer view first (dealers, and
/// admins and moderators as always), then the admin area, then the contact editor's start page.
pub const AREAS: [Area; 3] = [
    Area {
        capability: Capability::CustomerDownloads,
        path: "/user/downloads",
        label: "Kundenansicht",
        icon: "bi-person-badge",
    },
    Area {
        capability: Capability::AdminArea,
        path: "/admin/contacts",
        label: "Adminansicht",
        icon: "bi-tools",
    },
    Area {
        capability: Capability::ContactEdit,
        path: CONTACT_START_PATH,
        label: "Kontakte bearbeiten",
        icon: "bi-person-lines-fill",
    },
];

/// The areas the user may work in, in start order.
pub fn areas_of(user: &User) -> impl Iterator<Item = &'static Area> + '_ {
    AREAS.iter().filter(|area| area.capability.allows(user))
}

/// The first page the user's roles allow; `None` for a user without any portal role.
pub fn first_allowed_page(user: &User) -> Option<&'static str> {
    areas_of(user).next().map(|area| area.path)
}

/// The first page after login and at `/`: the first page the roles allow, else /unauthorized
/// (which says what is missing).
pub fn start_page(user: &User) -> &'static str {
    first_allowed_page(user).unwrap_or(UNAUTHORIZED_PATH)
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
/// could lead anywhere else (`//host`, `https://…`, `/\\host`, their percent-encoded forms,
/// dot segments that collapse into `//host`, control characters) or back into the login and
/// the API. The answer is checked after normalisation: it is what the browser gets.
pub fn safe_return_path(raw: &str) -> Option<String> {
    if raw.len() > 2048 || !harmless_when_decoded(raw) {
        return None;
    }
    let path = normalized(raw).filter(|path| harmless_when_decoded(path))?;
    let bare = path.split(['?', '#']).next().unwrap_or("");
    if bare.starts_with("/api/") || bare == "/api" || bare == LOGIN_PATH || bare == "/login-failed"
    {
        return None;
    }
    Some(path)
}

/// Browsers and proxies may decode again: every decoded form of `text`, and what a URL parser
/// makes of it, must be a plain path on this site.
fn harmless_when_decoded(text: &str) -> bool {
    let mut decoded = text.to_string();
    for _ in 0..4 {
        if !normalized(&decoded).is_some_and(|path| plain_path(&path)) {
            return false;
        }
        let next = percent_encoding::percent_decode_str(&decoded)
            .decode_utf8_lossy()
            .into_owned();
        if next == decoded {
            break;
        }
        decoded = next;
    }
    true
}

/// A path without scheme or host, and nothing a browser could read as one.
fn plain_path(text: &str) -> bool {
    text.starts_with('/')
        && !text.starts_with("//")
        && !text.contains('\\')
        && !text.chars().any(|c| c.is_control() || c.is_whitespace())
}

/// `text` as a URL parser resolves it against this site (dot segments removed): path, query
/// and fragment; `None` unless it is a plain path that stays on this site.
fn normalized(text: &str) -> Option<String> {
    if !plain_path(text) {
        return None;
    }
    let base = url::Url::parse("http://portal.invalid/").expect("valid base");
    let joined = base.join(text).ok()?;
    (joined.origin() == base.origin()).then(|| joined[url::Position::BeforePath..].to_string())
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
        use crate::domain::roles::{ADMIN, BU_MODERATOR, DEVELOPER, PROVISION};
        assert_eq!(start_page(&user(&[PORTAL])), "/user/downloads");
        assert_eq!(start_page(&user(&[PROVISION])), "/user/downloads");
        assert_eq!(start_page(&user(&[BU_MODERATOR])), "/user/downloads");
        assert_eq!(start_page(&user(&[ADMIN, BU_DOI])), "/user/downloads");
        assert_eq!(start_page(&user(&[BU_DOI])), CONTACT_START_PATH);
        assert_eq!(start_page(&user(&[BU_DOI, "x"])), CONTACT_START_PATH);
        assert_eq!(start_page(&user(&["x"])), UNAUTHORIZED_PATH);
        assert_eq!(first_allowed_page(&user(&[DEVELOPER])), None);
    }

    #[test]
    fn areas_are_those_the_roles_allow() {
        use crate::domain::roles::BU_MODERATOR;
        let labels = |roles: &[&str]| {
            areas_of(&user(roles))
                .map(|area| area.label)
                .collect::<Vec<_>>()
        };
        assert_eq!(labels(&[PORTAL]), ["Kundenansicht"]);
        assert_eq!(labels(&[BU_DOI]), ["Kontakte bearbeiten"]);
        assert_eq!(
            labels(&[BU_MODERATOR]),
            ["Kundenansicht", "Adminansicht", "Kontakte bearbeiten"]
        );
        assert!(labels(&["x"]).is_empty());
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
        for hostile in HOSTILE {
            assert_eq!(safe_return_path(hostile), None, "{hostile:?}");
        }
    }

    /// Return targets that must never come back: other hosts in every spelling (the first
    /// three collapse into `//evil.example` only when normalised), the login and the API.
    const HOSTILE: [&str; 36] = [
        "/.//evil.example/x",
        "/x/..//evil.example",
        "/%2e//evil.example",
        "/%2E//evil.example",
        "/./%2e//evil.example",
        "/..//evil.example",
        "/x/../..//evil.example",
        "/%2e%2e//evil.example",
        "/x/%2e%2e//evil.example",
        "/.%2f/evil.example",
        "/%2e%2f/evil.example",
        "/x/..%2f/evil.example",
        "//evil.example",
        "///evil.example",
        "//evil.example/admin",
        "https://evil.example",
        "HTTPS://evil.example",
        "http:evil.example",
        "/\\evil.example",
        "\\evil.example",
        "/%2F%2Fevil.example",
        "/%2f/evil.example",
        "%2F%2Fevil.example",
        "/%5Cevil.example",
        "/%255C%255Cevil.example",
        "/%252e//evil.example",
        "/\t/evil.example",
        "/\n//evil.example",
        " /admin",
        "javascript:alert(1)",
        "data:text/html,x",
        "evil.example",
        "",
        "/api/auth/logout",
        "/x/../api/auth/logout",
        "/login",
    ];

    /// Whatever the input, an answer is a plain path on this site that reads the same when
    /// checked again: tried on every path of up to four pieces from a hostile alphabet.
    #[test]
    fn every_answer_is_a_plain_path_that_stays_here() {
        const PIECES: [&str; 12] = [
            "/",
            ".",
            "..",
            "%2e",
            "%2f",
            "%5c",
            "\\",
            "evil.example",
            "%25",
            "x",
            "?",
            "#",
        ];
        let mut tried = 0;
        let mut paths = vec![String::from("/")];
        for _ in 0..4 {
            let mut longer = Vec::new();
            for path in &paths {
                for piece in PIECES {
                    longer.push(format!("{path}{piece}"));
                }
            }
            for path in &longer {
                tried += 1;
                if let Some(answer) = safe_return_path(path) {
                    assert!(plain_path(&answer), "{path:?} gave {answer:?}");
                    let base = url::Url::parse("http://portal.invalid/").unwrap();
                    assert_eq!(
                        base.join(&answer).unwrap().host_str(),
                        Some("portal.invalid"),
                        "{path:?} gave {answer:?}"
                    );
                    assert_eq!(safe_return_path(&answer), Some(answer.clone()), "{path:?}");
                }
            }
            paths = longer;
        }
        assert!(tried > 20_000);
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
