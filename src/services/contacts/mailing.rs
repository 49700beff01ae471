//! What the senders of the mail queue share: the settings mailing needs, and how one item's
//! mail went.

use chrono::Duration;

use crate::config::Config;

/// What mailing needs from the configuration.
#[derive(Clone, Debug)]
pub struct MailSettings {
    pub product_name: String,
    /// Links start with this (no trailing slash).
    pub link_base: String,
    pub valid_days: i64,
    pub per_second: u32,
    pub production: bool,
    /// The domain of our Message-IDs.
    pub message_domain: String,
    /// The wait before a mail that failed for a passing reason is tried again (doubled per
    /// attempt).
    pub retry_after: Duration,
    /// The sender's legal details under every advertising mail.
    pub sender: crate::domain::announcements::SenderDetails,
}

impl MailSettings {
    pub fn from_config(config: &Config) -> MailSettings {
        let message_domain = config
            .mail_from
            .rsplit_once('@')
            .map(|(_, domain)| domain.to_string())
            .unwrap_or_else(|| "aktionsportal.invalid".into());
        MailSettings {
            product_name: config.product_name.clone(),
            link_base: config.link_base(),
            valid_days: config.double_opt_in_valid_days,
            per_second: config.mail_per_second,
            production: config.production,
            message_domain,
            retry_after: Duration::seconds(config.mail_retry_secs as i64),
            sender: config.sender_details(),
        }
    }
}

/// How one item's mail went.
#[derive(Debug)]
pub enum ItemSent {
    /// Sent; the Message-ID the receiving side knows it by.
    Sent(String),
    /// Not to be sent any more (consent, block, the package gone).
    Skipped,
    /// Failed for good, with the reason.
    Failed(String),
    /// Failed for a passing reason: try again later.
    Passing(String),
}
