//! The checks of the settings: every one that has a form or a range, in sections, so that a
//! wrong setting is named before the portal starts.

use super::*;

/// A refusal of setting `setting` for the reason `why` (German).
fn fail(setting: &str, why: &str) -> Result<(), ConfigError> {
    Err(ConfigError(format!("{setting}: {why}")))
}

impl Config {
    /// Every setting checked, section by section; the first wrong one is named.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
        self.validate_places()?;
        self.validate_sign_in()?;
        self.validate_requests()?;
        self.validate_mail()?;
        self.validate_ranges()?;
        self.validate_bucket()
    }

    /// The database, the names and folders, and every address.
    fn validate_places(&self) -> Result<(), ConfigError> {
        if let Some(url) = &self.database_url
            && Backend::of_url(url).is_none()
        {
            return fail("DATABASE_URL", "muss mit postgres:// oder sqlite: beginnen");
        }
        if self.product_name.trim().is_empty() {
            return fail("AP_PRODUCT_NAME", "darf nicht leer sein");
        }
        if self.data_dir.as_os_str().is_empty() {
            return fail("AP_DATA_DIR", "darf nicht leer sein");
        }
        let urls = [
            ("AP_PUBLIC_URL", self.public_url.as_deref()),
            ("AP_CONTENT_SITE_URL", self.content_site_url.as_deref()),
            ("AP_PLANNING_URL", self.planning_url.as_deref()),
            ("AP_S3_ENDPOINT", self.s3_endpoint.as_deref()),
            (
                "AP_CUSTOMER_CENTER_URL",
                Some(self.customer_center_url.as_str()),
            ),
            (
                "AP_PARTNER_SIGNUP_URL",
                Some(self.partner_signup_url.as_str()),
            ),
            (
                "AP_SOCIAL_FACEBOOK_URL",
                self.social_facebook_url.as_deref(),
            ),
            (
                "AP_SOCIAL_INSTAGRAM_URL",
                self.social_instagram_url.as_deref(),
            ),
            ("AP_SOCIAL_YOUTUBE_URL", self.social_youtube_url.as_deref()),
            (
                "AP_SOCIAL_LINKEDIN_URL",
                self.social_linkedin_url.as_deref(),
            ),
        ];
        for (setting, url) in urls {
            if let Some(url) = url
                && !is_http_url(url)
            {
                return fail(setting, "muss eine http- oder https-Adresse sein");
            }
        }
        Ok(())
    }

    /// OpenID Connect: complete when it is configured at all.
    fn validate_sign_in(&self) -> Result<(), ConfigError> {
        if self.oidc_issuer.is_some() {
            if self.oidc_client_id.is_none() {
                return fail(
                    "AP_OIDC_CLIENT_ID",
                    "muss gesetzt sein, wenn AP_OIDC_ISSUER gesetzt ist",
                );
            }
            if self.oidc_redirect_url().is_none() {
                return fail(
                    "AP_OIDC_REDIRECT_URL",
                    "muss gesetzt sein (oder AP_PUBLIC_URL), wenn AP_OIDC_ISSUER gesetzt ist",
                );
            }
            if !self.oidc_scopes.split_whitespace().any(|s| s == "openid") {
                return fail("AP_OIDC_SCOPES", "muss den Scope openid enthalten");
            }
        }
        Ok(())
    }

    /// Timeouts, proxies, connection and upload limits.
    fn validate_requests(&self) -> Result<(), ConfigError> {
        if self.content_timeout_ms == 0 || self.content_timeout_ms > 60_000 {
            return fail("AP_CONTENT_TIMEOUT_MS", "muss zwischen 1 und 60000 liegen");
        }
        if self.brevo_timeout_ms == 0 || self.brevo_timeout_ms > 120_000 {
            return fail("AP_BREVO_TIMEOUT_MS", "muss zwischen 1 und 120000 liegen");
        }
        if self.content_cache_ttl_secs == 0 {
            return fail("AP_CONTENT_CACHE_TTL_SECS", "muss größer als 0 sein");
        }
        if let Err(why) = parse_proxy_ranges(&self.trusted_proxies) {
            return fail("AP_TRUSTED_PROXIES", &why);
        }
        let positive = [
            ("AP_HEADER_TIMEOUT_SECS", self.header_timeout_secs),
            ("AP_BODY_TIMEOUT_SECS", self.body_timeout_secs),
            ("AP_REQUEST_TIMEOUT_SECS", self.request_timeout_secs),
            ("AP_UPLOAD_RATE_WINDOW_SECS", self.upload_rate_window_secs),
            (
                "AP_MAX_CONNECTIONS_PER_ADDRESS",
                self.max_connections_per_address as u64,
            ),
            (
                "AP_LOGIN_HASH_CONCURRENCY",
                self.login_hash_concurrency as u64,
            ),
            ("AP_LOGIN_HASH_WAIT_SECS", self.login_hash_wait_secs),
        ];
        for (setting, value) in positive {
            if value == 0 {
                return fail(setting, "muss größer als 0 sein");
            }
        }
        for (setting, value) in [
            ("AP_UPLOAD_LIMIT_MB", self.upload_limit_mb),
            ("AP_ZIP_MAX_ENTRIES", self.zip_max_entries as u64),
            ("AP_ZIP_MAX_RATIO", self.zip_max_ratio),
        ] {
            if value == 0 {
                return fail(setting, "muss größer als 0 sein");
            }
        }
        if self.upload_limit_mb > 1024 * 1024 {
            return fail("AP_UPLOAD_LIMIT_MB", "darf höchstens 1048576 (1 TB) sein");
        }
        let extensions = self.allowed_extensions();
        if extensions.is_empty()
            || extensions
                .iter()
                .any(|e| !crate::domain::files::valid_ext(e))
        {
            return fail(
                "AP_UPLOAD_ALLOWED_EXTENSIONS",
                "muss eine Liste von Endungen aus Kleinbuchstaben und Ziffern sein, z. B. pdf,jpg,png",
            );
        }
        Ok(())
    }

    /// The sender, SMTP and the double opt-in template.
    fn validate_mail(&self) -> Result<(), ConfigError> {
        if crate::domain::contacts::Email::parse(&self.mail_from).is_err() {
            return fail("AP_MAIL_FROM", "muss eine gültige E-Mail-Adresse sein");
        }
        if self
            .mail_from_name
            .as_deref()
            .is_some_and(|n| n.chars().count() > 70)
        {
            return fail("AP_MAIL_FROM_NAME", "darf höchstens 70 Zeichen lang sein");
        }
        for (name, value) in [
            ("AP_IMPRESSUM_COMPANY", &self.impressum_company),
            ("AP_IMPRESSUM_ADDRESS", &self.impressum_address),
            (
                "AP_IMPRESSUM_REPRESENTED_BY",
                &self.impressum_represented_by,
            ),
            ("AP_IMPRESSUM_REGISTER", &self.impressum_register),
            ("AP_IMPRESSUM_VAT_ID", &self.impressum_vat_id),
            ("AP_IMPRESSUM_CONTACT", &self.impressum_contact),
        ] {
            let Some(value) = value.as_deref() else {
                continue;
            };
            if value.chars().count() > 200 {
                return fail(name, "darf höchstens 200 Zeichen lang sein");
            }
            if value.chars().any(crate::domain::text::is_invisible) {
                return fail(
                    name,
                    "darf keine Steuerzeichen oder unsichtbaren Formatierungszeichen enthalten",
                );
            }
        }
        if self.smtp_port == 0 {
            return fail("AP_SMTP_PORT", "muss größer als 0 sein");
        }
        if self.smtp_user.is_some() != self.smtp_password.is_some() {
            return fail(
                "AP_SMTP_USER",
                "AP_SMTP_USER und AP_SMTP_PASSWORD müssen beide gesetzt sein oder beide fehlen",
            );
        }
        if self.brevo_doi_template_id.is_some_and(|id| id <= 0) {
            return fail("AP_BREVO_DOI_TEMPLATE_ID", "muss eine positive Zahl sein");
        }
        Ok(())
    }

    /// The settings that have a range: sync pages, retention, previews, kept answers.
    fn validate_ranges(&self) -> Result<(), ConfigError> {
        if !(1..=1000).contains(&self.brevo_sync_page_size) {
            return fail("AP_BREVO_SYNC_PAGE_SIZE", "muss zwischen 1 und 1000 liegen");
        }
        if !(1..=3650).contains(&self.audit_days) {
            return fail("AP_AUDIT_DAYS", "muss zwischen 1 und 3650 liegen");
        }
        if !(1..=3650).contains(&self.stats_personal_days) {
            return fail("AP_STATS_PERSONAL_DAYS", "muss zwischen 1 und 3650 liegen");
        }
        if self.takers_days > 3650 {
            return fail("AP_TAKERS_DAYS", "muss zwischen 0 und 3650 liegen");
        }
        if !(1..=15).contains(&self.planning_timeout_secs) {
            return fail("AP_PLANNING_TIMEOUT_SECS", "muss zwischen 1 und 15 liegen");
        }
        if !(1..=365).contains(&self.double_opt_in_valid_days) {
            return fail(
                "AP_DOUBLE_OPT_IN_VALID_DAYS",
                "muss zwischen 1 und 365 liegen",
            );
        }
        if !(1..=1000).contains(&self.mail_per_second) {
            return fail("AP_MAIL_PER_SECOND", "muss zwischen 1 und 1000 liegen");
        }
        if !(1..=3600).contains(&self.mail_retry_secs) {
            return fail("AP_MAIL_RETRY_SECS", "muss zwischen 1 und 3600 liegen");
        }
        if !(1..=600).contains(&self.preview_timeout_secs) {
            return fail("AP_PREVIEW_TIMEOUT_SECS", "muss zwischen 1 und 600 liegen");
        }
        if !(128..=65536).contains(&self.preview_memory_mb) {
            return fail("AP_PREVIEW_MEMORY_MB", "muss zwischen 128 und 65536 liegen");
        }
        if !(1..=4096).contains(&self.preview_max_mb) {
            return fail("AP_PREVIEW_MAX_MB", "muss zwischen 1 und 4096 liegen");
        }
        if !(1..=600_000).contains(&self.list_time_limit_ms) {
            return fail("AP_LIST_TIME_LIMIT_MS", "muss zwischen 1 und 600000 liegen");
        }
        if !(1..=4096).contains(&self.kept_answers_mb) {
            return fail("AP_KEPT_ANSWERS_MB", "muss zwischen 1 und 4096 liegen");
        }
        if self.login_hash_concurrency > 64 {
            return fail("AP_LOGIN_HASH_CONCURRENCY", "darf höchstens 64 sein");
        }
        Ok(())
    }

    /// The bucket (S3): complete when it is configured at all, with a valid name and prefix.
    fn validate_bucket(&self) -> Result<(), ConfigError> {
        if self.s3_bucket.is_none() {
            if self.s3_endpoint.is_some() || self.s3_access_key_id.is_some() {
                return fail(
                    "AP_S3_BUCKET",
                    "fehlt, obwohl andere AP_S3_-Werte gesetzt sind",
                );
            }
        } else if self.s3_access_key_id.is_some() != self.s3_secret_access_key.is_some() {
            return fail(
                "AP_S3_ACCESS_KEY_ID",
                "AP_S3_ACCESS_KEY_ID und AP_S3_SECRET_ACCESS_KEY müssen beide gesetzt sein oder beide fehlen",
            );
        }
        if let Some(bucket) = &self.s3_bucket
            && !is_bucket_name(bucket)
        {
            return fail(
                "AP_S3_BUCKET",
                "muss 3–63 Zeichen lang sein: Kleinbuchstaben, Ziffern, Punkte und Bindestriche, \
                 am Anfang und Ende ein Buchstabe oder eine Ziffer",
            );
        }
        if self.s3_region.trim().is_empty() {
            return fail("AP_S3_REGION", "darf nicht leer sein");
        }
        if !self.s3_prefix.is_empty() && !crate::domain::files::is_valid_key(&self.s3_prefix) {
            return fail(
                "AP_S3_PREFIX",
                "darf nur Kleinbuchstaben, Ziffern, Punkte und / enthalten",
            );
        }
        Ok(())
    }
}

/// An S3 bucket name as the naming rules allow it (and every S3-compatible store takes).
fn is_bucket_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    (3..=63).contains(&bytes.len())
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'.' || *b == b'-')
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && !name.contains("..")
}

fn is_http_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    rest.is_some_and(|r| !r.is_empty() && !r.contains(char::is_whitespace))
}
