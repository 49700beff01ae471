//! One module per area: public pages (pure SSR, no JavaScript needed), the customer view and
//! the admin screens.

pub mod admin;
pub mod contacts;
pub mod customer;
pub mod double_opt_in;
pub mod public;
