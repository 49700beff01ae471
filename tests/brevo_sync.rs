//! The contact sync from Brevo over real HTTP (issue 12): the streamed answer read as it
//! arrives, several pages, blocklisted contacts and contacts without a customer number, lists
//! mapped, a second run that takes only what changed, one run at a time, and a run that
//! stopped half-way (Brevo failing, or its holder gone) resumed where it stopped.

mod common;

use std::time::Duration;

use common::TestApp;
use common::fake_brevo::FakeBrevo;
use common::spawn_app_with;
use serde_json::{Value, json};

const ADMIN: &str = "GS-Aktionsportal-Admin";
const PAGE: u32 = 10;

async fn spawn() -> (TestApp, FakeBrevo) {
    spawn_waiting(500).await
}

async fn spawn_waiting(brevo_timeout_ms: u64) -> (TestApp, FakeBrevo) {
    let brevo = FakeBrevo::start().await;
    let (url, key) = (brevo.base_url.clone(), brevo.api_key().to_string());
    let app = spawn_app_with(move |config| {
        config.brevo_api_key = Some(key);
        config.brevo_base_url = url;
        config.brevo_timeout_ms = brevo_timeout_ms;
        config.brevo_sync_page_size = PAGE;
    })
    .await;
    (app, brevo)
}

/// Puts `n` contacts of customer 700000 + i/5 into the fake Brevo, on `list` when given.
fn brevo_contacts(brevo: &FakeBrevo, n: usize, list: Option<i64>) -> Vec<i64> {
    let mut state = brevo.lock();
    (0..n)
        .map(|i| {
            let lists: Vec<i64> = list.into_iter().collect();
            let id = state.add_contact(&format!("kunde{i:03}@sync.example"), &lists);
            let contact = state.contacts.get_mut(&id).unwrap();
            contact
                .attributes
                .insert("KUNDENNUMMER".into(), json!(format!("{}", 700_000 + i / 5)));
            contact
                .attributes
                .insert("FIRMA".into(), json!(format!("Firma {}", i / 5)));
            contact
                .attributes
                .insert("FIRSTNAME".into(), json!(format!("Vor{i}")));
            contact
                .attributes
                .insert("LASTNAME".into(), json!("Nachname"));
            contact.attributes.insert("ANREDE".into(), json!("Frau"));
            id
        })
        .collect()
}

/// Reads the stream object by object; returns them and how many had arrived before the first
/// `page` object (to show they come one by one).
async fn sync(app: &TestApp, token: &str) -> (u16, Vec<Value>) {
    let mut response = app
        .client
        .get(app.url("/api/syncContactsFromBrevo"))
        .header("cookie", format!("ap_session={token}"))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    if status != 200 {
        let body = response.json().await.unwrap_or(Value::Null);
        return (status, vec![body]);
    }
    assert_eq!(
        response.headers()["content-type"],
        "application/x-ndjson",
        "one JSON object per line"
    );
    let mut buffer = Vec::new();
    let mut objects = Vec::new();
    while let Some(chunk) = response.chunk().await.unwrap() {
        buffer.extend_from_slice(&chunk);
        while let Some(end) = buffer.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = buffer.drain(..=end).collect();
            objects.push(serde_json::from_slice::<Value>(&line).unwrap());
        }
    }
    assert!(buffer.is_empty(), "the stream ends with a whole object");
    (status, objects)
}

fn results(objects: &[Value]) -> Vec<&str> {
    objects
        .iter()
        .map(|o| o["result"].as_str().unwrap())
        .collect()
}

async fn contact(app: &TestApp, email: &str) -> Option<aktionsportal::db::contacts::Contact> {
    aktionsportal::db::contacts::find_contact_by_email(&app.test_db.db, email)
        .await
        .unwrap()
}

#[tokio::test]
async fn contacts_come_page_by_page_with_their_lists_and_blocks_and_again_only_when_changed() {
    let (app, brevo) = spawn().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", "GS-Aktionsportal-BU-Glasfaser")
        .await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    let brevo_list = aktionsportal::db::marketing::lists::get(&app.test_db.db, list)
        .await
        .unwrap()
        .unwrap()
        .brevo_list_id
        .unwrap();
    let ids = brevo_contacts(&brevo, 23, Some(brevo_list));
    {
        let mut state = brevo.lock();
        state.contacts.get_mut(&ids[3]).unwrap().email_blacklisted = true;
        state
            .contacts
            .get_mut(&ids[4])
            .unwrap()
            .attributes
            .remove("KUNDENNUMMER");
        state
            .contacts
            .get_mut(&ids[5])
            .unwrap()
            .attributes
            .insert("DOUBLE_OPT-IN".into(), json!(1));
    }

    let (status, objects) = sync(&app, &admin).await;
    assert_eq!(status, 200);
    let results = results(&objects);
    assert_eq!(results.first(), Some(&"start"), "{objects:?}");
    assert_eq!(results.last(), Some(&"done"), "{objects:?}");
    assert_eq!(results.iter().filter(|r| **r == "page").count(), 3);
    assert_eq!(results.iter().filter(|r| **r == "skipped").count(), 1);
    let done = objects.last().unwrap();
    assert_eq!(done["created"], 22);
    assert_eq!(done["skipped"], 1);
    assert!(done["message"].as_str().unwrap().contains("abgeschlossen"));
    for object in &objects {
        assert!(object["message"].as_str().is_some_and(|m| !m.is_empty()));
    }

    let first = contact(&app, "kunde000@sync.example")
        .await
        .expect("synced");
    assert_eq!(first.customer_number, 700_000);
    assert_eq!(first.company_name, "Firma 0");
    assert_eq!(first.firstname, "Vor0");
    assert_eq!(first.salutation, 3);
    assert_eq!(first.brevo_contact_id, Some(ids[0]));
    assert_eq!(
        aktionsportal::db::contacts::list_ids_of_contact(&app.test_db.db, first.id)
            .await
            .unwrap(),
        [list]
    );
    assert!(
        contact(&app, "kunde003@sync.example")
            .await
            .unwrap()
            .email_blacklisted
    );
    assert!(contact(&app, "kunde004@sync.example").await.is_none());
    assert!(
        contact(&app, "kunde005@sync.example")
            .await
            .unwrap()
            .double_opt_in
    );

    // Again: only what changed since (modifiedSince), and changes taken over.
    tokio::time::sleep(Duration::from_millis(20)).await;
    brevo.clear_requests();
    {
        let mut state = brevo.lock();
        let changed = state.contacts.get_mut(&ids[7]).unwrap();
        changed.attributes.insert("LASTNAME".into(), json!("Neu"));
        changed.list_ids.clear();
        changed.modified_at = common::fake_brevo::fake_now();
    }
    let (status, objects) = sync(&app, &admin).await;
    assert_eq!(status, 200, "{objects:?}");
    let list_calls: Vec<_> = brevo
        .requests()
        .into_iter()
        .filter(|r| r.path == "/contacts")
        .collect();
    assert!(
        list_calls
            .iter()
            .all(|r| r.query_param("modifiedSince").is_some()),
        "{list_calls:?}"
    );
    let seven = contact(&app, "kunde007@sync.example").await.unwrap();
    assert_eq!(seven.lastname, "Neu");
    assert!(
        aktionsportal::db::contacts::list_ids_of_contact(&app.test_db.db, seven.id)
            .await
            .unwrap()
            .is_empty()
    );
    let done = objects.last().unwrap();
    assert_eq!(done["result"], "done");
    assert_eq!(done["created"], 0);
    assert!(done["updated"].as_i64().unwrap() >= 1);
}

#[tokio::test]
async fn a_run_stopped_half_way_resumes_where_it_stopped() {
    let (app, brevo) = spawn().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    brevo_contacts(&brevo, 25, None);

    // Brevo fails on the second page: the first page is kept, the stream says so.
    brevo.pass_next(1);
    brevo.fail_next(20, 400);
    let (status, objects) = sync(&app, &admin).await;
    brevo.clear_faults();
    assert_eq!(status, 200);
    assert_eq!(results(&objects), ["start", "page", "error"], "{objects:?}");
    assert!(contact(&app, "kunde009@sync.example").await.is_some());
    assert!(contact(&app, "kunde010@sync.example").await.is_none());

    // The next start resumes at the second page (offset 10), not from the beginning.
    brevo.clear_requests();
    let (_, objects) = sync(&app, &admin).await;
    assert_eq!(objects[0]["resumed"], true, "{objects:?}");
    let offsets: Vec<String> = brevo
        .requests()
        .into_iter()
        .filter(|r| r.path == "/contacts")
        .filter_map(|r| r.query_param("offset"))
        .collect();
    assert_eq!(offsets, ["10", "20"]);
    let done = objects.last().unwrap();
    assert_eq!(done["result"], "done", "{objects:?}");
    assert_eq!(done["created"], 25);
    assert!(contact(&app, "kunde024@sync.example").await.is_some());
}

#[tokio::test]
async fn one_run_at_a_time_and_a_run_whose_holder_died_is_taken_over() {
    let (app, brevo) = spawn().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    brevo_contacts(&brevo, 15, None);
    let db = &app.test_db.db;

    // Another instance holds a live lease: refused with 409.
    let now = aktionsportal::db::now();
    let (acquired, run) = aktionsportal::db::marketing::brevo_syncs::acquire(
        db,
        "andere-instanz",
        now,
        chrono::Duration::seconds(60),
        chrono::Duration::zero(),
    )
    .await
    .unwrap();
    assert_eq!(
        acquired,
        aktionsportal::db::marketing::brevo_syncs::Acquired::Run(false)
    );
    let run = run.unwrap();
    let (status, answer) = sync(&app, &admin).await;
    assert_eq!(status, 409);
    assert_eq!(answer[0]["code"], "sync_running");

    // It got through one page, then died (its lease ran out): the next start takes over.
    let progress = aktionsportal::db::marketing::brevo_syncs::SyncProgress {
        next_offset: 10,
        created: 0,
        ..Default::default()
    };
    assert!(
        aktionsportal::db::marketing::brevo_syncs::advance(
            db,
            run.id,
            "andere-instanz",
            progress,
            now - chrono::Duration::seconds(600),
            chrono::Duration::seconds(60),
        )
        .await
        .unwrap()
    );
    let (status, objects) = sync(&app, &admin).await;
    assert_eq!(status, 200);
    assert_eq!(objects[0]["resumed"], true);
    assert_eq!(objects.last().unwrap()["result"], "done", "{objects:?}");
    // Only the second page was read by the new holder.
    assert!(contact(&app, "kunde010@sync.example").await.is_some());
    assert!(contact(&app, "kunde000@sync.example").await.is_none());
    // The old holder cannot write any more.
    assert!(
        !aktionsportal::db::marketing::brevo_syncs::advance(
            db,
            run.id,
            "andere-instanz",
            progress,
            aktionsportal::db::now(),
            chrono::Duration::seconds(60),
        )
        .await
        .unwrap()
    );
}

#[tokio::test]
async fn only_admins_sync_and_not_without_brevo_or_from_another_site() {
    let (app, _brevo) = spawn().await;
    let moderator = app
        .session_with_roles(&["GS-Aktionsportal-BU-Moderator"])
        .await;
    assert_eq!(sync(&app, &moderator).await.0, 403);
    let admin = app.session_with_roles(&[ADMIN]).await;
    let response = app
        .client
        .get(app.url("/api/syncContactsFromBrevo"))
        .header("cookie", format!("ap_session={admin}"))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);

    let local = common::spawn_app().await;
    let admin = local.session_with_roles(&[ADMIN]).await;
    let (status, answer) = sync(&local, &admin).await;
    assert_eq!(status, 409);
    assert_eq!(answer[0]["code"], "marketing_not_connected");
}

#[tokio::test]
async fn each_object_is_sent_as_it_happens_not_at_the_end() {
    let (app, brevo) = spawn_waiting(5000).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    brevo_contacts(&brevo, 5, None);
    // Brevo takes its time with the page.
    brevo.delay_next(1, Duration::from_millis(1500));
    let started = std::time::Instant::now();
    let mut response = app
        .client
        .get(app.url("/api/syncContactsFromBrevo"))
        .header("cookie", format!("ap_session={admin}"))
        .send()
        .await
        .unwrap();
    let first = response.chunk().await.unwrap().expect("a first object");
    let first_at = started.elapsed();
    let first: Value =
        serde_json::from_slice(first.split(|b| *b == b'\n').next().unwrap()).unwrap();
    assert_eq!(first["result"], "start");
    assert!(first_at < Duration::from_millis(1000), "{first_at:?}");
    let mut rest = Vec::new();
    while let Some(chunk) = response.chunk().await.unwrap() {
        rest.extend_from_slice(&chunk);
    }
    assert!(started.elapsed() >= Duration::from_millis(1500));
    assert!(
        String::from_utf8(rest)
            .unwrap()
            .contains("\"result\":\"done\"")
    );
}
