//! `/metrics` (issue 25): with `AP_METRICS_ADDR` a separate listener answers in Prometheus's
//! text format, Prometheus's own checker (`promtool check metrics`) accepts it, and the
//! counters move by what known requests did. One test: the recorder is the process's, and a
//! second test running beside it would move the same counters.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::*;

const ADMIN: &str = "GS-Aktionsportal-Admin";

/// The value of the series `name` whose labels include `labels` (0 when there is none).
fn value(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let (series, number) = line.rsplit_once(' ')?;
            let (series_name, series_labels) = match series.split_once('{') {
                Some((n, rest)) => (n, rest.trim_end_matches('}')),
                None => (series, ""),
            };
            let matches = series_name == name
                && labels.iter().all(|(k, v)| {
                    series_labels
                        .split(',')
                        .any(|l| l == format!("{k}=\"{v}\""))
                });
            matches.then(|| number.parse::<f64>().unwrap())
        })
        .sum()
}

/// Every gauge `/metrics` exports.
const GAUGES: [&str; 8] = [
    "aktionsportal_db_pool_size",
    "aktionsportal_db_pool_connections",
    "aktionsportal_db_pool_in_use",
    "aktionsportal_mail_job_items_open",
    "aktionsportal_brevo_retries_waiting",
    "aktionsportal_previews_waiting",
    "aktionsportal_statistics_events_queued",
    "aktionsportal_statistics_events_dropped",
];

/// The value of the one series of the label-less gauge `name`; fails when it is not there
/// (where [`value`] would read 0).
fn gauge(text: &str, name: &str) -> f64 {
    let values: Vec<f64> = text
        .lines()
        .filter_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .map(|number| number.parse().unwrap())
        .collect();
    assert_eq!(values.len(), 1, "one series {name}:\n{text}");
    values[0]
}

/// A running mail job with one item claimed and not sent yet.
async fn open_one_mail_item(app: &TestApp) {
    let now = chrono::Utc::now();
    let slot = now + chrono::Duration::hours(1);
    aktionsportal::db_run!(&app.test_db.db, pool => {
        let job: i64 = sqlx::query_scalar(
            "insert into mail_jobs (kind, status, total, started_by, created_at, updated_at) \
             values ('double_opt_in', 'running', 1, 'test', $1, $1) returning id",
        )
        .bind(now)
        .fetch_one(pool)
        .await
        .unwrap();
        sqlx::query(
            "insert into mail_job_items (job_id, contact_id, state, attempts, created_at, \
             updated_at) values ($1, 4711, 'sending', 1, $2, $3)",
        )
        .bind(job)
        .bind(now)
        .bind(slot)
        .execute(pool)
        .await
        .unwrap();
    });
}

async fn scrape(app: &TestApp) -> String {
    let addr = app.metrics_addr.expect("metrics on");
    let response = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    response.text().await.unwrap()
}

fn promtool_accepts(text: &str) {
    let mut child = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("promtool (Debian package prometheus)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "promtool: {}{}\n{text}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test]
async fn metrics_are_valid_and_count_what_happened() {
    let brevo = fake_brevo::FakeBrevo::start().await;
    let (url, key) = (brevo.base_url.clone(), brevo.api_key().to_string());
    let app = spawn_app_with(move |config| {
        config.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
        config.brevo_api_key = Some(key);
        config.brevo_base_url = url;
    })
    .await;
    // Not on the public address.
    assert_eq!(app.get("/metrics").await.status(), 404);
    let admin = app.session_with_roles(&[ADMIN]).await;
    let before = scrape(&app).await;
    promtool_accepts(&before);

    // Requests by route template.
    for _ in 0..3 {
        assert_eq!(app.get("/healthz").await.status(), 200);
    }
    // An upload, a refused upload, and the file sent once.
    let pdf = big_pdf(70_000);
    let (status, stored) = app.upload(&admin, "Flyer.pdf", &pdf).await;
    assert_eq!(status, 200, "{stored}");
    let (status, _) = app.upload(&admin, "Virus.exe", b"MZ").await;
    assert_eq!(status, 422, "a type that is not allowed");
    let path = stored["path"].as_str().unwrap().to_owned();
    let body = app.get_as(&admin, &path).await.bytes().await.unwrap();
    assert_eq!(body.len(), pdf.len());
    // Brevo calls: a provider with folders of its own.
    let brevo_requests = brevo.requests().len();
    app.create_provider(&admin, "Glasfaser Süd", "GS-Aktionsportal-BU-Glasfaser")
        .await;
    let brevo_calls = brevo.requests().len() - brevo_requests;
    assert!(brevo_calls > 0);
    // Six wrong passwords for one account: the sixth is refused by the throttle.
    for _ in 0..6 {
        app.client
            .post(app.url("/api/auth/login"))
            .header("origin", format!("http://{}", app.addr))
            .form(&[("login", "erika"), ("password", "falsch-falsch")])
            .send()
            .await
            .unwrap();
    }

    // A cross-site write is refused before any handler, and still counted.
    let refused = app
        .client
        .post(app.url("/api/tags"))
        .header("cookie", format!("ap_session={admin}"))
        .header("origin", "https://fremd.example")
        .json(&serde_json::json!({"name": "Fremd", "icon": "bi bi-star"}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403);

    // The body's bytes are counted when it ends, which the client may see a moment earlier.
    let mut after = scrape(&app).await;
    for _ in 0..50 {
        let sent = value(
            &after,
            "aktionsportal_delivered_bytes_total",
            &[("kind", "file")],
        ) - value(
            &before,
            "aktionsportal_delivered_bytes_total",
            &[("kind", "file")],
        );
        if sent >= pdf.len() as f64 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        after = scrape(&app).await;
    }
    promtool_accepts(&after);
    let moved = |name: &str, labels: &[(&str, &str)]| {
        value(&after, name, labels) - value(&before, name, labels)
    };

    let health = [("route", "/healthz"), ("method", "GET"), ("status", "200")];
    assert_eq!(moved("aktionsportal_http_requests_total", &health), 3.0);
    assert_eq!(
        moved("aktionsportal_http_request_duration_seconds_count", &health),
        3.0
    );
    let health_le_30 = [("route", "/healthz"), ("le", "30")];
    assert_eq!(
        moved(
            "aktionsportal_http_request_duration_seconds_bucket",
            &health_le_30
        ),
        3.0
    );
    let file = [
        ("route", "/files/{id}/{name}"),
        ("method", "GET"),
        ("status", "200"),
    ];
    assert_eq!(moved("aktionsportal_http_requests_total", &file), 1.0);
    assert_eq!(
        moved("aktionsportal_delivered_bytes_total", &[("kind", "file")]),
        pdf.len() as f64
    );
    assert_eq!(
        moved("aktionsportal_uploads_total", &[("outcome", "stored")]),
        1.0
    );
    assert_eq!(
        moved("aktionsportal_uploads_total", &[("outcome", "refused")]),
        1.0
    );
    assert_eq!(
        moved("aktionsportal_upload_bytes_total", &[]),
        pdf.len() as f64
    );
    assert_eq!(
        moved("aktionsportal_brevo_calls_total", &[("outcome", "ok")]),
        brevo_calls as f64
    );
    assert_eq!(moved("aktionsportal_login_throttled_total", &[]), 1.0);
    let cross_site = [
        ("route", "/api/tags"),
        ("method", "POST"),
        ("status", "403"),
    ];
    assert_eq!(moved("aktionsportal_http_requests_total", &cross_site), 1.0);
    let login = [
        ("route", "/api/auth/login"),
        ("method", "POST"),
        ("status", "303"),
    ];
    assert_eq!(moved("aktionsportal_http_requests_total", &login), 6.0);

    // Gauges describe the state now: each is exported (a missing series would read as 0).
    for name in GAUGES {
        assert!(
            after.contains(&format!("# TYPE {name} gauge")),
            "{name} is exported:\n{after}"
        );
    }
    assert!(gauge(&after, "aktionsportal_db_pool_size") >= 1.0);
    assert!(gauge(&after, "aktionsportal_db_pool_in_use") >= 0.0);
    assert_eq!(gauge(&after, "aktionsportal_brevo_retries_waiting"), 0.0);
    assert_eq!(gauge(&after, "aktionsportal_mail_job_items_open"), 0.0);
    assert_eq!(
        gauge(&after, "aktionsportal_statistics_events_dropped"),
        0.0
    );
    // One mail of a running mail job still open moves its gauge to 1. The item is claimed
    // (`sending`) with a slot an hour ahead, so the mail worker neither sends it nor takes it
    // for a dead worker's while the test reads.
    open_one_mail_item(&app).await;
    let moved_gauge = scrape(&app).await;
    promtool_accepts(&moved_gauge);
    assert_eq!(
        gauge(&moved_gauge, "aktionsportal_mail_job_items_open"),
        1.0
    );
    assert!(after.contains("# TYPE aktionsportal_http_request_duration_seconds histogram"));
    // The path itself is never a label: one series per template.
    assert!(!after.contains(&path), "{path}");
}
