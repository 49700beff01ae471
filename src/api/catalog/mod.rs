//! Catalog: download packages, their files, uploads, tags and previews.

pub mod delivery;
pub mod downloads;
pub mod files;
pub mod tags;
pub mod uploads;
