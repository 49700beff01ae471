//! Data sets for a fresh portal, created by the operator's commands: the German demo data
//! (`seed-demo`) and the large benchmark data set (`seed-large`), with their sample files.
//!
//! Not a use case of the portal: nothing in `api`, `app` or `services` calls it. It writes
//! through `db` and the file store like a migration would, and creates accounts through
//! `services::accounts`.

pub mod demo;
pub mod large;
pub mod large_audit;
pub mod large_events;
pub mod samples;
