//! Role names of spec §6 and the any-of / all-of rules built from them.

pub const ADMIN: &str = "GS-Aktionsportal-Admin";
pub const BU_MODERATOR: &str = "GS-Aktionsportal-BU-Moderator";
pub const BU_DOI: &str = "GS-Aktionsportal-BU-DOI";
pub const PORTAL: &str = "GS-Aktionsportal";
pub const PROVISION: &str = "GS-Provision";
pub const DEVELOPER: &str = "GS-Aktionsportal-Developer";

/// A requirement on the roles a user holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoleRule {
    /// At least one of the roles.
    AnyOf(&'static [&'static str]),
    /// Every one of the roles.
    AllOf(&'static [&'static str]),
}

impl RoleRule {
    pub fn allows<S: AsRef<str>>(&self, roles: &[S]) -> bool {
        let holds = |wanted: &str| roles.iter().any(|r| r.as_ref() == wanted);
        match self {
            RoleRule::AnyOf(wanted) => wanted.iter().any(|w| holds(w)),
            RoleRule::AllOf(wanted) => wanted.iter().all(|w| holds(w)),
        }
    }
}

/// Customer downloads page.
pub const CUSTOMER_VIEW: RoleRule = RoleRule::AnyOf(&[PROVISION, PORTAL, ADMIN, BU_MODERATOR]);
/// Admin area pages: contacts, provider, downloads, add/edit download.
pub const ADMIN_AREA: RoleRule = RoleRule::AnyOf(&[ADMIN, BU_MODERATOR]);
/// Edit-contact page.
pub const CONTACT_EDIT: RoleRule = RoleRule::AnyOf(&[ADMIN, BU_MODERATOR, BU_DOI]);
/// Admin-only capabilities: sync manager, provider settings, add provider.
pub const ADMIN_ONLY: RoleRule = RoleRule::AnyOf(&[ADMIN]);
/// Links to both views in the profile dropdown.
pub const VIEW_LINKS: RoleRule = RoleRule::AnyOf(&[DEVELOPER, ADMIN, BU_MODERATOR]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_of_needs_one_role() {
        assert!(ADMIN_AREA.allows(&[BU_MODERATOR]));
        assert!(ADMIN_AREA.allows(&["x", ADMIN]));
        assert!(!ADMIN_AREA.allows(&[PORTAL, BU_DOI]));
        assert!(!ADMIN_AREA.allows::<&str>(&[]));
    }

    #[test]
    fn all_of_needs_every_role() {
        let rule = RoleRule::AllOf(&[ADMIN, DEVELOPER]);
        assert!(rule.allows(&[DEVELOPER, ADMIN, PORTAL]));
        assert!(!rule.allows(&[ADMIN]));
    }

    #[test]
    fn role_names_match_exactly() {
        assert!(!CUSTOMER_VIEW.allows(&["gs-aktionsportal"]));
        assert!(!CUSTOMER_VIEW.allows(&["GS-Aktionsportal-BU-Glasfaser"]));
        assert!(CUSTOMER_VIEW.allows(&["GS-Aktionsportal"]));
    }

    #[test]
    fn capability_table_of_spec_section_6() {
        assert!(CONTACT_EDIT.allows(&[BU_DOI]));
        assert!(!ADMIN_AREA.allows(&[BU_DOI]));
        assert!(!ADMIN_ONLY.allows(&[BU_MODERATOR]));
        assert!(VIEW_LINKS.allows(&[DEVELOPER]));
        assert!(!VIEW_LINKS.allows(&[PROVISION]));
        assert!(CUSTOMER_VIEW.allows(&[PROVISION]));
    }
}
