//! Kept answers (issue 22): list answers, totals and the customer page's island are kept under
//! the data version and the viewer. These tests check what a user relies on: a change made on
//! one instance shows on another at its next request; a dealer never gets what was kept for
//! another; a package's end turns its badge at that instant; `ETag` and `If-None-Match` work.
//! On the run's backend (SQLite and PostgreSQL), real HTTP.

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use aktionsportal::db::catalog::packages::{self, NewPackage};
use aktionsportal::state::AppState;
use chrono::Utc;
use common::{TestApp, spawn_app, test_config};
use serde_json::Value;

const ADMIN: &str = "GS-Aktionsportal-Admin";
const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

/// A package offered to `lists`, straight into the database (as an import would).
async fn package(
    app: &TestApp,
    provider: i64,
    name: &str,
    lists: &[i64],
    end_in: chrono::Duration,
) -> i64 {
    let now = aktionsportal::db::now();
    packages::create(
        &app.test_db.db,
        &NewPackage {
            provider_id: provider,
            name: name.into(),
            start_at: now - chrono::Duration::days(20),
            end_at: now + end_in,
            files: Vec::new(),
            list_ids: lists.to_vec(),
        },
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .expect("package")
    .id
}

/// A second portal on the test's database, as another instance behind a load balancer.
async fn second_instance(app: &TestApp) -> (String, tokio::sync::oneshot::Sender<()>) {
    let db = aktionsportal::db::Db::connect(&app.test_db.url)
        .await
        .expect("second connection");
    let state = AppState::new(test_config(&app.test_db), db).expect("state");
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = aktionsportal::startup::serve(state, "127.0.0.1:0".parse().unwrap(), async {
        let _ = rx.await;
    })
    .await
    .expect("serve");
    (format!("http://{}", server.addr), tx)
}

async fn names_at(app: &TestApp, base: &str, token: &str, path: &str) -> BTreeSet<String> {
    let response = app
        .client
        .get(format!("{base}{path}"))
        .header("cookie", format!("ap_session={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let page: Value = response.json().await.unwrap();
    page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

#[tokio::test]
async fn a_change_on_one_instance_shows_on_the_other_at_its_next_request() {
    let app = spawn_app().await;
    let (other, _stop) = second_instance(&app).await;
    let here = format!("http://{}", app.addr);
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    let dealer = app.dealer_session(200_001, &[list]).await;
    let first = package(
        &app,
        provider,
        "Sommeraktion",
        &[list],
        chrono::Duration::days(60),
    )
    .await;
    package(
        &app,
        provider,
        "Herbstaktion",
        &[list],
        chrono::Duration::days(60),
    )
    .await;
    let both = set(&["Herbstaktion", "Sommeraktion"]);
    for path in ["/api/downloads/", "/api/downloads/contact/"] {
        let token = if path.contains("contact") {
            &dealer
        } else {
            &admin
        };
        // Asked twice on each instance: the second answer is a kept one.
        for base in [&here, &other, &here, &other] {
            assert_eq!(
                names_at(&app, base, token, path).await,
                both,
                "{base}{path}"
            );
        }
    }
    // Archived through the first instance; the second knows at its next request.
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/download/changeArchiveStatus/{first}"),
            Some(serde_json::json!({ "archived": true })),
        )
        .await;
    assert_eq!(status, 200);
    let changed = Instant::now();
    assert_eq!(
        names_at(&app, &other, &admin, "/api/downloads/").await,
        set(&["Herbstaktion"])
    );
    assert_eq!(
        names_at(&app, &other, &dealer, "/api/downloads/contact/").await,
        set(&["Herbstaktion"])
    );
    assert!(changed.elapsed() < Duration::from_secs(1));
    // A change that reaches the database another way (an import, a script) counts the same.
    aktionsportal::db_run!(&app.test_db.db, pool => {
        sqlx::query("update downloads set name = 'Winteraktion' where name = 'Herbstaktion'")
            .execute(pool)
            .await
            .map(drop)
            .unwrap()
    });
    for base in [&here, &other] {
        assert_eq!(
            names_at(&app, base, &dealer, "/api/downloads/contact/").await,
            set(&["Winteraktion"])
        );
    }
}

/// A tag's new name shows on the dealer's kept page at the next request: the page names its
/// files' tags, and the rename counts the data version like any change to what it shows.
#[tokio::test]
async fn a_renamed_tag_shows_on_the_dealers_kept_page() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    let dealer = app.dealer_session(200_001, &[list]).await;
    let (status, tag) = app
        .call(
            &admin,
            "POST",
            "/api/tags",
            Some(serde_json::json!({"name": "Sommerflyer", "icon": "bi bi-star"})),
        )
        .await;
    assert_eq!(status, 201, "{tag}");
    let tag = tag["id"].as_i64().unwrap();
    let (status, upload) = app
        .upload(&admin, "Flyer.pdf", common::big_pdf(2_000))
        .await;
    assert_eq!(status, 200, "{upload}");
    let now = aktionsportal::db::now();
    packages::create(
        &app.test_db.db,
        &NewPackage {
            provider_id: provider,
            name: "Sommeraktion".into(),
            start_at: now - chrono::Duration::days(20),
            end_at: now + chrono::Duration::days(60),
            files: vec![packages::NewFile {
                upload_id: upload["id"].as_i64().unwrap(),
                name: "Flyer.pdf".into(),
                tag_ids: vec![tag],
            }],
            list_ids: vec![list],
        },
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .expect("package");
    let page = || async {
        let response = app.get_as(&dealer, "/user/downloads").await;
        assert_eq!(response.status(), 200);
        response.text().await.unwrap()
    };
    // Asked twice: the second answer is the kept one.
    for _ in 0..2 {
        let html = page().await;
        assert!(html.contains("Sommeraktion"), "the package is listed");
        assert!(html.contains("Sommerflyer"), "the tag is named");
    }
    let (status, renamed) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/tags/{tag}"),
            Some(serde_json::json!({"name": "Herbstflyer", "icon": "bi bi-star"})),
        )
        .await;
    assert_eq!(status, 200, "{renamed}");
    let html = page().await;
    assert!(html.contains("Herbstflyer"), "the new name shows");
    assert!(!html.contains("Sommerflyer"), "the old name is gone");
}

#[tokio::test]
async fn a_dealer_never_gets_an_answer_kept_for_another() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let north = app.create_list(&admin, provider, "Liste Nord").await;
    let south = app.create_list(&admin, provider, "Liste Süd").await;
    package(
        &app,
        provider,
        "Nordpaket",
        &[north],
        chrono::Duration::days(60),
    )
    .await;
    package(
        &app,
        provider,
        "Südpaket",
        &[south],
        chrono::Duration::days(60),
    )
    .await;
    let dealers = [
        (app.dealer_session(200_001, &[north]).await, "Nordpaket"),
        (app.dealer_session(200_002, &[south]).await, "Südpaket"),
    ];
    // Both hammer the same URLs at once, the API and the page.
    let mut asks = Vec::new();
    for round in 0..40 {
        for (token, own) in &dealers {
            let (token, own) = (token.clone(), *own);
            let client = app.client.clone();
            let base = format!("http://{}", app.addr);
            asks.push(tokio::spawn(async move {
                let path = if round % 2 == 0 {
                    "/api/downloads/contact/?limit=20&offset=0"
                } else {
                    "/user/downloads"
                };
                let body = client
                    .get(format!("{base}{path}"))
                    .header("cookie", format!("ap_session={token}"))
                    .send()
                    .await
                    .unwrap()
                    .text()
                    .await
                    .unwrap();
                let other = if own == "Nordpaket" {
                    "Südpaket"
                } else {
                    "Nordpaket"
                };
                assert!(body.contains(own), "{path}: own package missing");
                assert!(!body.contains(other), "{path}: another dealer's package");
            }));
        }
    }
    for ask in asks {
        ask.await.unwrap();
    }
}

#[tokio::test]
async fn a_packages_end_turns_its_badge_at_that_instant() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    let dealer = app.dealer_session(200_001, &[list]).await;
    package(
        &app,
        provider,
        "Kurzaktion",
        &[list],
        chrono::Duration::seconds(3),
    )
    .await;
    let badge = || async {
        let (status, page) = app
            .call(&dealer, "GET", "/api/downloads/contact/", None)
            .await;
        assert_eq!(status, 200);
        page["content"][0]["badge"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    // Kept while it runs …
    assert_eq!(badge().await, "LÄUFT IN KÜRZE AB");
    assert_eq!(badge().await, "LÄUFT IN KÜRZE AB");
    let end = Utc::now() + chrono::Duration::seconds(3);
    tokio::time::sleep((end - Utc::now()).to_std().unwrap_or_default()).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    // … and not a moment after its end, though nothing in the database changed.
    assert_eq!(badge().await, "BEENDET");
}

#[tokio::test]
async fn list_answers_carry_an_etag_and_answer_304_while_unchanged() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    package(
        &app,
        provider,
        "Sommeraktion",
        &[list],
        chrono::Duration::days(60),
    )
    .await;
    // The dealer's contact is the contacts list's one row.
    app.dealer_session(200_001, &[list]).await;
    for (path, cache_control, change) in [
        (
            "/api/downloads/?limit=20",
            "private, no-cache",
            "update downloads set name = name || '!'",
        ),
        (
            "/api/contacts?limit=20",
            "no-store",
            "update contacts set firstname = firstname || 'a'",
        ),
    ] {
        let get = |etag: Option<String>| {
            let mut request = app
                .client
                .get(app.url(path))
                .header("cookie", format!("ap_session={admin}"));
            if let Some(etag) = etag {
                request = request.header("if-none-match", etag);
            }
            request.send()
        };
        let first = get(None).await.unwrap();
        assert_eq!(first.status(), 200);
        assert_eq!(first.headers()["cache-control"], cache_control);
        let etag = first.headers()["etag"].to_str().unwrap().to_string();
        let body = first.text().await.unwrap();
        let again = get(Some(etag.clone())).await.unwrap();
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()["etag"], etag.as_str());
        assert!(again.text().await.unwrap().is_empty());
        // Another tag, or none: the whole answer, the same as before.
        let other = get(Some("\"anders\"".into())).await.unwrap();
        assert_eq!(other.status(), 200);
        assert_eq!(other.text().await.unwrap(), body);
        // After a change to what it shows the old tag no longer matches.
        aktionsportal::db_run!(&app.test_db.db, pool => {
            sqlx::query(change).execute(pool).await.map(drop).unwrap()
        });
        let changed = get(Some(etag.clone())).await.unwrap();
        assert_eq!(changed.status(), 200, "{path}");
        assert_ne!(changed.headers()["etag"], etag.as_str());
    }
}
