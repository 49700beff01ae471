//! Every route of spec §2 over real HTTP: redirects, the guard, German texts, the title,
//! status codes, and the static and islands files the pages reference.

mod common;

use aktionsportal::domain::roles::{ADMIN, BU_DOI, BU_MODERATOR, DEVELOPER, PORTAL, PROVISION};
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
        // Without a user: the login, which then picks the start page of the roles.
        ("/", "/login"),
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
    let list = aktionsportal::db::marketing::lists::create(
        &app.test_db.db,
        &aktionsportal::db::marketing::lists::NewListRecord {
            provider_id: provider,
            name: "Flyer Herbst".into(),
            brevo_list_id: None,
            active: true,
        },
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let package = aktionsportal::db::catalog::packages::create(
        &app.test_db.db,
        &aktionsportal::db::catalog::packages::NewPackage {
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

/// The account menu's links as the island's props carry them (HTML-escaped JSON).
fn menu_links(body: &str) -> Vec<String> {
    let props = body
        .split("data-island=\"AccountMenu\"")
        .nth(1)
        .and_then(|rest| rest.split("data-props=\"").nth(1))
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no account menu in {body}"))
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    let props: serde_json::Value = serde_json::from_str(&props).expect("props");
    props["links"]
        .as_array()
        .expect("links")
        .iter()
        .map(|link| {
            format!(
                "{} {}",
                link["label"].as_str().unwrap(),
                link["href"].as_str().unwrap()
            )
        })
        .collect()
}

#[tokio::test]
async fn account_menu_carries_the_profile_and_a_link_to_each_area_of_the_role() {
    let app = spawn_app().await;
    let moderator = app.session_with_roles(&[BU_MODERATOR]).await;
    let body = app
        .get_as(&moderator, "/admin/contacts")
        .await
        .text()
        .await
        .unwrap();
    assert!(body.contains("Erika Musterfrau"));
    assert_eq!(
        menu_links(&body),
        [
            "Kundenansicht /user/downloads",
            "Adminansicht /admin/contacts",
            "Kontakte bearbeiten /admin/contact/edit"
        ]
    );
    // Without JavaScript the same links.
    assert!(
        body.contains(r#"href="/admin/contact/edit""#)
            && body.contains("></i>Kontakte bearbeiten</a>")
    );

    let customer = app.session_with_roles(&[PORTAL]).await;
    let body = app
        .get_as(&customer, "/user/downloads")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(menu_links(&body), ["Kundenansicht /user/downloads"]);
    assert!(body.contains("Kundennummer: 100001"));

    let doi = app.session_with_roles(&[BU_DOI]).await;
    let body = app
        .get_as(&doi, "/admin/contact/edit")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(
        menu_links(&body),
        ["Kontakte bearbeiten /admin/contact/edit"]
    );

    // Spec §2: the developer sees both views' links.
    let developer = app.session_with_roles(&[DEVELOPER]).await;
    let body = app
        .get_as(&developer, "/unauthorized")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(
        menu_links(&body),
        [
            "Kundenansicht /user/downloads",
            "Adminansicht /admin/contacts"
        ]
    );
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

/// Follows the redirects of a GET as the browser of `token` would; the paths visited (the
/// first is `path`) and the status of the last answer. Stops at a page seen before (a circle).
async fn follow(app: &common::TestApp, token: &str, path: &str) -> (Vec<String>, u16) {
    let mut visited = vec![path.to_string()];
    loop {
        let response = app.get_as(token, visited.last().unwrap()).await;
        if !response.status().is_redirection() {
            return (visited, response.status().as_u16());
        }
        let location = response.headers()["location"].to_str().unwrap().to_string();
        let circle = visited.contains(&location);
        visited.push(location);
        if circle || visited.len() > 8 {
            return (visited, response.status().as_u16());
        }
    }
}

/// The way back link of /unauthorized.
fn way_back(body: &str) -> String {
    body.split(r#"data-testid="unauthorized-back""#)
        .next()
        .and_then(|before| before.rsplit("href=\"").next())
        .and_then(|rest| rest.split('"').next())
        .expect("a way back")
        .to_string()
}

/// Every combination of the portal's roles (and the permission table's users, with a
/// provider role): `/` ends on a page the user may use, and /unauthorized leads back to it.
/// Only a user without any role that opens a page ends on /unauthorized; its way back signs
/// out (the login page answers), never back into /unauthorized.
#[tokio::test]
async fn every_role_combination_lands_on_its_start_page_and_finds_its_way_back() {
    use common::permission_table::{PROVIDER_ROLE, WHO, Who};
    let app = spawn_app().await;
    const ROLES: [&str; 6] = [ADMIN, BU_MODERATOR, BU_DOI, PORTAL, PROVISION, DEVELOPER];
    let mut combinations: Vec<Vec<&str>> = (0..1u32 << ROLES.len())
        .map(|bits| {
            ROLES
                .iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .map(|(_, role)| *role)
                .collect()
        })
        .collect();
    for who in WHO {
        if let Who::Roles(roles) = who {
            combinations.push(roles.to_vec());
        }
    }
    combinations.push(vec![BU_DOI, PROVIDER_ROLE]);
    for roles in combinations {
        let token = app.session_with_roles(&roles).await;
        let holds = |role: &str| roles.contains(&role);
        let expected = if [ADMIN, BU_MODERATOR, PORTAL, PROVISION]
            .iter()
            .any(|r| holds(r))
        {
            "/user/downloads"
        } else if holds(BU_DOI) {
            "/admin/contact/edit"
        } else {
            "/unauthorized"
        };
        let (visited, status) = follow(&app, &token, "/").await;
        assert_eq!(status, 200, "{roles:?}: {visited:?}");
        assert_eq!(visited.last().unwrap(), expected, "{roles:?}: {visited:?}");

        let body = app
            .get_as(&token, "/unauthorized")
            .await
            .text()
            .await
            .unwrap();
        let back = way_back(&body);
        if expected == "/unauthorized" {
            assert_eq!(back, "/api/auth/logout", "{roles:?}");
            assert!(
                body.contains("Mit einem anderen Konto anmelden"),
                "{roles:?}"
            );
        } else {
            assert_eq!(back, expected, "{roles:?}");
        }
        let (visited, status) = follow(&app, &token, &back).await;
        assert_eq!(status, 200, "{roles:?}: way back {visited:?}");
        assert!(
            !visited.iter().any(|p| p == "/unauthorized"),
            "{roles:?}: the way back leads in a circle: {visited:?}"
        );
    }
    // Without a user the way back is the portal, which asks to sign in.
    let body = app.get("/unauthorized").await.text().await.unwrap();
    assert_eq!(way_back(&body), "/");
    assert_redirect(&app.get("/").await, "/login");
}

/// Writes an entry of the contact editor's save for customer `number` by `actor`.
async fn group_changed(app: &common::TestApp, actor: &str, number: i64) {
    use aktionsportal::domain::audit::{Action, Actor, Changes, Entity, Entry};
    let entry = Entry::new(
        &Actor::Person(actor.into()),
        Action::Update,
        Entity::CustomerGroup,
        Some(number),
    )
    .with_changes(Changes::none().field("listsAdded", serde_json::Value::Null, [1]));
    aktionsportal::db::insight::audit::record_alone(&app.test_db.db, &entry)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_contact_start_page_opens_known_customers_and_lists_the_last_changed_groups() {
    let app = spawn_app().await;
    let db = &app.test_db.db;
    let doi = app.session_with_roles(&[BU_DOI]).await;

    let page = app.get_as(&doi, "/admin/contact/edit").await;
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["cache-control"], "no-store");
    let body = page.text().await.unwrap();
    assert!(body.contains(">Kontakte bearbeiten</h1>"), "{body}");
    let form = body
        .split("<form")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .expect("a form");
    assert!(
        form.contains(r#"method="get""#) && form.contains(r#"action="/admin/contact/edit""#),
        "{form}"
    );
    assert!(body.contains(r#"name="customerNumber""#));
    assert!(body.contains("Sie haben noch keine Kundengruppe bearbeitet."));
    // BU-DOI sees no admin menu here either.
    assert!(!body.contains("data-island=\"AdminMenu\""));

    // A known customer (it has a company) opens its editor, spaces around it ignored.
    aktionsportal::db::contacts::upsert_company(db, 100_003, "Elektro Schmidt GmbH")
        .await
        .unwrap();
    assert_redirect(
        &app.get_as(&doi, "/admin/contact/edit?customerNumber=+100003+")
            .await,
        "/admin/contact/edit/100003",
    );
    // Its editor leads back here, not to the contacts list BU-DOI may not open.
    let editor = app
        .get_as(&doi, "/admin/contact/edit/100003")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        editor.contains("&quot;backPath&quot;:&quot;/admin/contact/edit&quot;")
            || editor.contains(r#""backPath":"/admin/contact/edit""#),
        "{editor}"
    );

    // An unknown number and text that is no number stay here with a German message.
    for (typed, message) in [
        ("424242", "Die Kundennummer 424242 ist nicht bekannt"),
        ("Schmidt", "„Schmidt“ ist keine Kundennummer."),
        ("", "Bitte geben Sie eine Kundennummer ein."),
    ] {
        let response = app
            .get_as(&doi, &format!("/admin/contact/edit?customerNumber={typed}"))
            .await;
        assert_eq!(response.status(), 200, "{typed}");
        let body = response.text().await.unwrap();
        assert!(body.contains(message), "{typed}: {body}");
        assert!(body.contains(r#"aria-invalid="true""#), "{typed}");
        assert!(body.contains(&format!(r#"value="{typed}""#)), "{typed}");
        // Only a number can still become a new customer group, on purpose.
        assert_eq!(
            body.contains(r#"href="/admin/contact/edit/424242""#),
            typed == "424242",
            "{typed}"
        );
    }

    // The groups this user changed last: newest first, each once, named, at most 10; the
    // changes of others are not listed.
    for number in 200_001..=200_012 {
        group_changed(&app, "erika@example.de", number).await;
    }
    group_changed(&app, "erika@example.de", 100_003).await;
    group_changed(&app, "jemand@example.de", 300_001).await;
    let body = app
        .get_as(&doi, "/admin/contact/edit")
        .await
        .text()
        .await
        .unwrap();
    let listed: Vec<&str> = body
        .split(r#"href="/admin/contact/edit/"#)
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert_eq!(
        listed,
        [
            "100003", "200012", "200011", "200010", "200009", "200008", "200007", "200006",
            "200005", "200004"
        ]
    );
    assert!(body.contains("Elektro Schmidt GmbH"));
    assert!(body.contains("Kundennummer 100003 · zuletzt geändert am "));
    assert!(body.contains("Firma nicht mehr vorhanden"));

    // Who may not open the contact editor learns nothing here.
    let customer = app.session_with_roles(&[PORTAL]).await;
    assert_redirect(
        &app.get_as(&customer, "/admin/contact/edit?customerNumber=100003")
            .await,
        "/unauthorized",
    );
    assert_redirect(
        &app.get("/admin/contact/edit").await,
        "/login?next=%2Fadmin%2Fcontact%2Fedit",
    );
}
