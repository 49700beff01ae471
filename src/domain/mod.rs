//! Pure business rules: roles and route access (spec §6), the layout's logo choice.
//! Nothing here does I/O; every rule has its unit tests beside it.

pub mod access;
pub mod announcements;
pub mod audit;
pub mod backup;
pub mod badges;
pub mod branding;
pub mod contacts;
pub mod double_opt_in;
pub mod erasure;
pub mod files;
pub mod format;
pub mod input;
pub mod lists;
pub mod outage;
pub mod packages;
pub mod paging;
pub mod permissions;
pub mod planning_csv;
pub mod roles;
pub mod secret;
pub mod statistics;
pub mod tags;
pub mod text;
pub mod time;
pub mod user;
pub mod validation;
