//! Download packages over real HTTP (spec §7 "Downloads and files"): the calls, their
//! validation texts, who sees and changes what, duplicates sharing stored files, and files
//! removed from disk when no package uses them any more.

mod common;

use aktionsportal::domain::roles::{ADMIN, BU_MODERATOR};
use serde_json::{Value, json};

use common::{TestApp, spawn_app};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";
const STROM: &str = "GS-Aktionsportal-BU-Strom";
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde";

struct Setup {
    app: TestApp,
    admin: String,
    glasfaser: i64,
    strom: i64,
    /// Lists of Glasfaser, then of Strom.
    lists: Vec<i64>,
}

async fn setup() -> Setup {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let glasfaser = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let strom = app.create_provider(&admin, "Stadtwerke Nord", STROM).await;
    let lists = vec![
        app.create_list(&admin, glasfaser, "Glasfaser Privat").await,
        app.create_list(&admin, glasfaser, "Glasfaser Gewerbe")
            .await,
        app.create_list(&admin, strom, "Strom Privat").await,
    ];
    Setup {
        app,
        admin,
        glasfaser,
        strom,
        lists,
    }
}

async fn upload_id(app: &TestApp, token: &str, name: &str, bytes: &[u8]) -> i64 {
    let (status, answer) = app.upload(token, name, bytes).await;
    assert_eq!(status, 200, "{answer}");
    answer["id"].as_i64().unwrap()
}

fn package_body(name: &str, provider: i64, lists: &[i64], uploads: &[i64]) -> Value {
    json!({
        "name": name,
        "startAt": "2026-11-01",
        "endAt": "2026-12-31",
        "ProviderId": provider,
        "listsIds": lists,
        "uploadsToInsert": uploads,
    })
}

async fn create(s: &Setup, body: Value) -> Value {
    let (status, package) = s
        .app
        .call(&s.admin, "POST", "/api/download/", Some(body))
        .await;
    assert_eq!(status, 200, "{package}");
    package
}

fn names(package: &Value) -> Vec<String> {
    package["Uploads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_package_is_created_read_edited_archived_and_deleted() {
    let s = setup().await;
    let flyer = upload_id(&s.app, &s.admin, "Flyer Süd.pdf", PDF).await;
    let banner = upload_id(&s.app, &s.admin, "Banner.png", PNG).await;
    let package = create(
        &s,
        package_body(
            "Sommeraktion Glasfaser",
            s.glasfaser,
            &[s.lists[0]],
            &[flyer, banner],
        ),
    )
    .await;
    let id = package["id"].as_i64().unwrap();
    assert_eq!(package["name"], "Sommeraktion Glasfaser");
    assert_eq!(package["ProviderId"], s.glasfaser);
    assert_eq!(package["Provider"]["name"], "Glasfaser Süd");
    assert_eq!(package["Provider"]["allowedRoles"], json!([GLASFASER]));
    assert_eq!(names(&package), ["Flyer Süd.pdf", "Banner.png"]);
    assert_eq!(
        package["Lists"],
        json!([{"id": s.lists[0], "name": "Glasfaser Privat", "active": true}])
    );
    assert_eq!(package["listsIds"], json!([s.lists[0]]));
    assert_eq!(package["archived"], false);
    assert_eq!(
        package["Uploads"][0]["path"],
        format!("/files/{flyer}/Flyer%20S%C3%BCd.pdf")
    );
    assert_eq!(
        package["Uploads"][0]["downloadName"],
        "Sommeraktion Glasfaser"
    );
    assert_eq!(package["Uploads"][0]["size"], PDF.len());
    // 1 Nov German time is 31 Oct 23:00 UTC; 31 Dec ends at 22:59:59 UTC.
    assert_eq!(package["startAt"], "2026-10-31T23:00:00Z");
    assert_eq!(package["endAt"], "2026-12-31T22:59:59Z");

    let (status, got) = s
        .app
        .call(&s.admin, "GET", &format!("/api/download/{id}"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(got, package);

    // Edit: rename and tag a file, reorder, remove one, add one, change the lists.
    let tag = aktionsportal::db::catalog::tags::create(
        &s.app.test_db.db,
        "Flyer",
        "bi bi-file-earmark-pdf",
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let poster = upload_id(&s.app, &s.admin, "Plakat A1.pdf", PDF).await;
    let (status, edited) = s
        .app
        .call(
            &s.admin,
            "PUT",
            &format!("/api/download/{id}"),
            Some(json!({
                "name": "Sommeraktion Glasfaser 2026",
                "startAt": "2026-11-02T08:00:00.000Z",
                "endAt": "2027-01-15",
                "ProviderId": s.glasfaser,
                "Uploads": [{"id": flyer, "name": "Flyer Sommer", "tagsIds": [tag.id]}],
                "uploadsToDelete": [banner],
                "uploadsToInsert": [{"id": poster, "name": "Plakat Sommer.pdf"}],
                "listsIds": [s.lists[1]],
                "uncheckedListsIds": [s.lists[0]],
            })),
        )
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["name"], "Sommeraktion Glasfaser 2026");
    assert_eq!(names(&edited), ["Flyer Sommer.pdf", "Plakat Sommer.pdf"]);
    assert_eq!(edited["Uploads"][0]["tagsIds"], json!([tag.id]));
    assert_eq!(edited["listsIds"], json!([s.lists[1]]));
    assert_eq!(edited["startAt"], "2026-11-02T08:00:00Z");
    // The banner belonged to nothing else: its row and file are gone.
    assert!(
        aktionsportal::db::catalog::uploads::get(&s.app.test_db.db, banner)
            .await
            .unwrap()
            .is_none()
    );

    let (status, answer) = s
        .app
        .call(
            &s.admin,
            "PATCH",
            &format!("/api/download/changeArchiveStatus/{id}"),
            None,
        )
        .await;
    assert_eq!((status, answer["archived"].clone()), (200, json!(true)));
    let (_, got) = s
        .app
        .call(&s.admin, "GET", &format!("/api/download/{id}"), None)
        .await;
    assert_eq!(got["archived"], true);
    assert!(got["archivedAt"].is_string());
    assert_eq!(got["badge"], "ARCHIVIERT");
    let (_, answer) = s
        .app
        .call(
            &s.admin,
            "PATCH",
            &format!("/api/download/changeArchiveStatus/{id}"),
            None,
        )
        .await;
    assert_eq!(answer["archived"], false);
    let (_, got) = s
        .app
        .call(&s.admin, "GET", &format!("/api/download/{id}"), None)
        .await;
    assert!(got["archivedAt"].is_null());

    let (status, _) = s
        .app
        .call(&s.admin, "DELETE", &format!("/api/download/{id}"), None)
        .await;
    assert_eq!(status, 200);
    let (status, _) = s
        .app
        .call(&s.admin, "GET", &format!("/api/download/{id}"), None)
        .await;
    assert_eq!(status, 404);
    assert_eq!(
        aktionsportal::db::catalog::uploads::count(&s.app.test_db.db)
            .await
            .unwrap(),
        0
    );
    assert!(
        s.app.stored_files().is_empty(),
        "files of a deleted package leave the disk"
    );
}

#[tokio::test]
async fn every_rule_of_section_5_answers_with_its_german_text() {
    let s = setup().await;
    let flyer = upload_id(&s.app, &s.admin, "Flyer.pdf", PDF).await;
    let valid = package_body("Herbstaktion", s.glasfaser, &[s.lists[0]], &[flyer]);
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"name": "Test"}),
            "Die Bezeichnung muss mindestens 5 Zeichen lang sein.",
        ),
        (
            json!({"name": "x".repeat(101)}),
            "Die Bezeichnung darf höchstens 100 Zeichen lang sein.",
        ),
        (
            json!({"ProviderId": null}),
            "Bitte wählen Sie einen Anbieter aus.",
        ),
        (
            json!({"startAt": "morgen"}),
            "Bitte geben Sie ein gültiges Startdatum an.",
        ),
        (
            json!({"endAt": null}),
            "Bitte geben Sie ein gültiges Enddatum an.",
        ),
        (
            json!({"startAt": "2027-01-01"}),
            "Das Enddatum darf nicht vor dem Startdatum liegen.",
        ),
        (
            json!({"listsIds": []}),
            "Es muss mindestens ein Kriterium hinterlegt werden",
        ),
        (
            json!({"listsIds": [s.lists[2]]}),
            "Die Kriterien müssen zum Anbieter des Downloads gehören.",
        ),
        (
            json!({"uploadsToInsert": [{"id": flyer, "name": "a.pd"}]}),
            "Der Dateiname muss mindestens 5 Zeichen lang sein.",
        ),
        (
            json!({"uploadsToInsert": [{"id": flyer, "name": "x".repeat(256)}]}),
            "Der Dateiname darf höchstens 255 Zeichen lang sein.",
        ),
        (
            json!({"uploadsToInsert": [987654]}),
            "Eine hochgeladene Datei existiert nicht mehr. Bitte laden Sie sie erneut hoch.",
        ),
        (
            json!({"ProviderId": 987654}),
            "Der gewählte Anbieter existiert nicht.",
        ),
    ];
    for (change, message) in cases {
        let mut body = valid.clone();
        for (key, value) in change.as_object().unwrap() {
            body[key] = value.clone();
        }
        let (status, answer) = s
            .app
            .call(&s.admin, "POST", "/api/download/", Some(body))
            .await;
        assert_eq!(
            (status, answer["message"].as_str()),
            (400, Some(message)),
            "{change}"
        );
        assert_eq!(answer["code"], "validation_error");
    }
    assert_eq!(
        aktionsportal::db::catalog::packages::count(&s.app.test_db.db)
            .await
            .unwrap(),
        0
    );

    // The provider of a package cannot change.
    let package = create(&s, valid.clone()).await;
    let mut body = valid;
    body["ProviderId"] = json!(s.strom);
    body["listsIds"] = json!([s.lists[2]]);
    let (status, answer) = s
        .app
        .call(
            &s.admin,
            "PUT",
            &format!("/api/download/{}", package["id"]),
            Some(body),
        )
        .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (
            400,
            Some("Der Anbieter eines Downloads kann nicht geändert werden.")
        )
    );

    // Sorting only by the columns of spec §2.
    let (status, answer) = s
        .app
        .call(&s.admin, "GET", "/api/downloads/?sortBy=password", None)
        .await;
    assert_eq!(status, 400);
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("kann nicht sortiert werden")
    );
    let (status, _) = s
        .app
        .call(&s.admin, "GET", "/api/downloads/?archived=vielleicht", None)
        .await;
    assert_eq!(status, 400);
    let (status, _) = s
        .app
        .call(&s.admin, "GET", "/api/downloads/?providerIds=[x]", None)
        .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn moderators_see_every_package_but_change_only_those_of_their_providers() {
    let s = setup().await;
    let flyer = upload_id(&s.app, &s.admin, "Flyer.pdf", PDF).await;
    let glasfaser = create(
        &s,
        package_body("Glasfaser Herbst", s.glasfaser, &[s.lists[0]], &[flyer]),
    )
    .await;
    let strom = create(
        &s,
        package_body("Strom Herbst", s.strom, &[s.lists[2]], &[]),
    )
    .await;
    let moderator = s.app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;

    let (status, page) = s.app.call(&moderator, "GET", "/api/downloads/", None).await;
    assert_eq!(status, 200);
    assert_eq!(page["count"], 2, "the admin list shows every package");
    let manage: Vec<(String, bool)> = page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["mayManage"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        manage,
        [
            ("Strom Herbst".into(), false),
            ("Glasfaser Herbst".into(), true)
        ]
    );

    let strom_id = strom["id"].as_i64().unwrap();
    for (method, path, body) in [
        (
            "PUT",
            format!("/api/download/{strom_id}"),
            Some(package_body("Strom Winter", s.strom, &[s.lists[2]], &[])),
        ),
        (
            "PATCH",
            format!("/api/download/changeArchiveStatus/{strom_id}"),
            None,
        ),
        ("DELETE", format!("/api/download/{strom_id}"), None),
        (
            "POST",
            "/api/download/duplicate".to_string(),
            Some(json!({"id": strom_id})),
        ),
        (
            "POST",
            "/api/download/".to_string(),
            Some(package_body("Strom Winter", s.strom, &[s.lists[2]], &[])),
        ),
    ] {
        let (status, answer) = s.app.call(&moderator, method, &path, body).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (403, Some("forbidden")),
            "{method} {path}"
        );
    }
    let glasfaser_id = glasfaser["id"].as_i64().unwrap();
    let (status, _) = s
        .app
        .call(
            &moderator,
            "PATCH",
            &format!("/api/download/changeArchiveStatus/{glasfaser_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    // Nothing of the refused calls happened.
    let (_, got) = s
        .app
        .call(&s.admin, "GET", &format!("/api/download/{strom_id}"), None)
        .await;
    assert_eq!(
        (got["name"].as_str(), got["archived"].as_bool()),
        (Some("Strom Herbst"), Some(false))
    );
    assert_eq!(
        aktionsportal::db::catalog::packages::count(&s.app.test_db.db)
            .await
            .unwrap(),
        2
    );
}

fn package_names(page: &Value) -> Vec<String> {
    page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_customer_sees_only_packages_of_its_lists_with_search_filters_and_sorting() {
    let s = setup().await;
    let flyer = upload_id(&s.app, &s.admin, "Flyer Glasfaser.pdf", PDF).await;
    let banner = upload_id(&s.app, &s.admin, "Banner Strom.png", PNG).await;
    let tag = aktionsportal::db::catalog::tags::create(
        &s.app.test_db.db,
        "Plakat",
        "bi bi-image",
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let mut body = package_body("Glasfaser Herbst", s.glasfaser, &[s.lists[0]], &[]);
    body["uploadsToInsert"] = json!([{"id": flyer, "tagsIds": [tag.id]}]);
    create(&s, body).await;
    create(
        &s,
        package_body("Glasfaser Gewerbe", s.glasfaser, &[s.lists[1]], &[]),
    )
    .await;
    create(
        &s,
        package_body("Strom Wechselbonus", s.strom, &[s.lists[2]], &[banner]),
    )
    .await;
    let archived = create(
        &s,
        package_body("Strom Vorjahr", s.strom, &[s.lists[2]], &[]),
    )
    .await;
    s.app
        .call(
            &s.admin,
            "PATCH",
            &format!("/api/download/changeArchiveStatus/{}", archived["id"]),
            None,
        )
        .await;

    let dealer = s
        .app
        .dealer_session(100_001, &[s.lists[0], s.lists[2]])
        .await;
    let list = |query: &str| {
        let (app, dealer) = (&s.app, dealer.clone());
        let path = format!("/api/downloads/contact/?{query}");
        async move {
            let (status, page) = app.call(&dealer, "GET", &path, None).await;
            assert_eq!(status, 200, "{path}: {page}");
            page
        }
    };
    let page = list("limit=20&offset=0").await;
    assert_eq!(
        package_names(&page),
        ["Strom Wechselbonus", "Glasfaser Herbst"]
    );
    assert_eq!(page["count"], 2);
    assert_eq!(
        package_names(&list("archived=true").await),
        ["Strom Vorjahr"]
    );
    assert_eq!(
        package_names(&list("search=herbst").await),
        ["Glasfaser Herbst"]
    );
    assert_eq!(
        package_names(&list("search=banner&searchMethode=byFilename").await),
        ["Strom Wechselbonus"]
    );
    assert_eq!(
        package_names(&list("search=banner&searchMethode=byName").await),
        Vec::<String>::new()
    );
    assert_eq!(
        package_names(&list(&format!("providerIds=[{}]", s.glasfaser)).await),
        ["Glasfaser Herbst"]
    );
    assert_eq!(
        package_names(&list(&format!("tagsIds=[{}]", tag.id)).await),
        ["Glasfaser Herbst"]
    );
    assert_eq!(
        package_names(&list("sortBy=name&sort=ASC").await),
        ["Glasfaser Herbst", "Strom Wechselbonus"]
    );
    assert_eq!(
        package_names(&list("sortBy=provider&sort=DESC").await),
        ["Strom Wechselbonus", "Glasfaser Herbst"]
    );
    let second = list("limit=1&offset=1").await;
    assert_eq!(
        (package_names(&second), second["count"].clone()),
        (vec!["Glasfaser Herbst".to_string()], json!(2))
    );
    let empty = list("offset=40").await;
    assert_eq!(
        (
            empty["content"].as_array().unwrap().len(),
            empty["count"].clone()
        ),
        (0, json!(2))
    );

    // A package outside the dealer's lists is invisible, also by id.
    let (_, gewerbe) = s
        .app
        .call(&s.admin, "GET", "/api/downloads/?search=Gewerbe", None)
        .await;
    let gewerbe_id = gewerbe["content"][0]["id"].as_i64().unwrap();
    let (status, _) = s
        .app
        .call(&dealer, "GET", &format!("/api/download/{gewerbe_id}"), None)
        .await;
    assert_eq!(status, 404);
    // A dealer without contacts sees nothing; the admin sees everything in this list.
    let stranger = s.app.dealer_session(100_099, &[]).await;
    let (_, page) = s
        .app
        .call(&stranger, "GET", "/api/downloads/contact/", None)
        .await;
    assert_eq!(page["count"], 0);
    let (_, page) = s
        .app
        .call(&s.admin, "GET", "/api/downloads/contact/", None)
        .await;
    assert_eq!(page["count"], 3);
    // Tags for the filter panel.
    let (status, tags) = s
        .app
        .call(&dealer, "GET", "/api/downloads/tags/", None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(tags[0]["icon"], "bi bi-image");
}

#[tokio::test]
async fn a_duplicate_shares_the_stored_files_and_moves_to_the_next_month() {
    let s = setup().await;
    let flyer = upload_id(&s.app, &s.admin, "Flyer.pdf", PDF).await;
    let original = create(
        &s,
        package_body(
            "Winteraktion",
            s.glasfaser,
            &[s.lists[0], s.lists[1]],
            &[flyer],
        ),
    )
    .await;
    let files_before = s.app.stored_files();
    let (status, copy) = s
        .app
        .call(
            &s.admin,
            "POST",
            "/api/download/duplicate",
            Some(json!({"id": original["id"]})),
        )
        .await;
    assert_eq!(status, 200, "{copy}");
    assert_eq!(copy["name"], "Winteraktion (Kopie)");
    assert_ne!(copy["id"], original["id"]);
    assert_eq!(copy["listsIds"], original["listsIds"]);
    assert_eq!(copy["Uploads"][0]["id"], flyer, "the same stored file");
    assert_eq!(s.app.stored_files(), files_before, "no bytes were copied");
    // The next month, first to last German day.
    let today = aktionsportal::domain::time::berlin_date(chrono::Utc::now());
    let (first, last) = aktionsportal::domain::badges::next_month_period(today);
    let start = aktionsportal::domain::time::berlin_start_of_day(first);
    let end = aktionsportal::domain::time::berlin_end_of_day(last);
    assert_eq!(copy["startAt"], json!(start));
    assert_eq!(copy["endAt"], json!(end));

    // A rename in the copy leaves the original alone.
    let copy_id = copy["id"].as_i64().unwrap();
    let mut body = package_body("Winteraktion (Kopie)", s.glasfaser, &[s.lists[0]], &[]);
    body["Uploads"] = json!([{"id": flyer, "name": "Flyer Kopie.pdf"}]);
    let (status, _) = s
        .app
        .call(
            &s.admin,
            "PUT",
            &format!("/api/download/{copy_id}"),
            Some(body),
        )
        .await;
    assert_eq!(status, 200);
    let (_, got) = s
        .app
        .call(
            &s.admin,
            "GET",
            &format!("/api/download/{}", original["id"]),
            None,
        )
        .await;
    assert_eq!(names(&got), ["Flyer.pdf"]);

    // Deleting the original keeps the file the copy still uses; deleting the copy removes it.
    s.app
        .call(
            &s.admin,
            "DELETE",
            &format!("/api/download/{}", original["id"]),
            None,
        )
        .await;
    assert_eq!(s.app.stored_files().len(), 1);
    s.app
        .call(
            &s.admin,
            "DELETE",
            &format!("/api/download/{copy_id}"),
            None,
        )
        .await;
    assert!(s.app.stored_files().is_empty());
}

#[tokio::test]
async fn the_api_sends_the_badge_of_each_package_and_file() {
    let s = setup().await;
    let flyer = upload_id(&s.app, &s.admin, "Flyer.pdf", PDF).await;
    let today = aktionsportal::domain::time::berlin_date(chrono::Utc::now());
    let day = |offset: i64| {
        (today + chrono::Duration::days(offset))
            .format("%Y-%m-%d")
            .to_string()
    };
    let mut expected = Vec::new();
    for (name, start, end, badge) in [
        ("Beendete Aktion", -30, -1, json!("BEENDET")),
        ("Bald endende Aktion", -30, 3, json!("LÄUFT IN KÜRZE AB")),
        ("Bevorstehende Aktion", 5, 60, json!("BEVORSTEHENDE")),
        ("Neue Aktion", -2, 60, json!("NEU")),
        ("Laufende Aktion", -30, 60, json!(null)),
    ] {
        let mut body = package_body(name, s.glasfaser, &[s.lists[0]], &[flyer]);
        body["startAt"] = json!(day(start));
        body["endAt"] = json!(day(end));
        create(&s, body).await;
        expected.push((name.to_string(), badge));
    }
    let (_, page) = s
        .app
        .call(&s.admin, "GET", "/api/downloads/?sort=ASC", None)
        .await;
    let got: Vec<(String, Value)> = page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["badge"].clone()))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(
        page["content"][0]["Uploads"][0]["badge"], "NEU",
        "a file added today is new"
    );
}

#[tokio::test]
async fn the_customer_page_lists_the_packages_without_javascript() {
    let s = setup().await;
    let flyer = upload_id(&s.app, &s.admin, "Flyer Süd.pdf", PDF).await;
    let package = create(
        &s,
        package_body("Glasfaser Herbst", s.glasfaser, &[s.lists[0]], &[flyer]),
    )
    .await;
    create(
        &s,
        package_body("Strom Herbst", s.strom, &[s.lists[2]], &[]),
    )
    .await;
    let dealer = s.app.dealer_session(100_001, &[s.lists[0]]).await;
    let page = s.app.get_as(&dealer, "/user/downloads").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("Glasfaser Herbst"), "{html}");
    assert!(!html.contains("Strom Herbst"), "not on the dealer's lists");
    assert!(
        html.contains(&format!("href=\"/files/{flyer}/Flyer%20S%C3%BCd.pdf\"")),
        "{html}"
    );
    assert!(html.contains(&format!("href=\"/api/download/{}/zip\"", package["id"])));
    assert!(html.contains(">1/1<"), "loaded/total");
    assert!(html.contains("Keine weiteren Downloads vorhanden."));
    assert!(
        html.contains(r#"data-island="CustomerDownloads""#),
        "the island takes over"
    );

    // The filter form without JavaScript sends one `providerIds` per checked box.
    let filtered = format!(
        "/user/downloads?search=Herbst&searchMethode=byName&providerIds={}&providerIds={}",
        s.glasfaser, s.strom
    );
    let html = s.app.get_as(&dealer, &filtered).await.text().await.unwrap();
    assert!(html.contains("Glasfaser Herbst"), "{html}");
    assert!(
        html.contains(r#">1<span class="visually-hidden"> aktiv"#),
        "one active filter: {html}"
    );
    let html = s
        .app
        .get_as(&dealer, "/user/downloads?search=Winter")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("Keine Downloads gefunden"), "{html}");
    assert!(!html.contains("Noch keine Download-Pakete"), "{html}");

    let stranger = s.app.dealer_session(100_099, &[]).await;
    let html = s
        .app
        .get_as(&stranger, "/user/downloads")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("Noch keine Download-Pakete"), "{html}");
}

#[tokio::test]
async fn deleting_a_provider_removes_its_files_that_nothing_else_uses() {
    let s = setup().await;
    let flyer = upload_id(&s.app, &s.admin, "Flyer.pdf", PDF).await;
    let shared = upload_id(&s.app, &s.admin, "Gemeinsam.pdf", PDF).await;
    create(
        &s,
        package_body(
            "Glasfaser Herbst",
            s.glasfaser,
            &[s.lists[0]],
            &[flyer, shared],
        ),
    )
    .await;
    create(
        &s,
        package_body("Strom Herbst", s.strom, &[s.lists[2]], &[shared]),
    )
    .await;
    assert_eq!(s.app.stored_files().len(), 2);
    let (status, _) = s
        .app
        .call(
            &s.admin,
            "DELETE",
            &format!("/api/providers/{}/", s.glasfaser),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let db = &s.app.test_db.db;
    assert!(
        aktionsportal::db::catalog::uploads::get(db, flyer)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        aktionsportal::db::catalog::uploads::get(db, shared)
            .await
            .unwrap()
            .is_some(),
        "still in a package"
    );
    assert_eq!(s.app.stored_files().len(), 1);
    let (_, page) = s.app.call(&s.admin, "GET", "/api/downloads/", None).await;
    assert_eq!(
        page["count"], 1,
        "the total is counted anew after the change"
    );
}

/// Moves everything that happened so far three hours into the past: the dealer's visits and
/// when files were added.
async fn three_hours_pass(app: &TestApp) {
    let past = chrono::Utc::now() - chrono::Duration::hours(3);
    aktionsportal::db_run!(&app.test_db.db, pool => {
        sqlx::query("update customer_visits set last_seen_at = $1, previous_visit_at = null")
            .bind(past)
            .execute(pool)
            .await
            .map(drop)
            .unwrap();
        sqlx::query("update download_uploads set updated_at = $1")
            .bind(past)
            .execute(pool)
            .await
            .map(drop)
            .unwrap()
    });
}

#[tokio::test]
async fn what_is_new_since_the_last_visit_is_marked_per_user_and_filtered() {
    let s = setup().await;
    let app = &s.app;
    let list = s.lists[0];
    let old_file = upload_id(app, &s.admin, "Flyer Alt.pdf", PDF).await;
    let changed = create(
        &s,
        package_body("Paket mit neuer Datei", s.glasfaser, &[list], &[old_file]),
    )
    .await;
    let unchanged = create(
        &s,
        package_body("Paket ohne Neues", s.glasfaser, &[list], &[]),
    )
    .await;
    let dealer = app.dealer_session(100_002, &[list]).await;
    let other = app.dealer_session(100_003, &[list]).await;

    // A first visit: nothing is "new since the last visit".
    assert_eq!(app.get_as(&dealer, "/user/downloads").await.status(), 200);
    let (_, page) = app
        .call(&dealer, "GET", "/api/downloads/contact/", None)
        .await;
    assert_eq!(page["newSinceVisit"], Value::Null);
    assert!(
        page["content"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["newSinceVisit"] == false)
    );

    // Hours later: a package has started, and a package got a new file.
    three_hours_pass(app).await;
    let started = (chrono::Utc::now() - chrono::Duration::hours(1)).to_rfc3339();
    let mut body = package_body("Neues Paket", s.glasfaser, &[list], &[]);
    body["startAt"] = json!(started);
    let new = create(&s, body).await;
    let new_file = upload_id(app, &s.admin, "Flyer Neu.pdf", PDF).await;
    let id = changed["id"].as_i64().unwrap();
    let mut edit = package_body("Paket mit neuer Datei", s.glasfaser, &[list], &[new_file]);
    edit["Uploads"] = json!([old_file]);
    let (status, answer) = app
        .call(&s.admin, "PUT", &format!("/api/download/{id}"), Some(edit))
        .await;
    assert_eq!(status, 200, "{answer}");

    // The next visit: both are marked, with the new file; the unchanged one is not.
    let html = app
        .get_as(&dealer, "/user/downloads")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("Neu seit Ihrem letzten Besuch"),
        "the page marks them"
    );
    assert!(
        html.contains("data-testid=\"new-since-chip\""),
        "and offers the chip"
    );
    let (_, page) = app
        .call(&dealer, "GET", "/api/downloads/contact/", None)
        .await;
    assert_eq!(
        page["newSinceVisit"]["count"], 2,
        "{}",
        page["newSinceVisit"]
    );
    let by_id = |id: &Value| {
        page["content"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == *id)
            .cloned()
            .unwrap()
    };
    assert_eq!(by_id(&new["id"])["newSinceVisit"], true);
    let with_file = by_id(&changed["id"]);
    assert_eq!(with_file["newSinceVisit"], true);
    let flags: Vec<(i64, bool)> = with_file["Uploads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["id"].as_i64().unwrap(),
                f["newSinceVisit"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(flags, vec![(old_file, false), (new_file, true)]);
    assert_eq!(by_id(&unchanged["id"])["newSinceVisit"], false);
    // The filter shows only those two; the spec's NEU badge is untouched by it.
    let (_, only_new) = app
        .call(
            &dealer,
            "GET",
            "/api/downloads/contact/?newSinceVisit=true",
            None,
        )
        .await;
    let mut ids: Vec<i64> = only_new["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    let mut expected = vec![new["id"].as_i64().unwrap(), id];
    expected.sort_unstable();
    assert_eq!((ids, only_new["count"].as_i64().unwrap()), (expected, 2));
    let (status, _) = app
        .call(
            &dealer,
            "GET",
            "/api/downloads/contact/?newSinceVisit=vielleicht",
            None,
        )
        .await;
    assert_eq!(status, 400);

    // Per user: the other dealer has had no visit yet, and the admin list has no such thing.
    let (_, page) = app
        .call(&other, "GET", "/api/downloads/contact/", None)
        .await;
    assert_eq!(page["newSinceVisit"], Value::Null);
    let (_, only_new) = app
        .call(
            &other,
            "GET",
            "/api/downloads/contact/?newSinceVisit=true",
            None,
        )
        .await;
    assert_eq!(only_new["count"], 0, "nothing is new on a first visit");
    let (_, admin_page) = app.call(&s.admin, "GET", "/api/downloads/", None).await;
    assert_eq!(admin_page["newSinceVisit"], Value::Null);
}

/// The tags of all files are checked together: an unknown one among many files refuses the
/// whole package, with the German message, and nothing is created.
#[tokio::test]
async fn an_unknown_tag_among_the_files_refuses_the_package() {
    let s = setup().await;
    let tag = aktionsportal::db::catalog::tags::create(
        &s.app.test_db.db,
        "Flyer",
        "bi bi-file-earmark-pdf",
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let first = upload_id(&s.app, &s.admin, "Flyer Herbst.pdf", PDF).await;
    let second = upload_id(&s.app, &s.admin, "Plakat Herbst.pdf", PDF).await;
    let mut body = package_body("Herbstaktion", s.glasfaser, &s.lists[..1], &[]);
    body["uploadsToInsert"] = json!([
        {"id": first, "tagsIds": [tag.id]},
        {"id": second, "tagsIds": [tag.id, 987_654]},
    ]);
    let (status, answer) = s
        .app
        .call(&s.admin, "POST", "/api/download/", Some(body.clone()))
        .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (400, Some("Ein gewählter Tag existiert nicht."))
    );
    let (_, page) = s.app.call(&s.admin, "GET", "/api/downloads/", None).await;
    assert_eq!(page["count"], 0, "nothing was created");
    body["uploadsToInsert"][1]["tagsIds"] = json!([tag.id]);
    let package = create(&s, body).await;
    assert_eq!(package["Uploads"][1]["tagsIds"], json!([tag.id]));
}
