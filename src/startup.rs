//! Builds the application from a configuration and serves it: the router of design.md
//! (`/api`, `/assets`, `/static`, `/healthz`, Leptos SSR for everything else).

use std::net::SocketAddr;
use std::ops::Deref;
use std::sync::Arc;

use axum::Router;
use axum::extract::{FromRef, Request, State};
use axum::http::{HeaderValue, header};
use axum::response::Redirect;
use axum::routing::get;
use leptos::config::LeptosOptions;
use leptos::prelude::provide_context;
use leptos_axum::{LeptosRoutes, generate_route_list_with_exclusions_and_ssg_and_context};
use tokio::net::TcpListener;
use tower::Layer;
use tower_http::normalize_path::NormalizePathLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnFailure, TraceLayer};

use crate::app::{App, shell};
use crate::assets::EntryAssets;
use crate::auth::oidc::{Oidc, OidcSettings};
use crate::auth::throttle::LoginThrottle;
use crate::config::Config;
use crate::db::Db;
use crate::integrations::brevo::{BrevoClient, BrevoConfig};
use crate::integrations::content_site::{ContentSiteConfig, MenuService};
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
    pub leptos_options: LeptosOptions,
    pub http: reqwest::Client,
    pub throttle: LoginThrottle,
    /// The OpenID provider; `None` when local accounts sign in.
    pub oidc: Option<Oidc>,
    /// Brevo, or local mode without an API key.
    pub marketing: Marketing,
    /// Uploaded files under the data folder.
    pub files: FileStore,
}

impl Deref for AppState {
    type Target = AppInner;
    fn deref(&self) -> &AppInner {
        &self.0
    }
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}

/// Leptos' own settings; the file is embedded so the binary runs from any folder.
fn leptos_options(config: &Config) -> anyhow::Result<LeptosOptions> {
    let mut options = leptos::config::get_config_from_str(include_str!("../Leptos.toml"))
        .map_err(|e| anyhow::anyhow!("Leptos.toml: {e}"))?;
    options.site_addr = config.addr;
    Ok(options)
}

/// Opens the configured database (SQLite under the data folder unless `DATABASE_URL` is set).
pub async fn open_database(config: &Config) -> anyhow::Result<Db> {
    match &config.database_url {
        Some(url) => Db::connect(url).await,
        None => Db::open_sqlite(&config.sqlite_path()).await,
    }
}

impl AppState {
    /// Whether the browser talks to us over https (directly or through a proxy), so that
    /// cookies are marked Secure.
    pub fn uses_https(&self, headers: &axum::http::HeaderMap) -> bool {
        self.config
            .public_url
            .as_deref()
            .is_some_and(|url| url.starts_with("https://"))
            || headers
                .get("x-forwarded-proto")
                .is_some_and(|proto| proto.as_bytes().eq_ignore_ascii_case(b"https"))
    }

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
            },
            http.clone(),
        );
        let assets = EntryAssets::load(&config.assets_dir);
        let leptos_options = leptos_options(&config)?;
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
        let files = FileStore::new(config.files_dir())?;
        Ok(AppState(Arc::new(AppInner {
            config,
            db,
            menus,
            assets,
            leptos_options,
            http,
            throttle: LoginThrottle::default(),
            oidc,
            marketing,
            files,
        })))
    }
}

/// The complete router. Trailing slashes are trimmed before routing, so `/admin/downloads/`
/// and `/admin/downloads` are the same page.
pub fn router(state: AppState) -> Router {
    let context_state = state.clone();
    let context = move || provide_context(context_state.clone());
    let shell_state = state.clone();
    let app_shell = move || shell(shell_state.clone());
    // The route list is collected by rendering the app once, which needs the same context.
    // The login endpoint is routed below: it renders the local form or goes to the provider.
    let (routes, _) = generate_route_list_with_exclusions_and_ssg_and_context(
        App,
        Some(vec![crate::api::auth::LOGIN_PATH.to_string()]),
        context.clone(),
    );
    let ssr = leptos_axum::render_app_to_stream_with_context(context.clone(), app_shell.clone());
    let login_page = {
        let ssr = ssr.clone();
        move |State(state): State<AppState>, request: Request| {
            crate::api::auth::login_page(state, request, ssr.clone())
        }
    };

    let assets = Router::new()
        .fallback_service(ServeDir::new(state.config.assets_dir.join("assets")))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ));

    Router::new()
        .route("/", get(|| async { Redirect::to("/user/downloads") }))
        .route("/user", get(|| async { Redirect::to("/user/downloads") }))
        .route("/admin", get(|| async { Redirect::to("/admin/contacts") }))
        .route(crate::api::auth::LOGIN_PATH, get(login_page))
        .nest("/api", crate::api::router())
        .route("/files/{id}/{name}", get(crate::api::files::serve))
        .leptos_routes_with_context(&state, routes, context.clone(), app_shell.clone())
        .fallback(ssr)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::auth::load_current_user,
        ))
        // Added after the session layer: static files and the health check need no user, so
        // they cost no session lookup.
        .route("/healthz", get(crate::api::health::healthz))
        .route("/static/{name}", get(crate::api::static_files::serve))
        .nest_service("/assets", assets)
        .layer(axum::middleware::from_fn(crate::auth::csrf::protect))
        // 5xx answers are logged where they arise; the trace line itself is a warning.
        .layer(
            TraceLayer::new_for_http()
                .on_failure(DefaultOnFailure::new().level(tracing::Level::WARN)),
        )
        .with_state(state)
}

/// A running server: its address, and a handle that ends when it has shut down.
pub struct Server {
    pub addr: SocketAddr,
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Binds the configured address (port 0 picks a free port) and serves until `shutdown`
/// completes; requests in flight are finished first.
pub async fn serve(
    state: AppState,
    addr: SocketAddr,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<Server> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("Adresse {addr} kann nicht belegt werden: {e}"))?;
    let addr = listener.local_addr()?;
    let menus = state.menus.clone();
    tokio::spawn(async move { menus.refresh().await });
    tokio::spawn(crate::auth::session::clean_up_periodically(
        state.db.clone(),
    ));
    let app = NormalizePathLayer::trim_trailing_slash().layer(router(state));
    let service =
        axum::ServiceExt::<Request>::into_make_service_with_connect_info::<SocketAddr>(app);
    let task = tokio::spawn(async move {
        axum::serve(listener, service)
            .with_graceful_shutdown(shutdown)
            .await
    });
    Ok(Server { addr, task })
}

/// Completes on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    tracing::info!("shutting down: finishing requests in flight");
}
