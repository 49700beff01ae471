pub mod content_site;
