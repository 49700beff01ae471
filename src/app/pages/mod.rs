//! One module per area: public pages (pure SSR, no JavaScript needed), the customer view and
//! the admin screens.

pub mod accounts;
pub mod catalog;
pub mod contacts;
pub mod insight;
pub mod marketing;
