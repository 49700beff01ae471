//! Menus of the company's WordPress content site (spec §2 "Layout", §7 "Content site").
//!
//! The portal's header shows the content site's menu [`HEADER_MENU_ID`] (without the items in
//! [`HIDDEN_HEADER_ITEM_IDS`] and their children), the footer shows menu [`FOOTER_MENU_ID`].
//!
//! Two WordPress plugins can serve the menus (see `shared/reference/external-apis.md` §2):
//! - [`MenuApi::MenusV1`], plugin `wp-rest-api-v2-menus`: `GET /wp-json/menus/v1/menus/{id}`,
//!   items with `ID`, `menu_order`, `menu_item_parent` (a string) and `child_items`;
//! - [`MenuApi::WpApiMenus`], plugin `wp-api-menus`: `GET /wp-json/wp-api-menus/v2/menus/{id}`,
//!   items with `id`, `order`, `parent` (an int) and `children`; an unknown id answers `[]`.
//!
//! [`parse_menu`] (in `menu_parser`) is one lenient adapter for both shapes. [`MenuService`] (in
//! `cache`) keeps the parsed menus in memory: page rendering never waits for the content site; a
//! missing or stale entry is refreshed in the background, one fetch per menu at a time, with a
//! back-off after failures.

mod cache;
mod menu_parser;

use std::time::Duration;

pub use cache::MenuService;
pub use menu_parser::{hide_items, parse_menu};

/// Menu id of the header menu on the content site.
pub const HEADER_MENU_ID: i64 = 2;
/// Menu id of the footer menu on the content site.
pub const FOOTER_MENU_ID: i64 = 3;
/// Item ids the header never shows (their children disappear with them).
pub const HIDDEN_HEADER_ITEM_IDS: [i64; 4] = [20, 213, 214, 50695];

/// Default per-request timeout for a menu fetch.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(1500);
/// Default time a fetched menu counts as fresh.
pub const DEFAULT_TTL: Duration = Duration::from_secs(5 * 60);
/// Default time after a failed fetch during which page views start no fetch of that menu.
pub const RETRY_BACKOFF: Duration = Duration::from_secs(30);
/// Largest menu response body accepted.
pub const MAX_MENU_BODY_BYTES: usize = 1024 * 1024;
/// Deepest nesting level kept (top level = 1); deeper items are dropped.
pub const MAX_MENU_DEPTH: usize = 16;

/// Which WordPress menu plugin the content site runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MenuApi {
    /// "menus-v1": plugin `wp-rest-api-v2-menus`, path `/wp-json/menus/v1/menus/{id}`.
    #[default]
    MenusV1,
    /// "wp-api-menus": plugin `wp-api-menus`, path `/wp-json/wp-api-menus/v2/menus/{id}`.
    WpApiMenus,
}

impl MenuApi {
    /// The path (below the site's base URL) of menu `id`.
    pub fn menu_path(self, id: i64) -> String {
        match self {
            MenuApi::MenusV1 => format!("/wp-json/menus/v1/menus/{id}"),
            MenuApi::WpApiMenus => format!("/wp-json/wp-api-menus/v2/menus/{id}"),
        }
    }
}

/// One menu entry; `title` is plain text (HTML entities decoded), `url` is `http(s)://…` or `/…`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MenuItem {
    pub id: i64,
    pub title: String,
    pub url: String,
    pub order: i64,
    pub children: Vec<MenuItem>,
}

/// Settings of the content-site client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentSiteConfig {
    /// Base URL of the content site, e.g. `https://www.example.de`; `None` (or blank) disables menus.
    pub base_url: Option<String>,
    /// Which menu plugin the site runs.
    pub api: MenuApi,
    /// Timeout of one menu request (connect to end of body).
    pub timeout: Duration,
    /// How long a fetched menu counts as fresh.
    pub ttl: Duration,
    /// After a failed fetch, page views start no fetch of that menu for this long.
    pub retry_backoff: Duration,
}

impl Default for ContentSiteConfig {
    fn default() -> Self {
        Self {
            base_url: None,
            api: MenuApi::default(),
            timeout: DEFAULT_TIMEOUT,
            ttl: DEFAULT_TTL,
            retry_backoff: RETRY_BACKOFF,
        }
    }
}

/// The menu JSON has a shape neither plugin produces.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MenuError {
    #[error("unexpected menu JSON: {0}")]
    UnexpectedShape(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn menu_api_names_and_paths() {
        assert_eq!(
            serde_json::to_value(MenuApi::MenusV1).unwrap(),
            json!("menus-v1")
        );
        assert_eq!(
            serde_json::to_value(MenuApi::WpApiMenus).unwrap(),
            json!("wp-api-menus")
        );
        assert_eq!(
            serde_json::from_value::<MenuApi>(json!("wp-api-menus")).unwrap(),
            MenuApi::WpApiMenus
        );
        assert_eq!(MenuApi::default(), MenuApi::MenusV1);
        assert_eq!(MenuApi::MenusV1.menu_path(2), "/wp-json/menus/v1/menus/2");
        assert_eq!(
            MenuApi::WpApiMenus.menu_path(3),
            "/wp-json/wp-api-menus/v2/menus/3"
        );
    }
}
