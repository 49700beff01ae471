//! Operations: backup and restore, jobs and queues, the kept answers, health and metrics.

pub mod data_version;
pub mod job_leases;
pub mod mail_jobs;
pub mod snapshot;
