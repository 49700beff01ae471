//! Hostile and heavy traffic over real HTTP: pages under concurrent load, slow clients,
//! greedy clients, security headers, cross-site GETs, hostile input and files by rights.

mod common;

use std::time::{Duration, Instant};

use aktionsportal::db;
use aktionsportal::domain::roles::{ADMIN, BU_MODERATOR, PORTAL};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use common::{TestApp, spawn_app, spawn_app_with};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

#[tokio::test]
async fn pages_with_data_answer_four_times_the_pool_size_of_concurrent_users() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN, PORTAL]).await;
    let provider = app.create_provider(&admin, "Glasfaser", GLASFASER).await;
    for i in 0..3 {
        let (status, _) = app
            .call(
                &admin,
                "POST",
                &format!("/api/providers/{provider}/lists"),
                Some(json!({ "name": format!("Kriterium {i}") })),
            )
            .await;
        assert_eq!(status, 200);
    }
    let package = aktionsportal::db::catalog::packages::create(
        &app.test_db.db,
        &aktionsportal::db::catalog::packages::NewPackage {
            provider_id: provider,
            name: "Herbstaktion".into(),
            start_at: chrono::Utc::now(),
            end_at: chrono::Utc::now() + chrono::Duration::days(30),
            files: vec![],
            list_ids: vec![],
        },
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let pages: Vec<(String, u16)> = vec![
        (format!("/admin/provider/{provider}"), 200),
        ("/admin/provider/999999".into(), 404),
        ("/admin/contacts".into(), 200),
        ("/admin/contact/edit/100001".into(), 200),
        ("/admin/downloads".into(), 200),
        ("/admin/download/add".into(), 200),
        (format!("/admin/download/edit/{}", package.id), 200),
        ("/admin/download/edit/999999".into(), 404),
        ("/user/downloads".into(), 200),
    ];
    let clients = 4 * app.test_db.db.pool_size() as usize;
    let started = Instant::now();
    let mut tasks = Vec::new();
    for client in 0..clients {
        let (http, base, token, pages) = (
            app.client.clone(),
            app.url(""),
            admin.clone(),
            pages.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let mut answers = Vec::new();
            for round in 0..pages.len() {
                let (path, expected) = &pages[(client + round) % pages.len()];
                let response = http
                    .get(format!("{base}{path}"))
                    .header("cookie", format!("ap_session={token}"))
                    .timeout(Duration::from_secs(10))
                    .send()
                    .await;
                answers.push((
                    path.clone(),
                    *expected,
                    response.map(|r| r.status().as_u16()),
                ));
            }
            answers
        }));
    }
    for task in tasks {
        for (path, expected, status) in task.await.unwrap() {
            match status {
                Ok(status) => assert_eq!(status, expected, "{path}"),
                Err(err) => panic!("{path} did not answer: {err}"),
            }
        }
    }
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{clients} users took {:?}",
        started.elapsed()
    );
}

/// Reads from a raw connection until the server closes it or `limit` passes; returns what
/// arrived and whether the server closed the connection.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, bool) {
    let mut received = Vec::new();
    let deadline = Instant::now() + limit;
    let mut buffer = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&received).into(), true),
            Ok(Ok(n)) => received.extend_from_slice(&buffer[..n]),
            Err(_) => return (String::from_utf8_lossy(&received).into(), false),
        }
    }
}

fn with_short_timeouts(config: &mut aktionsportal::config::Config) {
    config.header_timeout_secs = 1;
    config.body_timeout_secs = 1;
    config.upload_rate_window_secs = 1;
}

#[tokio::test]
async fn a_client_dripping_header_lines_is_cut_off() {
    let app = spawn_app_with(with_short_timeouts).await;
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    let started = Instant::now();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: portal\r\n")
        .await
        .unwrap();
    // One more header line every 300 ms, never the blank line that ends the headers.
    let mut cut = false;
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        if stream.write_all(b"X-Langsam: 1\r\n").await.is_err() {
            cut = true;
            break;
        }
        let mut probe = [0u8; 1];
        if let Ok(Ok(0) | Err(_)) =
            tokio::time::timeout(Duration::from_millis(1), stream.read(&mut probe)).await
        {
            cut = true;
            break;
        }
    }
    assert!(cut, "the connection stayed open");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed() {
    let app = spawn_app_with(with_short_timeouts).await;
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: portal\r\n\r\n")
        .await
        .unwrap();
    let (answer, closed) = read_until_closed(&mut stream, Duration::from_secs(4)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(closed, "an idle connection must not stay open");
}

#[tokio::test]
async fn a_body_that_stops_arriving_is_cut_off_with_408() {
    let app = spawn_app_with(with_short_timeouts).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    let started = Instant::now();
    let head = format!(
        "POST /api/providers/ HTTP/1.1\r\nHost: portal\r\nCookie: ap_session={admin}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"name\":"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let (answer, closed) = read_until_closed(&mut stream, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("zu langsam"), "{answer}");
    assert!(closed);
    assert!(started.elapsed() < Duration::from_secs(4));
    // Nothing was created.
    assert_eq!(
        db::marketing::providers::list_all(&app.test_db.db)
            .await
            .unwrap()
            .len(),
        0
    );
}

#[tokio::test]
async fn a_stalled_upload_is_cut_off() {
    let app = spawn_app_with(with_short_timeouts).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    let head = format!(
        "POST /api/upload/ HTTP/1.1\r\nHost: portal\r\nCookie: ap_session={admin}\r\n\
         Content-Type: multipart/form-data; boundary=X\r\nContent-Length: 100000000\r\n\r\n\
         --X\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"a.png\"\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&[0x89, b'P', b'N', b'G']).await.unwrap();
    let (answer, closed) = read_until_closed(&mut stream, Duration::from_secs(6)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(closed);
    assert_eq!(
        db::catalog::uploads::count(&app.test_db.db).await.unwrap(),
        0
    );
}

#[tokio::test]
async fn one_address_cannot_hold_every_connection() {
    let app = spawn_app_with(|config| config.max_connections_per_address = 3).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(app.addr).await.unwrap());
    }
    let mut extra = TcpStream::connect(app.addr).await.unwrap();
    let _ = extra
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: portal\r\n\r\n")
        .await;
    let (answer, closed) = read_until_closed(&mut extra, Duration::from_secs(3)).await;
    assert!(
        closed && answer.is_empty(),
        "the fourth connection was served: {answer}"
    );
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        app.get("/healthz").await.status(),
        200,
        "a freed place is usable again"
    );
}

fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[tokio::test]
async fn pages_carry_security_headers_and_personal_json_is_not_cached() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    for path in [
        "/login",
        "/admin/contacts",
        "/gibt-es-nicht",
        "/api/auth/login",
    ] {
        let response = app.get_as(&admin, path).await;
        let policy = header(&response, "content-security-policy").to_string();
        assert!(
            policy.contains("frame-ancestors 'none'"),
            "{path}: {policy}"
        );
        assert!(policy.contains("default-src 'self'"), "{path}");
        assert!(!policy.contains("unsafe-inline"), "{path}");
        assert_eq!(
            header(&response, "x-content-type-options"),
            "nosniff",
            "{path}"
        );
        assert_eq!(
            header(&response, "referrer-policy"),
            "same-origin",
            "{path}"
        );
        assert_eq!(header(&response, "x-frame-options"), "DENY", "{path}");
        // Inline scripts carry exactly the nonce the policy allows.
        let nonce = policy
            .split("'nonce-")
            .nth(1)
            .and_then(|rest| rest.split('\'').next())
            .map(str::to_string);
        let html = response.text().await.unwrap();
        for script in html.split("<script").skip(1) {
            let tag = &script[..script.find('>').unwrap()];
            if !tag.contains("src=") {
                let nonce = nonce.as_deref().expect("a policy nonce for inline scripts");
                assert!(tag.contains(&format!("nonce=\"{nonce}\"")), "{path}: {tag}");
            }
        }
        assert!(
            !html.contains(" style=\""),
            "{path}: inline style attribute"
        );
    }
    for path in ["/api/auth/responseUserData", "/api/providers/"] {
        let response = app.get_as(&admin, path).await;
        assert_eq!(response.status(), 200);
        assert_eq!(header(&response, "cache-control"), "no-store", "{path}");
        assert_eq!(header(&response, "x-content-type-options"), "nosniff");
    }
}

#[tokio::test]
async fn get_calls_with_side_effects_refuse_other_sites() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app.create_provider(&admin, "Glasfaser", GLASFASER).await;
    let sync = app.url(&format!("/api/sync/providers/{provider}"));
    let cross_site = app
        .client
        .get(&sync)
        .header("cookie", format!("ap_session={admin}"))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    let body: Value = cross_site.json().await.unwrap();
    assert_eq!(body["code"], "cross_site_request");
    let same_origin = app
        .client
        .get(&sync)
        .header("cookie", format!("ap_session={admin}"))
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(same_origin.status(), 200);

    // A logout link on another site only shows a confirmation; the session lives on.
    let logout = app
        .client
        .get(app.url("/api/auth/logout"))
        .header("cookie", format!("ap_session={admin}"))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), 200);
    assert!(logout.headers().get("set-cookie").is_none());
    let page = logout.text().await.unwrap();
    assert!(
        page.contains("Möchten Sie sich vom Aktionsportal abmelden?"),
        "{page}"
    );
    assert!(
        page.contains(r#"method="post" action="/api/auth/logout""#),
        "{page}"
    );
    assert_eq!(
        app.get_as(&admin, "/api/auth/responseUserData")
            .await
            .status(),
        200
    );
    // The confirmation's button ends it.
    let confirmed = app
        .client
        .post(app.url("/api/auth/logout"))
        .header("cookie", format!("ap_session={admin}"))
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .unwrap();
    assert!(confirmed.status().is_redirection());
    assert_eq!(
        app.get_as(&admin, "/api/auth/responseUserData")
            .await
            .status(),
        401
    );
}

#[tokio::test]
async fn hostile_names_and_role_lists_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let body = |name: &str, roles: Value| {
        json!({
            "name": name,
            "allowedRoles": roles,
            "brevoActiveFolderId": "auto",
            "brevoInactiveFolderId": "auto",
        })
    };
    let invisible =
        "Der Name darf keine Steuerzeichen oder unsichtbaren Formatierungszeichen enthalten.";
    for name in [
        "\u{200B}\u{200B}\u{200B}",
        "Glas\u{0007}faser",
        "\u{001B}[31mRot",
        "Null\u{0000}",
        "\u{202E}resafsalG",
    ] {
        let (status, answer) = app
            .call(
                &admin,
                "POST",
                "/api/providers/",
                Some(body(name, json!([GLASFASER]))),
            )
            .await;
        assert_eq!(
            (status, answer["message"].as_str()),
            (400, Some(invisible)),
            "{name:?}"
        );
    }
    let many: Vec<String> = (0..3000).map(|i| format!("Gruppe-{i}")).collect();
    let (status, answer) = app
        .call(
            &admin,
            "POST",
            "/api/providers/",
            Some(body("Viele Gruppen", json!(many))),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["message"],
        "Es dürfen höchstens 50 Gruppen eingetragen werden!"
    );
    let (status, answer) = app
        .call(
            &admin,
            "POST",
            "/api/providers/",
            Some(body("Lange Gruppe", json!(["x".repeat(101)]))),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["message"],
        "Eine Gruppe darf höchstens 100 Zeichen lang sein!"
    );
    assert!(
        db::marketing::providers::list_all(&app.test_db.db)
            .await
            .unwrap()
            .is_empty()
    );

    let provider = app.create_provider(&admin, "Glasfaser", GLASFASER).await;
    for name in ["\u{200B}Kriterium", "Kriterium\u{2066}x"] {
        let (status, answer) = app
            .call(
                &admin,
                "POST",
                &format!("/api/providers/{provider}/lists"),
                Some(json!({ "name": name })),
            )
            .await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(invisible)));
    }
    // A name is stored trimmed and in NFC.
    let (status, list) = app
        .call(
            &admin,
            "POST",
            &format!("/api/providers/{provider}/lists"),
            Some(json!({ "name": "  Flyer Su\u{0308}d " })),
        )
        .await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["name"], "Flyer S\u{00FC}d");
}

#[tokio::test]
async fn bodies_over_the_limit_get_413_and_unknown_upload_fields_400() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let huge = json!({ "name": "x".repeat(3 * 1024 * 1024) });
    let (status, answer) = app
        .call(&admin, "POST", "/api/providers/", Some(huge))
        .await;
    assert_eq!(status, 413);
    assert_eq!(answer["code"], "payload_too_large");
    assert!(answer["message"].as_str().unwrap().contains("zu groß"));

    let form = reqwest::multipart::Form::new().part(
        "datei",
        reqwest::multipart::Part::bytes(&b"\x89PNG\r\n\x1a\n"[..]).file_name("logo.png"),
    );
    let response = app
        .client
        .post(app.url("/api/upload/"))
        .header("cookie", format!("ap_session={admin}"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let answer: Value = response.json().await.unwrap();
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("unbekanntes Feld")
    );
    assert_eq!(
        db::catalog::uploads::count(&app.test_db.db).await.unwrap(),
        0
    );
}

#[tokio::test]
async fn files_are_served_by_the_rights_of_their_provider() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app.create_provider(&admin, "Glasfaser", GLASFASER).await;
    let database = &app.test_db.db;
    let key = app_files(&app)
        .put_bytes(b"%PDF-1.4 Flyer", "pdf")
        .await
        .unwrap();
    let upload = db::catalog::uploads::create(
        database,
        &db::catalog::uploads::NewUpload {
            name: "Flyer.pdf".into(),
            storage_key: key,
            ext: "pdf".into(),
            size: 14,
            content_type: "application/pdf".into(),
            sha256: None,
            crc32: None,
            uploaded_by: None,
        },
        &aktionsportal::domain::audit::Actor::Cli,
    )
    .await
    .unwrap();
    db::catalog::packages::create(
        database,
        &db::catalog::packages::NewPackage {
            provider_id: provider,
            name: "Sommeraktion".into(),
            start_at: chrono::Utc::now(),
            end_at: chrono::Utc::now() + chrono::Duration::days(30),
            files: vec![db::catalog::packages::NewFile {
                upload_id: upload.id,
                name: "Flyer.pdf".into(),
                tag_ids: vec![],
            }],
            list_ids: vec![],
        },
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let path = format!("/files/{}/Flyer.pdf", upload.id);
    let with_role = app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    let without_role = app.session_with_roles(&[BU_MODERATOR]).await;
    assert_eq!(app.get_as(&admin, &path).await.status(), 200);
    assert_eq!(app.get_as(&with_role, &path).await.status(), 200);
    let refused = app.get_as(&without_role, &path).await;
    assert_eq!(refused.status(), 404, "as if the file did not exist");
    let missing = app.get_as(&without_role, "/files/999999/x.pdf").await;
    assert_eq!(missing.status(), 404);
    assert_eq!(
        refused.text().await.unwrap(),
        missing.text().await.unwrap(),
        "a refused file answers exactly like a missing one"
    );
}

fn app_files(app: &TestApp) -> aktionsportal::storage::FileStore {
    aktionsportal::storage::FileStore::new(app.test_db.data_dir.join("files")).unwrap()
}

#[tokio::test]
async fn an_api_call_that_takes_too_long_is_answered_503_within_the_limit() {
    let brevo = common::fake_brevo::FakeBrevo::start().await;
    let (url, key) = (brevo.base_url.clone(), brevo.api_key().to_string());
    let app = spawn_app_with(move |config| {
        config.brevo_api_key = Some(key);
        config.brevo_base_url = url;
        config.brevo_timeout_ms = 10_000;
        config.request_timeout_secs = 1;
    })
    .await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    brevo.delay_next(1, Duration::from_secs(4));
    let started = Instant::now();
    let (status, answer) = app.call(&admin, "GET", "/api/brevo/folders/", None).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (503, Some("timeout")),
        "{answer}"
    );
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("zu lange gedauert")
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}
