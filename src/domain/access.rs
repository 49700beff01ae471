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
