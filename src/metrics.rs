//! Prometheus metrics (issue 25). The portal counts into the `metrics` facade everywhere (a
//! no-op until a recorder is installed). Like logging, this module is a leaf: it imports nothing
//! of the crate, so every layer may count into it. With `AP_METRICS_ADDR` set, the composition
//! root installs the recorder and serves `GET /metrics` (`api::operations::metrics`) on that separate
//! address, so the numbers are never reachable through the public site.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Seconds: the bounds of the request latency histogram's buckets.
const LATENCY_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

pub const REQUESTS: &str = "aktionsportal_http_requests_total";
pub const REQUEST_SECONDS: &str = "aktionsportal_http_request_duration_seconds";
pub const BYTES_SENT: &str = "aktionsportal_delivered_bytes_total";
pub const UPLOADS: &str = "aktionsportal_uploads_total";
pub const UPLOAD_BYTES: &str = "aktionsportal_upload_bytes_total";
pub const BREVO_CALLS: &str = "aktionsportal_brevo_calls_total";
pub const LOGINS_THROTTLED: &str = "aktionsportal_login_throttled_total";
pub const POOL_TIMEOUTS: &str = "aktionsportal_db_pool_timeouts_total";
pub const LISTS_TOO_SLOW: &str = "aktionsportal_lists_too_slow_total";

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process's Prometheus recorder (once; later calls get the same handle).
pub fn install() -> anyhow::Result<&'static PrometheusHandle> {
    if let Some(handle) = HANDLE.get() {
        return Ok(handle);
    }
    let recorder = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(REQUEST_SECONDS.into()), LATENCY_BUCKETS)?
        .build_recorder();
    let handle = recorder.handle();
    // Two servers of one process (tests) race here; the loser's recorder is not installed
    // and it uses the winner's handle.
    if metrics::set_global_recorder(recorder).is_ok() {
        let _ = HANDLE.set(handle);
        describe();
    }
    HANDLE
        .get()
        .ok_or_else(|| anyhow::anyhow!("Metriken: ein anderer Rekorder ist schon eingerichtet"))
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        REQUESTS,
        "HTTP requests answered, by route template, method and status."
    );
    describe_histogram!(
        REQUEST_SECONDS,
        metrics::Unit::Seconds,
        "Time to the answer's head, by route template, method and status."
    );
    describe_counter!(
        BYTES_SENT,
        metrics::Unit::Bytes,
        "Bytes sent of files (kind=file), package and selection ZIPs (kind=zip) and previews (kind=preview)."
    );
    describe_counter!(UPLOADS, "Uploaded files, by outcome (stored or refused).");
    describe_counter!(
        UPLOAD_BYTES,
        metrics::Unit::Bytes,
        "Bytes of stored uploads."
    );
    describe_counter!(
        BREVO_CALLS,
        "Calls to Brevo's API after their retries, by outcome."
    );
    describe_counter!(LOGINS_THROTTLED, "Sign-ins refused by the login throttle.");
    describe_counter!(
        POOL_TIMEOUTS,
        "Requests that found no free database connection in time."
    );
    describe_counter!(
        LISTS_TOO_SLOW,
        "Lists that took longer than AP_LIST_TIME_LIMIT_MS and answered 503."
    );
    describe_gauge!(
        "aktionsportal_db_pool_size",
        "Connections the pool holds at most."
    );
    describe_gauge!("aktionsportal_db_pool_connections", "Connections open now.");
    describe_gauge!("aktionsportal_db_pool_in_use", "Connections in use now.");
    describe_gauge!(
        "aktionsportal_mail_job_items_open",
        "Mails of running mail jobs not sent yet."
    );
    describe_gauge!(
        "aktionsportal_brevo_retries_waiting",
        "Contact changes waiting to reach Brevo."
    );
    describe_gauge!(
        "aktionsportal_previews_waiting",
        "Files whose previews are not made yet."
    );
    describe_gauge!(
        "aktionsportal_statistics_events_queued",
        "Download events waiting for this instance's writer."
    );
    describe_gauge!(
        "aktionsportal_statistics_events_dropped",
        "Download events lost since the start (the writer was behind or gave up)."
    );
}

/// Middleware: counts every answer under its route template (`/files/{id}/{name}`, never the
/// path itself, so that the series stay few) with the time to its head.
pub async fn track(request: Request, next: Next) -> Response {
    // Without `AP_METRICS_ADDR` nothing records: spare the labels' allocations.
    if HANDLE.get().is_none() {
        return next.run(request).await;
    }
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|path| path.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".to_owned());
    let method = method_label(request.method());
    let response = next.run(request).await;
    let labels = [
        ("route", route),
        ("method", method.to_owned()),
        ("status", response.status().as_u16().to_string()),
    ];
    counter!(REQUESTS, &labels).increment(1);
    histogram!(REQUEST_SECONDS, &labels).record(started.elapsed().as_secs_f64());
    response
}

/// The standard methods by name, anything else as `other` (a client picks the method).
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// What a delivery sends, for [`BYTES_SENT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    File,
    Zip,
    Preview,
}

pub fn bytes_sent(what: Sent, bytes: u64) {
    let kind = match what {
        Sent::File => "file",
        Sent::Zip => "zip",
        Sent::Preview => "preview",
    };
    counter!(BYTES_SENT, "kind" => kind).increment(bytes);
}

pub fn upload_stored(bytes: u64) {
    counter!(UPLOADS, "outcome" => "stored").increment(1);
    counter!(UPLOAD_BYTES).increment(bytes);
}

pub fn upload_refused() {
    counter!(UPLOADS, "outcome" => "refused").increment(1);
}

/// One Brevo call's outcome: `ok` or the kind of error (`crate::integrations::brevo`).
pub fn brevo_call(outcome: &'static str) {
    counter!(BREVO_CALLS, "outcome" => outcome).increment(1);
}

pub fn login_throttled() {
    counter!(LOGINS_THROTTLED).increment(1);
}

pub fn pool_timeout() {
    counter!(POOL_TIMEOUTS).increment(1);
}

pub fn list_too_slow() {
    counter!(LISTS_TOO_SLOW).increment(1);
}

/// What the gauges show, read by the scrape (`api::operations::metrics`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Gauges {
    pub pool_max: u32,
    pub pool_open: u32,
    pub pool_idle: u32,
    /// `None` when the database did not answer: the last values stay.
    pub queues: Option<QueueGauges>,
    pub statistics_queued: usize,
    pub statistics_dropped: u64,
}

/// The shared queues, as read from the database.
#[derive(Clone, Copy, Debug, Default)]
pub struct QueueGauges {
    pub mails_open: i64,
    pub brevo_retries: i64,
    pub previews_waiting: i64,
}

/// The text of `GET /metrics`: `gauges` set, then everything in Prometheus's format.
pub fn render(handle: &PrometheusHandle, gauges: &Gauges) -> String {
    gauge!("aktionsportal_db_pool_size").set(gauges.pool_max as f64);
    gauge!("aktionsportal_db_pool_connections").set(gauges.pool_open as f64);
    gauge!("aktionsportal_db_pool_in_use")
        .set(gauges.pool_open.saturating_sub(gauges.pool_idle) as f64);
    if let Some(queues) = gauges.queues {
        gauge!("aktionsportal_mail_job_items_open").set(queues.mails_open as f64);
        gauge!("aktionsportal_brevo_retries_waiting").set(queues.brevo_retries as f64);
        gauge!("aktionsportal_previews_waiting").set(queues.previews_waiting as f64);
    }
    gauge!("aktionsportal_statistics_events_queued").set(gauges.statistics_queued as f64);
    gauge!("aktionsportal_statistics_events_dropped").set(gauges.statistics_dropped as f64);
    handle.run_upkeep();
    handle.render()
}

/// The Prometheus text format's content type.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_standard_methods_get_their_own_label() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::from_bytes(b"BREW").unwrap()), "other");
    }
}
