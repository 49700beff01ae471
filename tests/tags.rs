//! Tag management (issue 25): `/api/tags` creates, renames and deletes the tags that the
//! download form puts on files and the customer page filters by; names are unique without
//! regard to case, icons are a picked Bootstrap icon or a small image, and deleting a tag takes
//! it off every file.

mod common;

use base64::Engine;
use common::*;
use serde_json::json;

const ADMIN: &str = "GS-Aktionsportal-Admin";
const MODERATOR: &str = "GS-Aktionsportal-BU-Moderator";
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde";

fn png_url(bytes: &[u8]) -> String {
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

async fn names(app: &TestApp, admin: &str) -> Vec<(String, i64)> {
    let (status, tags) = app.call(admin, "GET", "/api/tags", None).await;
    assert_eq!(status, 200, "{tags}");
    tags.as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_owned(),
                t["uses"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn an_admin_manages_tags_that_packages_and_the_customer_filter_use() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;

    // Create: trimmed, any letter case unique, icons checked.
    let (status, flyer) = app
        .call(
            &admin,
            "POST",
            "/api/tags",
            Some(json!({"name": "  Flyer ", "icon": "bi bi-file-earmark-pdf"})),
        )
        .await;
    assert_eq!(status, 201, "{flyer}");
    assert_eq!(flyer["name"], "Flyer");
    assert_eq!(flyer["uses"], 0);
    let flyer_id = flyer["id"].as_i64().unwrap();
    let (status, image) = app
        .call(
            &admin,
            "POST",
            "/api/tags",
            Some(json!({"name": "Plakat", "icon": png_url(PNG)})),
        )
        .await;
    assert_eq!(status, 201, "{image}");
    assert_eq!(image["icon"], png_url(PNG));
    for (body, status, message) in [
        (
            json!({"name": "FLYER", "icon": "bi bi-star"}),
            409,
            "Einen Tag „Flyer“ gibt es bereits.",
        ),
        (
            json!({"name": "F", "icon": "bi bi-star"}),
            400,
            "Der Name des Tags muss mindestens 2 Zeichen lang sein.",
        ),
        (
            json!({"name": "x".repeat(41), "icon": "bi bi-star"}),
            400,
            "Der Name des Tags darf höchstens 40 Zeichen lang sein.",
        ),
        (
            json!({"name": "Neu", "icon": "bi bi-gibt-es-nicht"}),
            400,
            "Bitte wählen Sie ein Symbol aus der Liste.",
        ),
        (
            json!({"name": "Neu", "icon": "javascript:alert(1)"}),
            400,
            "Bitte wählen Sie ein Symbol oder laden Sie ein Bild (PNG, JPEG, GIF oder WebP) hoch.",
        ),
        (
            json!({"name": "Neu", "icon": "data:image/svg+xml;base64,PHN2Zy8+"}),
            400,
            "Das Bild muss eine PNG-, JPEG-, GIF- oder WebP-Datei sein.",
        ),
        (
            json!({"name": "Neu", "icon": png_url(&[PNG, &vec![0u8; 17 * 1024]].concat())}),
            400,
            "Das Bild darf höchstens 16 KB groß sein.",
        ),
        (json!({"name": "Neu"}), 400, ""),
    ] {
        let (got, answer) = app
            .call(&admin, "POST", "/api/tags", Some(body.clone()))
            .await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(message),
            "{answer}"
        );
    }
    assert_eq!(
        names(&app, &admin).await,
        [("Flyer".to_owned(), 0), ("Plakat".to_owned(), 0)]
    );

    // The download form puts it on a file; the customer filter finds the package by it.
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", "GS-Aktionsportal-BU-Glasfaser")
        .await;
    let list = app.create_list(&admin, provider, "Neukunden").await;
    let (status, upload) = app.upload(&admin, "Flyer Herbst.pdf", PDF).await;
    assert_eq!(status, 200, "{upload}");
    let (status, package) = app
        .call(
            &admin,
            "POST",
            "/api/download/",
            Some(
                json!({"name": "Herbstaktion", "startAt": "2026-01-01", "endAt": "2030-12-31",
                        "ProviderId": provider, "listsIds": [list],
                        "uploadsToInsert": [{"id": upload["id"], "tagsIds": [flyer_id]}]}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let dealer = app.dealer_session(100_001, &[list]).await;
    let (_, tags) = app.call(&dealer, "GET", "/api/downloads/tags/", None).await;
    assert!(
        tags.as_array().unwrap().iter().any(|t| t["id"] == flyer_id),
        "{tags}"
    );
    let filtered = |dealer: String| {
        let app = &app;
        async move {
            let (status, page) = app
                .call(
                    &dealer,
                    "GET",
                    &format!("/api/downloads/contact/?tagsIds=[{flyer_id}]"),
                    None,
                )
                .await;
            assert_eq!(status, 200, "{page}");
            page["count"].as_i64().unwrap()
        }
    };
    assert_eq!(filtered(dealer.clone()).await, 1);
    assert_eq!(names(&app, &admin).await[0], ("Flyer".to_owned(), 1));

    // Rename (the same name in other letters is its own), keep the icon.
    let (status, renamed) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/tags/{flyer_id}"),
            Some(json!({"name": "FLYER", "icon": "bi bi-file-earmark-pdf"})),
        )
        .await;
    assert_eq!(status, 200, "{renamed}");
    assert_eq!(renamed["name"], "FLYER");
    assert_eq!(renamed["uses"], 1);
    let (status, _) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/tags/{flyer_id}"),
            Some(json!({"name": "plakat", "icon": "bi bi-star"})),
        )
        .await;
    assert_eq!(status, 409);
    // A tag from before this screen keeps an icon the picker does not offer.
    let legacy = aktionsportal::db::catalog::tags::create(
        &app.test_db.db,
        "Alt",
        "https://example.de/alt.png",
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let (status, kept) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/tags/{}", legacy.id),
            Some(json!({"name": "Älter", "icon": "https://example.de/alt.png"})),
        )
        .await;
    assert_eq!(status, 200, "{kept}");
    let (status, _) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/tags/{}", legacy.id),
            Some(json!({"name": "Älter", "icon": "https://example.de/anders.png"})),
        )
        .await;
    assert_eq!(status, 400);

    // Delete: the tag leaves the file; the package stays.
    let (status, removed) = app
        .call(&admin, "DELETE", &format!("/api/tags/{flyer_id}"), None)
        .await;
    assert_eq!(status, 200, "{removed}");
    assert_eq!(
        removed,
        json!({"message": "Erfolgreich entfernt", "id": flyer_id})
    );
    let (status, edited) = app
        .call(
            &admin,
            "GET",
            &format!("/api/download/{}", package["id"]),
            None,
        )
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["Uploads"][0]["tagsIds"], json!([]));
    let (_, tags) = app.call(&dealer, "GET", "/api/downloads/tags/", None).await;
    assert!(!tags.as_array().unwrap().iter().any(|t| t["id"] == flyer_id));
    for (method, path) in [
        ("DELETE", format!("/api/tags/{flyer_id}")),
        ("PUT", format!("/api/tags/{flyer_id}")),
    ] {
        let body = (method == "PUT").then(|| json!({"name": "Wieder", "icon": "bi bi-star"}));
        let (status, _) = app.call(&admin, method, &path, body).await;
        assert_eq!(status, 404, "{method} {path}");
    }

    // Each change is in the Protokoll, an image by its type only.
    let (_, log) = app
        .call(&admin, "GET", "/api/audit?entity=tag&limit=10", None)
        .await;
    let actions: Vec<&str> = log["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions.iter().filter(|a| **a == "create").count(),
        2,
        "{actions:?}"
    );
    assert!(actions.contains(&"update") && actions.contains(&"delete"));
    assert!(!log.to_string().contains("base64"), "{log}");

    // Nobody else manages tags.
    let moderator = app.session_with_roles(&[MODERATOR]).await;
    let (status, _) = app.call(&moderator, "GET", "/api/tags", None).await;
    assert_eq!(status, 403);
    let page = app.get_as(&admin, "/admin/tags").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("data-island=\"AdminTags\""),
        "the screen mounts its island"
    );
    assert!(
        html.contains(r#"href="/admin/tags""#),
        "the admin menu names it"
    );
}
