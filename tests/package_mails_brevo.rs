//! A package's announcement through Brevo's transactional API (issue 37): one call per
//! address with its own one-click unsubscribe headers, tagged with the package, and an
//! idempotency key so that a call repeated after a crash is not a second mail; Brevo's 429 and
//! 5xx are tried again within the limits while the state says why the mail waits. Against the
//! fake Brevo here, and against Brevo's own description under Prism (`brevo_prism.rs`).

mod common;

use std::time::Duration;

use aktionsportal::db::operations::mail_jobs;
use aktionsportal::domain::roles::ADMIN;
use serde_json::json;

use common::fake_brevo::FakeBrevo;
use common::{TestApp, announcement_on, spawn_app_with};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

/// The portal in Brevo mode against `brevo`, sending quickly, with a public address.
async fn portal(brevo: &FakeBrevo) -> TestApp {
    let (url, key) = (brevo.base_url.clone(), brevo.api_key().to_string());
    spawn_app_with(move |config| {
        config.brevo_api_key = Some(key);
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
async fn brevos_429_and_5xx_are_tried_again_and_the_state_says_why_the_mail_waits() {
    let brevo = FakeBrevo::start().await;
    let app = portal(&brevo).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Privat").await;
    let addresses = ["eins@example.de", "zwei@example.de", "drei@example.de"];
    for address in addresses {
        app.contact_on_lists(address, (true, false), &[list]).await;
    }
    app.contact_on_lists("offen@example.de", (false, false), &[list])
        .await;
    let id = app.started_package(&admin, provider, list).await;
    // The first mail meets Brevo's 503 on each of the client's four attempts, the second its
    // 429 as often: both wait for the queue's next try, with the reason.
    brevo.fail_nth_times("POST", "/smtp/email", 1, 4, 503);
    brevo.fail_nth_times("POST", "/smtp/email", 6, 4, 429);
    let path = format!("/api/download/{id}/announcement");
    let body = announcement_on(0);
    let (status, view) = app.call(&admin, "PUT", &path, Some(body)).await;
    assert_eq!(status, 200, "{view}");

    // While a mail waits, the form and the failures say so, with Brevo's answer.
    let mut seen_waiting = false;
    for _ in 0..200 {
        let (_, failures) = app
            .call(&admin, "GET", &format!("{path}/failures"), None)
            .await;
        let waiting: Vec<&serde_json::Value> = failures
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["state"] == "pending")
            .collect();
        if let Some(item) = waiting.first() {
            let reason = item["error"].as_str().unwrap_or_default();
            assert!(!reason.is_empty(), "the reason it waits: {item}");
            let (_, view) = app.call(&admin, "GET", &path, None).await;
            assert!(view["mails"]["waiting"].as_i64().unwrap() >= 1, "{view}");
            seen_waiting = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        seen_waiting,
        "a mail Brevo refused for now waits with its reason"
    );

    // Then every consenting address gets its mail once.
    let mut sent = Vec::new();
    for _ in 0..300 {
        sent = brevo.sent_emails();
        if sent.len() >= addresses.len() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let sent = brevo
        .sent_emails()
        .into_iter()
        .chain(sent)
        .collect::<Vec<_>>();
    let mut to: Vec<String> = sent.iter().flat_map(|m| m.to.clone()).collect();
    to.sort();
    to.dedup_by(|a, b| a == b);
    let mut expected: Vec<String> = addresses.iter().map(|a| a.to_string()).collect();
    expected.sort();
    assert_eq!(to, expected, "the unconfirmed address gets nothing");
    let accepted = brevo.sent_emails();
    assert_eq!(accepted.len(), 3, "each address once: {accepted:?}");
    for mail in &accepted {
        assert_eq!(mail.to.len(), 1, "one recipient per call: {:?}", mail.body);
        let body = &mail.body;
        assert_eq!(body["tags"], json!([format!("package-{id}")]), "{body}");
        assert!(
            body["textContent"].as_str().unwrap().contains("Abmelden"),
            "{body}"
        );
        assert!(
            body["htmlContent"].as_str().unwrap().contains("Abmelden"),
            "{body}"
        );
        let headers = &body["headers"];
        assert_eq!(
            headers["List-Unsubscribe-Post"],
            "List-Unsubscribe=One-Click"
        );
        let link = headers["List-Unsubscribe"].as_str().unwrap();
        assert!(
            link.starts_with("<https://portal.example.de/api/unsubscribe/"),
            "{headers}"
        );
        assert!(
            headers["Idempotency-Key"]
                .as_str()
                .is_some_and(|k| !k.is_empty()),
            "a repeated call is not a second mail: {headers}"
        );
    }
    let keys: std::collections::BTreeSet<&str> = accepted
        .iter()
        .map(|m| m.body["headers"]["Idempotency-Key"].as_str().unwrap())
        .collect();
    assert_eq!(keys.len(), 3, "one key per address");

    let db = &app.test_db.db;
    let job = mail_jobs::of_package(db, id, mail_jobs::ANNOUNCEMENT)
        .await
        .unwrap()
        .expect("the announcement's job");
    let counts = mail_jobs::item_counts(db, job.id).await.unwrap();
    assert_eq!((counts.sent, counts.failed, counts.pending), (3, 0, 0));
    let (_, view) = app.call(&admin, "GET", &path, None).await;
    assert_eq!(
        view["mails"],
        json!({"recipients": 3, "sent": 3, "failed": 0, "waiting": 0, "skipped": 0}),
        "{view}"
    );
    let (_, failures) = app
        .call(&admin, "GET", &format!("{path}/failures"), None)
        .await;
    assert_eq!(failures, json!([]), "nothing failed in the end");
    // Brevo was asked within the limits: four attempts per try, and the two refused mails
    // tried again once each.
    let calls = brevo
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path == "/smtp/email")
        .count();
    assert_eq!(calls, 3 + 4 + 4, "every call Brevo answered");
}

#[tokio::test]
async fn a_mail_brevo_took_before_its_answer_was_lost_goes_once_and_its_link_works() {
    let brevo = FakeBrevo::start().await;
    let app = portal(&brevo).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Privat").await;
    let anna = app
        .contact_on_lists("anna@example.de", (true, false), &[list])
        .await;
    let id = app.started_package(&admin, provider, list).await;
    // Brevo takes the first mail at once but answers after the client's 2 s: the portal sees
    // a timeout, and the mail may have gone out. The next try (same idempotency key) is the
    // same mail to Brevo.
    brevo.delay_next(1, Duration::from_secs(3));
    let body = announcement_on(0);
    let path = format!("/api/download/{id}/announcement");
    let (status, view) = app.call(&admin, "PUT", &path, Some(body)).await;
    assert_eq!(status, 200, "{view}");
    let db = &app.test_db.db;
    let mut items = Vec::new();
    for _ in 0..300 {
        items = mail_jobs::mails_of_contact(db, anna).await.unwrap();
        if items.first().is_some_and(|i| i.state == "sent") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(items[0].state, "sent", "{items:?}");
    assert_eq!(items[0].attempts, 2, "tried again after the lost answer");
    let sent = brevo.sent_emails();
    assert_eq!(sent.len(), 1, "one mail reached Anna: {sent:?}");
    assert_eq!(
        items[0].message_id.as_deref(),
        Some(sent[0].message_id.as_str())
    );
    // The link in the mail Anna has works: a one-click POST unsubscribes her.
    let header = sent[0].body["headers"]["List-Unsubscribe"]
        .as_str()
        .unwrap();
    let url = header.trim_matches(['<', '>']);
    let token = url.rsplit('/').next().unwrap();
    let answer = app
        .client
        .post(app.url(&format!("/api/unsubscribe/{token}")))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200, "the link of the mail that went out");
    let contact = aktionsportal::db::contacts::get_contact(db, anna)
        .await
        .unwrap()
        .unwrap();
    assert!(contact.email_blacklisted, "unsubscribed by its link");
}
