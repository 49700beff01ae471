//! Every route of spec §2 over real HTTP: redirects, the guard, German texts, the title,
//! status codes, and the static and islands files the pages reference.

mod common;

use aktionsportal::domain::roles::{ADMIN, BU_DOI, BU_MODERATOR, PORTAL, PROVISION};
use common::{assert_redirect, spawn_app, spawn_app_with};

const GUARDED_PAGES: [&str; 8] = [
    "/user/downloads",
    "/admin/contacts",
    "/admin/contact/edit/100001",
    "/admin/provider/1",
    "/admin/downloads/",
    "/admin/download/add/",
    "/admin/download/edit/5",
    "/admin/downloads",
];

#[tokio::test]
async fn entry_paths_redirect_to_their_start_pages() {
    let app = spawn_app().await;
    for (path, target) in [
        ("/", "/user/downloads"),
        ("/user", "/user/downloads"),
        ("/user/", "/user/downloads"),
        ("/admin", "/admin/contacts"),
        ("/admin/", "/admin/contacts"),
    ] {
        assert_redirect(&app.get(path).await, target);
    }
}

#[tokio::test]
async fn without_a_session_guarded_pages_send_to_login() {
    let app = spawn_app().await;
    for path in GUARDED_PAGES {
        let response = app.get(path).await;
        // The login remembers the page (trailing slashes trimmed) to come back to it.
        let trimmed = path.trim_end_matches('/');
        let encoded: String = url::form_urlencoded::byte_serialize(trimmed.as_bytes()).collect();
        assert_redirect(&response, &format!("/login?next={encoded}"));
    }
    // An unknown or expired cookie is no session either.
    assert_redirect(
        &app.get_as("unbekannt", "/admin/contacts").await,
        "/login?next=%2Fadmin%2Fcontacts",
    );
}

#[tokio::test]
async fn missing_roles_send_to_unauthorized() {
    let app = spawn_app().await;
    let customer = app.session_with_roles(&[PORTAL]).await;
    let doi = app.session_with_roles(&[BU_DOI]).await;
    let nobody = app
        .session_with_roles(&["GS-Aktionsportal-BU-Glasfaser"])
        .await;

    assert_eq!(app.get_as(&customer, "/user/downloads").await.status(), 200);
    assert_redirect(
        &app.get_as(&customer, "/admin/contacts").await,
        "/unauthorized",
    );
    assert_redirect(
        &app.get_as(&customer, "/admin/contact/edit/100001").await,
        "/unauthorized",
    );

    let editor = app.get_as(&doi, "/admin/contact/edit/100001").await;
    assert_eq!(editor.status(), 200);
    // Its only page shows no admin menu: every entry of it would lead to /unauthorized.
    let html = editor.text().await.unwrap();
    for link in [
        "href=\"/admin/contacts\"",
        "href=\"/admin/downloads\"",
        "href=\"/admin/provider/",
        "data-island=\"AdminMenu\"",
    ] {
        assert!(!html.contains(link), "BU-DOI sees {link}");
    }
    // An admin on the same page does see the menu.
    let admin = app.session_with_roles(&[ADMIN]).await;
    let html = app
        .get_as(&admin, "/admin/contact/edit/100001")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("href=\"/admin/downloads\""));
    assert_redirect(&app.get_as(&doi, "/admin/contacts").await, "/unauthorized");
    assert_redirect(&app.get_as(&doi, "/user/downloads").await, "/unauthorized");

    for path in GUARDED_PAGES {
        assert_redirect(&app.get_as(&nobody, path).await, "/unauthorized");
    }
}

#[tokio::test]
async fn admin_pages_render_their_frames_with_titles() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .provider_without_folders("Glasfaser Süd", "GS-Aktionsportal-BU-Glasfaser")
        .await;
    let provider_page = format!("/admin/provider/{}", provider);
    let list = aktionsportal::db::lists::create(
        &app.test_db.db,
        &aktionsportal::db::lists::NewList {
            provider_id: provider,
            name: "Flyer Herbst".into(),
            brevo_list_id: None,
            active: true,
        },
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let package = aktionsportal::db::downloads::create(
        &app.test_db.db,
        &aktionsportal::db::downloads::NewDownload {
            provider_id: provider,
            name: "Herbstaktion".into(),
            start_at: chrono::Utc::now(),
            end_at: chrono::Utc::now() + chrono::Duration::days(30),
            files: vec![],
            list_ids: vec![list.id],
        },
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let edit_page = format!("/admin/download/edit/{}", package.id);
    for (path, heading) in [
        ("/admin/contacts", "Händler"),
        ("/admin/contact/edit/100001", "Kontakte bearbeiten"),
        (provider_page.as_str(), "Kriterien"),
        ("/admin/downloads/", "Downloads"),
        ("/admin/download/add/", "Download anlegen"),
        (edit_page.as_str(), "Download bearbeiten"),
    ] {
        let response = app.get_as(&admin, path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-store", "{path}");
        let body = response.text().await.unwrap();
        assert!(
            body.contains(&format!(">{heading}</h1>")),
            "{path}: {heading}"
        );
        assert!(
            body.contains("<title>Testmarke Aktionsportal</title>"),
            "{path}"
        );
        assert!(
            body.contains(r#"href="/admin/contacts""#) && body.contains("Händler"),
            "admin menu on {path}"
        );
        assert!(
            body.contains("Neuer Anbieter"),
            "admin sees the new-provider entry on {path}"
        );
    }
    let missing = app.get_as(&admin, "/admin/provider/7777").await;
    assert_eq!(missing.status(), 404);
    assert!(
        missing
            .text()
            .await
            .unwrap()
            .contains("Anbieter existiert nicht!")
    );
    let missing = app.get_as(&admin, "/admin/download/edit/7777").await;
    assert_eq!(missing.status(), 404);
    assert!(
        missing
            .text()
            .await
            .unwrap()
            .contains("Download existiert nicht!")
    );
    let body = app
        .get_as(&admin, "/admin/contact/edit/100001")
        .await
        .text()
        .await
        .unwrap();
    assert!(body.contains("Kundennummer: 100001"));

    let moderator = app.session_with_roles(&[BU_MODERATOR]).await;
    let body = app
        .get_as(&moderator, "/admin/contacts")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        !body.contains("Neuer Anbieter"),
        "only admins see the new-provider entry"
    );
}

#[tokio::test]
async fn customer_page_has_the_customer_view_title() {
    let app = spawn_app().await;
    let token = app.session_with_roles(&[PROVISION]).await;
    let body = app
        .get_as(&token, "/user/downloads")
        .await
        .text()
        .await
        .unwrap();
    assert!(body.contains("Aktionsportal Netzvermarktung"));
    assert!(body.contains("<title>Testmarke Aktionsportal</title>"));
}

#[tokio::test]
async fn login_page_forwards_to_the_login_endpoint_and_offers_partnership() {
    let app = spawn_app().await;
    let response = app.get("/login").await;
    assert_eq!(response.status(), 200);
    let body = response.text().await.unwrap();
    assert!(
        body.contains(r#"http-equiv="refresh" content="0;url=/api/auth/login""#),
        "{body}"
    );
    assert!(body.contains(r#"href="/api/auth/login""#));
    assert!(body.contains("Jetzt anmelden"));
    assert!(body.contains(r#"href="https://partner.example.de/werden""#));
    assert!(body.contains("Jetzt Partner werden"));
    assert!(body.contains("<title>Testmarke Aktionsportal</title>"));
}

#[tokio::test]
async fn login_failed_and_unauthorized_pages_explain_and_link_back() {
    let app = spawn_app().await;
    let body = app.get("/login-failed").await.text().await.unwrap();
    assert!(body.contains("Die Anmeldung hat leider nicht funktioniert. Bitte wenden Sie sich an Ihren Account Manager."));
    assert!(body.contains(r#"href="/login""#) && body.contains("Erneut versuchen"));

    let response = app.get("/unauthorized").await;
    assert_eq!(response.status(), 200);
    let body = response.text().await.unwrap();
    assert!(body.contains("Helpdesk-Ticket"));
    assert!(body.contains("Zurück zum Portal"));
}

#[tokio::test]
async fn server_down_page_counts_down_to_the_portal_without_javascript() {
    let app = spawn_app().await;
    let response = app.get("/serverDown").await;
    assert_eq!(response.status(), 503);
    let body = response.text().await.unwrap();
    assert!(body.contains(">500<"));
    assert!(body.contains("Server nicht erreichbar"));
    assert!(body.contains("Wartungsarbeiten"));
    assert!(
        body.contains(r#"http-equiv="refresh" content="10;url=/""#),
        "{body}"
    );
    assert!(body.contains("Sie werden in 10 Sekunden zum Portal weitergeleitet."));
    assert!(body.contains(r#"data-island="Countdown""#));
}

#[tokio::test]
async fn double_opt_in_page_needs_no_login() {
    let app = spawn_app().await;
    // Without a session: the page itself answers (an unknown link: its failure text), no
    // redirect to the login.
    let response = app.get("/user/verify-double-opt-in/abc123").await;
    assert_eq!(response.status(), 404);
    let body = response.text().await.unwrap();
    assert!(body.contains("E-Mail-Adresse bestätigen"));
    assert!(body.contains("Die E-Mail konnte nicht bestätigt werden oder gefunden werden!"));
}

#[tokio::test]
async fn unknown_paths_answer_404_with_a_link_to_the_portal() {
    let app = spawn_app().await;
    for path in [
        "/gibt-es-nicht",
        "/admin/unbekannt/x",
        "/Cargo.toml",
        "/src/main.rs",
        "/user/downloads/extra",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        let body = response.text().await.unwrap();
        assert!(body.contains("Seite nicht gefunden"), "{path}");
        assert!(
            body.contains(r#"href="/""#) && body.contains("Zum Portal"),
            "{path}"
        );
        assert!(!body.contains("[package]"), "{path} must not leak files");
    }
}

#[tokio::test]
async fn unknown_api_calls_answer_json() {
    let app = spawn_app().await;
    let response = app.get("/api/gibt-es-nicht").await;
    assert_eq!(response.status(), 404);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], "not_found");
    assert!(body["message"].is_string());
}

#[tokio::test]
async fn health_check_reports_the_database() {
    let app = spawn_app().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ok");

    app.test_db.db.close().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 503);
}

#[tokio::test]
async fn header_shows_logo_customer_center_and_login() {
    let app = spawn_app().await;
    let body = app.get("/login-failed").await.text().await.unwrap();
    let logo = aktionsportal::domain::branding::logo_for(chrono::Utc::now());
    assert!(body.contains(&format!(r#"src="{logo}""#)), "logo of today");
    assert!(body.contains(r#"href="https://kunden.example.de/""#) && body.contains("Kundencenter"));
    assert!(body.contains(r#"data-island="AccountMenu""#));
    assert!(
        body.contains(r#"href="/api/auth/login""#),
        "login button without a session"
    );

    let logo_response = app.get(logo).await;
    assert_eq!(logo_response.status(), 200);
    assert_eq!(logo_response.headers()["content-type"], "image/svg+xml");
}

#[tokio::test]
async fn account_menu_carries_the_profile_and_view_links_by_role() {
    let app = spawn_app().await;
    let moderator = app.session_with_roles(&[BU_MODERATOR]).await;
    let body = app
        .get_as(&moderator, "/admin/contacts")
        .await
        .text()
        .await
        .unwrap();
    assert!(body.contains("Erika Musterfrau"));
    assert!(
        body.contains("&quot;showViewLinks&quot;:true") || body.contains(r#""showViewLinks":true"#),
        "{body}"
    );

    let customer = app.session_with_roles(&[PORTAL]).await;
    let body = app
        .get_as(&customer, "/user/downloads")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        body.contains("&quot;showViewLinks&quot;:false")
            || body.contains(r#""showViewLinks":false"#)
    );
    assert!(body.contains("Kundennummer: 100001"));
}

#[tokio::test]
async fn footer_shows_configured_social_links() {
    let app = spawn_app_with(|config| {
        config.social_instagram_url = Some("https://instagram.example/portal".into());
    })
    .await;
    let body = app.get("/login-failed").await.text().await.unwrap();
    assert!(body.contains(r#"href="https://instagram.example/portal""#));
    assert!(body.contains("bi-instagram"));
    assert!(!body.contains("bi-facebook"), "unset links are not shown");
    assert!(body.contains("Testmarke Aktionsportal"));
}

#[tokio::test]
async fn islands_build_is_referenced_and_served_with_long_cache() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".vite")).unwrap();
    std::fs::create_dir_all(dir.path().join("assets")).unwrap();
    std::fs::write(
        dir.path().join(".vite/manifest.json"),
        r#"{"src/main.tsx": {"file": "assets/main-T3st.js", "isEntry": true, "css": ["assets/main-T3st.css"]}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("assets/main-T3st.js"),
        "console.log('islands');",
    )
    .unwrap();
    std::fs::write(dir.path().join("assets/main-T3st.css"), "body{}").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "geheim").unwrap();
    let build = dir.path().to_path_buf();
    let app = spawn_app_with(move |config| config.assets_dir = build).await;

    let body = app.get("/login-failed").await.text().await.unwrap();
    assert!(
        body.contains(r#"<script type="module" src="/assets/main-T3st.js"></script>"#),
        "{body}"
    );
    assert!(body.contains(r#"<link rel="stylesheet" href="/assets/main-T3st.css""#));

    let script = app.get("/assets/main-T3st.js").await;
    assert_eq!(script.status(), 200);
    assert_eq!(
        script.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(
        script.headers()["content-type"]
            .to_str()
            .unwrap()
            .contains("javascript")
    );
    assert_eq!(script.text().await.unwrap(), "console.log('islands');");

    // The build's precompressed copies go out to clients that accept them.
    std::fs::write(dir.path().join("assets/main-T3st.js.br"), b"brotli bytes").unwrap();
    std::fs::write(dir.path().join("assets/main-T3st.js.gz"), b"gzip bytes").unwrap();
    for (accept, encoding, body) in [
        ("br, gzip", "br", "brotli bytes"),
        ("gzip", "gzip", "gzip bytes"),
    ] {
        let response = app
            .client
            .get(app.url("/assets/main-T3st.js"))
            .header("accept-encoding", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(response.headers()["content-encoding"], encoding);
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .contains("javascript")
        );
        assert_eq!(response.bytes().await.unwrap().as_ref(), body.as_bytes());
    }

    for path in [
        "/assets/../secret.txt",
        "/assets/%2e%2e/secret.txt",
        "/assets/.vite/manifest.json",
    ] {
        let response = app.get(path).await;
        assert_ne!(response.status(), 200, "{path}");
        assert!(!response.text().await.unwrap().contains("geheim"), "{path}");
    }
}

/// A content site of the WP-REST-API V2 Menus plugin on 127.0.0.1.
async fn fake_content_site() -> String {
    use axum::{Json, Router, extract::Path, routing::get};
    let app = Router::new().route(
        "/wp-json/menus/v1/menus/{id}",
        get(|Path(id): Path<String>| async move {
            let items = match id.as_str() {
                "2" => serde_json::json!([
                    { "ID": 11, "title": "Produkte", "url": "https://www.example.de/produkte/", "menu_item_parent": "0", "menu_order": 1,
                      "child_items": [ { "ID": 12, "title": "Glasfaser &amp; Strom", "url": "https://www.example.de/glasfaser/", "menu_item_parent": "11", "menu_order": 2 } ] },
                    { "ID": 20, "title": "Versteckt", "url": "https://www.example.de/versteckt/", "menu_item_parent": "0", "menu_order": 3 },
                    { "ID": 13, "title": "Kontakt", "url": "https://www.example.de/kontakt/", "menu_item_parent": "0", "menu_order": 4 }
                ]),
                _ => serde_json::json!([
                    { "ID": 31, "title": "Impressum", "url": "https://www.example.de/impressum/", "menu_item_parent": "0", "menu_order": 1 }
                ]),
            };
            Json(serde_json::json!({ "term_id": id, "items": items }))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

#[tokio::test]
async fn header_and_footer_show_the_content_site_menus() {
    let site = fake_content_site().await;
    let app = spawn_app_with(move |config| config.content_site_url = Some(site)).await;
    // Menus are fetched in the background at start; pages never wait for them.
    let mut body = String::new();
    for _ in 0..50 {
        body = app.get("/login-failed").await.text().await.unwrap();
        if body.contains("Impressum") && body.contains("Produkte") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        body.contains(r#"<a href="https://www.example.de/produkte/">Produkte</a>"#),
        "{body}"
    );
    assert!(
        body.contains("Glasfaser &amp; Strom"),
        "entity decoded once, escaped once"
    );
    assert!(body.contains("Kontakt"));
    assert!(!body.contains("Versteckt"), "hidden header item 20");
    assert!(body.contains(r#"<a href="https://www.example.de/impressum/">Impressum</a>"#));
    let produkte = body.find("Produkte").unwrap();
    let nested = body.find("Glasfaser &amp; Strom").unwrap();
    assert!(
        body[produkte..nested].contains("<ul"),
        "child items are nested under their parent"
    );
}

#[tokio::test]
async fn pages_render_at_once_when_the_content_site_is_down() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let app = spawn_app_with(move |config| config.content_site_url = Some(url)).await;
    let response = app.get("/login-failed").await;
    assert_eq!(response.status(), 200);
    let body = response.text().await.unwrap();
    assert!(body.contains("Anmeldung fehlgeschlagen"));
    assert!(!body.contains(r#"class="ap-menu""#));
}
