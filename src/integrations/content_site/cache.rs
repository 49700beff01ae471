//! The menu cache. Page views read the last menu fetched without waiting. Two moka caches keep
//! the timing: a menu is in `fresh` for its time to live, and `try_get_with` on it is the one
//! fetch of that menu that concurrent callers share; a menu whose fetch failed is in `failed`
//! for the retry back-off, so page views do not hammer a site that is down.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use moka::future::Cache;
use serde_json::Value;

use super::menu_parser::{hide_items, parse_menu};
use super::{
    ContentSiteConfig, FOOTER_MENU_ID, HEADER_MENU_ID, HIDDEN_HEADER_ITEM_IDS, MAX_MENU_BODY_BYTES,
    MenuApi, MenuError, MenuItem,
};
use crate::integrations::error_chain;

/// The longest time to live honoured (moka refuses more than 1000 years; a year is plenty).
const MAX_TTL: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// Cached access to the header and footer menus. Cheap to clone (an `Arc` inside).
#[derive(Clone)]
pub struct MenuService {
    inner: Arc<CacheInner>,
}

struct CacheInner {
    /// Base URL without trailing slash; `None` when not configured.
    base_url: Option<String>,
    api: MenuApi,
    timeout: Duration,
    ttl: Duration,
    client: reqwest::Client,
    /// Holds a menu id while its menu is fresh. Its loader stores the menu in `menus`.
    fresh: Cache<i64, ()>,
    /// Holds a menu id for the retry back-off after a failed fetch.
    failed: Cache<i64, ()>,
    /// The last menu fetched of each id, served fresh or stale (a failing site keeps it).
    menus: RwLock<HashMap<i64, Vec<MenuItem>>>,
}

/// Which menu to fetch and which item ids to hide from it.
#[derive(Clone, Copy, Debug)]
struct MenuSpec {
    id: i64,
    hidden: &'static [i64],
}

const HEADER: MenuSpec = MenuSpec {
    id: HEADER_MENU_ID,
    hidden: &HIDDEN_HEADER_ITEM_IDS,
};
const FOOTER: MenuSpec = MenuSpec {
    id: FOOTER_MENU_ID,
    hidden: &[],
};

#[derive(Debug, thiserror::Error)]
enum FetchError {
    #[error("request failed")]
    Request(#[source] reqwest::Error),
    #[error("timed out after {0:?}")]
    Timeout(Duration),
    #[error("unexpected HTTP status {0}")]
    Status(reqwest::StatusCode),
    #[error("response larger than {MAX_MENU_BODY_BYTES} bytes")]
    TooLarge,
    #[error("response is not JSON")]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Menu(#[from] MenuError),
}

impl From<reqwest::Error> for FetchError {
    fn from(err: reqwest::Error) -> Self {
        FetchError::Request(err)
    }
}

impl fmt::Debug for MenuService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MenuService")
            .field("base_url", &self.inner.base_url)
            .field("api", &self.inner.api)
            .field("timeout", &self.inner.timeout)
            .field("ttl", &self.inner.ttl)
            .finish_non_exhaustive()
    }
}

impl MenuService {
    /// Creates the service; nothing is fetched until [`refresh`](Self::refresh) or the first
    /// call of [`header_menu`](Self::header_menu) / [`footer_menu`](Self::footer_menu).
    pub fn new(config: ContentSiteConfig, client: reqwest::Client) -> Self {
        let base_url = config
            .base_url
            .map(|url| url.trim().trim_end_matches('/').to_owned())
            .filter(|url| !url.is_empty());
        let ttl = config.ttl.min(MAX_TTL);
        Self {
            inner: Arc::new(CacheInner {
                base_url,
                api: config.api,
                timeout: config.timeout,
                ttl,
                client,
                fresh: Cache::builder().max_capacity(16).time_to_live(ttl).build(),
                failed: Cache::builder()
                    .max_capacity(16)
                    .time_to_live(config.retry_backoff.min(MAX_TTL))
                    .build(),
                menus: RwLock::new(HashMap::new()),
            }),
        }
    }

    /// The header menu (menu 2 without [`HIDDEN_HEADER_ITEM_IDS`]).
    ///
    /// Never waits for the network: returns what the cache holds (None before the first
    /// successful fetch or when no base_url is set) and, when the menu is missing or older than
    /// ttl, starts a background refresh (single-flight: concurrent callers share one fetch of the
    /// same menu). After a failed fetch the next one starts at the earliest the retry back-off
    /// ([`RETRY_BACKOFF`](super::RETRY_BACKOFF) by default) later.
    pub fn header_menu(&self) -> Option<Vec<MenuItem>> {
        self.cached(HEADER)
    }

    /// The footer menu (menu 3); same caching rules as [`header_menu`](Self::header_menu).
    pub fn footer_menu(&self) -> Option<Vec<MenuItem>> {
        self.cached(FOOTER)
    }

    /// Fetches both menus now, fresh or not (used at start-up in the background, and by tests).
    /// Failures are logged and keep the previously cached menu.
    pub async fn refresh(&self) {
        if self.inner.base_url.is_none() {
            return;
        }
        tokio::join!(self.inner.reload(HEADER), self.inner.reload(FOOTER));
    }

    fn cached(&self, spec: MenuSpec) -> Option<Vec<MenuItem>> {
        self.inner.base_url.as_ref()?;
        let items = self
            .inner
            .menus
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&spec.id)
            .cloned();
        if !self.inner.fresh.contains_key(&spec.id) && !self.inner.failed.contains_key(&spec.id) {
            match tokio::runtime::Handle::try_current() {
                Ok(handle) => {
                    let inner = Arc::clone(&self.inner);
                    handle.spawn(async move { inner.load(spec).await });
                }
                Err(_) => {
                    tracing::debug!(
                        menu_id = spec.id,
                        "no tokio runtime; content-site menu not refreshed"
                    );
                }
            }
        }
        items
    }
}

impl CacheInner {
    /// Fetches the menu unless it is fresh; joins a fetch of it that is already running.
    async fn load(&self, spec: MenuSpec) {
        // The outcome is stored and logged by `fetch_and_store`.
        let _ = self
            .fresh
            .try_get_with(spec.id, self.fetch_and_store(spec))
            .await;
    }

    /// Fetches the menu even when it is fresh.
    async fn reload(&self, spec: MenuSpec) {
        self.fresh.invalidate(&spec.id).await;
        self.load(spec).await;
    }

    async fn fetch_and_store(&self, spec: MenuSpec) -> Result<(), FetchError> {
        let Some(base_url) = self.base_url.as_deref() else {
            return Ok(());
        };
        let url = format!("{base_url}{}", self.api.menu_path(spec.id));
        let result = self
            .fetch(&url)
            .await
            .map(|items| hide_items(items, spec.hidden));
        match result {
            Ok(items) => {
                tracing::debug!(
                    menu_id = spec.id,
                    items = items.len(),
                    "content-site menu fetched"
                );
                self.menus
                    .write()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(spec.id, items);
                self.failed.invalidate(&spec.id).await;
                Ok(())
            }
            Err(err) => {
                self.failed.insert(spec.id, ()).await;
                let keeps_cached_menu = self
                    .menus
                    .read()
                    .unwrap_or_else(PoisonError::into_inner)
                    .contains_key(&spec.id);
                tracing::warn!(
                    menu_id = spec.id,
                    url = %url,
                    error = %error_chain(&err),
                    keeps_cached_menu,
                    "could not fetch content-site menu"
                );
                Err(err)
            }
        }
    }

    async fn fetch(&self, url: &str) -> Result<Vec<MenuItem>, FetchError> {
        // reqwest's timeout covers connect to end of body; the outer one is a safety net.
        match tokio::time::timeout(self.timeout, self.fetch_inner(url)).await {
            Ok(result) => result,
            Err(_) => Err(FetchError::Timeout(self.timeout)),
        }
    }

    async fn fetch_inner(&self, url: &str) -> Result<Vec<MenuItem>, FetchError> {
        let response = self
            .client
            .get(url)
            .timeout(self.timeout)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await?;
        let status = response.status();
        if status != reqwest::StatusCode::OK {
            return Err(FetchError::Status(status));
        }
        let body = match crate::integrations::read_body(response, MAX_MENU_BODY_BYTES).await {
            Ok(body) => body,
            Err(crate::integrations::BodyError::TooLarge) => return Err(FetchError::TooLarge),
            Err(crate::integrations::BodyError::Transport(err)) => return Err(err.into()),
        };
        // PHP sites sometimes prepend a UTF-8 byte order mark.
        let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&body);
        let json: Value = serde_json::from_slice(body)?;
        Ok(parse_menu(&json)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn blank_base_url_means_not_configured() {
        let service = MenuService::new(
            ContentSiteConfig {
                base_url: Some("  ".into()),
                ..ContentSiteConfig::default()
            },
            reqwest::Client::new(),
        );
        assert_eq!(service.header_menu(), None);
        service.refresh().await;
        assert_eq!(service.footer_menu(), None);
        assert!(service.inner.base_url.is_none());
    }

    #[tokio::test]
    async fn an_endless_time_to_live_is_capped() {
        let service = MenuService::new(
            ContentSiteConfig {
                ttl: Duration::from_secs(u64::MAX),
                ..ContentSiteConfig::default()
            },
            reqwest::Client::new(),
        );
        assert_eq!(service.inner.ttl, MAX_TTL);
    }
}
