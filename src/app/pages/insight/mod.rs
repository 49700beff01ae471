//! Insight: download statistics and the audit log (Protokoll).

pub mod admin_audit;
pub mod admin_statistics;
