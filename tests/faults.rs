//! Faults on purpose (issue 13): a chaos proxy between the portal and PostgreSQL, the fake
//! Brevo and the content site, cut or hung while the portal runs. The database gone gives a
//! German 503 and the portal recovers by itself; Brevo gone or hanging gives a German message
//! within a bounded time and changes nothing; the content site gone never delays a page.

mod common;

use std::time::{Duration, Instant};

use common::chaos::ChaosProxy;
use common::fake_brevo::FakeBrevo;
use common::{spawn_app_on, spawn_app_with};
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
            aktionsportal::error::DATABASE_UNAVAILABLE
        );
        assert!(
            started.elapsed() < Duration::from_secs(12),
            "{how}: {:?}",
            started.elapsed()
        );
        // A signed-in user's page says so too, rather than sending them to the login.
        let page = app.get_as(&admin, "/admin/contacts").await;
        assert_eq!(page.status(), 503, "{how}");
        assert!(page.text().await.unwrap().contains("nicht erreichbar"));
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
