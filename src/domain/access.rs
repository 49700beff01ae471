//! Route guard of spec §2: who may open which page.

use super::roles::RoleRule;
use super::user::User;

/// What a page requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageAccess {
    /// Anyone, signed in or not (login, login failed, double opt-in, error pages).
    Public,
    /// A signed-in user who satisfies the rule.
    Roles(RoleRule),
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
    use super::roles::{ADMIN_AREA, CUSTOMER_VIEW};
    if !user.satisfies(CUSTOMER_VIEW) && user.satisfies(ADMIN_AREA) {
        "/admin/contacts"
    } else {
        "/user/downloads"
    }
}

pub fn guard(access: PageAccess, user: Option<&User>) -> GuardOutcome {
    match (access, user) {
        (PageAccess::Public, _) => GuardOutcome::Allow,
        (PageAccess::Roles(_), None) => GuardOutcome::Login,
        (PageAccess::Roles(rule), Some(user)) if user.satisfies(rule) => GuardOutcome::Allow,
        (PageAccess::Roles(_), Some(_)) => GuardOutcome::Unauthorized,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::roles::{ADMIN_AREA, BU_DOI, CONTACT_EDIT, PORTAL};

    fn user(roles: &[&str]) -> User {
        User {
            name: "Erika Muster".into(),
            customer_number: Some(10042),
            email: "erika@example.de".into(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
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
    fn public_pages_need_nobody() {
        assert_eq!(guard(PageAccess::Public, None), GuardOutcome::Allow);
    }

    #[test]
    fn no_user_goes_to_login() {
        assert_eq!(
            guard(PageAccess::Roles(ADMIN_AREA), None),
            GuardOutcome::Login
        );
    }

    #[test]
    fn missing_role_goes_to_unauthorized() {
        let doi = user(&[BU_DOI]);
        assert_eq!(
            guard(PageAccess::Roles(ADMIN_AREA), Some(&doi)),
            GuardOutcome::Unauthorized
        );
        assert_eq!(
            guard(PageAccess::Roles(CONTACT_EDIT), Some(&doi)),
            GuardOutcome::Allow
        );
        assert_eq!(
            guard(PageAccess::Roles(CONTACT_EDIT), Some(&user(&[PORTAL]))),
            GuardOutcome::Unauthorized
        );
    }
}
