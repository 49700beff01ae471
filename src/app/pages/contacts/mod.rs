//! Contacts: contacts, customer groups, double opt-in, the planning import and data-subject requests.

pub mod admin_contacts;
pub mod contact_editor;
pub mod contact_start;
pub mod double_opt_in;
pub mod unsubscribe;
