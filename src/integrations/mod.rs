pub mod brevo;
pub mod content_site;
pub mod mail;
pub mod planning;
