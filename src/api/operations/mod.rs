//! Operations: backup and restore, jobs and queues, the kept answers, health and metrics.

pub mod health;
pub mod kept;
pub mod metrics;
