//! One module per area: public pages (pure SSR, no JavaScript needed), the customer view and
//! the admin screens.

pub mod admin;
pub mod customer;
pub mod public;
