//! Marketing: providers, criteria lists and the Brevo mirror with its sync.

pub mod brevo_syncs;
pub mod folders;
pub mod lists;
pub mod marketing_retries;
pub mod providers;
