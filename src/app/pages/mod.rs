//! The pages, one folder per product area (README "Product areas"): the sign-in pages (pure
//! SSR, no JavaScript needed), the customer view and the admin screens.

pub mod accounts;
pub mod catalog;
pub mod contacts;
pub mod insight;
pub mod marketing;
