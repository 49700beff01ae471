//! Faults on purpose (issue 13): a chaos proxy between the portal and PostgreSQL, the fake
//! Brevo, SMTP, the planning system and the content site, cut or hung while the portal runs.
//! The database gone gives a German 503 and the portal recovers by itself; Brevo or SMTP gone
//! or hanging gives a German message within a bounded time and changes nothing; the planning
//! system gone leaves the contact editor working with a message; the content site gone never
//! delays a page.

mod common;

use std::time::{Duration, Instant};

use axum::response::IntoResponse;
use common::chaos::ChaosProxy;
use common::fake_brevo::FakeBrevo;
use common::fake_smtp::FakeSmtp;
use common::{TestApp, spawn_app_on, spawn_app_with};
use serde_json::json;

const ADMIN: &str = "GS-Aktionsportal-Admin";

#[tokio::test]
async fn the_database_gone_gives_a_german_503_and_the_portal_recovers_by_itself() {
    // Always PostgreSQL: only a database server can go away (SQLite is in the process).
    let test_db = aktionsportal::test_support::TestDb::postgres().await;
    let mut url = url::Url::parse(&test_db.url).unwrap();
    let server = format!(
        "{}:{}",
        url.host_str().unwrap(),
        url.port_or_known_default().unwrap()
    );
    let proxy = ChaosProxy::start(server.parse().unwrap()).await;
    url.set_port(Some(proxy.addr.port())).unwrap();
    let db = aktionsportal::db::Db::connect(url.as_str()).await.unwrap();
    let app = spawn_app_on(test_db, db, |_| {}).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (status, _) = app.call(&admin, "GET", "/api/contacts", None).await;
    assert_eq!(status, 200);

    for (how, breaks) in [
        ("cut", ChaosProxy::cut as fn(&ChaosProxy)),
        ("hung", ChaosProxy::hang),
    ] {
        breaks(&proxy);
        let started = Instant::now();
        let (status, answer) = app.call(&admin, "GET", "/api/contacts", None).await;
        assert_eq!(status, 503, "{how}: {answer}");
        assert_eq!(answer["code"], "database_unavailable", "{how}");
        assert_eq!(
            answer["message"],
            aktionsportal::services::error::DATABASE_UNAVAILABLE
        );
        assert!(
            started.elapsed() < Duration::from_secs(12),
            "{how}: {:?}",
            started.elapsed()
        );
        // A signed-in user's page leads to the server-down page (spec §2) rather than to the
        // login; that page answers 503 and counts down back to the portal.
        let page = app.get_as(&admin, "/admin/contacts").await;
        common::assert_redirect(&page, "/serverDown");
        let down = app.get_as(&admin, "/serverDown").await;
        assert_eq!(down.status(), 503, "{how}");
        let text = down.text().await.unwrap();
        assert!(text.contains("Server nicht erreichbar"), "{how}");
        assert!(
            text.contains("content=\"10;url=/\""),
            "{how}: the countdown returns to /"
        );
        // A write is refused the same way and leaves nothing behind.
        let (status, _) = app
            .call(
                &admin,
                "POST",
                "/api/contacts",
                Some(json!({
                    "customerNumber": 100_001, "companyName": "Ausfall GmbH",
                    "email": "ausfall@example.de", "salutation": 2,
                    "firstname": "Anton", "lastname": "Ausfall", "listsIds": [],
                })),
            )
            .await;
        assert_eq!(status, 503, "{how}");

        // Back: the next requests work without a restart.
        proxy.restore();
        let back = Instant::now();
        loop {
            let (status, _) = app.call(&admin, "GET", "/api/contacts", None).await;
            if status == 200 {
                break;
            }
            assert!(
                back.elapsed() < Duration::from_secs(15),
                "{how}: not recovered: {status}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        assert!(
            aktionsportal::db::contacts::find_contact_by_email(
                &app.test_db.db,
                "ausfall@example.de"
            )
            .await
            .unwrap()
            .is_none()
        );
    }
}

#[tokio::test]
async fn brevo_gone_or_hanging_gives_a_message_in_bounded_time_and_changes_nothing() {
    let brevo = FakeBrevo::start().await;
    let target: std::net::SocketAddr = brevo
        .base_url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let proxy = ChaosProxy::start(target).await;
    let base = brevo
        .base_url
        .replace(&target.to_string(), &proxy.addr.to_string());
    let key = brevo.api_key().to_string();
    let app = spawn_app_with(move |config| {
        config.brevo_api_key = Some(key);
        config.brevo_base_url = base;
    })
    .await;
    let admin = app.session_with_roles(&[ADMIN]).await;

    for (how, breaks) in [
        ("cut", ChaosProxy::cut as fn(&ChaosProxy)),
        ("hung", ChaosProxy::hang),
    ] {
        breaks(&proxy);
        let started = Instant::now();
        let (status, answer) = app
            .call(
                &admin,
                "POST",
                "/api/contacts",
                Some(json!({
                    "customerNumber": 100_001, "companyName": "Ausfall GmbH",
                    "email": format!("{how}@example.de"), "salutation": 2,
                    "firstname": "Anton", "lastname": "Ausfall", "listsIds": [],
                })),
            )
            .await;
        let took = started.elapsed();
        assert_eq!(status, 502, "{how}: {answer}");
        assert!(
            answer["message"].as_str().unwrap().contains("Brevo"),
            "{answer}"
        );
        assert!(
            took < Duration::from_secs(15),
            "{how}: one action waited {took:?}"
        );
        proxy.restore();
        assert!(
            aktionsportal::db::contacts::find_contact_by_email(
                &app.test_db.db,
                &format!("{how}@example.de")
            )
            .await
            .unwrap()
            .is_none()
        );
        assert!(
            brevo
                .contact_by_email(&format!("{how}@example.de"))
                .is_none()
        );
    }
    // Up again: the same action goes through.
    let (status, answer) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(json!({
                "customerNumber": 100_001, "companyName": "Ausfall GmbH",
                "email": "wieder@example.de", "salutation": 2,
                "firstname": "Anton", "lastname": "Ausfall", "listsIds": [],
            })),
        )
        .await;
    assert_eq!(status, 201, "{answer}");
}

#[tokio::test]
async fn the_content_site_gone_or_hanging_never_delays_a_page() {
    // Something that accepts connections and never answers: the proxy, hung, in front of a
    // port nobody serves.
    let nobody = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy = ChaosProxy::start(nobody.local_addr().unwrap()).await;
    proxy.hang();
    let site = format!("http://{}", proxy.addr);
    let app = spawn_app_with(move |config| {
        config.content_site_url = Some(site);
    })
    .await;
    for _ in 0..3 {
        let started = Instant::now();
        let response = app.get("/login-failed").await;
        assert_eq!(response.status(), 200);
        assert!(
            started.elapsed() < Duration::from_millis(1000),
            "a page waited {:?} for the content site",
            started.elapsed()
        );
    }
    proxy.cut();
    let started = Instant::now();
    assert_eq!(app.get("/login-failed").await.status(), 200);
    assert!(started.elapsed() < Duration::from_millis(1000));
}

/// The double opt-in links stored for a contact.
async fn links_of(app: &TestApp, contact: i64) -> i64 {
    use aktionsportal::db::Db;
    let sql = "select count(*) from double_opt_in_tokens where contact_id = $1";
    match &app.test_db.db {
        Db::Sqlite(pool, _) => sqlx::query_scalar(sql).bind(contact).fetch_one(pool).await,
        Db::Postgres(pool, _) => sqlx::query_scalar(sql).bind(contact).fetch_one(pool).await,
    }
    .unwrap()
}

#[tokio::test]
async fn smtp_gone_or_hanging_gives_a_message_in_bounded_time_and_leaves_no_link() {
    let smtp = FakeSmtp::start().await;
    let proxy = ChaosProxy::start(smtp.addr).await;
    let relay = proxy.addr;
    let app = spawn_app_with(move |config| {
        config.smtp_host = Some(relay.ip().to_string());
        config.smtp_port = relay.port();
        config.smtp_security = aktionsportal::integrations::mail::SmtpSecurity::None;
        config.public_url = Some("https://portal.example.de".into());
    })
    .await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (status, anna) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(json!({
                "customerNumber": 100_001, "companyName": "Ausfall GmbH",
                "email": "anna@example.de", "salutation": 3,
                "firstname": "Anna", "lastname": "Ausfall", "listsIds": [],
            })),
        )
        .await;
    assert_eq!(status, 201, "{anna}");
    let id = anna["id"].as_i64().unwrap();

    for (how, breaks) in [
        ("cut", ChaosProxy::cut as fn(&ChaosProxy)),
        ("hung", ChaosProxy::hang),
    ] {
        breaks(&proxy);
        let started = Instant::now();
        let (status, answer) = app
            .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
            .await;
        let took = started.elapsed();
        assert_eq!(status, 502, "{how}: {answer}");
        let message = answer["message"].as_str().unwrap();
        assert!(message.contains("Mailserver"), "{how}: {message}");
        assert!(answer["code"].is_string(), "{answer}");
        assert!(
            took < Duration::from_secs(15),
            "{how}: one action waited {took:?}"
        );
        // Nothing half-done: no link that reached nobody, the contact not marked as mailed
        // (so the resend guard does not hold the admin back), nothing received.
        assert_eq!(links_of(&app, id).await, 0, "{how}");
        let stored = aktionsportal::db::contacts::get_contact(&app.test_db.db, id)
            .await
            .unwrap()
            .unwrap();
        assert!(stored.double_opt_in_sent_at.is_none(), "{how}");
        assert!(!stored.double_opt_in);
        assert!(smtp.mails().is_empty(), "{how}");
        proxy.restore();
    }

    // Up again: the same action goes through at once, with one link.
    let (status, sent) = app
        .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent["code"], "DOUBLE_OPT-IN_SENT");
    assert_eq!(smtp.mails_to("anna@example.de").len(), 1);
    assert_eq!(links_of(&app, id).await, 1);
}

/// A planning system that knows customer 400001.
async fn fake_planning() -> std::net::SocketAddr {
    async fn customer(
        axum::extract::Path(number): axum::extract::Path<i64>,
    ) -> axum::response::Response {
        if number != 400_001 {
            return axum::http::StatusCode::NOT_FOUND.into_response();
        }
        axum::Json(json!({
            "customerNumber": 400_001,
            "companyName": "Planungs GmbH",
            "contacts": [
                { "salutation": 2, "firstname": "Paul", "lastname": "Plan", "email": "paul@planung.example" },
            ],
        }))
        .into_response()
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = axum::Router::new().route("/customers/{number}", axum::routing::get(customer));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

#[tokio::test]
async fn the_planning_system_gone_or_hanging_leaves_the_editor_with_a_message_and_the_contacts() {
    let planning = fake_planning().await;
    let proxy = ChaosProxy::start(planning).await;
    let url = format!("http://{}/", proxy.addr);
    // The default timeout: what an installation without the setting gets.
    let app = spawn_app_with(move |config| config.planning_url = Some(url)).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (status, saved) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(json!({
                "customerNumber": 400_001, "companyName": "Planungs GmbH",
                "email": "petra@planung.example", "salutation": 3,
                "firstname": "Petra", "lastname": "Plan", "listsIds": [],
            })),
        )
        .await;
    assert_eq!(status, 201, "{saved}");
    let saved_emails = |group: &serde_json::Value| -> Vec<String> {
        group["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["email"].as_str().unwrap().to_string())
            .collect()
    };

    let (status, up) = app
        .call(&admin, "GET", "/api/contacts/customer-number/400001", None)
        .await;
    assert_eq!(status, 200, "{up}");
    assert_eq!(saved_emails(&up), ["petra@planung.example"]);
    assert_eq!(
        up["imports"]["contacts"][0]["email"],
        "paul@planung.example"
    );

    for (how, breaks, says) in [
        (
            "cut",
            ChaosProxy::cut as fn(&ChaosProxy),
            "nicht erreichbar",
        ),
        ("hung", ChaosProxy::hang, "nicht rechtzeitig"),
    ] {
        breaks(&proxy);
        let started = Instant::now();
        let (status, group) = app
            .call(&admin, "GET", "/api/contacts/customer-number/400001", None)
            .await;
        let took = started.elapsed();
        assert_eq!(status, 200, "{how}: {group}");
        assert!(
            group["imports"]["message"]
                .as_str()
                .is_some_and(|m| m.contains(says) && m.contains("Planungssystem")),
            "{how}: {group}"
        );
        assert_eq!(saved_emails(&group), ["petra@planung.example"], "{how}");
        assert_eq!(group["imports"]["contacts"], json!([]), "{how}");
        assert!(
            took < Duration::from_secs(15),
            "{how}: the editor waited {took:?}"
        );
        proxy.restore();
    }
    let (_, back) = app
        .call(&admin, "GET", "/api/contacts/customer-number/400001", None)
        .await;
    assert_eq!(back["imports"]["message"], serde_json::Value::Null);
}
