//! The application's shared state: configuration, database, third-party clients and caches,
//! built once from a configuration. Its own module so that `api`, `app` and `auth` depend on
//! it alone, not on `startup` (the router and server) or on each other.

use std::ops::Deref;
use std::sync::Arc;

use crate::assets::EntryAssets;
use crate::auth::oidc::{Oidc, OidcSettings};
use crate::auth::throttle::HashPool;
use crate::config::Config;
use crate::db::Db;
use crate::integrations::brevo::{BrevoClient, BrevoConfig, EmailAddress};
use crate::integrations::content_site::{ContentSiteConfig, MenuService};
use crate::integrations::mail::{Mailer, SmtpSettings};
use crate::server::client::TrustedProxies;
use crate::services::contacts::mailing::MailSettings;
use crate::services::marketing::Marketing;
use crate::storage::FileStore;

/// Everything a request handler or page needs; cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<AppInner>);

pub struct AppInner {
    pub config: Config,
    pub db: Db,
    pub menus: MenuService,
    pub assets: EntryAssets,
    pub http: reqwest::Client,
    /// The bounded pool that password hashes run in.
    pub hashing: HashPool,
    /// Reverse proxies whose forwarding headers are believed.
    pub trusted_proxies: TrustedProxies,
    /// The OpenID provider; `None` when local accounts sign in.
    pub oidc: Option<Oidc>,
    /// Brevo, or local mode without an API key.
    pub marketing: Marketing,
    /// Uploaded files under the data folder.
    pub files: FileStore,
    /// Size limit and allowed types of uploads.
    pub uploads: crate::services::catalog::uploads::UploadRules,
    /// List answers, totals and page parts kept under the data version (issue 22).
    pub answers: crate::services::operations::answers::Answers,
    /// Where the portal's mails go: Brevo, SMTP or the outbox folder.
    pub mailer: Arc<Mailer>,
    pub mail_settings: MailSettings,
    /// Wakes the mail-job worker when a job starts.
    pub mail_jobs: Arc<tokio::sync::Notify>,
    /// Makes the previews of uploaded files.
    pub previews: crate::services::catalog::previews::PreviewWorker,
    /// Records what each file delivery and ZIP counted (issue 24).
    pub statistics: crate::services::insight::statistics::Recorder,
    /// The summary's ranking of the settled days (issue 41).
    pub statistics_rankings: crate::services::insight::statistics::ranking::Rankings,
    /// The planning system's service for import candidates, when configured.
    pub planning: Option<crate::integrations::planning::PlanningClient>,
    /// The time bound of every list (`AP_LIST_TIME_LIMIT_MS`).
    pub list_bound: crate::services::error::ListBound,
}

impl Deref for AppState {
    type Target = AppInner;
    fn deref(&self) -> &AppInner {
        &self.0
    }
}

impl AppState {
    pub fn new(config: Config, db: Db) -> anyhow::Result<AppState> {
        let http = reqwest::Client::builder()
            .user_agent(concat!("Aktionsportal/", env!("CARGO_PKG_VERSION")))
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        let menus = MenuService::new(
            ContentSiteConfig {
                base_url: config.content_site_url.clone(),
                api: config.content_menu_api,
                timeout: config.content_timeout(),
                ttl: config.content_cache_ttl(),
                ..ContentSiteConfig::default()
            },
            http.clone(),
        );
        let assets = EntryAssets::load(&config.assets_dir);
        let oidc =
            OidcSettings::from_config(&config).map(|settings| Oidc::new(settings, http.clone()));
        let marketing = match &config.brevo_api_key {
            Some(key) => Marketing::Brevo(BrevoClient::new(
                BrevoConfig {
                    base_url: config.brevo_base_url.clone(),
                    api_key: key.clone(),
                    timeout: std::time::Duration::from_millis(config.brevo_timeout_ms),
                    ..BrevoConfig::default()
                },
                http.clone(),
            )),
            None => Marketing::Local,
        };
        let files = FileStore::from_config(&config)?;
        let mailer = Arc::new(mailer_for(&config, &marketing)?);
        Ok(AppState(Arc::new(AppInner {
            list_bound: crate::services::error::ListBound::new(
                db.clone(),
                config.list_time_limit(),
            ),
            db,
            menus,
            assets,
            http,
            hashing: HashPool::new(
                config.login_hash_concurrency,
                std::time::Duration::from_secs(config.login_hash_wait_secs),
            ),
            trusted_proxies: TrustedProxies::from_config(&config),
            oidc,
            marketing,
            files,
            uploads: crate::services::catalog::uploads::UploadRules::from_config(&config),
            answers: crate::services::operations::answers::Answers::new(
                config.kept_answers_mb.saturating_mul(1024 * 1024),
            )
            .keeping_whole(config.keep_whole_answers),
            mailer,
            mail_settings: MailSettings::from_config(&config),
            mail_jobs: Default::default(),
            previews: crate::services::catalog::previews::PreviewWorker::from_config(&config),
            statistics: crate::services::insight::statistics::Recorder::from_config(&config),
            statistics_rankings: Default::default(),
            planning: config.planning_url.as_deref().map(|url| {
                crate::integrations::planning::PlanningClient::new(
                    url,
                    config.planning_token.clone(),
                    std::time::Duration::from_secs(config.planning_timeout_secs),
                )
            }),
            config,
        })))
    }

    /// `work`, a list, within `AP_LIST_TIME_LIMIT_MS` (else [`ServiceError::TooSlow`]): one
    /// bound for the API's lists and the pages that show their first rows.
    ///
    /// [`ServiceError::TooSlow`]: crate::services::error::ServiceError::TooSlow
    pub async fn within_list_time<T>(
        &self,
        work: impl std::future::Future<Output = crate::services::error::ServiceResult<T>>,
    ) -> crate::services::error::ServiceResult<T> {
        self.list_bound.within(work).await
    }
}

/// The longest one mail may take over SMTP: with the few database steps around it, the admin
/// who sends a confirmation gets an answer within ~15 s, as with Brevo's `call_deadline`.
const SMTP_DEADLINE: std::time::Duration = std::time::Duration::from_secs(12);

/// Brevo's transactional mail with an API key, else SMTP when a host is set, else the outbox.
fn mailer_for(config: &Config, marketing: &Marketing) -> anyhow::Result<Mailer> {
    let name = config
        .mail_from_name
        .clone()
        .unwrap_or_else(|| format!("{} Aktionsportal", config.product_name));
    if let Marketing::Brevo(client) = marketing {
        return Ok(Mailer::brevo(
            client.clone(),
            config.brevo_doi_template_id,
            EmailAddress::new(config.mail_from.clone(), Some(name)),
        ));
    }
    let from = lettre::message::Mailbox::new(
        Some(name),
        config
            .mail_from
            .parse()
            .map_err(|e| anyhow::anyhow!("AP_MAIL_FROM: {e}"))?,
    );
    Ok(match &config.smtp_host {
        Some(host) => Mailer::smtp(
            &SmtpSettings {
                host: host.clone(),
                port: config.smtp_port,
                security: config.smtp_security,
                user: config.smtp_user.clone(),
                password: config.smtp_password.clone(),
                timeout: SMTP_DEADLINE,
            },
            from,
        )?,
        None => Mailer::outbox(config.outbox_dir(), from),
    })
}
