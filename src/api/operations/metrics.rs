//! `GET /metrics` (issue 25): served only on the separate listener of `AP_METRICS_ADDR`, never
//! on the public address, so it is not part of the REST API or its description.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::PrometheusHandle;

use crate::metrics::{self, Gauges};
use crate::state::AppState;

#[derive(Clone)]
struct Scrape {
    state: AppState,
    handle: &'static PrometheusHandle,
}

pub fn router(state: AppState, handle: &'static PrometheusHandle) -> Router {
    Router::new()
        .route("/metrics", get(page))
        .with_state(Scrape { state, handle })
}

/// The gauges read now (the queues from the shared database), then every metric.
async fn page(State(scrape): State<Scrape>) -> Response {
    let state = &scrape.state;
    let queues = match crate::services::operations::queues::queues(&state.db).await {
        Ok(queues) => Some(metrics::QueueGauges {
            mails_open: queues.mails_open,
            brevo_retries: queues.brevo_retries,
            previews_waiting: queues.previews_waiting,
        }),
        // The scrape still answers: the database may be what is wrong.
        Err(err) => {
            tracing::warn!(error = %err, "queues for the metrics not read");
            None
        }
    };
    let pool = state.db.pool_state();
    let gauges = Gauges {
        pool_max: pool.max,
        pool_open: pool.open,
        pool_idle: pool.idle,
        queues,
        statistics_queued: state.statistics.queued(),
        statistics_dropped: state.statistics.dropped(),
    };
    let text = metrics::render(scrape.handle, &gauges);
    ([(header::CONTENT_TYPE, metrics::CONTENT_TYPE)], text).into_response()
}
