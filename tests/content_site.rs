//! The content-site menu client against a fake WordPress site over real HTTP (127.0.0.1:0).

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aktionsportal::integrations::content_site::*;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Fake content site
// ---------------------------------------------------------------------------------------------

const OK: u8 = 0;
const SERVER_ERROR: u8 = 1;
const BAD_JSON: u8 = 2;
const NOT_FOUND: u8 = 3;

#[derive(Clone, Debug)]
struct Recorded {
    path: String,
    accept: Option<String>,
}

#[derive(Clone)]
struct SiteState {
    delay: Duration,
    mode: Arc<AtomicU8>,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

struct FakeSite {
    base_url: String,
    state: SiteState,
}

impl FakeSite {
    async fn spawn(delay: Duration) -> Self {
        let state = SiteState {
            delay,
            mode: Arc::new(AtomicU8::new(OK)),
            requests: Arc::new(Mutex::new(Vec::new())),
        };
        let app = Router::new()
            .route("/wp-json/menus/v1/menus/{id}", get(menus_v1))
            .route("/wp-json/wp-api-menus/v2/menus/{id}", get(wp_api_menus))
            .fallback(fallback)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        FakeSite {
            base_url: format!("http://{addr}"),
            state,
        }
    }

    fn set_mode(&self, mode: u8) {
        self.state.mode.store(mode, Ordering::SeqCst);
    }

    fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().unwrap().clone()
    }

    fn count(&self, path: &str) -> usize {
        self.requests().iter().filter(|r| r.path == path).count()
    }
}

/// Records the request, waits the configured delay and answers with an error if the site is
/// switched to a failure mode.
async fn common(state: &SiteState, uri: &Uri, headers: &HeaderMap) -> Option<Response> {
    state.requests.lock().unwrap().push(Recorded {
        path: uri.path().to_owned(),
        accept: headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
    });
    tokio::time::sleep(state.delay).await;
    match state.mode.load(Ordering::SeqCst) {
        SERVER_ERROR => {
            Some((StatusCode::INTERNAL_SERVER_ERROR, "<h1>Fatal error</h1>").into_response())
        }
        BAD_JSON => Some(
            (
                [(header::CONTENT_TYPE, "application/json")],
                "{\"items\": [ {\"ID\": 1,",
            )
                .into_response(),
        ),
        NOT_FOUND => Some(wp_not_found()),
        _ => None,
    }
}

fn wp_not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(json!({
            "code": "not_found",
            "message": "No menu has been found with this id or slug: `9`.",
            "data": { "status": 404 }
        })),
    )
        .into_response()
}

async fn menus_v1(
    State(state): State<SiteState>,
    Path(id): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if let Some(failure) = common(&state, &uri, &headers).await {
        return failure;
    }
    match id.as_str() {
        "2" => axum::Json(menus_v1_header()).into_response(),
        "3" => axum::Json(menus_v1_footer()).into_response(),
        _ => wp_not_found(),
    }
}

async fn wp_api_menus(
    State(state): State<SiteState>,
    Path(id): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if let Some(failure) = common(&state, &uri, &headers).await {
        return failure;
    }
    match id.as_str() {
        "2" => axum::Json(wp_api_menus_header()).into_response(),
        "3" => axum::Json(wp_api_menus_footer()).into_response(),
        // The plugin answers an unknown id with `[]` and 200.
        _ => axum::Json(json!([])).into_response(),
    }
}

async fn fallback(State(state): State<SiteState>, uri: Uri, headers: HeaderMap) -> Response {
    let _ = common(&state, &uri, &headers).await;
    StatusCode::NOT_FOUND.into_response()
}

/// Menu 2 as plugin wp-rest-api-v2-menus serves it: nested `child_items`, string parents,
/// WordPress-encoded titles, and all four hidden ids (20 with a child).
fn menus_v1_header() -> Value {
    json!({
        "term_id": 2, "name": "Hauptmenü", "slug": "hauptmenue", "term_group": 0,
        "term_taxonomy_id": 2, "taxonomy": "nav_menu", "description": "", "parent": 0,
        "count": 8, "filter": "raw",
        "items": [
            { "ID": 10, "menu_order": 1, "menu_item_parent": "0", "db_id": 10,
              "title": "Start", "url": "https://www.example.de/", "object_id": "5",
              "object": "page", "type": "post_type", "type_label": "Seite",
              "post_type": "nav_menu_item", "post_status": "publish", "slug": "start" },
            { "ID": 20, "menu_order": 2, "menu_item_parent": "0", "title": "Intern",
              "url": "https://www.example.de/intern/", "object": "page", "type": "post_type",
              "child_items": [
                  { "ID": 21, "menu_order": 3, "menu_item_parent": "20", "title": "Geheim",
                    "url": "https://www.example.de/intern/geheim/" }
              ] },
            { "ID": 30, "menu_order": 4, "menu_item_parent": "0",
              "title": "Produkte &amp; Aktionen", "url": "https://www.example.de/produkte/",
              "child_items": [
                  { "ID": 32, "menu_order": 6, "menu_item_parent": "30",
                    "title": "Herbst &#8211; Winter", "url": "/aktionen/herbst-winter/" },
                  { "ID": 31, "menu_order": 5, "menu_item_parent": "30",
                    "title": "Neuheiten", "url": "https://www.example.de/neu/" },
                  { "ID": 214, "menu_order": 7, "menu_item_parent": "30",
                    "title": "Versteckt", "url": "https://www.example.de/versteckt/" }
              ] },
            { "ID": 213, "menu_order": 8, "menu_item_parent": "0", "title": "Anmelden",
              "url": "https://www.example.de/login/" },
            { "ID": 50695, "menu_order": 9, "menu_item_parent": "0", "title": "Shop",
              "url": "https://shop.example.de/" }
        ]
    })
}

fn menus_v1_footer() -> Value {
    json!({
        "term_id": 3, "name": "Footer", "slug": "footer", "taxonomy": "nav_menu", "count": 2,
        "items": [
            { "ID": 302, "menu_order": 2, "menu_item_parent": "0", "title": "Datenschutz",
              "url": "https://www.example.de/datenschutz/" },
            { "ID": 301, "menu_order": 1, "menu_item_parent": "0", "title": "Impressum",
              "url": "https://www.example.de/impressum/" }
        ]
    })
}

/// Menu 2 as plugin wp-api-menus serves it: lowercase `id`, int `parent`, `children`.
fn wp_api_menus_header() -> Value {
    json!({
        "ID": 2, "name": "Hauptmenü", "slug": "hauptmenue", "description": "", "count": 4,
        "items": [
            { "id": 10, "order": 1, "parent": 0, "title": "Start",
              "url": "https://www.example.de/", "object_slug": "start", "type": "post_type" },
            { "id": 20, "order": 2, "parent": 0, "title": "Intern",
              "url": "https://www.example.de/intern/",
              "children": [ { "id": 21, "order": 3, "parent": 20, "title": "Geheim",
                              "url": "https://www.example.de/intern/geheim/" } ] },
            { "id": 30, "order": 4, "parent": 0, "title": "Produkte &amp; Aktionen",
              "url": "https://www.example.de/produkte/",
              "children": [ { "id": 31, "order": 5, "parent": 30, "title": "Neuheiten",
                              "url": "https://www.example.de/neu/" } ] }
        ],
        "meta": { "links": {
            "collection": "https://www.example.de/wp-json/wp-api-menus/v2/menus/",
            "self": "https://www.example.de/wp-json/wp-api-menus/v2/menus/2"
        } }
    })
}

fn wp_api_menus_footer() -> Value {
    json!({
        "ID": 3, "name": "Footer", "slug": "footer", "count": 1,
        "items": [ { "id": 301, "order": 1, "parent": 0, "title": "Impressum",
                     "url": "https://www.example.de/impressum/" } ],
        "meta": { "links": {} }
    })
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn service(base_url: Option<&str>, api: MenuApi, timeout: Duration, ttl: Duration) -> MenuService {
    MenuService::new(
        ContentSiteConfig {
            base_url: base_url.map(str::to_owned),
            api,
            timeout,
            ttl,
            ..ContentSiteConfig::default()
        },
        reqwest::Client::new(),
    )
}

fn default_service(base_url: &str, api: MenuApi) -> MenuService {
    service(
        Some(base_url),
        api,
        Duration::from_millis(1500),
        Duration::from_secs(300),
    )
}

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

/// Waits (up to 5 s) until `condition` holds.
async fn eventually(what: &str, condition: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A port on 127.0.0.1 on which nothing listens.
fn closed_port_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}")
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn refresh_loads_header_without_hidden_items_and_footer() {
    let site = FakeSite::spawn(Duration::ZERO).await;
    // A trailing slash on the base URL must not double the slash in the path.
    let menus = default_service(&format!("{}/", site.base_url), MenuApi::MenusV1);

    menus.refresh().await;

    assert_eq!(
        menus.header_menu(),
        Some(vec![
            item(10, "Start", "https://www.example.de/", 1, vec![]),
            item(
                30,
                "Produkte & Aktionen",
                "https://www.example.de/produkte/",
                4,
                vec![
                    item(31, "Neuheiten", "https://www.example.de/neu/", 5, vec![]),
                    item(32, "Herbst – Winter", "/aktionen/herbst-winter/", 6, vec![]),
                ]
            ),
        ])
    );
    assert_eq!(
        menus.footer_menu(),
        Some(vec![
            item(
                301,
                "Impressum",
                "https://www.example.de/impressum/",
                1,
                vec![]
            ),
            item(
                302,
                "Datenschutz",
                "https://www.example.de/datenschutz/",
                2,
                vec![]
            ),
        ])
    );

    let requests = site.requests();
    let mut paths: Vec<_> = requests.iter().map(|r| r.path.as_str()).collect();
    paths.sort();
    assert_eq!(
        paths,
        ["/wp-json/menus/v1/menus/2", "/wp-json/menus/v1/menus/3"],
        "one request per menu; fresh cache answers the page views"
    );
    assert!(
        requests
            .iter()
            .all(|r| r.accept.as_deref() == Some("application/json")),
        "{requests:?}"
    );
}

#[tokio::test]
async fn slow_site_never_blocks_the_page_and_times_out() {
    let site = FakeSite::spawn(Duration::from_secs(5)).await;
    let menus = service(
        Some(&site.base_url),
        MenuApi::MenusV1,
        Duration::from_millis(300),
        Duration::from_secs(300),
    );

    let started = Instant::now();
    let header = menus.header_menu();
    let footer = menus.footer_menu();
    let elapsed = started.elapsed();
    assert_eq!(header, None);
    assert_eq!(footer, None);
    assert!(
        elapsed < Duration::from_millis(50),
        "header_menu() waited {elapsed:?}"
    );

    let started = Instant::now();
    menus.refresh().await;
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(250) && elapsed < Duration::from_secs(3),
        "refresh() took {elapsed:?}, expected about the 300 ms timeout"
    );
    assert_eq!(menus.header_menu(), None);
    assert_eq!(menus.footer_menu(), None);
}

#[tokio::test]
async fn site_down_gives_no_menu_and_no_panic() {
    let menus = default_service(&closed_port_url(), MenuApi::MenusV1);

    assert_eq!(menus.header_menu(), None);
    menus.refresh().await;
    assert_eq!(menus.header_menu(), None);
    assert_eq!(menus.footer_menu(), None);
}

#[tokio::test]
async fn failures_keep_the_cached_menu() {
    let site = FakeSite::spawn(Duration::ZERO).await;
    // ttl zero: every page view finds the entry stale.
    let menus = service(
        Some(&site.base_url),
        MenuApi::MenusV1,
        Duration::from_millis(1500),
        Duration::ZERO,
    );
    menus.refresh().await;
    let header = menus.header_menu().expect("header after first fetch");
    let footer = menus.footer_menu().expect("footer after first fetch");
    assert_eq!(ids(&header), vec![10, 30]);

    for mode in [SERVER_ERROR, BAD_JSON, NOT_FOUND] {
        site.set_mode(mode);
        menus.refresh().await;
        assert_eq!(menus.header_menu().as_ref(), Some(&header), "mode {mode}");
        assert_eq!(menus.footer_menu().as_ref(), Some(&footer), "mode {mode}");
    }

    // After a failure, page views do not hammer the site: the back-off holds retries.
    let before = site.requests().len();
    for _ in 0..20 {
        assert_eq!(menus.header_menu().as_ref(), Some(&header));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        site.requests().len(),
        before,
        "no retry within the back-off"
    );

    // Once the site answers again, an explicit refresh replaces the cache.
    site.set_mode(OK);
    menus.refresh().await;
    assert_eq!(menus.header_menu().as_ref(), Some(&header));
}

#[tokio::test]
async fn wp_api_menus_plugin() {
    let site = FakeSite::spawn(Duration::ZERO).await;
    let menus = default_service(&site.base_url, MenuApi::WpApiMenus);

    menus.refresh().await;

    assert_eq!(
        menus.header_menu(),
        Some(vec![
            item(10, "Start", "https://www.example.de/", 1, vec![]),
            item(
                30,
                "Produkte & Aktionen",
                "https://www.example.de/produkte/",
                4,
                vec![item(
                    31,
                    "Neuheiten",
                    "https://www.example.de/neu/",
                    5,
                    vec![]
                )]
            ),
        ])
    );
    assert_eq!(
        menus.footer_menu(),
        Some(vec![item(
            301,
            "Impressum",
            "https://www.example.de/impressum/",
            1,
            vec![]
        )])
    );
    assert_eq!(site.count("/wp-json/wp-api-menus/v2/menus/2"), 1);
    assert_eq!(site.count("/wp-json/wp-api-menus/v2/menus/3"), 1);
    assert_eq!(site.count("/wp-json/menus/v1/menus/2"), 0);
}

#[tokio::test]
async fn without_base_url_no_menu_and_no_request() {
    // Every request of this client would go through the fake site as its HTTP proxy, so the
    // request log shows any request the service makes, whatever host it targets.
    let site = FakeSite::spawn(Duration::ZERO).await;
    let client = reqwest::Client::builder()
        .proxy(reqwest::Proxy::all(&site.base_url).unwrap())
        .build()
        .unwrap();
    let menus = MenuService::new(
        ContentSiteConfig {
            base_url: None,
            ..ContentSiteConfig::default()
        },
        client.clone(),
    );

    assert_eq!(menus.header_menu(), None);
    assert_eq!(menus.footer_menu(), None);
    menus.refresh().await;
    assert_eq!(menus.header_menu(), None);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(site.requests().is_empty(), "{:?}", site.requests());

    // The proxy trap works: a request of the same client is seen.
    let _ = client.get("http://content.invalid/probe").send().await;
    assert_eq!(site.count("/probe"), 1);
}

#[tokio::test]
async fn first_page_view_starts_one_background_fetch() {
    let site = FakeSite::spawn(Duration::from_millis(200)).await;
    let menus = default_service(&site.base_url, MenuApi::MenusV1);

    // Many concurrent page views before the first answer: all get None at once, one fetch.
    let views: Vec<_> = (0..20)
        .map(|_| {
            let menus = menus.clone();
            tokio::spawn(async move { menus.header_menu() })
        })
        .collect();
    for view in views {
        assert_eq!(view.await.unwrap(), None);
    }

    eventually("header menu cached", || menus.header_menu().is_some()).await;
    assert_eq!(ids(&menus.header_menu().unwrap()), vec![10, 30]);
    assert_eq!(site.count("/wp-json/menus/v1/menus/2"), 1, "single flight");
    assert_eq!(
        site.count("/wp-json/menus/v1/menus/3"),
        0,
        "footer not asked for"
    );
}

#[tokio::test]
async fn stale_menu_is_served_while_refreshed_in_background() {
    let site = FakeSite::spawn(Duration::ZERO).await;
    let menus = service(
        Some(&site.base_url),
        MenuApi::MenusV1,
        Duration::from_millis(1500),
        Duration::ZERO,
    );
    menus.refresh().await;
    assert_eq!(site.count("/wp-json/menus/v1/menus/3"), 1);

    assert!(menus.footer_menu().is_some(), "stale menu still served");
    eventually("background refetch", || {
        site.count("/wp-json/menus/v1/menus/3") == 2
    })
    .await;
}

#[tokio::test]
async fn after_the_back_off_a_page_view_fetches_again() {
    let site = FakeSite::spawn(Duration::ZERO).await;
    let menus = MenuService::new(
        ContentSiteConfig {
            base_url: Some(site.base_url.clone()),
            ttl: Duration::ZERO,
            retry_backoff: Duration::from_millis(300),
            ..ContentSiteConfig::default()
        },
        reqwest::Client::new(),
    );
    site.set_mode(SERVER_ERROR);
    menus.refresh().await;
    assert_eq!(menus.header_menu(), None);
    let after_failure = site.count("/wp-json/menus/v1/menus/2");
    assert_eq!(menus.header_menu(), None);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        site.count("/wp-json/menus/v1/menus/2"),
        after_failure,
        "no fetch within the back-off"
    );

    site.set_mode(OK);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(menus.header_menu(), None, "the page does not wait");
    eventually("header menu after the back-off", || {
        menus.header_menu().is_some()
    })
    .await;
    assert_eq!(ids(&menus.header_menu().unwrap()), vec![10, 30]);
}
