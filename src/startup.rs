//! Builds the application from a configuration and serves it: the router of design.md
//! (`/api`, `/assets`, `/static`, `/healthz`, Leptos SSR for everything else).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::response::Redirect;
use axum::routing::get;
use leptos::prelude::provide_context;
use tokio::net::TcpListener;
use tower::Layer;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::normalize_path::NormalizePathLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnFailure, TraceLayer};

use crate::app::data::Render;
use crate::app::{PageEnv, shell};
use crate::config::Config;
use crate::db::Db;
use crate::state::AppState;

/// Connections of the mail queue's own pool: its worker runs up to four statements at once
/// (a claim, a contact read and a link stored ahead, an outcome recorded).
const MAIL_QUEUE_CONNECTIONS: u32 = 4;

/// Opens the configured database (SQLite under the data folder unless `DATABASE_URL` is set).
pub async fn open_database(config: &Config) -> anyhow::Result<Db> {
    match &config.database_url {
        Some(url) => Db::connect(url).await,
        None => Db::open_sqlite(&config.sqlite_path()).await,
    }
}

/// Leptos answers arguments it cannot read with a 500 (`Args|…`); they are the client's
/// fault, so they get our 400.
async fn refuse_bad_arguments(response: axum::response::Response) -> axum::response::Response {
    use axum::response::IntoResponse;
    if response.status() != axum::http::StatusCode::INTERNAL_SERVER_ERROR {
        return response;
    }
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, 64 * 1024)
        .await
        .unwrap_or_default();
    if bytes.starts_with(b"Args|") || bytes.starts_with(b"Deserialization|") {
        return crate::api::error::ApiError::validation("Die Anfrage enthält ungültige Angaben.")
            .into_response();
    }
    axum::response::Response::from_parts(parts, axum::body::Body::from(bytes))
}

/// The complete router. Trailing slashes are trimmed before routing, so `/admin/downloads/`
/// and `/admin/downloads` are the same page.
pub fn router(state: AppState) -> Router {
    // Leptos spawns its rendering tasks on the global executor; a second call finds it set.
    let _ = any_spawner::Executor::init_tokio();
    let env = PageEnv::new(state.clone());
    let context = {
        let env = env.clone();
        move || provide_context(env.clone())
    };
    let app_shell = move || shell(env.clone());
    let ssr = leptos_axum::render_app_to_stream_with_context(context, app_shell);
    let render: Render = {
        let ssr = ssr.clone();
        Arc::new(move |request| ssr(request))
    };
    let login_page = {
        let ssr = ssr.clone();
        move |State(state): State<AppState>,
              client: crate::server::client::Client,
              request: Request| {
            crate::api::accounts::auth::login_page(state, client, request, ssr.clone())
        }
    };
    let logout_page = {
        let ssr = ssr.clone();
        move |State(state): State<AppState>, request: Request| {
            crate::api::accounts::auth::logout_page(state, request, ssr.clone())
        }
    };

    let assets = Router::new()
        // The build writes .br and .gz beside each asset; they go out by Accept-Encoding.
        .fallback_service(
            ServeDir::new(state.config.assets_dir.join("assets"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ));

    // Leptos server functions (forms that work without JavaScript) under /api/fn.
    let server_fns = {
        let state = state.clone();
        move |request: Request| {
            let state = state.clone();
            async move {
                let response = leptos_axum::handle_server_fns_with_context(
                    move || provide_context(state.clone()),
                    request,
                )
                .await;
                refuse_bad_arguments(axum::response::IntoResponse::into_response(response)).await
            }
        }
    };

    Router::new()
        .route("/", get(crate::app::start_redirect))
        .route("/api/fn/{*name}", axum::routing::post(server_fns))
        .route("/user", get(|| async { Redirect::to("/user/downloads") }))
        .route("/admin", get(|| async { Redirect::to("/admin/contacts") }))
        .route(crate::api::accounts::auth::LOGIN_PATH, get(login_page))
        .route(crate::api::accounts::auth::LOGOUT_PATH, get(logout_page))
        .nest("/api", crate::api::router(&state.config))
        .route("/files/{id}/{name}", get(crate::api::catalog::files::serve))
        .route(
            "/previews/{id}/{size}",
            get(crate::api::catalog::files::preview),
        )
        // Pages with data load it first (see `app::data`); every other path is rendered
        // straight away, including the 404 page.
        .merge(crate::app::data::router(render))
        .fallback(ssr)
        .layer(axum::middleware::from_fn_with_state(
            state.db.clone(),
            crate::auth::load_current_user,
        ))
        // Added after the session layer: static files and the health check need no user, so
        // they cost no session lookup.
        // Pages go out compressed (the island props repeat a page's data as JSON); files,
        // ZIPs and the prebuilt assets keep their exact length and Range support. At the
        // fastest level: the customer page's 260 KB still shrink to about a twentieth, while
        // the default levels cost more CPU per page than making it (issue 22).
        .layer(
            CompressionLayer::new()
                .quality(tower_http::CompressionLevel::Fastest)
                .compress_when(DefaultPredicate::new().and(HtmlOnly)),
        )
        .route("/healthz", get(crate::api::operations::health::healthz))
        // A mail's pictures need no session: the address is the key.
        .route(
            "/mail-bilder/{id}/{tag}",
            get(crate::api::catalog::files::mail_picture),
        )
        .route("/static/{name}", get(crate::api::static_files::serve))
        .nest_service("/assets", assets)
        .layer(axum::middleware::from_fn(crate::auth::csrf::protect))
        .layer(axum::middleware::from_fn(crate::headers::secure))
        .layer(axum::middleware::from_fn_with_state(
            crate::server::client::Identify {
                trusted: state.trusted_proxies.clone(),
                https_site: state.config.public_url_is_https(),
            },
            crate::server::client::identify,
        ))
        // 5xx answers are logged where they arise; the trace line itself is a warning.
        .layer(
            TraceLayer::new_for_http()
                .on_failure(DefaultOnFailure::new().level(tracing::Level::WARN)),
        )
        // Outermost, so that refusals of the layers inside (cross-site, limits) are counted
        // too; a router's layers run after routing, so the route template is known.
        .layer(axum::middleware::from_fn(crate::metrics::track))
        .with_state(state)
}

/// Compresses HTML pages only.
#[derive(Clone, Copy)]
struct HtmlOnly;

impl Predicate for HtmlOnly {
    fn should_compress<B: axum::body::HttpBody>(&self, response: &axum::http::Response<B>) -> bool {
        response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/html"))
    }
}

/// A running server: its address, and a handle that ends when it has shut down.
pub struct Server {
    pub addr: SocketAddr,
    /// Where `GET /metrics` answers (`AP_METRICS_ADDR`), when switched on.
    pub metrics_addr: Option<SocketAddr>,
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
    let metrics_addr = match state.config.metrics_addr {
        Some(at) => Some(serve_metrics(state.clone(), at).await?),
        None => None,
    };
    // What a crash left half-stored is settled before the first request.
    match crate::services::catalog::uploads::settle_leftovers(&state.db, &state.files).await {
        Ok(report) if report.completed + report.discarded > 0 => {
            tracing::info!(
                completed = report.completed,
                discarded = report.discarded,
                "staged files settled"
            )
        }
        Ok(_) => {}
        Err(err) => tracing::error!(error = %err, "staged files could not be settled"),
    }
    tokio::spawn(sweep_daily(state.clone()));
    tokio::spawn(crate::services::contacts::mail_queue::run_jobs(
        state.db.with_own_pool(MAIL_QUEUE_CONNECTIONS),
        state.mailer.clone(),
        state.mail_settings.clone(),
        state.mail_jobs.clone(),
    ));
    tokio::spawn(retry_marketing(state.clone()));
    tokio::spawn(queue_package_mails(state.clone()));
    state.statistics.spawn_writer(state.db.clone());
    tokio::spawn(crate::services::catalog::previews::run(
        state.db.clone(),
        state.files.clone(),
        state.previews.clone(),
    ));
    tracing::info!(mail = %state.mailer.describe(), "mail ready");
    match state.files.bucket() {
        Some(bucket) => match bucket.check().await {
            Ok(()) => tracing::info!(files = bucket.describe(), "files in a bucket"),
            // The portal still starts: pages and data work, files answer 503 until it is back.
            Err(err) => tracing::error!(
                files = bucket.describe(),
                error = %err,
                "bucket not reachable: uploads and downloads fail until it is"
            ),
        },
        None => tracing::info!(files = %state.files.root().display(), "files in a folder"),
    }
    let menus = state.menus.clone();
    tokio::spawn(async move { menus.refresh().await });
    tokio::spawn(crate::auth::cleanup::clean_up_periodically(
        state.db.clone(),
    ));
    let limits = crate::server::ConnectionLimits::from_config(&state.config);
    let app = NormalizePathLayer::trim_trailing_slash().layer(router(state));
    let task = tokio::spawn(crate::server::run(listener, app, limits, shutdown));
    Ok(Server {
        addr,
        metrics_addr,
        task,
    })
}

/// Installs the metrics recorder and serves `GET /metrics` on `addr` (`AP_METRICS_ADDR`) for as
/// long as the process runs; the bound address.
async fn serve_metrics(state: AppState, addr: SocketAddr) -> anyhow::Result<SocketAddr> {
    let handle = crate::metrics::install()?;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("AP_METRICS_ADDR: {addr} kann nicht belegt werden: {e}"))?;
    let bound = listener.local_addr()?;
    let app = crate::api::operations::metrics::router(state, handle);
    tokio::spawn(async move {
        if let Err(err) = axum::serve(listener, app).await {
            tracing::error!(error = %err, "metrics listener stopped");
        }
    });
    tracing::info!(addr = %bound, "metrics at /metrics");
    Ok(bound)
}

/// Deletes audit entries past `AP_AUDIT_DAYS` and sweeps the file store a minute after start
/// and then once a day (see `services::catalog::uploads::sweep`), then lets the preview worker look for files without previews;
/// not at once, so a start (or a test) is not raced by it.
async fn sweep_daily(state: AppState) {
    let day = std::time::Duration::from_secs(24 * 60 * 60);
    let first = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut interval = tokio::time::interval_at(first, day);
    loop {
        interval.tick().await;
        crate::services::insight::audit::expire(&state.db, state.config.audit_days).await;
        match crate::services::contacts::unsubscribe::remove_old_links(&state.db).await {
            Ok(0) => {}
            Ok(removed) => tracing::info!(removed, "old unsubscribe links removed"),
            Err(err) => tracing::error!(error = %err, "old unsubscribe links not removed"),
        }
        crate::services::insight::statistics::expire_takers(&state.db, state.config.takers_days)
            .await;
        let sweep = crate::services::catalog::uploads::sweep(&state.db, &state.files);
        let lease = chrono::Duration::hours(6);
        match crate::services::operations::jobs::exclusively(
            &state.db,
            crate::services::operations::jobs::FILE_SWEEP,
            lease,
            sweep,
        )
        .await
        {
            Ok(Some(Ok(report))) => {
                tracing::info!(?report, "file store swept");
                // The daily backfill: files of other instances or from before previews existed.
                state.previews.wake();
            }
            Ok(None) => tracing::info!("file store swept by another instance"),
            Ok(Some(Err(err))) | Err(err) => {
                tracing::error!(error = %err, "file store sweep failed")
            }
        }
    }
}

/// Runs the marketing changes that still have to reach Brevo every minute, and removes
/// expired double opt-in links.
async fn retry_marketing(state: AppState) {
    let mut interval = tokio::time::interval(std::time::Duration::from_secs(60));
    loop {
        interval.tick().await;
        match crate::services::marketing::contact_mirror::retry_all(&state.db, &state.marketing)
            .await
        {
            Ok(0) => {}
            Ok(left) => tracing::warn!(left, "marketing changes still waiting for Brevo"),
            Err(err) => tracing::error!(error = %err, "marketing retries failed"),
        }
        if let Err(err) =
            crate::services::contacts::double_opt_in::remove_expired_links(&state.db).await
        {
            tracing::error!(error = %err, "expired double opt-in links not removed");
        }
    }
}

/// Queues the package mails that are due every few seconds (the announcement of a package
/// whose start has come, the notice before an end whose day has come), and wakes the mail
/// workers when one was queued.
async fn queue_package_mails(state: AppState) {
    let mut interval = tokio::time::interval(std::time::Duration::from_secs(10));
    loop {
        interval.tick().await;
        match crate::services::catalog::announcements::queue_due(&state.db).await {
            Ok(0) => {}
            Ok(_) => state.mail_jobs.notify_one(),
            Err(err) => tracing::error!(error = %err, "announcements not queued"),
        }
        match crate::services::catalog::end_notices::queue_due(&state.db).await {
            Ok(0) => {}
            Ok(_) => state.mail_jobs.notify_one(),
            Err(err) => tracing::error!(error = %err, "notices before the end not queued"),
        }
    }
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
