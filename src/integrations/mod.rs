pub mod brevo;
pub mod content_site;
