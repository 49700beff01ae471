//! Operations: backup and restore, jobs and queues, the kept answers, health and metrics.

pub mod answers;
pub mod backup;
pub mod jobs;
pub mod queues;
