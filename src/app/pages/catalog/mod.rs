//! Catalog: download packages, their files, uploads, tags and previews.

pub mod admin_downloads;
pub mod admin_tags;
pub mod customer;
