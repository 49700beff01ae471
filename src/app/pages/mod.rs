//! One module per area: public pages (pure SSR, no JavaScript needed), the customer view and
//! the admin screens.

pub mod accounts;
pub mod admin_contacts;
pub mod catalog;
pub mod contact_editor;
pub mod contact_start;
pub mod double_opt_in;
pub mod insight;
pub mod providers;
