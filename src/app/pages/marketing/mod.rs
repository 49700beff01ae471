//! Marketing: providers, criteria lists and the Brevo mirror with its sync.

pub mod providers;
