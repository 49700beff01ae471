//! The capability table of spec §6 — the one place that says who may do what. Pages and
//! API routes name a capability; per-provider rights come from the provider's `allowedRoles`.

use serde_json::Value;

use super::roles::{ADMIN_AREA, ADMIN_ONLY, CONTACT_EDIT, CUSTOMER_VIEW, RoleRule, VIEW_LINKS};
use super::user::User;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// Admin area pages and their calls: contacts, provider, downloads, add/edit download.
    AdminArea,
    /// Edit-contact page; import sections, submit and action bar.
    ContactEdit,
    /// Edit salutation and name, block and delete contacts, add-criteria button.
    ContactDetails,
    /// Sync manager, provider settings, criteria-picker reset, add provider.
    AdminOnly,
    /// Customer downloads page.
    CustomerDownloads,
    /// Links to both views in the profile dropdown.
    ViewLinks,
    /// Any signed-in user (e.g. "who am I").
    SignedIn,
}

impl Capability {
    /// `None` means any signed-in user.
    pub fn rule(self) -> Option<RoleRule> {
        match self {
            Capability::AdminArea | Capability::ContactDetails => Some(ADMIN_AREA),
            Capability::ContactEdit => Some(CONTACT_EDIT),
            Capability::AdminOnly => Some(ADMIN_ONLY),
            Capability::CustomerDownloads => Some(CUSTOMER_VIEW),
            Capability::ViewLinks => Some(VIEW_LINKS),
            Capability::SignedIn => None,
        }
    }

    pub fn allows(self, user: &User) -> bool {
        self.rule().is_none_or(|rule| user.satisfies(rule))
    }
}

/// Whether the user may see and manage a provider (its lists, downloads and contacts):
/// admins always, others when they hold one of the provider's `allowedRoles`.
pub fn may_manage_provider<S: AsRef<str>>(user: &User, allowed_roles: &[S]) -> bool {
    user.is_admin()
        || allowed_roles
            .iter()
            .any(|allowed| user.roles.iter().any(|r| r == allowed.as_ref()))
}

/// Whether the user may put an upload into a package or make it a provider's logo: admins
/// any; others a fresh upload of their own (`uploaded_by` is their subject and no package
/// holds it yet), or one already in a package of a provider they may manage. `holders` are
/// the `allowedRoles` of the providers whose packages hold the upload. Upload ids are
/// sequential and shown in the admin list, so without this anyone could attach another
/// provider's files to their own package and hand them to their customers.
pub fn may_use_upload<S: AsRef<str>>(
    user: &User,
    uploaded_by: Option<&str>,
    holders: &[&[S]],
) -> bool {
    if user.is_admin() {
        return true;
    }
    if holders.is_empty() {
        return !user.subject.is_empty() && uploaded_by == Some(user.subject.as_str());
    }
    holders.iter().any(|roles| may_manage_provider(user, roles))
}

/// `allowedRoles` as clients send it: a JSON array of strings, or that array encoded as a
/// JSON string (spec §3). Anything else is `None`.
pub fn parse_allowed_roles(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().map(str::to_string))
            .collect(),
        Value::String(text) => serde_json::from_str::<Value>(text)
            .ok()
            .filter(Value::is_array)
            .and_then(|inner| parse_allowed_roles(&inner)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::roles::ADMIN;
    use serde_json::json;

    fn user(roles: &[&str]) -> User {
        User {
            name: "n".into(),
            customer_number: None,
            email: "e@example.de".into(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
            subject: "test:n".into(),
        }
    }

    #[test]
    fn capabilities_follow_spec_section_6() {
        let doi = user(&["GS-Aktionsportal-BU-DOI"]);
        assert!(Capability::ContactEdit.allows(&doi));
        assert!(!Capability::ContactDetails.allows(&doi));
        assert!(!Capability::AdminArea.allows(&doi));
        let moderator = user(&["GS-Aktionsportal-BU-Moderator"]);
        assert!(Capability::ContactDetails.allows(&moderator));
        assert!(!Capability::AdminOnly.allows(&moderator));
        assert!(Capability::AdminOnly.allows(&user(&[ADMIN])));
        assert!(Capability::SignedIn.allows(&user(&[])));
    }

    #[test]
    fn providers_are_managed_by_admins_and_their_roles() {
        let roles = ["GS-Aktionsportal-BU-Glasfaser"];
        assert!(may_manage_provider(&user(&[ADMIN]), &roles));
        assert!(may_manage_provider(
            &user(&["GS-Aktionsportal-BU-Glasfaser"]),
            &roles
        ));
        assert!(!may_manage_provider(
            &user(&["GS-Aktionsportal-BU-Moderator"]),
            &roles
        ));
        assert!(!may_manage_provider(
            &user(&["GS-Aktionsportal-BU-Strom"]),
            &roles
        ));
    }

    #[test]
    fn uploads_are_used_by_their_uploader_or_through_a_managed_package() {
        let glasfaser: &[&str] = &["GS-Aktionsportal-BU-Glasfaser"];
        let strom: &[&str] = &["GS-Aktionsportal-BU-Strom"];
        let moderator = user(&["GS-Aktionsportal-BU-Moderator", glasfaser[0]]);
        let none: &[&[&str]] = &[];
        // Fresh: only the uploader (by subject, not by role).
        assert!(may_use_upload(&moderator, Some("test:n"), none));
        assert!(!may_use_upload(&moderator, Some("test:other"), none));
        assert!(!may_use_upload(&moderator, None, none));
        let mut nobody = moderator.clone();
        nobody.subject.clear();
        assert!(!may_use_upload(&nobody, Some(""), none));
        // In packages: those of a provider the user manages, whoever uploaded it.
        assert!(may_use_upload(&moderator, Some("test:other"), &[glasfaser]));
        assert!(may_use_upload(&moderator, None, &[strom, glasfaser]));
        assert!(!may_use_upload(&moderator, Some("test:n"), &[strom]));
        // Admins: anything.
        assert!(may_use_upload(&user(&[ADMIN]), None, &[strom]));
        assert!(may_use_upload(&user(&[ADMIN]), Some("x"), none));
    }

    #[test]
    fn allowed_roles_may_arrive_as_a_json_string() {
        let expected = Some(vec!["A".to_string(), "B".to_string()]);
        assert_eq!(parse_allowed_roles(&json!(["A", "B"])), expected);
        assert_eq!(parse_allowed_roles(&json!("[\"A\",\"B\"]")), expected);
        assert_eq!(parse_allowed_roles(&json!("A,B")), None);
        assert_eq!(parse_allowed_roles(&json!([1])), None);
        assert_eq!(parse_allowed_roles(&json!(null)), None);
    }
}
