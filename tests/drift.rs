//! The portal and Brevo never drift apart (issue 13 item 3): every write that touches both is
//! broken at each of its Brevo steps by the fake Brevo (`fail_nth`), and afterwards our
//! database and the fake's state agree, or the difference is a pending retry that admins see
//! and that the minute job's service function (`contact_mirror::retry_all`) completes.
//!
//! Contact writes whose first Brevo call fails, and a database failure after Brevo, are in
//! `tests/contacts.rs`; a customer-group save refused half-way is in `tests/customer_groups.rs`.
//! Here are the steps those do not reach.

mod common;

use std::collections::BTreeSet;

use aktionsportal::db;
use aktionsportal::integrations::brevo::{BrevoClient, BrevoConfig};
use aktionsportal::services::marketing::Marketing;
use common::TestApp;
use common::fake_brevo::FakeBrevo;
use common::fake_smtp::double_opt_in_token;
use serde_json::{Value, json};

const ADMIN: &str = "GS-Aktionsportal-Admin";
const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

async fn spawn_with_brevo() -> (TestApp, FakeBrevo) {
    common::spawn_app_with_brevo(500).await
}

/// The marketing service as the portal's minute job has it.
fn marketing(brevo: &FakeBrevo) -> Marketing {
    Marketing::Brevo(BrevoClient::new(
        BrevoConfig {
            base_url: brevo.base_url.clone(),
            api_key: brevo.api_key().to_string(),
            timeout: std::time::Duration::from_millis(500),
            ..BrevoConfig::default()
        },
        reqwest::Client::new(),
    ))
}

/// Runs the minute job's retries once; how many are left.
async fn run_retries(app: &TestApp, brevo: &FakeBrevo) -> i64 {
    aktionsportal::services::marketing::contact_mirror::retry_all(
        &app.test_db.db,
        &marketing(brevo),
    )
    .await
    .expect("retries ran")
}

/// The pending Brevo changes as an admin sees them.
async fn pending(app: &TestApp, admin: &str) -> Value {
    let (status, retries) = app
        .call(admin, "GET", "/api/contacts/marketing-retries", None)
        .await;
    assert_eq!(status, 200, "{retries}");
    retries
}

fn provider_body(name: &str) -> Value {
    json!({
        "name": name,
        "allowedRoles": [GLASFASER],
        "brevoActiveFolderId": "auto",
        "brevoInactiveFolderId": "auto",
    })
}

/// Our folders, lists and contacts agree with Brevo's: every provider's folders exist there
/// and other folders are empty; every list is in the folder its status says and no other list
/// exists; every contact of ours is there with its lists, block and confirmation, and no other
/// contact exists. Nothing waits for a retry.
async fn assert_agree(app: &TestApp, brevo: &FakeBrevo, when: &str) {
    let db = &app.test_db.db;
    let mut our_folders = BTreeSet::new();
    let mut our_lists = BTreeSet::new();
    let remote_lists = brevo.lists();
    for provider in db::marketing::providers::list_all(db).await.unwrap() {
        let (active, inactive) = (
            provider.brevo_active_folder_id.unwrap(),
            provider.brevo_inactive_folder_id.unwrap(),
        );
        our_folders.extend([active, inactive]);
        for list in db::marketing::lists::list_by_provider(db, provider.id)
            .await
            .unwrap()
        {
            let id = list.brevo_list_id.unwrap();
            our_lists.insert(id);
            let remote = remote_lists
                .iter()
                .find(|l| l.id == id)
                .unwrap_or_else(|| panic!("{when}: list {} gone from Brevo", list.name));
            assert_eq!(remote.name, list.name, "{when}: name of a list");
            let expected = if list.active { active } else { inactive };
            assert_eq!(
                remote.folder_id, expected,
                "{when}: list {} is in the wrong folder",
                list.name
            );
        }
    }
    // Folders no provider uses may stay behind (an update leaves the old ones), but empty.
    let remote_folders: BTreeSet<i64> = brevo.folders().iter().map(|f| f.id).collect();
    assert!(
        our_folders.is_subset(&remote_folders),
        "{when}: folders {our_folders:?} not all in Brevo {remote_folders:?}"
    );
    for list in &remote_lists {
        assert!(
            our_folders.contains(&list.folder_id),
            "{when}: list {} in a folder no provider uses",
            list.name
        );
    }
    let remote_list_ids: BTreeSet<i64> = remote_lists.iter().map(|l| l.id).collect();
    assert_eq!(remote_list_ids, our_lists, "{when}: lists");

    for remote in &brevo.contacts() {
        let email = remote.email.clone().unwrap();
        let contact = db::contacts::find_contact_by_email(db, &email)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("{when}: {email} only in Brevo"));
        let lists = db::contacts::list_ids_of_contact(db, contact.id)
            .await
            .unwrap();
        let owners = db::marketing::lists::owners(db, &lists).await.unwrap();
        let mut expected: Vec<i64> = owners.iter().filter_map(|o| o.brevo_list_id).collect();
        expected.sort_unstable();
        assert_eq!(remote.list_ids, expected, "{when}: lists of {email}");
        assert_eq!(
            remote.email_blacklisted, contact.email_blacklisted,
            "{when}: block of {email}"
        );
        assert_eq!(
            remote.attributes["DOUBLE_OPT-IN"],
            json!(if contact.double_opt_in { 1 } else { 2 }),
            "{when}: confirmation of {email}"
        );
        assert_eq!(
            remote.attributes["FIRSTNAME"],
            json!(contact.firstname),
            "{when}: first name of {email}"
        );
    }
    let (_, count) = aktionsportal::services::marketing::contact_mirror::open_retries(db)
        .await
        .unwrap();
    assert_eq!(count, 0, "{when}: retries still open");
}

/// A provider with two active lists and one inactive one: (provider, lists).
async fn provider_with_three_lists(app: &TestApp, admin: &str, name: &str) -> (i64, Vec<i64>) {
    let provider = app.create_provider(admin, name, GLASFASER).await;
    let mut lists = Vec::new();
    for suffix in ["Privat", "Gewerbe", "Archiv"] {
        lists.push(
            app.create_list(admin, provider, &format!("{name} {suffix}"))
                .await,
        );
    }
    let (status, answer) = app
        .call(
            admin,
            "PATCH",
            &format!("/api/lists/status/{}", lists[2]),
            Some(json!({ "active": false })),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    (provider, lists)
}

#[tokio::test]
async fn a_provider_update_that_fails_at_any_list_move_is_taken_back_in_brevo() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (provider, _) = provider_with_three_lists(&app, &admin, "Glasfaser Süd").await;
    let before = db::marketing::providers::get(&app.test_db.db, provider)
        .await
        .unwrap()
        .unwrap();
    assert_agree(&app, &brevo, "set up").await;
    let folders_before = brevo.folders();

    // New folders for both: every list moves. Each move in turn is refused.
    let path = format!("/api/providers/{provider}");
    for n in 1..=3 {
        brevo.fail_nth("PUT", "/contacts/lists/*", n, 400);
        let (status, answer) = app
            .call(&admin, "PUT", &path, Some(provider_body("Glasfaser Süd")))
            .await;
        brevo.clear_faults();
        assert_eq!(status, 502, "move {n}: {answer}");
        assert!(answer["message"].as_str().unwrap().contains("Brevo"));
        let now = db::marketing::providers::get(&app.test_db.db, provider)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (now.brevo_active_folder_id, now.brevo_inactive_folder_id),
            (
                before.brevo_active_folder_id,
                before.brevo_inactive_folder_id
            ),
            "move {n}"
        );
        assert_agree(&app, &brevo, &format!("move {n} refused")).await;
        assert_eq!(
            brevo.folders(),
            folders_before,
            "move {n}: new folders gone again"
        );
    }

    // A move that fails once for a moment (503) is repeated by the client: the update goes
    // through on both sides.
    brevo.fail_nth("PUT", "/contacts/lists/*", 2, 503);
    let (status, answer) = app
        .call(&admin, "PUT", &path, Some(provider_body("Glasfaser Süd")))
        .await;
    brevo.clear_faults();
    assert_eq!(status, 200, "{answer}");
    assert_ne!(
        answer["brevoActiveFolderId"].as_i64(),
        before.brevo_active_folder_id
    );
    assert_agree(&app, &brevo, "moved").await;
}

#[tokio::test]
async fn when_brevo_also_refuses_to_move_lists_back_the_rest_is_a_retry_that_completes() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (provider, _) = provider_with_three_lists(&app, &admin, "Glasfaser Süd").await;
    let folders_before = brevo.folders();

    // The first move goes through; from the second on Brevo refuses every list change, so
    // the first cannot be moved back either.
    brevo.fail_from_nth("PUT", "/contacts/lists/*", 2, 400);
    let (status, answer) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/providers/{provider}"),
            Some(provider_body("Glasfaser Süd")),
        )
        .await;
    assert_eq!(status, 502, "{answer}");
    // The new folder must not be deleted while a list of ours is in it (Brevo deletes a
    // folder's lists with it).
    assert_eq!(brevo.lists().len(), 3, "no list lost");
    let retries = pending(&app, &admin).await;
    assert_eq!(retries["count"], 1, "{retries}");
    assert!(run_retries(&app, &brevo).await > 0, "Brevo still refuses");
    brevo.clear_faults();

    assert_eq!(run_retries(&app, &brevo).await, 0);
    assert_agree(&app, &brevo, "after the retry").await;
    assert_eq!(
        brevo.folders(),
        folders_before,
        "new folders gone after the retry"
    );
}

/// Makes our database refuse changes of `table` (as a full disk would): the failure comes
/// after Brevo took the change.
async fn database_refuses(app: &TestApp, table: &str, events: &[&str]) {
    use aktionsportal::db::Db;
    match &app.test_db.db {
        Db::Sqlite(pool, _) => {
            for event in events {
                sqlx::query(&format!(
                    "create trigger refuse_{table}_{event} before {event} on {table} \
                     begin select raise(abort, 'Festplatte voll'); end"
                ))
                .execute(pool)
                .await
                .unwrap();
            }
        }
        Db::Postgres(pool, _) => {
            sqlx::query(&format!(
                "create function refuse_{table}() returns trigger as $$ begin \
                 raise exception 'Festplatte voll'; end $$ language plpgsql"
            ))
            .execute(pool)
            .await
            .unwrap();
            sqlx::query(&format!(
                "create trigger refuse_{table} before {} on {table} \
                 for each row execute function refuse_{table}()",
                events.join(" or ")
            ))
            .execute(pool)
            .await
            .unwrap();
        }
    }
}

async fn database_accepts(app: &TestApp, table: &str, events: &[&str]) {
    use aktionsportal::db::Db;
    match &app.test_db.db {
        Db::Sqlite(pool, _) => {
            for event in events {
                sqlx::query(&format!("drop trigger refuse_{table}_{event}"))
                    .execute(pool)
                    .await
                    .unwrap();
            }
        }
        Db::Postgres(pool, _) => {
            sqlx::query(&format!("drop trigger refuse_{table} on {table}"))
                .execute(pool)
                .await
                .unwrap();
            sqlx::query(&format!("drop function refuse_{table}()"))
                .execute(pool)
                .await
                .unwrap();
        }
    }
}

#[tokio::test]
async fn when_our_database_fails_after_the_list_moves_they_are_taken_back() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (provider, _) = provider_with_three_lists(&app, &admin, "Glasfaser Süd").await;
    let folders_before = brevo.folders();
    database_refuses(&app, "providers", &["update"]).await;
    let (status, answer) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/providers/{provider}"),
            Some(provider_body("Glasfaser Süd")),
        )
        .await;
    assert_eq!(status, 500, "{answer}");
    database_accepts(&app, "providers", &["update"]).await;
    assert_agree(&app, &brevo, "database refused").await;
    assert_eq!(brevo.folders(), folders_before, "new folders gone again");
}

#[tokio::test]
async fn a_list_change_whose_undo_brevo_also_refuses_is_finished_by_the_retry() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (provider, lists) = provider_with_three_lists(&app, &admin, "Glasfaser Süd").await;
    let attempts: [(&str, String, Value, &str, &str); 3] = [
        (
            "PATCH",
            format!("/api/lists/name/{}", lists[0]),
            json!({ "name": "Glasfaser Privat Neu" }),
            "update",
            "PUT",
        ),
        (
            "PATCH",
            format!("/api/lists/status/{}", lists[1]),
            json!({ "active": false }),
            "update",
            "PUT",
        ),
        (
            "POST",
            format!("/api/providers/{provider}/lists"),
            json!({ "name": "Glasfaser Neubaugebiet" }),
            "insert",
            "DELETE",
        ),
    ];
    for (method, path, body, event, undo) in attempts {
        // Brevo takes the change, our database refuses it, and Brevo refuses the undo.
        let nth = if undo == "PUT" { 2 } else { 1 };
        brevo.fail_nth(undo, "/contacts/lists/*", nth, 400);
        database_refuses(&app, "lists", &[event]).await;
        let (status, answer) = app.call(&admin, method, &path, Some(body)).await;
        assert_eq!(status, 500, "{path}: {answer}");
        database_accepts(&app, "lists", &[event]).await;
        brevo.clear_faults();
        let retries = pending(&app, &admin).await;
        assert_eq!(
            retries["count"], 1,
            "{path}: the difference waits: {retries}"
        );
        assert_eq!(
            retries["content"][0]["email"],
            "Listen des Anbieters Glasfaser Süd"
        );
        assert_eq!(run_retries(&app, &brevo).await, 0, "{path}");
        assert_agree(&app, &brevo, &path).await;
    }
}

#[tokio::test]
async fn a_provider_create_our_database_refuses_leaves_no_folder_in_brevo() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let folders_before = brevo.folders();
    // Brevo makes both folders, our database refuses the provider, and Brevo refuses to
    // delete the first folder again.
    database_refuses(&app, "providers", &["insert"]).await;
    brevo.fail_nth("DELETE", "/contacts/folders/*", 1, 400);
    let (status, answer) = app
        .call(
            &admin,
            "POST",
            "/api/providers/",
            Some(provider_body("Glasfaser Süd")),
        )
        .await;
    assert_eq!(status, 500, "{answer}");
    database_accepts(&app, "providers", &["insert"]).await;
    assert_eq!(
        brevo.folders().len(),
        folders_before.len() + 1,
        "one left over"
    );
    let retries = pending(&app, &admin).await;
    assert_eq!(retries["count"], 1, "the left-over folder waits: {retries}");
    assert_eq!(run_retries(&app, &brevo).await, 0);
    assert_eq!(brevo.folders(), folders_before, "no folder left behind");
    assert_agree(&app, &brevo, "after the retry").await;
}

#[tokio::test]
async fn a_provider_delete_whose_folder_delete_fails_is_refused_or_finished_by_a_retry() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (provider, _) = provider_with_three_lists(&app, &admin, "Glasfaser Süd").await;
    let (other, _) = provider_with_three_lists(&app, &admin, "Energie Plus").await;
    let path = format!("/api/providers/{provider}/?deleteBrevoFolders=true");

    // The first folder refused: nothing happened anywhere.
    brevo.fail_nth("DELETE", "/contacts/folders/*", 1, 400);
    let (status, answer) = app.call(&admin, "DELETE", &path, None).await;
    brevo.clear_faults();
    assert_eq!(status, 502, "{answer}");
    assert!(
        db::marketing::providers::get(&app.test_db.db, provider)
            .await
            .unwrap()
            .is_some()
    );
    assert_agree(&app, &brevo, "first folder refused").await;

    // The second folder refused after the first is gone (with its lists): there is no way
    // back, so the provider goes and the folder's deletion waits for the retry.
    brevo.fail_from_nth("DELETE", "/contacts/folders/*", 2, 400);
    let (status, answer) = app.call(&admin, "DELETE", &path, None).await;
    assert_eq!(status, 200, "{answer}");
    assert!(
        db::marketing::providers::get(&app.test_db.db, provider)
            .await
            .unwrap()
            .is_none()
    );
    let retries = pending(&app, &admin).await;
    assert_eq!(retries["count"], 1, "{retries}");
    assert!(run_retries(&app, &brevo).await > 0, "Brevo still refuses");
    brevo.clear_faults();
    assert_eq!(run_retries(&app, &brevo).await, 0);
    assert_agree(&app, &brevo, "after the retry").await;
    assert!(
        db::marketing::providers::get(&app.test_db.db, other)
            .await
            .unwrap()
            .is_some()
    );
}

#[tokio::test]
async fn a_folder_that_another_provider_took_meanwhile_is_never_deleted_by_the_retry() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let folders = db::marketing::providers::get(&app.test_db.db, provider)
        .await
        .unwrap()
        .unwrap();
    let inactive = folders.brevo_inactive_folder_id.unwrap();
    // The second folder's delete fails, also when the client repeats it.
    brevo.fail_from_nth("DELETE", "/contacts/folders/*", 2, 500);
    let (status, answer) = app
        .call(
            &admin,
            "DELETE",
            &format!("/api/providers/{provider}/?deleteBrevoFolders=true"),
            None,
        )
        .await;
    brevo.clear_faults();
    assert_eq!(status, 200, "{answer}");
    assert_eq!(pending(&app, &admin).await["count"], 1);

    // Before the retry runs, another provider takes the folder.
    let mut body = provider_body("Energie Plus");
    body["brevoInactiveFolderId"] = json!(inactive);
    let (status, answer) = app
        .call(&admin, "POST", "/api/providers/", Some(body))
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(run_retries(&app, &brevo).await, 0);
    assert!(brevo.folders().iter().any(|f| f.id == inactive));
    assert_agree(&app, &brevo, "after the retry").await;
}

#[tokio::test]
async fn a_list_delete_refused_by_brevo_changes_nothing_and_one_brevo_lost_is_finished() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (_, lists) = provider_with_three_lists(&app, &admin, "Glasfaser Süd").await;
    let inactive = lists[2];
    let path = format!("/api/lists/{inactive}");

    brevo.fail_nth("DELETE", "/contacts/lists/*", 1, 400);
    let (status, answer) = app.call(&admin, "DELETE", &path, None).await;
    brevo.clear_faults();
    assert_eq!(status, 502, "{answer}");
    assert_agree(&app, &brevo, "refused").await;

    // Our database fails after Brevo deleted the list: the list cannot come back in Brevo,
    // so the admin's next try finishes the delete here (Brevo's "not found" is done).
    database_refuses(&app, "lists", &["delete"]).await;
    let (status, _) = app.call(&admin, "DELETE", &path, None).await;
    assert_eq!(status, 500);
    database_accepts(&app, "lists", &["delete"]).await;
    let (status, answer) = app.call(&admin, "DELETE", &path, None).await;
    assert_eq!(status, 200, "{answer}");
    assert!(
        db::marketing::lists::get(&app.test_db.db, inactive)
            .await
            .unwrap()
            .is_none()
    );
    assert_agree(&app, &brevo, "deleted").await;
}

fn contact_body(email: &str, lists: &[i64]) -> Value {
    json!({
        "customerNumber": 100_001,
        "companyName": "Müller & Söhne GmbH",
        "email": email,
        "salutation": 3,
        "firstname": "Anna",
        "lastname": "Müller",
        "listsIds": lists,
    })
}

#[tokio::test]
async fn a_contact_write_whose_change_step_fails_after_the_read_changes_nothing() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (_, lists) = provider_with_three_lists(&app, &admin, "Glasfaser Süd").await;
    let (status, anna) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(contact_body("anna@example.de", &[lists[0]])),
        )
        .await;
    assert_eq!(status, 201, "{anna}");
    let id = anna["id"].as_i64().unwrap();

    // The read before each change passes; the change itself is refused.
    brevo.fail_nth("POST", "/contacts", 1, 400);
    let (status, answer) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(contact_body("bernd@example.de", &[lists[1]])),
        )
        .await;
    brevo.clear_faults();
    assert_eq!(status, 502, "{answer}");
    assert_agree(&app, &brevo, "create refused").await;

    let mut changed = contact_body("anna.neu@example.de", &[lists[1]]);
    changed["uncheckedListsIds"] = json!([lists[0]]);
    changed["firstname"] = json!("Annabell");
    for (what, method, path, body) in [
        (
            "edit",
            "PUT",
            format!("/api/contacts/{id}"),
            Some(changed.clone()),
        ),
        (
            "block",
            "PATCH",
            format!("/api/contacts/email-blacklist/{id}"),
            None,
        ),
    ] {
        brevo.fail_nth("PUT", "/contacts/*", 1, 400);
        let (status, answer) = app.call(&admin, method, &path, body).await;
        brevo.clear_faults();
        assert_eq!(status, 502, "{what}: {answer}");
        assert_agree(&app, &brevo, &format!("{what} refused")).await;
    }
    brevo.fail_nth("DELETE", "/contacts/*", 1, 400);
    let (status, answer) = app
        .call(&admin, "DELETE", &format!("/api/contacts/{id}"), None)
        .await;
    brevo.clear_faults();
    assert_eq!(status, 502, "{answer}");
    assert_agree(&app, &brevo, "delete refused").await;

    // A change step that fails once for a moment is repeated: it goes through everywhere.
    brevo.fail_nth("PUT", "/contacts/*", 1, 503);
    let (status, answer) = app
        .call(&admin, "PUT", &format!("/api/contacts/{id}"), Some(changed))
        .await;
    brevo.clear_faults();
    assert_eq!(status, 200, "{answer}");
    assert_agree(&app, &brevo, "edited").await;
}

#[tokio::test]
async fn a_customer_group_save_meeting_brevo_gone_half_way_is_undone_by_the_retry() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (_, lists) = provider_with_three_lists(&app, &admin, "Glasfaser Süd").await;
    let person = |email: &str, first: &str| json!({ "email": email, "salutation": 2, "firstname": first, "lastname": "Berger" });
    let group = |contacts: Vec<Value>, add: &[i64], remove: &[i64]| {
        json!({
            "customerNumber": 200_001,
            "companyName": "Berger Elektro GmbH",
            "listsIds": add,
            "uncheckedListsIds": remove,
            "contacts": contacts,
            "alphaPlanContacts": [],
        })
    };
    let path = "/api/contacts/customer-number/200001";
    let (status, created) = app
        .call(
            &admin,
            "PUT",
            path,
            Some(group(
                vec![person("anna@berger.example", "Anna")],
                &[lists[0]],
                &[],
            )),
        )
        .await;
    assert_eq!(status, 200, "{created}");
    let anna = created["content"][0]["id"].as_i64().unwrap();
    assert_agree(&app, &brevo, "created").await;

    // Anna's change goes through; then Brevo is gone for creating Carl and for putting Anna
    // back: the answer says so, and the undo waits for the retry.
    let mut renamed = person("anna@berger.example", "Annabell");
    renamed["id"] = json!(anna);
    brevo.fail_from_nth("POST", "/contacts", 1, 500);
    brevo.fail_from_nth("PUT", "/contacts/*", 2, 500);
    let (status, answer) = app
        .call(
            &admin,
            "PUT",
            path,
            Some(group(
                vec![renamed, person("carl@berger.example", "Carl")],
                &[lists[1]],
                &[lists[0]],
            )),
        )
        .await;
    assert_eq!(status, 502, "{answer}");
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("sobald Brevo wieder erreichbar ist"),
        "{answer}"
    );
    assert_eq!(pending(&app, &admin).await["count"], 1);
    assert_eq!(
        brevo
            .contact_by_email("anna@berger.example")
            .unwrap()
            .attributes["FIRSTNAME"],
        "Annabell",
        "Brevo has the change until the retry"
    );
    brevo.clear_faults();
    assert_eq!(run_retries(&app, &brevo).await, 0);
    assert_agree(&app, &brevo, "after the retry").await;
}

/// Anna is created, gets the confirmation mail, and confirms while Brevo refuses every
/// contact change: the confirmation must be kept (200) with Brevo's part waiting.
async fn confirm_while_brevo_is_down(app: &TestApp, brevo: &FakeBrevo, admin: &str) {
    let (status, anna) = app
        .call(
            admin,
            "POST",
            "/api/contacts",
            Some(contact_body("anna@example.de", &[])),
        )
        .await;
    assert_eq!(status, 201, "{anna}");
    let (status, sent) = app
        .call(admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 200, "{sent}");
    let token = double_opt_in_token(brevo.sent_emails()[0].body["htmlContent"].as_str().unwrap())
        .expect("a link in the mail");
    brevo.fail_from_nth("PUT", "/contacts/*", 1, 503);
    let (status, answer) = app
        .call(
            admin,
            "PATCH",
            &format!("/api/contacts/confirm-double-opt-in/{token}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "the person did confirm: {answer}");
}

#[tokio::test]
async fn a_confirmation_while_brevo_is_down_is_kept_and_brevo_follows_by_the_retry() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    confirm_while_brevo_is_down(&app, &brevo, &admin).await;
    let stored = db::contacts::find_contact_by_email(&app.test_db.db, "anna@example.de")
        .await
        .unwrap()
        .unwrap();
    assert!(stored.double_opt_in);
    assert_eq!(
        brevo
            .contact_by_email("anna@example.de")
            .unwrap()
            .attributes["DOUBLE_OPT-IN"],
        2
    );
    let retries = pending(&app, &admin).await;
    assert_eq!(retries["count"], 1, "{retries}");
    assert_eq!(retries["content"][0]["email"], "anna@example.de");
    assert_eq!(run_retries(&app, &brevo).await, 1, "Brevo still down");
    brevo.clear_faults();
    assert_eq!(run_retries(&app, &brevo).await, 0);
    assert_agree(&app, &brevo, "after the retry").await;
}

#[tokio::test]
async fn two_instances_running_the_retry_round_at_once_send_each_change_once() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    // A stored retry: a confirmation while Brevo is down.
    confirm_while_brevo_is_down(&app, &brevo, &admin).await;
    assert_eq!(pending(&app, &admin).await["count"], 1);

    // Brevo is back but slow: both instances' minute jobs start their round meanwhile.
    brevo.clear_faults();
    brevo.clear_requests();
    brevo.delay_next(4, std::time::Duration::from_millis(300));
    tokio::join!(run_retries(&app, &brevo), run_retries(&app, &brevo));
    assert_eq!(pending(&app, &admin).await["count"], 0);
    let changes = brevo
        .requests()
        .iter()
        .filter(|r| r.method == "PUT" && r.path.starts_with("/contacts/"))
        .count();
    assert_eq!(
        changes,
        1,
        "the change reached Brevo once: {:?}",
        brevo.requests()
    );
    assert_agree(&app, &brevo, "after both rounds").await;
}
