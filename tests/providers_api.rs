//! Providers, marketing folders, lists (criteria) and logo uploads over real HTTP, in local
//! mode and against the fake Brevo, including Brevo failing half-way.

mod common;

use aktionsportal::db;
use aktionsportal::domain::roles::{ADMIN, BU_MODERATOR, PORTAL};
use common::fake_brevo::FakeBrevo;
use common::{TestApp, spawn_app};
use serde_json::{Value, json};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

async fn spawn_with_brevo() -> (TestApp, FakeBrevo) {
    common::spawn_app_with_brevo(250).await
}

fn provider_body(name: &str) -> Value {
    json!({
        "name": name,
        "allowedRoles": [GLASFASER],
        "brevoActiveFolderId": "auto",
        "brevoInactiveFolderId": "auto",
        "uploadId": null
    })
}

async fn create_provider(app: &TestApp, admin: &str, name: &str) -> Value {
    let (status, provider) = app
        .call(admin, "POST", "/api/providers/", Some(provider_body(name)))
        .await;
    assert_eq!(status, 200, "{provider}");
    provider
}

#[tokio::test]
async fn an_admin_creates_a_provider_with_automatic_folders_locally() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await;
    assert_eq!(provider["name"], "Glasfaser Süd");
    assert_eq!(provider["allowedRoles"], json!([GLASFASER]));
    let (active, inactive) = (
        provider["brevoActiveFolderId"].as_i64().unwrap(),
        provider["brevoInactiveFolderId"].as_i64().unwrap(),
    );
    assert_ne!(active, inactive);

    let (status, folders) = app
        .call(&admin, "GET", "/api/brevo/folders/?limit=50&offset=0", None)
        .await;
    assert_eq!(status, 200);
    let names: Vec<&str> = folders["folders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"Glasfaser Süd (aktiv)") && names.contains(&"Glasfaser Süd (inaktiv)"),
        "{names:?}"
    );

    let (status, page) = app
        .call(&admin, "GET", "/api/providers/?limit=20&offset=0", None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(page["count"], 1);
    assert_eq!(page["content"][0]["id"], provider["id"]);

    // Roles may arrive as a JSON string; existing folders are chosen by id.
    let body = json!({
        "name": "Energie Plus", "allowedRoles": "[\"GS-Aktionsportal-BU-Energie\"]",
        "brevoActiveFolderId": active, "brevoInactiveFolderId": inactive.to_string()
    });
    let (status, second) = app
        .call(&admin, "POST", "/api/providers/", Some(body))
        .await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(
        second["allowedRoles"],
        json!(["GS-Aktionsportal-BU-Energie"])
    );
    assert_eq!(second["brevoActiveFolderId"], active);
}

#[tokio::test]
async fn provider_input_is_validated_with_the_specs_messages() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    create_provider(&app, &admin, "Glasfaser Süd").await;
    let cases = [
        (
            json!({"name": "G", "allowedRoles": ["A"], "brevoActiveFolderId": "auto", "brevoInactiveFolderId": "auto"}),
            "Der Name muss mindestens 2 Zeichen lang sein.",
        ),
        (
            json!({"name": "x".repeat(26), "allowedRoles": ["A"], "brevoActiveFolderId": "auto", "brevoInactiveFolderId": "auto"}),
            "Der Name darf höchstens 25 Zeichen lang sein.",
        ),
        (
            json!({"name": "Neu", "allowedRoles": [], "brevoActiveFolderId": "auto", "brevoInactiveFolderId": "auto"}),
            "Es muss mindestens eine Gruppe eingetragen werden!",
        ),
        (
            json!({"name": "Neu", "allowedRoles": ["A", "A"], "brevoActiveFolderId": "auto", "brevoInactiveFolderId": "auto"}),
            "A existiert bereits in der Liste!",
        ),
        (
            json!({"name": "Neu", "allowedRoles": ["A"], "brevoActiveFolderId": "auto", "brevoInactiveFolderId": null}),
            "Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!",
        ),
        (
            json!({"name": "glasfaser süd", "allowedRoles": ["A"], "brevoActiveFolderId": "auto", "brevoInactiveFolderId": "auto"}),
            "Ein Anbieter mit dem Namen glasfaser süd existiert bereits!",
        ),
        (
            json!({"name": "Neu", "allowedRoles": ["A"], "brevoActiveFolderId": 999, "brevoInactiveFolderId": "auto"}),
            "Der Marketing-Ordner 999 existiert nicht.",
        ),
    ];
    let folders_before = db::marketing::folders::list(&app.test_db.db, 100, 0)
        .await
        .unwrap()
        .1;
    for (body, message) in cases {
        let (status, answer) = app
            .call(&admin, "POST", "/api/providers/", Some(body))
            .await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["message"], message);
        assert_eq!(answer["code"], "validation_error");
    }
    assert_eq!(
        db::marketing::providers::count(&app.test_db.db)
            .await
            .unwrap(),
        1,
        "nothing was written"
    );
    assert_eq!(
        db::marketing::folders::list(&app.test_db.db, 100, 0)
            .await
            .unwrap()
            .1,
        folders_before,
        "no stray folders"
    );

    let (status, answer) = app
        .call(
            &admin,
            "POST",
            "/api/providers/",
            Some(json!("kein Objekt")),
        )
        .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (400, Some("validation_error"))
    );
}

#[tokio::test]
async fn only_admins_add_edit_and_delete_providers() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await;
    let id = provider["id"].as_i64().unwrap();
    let moderator = app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    let customer = app.session_with_roles(&[PORTAL]).await;
    assert_eq!(
        app.call(
            &moderator,
            "POST",
            "/api/providers/",
            Some(provider_body("Neu"))
        )
        .await
        .0,
        403
    );
    assert_eq!(
        app.call(
            &moderator,
            "PUT",
            &format!("/api/providers/{id}"),
            Some(provider_body("Neu"))
        )
        .await
        .0,
        403
    );
    assert_eq!(
        app.call(&moderator, "DELETE", &format!("/api/providers/{id}/"), None)
            .await
            .0,
        403
    );
    assert_eq!(
        app.call(&customer, "GET", "/api/providers/", None).await.0,
        403
    );
    assert_eq!(
        app.call("ohne-sitzung", "GET", "/api/providers/", None)
            .await
            .0,
        401
    );
    assert_eq!(
        app.call(&moderator, "GET", "/api/brevo/folders/", None)
            .await
            .0,
        403
    );

    // Moderators see the providers of their roles only.
    let other = app.session_with_roles(&[BU_MODERATOR]).await;
    assert_eq!(
        app.call(&moderator, "GET", "/api/providers/", None).await.1["count"],
        1
    );
    assert_eq!(
        app.call(&other, "GET", "/api/providers/", None).await.1["count"],
        0
    );
    assert_eq!(
        app.call(&other, "GET", &format!("/api/providers/{id}/lists/"), None)
            .await
            .0,
        403
    );
}

#[tokio::test]
async fn an_admin_edits_and_deletes_a_provider() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await;
    let id = provider["id"].as_i64().unwrap();
    let mut body = provider_body("Glasfaser Nord");
    body["allowedRoles"] = json!([GLASFASER, "GS-Aktionsportal-BU-Nord"]);
    body["brevoActiveFolderId"] = provider["brevoActiveFolderId"].clone();
    body["brevoInactiveFolderId"] = provider["brevoInactiveFolderId"].clone();
    let (status, edited) = app
        .call(&admin, "PUT", &format!("/api/providers/{id}"), Some(body))
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["name"], "Glasfaser Nord");
    assert_eq!(edited["allowedRoles"].as_array().unwrap().len(), 2);
    assert_eq!(
        app.call(
            &admin,
            "PUT",
            "/api/providers/9999",
            Some(provider_body("Weg"))
        )
        .await
        .0,
        404
    );

    let (status, answer) = app
        .call(
            &admin,
            "DELETE",
            &format!("/api/providers/{id}/?deleteBrevoFolders=false"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(answer["message"], "Erfolgreich entfernt");
    assert!(
        db::marketing::providers::get(&app.test_db.db, id)
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        db::marketing::folders::list(&app.test_db.db, 10, 0)
            .await
            .unwrap()
            .1,
        2,
        "folders kept by default"
    );
    assert_eq!(
        app.call(&admin, "DELETE", &format!("/api/providers/{id}/"), None)
            .await
            .0,
        404
    );
}

async fn create_list(app: &TestApp, token: &str, provider: i64, name: &str) -> (u16, Value) {
    app.call(
        token,
        "POST",
        &format!("/api/providers/{provider}/lists"),
        Some(json!({ "name": name })),
    )
    .await
}

#[tokio::test]
async fn lists_are_created_renamed_deactivated_and_deleted_locally() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await["id"]
        .as_i64()
        .unwrap();

    assert_eq!(
        create_list(&app, &admin, provider, "Test").await.1["message"],
        "Der Name muss mindestens 5 Zeichen lang sein."
    );
    assert_eq!(
        create_list(&app, &admin, provider, &"x".repeat(51)).await.1["message"],
        "Der Name darf höchstens 50 Zeichen lang sein."
    );
    let (status, list) = create_list(&app, &admin, provider, "Flyer Herbst").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(
        (list["active"].as_bool(), list["totalSubscribers"].as_i64()),
        (Some(true), Some(0))
    );
    assert_eq!(list["ProviderId"], provider);
    let id = list["id"].as_i64().unwrap();

    let (status, renamed) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/name/{id}"),
            Some(json!({"name": "x".repeat(100)})),
        )
        .await;
    assert_eq!(
        (status, renamed["name"].as_str().map(str::len)),
        (200, Some(100))
    );
    let (status, answer) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/name/{id}"),
            Some(json!({"name": "x".repeat(101)})),
        )
        .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (400, Some("Der Name darf höchstens 100 Zeichen lang sein."))
    );

    let (status, answer) = app
        .call(&admin, "DELETE", &format!("/api/lists/{id}"), None)
        .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (409, Some("list_active"))
    );

    let (status, answer) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/status/{id}"),
            Some(json!({"active": false})),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(answer["code"], "status_changed");
    assert_eq!(answer["content"]["active"], false);
    assert!(answer["content"]["deactivatedAt"].is_string());

    let (status, page) = app.call(&admin, "GET", &format!("/api/providers/{provider}/lists/?limit=20&offset=0&activeStatus=true&inactiveStatus=false"), None).await;
    assert_eq!((status, page["count"].as_i64()), (200, Some(0)));
    let (_, page) = app
        .call(
            &admin,
            "GET",
            &format!("/api/providers/{provider}/lists/?activeStatus=false&inactiveStatus=true"),
            None,
        )
        .await;
    assert_eq!(page["count"], 1);
    let (_, page) = app
        .call(
            &admin,
            "GET",
            &format!("/api/providers/{provider}/lists/?activeStatus=false&inactiveStatus=false"),
            None,
        )
        .await;
    assert_eq!(page["count"], 1, "neither status means both");

    let (status, _) = app
        .call(&admin, "DELETE", &format!("/api/lists/{id}"), None)
        .await;
    assert_eq!(status, 200);
    assert!(
        db::marketing::lists::get(&app.test_db.db, id)
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        app.call(&admin, "DELETE", &format!("/api/lists/{id}"), None)
            .await
            .0,
        404
    );
}

#[tokio::test]
async fn a_status_change_without_folders_warns_and_changes_nothing() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app.provider_without_folders("Altanbieter", GLASFASER).await;
    let list = db::marketing::lists::create(
        &app.test_db.db,
        &db::marketing::lists::NewListRecord {
            provider_id: provider,
            name: "Bestandsliste".into(),
            brevo_list_id: None,
            active: true,
        },
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let (status, answer) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/status/{}", list.id),
            Some(json!({"active": false})),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(answer["code"], "change_folder_warning");
    assert!(
        db::marketing::lists::get(&app.test_db.db, list.id)
            .await
            .unwrap()
            .unwrap()
            .active
    );
    let (status, answer) = create_list(&app, &admin, provider, "Neue Liste").await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (409, Some("change_folder_warning"))
    );
}

#[tokio::test]
async fn moderators_manage_the_lists_of_their_providers_only() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await["id"]
        .as_i64()
        .unwrap();
    let own = app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    let foreign = app
        .session_with_roles(&[BU_MODERATOR, "GS-Aktionsportal-BU-Strom"])
        .await;
    let (status, list) = create_list(&app, &own, provider, "Flyer Herbst").await;
    assert_eq!(status, 200);
    let id = list["id"].as_i64().unwrap();
    assert_eq!(
        create_list(&app, &foreign, provider, "Fremde Liste")
            .await
            .0,
        403
    );
    assert_eq!(
        app.call(
            &foreign,
            "PATCH",
            &format!("/api/lists/name/{id}"),
            Some(json!({"name": "Gekapert"}))
        )
        .await
        .0,
        403
    );
    assert_eq!(
        app.call(
            &foreign,
            "PATCH",
            &format!("/api/lists/status/{id}"),
            Some(json!({"active": false}))
        )
        .await
        .0,
        403
    );
    assert_eq!(
        app.call(&foreign, "DELETE", &format!("/api/lists/{id}"), None)
            .await
            .0,
        403
    );
    assert_eq!(
        app.call(
            &foreign,
            "GET",
            &format!("/api/sync/providers/{provider}"),
            None
        )
        .await
        .0,
        403
    );
    assert_eq!(
        db::marketing::lists::get(&app.test_db.db, id)
            .await
            .unwrap()
            .unwrap()
            .name,
        "Flyer Herbst"
    );
}

#[tokio::test]
async fn with_brevo_every_change_is_mirrored() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await;
    let (active, inactive) = (
        provider["brevoActiveFolderId"].as_i64().unwrap(),
        provider["brevoInactiveFolderId"].as_i64().unwrap(),
    );
    let folders = brevo.folders();
    assert!(
        folders
            .iter()
            .any(|f| f.id == active && f.name == "Glasfaser Süd (aktiv)"),
        "{folders:?}"
    );
    assert!(
        folders
            .iter()
            .any(|f| f.id == inactive && f.name == "Glasfaser Süd (inaktiv)")
    );
    let id = provider["id"].as_i64().unwrap();

    let (status, list) = create_list(&app, &admin, id, "Flyer Herbst").await;
    assert_eq!(status, 200, "{list}");
    let brevo_id = list["brevoListId"].as_i64().expect("mirrored list id");
    assert_eq!(list["brevoId"], brevo_id);
    let remote = || brevo.lists().into_iter().find(|l| l.id == brevo_id);
    assert_eq!(remote().unwrap().folder_id, active);

    let list_id = list["id"].as_i64().unwrap();
    app.call(
        &admin,
        "PATCH",
        &format!("/api/lists/name/{list_id}"),
        Some(json!({"name": "Flyer Winter"})),
    )
    .await;
    assert_eq!(remote().unwrap().name, "Flyer Winter");
    app.call(
        &admin,
        "PATCH",
        &format!("/api/lists/status/{list_id}"),
        Some(json!({"active": false})),
    )
    .await;
    assert_eq!(
        remote().unwrap().folder_id,
        inactive,
        "deactivating moves the list into the inactive folder"
    );
    app.call(
        &admin,
        "PATCH",
        &format!("/api/lists/status/{list_id}"),
        Some(json!({"active": true})),
    )
    .await;
    assert_eq!(remote().unwrap().folder_id, active);
    app.call(
        &admin,
        "PATCH",
        &format!("/api/lists/status/{list_id}"),
        Some(json!({"active": false})),
    )
    .await;
    assert_eq!(
        app.call(&admin, "DELETE", &format!("/api/lists/{list_id}"), None)
            .await
            .0,
        200
    );
    assert!(remote().is_none());

    let (status, _) = app
        .call(
            &admin,
            "DELETE",
            &format!("/api/providers/{id}/?deleteBrevoFolders=true"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert!(
        brevo
            .folders()
            .iter()
            .all(|f| f.id != active && f.id != inactive)
    );
    assert!(
        db::marketing::folders::get(&app.test_db.db, active)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn when_brevo_fails_the_database_stays_unchanged() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;

    // Brevo fails while creating the provider's folders (a create is not repeated after a
    // 500): no provider, no folder left anywhere.
    brevo.fail_next(1, 500);
    let (status, answer) = app
        .call(
            &admin,
            "POST",
            "/api/providers/",
            Some(provider_body("Glasfaser Süd")),
        )
        .await;
    assert_eq!(status, 502, "{answer}");
    assert_eq!(answer["code"], "marketing_service_error");
    assert!(answer["message"].as_str().unwrap().contains("Brevo"));
    assert_eq!(
        db::marketing::providers::count(&app.test_db.db)
            .await
            .unwrap(),
        0
    );
    assert!(brevo.folders().is_empty());

    let provider = create_provider(&app, &admin, "Energie Plus").await["id"]
        .as_i64()
        .unwrap();
    let (status, list) = create_list(&app, &admin, provider, "Flyer Herbst").await;
    assert_eq!(status, 200);
    let list_id = list["id"].as_i64().unwrap();

    // A rename Brevo refuses leaves our name as it was.
    brevo.fail_next(4, 500);
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/name/{list_id}"),
            Some(json!({"name": "Flyer Winter"})),
        )
        .await;
    assert_eq!(status, 502);
    assert_eq!(
        db::marketing::lists::get(&app.test_db.db, list_id)
            .await
            .unwrap()
            .unwrap()
            .name,
        "Flyer Herbst"
    );

    // A status change Brevo refuses leaves the list active.
    brevo.fail_next(4, 503);
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/status/{list_id}"),
            Some(json!({"active": false})),
        )
        .await;
    assert_eq!(status, 502);
    assert!(
        db::marketing::lists::get(&app.test_db.db, list_id)
            .await
            .unwrap()
            .unwrap()
            .active
    );

    // Brevo does not answer in time, on every retry: the rename is refused, ours unchanged.
    brevo.delay_next(4, std::time::Duration::from_millis(600));
    let (status, answer) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/name/{list_id}"),
            Some(json!({"name": "Flyer Sommer"})),
        )
        .await;
    assert_eq!(status, 502, "{answer}");
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("nicht erreichbar")
    );
    assert_eq!(
        db::marketing::lists::get(&app.test_db.db, list_id)
            .await
            .unwrap()
            .unwrap()
            .name,
        "Flyer Herbst"
    );

    // Rate limited once, then accepted: the change goes through.
    brevo.rate_limit_next(1);
    let (status, renamed) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/name/{list_id}"),
            Some(json!({"name": "Flyer Frühling"})),
        )
        .await;
    assert_eq!(
        (status, renamed["name"].as_str()),
        (200, Some("Flyer Frühling"))
    );

    // Brevo refuses to create a list: nothing is recorded.
    brevo.fail_next(1, 400);
    let (status, _) = create_list(&app, &admin, provider, "Plakat Sommer").await;
    assert_eq!(status, 502);
    assert_eq!(
        db::marketing::lists::list_by_provider(&app.test_db.db, provider)
            .await
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn sync_imports_lists_found_in_the_providers_folders() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await;
    let id = provider["id"].as_i64().unwrap();
    let (active, inactive) = (
        provider["brevoActiveFolderId"].as_i64().unwrap(),
        provider["brevoInactiveFolderId"].as_i64().unwrap(),
    );
    let made_in_brevo = brevo.add_list(active, "Newsletter Bestand");
    let retired = brevo.add_list(inactive, "Altaktion 2024");

    let (status, answer) = app
        .call(&admin, "GET", &format!("/api/sync/providers/{id}"), None)
        .await;
    assert_eq!(status, 200, "{answer}");
    let lists = answer["content"].as_array().unwrap();
    let find = |brevo_id: i64| lists.iter().find(|l| l["brevoListId"] == brevo_id).cloned();
    assert_eq!(find(made_in_brevo).unwrap()["active"], true);
    assert_eq!(find(made_in_brevo).unwrap()["name"], "Newsletter Bestand");
    assert_eq!(find(retired).unwrap()["active"], false);

    // A second sync changes nothing and duplicates nothing.
    let (_, again) = app
        .call(&admin, "GET", &format!("/api/sync/providers/{id}"), None)
        .await;
    assert_eq!(again["content"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn chosen_lists_of_the_providers_folders_are_taken_over_as_their_folder_says() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await;
    let id = provider["id"].as_i64().unwrap();
    let (active, inactive) = (
        provider["brevoActiveFolderId"].as_i64().unwrap(),
        provider["brevoInactiveFolderId"].as_i64().unwrap(),
    );
    let current = brevo.add_list(active, "Newsletter Bestand");
    let retired = brevo.add_list(inactive, "Altaktion 2024");
    let elsewhere_folder = brevo.add_folder("Fremder Ordner");
    let elsewhere = brevo.add_list(elsewhere_folder, "Fremde Liste");

    // A moderator of the provider reads its folders' lists, not other folders'.
    let moderator = app
        .session_with_roles(&[
            "GS-Aktionsportal-BU-Moderator",
            "GS-Aktionsportal-BU-Glasfaser",
        ])
        .await;
    let (status, page) = app
        .call(
            &moderator,
            "GET",
            &format!("/api/brevo/folder/{inactive}/lists/?limit=50"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["lists"][0]["name"], "Altaktion 2024");
    let (status, _) = app
        .call(
            &moderator,
            "GET",
            &format!("/api/brevo/folder/{elsewhere_folder}/lists/"),
            None,
        )
        .await;
    assert_eq!(status, 403);

    let link = |brevo_id: i64, name: &str| {
        let body = json!({ "brevoListId": brevo_id, "name": name });
        let path = format!("/api/providers/{id}/lists");
        let moderator = moderator.clone();
        let app = &app;
        async move { app.call(&moderator, "POST", &path, Some(body)).await }
    };
    let (status, list) = link(current, "Newsletter Bestand").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["active"], true);
    let (status, list) = link(retired, "Altaktion 2024").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(
        list["active"], false,
        "a list of the inactive folder is an inactive criterion"
    );
    let (status, answer) = link(elsewhere, "Fremde Liste").await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        answer["message"],
        "Die Liste liegt in keinem Ordner dieses Anbieters."
    );
    let (status, _) = link(current, "Newsletter Bestand").await;
    assert_eq!(status, 409, "taken over already");
}

#[tokio::test]
async fn deleting_a_providers_folders_spares_a_folder_another_provider_uses() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let first = create_provider(&app, &admin, "Glasfaser Süd").await;
    let (shared, own) = (
        first["brevoActiveFolderId"].as_i64().unwrap(),
        first["brevoInactiveFolderId"].as_i64().unwrap(),
    );
    let mut body = provider_body("Glasfaser Nord");
    body["brevoActiveFolderId"] = json!(shared);
    let (status, second) = app
        .call(&admin, "POST", "/api/providers/", Some(body))
        .await;
    assert_eq!(status, 200, "{second}");

    let id = first["id"].as_i64().unwrap();
    let (status, answer) = app
        .call(
            &admin,
            "DELETE",
            &format!("/api/providers/{id}/?deleteBrevoFolders=true"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let folders: Vec<i64> = brevo.folders().iter().map(|f| f.id).collect();
    assert!(
        folders.contains(&shared),
        "the other provider's folder stays: {folders:?}"
    );
    assert!(
        !folders.contains(&own),
        "the provider's own folder goes: {folders:?}"
    );
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\xff\xff?\0\x05\xfe\x02\xfe\xa7\x35\x81\x84\0\0\0\0IEND\xaeB`\x82";

#[tokio::test]
async fn logos_are_images_judged_by_content_and_served_to_signed_in_users() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (status, answer) = app
        .upload(&admin, "logo.png", b"<svg onload=alert(1)>")
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["message"],
        "Der Inhalt der Datei logo.png passt nicht zu ihrer Endung .png."
    );
    let (status, answer) = app
        .upload(&admin, "logo.svg", b"<svg onload=alert(1)>")
        .await;
    assert_eq!(status, 422, "SVG is not an allowed type: {answer}");
    let (status, answer) = app.upload(&admin, "leer.png", b"").await;
    assert_eq!(status, 400);
    assert!(answer["message"].as_str().unwrap().contains("leer.png"));

    let response = app
        .client
        .post(app.url("/api/upload/"))
        .header("cookie", format!("ap_session={admin}"))
        .json(&json!({"files": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(
        answer["code"], "validation_error",
        "not multipart: still a JSON error"
    );

    let (status, logo) = app.upload(&admin, "Logo Süd.png", PNG).await;
    assert_eq!(status, 200, "{logo}");
    let path = logo["path"].as_str().unwrap().to_string();
    let customer = app.session_with_roles(&[PORTAL]).await;
    assert_eq!(
        app.get_as(&customer, &path).await.status(),
        404,
        "not yet a logo: as if it did not exist"
    );

    let mut body = provider_body("Glasfaser Süd");
    body["uploadId"] = logo["id"].clone();
    let provider = app
        .call(&admin, "POST", "/api/providers/", Some(body))
        .await
        .1;
    assert_eq!(provider["Upload"]["path"], path);

    let response = app.get_as(&customer, &path).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/png");
    assert!(
        response.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("sandbox")
    );
    assert_eq!(response.bytes().await.unwrap().as_ref(), PNG);
    assert_eq!(app.get(&path).await.status(), 401);

    let mut body = provider_body("Energie Plus");
    body["uploadId"] = json!(424242);
    let (status, answer) = app
        .call(&admin, "POST", "/api/providers/", Some(body))
        .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (400, Some("Das Logo muss ein hochgeladenes Bild sein."))
    );
}

#[tokio::test]
async fn a_contacts_criteria_are_grouped_by_provider() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await["id"]
        .as_i64()
        .unwrap();
    let other = create_provider(&app, &admin, "Energie Plus").await["id"]
        .as_i64()
        .unwrap();
    let flyer = create_list(&app, &admin, provider, "Flyer Herbst").await.1["id"]
        .as_i64()
        .unwrap();
    create_list(&app, &admin, provider, "Plakat Winter").await;
    let strom = create_list(&app, &admin, other, "Strom Aktion").await.1["id"]
        .as_i64()
        .unwrap();
    db::contacts::upsert_company(&app.test_db.db, 100_001, "Muster GmbH")
        .await
        .unwrap();
    let contact = db::contacts::create_contact(
        &app.test_db.db,
        &db::contacts::NewContact {
            customer_number: 100_001,
            brevo_contact_id: None,
            email: "max@example.de".into(),
            salutation: 2,
            firstname: "Max".into(),
            lastname: "Muster".into(),
            extern_id: None,
            double_opt_in: true,
            email_blacklisted: false,
        },
    )
    .await
    .unwrap();
    db::contacts::set_lists(&app.test_db.db, contact.id, &[flyer, strom])
        .await
        .unwrap();

    let (status, answer) = app
        .call(
            &admin,
            "GET",
            &format!("/api/providers/contact/{}", contact.id),
            None,
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let groups = answer["content"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    let glasfaser = groups.iter().find(|g| g["id"] == provider).unwrap();
    assert_eq!(glasfaser["name"], "Glasfaser Süd");
    assert_eq!(glasfaser["Lists"].as_array().unwrap().len(), 1);
    assert_eq!(glasfaser["Lists"][0]["name"], "Flyer Herbst");
    assert_eq!(glasfaser["Lists"][0]["totalSubscribers"], 1);

    // The provider's lists count their contacts live: two more on the flyer list, one of
    // them blocked; the poster list has none.
    for (email, blocked) in [("eva@example.de", false), ("ben@example.de", true)] {
        let more = db::contacts::create_contact(
            &app.test_db.db,
            &db::contacts::NewContact {
                customer_number: 100_001,
                brevo_contact_id: None,
                email: email.into(),
                salutation: 1,
                firstname: "Eva".into(),
                lastname: "Muster".into(),
                extern_id: None,
                double_opt_in: true,
                email_blacklisted: blocked,
            },
        )
        .await
        .unwrap();
        db::contacts::set_lists(&app.test_db.db, more.id, &[flyer])
            .await
            .unwrap();
    }
    let (status, lists) = app
        .call(
            &admin,
            "GET",
            &format!("/api/providers/{provider}/lists"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{lists}");
    let counts: Vec<(String, i64, i64)> = lists["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap().to_owned(),
                l["totalSubscribers"].as_i64().unwrap(),
                l["totalBlocked"].as_i64().unwrap(),
            )
        })
        .collect();
    assert!(
        counts.contains(&("Flyer Herbst".into(), 2, 1)),
        "{counts:?}"
    );
    assert!(
        counts.contains(&("Plakat Winter".into(), 0, 0)),
        "{counts:?}"
    );

    // A moderator sees only the providers of their roles.
    let moderator = app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    let (_, answer) = app
        .call(
            &moderator,
            "GET",
            &format!("/api/providers/contact/{}", contact.id),
            None,
        )
        .await;
    assert_eq!(
        answer["count"], 2,
        "both providers carry the Glasfaser role in this test"
    );
    assert_eq!(
        app.call(&admin, "GET", "/api/providers/contact/99999", None)
            .await
            .0,
        404
    );
    let customer = app.session_with_roles(&[PORTAL]).await;
    assert_eq!(
        app.call(
            &customer,
            "GET",
            &format!("/api/providers/contact/{}", contact.id),
            None
        )
        .await
        .0,
        403
    );
}

#[tokio::test]
async fn malformed_requests_get_a_german_message_and_change_nothing() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = create_provider(&app, &admin, "Glasfaser Süd").await["id"]
        .as_i64()
        .unwrap();
    let list = create_list(&app, &admin, provider, "Flyer Herbst").await.1["id"]
        .as_i64()
        .unwrap();

    let (status, answer) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/status/{list}"),
            Some(json!({"active": "ja"})),
        )
        .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (
            400,
            Some("Das Feld „active“ hat nicht das erwartete Format.")
        )
    );
    assert!(
        db::marketing::lists::get(&app.test_db.db, list)
            .await
            .unwrap()
            .unwrap()
            .active
    );

    let (status, answer) = app
        .call(
            &admin,
            "GET",
            &format!("/api/providers/{provider}/lists/?limit=viele"),
            None,
        )
        .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (400, Some("Die Adresse enthält ungültige Parameter."))
    );
    assert_eq!(
        app.call(
            &admin,
            "PATCH",
            "/api/lists/name/abc",
            Some(json!({"name": "Neuer Name"}))
        )
        .await
        .0,
        404
    );
    assert_eq!(
        app.call(
            &admin,
            "GET",
            "/api/providers/99999999999999999999999/lists/",
            None
        )
        .await
        .0,
        404
    );
    // Paging out of range is refused with the bounds, as the description states them.
    for (query, message) in [
        ("limit=-5", "limit muss zwischen 1 und 1000 liegen."),
        ("limit=1001", "limit muss zwischen 1 und 1000 liegen."),
        ("offset=-3", "offset darf nicht negativ sein."),
        ("sort=aufwärts", "sort muss ASC oder DESC sein."),
    ] {
        let (status, answer) = app
            .call(
                &admin,
                "GET",
                &format!("/api/providers/{provider}/lists/?{query}"),
                None,
            )
            .await;
        assert_eq!(
            (status, answer["message"].as_str()),
            (400, Some(message)),
            "{query}"
        );
    }
    let (status, _) = app
        .call(
            &admin,
            "GET",
            &format!("/api/providers/{provider}/lists/?limit=1000&offset=0&sort=asc"),
            None,
        )
        .await;
    assert_eq!(status, 200, "the bounds themselves are accepted");
}
