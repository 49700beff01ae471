//! The package mails through Brevo as Brevo's own API description says (issue 37): Prism
//! (`scripts/prism.sh`) serves `tests/fixtures/brevo-openapi.yaml` as a validating mock, so a
//! call whose body, headers or key Brevo's schema does not allow is answered with an error and
//! shows as a failed mail. Between the portal and Prism a chaos proxy cuts the connection
//! while the announcement is sent: the mails wait with their reason and go out once it is back.
//!
//! Ignored in the plain test run: it needs Prism (`AP_TEST_PRISM`, the path of its `prism`).
//! `scripts/test.sh` installs it and runs these tests on SQLite and on PostgreSQL.

mod common;

use std::process::Stdio;
use std::time::Duration;

use aktionsportal::db::operations::mail_jobs;
use aktionsportal::domain::roles::ADMIN;
use serde_json::json;
use tokio::process::{Child, Command};

use common::chaos::ChaosProxy;
use common::{TestApp, announcement_on, spawn_app_with};

/// Prism serving Brevo's description on a free port of 127.0.0.1, killed when dropped.
struct Prism {
    addr: std::net::SocketAddr,
    _child: Child,
}

impl Prism {
    async fn start() -> Prism {
        let prism = std::env::var("AP_TEST_PRISM")
            .expect("AP_TEST_PRISM: the path of Prism's `prism` (scripts/prism.sh)");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let description = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/brevo-openapi.yaml"
        );
        let child = Command::new(prism)
            .args([
                "mock",
                "--errors",
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
            ])
            .arg(description)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start Prism");
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        // Reading Brevo's description takes Prism some seconds.
        for _ in 0..600 {
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                return Prism {
                    addr,
                    _child: child,
                };
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("Prism did not listen on {addr} within 60 s");
    }
}

/// The portal in Brevo mode with Brevo behind `proxy`.
async fn portal(proxy: &ChaosProxy) -> TestApp {
    let url = format!("http://{}", proxy.addr);
    spawn_app_with(move |config| {
        config.brevo_api_key = Some("xkeysib-prism".into());
        config.brevo_base_url = url;
        config.brevo_timeout_ms = 2_000;
        config.mail_per_second = 200;
        config.mail_retry_secs = 1;
        config.public_url = Some("https://portal.example.de".into());
        config.impressum_company = Some("Muster Vertrieb GmbH".into());
    })
    .await
}

#[tokio::test]
#[ignore = "needs Prism (AP_TEST_PRISM), run by scripts/test.sh"]
async fn the_mails_pass_brevos_own_description_and_survive_a_cut_connection() {
    let prism = Prism::start().await;
    let proxy = ChaosProxy::start(prism.addr).await;
    let app = portal(&proxy).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    // The provider's folders and its list are made in Brevo as well (Prism answers with the
    // ids of Brevo's examples).
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", "GS-Aktionsportal-BU-Glasfaser")
        .await;
    let list = app.create_list(&admin, provider, "Privat").await;
    let addresses = [
        "eins@example.de",
        "zwei@example.de",
        "drei@example.de",
        "vier@example.de",
    ];
    for address in addresses {
        app.contact_on_lists(address, (true, false), &[list]).await;
    }
    app.contact_on_lists("offen@example.de", (false, false), &[list])
        .await;
    let id = app.started_package(&admin, provider, list).await;
    let path = format!("/api/download/{id}/announcement");
    let text = announcement_on(3);

    // "Testmail an mich" through Brevo: Prism answers with its message id.
    let (status, sent) = app
        .call(
            &admin,
            "POST",
            &format!("{path}/test-mail"),
            Some(text.clone()),
        )
        .await;
    assert_eq!(status, 200, "{sent}");
    assert!(
        sent["messageId"].as_str().is_some_and(|m| !m.is_empty()),
        "{sent}"
    );

    // Brevo cannot be reached when the announcement starts: the mails wait, with the reason.
    proxy.cut();
    let (status, view) = app.call(&admin, "PUT", &path, Some(text)).await;
    assert_eq!(status, 200, "{view}");
    let mut waiting = json!(null);
    for _ in 0..300 {
        let (_, failures) = app
            .call(&admin, "GET", &format!("{path}/failures"), None)
            .await;
        if let Some(item) = failures.as_array().unwrap().first() {
            waiting = item.clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        waiting["state"], "pending",
        "waits for another try: {waiting}"
    );
    assert!(
        waiting["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{waiting}"
    );
    proxy.restore();

    // Back: every consenting address is sent once, and Brevo's schema took every call (a
    // call it refuses would end its mail as failed).
    let db = &app.test_db.db;
    let job = mail_jobs::of_package(db, id, mail_jobs::ANNOUNCEMENT)
        .await
        .unwrap()
        .expect("the announcement's job");
    let mut counts = mail_jobs::item_counts(db, job.id).await.unwrap();
    for _ in 0..600 {
        if counts.pending == 0 && counts.sending == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        counts = mail_jobs::item_counts(db, job.id).await.unwrap();
    }
    let (_, failures) = app
        .call(&admin, "GET", &format!("{path}/failures"), None)
        .await;
    assert_eq!(failures, json!([]), "Brevo's description allows every call");
    assert_eq!(
        (counts.sent, counts.failed, counts.pending, counts.sending),
        (4, 0, 0, 0)
    );
    for address in addresses {
        let contact = aktionsportal::db::contacts::find_contact_by_email(db, address)
            .await
            .unwrap()
            .unwrap();
        let items = mail_jobs::mails_of_contact(db, contact.id).await.unwrap();
        assert_eq!(items.len(), 1, "{address}: {items:?}");
        assert_eq!(items[0].state, "sent", "{address}");
        assert!(
            items[0]
                .message_id
                .as_deref()
                .is_some_and(|m| !m.is_empty()),
            "Brevo's message id is kept: {items:?}"
        );
    }
}
