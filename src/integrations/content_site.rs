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
//! [`parse_menu`] is one lenient adapter for both shapes. [`MenuService`] keeps the parsed menus in
//! memory: page rendering never waits for the content site; a missing or stale entry is
//! refreshed in the background, one fetch per menu at a time, with a back-off after failures.

use crate::integrations::error_chain;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

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
/// After a failed fetch, page views do not start another fetch of that menu for this long.
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
}

impl Default for ContentSiteConfig {
    fn default() -> Self {
        Self {
            base_url: None,
            api: MenuApi::default(),
            timeout: DEFAULT_TIMEOUT,
            ttl: DEFAULT_TTL,
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

// ---------------------------------------------------------------------------------------------
// Service with cache
// ---------------------------------------------------------------------------------------------

/// Cached access to the header and footer menus. Cheap to clone (an `Arc` inside).
#[derive(Clone)]
pub struct MenuService {
    inner: Arc<Inner>,
}

struct Inner {
    /// Base URL without trailing slash; `None` when not configured.
    base_url: Option<String>,
    api: MenuApi,
    timeout: Duration,
    ttl: Duration,
    client: reqwest::Client,
    cache: Mutex<HashMap<i64, CacheEntry>>,
}

#[derive(Default)]
struct CacheEntry {
    items: Option<Vec<MenuItem>>,
    /// When `items` was fetched.
    fetched_at: Option<Instant>,
    /// Sequence number of the fetch that produced `items` (an older fetch never overwrites it).
    stored_seq: u64,
    /// Last sequence number handed out.
    next_seq: u64,
    /// When the last fetch failed; cleared by a success.
    last_failure: Option<Instant>,
    /// Number of fetches of this menu currently running.
    in_flight: usize,
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

/// Marks one running fetch of a menu; dropping it (finished, cancelled or never spawned)
/// releases the single-flight slot.
struct FetchTicket {
    inner: Arc<Inner>,
    menu_id: i64,
    seq: u64,
}

impl Drop for FetchTicket {
    fn drop(&mut self) {
        let mut cache = self.inner.lock_cache();
        if let Some(entry) = cache.get_mut(&self.menu_id) {
            entry.in_flight = entry.in_flight.saturating_sub(1);
        }
    }
}

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
        Self {
            inner: Arc::new(Inner {
                base_url,
                api: config.api,
                timeout: config.timeout,
                ttl: config.ttl,
                client,
                cache: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The header menu (menu 2 without [`HIDDEN_HEADER_ITEM_IDS`]).
    ///
    /// Never waits for the network: returns what the cache holds (None before the first
    /// successful fetch or when no base_url is set) and, when the entry is missing or older than
    /// ttl, starts ONE background refresh (single-flight: concurrent callers don't start a second
    /// fetch for the same menu). After a failed fetch the next one starts at the earliest
    /// [`RETRY_BACKOFF`] later.
    pub fn header_menu(&self) -> Option<Vec<MenuItem>> {
        self.cached(HEADER)
    }

    /// The footer menu (menu 3); same caching rules as [`header_menu`](Self::header_menu).
    pub fn footer_menu(&self) -> Option<Vec<MenuItem>> {
        self.cached(FOOTER)
    }

    /// Fetches both menus now (used at start-up in the background, and by tests). Failures are
    /// logged and keep the previously cached menu.
    pub async fn refresh(&self) {
        if self.inner.base_url.is_none() {
            return;
        }
        let header = self.inner.begin_fetch(HEADER.id);
        let footer = self.inner.begin_fetch(FOOTER.id);
        tokio::join!(
            Inner::fetch_and_store(HEADER, header),
            Inner::fetch_and_store(FOOTER, footer)
        );
    }

    fn cached(&self, spec: MenuSpec) -> Option<Vec<MenuItem>> {
        self.inner.base_url.as_ref()?;
        let now = Instant::now();
        // Decide and take the single-flight slot under one lock, so that concurrent callers
        // see the fetch as running.
        let (items, seq) = {
            let mut cache = self.inner.lock_cache();
            let entry = cache.entry(spec.id).or_default();
            let seq = needs_refresh(entry, now, self.inner.ttl).then(|| entry.claim());
            (entry.items.clone(), seq)
        };
        if let Some(seq) = seq {
            let ticket = FetchTicket {
                inner: Arc::clone(&self.inner),
                menu_id: spec.id,
                seq,
            };
            match tokio::runtime::Handle::try_current() {
                Ok(handle) => {
                    handle.spawn(Inner::fetch_and_store(spec, ticket));
                }
                Err(_) => {
                    tracing::debug!(
                        menu_id = spec.id,
                        "no tokio runtime; content-site menu not refreshed"
                    );
                    drop(ticket);
                }
            }
        }
        items
    }
}

impl CacheEntry {
    /// Registers a running fetch and returns its sequence number.
    fn claim(&mut self) -> u64 {
        self.in_flight += 1;
        self.next_seq += 1;
        self.next_seq
    }
}

/// Whether a page view should start a background fetch for this entry.
fn needs_refresh(entry: &CacheEntry, now: Instant, ttl: Duration) -> bool {
    if entry.in_flight > 0 {
        return false;
    }
    if let Some(failed) = entry.last_failure
        && now.saturating_duration_since(failed) < RETRY_BACKOFF
    {
        return false;
    }
    match entry.fetched_at {
        None => true,
        Some(at) => now.saturating_duration_since(at) >= ttl,
    }
}

impl Inner {
    fn lock_cache(&self) -> MutexGuard<'_, HashMap<i64, CacheEntry>> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a running fetch of `menu_id` and hands out its sequence number.
    fn begin_fetch(self: &Arc<Self>, menu_id: i64) -> FetchTicket {
        let seq = self.lock_cache().entry(menu_id).or_default().claim();
        FetchTicket {
            inner: Arc::clone(self),
            menu_id,
            seq,
        }
    }

    async fn fetch_and_store(spec: MenuSpec, ticket: FetchTicket) {
        let inner = Arc::clone(&ticket.inner);
        let Some(base_url) = inner.base_url.as_deref() else {
            return;
        };
        let url = format!("{base_url}{}", inner.api.menu_path(spec.id));
        let result = inner
            .fetch(&url)
            .await
            .map(|items| hide_items(items, spec.hidden));
        let mut cache = inner.lock_cache();
        let entry = cache.entry(spec.id).or_default();
        match result {
            Ok(items) => {
                tracing::debug!(
                    menu_id = spec.id,
                    items = items.len(),
                    "content-site menu fetched"
                );
                if ticket.seq > entry.stored_seq {
                    entry.items = Some(items);
                    entry.fetched_at = Some(Instant::now());
                    entry.stored_seq = ticket.seq;
                }
                entry.last_failure = None;
            }
            Err(err) => {
                entry.last_failure = Some(Instant::now());
                tracing::warn!(
                    menu_id = spec.id,
                    url = %url,
                    error = %error_chain(&err),
                    keeps_cached_menu = entry.items.is_some(),
                    "could not fetch content-site menu"
                );
            }
        }
        drop(cache);
        drop(ticket);
    }

    async fn fetch(&self, url: &str) -> Result<Vec<MenuItem>, FetchError> {
        // reqwest's timeout covers connect to end of body; the outer one is a safety net.
        match tokio::time::timeout(self.timeout, self.fetch_inner(url)).await {
            Ok(result) => result,
            Err(_) => Err(FetchError::Timeout(self.timeout)),
        }
    }

    async fn fetch_inner(&self, url: &str) -> Result<Vec<MenuItem>, FetchError> {
        let mut response = self
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
        if response
            .content_length()
            .is_some_and(|len| len > MAX_MENU_BODY_BYTES as u64)
        {
            return Err(FetchError::TooLarge);
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            if body.len() + chunk.len() > MAX_MENU_BODY_BYTES {
                return Err(FetchError::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        // PHP sites sometimes prepend a UTF-8 byte order mark.
        let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&body);
        let json: Value = serde_json::from_slice(body)?;
        Ok(parse_menu(&json)?)
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// Parses the answer of either menu plugin into a tree.
///
/// Accepts an object with `items` or a bare item array (`[]` is an empty menu). Items may be
/// nested (`child_items` / `children`), flat with parent ids, or mixed: everything is flattened,
/// de-duplicated by id (first occurrence wins) and rebuilt by parent id; an item whose parent is
/// unknown becomes top-level. Each level is sorted by order, then id. Items without id, title or
/// an allowed URL (`http(s)://…` or `/…`) are dropped. Titles have HTML entities decoded.
pub fn parse_menu(json: &Value) -> Result<Vec<MenuItem>, MenuError> {
    let top = match json {
        Value::Array(items) => items.iter().collect(),
        Value::Object(menu) => match menu.get("items") {
            Some(items) => item_values(items).ok_or_else(|| {
                MenuError::UnexpectedShape(format!("`items` is {}, expected an array", kind(items)))
            })?,
            None => return Err(MenuError::UnexpectedShape(describe_object(menu))),
        },
        other => {
            return Err(MenuError::UnexpectedShape(format!(
                "expected an object with `items` or an array, got {}",
                kind(other)
            )));
        }
    };
    Ok(build_tree(flatten(top)))
}

/// Removes the items with the given ids, at any depth, together with their children.
pub fn hide_items(items: Vec<MenuItem>, ids: &[i64]) -> Vec<MenuItem> {
    items
        .into_iter()
        .filter(|item| !ids.contains(&item.id))
        .map(|mut item| {
            item.children = hide_items(std::mem::take(&mut item.children), ids);
            item
        })
        .collect()
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn describe_object(object: &Map<String, Value>) -> String {
    match object.get("code").and_then(Value::as_str) {
        // WordPress REST error body: {"code": "...", "message": "...", "data": {"status": 404}}
        Some(code) => format!("WordPress error `{code}` instead of a menu"),
        None => "object without `items`".to_owned(),
    }
}

/// The item values of an `items` / `children` value: an array, or an object whose values are
/// all objects (PHP encodes an array with gaps in its keys that way).
fn item_values(value: &Value) -> Option<Vec<&Value>> {
    match value {
        Value::Array(items) => Some(items.iter().collect()),
        Value::Object(map) if map.values().all(Value::is_object) => Some(map.values().collect()),
        _ => None,
    }
}

struct FlatItem {
    id: i64,
    parent: i64,
    order: i64,
    title: String,
    url: String,
}

/// Walks the (possibly nested) items depth-first without recursion and returns every valid
/// item once, in document order. A nested item without its own parent id gets its enclosing
/// item's id.
fn flatten(top: Vec<&Value>) -> Vec<FlatItem> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<(&Value, i64)> = top.into_iter().rev().map(|v| (v, 0)).collect();
    while let Some((value, enclosing)) = stack.pop() {
        let Some(object) = value.as_object() else {
            continue;
        };
        let id = int_field(object, &["ID", "id"]).filter(|id| *id > 0);
        let children = ["child_items", "children"]
            .iter()
            .filter_map(|key| object.get(*key))
            .find_map(item_values)
            .unwrap_or_default();
        let child_parent = id.unwrap_or(0);
        stack.extend(
            children
                .into_iter()
                .rev()
                .map(|child| (child, child_parent)),
        );

        let Some(id) = id else { continue };
        if !seen.insert(id) {
            continue;
        }
        let parent = int_field(object, &["menu_item_parent", "parent"])
            .filter(|parent| *parent > 0)
            .unwrap_or(enclosing);
        let order = int_field(object, &["menu_order", "order"]).unwrap_or(0);
        let Some(title) = title_field(object) else {
            continue;
        };
        let Some(url) = url_field(object) else {
            continue;
        };
        out.push(FlatItem {
            id,
            parent,
            order,
            title,
            url,
        });
    }
    out
}

/// The first of `keys` holding an integer (or a string of one).
fn int_field(object: &Map<String, Value>, keys: &[&str]) -> Option<i64> {
    keys.iter()
        .filter_map(|key| object.get(*key))
        .find_map(|value| match value {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        })
}

fn title_field(object: &Map<String, Value>) -> Option<String> {
    let raw = match object.get("title")? {
        Value::String(s) => s.as_str(),
        // WordPress core's own REST shape: {"title": {"rendered": "…"}}
        Value::Object(title) => title.get("rendered")?.as_str()?,
        _ => return None,
    };
    let title = decode_entities(raw).trim().to_owned();
    (!title.is_empty()).then_some(title)
}

fn url_field(object: &Map<String, Value>) -> Option<String> {
    let url = object.get("url")?.as_str()?.trim();
    is_allowed_url(url).then(|| url.to_owned())
}

/// Only `http://…`, `https://…` or site-relative `/…` links; never `javascript:`, `data:`,
/// `mailto:`, `#` or URLs containing control characters.
fn is_allowed_url(url: &str) -> bool {
    if url.chars().any(char::is_control) {
        return false;
    }
    let has_prefix = |prefix: &str| {
        url.len() > prefix.len()
            && url
                .get(..prefix.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(prefix))
    };
    url.starts_with('/') || has_prefix("http://") || has_prefix("https://")
}

/// Rebuilds the tree from parent ids. Unknown parents and cycles make an item top-level.
fn build_tree(flat: Vec<FlatItem>) -> Vec<MenuItem> {
    let index: HashMap<i64, usize> = flat
        .iter()
        .enumerate()
        .map(|(i, item)| (item.id, i))
        .collect();
    let mut parent: Vec<Option<usize>> = flat
        .iter()
        .map(|item| {
            if item.parent == item.id {
                None
            } else {
                index.get(&item.parent).copied()
            }
        })
        .collect();
    // Break cycles: walk up from each item; the item whose parent was already on the path
    // becomes top-level.
    for start in 0..flat.len() {
        let mut path = HashSet::from([start]);
        let mut current = start;
        while let Some(up) = parent[current] {
            if !path.insert(up) {
                parent[current] = None;
                break;
            }
            current = up;
        }
    }
    let mut children: HashMap<Option<usize>, Vec<usize>> = HashMap::new();
    for (i, p) in parent.iter().enumerate() {
        children.entry(*p).or_default().push(i);
    }
    let mut slots: Vec<Option<FlatItem>> = flat.into_iter().map(Some).collect();
    assemble(None, &children, &mut slots, 1)
}

fn assemble(
    parent: Option<usize>,
    children: &HashMap<Option<usize>, Vec<usize>>,
    slots: &mut [Option<FlatItem>],
    depth: usize,
) -> Vec<MenuItem> {
    if depth > MAX_MENU_DEPTH {
        return Vec::new();
    }
    let Some(indices) = children.get(&parent) else {
        return Vec::new();
    };
    let mut level: Vec<(usize, FlatItem)> = indices
        .iter()
        .filter_map(|&i| slots[i].take().map(|item| (i, item)))
        .collect();
    level.sort_by_key(|(_, item)| (item.order, item.id));
    level
        .into_iter()
        .map(|(i, item)| MenuItem {
            id: item.id,
            title: item.title,
            url: item.url,
            order: item.order,
            children: assemble(Some(i), children, slots, depth + 1),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// HTML entities
// ---------------------------------------------------------------------------------------------

/// Decodes HTML character references once (`&amp;lt;` becomes `&lt;`); unknown ones stay as
/// they are.
fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .unwrap_or(after.len());
        if (1..=32).contains(&end)
            && after[end..].starts_with(';')
            && let Some(ch) = decode_entity(&after[..end])
        {
            out.push(ch);
            rest = &after[end + 1..];
            continue;
        }
        out.push('&');
        rest = after;
    }
    out.push_str(rest);
    out
}

fn decode_entity(name: &str) -> Option<char> {
    if let Some(number) = name.strip_prefix('#') {
        let (digits, radix) = match number.strip_prefix(['x', 'X']) {
            Some(hex) => (hex, 16),
            None => (number, 10),
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        let code = u32::from_str_radix(digits, radix).unwrap_or(u32::MAX);
        return Some(numeric_char(code));
    }
    let ch = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "lsquo" => '‘',
        "rsquo" => '’',
        "sbquo" => '‚',
        "ldquo" => '“',
        "rdquo" => '”',
        "bdquo" => '„',
        "laquo" => '«',
        "raquo" => '»',
        "lsaquo" => '‹',
        "rsaquo" => '›',
        "bull" => '•',
        "middot" => '·',
        "euro" => '€',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "deg" => '°',
        "sect" => '§',
        "times" => '×',
        "shy" => '\u{ad}',
        "auml" => 'ä',
        "ouml" => 'ö',
        "uuml" => 'ü',
        "Auml" => 'Ä',
        "Ouml" => 'Ö',
        "Uuml" => 'Ü',
        "szlig" => 'ß',
        "eacute" => 'é',
        "egrave" => 'è',
        "agrave" => 'à',
        _ => return None,
    };
    Some(ch)
}

/// A numeric character reference as browsers read it: 0x80–0x9F as Windows-1252 (old
/// WordPress content uses `&#150;` for a dash), invalid code points and other control
/// characters as U+FFFD.
fn numeric_char(code: u32) -> char {
    const CP1252: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match code {
        0x80..=0x9f => {
            let ch = CP1252[(code - 0x80) as usize];
            if ch.is_control() { '\u{fffd}' } else { ch }
        }
        0x09 | 0x0a | 0x0d => ' ',
        _ => match char::from_u32(code) {
            Some(ch) if !ch.is_control() => ch,
            _ => '\u{fffd}',
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn item(id: i64, title: &str, url: &str, order: i64, children: Vec<MenuItem>) -> MenuItem {
        MenuItem {
            id,
            title: title.to_owned(),
            url: url.to_owned(),
            order,
            children,
        }
    }

    fn ids(items: &[MenuItem]) -> Vec<i64> {
        items.iter().map(|i| i.id).collect()
    }

    /// `GET /wp-json/menus/v1/menus/2` of plugin wp-rest-api-v2-menus (raw nav_menu_item posts,
    /// string parents, `child_items` only on parents).
    fn menus_v1_header() -> Value {
        json!({
            "term_id": 2, "name": "Hauptmenü", "slug": "hauptmenue", "term_group": 0,
            "term_taxonomy_id": 2, "taxonomy": "nav_menu", "description": "", "parent": 0,
            "count": 9, "filter": "raw",
            "items": [
                {
                    "ID": 10, "menu_order": 1, "menu_item_parent": "0", "db_id": 10,
                    "title": "Start", "url": "https://www.example.de/", "target": "",
                    "attr_title": "", "description": "", "classes": [""], "xfn": "",
                    "object_id": "5", "object": "page", "type": "post_type",
                    "type_label": "Seite", "post_title": "", "post_name": "10",
                    "post_status": "publish", "post_type": "nav_menu_item", "post_parent": 0,
                    "slug": "start"
                },
                {
                    "ID": 20, "menu_order": 2, "menu_item_parent": "0", "db_id": 20,
                    "title": "Intern", "url": "https://www.example.de/intern/",
                    "object_id": "7", "object": "page", "type": "post_type",
                    "post_type": "nav_menu_item", "post_parent": 0, "slug": "intern",
                    "child_items": [
                        { "ID": 21, "menu_order": 3, "menu_item_parent": "20",
                          "title": "Unterseite", "url": "https://www.example.de/intern/a/" }
                    ]
                },
                {
                    "ID": 30, "menu_order": 4, "menu_item_parent": "0",
                    "title": "Produkte &amp; Services", "url": "https://www.example.de/produkte/",
                    "type": "post_type", "object": "page",
                    "child_items": [
                        { "ID": 32, "menu_order": 6, "menu_item_parent": "30",
                          "title": "Aktionen &#8211; Herbst", "url": "/aktionen/herbst/" },
                        { "ID": 31, "menu_order": 5, "menu_item_parent": "30",
                          "title": "Neuheiten", "url": "https://www.example.de/neu/",
                          "child_items": [
                              { "ID": 33, "menu_order": 7, "menu_item_parent": "31",
                                "title": "Katalog &#x201E;2025&#x201C;",
                                "url": "https://www.example.de/neu/katalog/" }
                          ] },
                        { "ID": 214, "menu_order": 8, "menu_item_parent": "30",
                          "title": "Versteckt", "url": "https://www.example.de/x/" }
                    ]
                },
                { "ID": 213, "menu_order": 9, "menu_item_parent": "0",
                  "title": "Login", "url": "https://www.example.de/login/" },
                { "ID": 40, "menu_order": 10, "menu_item_parent": "0",
                  "title": "Böse", "url": "javascript:alert(1)" },
                { "ID": 50695, "menu_order": 11, "menu_item_parent": "0",
                  "title": "Shop", "url": "https://shop.example.de/" }
            ]
        })
    }

    /// `GET /wp-json/wp-api-menus/v2/menus/3` of plugin wp-api-menus (lowercase `id`, int
    /// `parent`, `children` only when present).
    fn wp_api_menus_footer() -> Value {
        json!({
            "ID": 3, "name": "Footer", "slug": "footer", "description": "", "count": 4,
            "items": [
                { "id": 301, "order": 1, "parent": 0, "title": "Impressum",
                  "url": "https://www.example.de/impressum/", "attr": "", "target": "",
                  "classes": "", "xfn": "", "description": "", "object_id": 50,
                  "object": "page", "object_slug": "impressum", "type": "post_type",
                  "type_label": "Seite" },
                { "id": 302, "order": 2, "parent": 0, "title": "Rechtliches",
                  "url": "https://www.example.de/recht/", "object_slug": "recht",
                  "children": [
                      { "id": 304, "order": 4, "parent": 302, "title": "AGB",
                        "url": "https://www.example.de/agb/" },
                      { "id": 303, "order": 3, "parent": 302, "title": "Datenschutz",
                        "url": "https://www.example.de/datenschutz/" }
                  ] }
            ],
            "meta": { "links": {
                "collection": "https://www.example.de/wp-json/wp-api-menus/v2/menus/",
                "self": "https://www.example.de/wp-json/wp-api-menus/v2/menus/3"
            } }
        })
    }

    #[test]
    fn parses_menus_v1_nested_with_string_parents_and_entities() {
        let menu = parse_menu(&menus_v1_header()).unwrap();
        assert_eq!(
            menu,
            vec![
                item(10, "Start", "https://www.example.de/", 1, vec![]),
                item(
                    20,
                    "Intern",
                    "https://www.example.de/intern/",
                    2,
                    vec![item(
                        21,
                        "Unterseite",
                        "https://www.example.de/intern/a/",
                        3,
                        vec![]
                    )]
                ),
                item(
                    30,
                    "Produkte & Services",
                    "https://www.example.de/produkte/",
                    4,
                    vec![
                        item(
                            31,
                            "Neuheiten",
                            "https://www.example.de/neu/",
                            5,
                            vec![item(
                                33,
                                "Katalog „2025“",
                                "https://www.example.de/neu/katalog/",
                                7,
                                vec![]
                            )]
                        ),
                        item(32, "Aktionen – Herbst", "/aktionen/herbst/", 6, vec![]),
                        item(214, "Versteckt", "https://www.example.de/x/", 8, vec![]),
                    ]
                ),
                item(213, "Login", "https://www.example.de/login/", 9, vec![]),
                item(50695, "Shop", "https://shop.example.de/", 11, vec![]),
            ]
        );
    }

    #[test]
    fn header_without_hidden_items() {
        let menu = hide_items(
            parse_menu(&menus_v1_header()).unwrap(),
            &HIDDEN_HEADER_ITEM_IDS,
        );
        assert_eq!(ids(&menu), vec![10, 30]);
        assert_eq!(ids(&menu[1].children), vec![31, 32]);
        assert_eq!(ids(&menu[1].children[0].children), vec![33]);
    }

    #[test]
    fn parses_wp_api_menus_nested() {
        let menu = parse_menu(&wp_api_menus_footer()).unwrap();
        assert_eq!(
            menu,
            vec![
                item(
                    301,
                    "Impressum",
                    "https://www.example.de/impressum/",
                    1,
                    vec![]
                ),
                item(
                    302,
                    "Rechtliches",
                    "https://www.example.de/recht/",
                    2,
                    vec![
                        item(
                            303,
                            "Datenschutz",
                            "https://www.example.de/datenschutz/",
                            3,
                            vec![]
                        ),
                        item(304, "AGB", "https://www.example.de/agb/", 4, vec![]),
                    ]
                ),
            ]
        );
    }

    #[test]
    fn parses_wp_api_menus_location_array_with_uppercase_id_and_empty_children() {
        // `GET /wp-json/wp-api-menus/v2/menu-locations/primary`: bare array, `ID`, `children: []`.
        let body = json!([
            { "ID": 5, "order": 2, "parent": 0, "title": "Kontakt", "url": "/kontakt/",
              "children": [] },
            { "ID": 4, "order": 1, "parent": 0, "title": "Start", "url": "https://x.de/",
              "children": [
                  { "ID": 6, "order": 3, "parent": 4, "title": "Team", "url": "/team/",
                    "children": [] }
              ] }
        ]);
        let menu = parse_menu(&body).unwrap();
        assert_eq!(
            menu,
            vec![
                item(
                    4,
                    "Start",
                    "https://x.de/",
                    1,
                    vec![item(6, "Team", "/team/", 3, vec![])]
                ),
                item(5, "Kontakt", "/kontakt/", 2, vec![]),
            ]
        );
    }

    #[test]
    fn empty_array_is_an_empty_menu() {
        assert_eq!(parse_menu(&json!([])).unwrap(), vec![]);
        assert_eq!(
            parse_menu(&json!({ "ID": 3, "items": [] })).unwrap(),
            vec![]
        );
    }

    #[test]
    fn flat_list_with_string_parents_is_rebuilt_and_sorted() {
        // Children listed before their parents; equal orders sorted by id.
        let body = json!({ "items": [
            { "ID": 12, "menu_order": 3, "menu_item_parent": "11", "title": "B", "url": "/b" },
            { "ID": 13, "menu_order": 3, "menu_item_parent": "11", "title": "A", "url": "/a" },
            { "ID": 14, "menu_order": 1, "menu_item_parent": 12, "title": "C", "url": "/c" },
            { "ID": 11, "menu_order": 2, "menu_item_parent": "0", "title": "Root", "url": "/" },
            { "ID": 10, "menu_order": 2, "menu_item_parent": "0", "title": "First", "url": "/f" }
        ]});
        let menu = parse_menu(&body).unwrap();
        assert_eq!(ids(&menu), vec![10, 11]);
        assert_eq!(ids(&menu[1].children), vec![12, 13]);
        assert_eq!(ids(&menu[1].children[0].children), vec![14]);
    }

    #[test]
    fn mixed_nested_and_flat_items_are_deduplicated() {
        let body = json!([
            { "id": 1, "order": 1, "parent": 0, "title": "Eins", "url": "/1",
              "children": [ { "id": 2, "order": 2, "parent": 1, "title": "Zwei", "url": "/2" } ] },
            { "id": 2, "order": 2, "parent": 1, "title": "Zwei (doppelt)", "url": "/2b" },
            { "id": 3, "order": 3, "parent": 1, "title": "Drei", "url": "/3" },
            { "id": 1, "order": 9, "parent": 0, "title": "Eins (doppelt)", "url": "/1b" }
        ]);
        let menu = parse_menu(&body).unwrap();
        assert_eq!(
            menu,
            vec![item(
                1,
                "Eins",
                "/1",
                1,
                vec![
                    item(2, "Zwei", "/2", 2, vec![]),
                    item(3, "Drei", "/3", 3, vec![])
                ]
            )]
        );
    }

    #[test]
    fn nested_child_without_parent_field_uses_enclosing_item() {
        let body = json!([{ "ID": 1, "title": "A", "url": "/a",
            "child_items": [ { "ID": 2, "title": "B", "url": "/b" } ] }]);
        let menu = parse_menu(&body).unwrap();
        assert_eq!(ids(&menu), vec![1]);
        assert_eq!(ids(&menu[0].children), vec![2]);
    }

    #[test]
    fn unknown_parent_self_parent_and_cycles_become_top_level() {
        let body = json!([
            { "ID": 1, "menu_order": 1, "menu_item_parent": "999", "title": "Waise", "url": "/w" },
            { "ID": 2, "menu_order": 2, "menu_item_parent": "2", "title": "Selbst", "url": "/s" },
            { "ID": 3, "menu_order": 3, "menu_item_parent": "4", "title": "Ring A", "url": "/ra" },
            { "ID": 4, "menu_order": 4, "menu_item_parent": "3", "title": "Ring B", "url": "/rb" }
        ]);
        let menu = parse_menu(&body).unwrap();
        let mut all = Vec::new();
        fn collect(items: &[MenuItem], out: &mut Vec<i64>) {
            for i in items {
                out.push(i.id);
                collect(&i.children, out);
            }
        }
        collect(&menu, &mut all);
        all.sort();
        assert_eq!(all, vec![1, 2, 3, 4], "no item lost");
        assert!(ids(&menu).starts_with(&[1, 2]));
    }

    #[test]
    fn children_of_a_dropped_parent_become_top_level() {
        // A custom link "#" (a dropdown header) is not a valid link; its children stay visible.
        let body = json!({ "items": [
            { "ID": 1, "menu_order": 1, "menu_item_parent": "0", "title": "Mehr", "url": "#",
              "child_items": [
                  { "ID": 2, "menu_order": 2, "menu_item_parent": "1", "title": "FAQ", "url": "/faq" }
              ] }
        ]});
        assert_eq!(
            parse_menu(&body).unwrap(),
            vec![item(2, "FAQ", "/faq", 2, vec![])]
        );
    }

    #[test]
    fn drops_items_without_title_url_or_with_bad_urls() {
        let body = json!([
            { "ID": 1, "title": "Ok", "url": "https://x.de/" },
            { "ID": 2, "title": "", "url": "/leer" },
            { "ID": 3, "title": "&nbsp; ", "url": "/nbsp" },
            { "ID": 4, "url": "/ohne-titel" },
            { "ID": 5, "title": "Ohne URL" },
            { "ID": 6, "title": "JS", "url": "javascript:alert(1)" },
            { "ID": 7, "title": "JS2", "url": "  JavaScript:alert(1)" },
            { "ID": 8, "title": "Mail", "url": "mailto:info@example.de" },
            { "ID": 9, "title": "Data", "url": "data:text/html,<script>alert(1)</script>" },
            { "ID": 10, "title": "Anker", "url": "#" },
            { "ID": 11, "title": "Relativ", "url": "  /kontakt/  " },
            { "ID": 12, "title": "Gross", "url": "HTTPS://X.DE/" },
            { "ID": 13, "title": "Steuerzeichen", "url": "/a\nb" },
            { "ID": 14, "title": "Nur Schema", "url": "https://" },
            { "ID": 15, "title": "Entity-JS", "url": "&#106;avascript:alert(1)" },
            { "ID": 16, "title": 5, "url": "/zahl" },
            { "title": "Ohne ID", "url": "/ohne-id" },
            { "ID": 0, "title": "ID null", "url": "/null" },
            "kein Objekt",
            { "ID": 17, "title": { "rendered": "Core &amp; Co" }, "url": "/core" }
        ]);
        let menu = parse_menu(&body).unwrap();
        assert_eq!(ids(&menu), vec![1, 11, 12, 17]);
        assert_eq!(menu[1].url, "/kontakt/");
        assert_eq!(menu[3].title, "Core & Co");
    }

    #[test]
    fn items_as_php_object_map_are_accepted() {
        let body = json!({ "items": {
            "0": { "ID": 1, "menu_order": 1, "title": "A", "url": "/a" },
            "2": { "ID": 2, "menu_order": 2, "title": "B", "url": "/b" }
        }});
        assert_eq!(ids(&parse_menu(&body).unwrap()), vec![1, 2]);
    }

    #[test]
    fn other_shapes_are_errors() {
        for body in [
            json!(null),
            json!("menu"),
            json!(42),
            json!(true),
            json!({ "ID": 3, "name": "Footer" }),
            json!({ "items": null }),
            json!({ "items": "x" }),
            json!({ "items": { "ID": 1, "title": "A", "url": "/a" } }),
        ] {
            assert!(
                matches!(parse_menu(&body), Err(MenuError::UnexpectedShape(_))),
                "{body}"
            );
        }
        let wp_error = json!({ "code": "not_found", "message": "No menu has been found",
            "data": { "status": 404 } });
        assert_eq!(
            parse_menu(&wp_error).unwrap_err().to_string(),
            "unexpected menu JSON: WordPress error `not_found` instead of a menu"
        );
    }

    #[test]
    fn very_deep_menus_are_cut() {
        let items: Vec<Value> = (1..=40)
            .map(|id| json!({ "ID": id, "menu_item_parent": id - 1, "title": "T", "url": "/" }))
            .collect();
        let menu = parse_menu(&Value::Array(items)).unwrap();
        let mut depth = 0;
        let mut level = &menu;
        while let Some(first) = level.first() {
            depth += 1;
            level = &first.children;
        }
        assert_eq!(depth, MAX_MENU_DEPTH);
    }

    #[test]
    fn decodes_entities() {
        let cases = [
            ("Produkte &amp; Services", "Produkte & Services"),
            (
                "&lt;b&gt; &quot;x&quot; &#039;y&#039; &apos;z&apos;",
                "<b> \"x\" 'y' 'z'",
            ),
            ("A &#8211; B &#8212; C", "A – B — C"),
            ("a&nbsp;b", "a\u{a0}b"),
            ("&#x201E;Hallo&#X201C;", "„Hallo“"),
            ("&#150;", "–"),
            ("M&uuml;nchen &euro; &hellip;", "München € …"),
            ("&amp;lt;", "&lt;"),
            ("Tom & Jerry", "Tom & Jerry"),
            ("&unknown; &#; &#x; &#12a; &", "&unknown; &#; &#x; &#12a; &"),
            (
                "&#0;&#xD800;&#99999999999;&#1;",
                "\u{fffd}\u{fffd}\u{fffd}\u{fffd}",
            ),
            ("&amp", "&amp"),
        ];
        for (input, expected) in cases {
            assert_eq!(decode_entities(input), expected, "{input}");
        }
    }

    #[test]
    fn hiding_a_parent_hides_its_children() {
        let menu = vec![
            item(
                1,
                "A",
                "/a",
                1,
                vec![item(2, "B", "/b", 1, vec![item(3, "C", "/c", 1, vec![])])],
            ),
            item(
                20,
                "Versteckt",
                "/v",
                2,
                vec![item(21, "Kind", "/k", 1, vec![])],
            ),
            item(
                4,
                "D",
                "/d",
                3,
                vec![item(213, "Auch weg", "/w", 1, vec![])],
            ),
        ];
        let shown = hide_items(menu.clone(), &HIDDEN_HEADER_ITEM_IDS);
        assert_eq!(ids(&shown), vec![1, 4]);
        assert_eq!(ids(&shown[0].children), vec![2]);
        assert!(shown[1].children.is_empty());
        assert_eq!(hide_items(menu.clone(), &[]), menu);
        assert_eq!(hide_items(menu, &[2]).first().unwrap().children, vec![]);
    }

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

    #[test]
    fn refresh_decision() {
        let now = Instant::now();
        let ttl = Duration::from_secs(60);
        let ago = |secs| now - Duration::from_secs(secs);

        assert!(
            needs_refresh(&CacheEntry::default(), now, ttl),
            "missing entry"
        );
        let fresh = CacheEntry {
            fetched_at: Some(ago(10)),
            ..CacheEntry::default()
        };
        assert!(!needs_refresh(&fresh, now, ttl), "fresh");
        let stale = CacheEntry {
            fetched_at: Some(ago(61)),
            ..CacheEntry::default()
        };
        assert!(needs_refresh(&stale, now, ttl), "stale");
        let running = CacheEntry {
            in_flight: 1,
            ..CacheEntry::default()
        };
        assert!(!needs_refresh(&running, now, ttl), "single flight");
        let just_failed = CacheEntry {
            last_failure: Some(ago(5)),
            ..CacheEntry::default()
        };
        assert!(!needs_refresh(&just_failed, now, ttl), "back-off");
        let failed_long_ago = CacheEntry {
            fetched_at: Some(ago(600)),
            last_failure: Some(ago(31)),
            ..CacheEntry::default()
        };
        assert!(
            needs_refresh(&failed_long_ago, now, ttl),
            "retry after back-off"
        );
    }

    #[test]
    fn blank_base_url_means_not_configured() {
        let service = MenuService::new(
            ContentSiteConfig {
                base_url: Some("  ".into()),
                ..ContentSiteConfig::default()
            },
            reqwest::Client::new(),
        );
        assert_eq!(service.header_menu(), None);
        assert!(service.inner.lock_cache().is_empty(), "nothing scheduled");
    }
}
