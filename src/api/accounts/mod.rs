//! Accounts: users, sign-in and sessions.

pub mod auth;
