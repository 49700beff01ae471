//! Use cases: business rules combined with data access and third parties. REST handlers,
//! server functions, pages and the CLI call these; none of them talks SQL directly. One folder
//! per product area (README "Product areas").

pub mod accounts;
pub mod catalog;
pub mod contacts;
pub mod error;
pub mod insight;
pub mod marketing;
pub mod operations;
