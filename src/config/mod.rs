//! One typed configuration: built-in defaults, then the config file, then environment
//! variables (`AP_*`, plus `DATABASE_URL`), then command-line flags. Validated at start;
//! an invalid value stops the start with a message naming the setting.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

use crate::db::Backend;
use crate::integrations::content_site::MenuApi;

mod validate;

/// The default config file, read from the working folder when present.
pub const DEFAULT_CONFIG_FILE: &str = "aktionsportal.toml";

#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Address the server listens on (`AP_ADDR`).
    pub addr: SocketAddr,
    /// Data folder: the SQLite file and uploaded files (`AP_DATA_DIR`).
    pub data_dir: PathBuf,
    /// PostgreSQL URL; when unset the SQLite file `<data_dir>/aktionsportal.db` is used
    /// (`DATABASE_URL`).
    pub database_url: Option<String>,
    /// Address under which users reach the portal, e.g. `https://aktionsportal.example.de`
    /// (`AP_PUBLIC_URL`); with https, cookies are marked Secure.
    pub public_url: Option<String>,
    /// Product name; the page title is "<product name> Aktionsportal" (`AP_PRODUCT_NAME`).
    pub product_name: String,
    /// Folder holding the islands' vite build (`AP_ASSETS_DIR`).
    pub assets_dir: PathBuf,
    /// Base URL of the company content site whose menus fill header and footer
    /// (`AP_CONTENT_SITE_URL`); unset: no menus.
    pub content_site_url: Option<String>,
    /// Menu plugin of the content site: `menus-v1` or `wp-api-menus` (`AP_CONTENT_MENU_API`).
    pub content_menu_api: MenuApi,
    /// Time limit of one menu request in milliseconds (`AP_CONTENT_TIMEOUT_MS`).
    pub content_timeout_ms: u64,
    /// How long fetched menus are kept before they are fetched again, in seconds
    /// (`AP_CONTENT_CACHE_TTL_SECS`).
    pub content_cache_ttl_secs: u64,
    /// Target of the header's customer-center link (`AP_CUSTOMER_CENTER_URL`).
    pub customer_center_url: String,
    /// Target of the login page's "become a partner" link (`AP_PARTNER_SIGNUP_URL`).
    pub partner_signup_url: String,
    /// Social links in the footer; unset ones are not shown
    /// (`AP_SOCIAL_FACEBOOK_URL`, `AP_SOCIAL_INSTAGRAM_URL`, `AP_SOCIAL_YOUTUBE_URL`,
    /// `AP_SOCIAL_LINKEDIN_URL`).
    pub social_facebook_url: Option<String>,
    pub social_instagram_url: Option<String>,
    pub social_youtube_url: Option<String>,
    pub social_linkedin_url: Option<String>,
    /// Brevo API key (`AP_BREVO_API_KEY`); unset: local mode, folders and lists live only in
    /// the portal's database.
    pub brevo_api_key: Option<String>,
    /// Brevo API base URL (`AP_BREVO_BASE_URL`).
    pub brevo_base_url: String,
    /// Time limit of one Brevo request in milliseconds (`AP_BREVO_TIMEOUT_MS`).
    pub brevo_timeout_ms: u64,
    /// OpenID Connect issuer URL (`AP_OIDC_ISSUER`); unset: local accounts sign in.
    pub oidc_issuer: Option<String>,
    /// Client id registered at the provider (`AP_OIDC_CLIENT_ID`).
    pub oidc_client_id: Option<String>,
    /// Client secret (`AP_OIDC_CLIENT_SECRET`); unset for public clients.
    pub oidc_client_secret: Option<String>,
    /// Where the provider sends the browser back (`AP_OIDC_REDIRECT_URL`); default
    /// `<AP_PUBLIC_URL>/api/auth/callback`.
    pub oidc_redirect_url: Option<String>,
    /// Scopes requested, separated by spaces (`AP_OIDC_SCOPES`).
    pub oidc_scopes: String,
    /// Claim with the user's directory groups = portal roles; dots address nested claims,
    /// e.g. `realm_access.roles` (`AP_OIDC_GROUPS_CLAIM`).
    pub oidc_groups_claim: String,
    /// Claim with the display name (`AP_OIDC_NAME_CLAIM`).
    pub oidc_name_claim: String,
    /// Claim with the email address (`AP_OIDC_EMAIL_CLAIM`).
    pub oidc_email_claim: String,
    /// Claim with the customer number (`AP_OIDC_CUSTOMER_NUMBER_CLAIM`).
    pub oidc_customer_number_claim: String,
    /// Log format: `text` or `json` (`AP_LOG_FORMAT`); the level comes from `RUST_LOG`.
    pub log_format: LogFormat,
    /// Reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed, as a
    /// comma-separated list of addresses and CIDR ranges (`AP_TRUSTED_PROXIES`); empty: none.
    pub trusted_proxies: String,
    /// Seconds a client has to send a request's headers; an idle kept-alive connection is
    /// closed after the same time (`AP_HEADER_TIMEOUT_SECS`).
    pub header_timeout_secs: u64,
    /// Seconds a request body (except uploads) has to arrive completely (`AP_BODY_TIMEOUT_SECS`).
    pub body_timeout_secs: u64,
    /// Seconds an API call may take before it is answered with 503 (`AP_REQUEST_TIMEOUT_SECS`);
    /// uploads and streamed answers are exempt.
    pub request_timeout_secs: u64,
    /// An upload is cut when fewer than this many bytes arrive within one
    /// `upload_rate_window_secs` (`AP_UPLOAD_MIN_BYTES_PER_WINDOW`).
    pub upload_min_bytes_per_window: u64,
    /// The window of the upload rate check in seconds (`AP_UPLOAD_RATE_WINDOW_SECS`).
    pub upload_rate_window_secs: u64,
    /// Open connections allowed per client address; trusted proxies are exempt
    /// (`AP_MAX_CONNECTIONS_PER_ADDRESS`).
    pub max_connections_per_address: usize,
    /// Password hashes computed at the same time (`AP_LOGIN_HASH_CONCURRENCY`); each takes
    /// about 19 MiB of memory while it runs.
    pub login_hash_concurrency: usize,
    /// Seconds a login waits for a free hashing place before it is refused
    /// (`AP_LOGIN_HASH_WAIT_SECS`).
    pub login_hash_wait_secs: u64,
    /// Largest uploaded file in MB (MiB), also the largest unpacked archive
    /// (`AP_UPLOAD_LIMIT_MB`).
    pub upload_limit_mb: u64,
    /// Extensions an uploaded file may have, comma-separated (`AP_UPLOAD_ALLOWED_EXTENSIONS`).
    pub upload_allowed_extensions: String,
    /// Most entries an uploaded ZIP archive may have (`AP_ZIP_MAX_ENTRIES`).
    pub zip_max_entries: usize,
    /// Largest ratio of unpacked to packed size of an archive entry over 1 MiB; more is
    /// refused as a zip bomb (`AP_ZIP_MAX_RATIO`).
    pub zip_max_ratio: u64,
    /// Selections up to this many MB are zipped in the browser (jszip holds about three times
    /// the data in memory); larger ones use the server-streamed ZIP
    /// (`AP_BROWSER_ZIP_LIMIT_MB`).
    pub browser_zip_limit_mb: u64,
    /// Previews of pictures, SVG drawings and PDFs are made after upload (`AP_PREVIEWS`).
    pub previews: bool,
    /// Time one file's previews may take, in seconds; then the renderer is stopped
    /// (`AP_PREVIEW_TIMEOUT_SECS`).
    pub preview_timeout_secs: u64,
    /// Memory (address space) of the process that renders one file, in MB
    /// (`AP_PREVIEW_MEMORY_MB`).
    pub preview_memory_mb: u64,
    /// Larger files get no preview, in MB (`AP_PREVIEW_MAX_MB`).
    pub preview_max_mb: u64,
    /// Memory for kept answers (lists, counts, pages) together, in MiB
    /// (`AP_KEPT_ANSWERS_MB`).
    pub kept_answers_mb: u64,
    /// Whole answers are kept, not only what they are made of (`AP_KEEP_WHOLE_ANSWERS`);
    /// `false` measures what a question nobody asked before costs (`scripts/bench.sh questions`).
    pub keep_whole_answers: bool,
    /// A list (packages, contacts, criteria lists, Protokoll, statistics summary) answers
    /// within this many milliseconds, else 503 (`AP_LIST_TIME_LIMIT_MS`).
    pub list_time_limit_ms: u64,
    /// The portal binary whose `preview-render` command draws previews; default: the running
    /// binary (`AP_PREVIEW_RENDERER`).
    pub preview_renderer: Option<PathBuf>,
    /// Corner of the page where toasts appear (`AP_TOAST_POSITION`, spec §9).
    pub toast_position: ToastPosition,
    /// The production installation: only there may the double opt-in mail go to all pending
    /// contacts at once (spec §7 `/api/smtp/emails`) (`AP_PRODUCTION`).
    pub production: bool,
    /// Sender address of the portal's mails (`AP_MAIL_FROM`).
    pub mail_from: String,
    /// Sender name; default "<product name> Aktionsportal" (`AP_MAIL_FROM_NAME`).
    pub mail_from_name: Option<String>,
    /// The sender's legal details under every advertising mail (DDG §5): the company with its legal form (first line) (`AP_IMPRESSUM_COMPANY`).
    pub impressum_company: Option<String>,
    /// The sender's legal details under every advertising mail (DDG §5): its postal address (`AP_IMPRESSUM_ADDRESS`).
    pub impressum_address: Option<String>,
    /// The sender's legal details under every advertising mail (DDG §5): who represents it ("Vertreten durch: …") (`AP_IMPRESSUM_REPRESENTED_BY`).
    pub impressum_represented_by: Option<String>,
    /// The sender's legal details under every advertising mail (DDG §5): its register entry, e.g. "Amtsgericht Berlin, HRB 12345" ("Registereintrag: …") (`AP_IMPRESSUM_REGISTER`).
    pub impressum_register: Option<String>,
    /// The sender's legal details under every advertising mail (DDG §5): its VAT id ("USt-IdNr.: …") (`AP_IMPRESSUM_VAT_ID`).
    pub impressum_vat_id: Option<String>,
    /// The sender's legal details under every advertising mail (DDG §5): how to reach it, e.g. phone and email ("Kontakt: …") (`AP_IMPRESSUM_CONTACT`).
    pub impressum_contact: Option<String>,
    /// SMTP server; when unset (and no Brevo key is set) mails are written as `.eml` files to
    /// `<data_dir>/outbox` (`AP_SMTP_HOST`).
    pub smtp_host: Option<String>,
    /// (`AP_SMTP_PORT`)
    pub smtp_port: u16,
    /// `starttls`, `tls` or `none` (`AP_SMTP_SECURITY`).
    pub smtp_security: crate::integrations::mail::SmtpSecurity,
    /// (`AP_SMTP_USER`)
    pub smtp_user: Option<String>,
    /// (`AP_SMTP_PASSWORD`)
    pub smtp_password: Option<String>,
    /// A Brevo template for the double opt-in mail; params FIRSTNAME, LASTNAME, ANREDE,
    /// CONFIRM_URL. Without one the portal's own German text is sent through Brevo
    /// (`AP_BREVO_DOI_TEMPLATE_ID`).
    pub brevo_doi_template_id: Option<i64>,
    /// How long a double opt-in link works, in days (`AP_DOUBLE_OPT_IN_VALID_DAYS`).
    pub double_opt_in_valid_days: i64,
    /// Mails per second when mailing all pending contacts (`AP_MAIL_PER_SECOND`).
    pub mail_per_second: u32,
    /// Seconds before a queued mail that failed for a passing reason is tried again, doubled
    /// for each further attempt (`AP_MAIL_RETRY_SECS`).
    pub mail_retry_secs: u64,
    /// The planning system's service for import candidates (`AP_PLANNING_URL`; see
    /// `integrations::planning`). Without it, candidates come only from CSV imports.
    pub planning_url: Option<String>,
    /// Bearer token sent to the planning system (`AP_PLANNING_TOKEN`).
    pub planning_token: Option<String>,
    /// How long the contact editor waits for the planning system (`AP_PLANNING_TIMEOUT_SECS`).
    pub planning_timeout_secs: u64,
    /// Days the download events that name a user or customer number are kept
    /// (`AP_STATS_PERSONAL_DAYS`, 1–3650); afterwards only the anonymous roll-ups stay.
    pub stats_personal_days: u32,
    /// Days after a package's end until the customer numbers that took it are forgotten
    /// (`AP_TAKERS_DAYS`, 0–3650): the notice before the end goes to them (issue 37).
    pub takers_days: u32,
    /// Whether file deliveries and ZIPs record download events (`AP_STATS_RECORDING`); off,
    /// the statistics keep what they have and count nothing new.
    pub stats_recording: bool,
    /// Days the audit log keeps its entries (`AP_AUDIT_DAYS`, 1–3650).
    pub audit_days: u32,
    /// Address of a separate listener for Prometheus's `GET /metrics` (`AP_METRICS_ADDR`,
    /// e.g. `127.0.0.1:9464`); unset: no metrics.
    pub metrics_addr: Option<SocketAddr>,
    /// Contacts per page of the contact sync from Brevo (`AP_BREVO_SYNC_PAGE_SIZE`, 1–1000;
    /// Brevo's largest page is 1000).
    pub brevo_sync_page_size: u32,
    /// Bucket of an S3-compatible object store for the uploaded files (`AP_S3_BUCKET`);
    /// unset: files live in `<data_dir>/files`. Several instances need a shared bucket.
    pub s3_bucket: Option<String>,
    /// Address of the S3-compatible service, e.g. `http://minio:9000` (`AP_S3_ENDPOINT`);
    /// unset: AWS S3 of `s3_region`.
    pub s3_endpoint: Option<String>,
    /// Region of the bucket (`AP_S3_REGION`).
    pub s3_region: String,
    /// Access key id (`AP_S3_ACCESS_KEY_ID`); unset: taken from the usual AWS environment
    /// (`AWS_ACCESS_KEY_ID`, instance roles).
    pub s3_access_key_id: Option<String>,
    /// Secret access key (`AP_S3_SECRET_ACCESS_KEY`).
    pub s3_secret_access_key: Option<String>,
    /// Address buckets as `<endpoint>/<bucket>` instead of `<bucket>.<endpoint>` (MinIO,
    /// Ceph, Garage, SeaweedFS usually want this) (`AP_S3_PATH_STYLE`).
    pub s3_path_style: bool,
    /// Folder inside the bucket under which the files are kept (`AP_S3_PREFIX`); empty: the
    /// bucket's top level.
    pub s3_prefix: String,
}

/// Where toasts appear: `top-right` by default (spec §9; the original installed `top-left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToastPosition {
    TopRight,
    TopLeft,
    BottomRight,
    BottomLeft,
}

impl ToastPosition {
    pub fn as_str(self) -> &'static str {
        match self {
            ToastPosition::TopRight => "top-right",
            ToastPosition::TopLeft => "top-left",
            ToastPosition::BottomRight => "bottom-right",
            ToastPosition::BottomLeft => "bottom-left",
        }
    }
}

/// The extensions taken by default (spec §8: set by the server).
pub const DEFAULT_UPLOAD_EXTENSIONS: &str =
    "pdf,jpg,jpeg,png,gif,webp,mp4,mov,zip,docx,xlsx,pptx,txt,csv,eps,ai,indd,psd";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

/// `AP_TRUSTED_PROXIES`: addresses and CIDR ranges separated by commas; empty means none. A
/// range written with host bits means its network.
pub fn parse_proxy_ranges(list: &str) -> Result<Vec<ipnet::IpNet>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            item.parse::<ipnet::IpNet>()
                .or_else(|_| item.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map(|net| net.trunc())
                .map_err(|_| format!("'{item}' ist keine IP-Adresse und kein Adressbereich"))
        })
        .collect()
}

/// The Leptos settings of `Leptos.toml` (embedded at build time; `LEPTOS_*` variables change
/// them as Leptos documents). They give the defaults of the address and the site root; the
/// portal's own settings win.
pub fn leptos_options() -> leptos::config::LeptosOptions {
    leptos::config::get_config_from_str(include_str!("../../Leptos.toml"))
        .expect("Leptos.toml holds a valid [package.metadata.leptos]")
}

impl Default for Config {
    fn default() -> Self {
        let leptos = leptos_options();
        Config {
            addr: leptos.site_addr,
            data_dir: PathBuf::from("./data"),
            database_url: None,
            public_url: None,
            product_name: "Netzvermarktung".into(),
            assets_dir: PathBuf::from(&*leptos.site_root),
            content_site_url: None,
            content_menu_api: MenuApi::MenusV1,
            content_timeout_ms: 1500,
            content_cache_ttl_secs: 600,
            customer_center_url: "https://www.example.com/kundencenter/".into(),
            partner_signup_url: "https://www.example.com/partner-werden/".into(),
            social_facebook_url: None,
            social_instagram_url: None,
            social_youtube_url: None,
            social_linkedin_url: None,
            brevo_api_key: None,
            brevo_base_url: "https://api.brevo.com/v3".into(),
            brevo_timeout_ms: 10_000,
            oidc_issuer: None,
            oidc_client_id: None,
            oidc_client_secret: None,
            oidc_redirect_url: None,
            oidc_scopes: "openid profile email".into(),
            oidc_groups_claim: "groups".into(),
            oidc_name_claim: "name".into(),
            oidc_email_claim: "email".into(),
            oidc_customer_number_claim: "customer_number".into(),
            log_format: LogFormat::Text,
            trusted_proxies: String::new(),
            header_timeout_secs: 10,
            body_timeout_secs: 30,
            request_timeout_secs: 30,
            upload_min_bytes_per_window: 64 * 1024,
            upload_rate_window_secs: 30,
            max_connections_per_address: 128,
            login_hash_concurrency: 2,
            login_hash_wait_secs: 10,
            upload_limit_mb: 2048,
            upload_allowed_extensions: DEFAULT_UPLOAD_EXTENSIONS.into(),
            zip_max_entries: 1000,
            zip_max_ratio: 200,
            browser_zip_limit_mb: 500,
            previews: true,
            preview_timeout_secs: 20,
            preview_memory_mb: 1024,
            preview_max_mb: 200,
            kept_answers_mb: 80,
            keep_whole_answers: true,
            list_time_limit_ms: 5_000,
            preview_renderer: None,
            toast_position: ToastPosition::TopRight,
            production: false,
            mail_from: "aktionsportal@example.com".into(),
            mail_from_name: None,
            impressum_company: None,
            impressum_address: None,
            impressum_represented_by: None,
            impressum_register: None,
            impressum_vat_id: None,
            impressum_contact: None,
            smtp_host: None,
            smtp_port: 587,
            smtp_security: crate::integrations::mail::SmtpSecurity::Starttls,
            smtp_user: None,
            smtp_password: None,
            brevo_doi_template_id: None,
            double_opt_in_valid_days: 14,
            mail_per_second: 10,
            mail_retry_secs: 60,
            planning_url: None,
            planning_token: None,
            planning_timeout_secs: 5,
            stats_personal_days: 90,
            takers_days: 30,
            audit_days: crate::domain::audit::DEFAULT_KEEP_DAYS,
            metrics_addr: None,
            stats_recording: true,
            brevo_sync_page_size: 1000,
            s3_bucket: None,
            s3_endpoint: None,
            s3_region: "us-east-1".into(),
            s3_access_key_id: None,
            s3_secret_access_key: None,
            s3_path_style: false,
            s3_prefix: String::new(),
        }
    }
}

/// Values from the command line; they win over file and environment.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub data_dir: Option<PathBuf>,
    pub addr: Option<SocketAddr>,
}

/// The settings that must never reach a log.
const SECRETS: [&str; 5] = [
    "brevo_api_key",
    "oidc_client_secret",
    "smtp_password",
    "planning_token",
    "s3_secret_access_key",
];

/// Every setting, with the secrets masked (a `{:?}` in a log must not leak a key).
impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut shown = serde_json::to_value(self).map_err(|_| std::fmt::Error)?;
        for key in SECRETS {
            if let Some(value) = shown.get_mut(key).filter(|v| !v.is_null()) {
                *value = serde_json::Value::String("***".into());
            }
        }
        write!(f, "Config {shown}")
    }
}

#[derive(Debug, thiserror::Error)]
#[error("Ungültige Konfiguration: {0}")]
pub struct ConfigError(pub String);

impl Config {
    /// Loads defaults, the config file (`path`, or `aktionsportal.toml` when present), the
    /// environment, then `overrides`, and validates the result.
    pub fn load(path: Option<&Path>, overrides: &Overrides) -> Result<Config, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        match path {
            Some(path) if !path.exists() => {
                return Err(ConfigError(format!(
                    "Konfigurationsdatei {} nicht gefunden",
                    path.display()
                )));
            }
            Some(path) => figment = figment.merge(Toml::file(path)),
            None => figment = figment.merge(Toml::file(DEFAULT_CONFIG_FILE)),
        }
        Self::from_figment(figment.merge(Self::env()), overrides)
    }

    /// `AP_*` variables except those the config file path and the test tooling use.
    fn env() -> Figment {
        let ours = Env::prefixed("AP_").filter(|key| {
            let key = key.as_str().to_ascii_lowercase();
            key != "config"
                && !key.starts_with("test_")
                && !key.starts_with("e2e_")
                && key != "base_url"
        });
        // `DATABASE_URL` is read without the prefix, as every tool around PostgreSQL names it.
        Figment::from(ours).merge(Env::raw().only(&["DATABASE_URL"]))
    }

    fn from_figment(figment: Figment, overrides: &Overrides) -> Result<Config, ConfigError> {
        let mut config: Config = figment.extract().map_err(describe)?;
        if let Some(dir) = &overrides.data_dir {
            config.data_dir = dir.clone();
        }
        if let Some(addr) = overrides.addr {
            config.addr = addr;
        }
        config.normalise();
        config.validate()?;
        Ok(config)
    }

    /// Empty strings from the environment mean "not set".
    fn normalise(&mut self) {
        for value in [
            &mut self.database_url,
            &mut self.public_url,
            &mut self.content_site_url,
            &mut self.social_facebook_url,
            &mut self.social_instagram_url,
            &mut self.social_youtube_url,
            &mut self.social_linkedin_url,
            &mut self.brevo_api_key,
            &mut self.oidc_issuer,
            &mut self.oidc_client_id,
            &mut self.oidc_client_secret,
            &mut self.oidc_redirect_url,
            &mut self.mail_from_name,
            &mut self.impressum_company,
            &mut self.impressum_address,
            &mut self.impressum_represented_by,
            &mut self.impressum_register,
            &mut self.impressum_vat_id,
            &mut self.impressum_contact,
            &mut self.smtp_host,
            &mut self.smtp_user,
            &mut self.smtp_password,
            &mut self.planning_url,
            &mut self.planning_token,
            &mut self.s3_bucket,
            &mut self.s3_endpoint,
            &mut self.s3_access_key_id,
            &mut self.s3_secret_access_key,
        ] {
            if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
                *value = None;
            }
        }
        if let Some(url) = &mut self.content_site_url {
            *url = url.trim_end_matches('/').to_string();
        }
    }

    /// The OIDC redirect URL: configured, or derived from the public URL.
    pub fn oidc_redirect_url(&self) -> Option<String> {
        self.oidc_redirect_url.clone().or_else(|| {
            self.public_url
                .as_deref()
                .map(|url| format!("{}/api/auth/callback", url.trim_end_matches('/')))
        })
    }

    /// The address links in mails start with: the public URL, or the listening address.
    pub fn link_base(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => format!("http://{}", self.addr),
        }
    }

    /// The sender's legal details as the lines under every advertising mail (Impressum, DDG §5),
    /// in the order of the settings, the labelled ones with their German label.
    pub fn sender_details(&self) -> crate::domain::announcements::SenderDetails {
        let labelled = [
            (None, &self.impressum_company),
            (None, &self.impressum_address),
            (Some("Vertreten durch"), &self.impressum_represented_by),
            (Some("Registereintrag"), &self.impressum_register),
            (Some("USt-IdNr."), &self.impressum_vat_id),
            (Some("Kontakt"), &self.impressum_contact),
        ];
        let lines = labelled
            .into_iter()
            .filter_map(|(label, value)| {
                let value = value.as_deref()?.trim();
                Some(match label {
                    Some(label) => format!("{label}: {value}"),
                    None => value.to_string(),
                })
            })
            .collect();
        crate::domain::announcements::SenderDetails { lines }
    }

    /// Where mail goes when neither Brevo nor SMTP is configured.
    pub fn outbox_dir(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }

    /// Whether users reach the portal over https (cookies Secure, HSTS).
    pub fn public_url_is_https(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|url| url.starts_with("https://"))
    }

    /// The address ranges of `AP_TRUSTED_PROXIES` (validated at start; an invalid list cannot
    /// reach here).
    pub fn trusted_proxy_ranges(&self) -> Vec<ipnet::IpNet> {
        parse_proxy_ranges(&self.trusted_proxies).unwrap_or_default()
    }

    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.request_timeout_secs)
    }

    /// The time a list may take: `AP_LIST_TIME_LIMIT_MS`, at most the request time limit
    /// (which would answer first).
    pub fn list_time_limit(&self) -> Duration {
        Duration::from_millis(self.list_time_limit_ms).min(self.request_timeout())
    }

    /// The allowed upload extensions: lower case, without dots, each once.
    pub fn allowed_extensions(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for ext in self.upload_allowed_extensions.split(',') {
            let ext = ext.trim().trim_start_matches('.').to_ascii_lowercase();
            if !ext.is_empty() && !out.contains(&ext) {
                out.push(ext);
            }
        }
        out
    }

    /// The SQLite file used when no `DATABASE_URL` is set.
    pub fn sqlite_path(&self) -> PathBuf {
        self.data_dir.join("aktionsportal.db")
    }

    /// Folder of uploaded and seeded files.
    pub fn files_dir(&self) -> PathBuf {
        self.data_dir.join("files")
    }

    pub fn content_timeout(&self) -> Duration {
        Duration::from_millis(self.content_timeout_ms)
    }

    pub fn content_cache_ttl(&self) -> Duration {
        Duration::from_secs(self.content_cache_ttl_secs)
    }

    /// Where the config says the data lives, in words for logs (no credentials).
    pub fn database_description(&self) -> String {
        match &self.database_url {
            Some(url) if url.starts_with("sqlite:") => url.clone(),
            Some(_) => "PostgreSQL (DATABASE_URL)".into(),
            None => format!("SQLite {}", self.sqlite_path().display()),
        }
    }
}

/// Names the setting in its environment-variable spelling, e.g. "AP_ADDR: …".
fn describe(errors: figment::Error) -> ConfigError {
    let lines: Vec<String> = errors
        .into_iter()
        .map(|error| {
            let key = error.path.join("_");
            let setting = match key.as_str() {
                "" => String::new(),
                "database_url" => "DATABASE_URL: ".into(),
                key => format!("AP_{} ({key}): ", key.to_ascii_uppercase()),
            };
            format!("{setting}{}", error.kind)
        })
        .collect();
    ConfigError(lines.join("; "))
}

#[cfg(test)]
// figment::Jail fixes the closures' error type to figment::Error.
#[allow(clippy::result_large_err)]
mod tests {

    #[test]
    fn debug_masks_secrets() {
        let config = Config {
            brevo_api_key: Some("xkeysib-geheim".into()),
            smtp_password: Some("smtp-geheim".into()),
            oidc_client_secret: Some("oidc-geheim".into()),
            planning_token: Some("plan-geheim".into()),
            ..Config::default()
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("geheim"), "{shown}");
        assert!(shown.contains("\"brevo_api_key\":\"***\""), "{shown}");
        assert!(shown.contains("product_name"), "{shown}");
    }
    use super::*;
    use figment::Jail;

    fn load(
        jail: &mut Jail,
        pairs: &[(&str, &str)],
        overrides: &Overrides,
    ) -> Result<Config, ConfigError> {
        for (key, value) in pairs {
            jail.set_env(key, value);
        }
        Config::load(None, overrides)
    }

    #[test]
    fn the_impressum_settings_are_the_lines_under_advertising_mails() {
        Jail::expect_with(|jail| {
            let config = load(
                jail,
                &[
                    ("AP_IMPRESSUM_COMPANY", "Muster Energie GmbH"),
                    ("AP_IMPRESSUM_ADDRESS", " Hauptstraße 1, 10115 Berlin "),
                    ("AP_IMPRESSUM_REPRESENTED_BY", "Erika Muster"),
                    ("AP_IMPRESSUM_REGISTER", ""),
                    ("AP_IMPRESSUM_VAT_ID", "DE123456789"),
                ],
                &Overrides::default(),
            )
            .unwrap();
            assert_eq!(
                config.sender_details().lines,
                [
                    "Muster Energie GmbH",
                    "Hauptstraße 1, 10115 Berlin",
                    "Vertreten durch: Erika Muster",
                    "USt-IdNr.: DE123456789",
                ]
            );
            let error = load(
                jail,
                &[("AP_IMPRESSUM_CONTACT", &"x".repeat(201))],
                &Overrides::default(),
            )
            .unwrap_err();
            assert!(error.0.contains("AP_IMPRESSUM_CONTACT"), "{}", error.0);
            Ok(())
        });
    }

    #[test]
    fn leptos_toml_gives_the_defaults_and_the_portal_settings_win() {
        Jail::expect_with(|jail| {
            let config = load(jail, &[], &Overrides::default()).unwrap();
            assert_eq!(config.addr.to_string(), "127.0.0.1:3000");
            assert_eq!(config.assets_dir, PathBuf::from("islands/dist"));
            let leptos = leptos_options();
            assert_eq!(
                format!("{}", leptos.site_pkg_dir),
                crate::assets::ASSETS_URL.trim_start_matches('/'),
                "the assets are served where Leptos.toml says"
            );
            // Read through Leptos' own configuration: its variables change the defaults...
            jail.set_env("LEPTOS_SITE_ADDR", "127.0.0.1:4100");
            jail.set_env("LEPTOS_SITE_ROOT", "anderswo/dist");
            let config = load(jail, &[], &Overrides::default()).unwrap();
            assert_eq!(config.addr.to_string(), "127.0.0.1:4100");
            assert_eq!(config.assets_dir, PathBuf::from("anderswo/dist"));
            // ...and the portal's settings win over them.
            let config = load(
                jail,
                &[
                    ("AP_ADDR", "127.0.0.1:4200"),
                    ("AP_ASSETS_DIR", "eigene/dist"),
                ],
                &Overrides::default(),
            )
            .unwrap();
            assert_eq!(config.addr.to_string(), "127.0.0.1:4200");
            assert_eq!(config.assets_dir, PathBuf::from("eigene/dist"));
            Ok(())
        });
    }

    #[test]
    fn defaults_are_valid() {
        Jail::expect_with(|jail| {
            let config = load(jail, &[], &Overrides::default()).unwrap();
            assert_eq!(config.addr.to_string(), "127.0.0.1:3000");
            assert_eq!(config.data_dir, PathBuf::from("./data"));
            assert_eq!(
                config.sqlite_path(),
                PathBuf::from("./data/aktionsportal.db")
            );
            assert_eq!(config.content_menu_api, MenuApi::MenusV1);
            Ok(())
        });
    }

    #[test]
    fn environment_and_file_values_are_read() {
        Jail::expect_with(|jail| {
            jail.create_file(
                DEFAULT_CONFIG_FILE,
                "product_name = \"Datei\"\ncontent_timeout_ms = 900\n",
            )?;
            let config = load(
                jail,
                &[
                    ("AP_ADDR", "0.0.0.0:8080"),
                    ("AP_PRODUCT_NAME", "Glasfaser"),
                    ("AP_CONTENT_SITE_URL", "https://www.example.de/"),
                    ("AP_CONTENT_MENU_API", "wp-api-menus"),
                    ("AP_TOAST_POSITION", "bottom-left"),
                    ("AP_TEST_BACKEND", "postgres"),
                    ("DATABASE_URL", "postgres://localhost/portal"),
                ],
                &Overrides::default(),
            )
            .unwrap();
            assert_eq!(config.addr.port(), 8080);
            assert_eq!(
                config.product_name, "Glasfaser",
                "environment wins over the file"
            );
            assert_eq!(config.content_timeout_ms, 900);
            assert_eq!(
                config.content_site_url.as_deref(),
                Some("https://www.example.de")
            );
            assert_eq!(config.content_menu_api, MenuApi::WpApiMenus);
            assert_eq!(config.toast_position, ToastPosition::BottomLeft);
            assert!(config.database_url.is_some());
            Ok(())
        });
    }

    #[test]
    fn command_line_wins() {
        Jail::expect_with(|jail| {
            let overrides = Overrides {
                data_dir: Some(PathBuf::from("/srv/portal")),
                addr: Some("127.0.0.1:4000".parse().unwrap()),
            };
            let config = load(jail, &[("AP_DATA_DIR", "/tmp/x")], &overrides).unwrap();
            assert_eq!(config.data_dir, PathBuf::from("/srv/portal"));
            assert_eq!(config.addr.port(), 4000);
            Ok(())
        });
    }

    #[test]
    fn bucket_settings_are_checked_together() {
        for (pairs, named) in [
            (
                vec![("AP_S3_ENDPOINT", "http://minio:9000")],
                "AP_S3_BUCKET",
            ),
            (vec![("AP_S3_BUCKET", "Mein_Bucket")], "AP_S3_BUCKET"),
            (vec![("AP_S3_BUCKET", "ab")], "AP_S3_BUCKET"),
            (vec![("AP_S3_BUCKET", "-dateien")], "AP_S3_BUCKET"),
            (
                vec![("AP_S3_BUCKET", "dateien"), ("AP_S3_ACCESS_KEY_ID", "id")],
                "AP_S3_ACCESS_KEY_ID",
            ),
            (
                vec![
                    ("AP_S3_BUCKET", "dateien"),
                    ("AP_S3_ENDPOINT", "minio:9000"),
                ],
                "AP_S3_ENDPOINT",
            ),
            (
                vec![("AP_S3_BUCKET", "dateien"), ("AP_S3_PREFIX", "../x")],
                "AP_S3_PREFIX",
            ),
            (
                vec![("AP_S3_BUCKET", "dateien"), ("AP_S3_REGION", " ")],
                "AP_S3_REGION",
            ),
        ] {
            Jail::expect_with(|jail| {
                let err = load(jail, &pairs, &Overrides::default()).unwrap_err();
                assert!(err.to_string().contains(named), "{pairs:?}: {err}");
                Ok(())
            });
        }
        Jail::expect_with(|jail| {
            let config = load(
                jail,
                &[
                    ("AP_S3_BUCKET", "aktionsportal.dateien-1"),
                    ("AP_S3_ENDPOINT", "http://minio:9000"),
                    ("AP_S3_ACCESS_KEY_ID", "id"),
                    ("AP_S3_SECRET_ACCESS_KEY", "s3-geheim"),
                    ("AP_S3_PATH_STYLE", "true"),
                    ("AP_S3_PREFIX", "portal/dateien"),
                ],
                &Overrides::default(),
            )
            .unwrap();
            assert!(config.s3_path_style);
            assert!(!format!("{config:?}").contains("s3-geheim"));
            Ok(())
        });
    }

    #[test]
    fn invalid_values_name_the_setting() {
        let cases: [(&str, &str, &str); 9] = [
            ("AP_ADDR", "nirgendwo", "AP_ADDR"),
            ("AP_LIST_TIME_LIMIT_MS", "0", "AP_LIST_TIME_LIMIT_MS"),
            ("AP_KEEP_WHOLE_ANSWERS", "vielleicht", "keep_whole_answers"),
            ("DATABASE_URL", "mysql://x", "DATABASE_URL"),
            ("AP_CONTENT_SITE_URL", "ftp://x", "AP_CONTENT_SITE_URL"),
            ("AP_CONTENT_TIMEOUT_MS", "0", "AP_CONTENT_TIMEOUT_MS"),
            ("AP_CONTENT_MENU_API", "joomla", "AP_CONTENT_MENU_API"),
            ("AP_TOAST_POSITION", "mitte", "AP_TOAST_POSITION"),
            ("AP_PORTT", "1", "portt"),
        ];
        for (key, value, named) in cases {
            Jail::expect_with(|jail| {
                let err = load(jail, &[(key, value)], &Overrides::default()).unwrap_err();
                assert!(err.to_string().contains(named), "{key}: {err}");
                Ok(())
            });
        }
    }

    #[test]
    fn a_list_takes_at_most_the_request_time_limit() {
        Jail::expect_with(|jail| {
            let config = load(jail, &[], &Overrides::default()).unwrap();
            assert_eq!(config.list_time_limit(), Duration::from_secs(5));
            assert!(config.keep_whole_answers);
            let config = load(
                jail,
                &[
                    ("AP_LIST_TIME_LIMIT_MS", "9000"),
                    ("AP_REQUEST_TIMEOUT_SECS", "3"),
                    ("AP_KEEP_WHOLE_ANSWERS", "false"),
                ],
                &Overrides::default(),
            )
            .unwrap();
            assert_eq!(config.list_time_limit(), Duration::from_secs(3));
            assert!(!config.keep_whole_answers);
            Ok(())
        });
    }

    #[test]
    fn missing_config_file_is_an_error() {
        let err =
            Config::load(Some(Path::new("/nicht/da.toml")), &Overrides::default()).unwrap_err();
        assert!(err.to_string().contains("/nicht/da.toml"));
    }
}
