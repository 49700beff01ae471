//! Catalog: download packages, their files, uploads, tags and previews.

pub mod announcements;
pub mod end_notices;
pub mod files;
pub mod packages;
pub mod previews;
pub mod tags;
pub mod uploads;
