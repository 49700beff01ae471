//! The audit log (issue 24) through real HTTP and the real binary: every kind of change leaves
//! one entry with its fields before and after; the log is the admin's alone and is filtered
//! and paged; a change whose transaction fails leaves no entry; and a portal killed with
//! SIGKILL in the middle of changes leaves neither a change without its entry nor an entry
//! without its change.

mod common;

use std::process::Stdio;
use std::time::Duration;

use aktionsportal::db::Db;
use aktionsportal::domain::audit::{Action, Actor, Changes, Entity, Entry};
use aktionsportal::domain::roles::{ADMIN, BU_MODERATOR};
use common::{TestApp, spawn_app};
use serde_json::{Value, json};

use common::binary::{portal, until_killed_sessions_end};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

/// The entries of one record, oldest first.
async fn history(app: &TestApp, admin: &str, entity: &str, id: i64) -> Vec<Value> {
    let (status, page) = app
        .call(
            admin,
            "GET",
            &format!("/api/audit?entity={entity}&entityId={id}&limit=1000"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{page}");
    let mut entries = page["content"].as_array().unwrap().clone();
    assert_eq!(page["count"], json!(entries.len()));
    entries.reverse();
    entries
}

/// The one entry of `action` in `entries`.
fn the<'a>(entries: &'a [Value], action: &str) -> &'a Value {
    let found: Vec<_> = entries.iter().filter(|e| e["action"] == action).collect();
    assert_eq!(found.len(), 1, "one {action} in {entries:#?}");
    found[0]
}

fn change(entry: &Value, field: &str) -> (Value, Value) {
    let pair = &entry["changes"][field];
    assert!(pair.is_object(), "{field} changed in {entry:#}");
    (pair["before"].clone(), pair["after"].clone())
}

fn day(offset: i64) -> String {
    (aktionsportal::domain::time::berlin_date(chrono::Utc::now()) + chrono::Duration::days(offset))
        .format("%Y-%m-%d")
        .to_string()
}

#[tokio::test]
async fn every_kind_of_change_is_in_the_log_with_its_fields_before_and_after() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let actor = "erika@example.de";

    // A provider: created, renamed.
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let (status, body) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/providers/{provider}"),
            Some(json!({
                "name": "Glasfaser Nord",
                "allowedRoles": [GLASFASER],
                "brevoActiveFolderId": "auto",
                "brevoInactiveFolderId": "auto",
            })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let entries = history(&app, &admin, "provider", provider).await;
    let created = the(&entries, "create");
    assert_eq!(created["actor"], actor);
    assert_eq!(created["entityLabel"], "Anbieter");
    assert_eq!(
        change(created, "name"),
        (Value::Null, json!("Glasfaser Süd"))
    );
    let updated = the(&entries, "update");
    assert_eq!(
        change(updated, "name"),
        (json!("Glasfaser Süd"), json!("Glasfaser Nord"))
    );
    assert!(
        updated["changes"].get("allowed_roles").is_none(),
        "unchanged roles are not listed"
    );

    // A list: created, renamed, deactivated, deleted.
    let list = app.create_list(&admin, provider, "Privat").await;
    let spare = app.create_list(&admin, provider, "Gewerbe").await;
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/name/{spare}"),
            Some(json!({"name": "Gewerbe Plus"})),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/status/{spare}"),
            Some(json!({"active": false})),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = app
        .call(&admin, "DELETE", &format!("/api/lists/{spare}"), None)
        .await;
    assert_eq!(status, 200);
    let entries = history(&app, &admin, "list", spare).await;
    let actions: Vec<_> = entries
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["create", "update", "deactivate", "delete"]);
    assert_eq!(
        change(&entries[1], "name"),
        (json!("Gewerbe"), json!("Gewerbe Plus"))
    );
    assert_eq!(change(&entries[2], "active"), (json!(true), json!(false)));
    assert_eq!(
        change(&entries[3], "name"),
        (json!("Gewerbe Plus"), Value::Null)
    );

    // Uploads and a package: created, files taken out, archived, duplicated, deleted.
    let (_, flyer) = app
        .upload(&admin, "Flyer.pdf", b"%PDF-1.4 Flyer".as_slice())
        .await;
    let (_, prices) = app.upload(&admin, "Preise.txt", "Preise").await;
    let flyer_id = flyer["id"].as_i64().unwrap();
    let prices_id = prices["id"].as_i64().unwrap();
    let upload = history(&app, &admin, "upload", flyer_id).await;
    assert_eq!(
        change(the(&upload, "create"), "name"),
        (Value::Null, json!("Flyer.pdf"))
    );
    let (status, package) = app
        .call(
            &admin,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Herbst", "startAt": day(0), "endAt": day(30), "ProviderId": provider,
                "listsIds": [list], "uploadsToInsert": [flyer_id, prices_id],
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let package_id = package["id"].as_i64().unwrap();
    let (status, body) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/download/{package_id}"),
            Some(json!({
                "name": "Herbst 2026", "startAt": day(0), "endAt": day(30),
                "listsIds": [list], "uploadsToDelete": [prices_id],
            })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/download/changeArchiveStatus/{package_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (status, copy) = app
        .call(
            &admin,
            "POST",
            "/api/download/duplicate",
            Some(json!({"id": package_id})),
        )
        .await;
    assert_eq!(status, 200, "{copy}");
    let (status, _) = app
        .call(
            &admin,
            "DELETE",
            &format!("/api/download/{package_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let entries = history(&app, &admin, "package", package_id).await;
    let created = the(&entries, "create");
    let (_, files) = change(created, "files");
    assert_eq!(files.as_array().unwrap().len(), 2);
    assert_eq!(change(created, "lists"), (Value::Null, json!([list])));
    let updated = the(&entries, "update");
    assert_eq!(
        change(updated, "name"),
        (json!("Herbst"), json!("Herbst 2026"))
    );
    let (before, after) = change(updated, "files");
    assert_eq!(
        (
            before.as_array().unwrap().len(),
            after.as_array().unwrap().len()
        ),
        (2, 1)
    );
    assert_eq!(after[0]["upload_id"], json!(flyer_id));
    assert_eq!(
        change(the(&entries, "archive"), "archived"),
        (json!(false), json!(true))
    );
    assert_eq!(
        change(the(&entries, "delete"), "name"),
        (json!("Herbst 2026"), Value::Null)
    );
    let copy_entries = history(&app, &admin, "package", copy["id"].as_i64().unwrap()).await;
    assert_eq!(
        change(the(&copy_entries, "duplicate"), "copy_of"),
        (Value::Null, json!(package_id))
    );
    // The file the package no longer holds went with the change that dropped it.
    let removed = history(&app, &admin, "upload", prices_id).await;
    assert_eq!(
        change(the(&removed, "delete"), "name"),
        (json!("Preise.txt"), Value::Null)
    );

    // A contact: created, changed, blocked, unblocked, deleted.
    let (status, contact) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(json!({
                "customerNumber": 100_001, "companyName": "Müller GmbH", "email": "anna@example.de",
                "salutation": 3, "firstname": "Anna", "lastname": "Müller", "listsIds": [list],
            })),
        )
        .await;
    assert_eq!(status, 201, "{contact}");
    let contact_id = contact["id"].as_i64().unwrap();
    let (status, body) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/contacts/{contact_id}"),
            Some(json!({
                "customerNumber": 100_001, "companyName": "Müller GmbH", "email": "anna@example.de",
                "salutation": 3, "firstname": "Anne", "lastname": "Müller", "listsIds": [list],
            })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    for _ in 0..2 {
        let (status, _) = app
            .call(
                &admin,
                "PATCH",
                &format!("/api/contacts/email-blacklist/{contact_id}"),
                None,
            )
            .await;
        assert_eq!(status, 200);
    }
    let (status, _) = app
        .call(
            &admin,
            "DELETE",
            &format!("/api/contacts/{contact_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let entries = history(&app, &admin, "contact", contact_id).await;
    let actions: Vec<_> = entries
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["create", "update", "block", "unblock", "delete"]);
    assert_eq!(
        change(&entries[0], "email"),
        (Value::Null, json!("anna@example.de"))
    );
    assert_eq!(change(&entries[0], "lists"), (Value::Null, json!([list])));
    assert_eq!(
        change(&entries[1], "firstname"),
        (json!("Anna"), json!("Anne"))
    );
    assert_eq!(
        change(&entries[2], "email_blacklisted"),
        (json!(false), json!(true))
    );
    assert_eq!(
        change(&entries[4], "firstname"),
        (json!("Anne"), Value::Null)
    );

    // A customer group saved in the contact editor.
    let (status, saved) = app
        .call(
            &admin,
            "PUT",
            "/api/contacts/customer-number/200001",
            Some(json!({
                "customerNumber": 200_001, "companyName": "Berger Elektro GmbH",
                "listsIds": [list], "uncheckedListsIds": [],
                "contacts": [{"email": "bernd@berger.example", "salutation": 2, "firstname": "Bernd", "lastname": "Berger"}],
            })),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    let entries = history(&app, &admin, "customerGroup", 200_001).await;
    let saved = the(&entries, "update");
    assert_eq!(
        change(saved, "company_name"),
        (Value::Null, json!("Berger Elektro GmbH"))
    );
    let (_, new) = change(saved, "new contact bernd@berger.example");
    assert_eq!(new["firstname"], "Bernd");
    assert_eq!(change(saved, "listsAdded"), (Value::Null, json!([list])));

    // A planning import.
    let csv = "Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail\n300001;Planung KG;Frau;Rita;Rechte;rita@planung.example\n";
    let response = app
        .client
        .post(app.url("/api/planning/csv/import"))
        .header("cookie", format!("ap_session={admin}"))
        .header("content-type", "text/csv")
        .body(csv)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let (_, imports) = app
        .call(&admin, "GET", "/api/audit?entity=import", None)
        .await;
    assert_eq!(imports["count"], 1, "{imports}");
    assert_eq!(
        imports["content"][0]["changes"]["planning_candidates"]["after"],
        1
    );

    // The CLI's users and roles: actor "CLI", and never a password.
    let input = aktionsportal::services::accounts::AccountInput {
        login: "max".into(),
        password: "Ein-langes-Passwort-2026".into(),
        roles: vec![ADMIN.into()],
        email: "max@example.de".into(),
        name: None,
        customer_number: None,
    };
    let user = aktionsportal::services::accounts::add(&app.test_db.db, input)
        .await
        .unwrap();
    aktionsportal::services::accounts::set_roles(&app.test_db.db, "max", &[BU_MODERATOR.into()])
        .await
        .unwrap();
    aktionsportal::services::accounts::set_password(
        &app.test_db.db,
        "max",
        "Noch-ein-Passwort-2026",
    )
    .await
    .unwrap();
    let entries = history(&app, &admin, "user", user.id).await;
    let actions: Vec<_> = entries
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["create", "setRoles", "setPassword"]);
    assert!(entries.iter().all(|e| e["actor"] == "CLI"));
    assert_eq!(
        change(&entries[1], "roles"),
        (json!([ADMIN]), json!([BU_MODERATOR]))
    );
    let all = serde_json::to_string(&entries).unwrap();
    assert!(
        !all.contains("Passwort-2026") && !all.contains("argon2"),
        "{all}"
    );

    // The filters: by actor, by day, and paging with the total.
    let (_, cli) = app.call(&admin, "GET", "/api/audit?actor=CLI", None).await;
    assert_eq!(cli["count"], 3);
    let (_, today) = app
        .call(
            &admin,
            "GET",
            &format!("/api/audit?from={}&to={}&limit=2&offset=1", day(0), day(0)),
            None,
        )
        .await;
    let (_, everything) = app.call(&admin, "GET", "/api/audit?limit=1000", None).await;
    assert_eq!(today["count"], everything["count"]);
    assert_eq!(today["content"].as_array().unwrap().len(), 2);
    assert_eq!(
        today["content"][0], everything["content"][1],
        "newest first, paged"
    );
    let (_, tomorrow) = app
        .call(&admin, "GET", &format!("/api/audit?from={}", day(1)), None)
        .await;
    assert_eq!(tomorrow["count"], 0);
}

#[tokio::test]
async fn only_the_admin_reads_the_log_and_bad_filters_are_refused_in_german() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let moderator = app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    let dealer = app.dealer_session(100_777, &[]).await;
    for token in [&moderator, &dealer] {
        let (status, _) = app.call(token, "GET", "/api/audit", None).await;
        assert_eq!(status, 403);
        let page = app.get_as(token, "/admin/audit").await;
        assert!(page.status().is_redirection(), "{}", page.status());
    }
    for (query, message) in [
        ("entity=paket", "entity muss eines von provider"),
        (
            "entityId=abc",
            "entityId muss eine positive ganze Zahl sein.",
        ),
        (
            "from=24.11.2026",
            "from muss ein Datum der Form JJJJ-MM-TT sein",
        ),
        (
            "from=2026-11-02&to=2026-11-01",
            "from darf nicht nach to liegen.",
        ),
        ("limit=0", "limit muss zwischen 1 und 1000 liegen."),
    ] {
        let (status, body) = app
            .call(&admin, "GET", &format!("/api/audit?{query}"), None)
            .await;
        assert_eq!(status, 400, "{query}: {body}");
        assert!(
            body["message"].as_str().unwrap().starts_with(message),
            "{query}: {body}"
        );
    }
    // The screen shows the same refusal, with the filter form kept.
    let page = app.get_as(&admin, "/admin/audit?entityId=abc").await;
    assert_eq!(page.status(), 400, "a refused filter is a bad request");
    let html = page.text().await.unwrap();
    assert!(html.contains("entityId muss eine positive ganze Zahl sein."));
    assert!(html.contains("name=\"entityId\""));
}

#[tokio::test]
async fn the_screen_shows_a_records_history_with_before_and_after() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Strom & <Gas>", GLASFASER)
        .await;
    let html = app
        .get_as(
            &admin,
            &format!("/admin/audit?entity=provider&entityId={provider}"),
        )
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("Protokoll"));
    assert!(html.contains("erika@example.de"));
    assert!(html.contains("angelegt"));
    // User text is escaped, not markup.
    assert!(html.contains("Strom &amp; &lt;Gas&gt;"), "{html}");
    assert!(!html.contains("<Gas>"));
    assert_eq!(html.matches("data-testid=\"audit-entry\"").count(), 1);
}

#[tokio::test]
async fn a_change_whose_transaction_fails_leaves_no_entry() {
    let app = spawn_app().await;
    let db = &app.test_db.db;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app.create_provider(&admin, "Glasfaser", GLASFASER).await;
    let count = || async {
        let (_, page) = app.call(&admin, "GET", "/api/audit", None).await;
        page["count"].as_i64().unwrap()
    };
    let before = count().await;
    // The package names a list that does not exist: the foreign key fails the transaction
    // after the package row was written, and the entry goes with it.
    let new = aktionsportal::db::catalog::packages::NewPackage {
        provider_id: provider,
        name: "Kaputt".into(),
        start_at: chrono::Utc::now(),
        end_at: chrono::Utc::now(),
        files: Vec::new(),
        list_ids: vec![999_999],
    };
    let entry = Entry::new(&Actor::Cli, Action::Create, Entity::Package, None)
        .with_changes(Changes::none().field("name", Value::Null, "Kaputt"));
    assert!(
        aktionsportal::db::catalog::packages::create(db, &new, &entry)
            .await
            .is_err()
    );
    // A second provider of the same name: the unique index fails it.
    let taken = aktionsportal::db::marketing::providers::NewProvider {
        name: "GLASFASER".into(),
        allowed_roles: vec![],
        brevo_active_folder_id: None,
        brevo_inactive_folder_id: None,
        upload_id: None,
    };
    let entry = Entry::new(&Actor::Cli, Action::Create, Entity::Provider, None);
    assert!(
        aktionsportal::db::marketing::providers::create(db, &taken, &entry)
            .await
            .is_err()
    );
    // And through the API: a name taken in another letter case is refused, nothing logged.
    let (status, _) = app
        .call(
            &admin,
            "POST",
            "/api/providers",
            Some(json!({"name": "glasfaser", "allowedRoles": [GLASFASER], "brevoActiveFolderId": "auto", "brevoInactiveFolderId": "auto"})),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(count().await, before);
}

/// Makes every insert into the log fail (`on`) or lets it through again, through the test's
/// own connection to the portal's database.
async fn refuse_entries(db: &Db, on: bool) {
    match db {
        Db::Sqlite(pool, _) => {
            let sql = if on {
                "create trigger test_refuse_entries before insert on audit_log \
                 begin select raise(abort, 'test refuses entries'); end"
            } else {
                "drop trigger test_refuse_entries"
            };
            sqlx::raw_sql(sql).execute(pool).await.unwrap();
        }
        Db::Postgres(pool, _) => {
            let sql = if on {
                "create function test_refuse_entries() returns trigger language plpgsql as \
                 $$ begin raise exception 'test refuses entries'; end; $$; \
                 create trigger test_refuse_entries before insert on audit_log \
                 for each row execute function test_refuse_entries();"
            } else {
                "drop trigger test_refuse_entries on audit_log; \
                 drop function test_refuse_entries();"
            };
            sqlx::raw_sql(sql).execute(pool).await.unwrap();
        }
    }
}

/// Deterministic counterpart of the SIGKILL test: when the entry cannot be written, the
/// change it belongs to is not made either, and the caller hears of it.
#[tokio::test]
async fn a_change_whose_entry_cannot_be_written_is_not_made() {
    let app = spawn_app().await;
    let db = &app.test_db.db;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app.create_provider(&admin, "Glasfaser", GLASFASER).await;
    let list = app.create_list(&admin, provider, "Privat").await;
    let name = || async {
        aktionsportal::db::marketing::lists::get(db, list)
            .await
            .unwrap()
            .unwrap()
            .name
    };
    let path = format!("/api/lists/name/{list}");
    let rename = |to: &'static str| app.call(&admin, "PATCH", &path, Some(json!({ "name": to })));
    let entries = history(&app, &admin, "list", list).await.len();

    refuse_entries(db, true).await;
    let (status, body) = rename("Gewerbe").await;
    refuse_entries(db, false).await;
    assert!(
        !(200..300).contains(&status),
        "the rename answered {status} without its entry: {body}"
    );
    assert_eq!(
        name().await,
        "Privat",
        "the rename went back with its entry"
    );
    assert_eq!(history(&app, &admin, "list", list).await.len(), entries);

    // With the log writable again the same rename goes through, with its entry.
    let (status, body) = rename("Gewerbe").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(name().await, "Gewerbe");
    assert_eq!(history(&app, &admin, "list", list).await.len(), entries + 1);
}

/// An entry as if written at `at`, straight into the table (the log takes inserts only).
async fn entry_at(db: &Db, at: chrono::DateTime<chrono::Utc>, actor: &str) {
    aktionsportal::db_run!(db, pool => {
        sqlx::query(
            "insert into audit_log (at, actor, action, entity, entity_id, changes) \
             values ($1, $2, 'update', 'list', 1, '{}')",
        )
        .bind(at)
        .bind(actor)
        .execute(pool)
        .await
        .map(drop)
        .unwrap()
    });
}

/// `from` and `to` are German days (Europe/Berlin), both included.
#[tokio::test]
async fn the_day_filters_take_german_days() {
    use aktionsportal::domain::time::{berlin_date, from_berlin};
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    // Today's: one entry written now.
    app.create_provider(&admin, "Glasfaser", GLASFASER).await;
    let today = berlin_date(chrono::Utc::now());
    let yesterday = today - chrono::Duration::days(1);
    let at =
        |date: chrono::NaiveDate, h: u32, m: u32| from_berlin(date.and_hms_opt(h, m, 0).unwrap());
    let db = &app.test_db.db;
    entry_at(db, at(yesterday, 12, 0), "gestern-mittag").await;
    // Late yesterday and just after midnight in Germany: the same UTC day (22:30 or 23:30
    // and 22:30 or 23:05 UTC), different German days.
    entry_at(db, at(yesterday, 23, 30), "gestern-spaet").await;
    entry_at(db, at(today, 0, 5), "heute-frueh").await;
    let actors = |query: String| {
        let admin = admin.clone();
        let app = &app;
        async move {
            let (status, page) = app
                .call(
                    &admin,
                    "GET",
                    &format!("/api/audit?limit=1000{query}"),
                    None,
                )
                .await;
            assert_eq!(status, 200, "{query}: {page}");
            let mut actors: Vec<String> = page["content"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["actor"].as_str().unwrap().to_string())
                .collect();
            assert_eq!(page["count"], json!(actors.len()), "{query}");
            actors.sort();
            actors.dedup();
            actors
        }
    };
    let (d0, d1, d2) = (day(0), day(-1), day(-2));
    assert_eq!(
        actors(format!("&from={d1}&to={d1}")).await,
        ["gestern-mittag", "gestern-spaet"]
    );
    assert_eq!(
        actors(format!("&to={d1}")).await,
        ["gestern-mittag", "gestern-spaet"]
    );
    assert_eq!(
        actors(format!("&from={d0}")).await,
        ["erika@example.de", "heute-frueh"]
    );
    assert_eq!(
        actors(format!("&from={d0}&to={d0}")).await,
        ["erika@example.de", "heute-frueh"]
    );
    assert_eq!(
        actors(format!("&from={d1}")).await,
        [
            "erika@example.de",
            "gestern-mittag",
            "gestern-spaet",
            "heute-frueh"
        ]
    );
    assert_eq!(
        actors(format!("&from={d2}&to={d2}")).await,
        Vec::<String>::new()
    );
}

/// Lists and their entries as stored: every list has exactly one creation entry and its name
/// is the `after` of its newest rename; every creation and rename entry names a list there is.
async fn assert_each_change_has_its_entry(db: &Db, provider: i64) -> usize {
    use aktionsportal::domain::audit::Filter;
    use aktionsportal::domain::paging::Paging;
    let lists = aktionsportal::db::marketing::lists::list_by_provider(db, provider)
        .await
        .unwrap();
    let filter = Filter {
        entity: Some(Entity::List),
        ..Filter::default()
    };
    let paging = Paging::parse(Some(1000), None, Some("ASC"), 1000).unwrap();
    let mut entries = Vec::new();
    for offset in (0..).step_by(1000) {
        let page = Paging { offset, ..paging };
        let (rows, _) = aktionsportal::db::insight::audit::page(db, &filter, page)
            .await
            .unwrap();
        let done = rows.len() < 1000;
        entries.extend(rows);
        if done {
            break;
        }
    }
    for list in &lists {
        let mine: Vec<_> = entries
            .iter()
            .filter(|e| e.entity_id == Some(list.id))
            .collect();
        assert_eq!(
            mine.iter().filter(|e| e.action == "create").count(),
            1,
            "list {} has one creation entry",
            list.id
        );
        let newest_name = mine
            .iter()
            .rev()
            .find_map(|e| {
                let changes: Value = serde_json::from_str(&e.changes).unwrap();
                changes["name"]["after"].as_str().map(str::to_owned)
            })
            .unwrap();
        assert_eq!(
            newest_name, list.name,
            "list {}: its name is its newest entry's",
            list.id
        );
    }
    for entry in &entries {
        assert!(
            lists.iter().any(|l| Some(l.id) == entry.entity_id),
            "entry {} names a list that is not there",
            entry.id
        );
    }
    entries.len()
}

/// A signed-in client of the portal process.
#[derive(Clone)]
struct Caller {
    client: reqwest::Client,
    base: String,
    token: String,
}

impl Caller {
    async fn call(
        &self,
        method: reqwest::Method,
        path: String,
        body: Value,
    ) -> reqwest::Result<reqwest::Response> {
        self.client
            .request(method, format!("{}{path}", self.base))
            .header("cookie", format!("ap_session={}", self.token))
            .json(&body)
            .send()
            .await
    }
}

#[tokio::test]
async fn a_sigkill_in_the_middle_of_changes_leaves_no_change_without_its_entry() {
    let test_db = aktionsportal::test_support::TestDb::new().await;
    let work = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let log = std::fs::File::create(work.path().join("portal.log")).unwrap();
    let mut child = portal(work.path(), &test_db.url)
        .arg("--data")
        .arg(work.path().join("data"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("start the portal");
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let mut up = false;
    for _ in 0..600 {
        if let Ok(r) = client.get(format!("{base}/healthz")).send().await
            && r.status() == 200
        {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        up,
        "{}",
        std::fs::read_to_string(work.path().join("portal.log")).unwrap()
    );
    let user = aktionsportal::domain::user::User {
        name: "Erika".into(),
        customer_number: None,
        email: "erika@example.de".into(),
        roles: vec![ADMIN.into()],
        subject: "test:admin".into(),
    };
    let token = aktionsportal::auth::session::create(&test_db.db, None, &user, chrono::Utc::now())
        .await
        .unwrap();
    let caller = Caller {
        client: client.clone(),
        base: base.clone(),
        token,
    };
    let provider: Value = caller
        .call(
            reqwest::Method::POST,
            "/api/providers".into(),
            json!({"name": "Glasfaser", "allowedRoles": [GLASFASER], "brevoActiveFolderId": "auto", "brevoInactiveFolderId": "auto"}),
        )
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let provider = provider["id"].as_i64().expect("provider");

    // Eight clients create and rename lists as fast as the portal takes them; the portal is
    // killed while they do.
    let mut workers = Vec::new();
    for worker in 0..8 {
        let caller = caller.clone();
        workers.push(tokio::spawn(async move {
            for n in 0.. {
                let Ok(response) = caller
                    .call(
                        reqwest::Method::POST,
                        format!("/api/providers/{provider}/lists"),
                        json!({"name": format!("Liste {worker}-{n}")}),
                    )
                    .await
                else {
                    return;
                };
                let Ok(list) = response.json::<Value>().await else {
                    return;
                };
                let Some(id) = list["id"].as_i64() else {
                    continue;
                };
                if caller
                    .call(
                        reqwest::Method::PATCH,
                        format!("/api/lists/name/{id}"),
                        json!({"name": format!("Umbenannt {worker}-{n}")}),
                    )
                    .await
                    .is_err()
                {
                    return;
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(2500)).await;
    child.kill().unwrap();
    child.wait().unwrap();
    for worker in workers {
        worker.await.unwrap();
    }
    until_killed_sessions_end(&test_db.db).await;
    let entries = assert_each_change_has_its_entry(&test_db.db, provider).await;
    assert!(
        entries >= 10,
        "the clients got some changes in before the kill: {entries}"
    );
}

/// The page without its "Details" disclosures (which keep the stored values on purpose).
fn without_details(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<details") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</details>") {
            Some(end) => rest = &rest[start + end + "</details>".len()..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Issue 35: the Protokoll reads in German. After creating a contact, duplicating a package
/// and changing a package's lists, `GET /api/audit` labels every field and keeps each record's
/// name, and `/admin/audit` shows German labels, German times, words instead of codes and
/// names instead of ids; a set whose order alone changed is no change, neither when written
/// nor in older entries.
#[tokio::test]
async fn the_protokoll_reads_in_german() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app.create_provider(&admin, "Glasfaser", GLASFASER).await;
    let private = app.create_list(&admin, provider, "Privat").await;
    let business = app.create_list(&admin, provider, "Gewerbe").await;

    // A contact on both lists.
    let (status, contact) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(json!({
                "customerNumber": 100_035, "companyName": "Meier GmbH", "email": "tom@meier.example",
                "salutation": 2, "firstname": "Tom", "lastname": "Meier",
                "listsIds": [business, private],
            })),
        )
        .await;
    assert_eq!(status, 201, "{contact}");
    let contact_id = contact["id"].as_i64().unwrap();

    // A package on both lists, its lists given again in the other order with a new name,
    // then duplicated.
    let (status, package) = app
        .call(
            &admin,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Herbst", "startAt": day(0), "endAt": day(30), "ProviderId": provider,
                "listsIds": [private, business],
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let package_id = package["id"].as_i64().unwrap();
    let (status, body) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/download/{package_id}"),
            Some(json!({
                "name": "Herbst 2026", "startAt": day(0), "endAt": day(30),
                "listsIds": [business, private],
            })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, copy) = app
        .call(
            &admin,
            "POST",
            "/api/download/duplicate",
            Some(json!({"id": package_id})),
        )
        .await;
    assert_eq!(status, 200, "{copy}");
    let copy_id = copy["id"].as_i64().unwrap();

    // The list is renamed afterwards: older entries keep the name they were written with.
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/name/{private}"),
            Some(json!({"name": "Privatkunden"})),
        )
        .await;
    assert_eq!(status, 200);

    // An entry as the log wrote them before issue 35: only the lists' order changed.
    aktionsportal::db_run!(&app.test_db.db, pool => {
        sqlx::query(
            "insert into audit_log (at, actor, action, entity, entity_id, changes) \
             values ($1, 'alt-eintrag', 'update', 'contact', $2, $3)",
        )
        .bind(chrono::Utc::now())
        .bind(contact_id)
        .bind(json!({"lists": {"before": [private, business], "after": [business, private]}}).to_string())
        .execute(pool)
        .await
        .map(drop)
        .unwrap()
    });

    // The API: labels beside the stored keys, the names kept.
    let created = &history(&app, &admin, "contact", contact_id).await[0];
    assert_eq!(created["entityName"], "Tom Meier");
    assert_eq!(created["currentName"], "Tom Meier");
    assert_eq!(created["changes"]["company_name"]["label"], "Firma");
    assert_eq!(created["changes"]["company_name"]["after"], "Meier GmbH");
    assert_eq!(created["changes"]["salutation"]["label"], "Anrede");
    assert_eq!(
        created["changes"]["salutation"]["after"], 2,
        "the stored code stays"
    );
    assert_eq!(
        created["changes"]["customer_number"]["label"],
        "Kundennummer"
    );
    assert_eq!(created["changes"]["lists"]["label"], "Kriterien");
    let old = history(&app, &admin, "contact", contact_id).await;
    let old = old.iter().find(|e| e["actor"] == "alt-eintrag").unwrap();
    assert_eq!(
        old["changes"],
        json!({}),
        "an order alone is no change: {old}"
    );
    let package_entries = history(&app, &admin, "package", package_id).await;
    let updated = the(&package_entries, "update");
    assert_eq!(updated["entityName"], "Herbst 2026");
    assert_eq!(updated["changes"]["name"]["label"], "Bezeichnung");
    assert!(
        updated["changes"].get("lists").is_none(),
        "the same lists in another order are no change: {updated}"
    );
    let duplicated = &history(&app, &admin, "package", copy_id).await[0];
    assert_eq!(duplicated["changes"]["copy_of"]["label"], "Kopie von");
    assert_eq!(duplicated["changes"]["end_at"]["label"], "Enddatum");
    let end_at = duplicated["changes"]["end_at"]["after"].as_str().unwrap();
    let end_at: chrono::DateTime<chrono::Utc> = end_at.parse().unwrap();
    let list_entries = history(&app, &admin, "list", private).await;
    assert_eq!(the(&list_entries, "create")["entityName"], "Privat");
    assert_eq!(the(&list_entries, "create")["currentName"], "Privatkunden");

    // The contact's data export labels the same way.
    let (status, export) = app
        .call(
            &admin,
            "GET",
            &format!("/api/contacts/{contact_id}/export"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{export}");
    let exported = export["audit"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["action"] == "create")
        .unwrap();
    assert_eq!(exported["changes"]["company_name"]["label"], "Firma");
    assert_eq!(exported["entityName"], "Tom Meier");

    // The screen.
    let page = app.get_as(&admin, "/admin/audit").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("<summary>Details</summary>"),
        "raw values kept"
    );
    assert!(
        html.contains("company_name"),
        "the details keep the stored keys"
    );
    let shown = without_details(&html);
    // What a reader sees: the text without tags and their attributes.
    let mut text = String::new();
    let mut in_tag = false;
    for c in shown.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    for raw in [
        "company_name",
        "customer_number",
        "start_at",
        "end_at",
        "copy_of",
        "salutation",
        "lists",
    ] {
        assert!(!text.contains(raw), "{raw} shown outside the details");
    }
    for label in [
        "Firma",
        "Kundennummer",
        "Anrede",
        "Vorname",
        "Kriterien",
        "Bezeichnung",
        "Kopie von",
        "Startdatum",
        "Enddatum",
        "Anbieter",
    ] {
        assert!(text.contains(label), "label {label} missing");
    }
    // Words instead of codes; names instead of ids, the id in the tooltip.
    assert!(
        shown.contains("<span title=\"Code 2\">Herr</span>"),
        "{shown}"
    );
    assert!(shown.contains(&format!("<span title=\"ID {private}\">Privatkunden</span>")));
    assert!(shown.contains(&format!("<span title=\"ID {business}\">Gewerbe</span>")));
    assert!(shown.contains(&format!("<span title=\"ID {provider}\">Glasfaser</span>")));
    assert!(shown.contains(&format!(
        "<span title=\"ID {package_id}\">Herbst 2026</span>"
    )));
    // German times: the copy ends on the last day of a month, 23:59 in Berlin.
    let german_end = aktionsportal::domain::format::date_time(end_at);
    assert!(german_end.ends_with(", 23:59"), "{german_end}");
    assert!(shown.contains(&german_end), "{german_end} not shown");
    assert!(!text.contains(&format!("{}", end_at.format("%Y-%m-%dT"))));
    // Records by the name they had, today's beside it.
    assert!(shown.contains("Kontakt „Tom Meier“"), "{shown}");
    assert!(
        shown.contains("Liste „Privat“ (heute „Privatkunden“)"),
        "{shown}"
    );
    assert!(!shown.contains(&format!(">Kontakt {contact_id}<")));
    // The old entry's reordering shows as no change.
    let old_row = shown
        .split("data-testid=\"audit-entry\"")
        .find(|row| row.contains("alt-eintrag"))
        .unwrap();
    assert!(!old_row.contains("data-field="), "{old_row}");
}
