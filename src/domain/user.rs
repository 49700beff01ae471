//! The signed-in user as pages and calls see it (spec §3 "User").

use serde::{Deserialize, Serialize};

use super::roles::RoleRule;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub name: String,
    pub customer_number: Option<i64>,
    pub email: String,
    /// Role names, e.g. `GS-Aktionsportal-Admin` or a provider role such as `GS-Aktionsportal-BU-
    /// Glasfaser`.
    pub roles: Vec<String>,
    /// Who the user is, stably across sessions: `local:{account id}` or `oidc:{subject}`.
    /// Never sent to clients; it names the uploader of a file.
    #[serde(skip)]
    pub subject: String,
}

impl User {
    pub fn satisfies(&self, rule: RoleRule) -> bool {
        rule.allows(&self.roles)
    }

    /// GS-Aktionsportal-Admin: may see and manage every provider.
    pub fn is_admin(&self) -> bool {
        self.has_role(super::roles::ADMIN)
    }

    pub fn has_role(&self, role: &str) -> bool {
        self.roles.iter().any(|r| r == role)
    }
}

/// The data version as the session loader read it with the session (one statement for both),
/// in the request's extensions for the lists that key their kept answers with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataVersionRead(pub i64);

/// The user of the current request, if any; put into request extensions by the session loader.
#[derive(Clone, Debug, Default)]
pub struct CurrentUser(pub Option<User>);
