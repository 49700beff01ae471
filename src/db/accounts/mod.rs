//! Accounts: users, sign-in and sessions.

pub mod login_attempts;
pub mod oidc_logins;
pub mod sessions;
pub mod users;
