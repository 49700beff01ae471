//! Erasure of a contact (issue 25, DSGVO Art. 17): `POST /api/contacts/{id}/erase` removes it in
//! Brevo and here, and afterwards neither the database (its dump, and for SQLite the file
//! itself) nor the data folder holds its address, name or company. A Brevo failure changes
//! nothing.

mod common;

use std::path::Path;

use common::fake_smtp::ReceivedMail;
use common::*;
use serde_json::{Value, json};

const ADMIN: &str = "GS-Aktionsportal-Admin";
const MODERATOR: &str = "GS-Aktionsportal-BU-Moderator";
const EMAIL: &str = "anna.zwoelfling@example.de";
/// Her last name and company name: words nothing else in the data holds.
const NAME: &str = "Zwölfling";

fn anna(lists: &[i64], firstname: &str) -> Value {
    json!({
        "customerNumber": 100_777,
        "companyName": format!("{NAME} Haustechnik"),
        "email": EMAIL,
        "salutation": 3,
        "firstname": firstname,
        "lastname": NAME,
        "listsIds": lists,
    })
}

/// Every byte the installation keeps: the data folder (for SQLite with its database file and
/// write-ahead log) and, for PostgreSQL, a dump of the database.
fn everything_stored(app: &TestApp) -> Vec<u8> {
    let mut bytes = Vec::new();
    read_tree(&app.test_db.data_dir, &mut bytes);
    if app.test_db.url.starts_with("postgres") {
        let dump = std::process::Command::new("pg_dump")
            .arg("--dbname")
            .arg(&app.test_db.url)
            .output()
            .expect("pg_dump");
        assert!(dump.status.success(), "{dump:?}");
        bytes.extend(dump.stdout);
    }
    bytes
}

fn read_tree(dir: &Path, into: &mut Vec<u8>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_tree(&path, into);
        } else if let Ok(bytes) = std::fs::read(&path) {
            into.extend(bytes);
        }
    }
}

fn holds(haystack: &[u8], needle: &str) -> bool {
    let needle = needle.as_bytes();
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// The outbox's mails (the portal sends there without SMTP).
fn outbox(app: &TestApp) -> Vec<ReceivedMail> {
    let Ok(entries) = std::fs::read_dir(app.test_db.data_dir.join("outbox")) else {
        return Vec::new();
    };
    entries
        .map(|e| ReceivedMail {
            from: String::new(),
            to: Vec::new(),
            data: std::fs::read_to_string(e.unwrap().path()).unwrap(),
        })
        .collect()
}

/// Anna on a list, changed once, a candidate of the planning system, and Bernd of another
/// customer; Anna's id, the list, and Bernd's address.
async fn anna_and_bernd(app: &TestApp, admin: &str) -> (i64, i64) {
    let provider = app
        .create_provider(admin, "Glasfaser Süd", "GS-Aktionsportal-BU-Glasfaser")
        .await;
    let list = app.create_list(admin, provider, "Neukunden").await;
    let (status, created) = app
        .call(admin, "POST", "/api/contacts", Some(anna(&[list], "Anna")))
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let (status, changed) = app
        .call(
            admin,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(anna(&[list], "Annette")),
        )
        .await;
    assert_eq!(status, 200, "{changed}");
    aktionsportal::db::contacts::planning_candidates::replace(
        &app.test_db.db,
        &[
            aktionsportal::db::contacts::planning_candidates::PlanningCandidate {
                customer_number: 100_777,
                company_name: format!("{NAME} Haustechnik"),
                salutation: 3,
                firstname: "Anna".into(),
                lastname: NAME.into(),
                email: EMAIL.to_uppercase(),
            },
        ],
        chrono::Utc::now(),
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let (status, bernd) = app
        .call(
            admin,
            "POST",
            "/api/contacts",
            Some(
                json!({"customerNumber": 100_001, "companyName": "Bleibt GmbH",
                        "email": "bernd.bleibt@example.de", "salutation": 2,
                        "firstname": "Bernd", "lastname": "Bleibt", "listsIds": [list]}),
            ),
        )
        .await;
    assert_eq!(status, 201, "{bernd}");
    (id, list)
}

/// Nothing of Anna anywhere; Bernd still there (so the search can see).
fn nothing_of_anna_remains(app: &TestApp) {
    let stored = everything_stored(app);
    for personal in [EMAIL, NAME, "Annette"] {
        assert!(!holds(&stored, personal), "{personal} is still stored");
    }
    assert!(holds(&stored, "bernd.bleibt@example.de"), "others stay");
}

#[tokio::test]
async fn an_erased_contact_leaves_nothing_personal_behind() {
    // Local mode: the mails go to the outbox folder.
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (id, list) = anna_and_bernd(&app, &admin).await;
    let (status, sent) = app
        .call(&admin, "POST", &format!("/api/smtp/email/{EMAIL}"), None)
        .await;
    assert_eq!(status, 200, "{sent}");
    let mails = outbox(&app);
    assert_eq!(mails.len(), 1);
    let token = mails[0].double_opt_in_token().expect("link");
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/confirm-double-opt-in/{token}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (_, export) = app
        .call(&admin, "GET", &format!("/api/contacts/{id}/export"), None)
        .await;
    assert_eq!(export["contact"]["consent"]["proven"], true, "{export}");
    assert_eq!(
        export["outboxFiles"].as_array().unwrap().len(),
        1,
        "{export}"
    );
    assert!(
        holds(&everything_stored(&app), EMAIL),
        "the test can see what is stored"
    );

    // Only the admin may erase.
    let moderator = app.session_with_roles(&[MODERATOR]).await;
    let (status, _) = app
        .call(
            &moderator,
            "POST",
            &format!("/api/contacts/{id}/erase"),
            None,
        )
        .await;
    assert_eq!(status, 403);

    let (status, report) = app
        .call(&admin, "POST", &format!("/api/contacts/{id}/erase"), None)
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["message"], "Der Kontakt wurde endgültig gelöscht.");
    assert_eq!(report["id"], id);
    assert_eq!(report["marketingService"], false);
    assert_eq!(report["lists"], 1);
    assert_eq!(report["planningCandidates"], 1);
    assert_eq!(report["customerGroup"], true);
    assert_eq!(report["outboxFiles"], 1);
    assert!(report["auditEntries"].as_u64().unwrap() >= 3, "{report}");
    nothing_of_anna_remains(&app);
    assert!(outbox(&app).is_empty());

    // The log keeps what happened to the record, without the person.
    let (_, log) = app
        .call(
            &admin,
            "GET",
            &format!("/api/audit?entity=contact&entityId={id}"),
            None,
        )
        .await;
    let actions: Vec<&str> = log["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    // Newest first.
    assert_eq!(actions.first(), Some(&"erase"), "{actions:?}");
    assert_eq!(actions.last(), Some(&"create"), "{actions:?}");
    for kept in [
        "update",
        "doubleOptInSent",
        "doubleOptInConfirmed",
        "export",
    ] {
        assert!(actions.contains(&kept), "{kept}: {actions:?}");
    }
    let first = &log["content"][actions.len() - 1]["changes"];
    assert_eq!(first["email"]["after"], "gelöscht", "{first}");
    assert_eq!(first["lastname"]["after"], "gelöscht", "{first}");

    // Gone for every call.
    for (method, path) in [
        ("GET", format!("/api/contacts/{id}/export")),
        ("POST", format!("/api/contacts/{id}/erase")),
    ] {
        let (status, _) = app.call(&admin, method, &path, None).await;
        assert_eq!(status, 404, "{method} {path}");
    }
    let (_, found) = app
        .call(&admin, "GET", &format!("/api/contacts/email/{EMAIL}"), None)
        .await;
    assert_eq!(found, json!({}));
    let (_, listed) = app
        .call(&admin, "GET", &format!("/api/contacts?liste={list}"), None)
        .await;
    assert_eq!(listed["count"], 1, "Bernd alone: {listed}");
}

#[tokio::test]
async fn brevo_deletes_first_and_a_brevo_failure_changes_nothing_here() {
    let (app, brevo) = spawn_app_with_brevo(2_000).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (id, list) = anna_and_bernd(&app, &admin).await;
    assert!(brevo.lock().contact_id_by_email(EMAIL).is_some());

    brevo.fail_from_nth("DELETE", "/contacts/*", 1, 500);
    let (status, refused) = app
        .call(&admin, "POST", &format!("/api/contacts/{id}/erase"), None)
        .await;
    assert_eq!(status, 502, "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains("Brevo") && message.ends_with("Es wurde nichts gelöscht."),
        "{refused}"
    );
    brevo.clear_faults();
    let (status, still) = app
        .call(&admin, "GET", &format!("/api/contacts/{id}/export"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(still["contact"]["firstname"], "Annette");
    assert_eq!(still["contact"]["listsIds"], json!([list]));
    assert!(brevo.lock().contact_id_by_email(EMAIL).is_some());
    let (_, log) = app
        .call(
            &admin,
            "GET",
            &format!("/api/audit?entity=contact&entityId={id}"),
            None,
        )
        .await;
    assert_ne!(log["content"][0]["action"], "erase", "{log}");

    let (status, report) = app
        .call(&admin, "POST", &format!("/api/contacts/{id}/erase"), None)
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["marketingService"], true);
    assert!(brevo.lock().contact_id_by_email(EMAIL).is_none());
    assert!(
        brevo
            .lock()
            .contact_id_by_email("bernd.bleibt@example.de")
            .is_some()
    );
    nothing_of_anna_remains(&app);
}

#[tokio::test]
async fn a_contact_of_a_group_goes_alone_in_local_mode() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let mut ids = Vec::new();
    for email in ["eins@example.de", "zwei@example.de"] {
        let mut body = anna(&[], "Anna");
        body["email"] = json!(email);
        let (status, created) = app.call(&admin, "POST", "/api/contacts", Some(body)).await;
        assert_eq!(status, 201, "{created}");
        ids.push(created["id"].as_i64().unwrap());
    }
    // Customer number 100777 took a flyer of package 9, as the statistics writer
    // records it.
    let (status, flyer) = app.upload(&admin, "Flyer.pdf", b"%PDF-1.4\n").await;
    assert_eq!(status, 200, "{flyer}");
    execute(
        &app,
        &format!(
            "insert into package_takers (download_id, customer_number, upload_id, first_at, \
             last_at, created_at, updated_at) values (9, 100777, {}, '2026-11-01T10:00:00Z', \
             '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z')",
            flyer["id"]
        ),
    )
    .await;
    let (status, report) = app
        .call(
            &admin,
            "POST",
            &format!("/api/contacts/{}/erase", ids[0]),
            None,
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["marketingService"], false);
    assert_eq!(report["customerGroup"], false, "zwei is still in it");
    assert_eq!(report["packageTakers"], 0, "{report}");
    let (status, group) = app
        .call(&admin, "GET", "/api/contacts/customer-number/100777", None)
        .await;
    assert_eq!(status, 200);
    let emails: Vec<&str> = group["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["email"].as_str().unwrap())
        .collect();
    assert_eq!(emails, ["zwei@example.de"]);
    assert!(!holds(&everything_stored(&app), "eins@example.de"));
    // What the customer number took stays with the group's other contact, and goes with it.
    let db = &app.test_db.db;
    let takers = || aktionsportal::db::insight::statistics::takers::files_taken(db, 9, 100777);
    assert_eq!(takers().await.unwrap(), ["Flyer.pdf"]);
    let (status, export) = app
        .call(
            &admin,
            "GET",
            &format!("/api/contacts/{}/export", ids[1]),
            None,
        )
        .await;
    assert_eq!(status, 200, "{export}");
    assert_eq!(
        export["stored"]["packageTakers"][0]["download_id"], "9",
        "{export}"
    );
    let (status, report) = app
        .call(
            &admin,
            "POST",
            &format!("/api/contacts/{}/erase", ids[1]),
            None,
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["customerGroup"], true, "{report}");
    assert_eq!(report["packageTakers"], 1, "{report}");
    assert!(takers().await.unwrap().is_empty());
    let (status, _) = app
        .call(&admin, "POST", "/api/contacts/abc/erase", None)
        .await;
    assert_eq!(status, 404);
}

/// Runs `sql` on the app's database.
async fn execute(app: &TestApp, sql: &str) {
    aktionsportal::db_run!(&app.test_db.db, pool => sqlx::query(sql).execute(pool).await.map(|_| ()))
        .unwrap();
}

/// The stored `changes` and erasure record of every audit entry that names `id` or its address,
/// byte for byte as kept.
async fn entries_of(app: &TestApp, id: i64, email: &str) -> Vec<(i64, String, Option<String>)> {
    let sql = format!(
        "select id, changes, erasures from audit_log where (entity = 'contact' and entity_id = {id}) \
         or changes like '%{email}%' order by id"
    );
    aktionsportal::db_run!(&app.test_db.db, pool => sqlx::query_as(&sql).fetch_all(pool).await)
        .unwrap()
}

#[tokio::test]
async fn an_erasure_touches_only_what_belongs_to_the_erased_person() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", "GS-Aktionsportal-BU-Glasfaser")
        .await;
    let list = app.create_list(&admin, provider, "Neukunden").await;
    // B is erased; the others' addresses contain B's, extend it, or add a +tag.
    let erased = "a.mueller.x@example.de";
    let others = [
        "anna.mueller.x@example.de",
        "a.mueller.x@example.dev",
        "a.mueller.x+news@example.de",
        "xa.mueller.x@example.de",
    ];
    let mut ids = Vec::new();
    for (n, email) in std::iter::once(&erased).chain(others.iter()).enumerate() {
        let (status, created) = app
            .call(
                &admin,
                "POST",
                "/api/contacts",
                Some(json!({"customerNumber": 100_002 + n as i64, "companyName": format!("Firma {n}"),
                            "email": email, "salutation": 2, "firstname": "Anna",
                            "lastname": "Müller", "listsIds": [list]})),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        ids.push(created["id"].as_i64().unwrap());
        let (status, sent) = app
            .call(&admin, "POST", &format!("/api/smtp/email/{email}"), None)
            .await;
        assert_eq!(status, 200, "{sent}");
    }
    let b = ids[0];
    // A mail of a mass mailing and a change for Brevo still waiting, for B and for the others;
    // the log names B in another record's text in upper case (the same address).
    let now = "'2026-11-20T10:00:00Z'";
    execute(
        &app,
        &format!(
            "insert into mail_jobs (id, kind, status, total, started_by, created_at, updated_at) \
             values (900, 'doubleOptIn', 'done', {}, 'admin', {now}, {now})",
            ids.len()
        ),
    )
    .await;
    for (id, email) in ids
        .iter()
        .zip(std::iter::once(&erased).chain(others.iter()))
    {
        execute(
            &app,
            &format!(
                "insert into mail_job_items (job_id, contact_id, state, attempts, created_at, updated_at) \
                 values (900, {id}, 'sent', 1, {now}, {now})"
            ),
        )
        .await;
        execute(
            &app,
            &format!(
                "insert into marketing_retries (email, operation, body, attempts, created_at, updated_at) \
                 values ('{email}', 'upsert', '{{}}', 1, {now}, {now})"
            ),
        )
        .await;
    }
    let (status, renamed) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/lists/name/{list}"),
            Some(json!({"name": "Neukunden (Hinweis von A.MUELLER.X@Example.DE)"})),
        )
        .await;
    assert_eq!(status, 200, "{renamed}");

    let before: Vec<_> = stored_entries(&app, &ids[1..], &others).await;
    let outbox_before = outbox_files(&app);
    assert_eq!(outbox_before.len(), ids.len(), "one mail each");

    // The export names everything the erasure then removes.
    let (status, export) = app
        .call(&admin, "GET", &format!("/api/contacts/{b}/export"), None)
        .await;
    assert_eq!(status, 200, "{export}");
    let stored = &export["stored"];

    let (status, report) = app
        .call(&admin, "POST", &format!("/api/contacts/{b}/erase"), None)
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["mails"], 1, "{report}");
    assert_eq!(report["marketingRetries"], 1, "{report}");
    assert_eq!(report["tokens"], 1, "{report}");
    assert_eq!(report["lists"], 1, "{report}");
    assert_eq!(report["outboxFiles"], 1, "{report}");
    for place in [
        "lists",
        "tokens",
        "mails",
        "unsubscribeLinks",
        "marketingRetries",
        "planningCandidates",
        "packageTakers",
    ] {
        assert_eq!(
            stored[place].as_array().map(Vec::len),
            report[place].as_u64().map(|n| n as usize),
            "{place}: the export showed what the erasure removed: {stored}"
        );
    }
    assert_eq!(
        export["audit"].as_array().unwrap().len() as u64,
        report["auditEntries"].as_u64().unwrap(),
        "the export showed every entry the erasure rewrote: {export}"
    );

    // The others' entries, mails and waiting changes are as they were, byte for byte.
    assert_eq!(stored_entries(&app, &ids[1..], &others).await, before);
    let outbox_after = outbox_files(&app);
    assert_eq!(outbox_after.len(), others.len());
    for (name, bytes) in &outbox_after {
        assert_eq!(outbox_before.get(name), Some(bytes), "{name}");
    }
    let left: i64 = aktionsportal::db_run!(&app.test_db.db, pool => sqlx::query_scalar(
        "select count(*) from marketing_retries").fetch_one(pool).await)
    .unwrap();
    assert_eq!(left, others.len() as i64);

    // The list's entry lost B's address, kept the rest of the text, and says which erasure did
    // it, when and in which field.
    let (_, log) = app
        .call(
            &admin,
            "GET",
            &format!("/api/audit?entity=list&entityId={list}"),
            None,
        )
        .await;
    let entry = log["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["action"] == "update")
        .unwrap();
    assert_eq!(
        entry["changes"]["name"]["after"], "Neukunden (Hinweis von gelöscht)",
        "{entry}"
    );
    let (_, erasure) = app
        .call(
            &admin,
            "GET",
            &format!("/api/audit?entity=contact&entityId={b}&limit=1"),
            None,
        )
        .await;
    let erasure = &erasure["content"][0];
    assert_eq!(erasure["action"], "erase");
    assert_eq!(entry["erasures"][0]["fields"], json!(["name"]), "{entry}");
    assert_eq!(entry["erasures"][0]["at"], erasure["at"], "{entry}");
    assert!(
        entry["erasures"][0]["erasure"].as_i64().is_some(),
        "{entry}"
    );
}

/// Each other contact's stored entries.
async fn stored_entries(
    app: &TestApp,
    ids: &[i64],
    emails: &[&str],
) -> Vec<Vec<(i64, String, Option<String>)>> {
    let mut all = Vec::new();
    for (id, email) in ids.iter().zip(emails) {
        let entries = entries_of(app, *id, email).await;
        assert!(!entries.is_empty(), "{email} has entries");
        all.push(entries);
    }
    all
}

/// The outbox's files by name, with their bytes.
fn outbox_files(app: &TestApp) -> std::collections::BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(app.test_db.data_dir.join("outbox")) else {
        return Default::default();
    };
    entries
        .map(|e| {
            let path = e.unwrap().path();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_export_shows_a_planning_candidate_and_is_refused_from_another_site() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (id, _) = anna_and_bernd(&app, &admin).await;
    let (status, export) = app
        .call(&admin, "GET", &format!("/api/contacts/{id}/export"), None)
        .await;
    assert_eq!(status, 200, "{export}");
    let candidates = export["stored"]["planningCandidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 1, "{export}");
    assert_eq!(
        candidates[0]["email"]
            .as_str()
            .map(str::to_lowercase)
            .as_deref(),
        Some(EMAIL)
    );
    assert_eq!(candidates[0]["lastname"], NAME);

    // Another site's page cannot make the admin's browser export (and log it).
    let count = |log: &Value| log["count"].as_i64().unwrap();
    let path = format!("/api/audit?entity=contact&entityId={id}");
    let (_, log) = app.call(&admin, "GET", &path, None).await;
    let response = app
        .get_with(
            &admin,
            &format!("/api/contacts/{id}/export"),
            &[("sec-fetch-site", "cross-site")],
        )
        .await;
    assert_eq!(response.status(), 403);
    let refusal: Value = response.json().await.unwrap();
    assert_eq!(refusal["code"], "cross_site_request", "{refusal}");
    let (_, after) = app.call(&admin, "GET", &path, None).await;
    assert_eq!(count(&after), count(&log), "nothing logged");
}
