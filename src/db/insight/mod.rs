//! Insight: download statistics and the audit log (Protokoll).

pub mod audit;
pub mod statistics;
