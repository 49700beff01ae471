//! The contact editor's calls over real HTTP (issue 12): a customer group read with its import
//! candidates (from a fake planning system on 127.0.0.1 and from CSV files) and saved as one
//! unit, in local mode and mirrored to the fake Brevo, including Brevo failing half-way.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use common::fake_brevo::FakeBrevo;
use common::{TestApp, spawn_app, spawn_app_with};
use serde_json::{Value, json};

const ADMIN: &str = "GS-Aktionsportal-Admin";
const MODERATOR: &str = "GS-Aktionsportal-BU-Moderator";
const DOI: &str = "GS-Aktionsportal-BU-DOI";
const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

/// A provider with the Glasfaser role and two lists: (list 1, list 2).
async fn two_lists(app: &TestApp, admin: &str) -> (i64, i64) {
    let provider = app.create_provider(admin, "Glasfaser Süd", GLASFASER).await;
    let a = app.create_list(admin, provider, "Glasfaser Privat").await;
    let b = app.create_list(admin, provider, "Glasfaser Gewerbe").await;
    (a, b)
}

fn person(email: &str, first: &str) -> Value {
    json!({ "email": email, "salutation": 2, "firstname": first, "lastname": "Berger" })
}

fn group(contacts: Vec<Value>, lists: &[i64], unchecked: &[i64]) -> Value {
    json!({
        "customerNumber": 200_001,
        "companyName": "Berger Elektro GmbH",
        "listsIds": lists,
        "uncheckedListsIds": unchecked,
        "contacts": contacts,
        "alphaPlanContacts": [],
    })
}

async fn save(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    app.call(
        token,
        "PUT",
        "/api/contacts/customer-number/200001",
        Some(body),
    )
    .await
}

async fn load(app: &TestApp, token: &str, number: i64) -> Value {
    let (status, answer) = app
        .call(
            token,
            "GET",
            &format!("/api/contacts/customer-number/{number}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    answer
}

fn emails(group: &Value) -> Vec<String> {
    let mut all: Vec<String> = group["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["email"].as_str().unwrap().to_string())
        .collect();
    all.sort();
    all
}

fn id_of(group: &Value, email: &str) -> i64 {
    group["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["email"] == email)
        .unwrap_or_else(|| panic!("{email} in {group}"))["id"]
        .as_i64()
        .unwrap()
}

fn lists_of(group: &Value, email: &str) -> Value {
    group["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["email"] == email)
        .unwrap()["listsIds"]
        .clone()
}

#[tokio::test]
async fn a_group_is_created_edited_and_refused_as_one_unit() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (l1, l2) = two_lists(&app, &admin).await;

    // Before anything exists: no contacts, no company, and no planning system connected.
    let empty = load(&app, &admin, 200_001).await;
    assert_eq!(empty["content"], json!([]));
    assert_eq!(empty["imports"]["company"], Value::Null);
    assert!(
        empty["imports"]["message"]
            .as_str()
            .unwrap()
            .contains("kein Planungssystem"),
        "{empty}"
    );

    // Create: two new contacts and a chosen candidate, on list 1.
    let mut body = group(
        vec![
            person("anna@berger.example", "Anna"),
            person("ben@berger.example", "Ben"),
        ],
        &[l1],
        &[],
    );
    body["alphaPlanContacts"] = json!([person("chef@berger.example", "Carl")]);
    let (status, created) = save(&app, &admin, body).await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(
        emails(&created),
        [
            "anna@berger.example",
            "ben@berger.example",
            "chef@berger.example"
        ]
    );
    assert_eq!(
        created["imports"]["company"]["companyName"],
        "Berger Elektro GmbH"
    );
    for email in emails(&created) {
        assert_eq!(lists_of(&created, &email), json!([l1]));
    }
    let anna = id_of(&created, "anna@berger.example");
    let ben = id_of(&created, "ben@berger.example");
    let carl = id_of(&created, "chef@berger.example");

    // Edit: Anna renamed, Ben removed, Carl not named (kept), a new one; list 1 off, 2 on.
    let mut renamed = person("anna@berger.example", "Annabell");
    renamed["id"] = json!(anna);
    let body = group(
        vec![
            renamed,
            json!({ "id": ben, "remove": true }),
            person("dora@berger.example", "Dora"),
        ],
        &[l2],
        &[l1],
    );
    let (status, edited) = save(&app, &admin, body).await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(
        emails(&edited),
        [
            "anna@berger.example",
            "chef@berger.example",
            "dora@berger.example"
        ]
    );
    let firstname = edited["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == anna)
        .unwrap()["firstname"]
        .clone();
    assert_eq!(firstname, "Annabell");
    for email in emails(&edited) {
        assert_eq!(lists_of(&edited, &email), json!([l2]), "{email}");
    }
    assert_eq!(id_of(&edited, "chef@berger.example"), carl);

    // Refusals change nothing.
    let before = load(&app, &admin, 200_001).await;
    let other = app.session_with_roles(&[ADMIN]).await;
    let (status, _) = app
        .call(
            &other,
            "POST",
            "/api/contacts",
            Some(json!({
                "customerNumber": 300_001, "companyName": "Andere GmbH",
                "email": "fremd@andere.example", "salutation": 3,
                "firstname": "Frida", "lastname": "Fremd", "listsIds": [l1],
            })),
        )
        .await;
    assert_eq!(status, 201);
    let cases: Vec<(Value, u16, &str)> = vec![
        (
            group(
                vec![
                    person("neu@berger.example", "Neu"),
                    person("NEU@berger.example ", "Doppelt"),
                ],
                &[l2],
                &[],
            ),
            409,
            "E-Mail doppelt vorhanden!",
        ),
        (
            group(
                vec![person("anna@berger.example", "Zweite Anna")],
                &[l2],
                &[],
            ),
            409,
            "E-Mail doppelt vorhanden!",
        ),
        (
            group(vec![person("fremd@andere.example", "Frida")], &[l2], &[]),
            409,
            "Die E-Mail fremd@andere.example ist bereits unter der Kundennummer 300001 registriert.",
        ),
        (
            group(vec![person("neu@berger.example", "Neu")], &[], &[l2]),
            400,
            "Es muss mindestens ein Kriterium ausgewählt werden.",
        ),
        (
            group(vec![json!({ "id": 999_999, "remove": true })], &[l2], &[]),
            400,
            "gehört nicht zur Kundennummer 200001",
        ),
        (
            group(
                vec![
                    json!({ "email": "kaputt", "salutation": 2, "firstname": "K", "lastname": "P" }),
                ],
                &[l2],
                &[],
            ),
            400,
            "Kontakt kaputt:",
        ),
        (
            group(
                vec![person("neu@berger.example", "Neu")],
                &[l2, 987_654],
                &[],
            ),
            400,
            "existiert nicht",
        ),
    ];
    for (body, expected_status, expected_text) in cases {
        let (status, answer) = save(&app, &admin, body.clone()).await;
        assert_eq!(status, expected_status, "{body} → {answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(expected_text),
            "{answer}"
        );
        assert_eq!(
            load(&app, &admin, 200_001).await["content"],
            before["content"]
        );
    }
    // The path's number and the form's must agree; a number that is none is refused.
    let mut wrong = group(vec![], &[l2], &[]);
    wrong["customerNumber"] = json!(200_002);
    assert_eq!(save(&app, &admin, wrong).await.0, 400);
    let (status, _) = app
        .call(&admin, "GET", "/api/contacts/customer-number/abc", None)
        .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn bu_doi_may_import_and_save_but_not_rename_delete_or_add_criteria() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (l1, l2) = two_lists(&app, &admin).await;
    let (status, created) = save(
        &app,
        &admin,
        group(vec![person("anna@berger.example", "Anna")], &[l1], &[]),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let anna = id_of(&created, "anna@berger.example");
    let doi = app.session_with_roles(&[DOI]).await;

    let mut renamed = person("anna@berger.example", "Anders");
    renamed["id"] = json!(anna);
    let forbidden = [
        group(vec![renamed], &[l1], &[]),
        group(vec![json!({ "id": anna, "remove": true })], &[l1], &[]),
        group(vec![], &[l1, l2], &[]),
    ];
    for body in forbidden {
        let (status, answer) = save(&app, &doi, body).await;
        assert_eq!(status, 403, "{answer}");
    }
    // An import candidate becomes a contact with the group's criteria; no criterion needed.
    let mut body = group(vec![], &[l1], &[]);
    body["alphaPlanContacts"] = json!([person("import@berger.example", "Ida")]);
    let (status, saved) = save(&app, &doi, body).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(lists_of(&saved, "import@berger.example"), json!([l1]));
    let mut body = group(vec![person("ohne@berger.example", "Olaf")], &[], &[]);
    body["contacts"][0]["salutation"] = json!(0);
    let (status, saved) = save(&app, &doi, body).await;
    assert_eq!(status, 200, "{saved}");

    // A moderator without the provider's role may keep its lists but not take them off.
    let moderator = app.session_with_roles(&[MODERATOR]).await;
    let (status, _) = save(&app, &moderator, group(vec![], &[l1], &[])).await;
    assert_eq!(status, 200);
    let (status, _) = save(&app, &moderator, group(vec![], &[l2], &[l1])).await;
    assert_eq!(status, 403);
    // Dealers have no business here.
    let dealer = app.session_with_roles(&["GS-Aktionsportal"]).await;
    let (status, _) = save(&app, &dealer, group(vec![], &[l1], &[])).await;
    assert_eq!(status, 403);
}

async fn spawn_with_brevo() -> (TestApp, FakeBrevo) {
    common::spawn_app_with_brevo(500).await
}

fn remote_lists(brevo: &FakeBrevo, email: &str) -> Vec<i64> {
    brevo.contact_by_email(email).expect("in Brevo").list_ids
}

#[tokio::test]
async fn with_brevo_a_save_is_mirrored_and_a_failure_half_way_is_undone() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (l1, l2) = two_lists(&app, &admin).await;
    let brevo_list = |id: i64| {
        let db = app.test_db.db.clone();
        async move {
            aktionsportal::db::marketing::lists::get(&db, id)
                .await
                .unwrap()
                .unwrap()
                .brevo_list_id
                .unwrap()
        }
    };
    let (b1, b2) = (brevo_list(l1).await, brevo_list(l2).await);

    let (status, created) = save(
        &app,
        &admin,
        group(
            vec![
                person("anna@berger.example", "Anna"),
                person("ben@berger.example", "Ben"),
            ],
            &[l1],
            &[],
        ),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let remote = brevo.contact_by_email("anna@berger.example").unwrap();
    assert_eq!(remote.list_ids, [b1]);
    assert_eq!(remote.attributes["KUNDENNUMMER"], "200001");
    assert_eq!(remote.attributes["FIRMA"], "Berger Elektro GmbH");
    assert_eq!(
        created["content"][0]["brevoContactId"].as_i64(),
        Some(
            brevo
                .contact_by_email(created["content"][0]["email"].as_str().unwrap())
                .unwrap()
                .id
        )
    );
    let anna = id_of(&created, "anna@berger.example");
    let ben = id_of(&created, "ben@berger.example");

    // Brevo fails in the middle (after the first steps went through): 502, nothing here, and
    // Brevo as it was (the deletion of Ben and Anna's lists undone).
    let before_here = load(&app, &admin, 200_001).await["content"].clone();
    let mut renamed = person("anna@berger.example", "Annabell");
    renamed["id"] = json!(anna);
    let body = group(
        vec![
            json!({ "id": ben, "remove": true }),
            renamed,
            person("carl@berger.example", "Carl"),
        ],
        &[l2],
        &[l1],
    );
    // Ben: a snapshot read and the delete; Anna: a read and the update; Carl: a read, and
    // then Brevo refuses to create him.
    brevo.pass_next(5);
    brevo.fail_next(1, 400);
    let started = Instant::now();
    let (status, answer) = save(&app, &admin, body.clone()).await;
    brevo.clear_faults();
    assert_eq!(status, 502, "{answer}");
    let message = answer["message"].as_str().unwrap();
    assert!(message.contains("zurückgenommen"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(load(&app, &admin, 200_001).await["content"], before_here);
    assert_eq!(remote_lists(&brevo, "anna@berger.example"), [b1]);
    assert_eq!(
        brevo
            .contact_by_email("anna@berger.example")
            .unwrap()
            .attributes["FIRSTNAME"],
        "Anna"
    );
    assert_eq!(remote_lists(&brevo, "ben@berger.example"), [b1]);
    assert!(brevo.contact_by_email("carl@berger.example").is_none());

    // Again with Brevo up: everything goes through, on both sides.
    let (status, saved) = save(&app, &admin, body).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(
        emails(&saved),
        ["anna@berger.example", "carl@berger.example"]
    );
    assert!(brevo.contact_by_email("ben@berger.example").is_none());
    assert_eq!(remote_lists(&brevo, "anna@berger.example"), [b2]);
    assert_eq!(remote_lists(&brevo, "carl@berger.example"), [b2]);
    assert_eq!(
        brevo
            .contact_by_email("anna@berger.example")
            .unwrap()
            .attributes["FIRSTNAME"],
        "Annabell"
    );
}

/// A fake planning system: 400001 known, 499998 slow, 499999 broken, others unknown.
async fn fake_planning() -> SocketAddr {
    async fn customer(Path(number): Path<i64>) -> axum::response::Response {
        match number {
            400_001 => axum::Json(json!({
                "customerNumber": 400_001,
                "companyName": "Planungs GmbH",
                "contacts": [
                    { "salutation": 2, "firstname": "Paul", "lastname": "Plan", "email": "Paul.Plan@Planung.example" },
                    { "salutation": "Frau", "firstname": "Petra", "lastname": "Plan", "email": "petra@planung.example" },
                    { "salutation": 9, "firstname": "Ohne", "lastname": "Mail", "email": "keine-mail" },
                    { "salutation": 3, "firstname": "Frida", "lastname": "Fremd", "email": "fremd@andere.example" },
                ],
            }))
            .into_response(),
            499_998 => {
                tokio::time::sleep(Duration::from_secs(30)).await;
                StatusCode::OK.into_response()
            }
            499_999 => (StatusCode::INTERNAL_SERVER_ERROR, "kaputt").into_response(),
            _ => StatusCode::NOT_FOUND.into_response(),
        }
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = Router::new().route("/customers/{number}", get(customer));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

fn candidates(group: &Value) -> Vec<String> {
    group["imports"]["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["email"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn candidates_come_from_the_planning_system_and_its_failures_only_give_a_message() {
    let planning = fake_planning().await;
    let app = spawn_app_with(move |config| {
        config.planning_url = Some(format!("http://{planning}/"));
        config.planning_timeout_secs = 1;
    })
    .await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (l1, _) = two_lists(&app, &admin).await;
    let (status, _) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(json!({
                "customerNumber": 300_001, "companyName": "Andere GmbH",
                "email": "fremd@andere.example", "salutation": 3,
                "firstname": "Frida", "lastname": "Fremd", "listsIds": [l1],
            })),
        )
        .await;
    assert_eq!(status, 201);

    // Found: the company and the candidates with a valid email; one used elsewhere says so.
    let found = load(&app, &admin, 400_001).await;
    assert_eq!(found["imports"]["company"]["companyName"], "Planungs GmbH");
    assert_eq!(found["imports"]["message"], Value::Null);
    assert_eq!(
        candidates(&found),
        [
            "paul.plan@planung.example",
            "petra@planung.example",
            "fremd@andere.example"
        ]
    );
    assert_eq!(found["imports"]["contacts"][1]["salutation"], 3);
    assert_eq!(found["imports"]["contacts"][0]["source"], "service");
    assert_eq!(
        found["imports"]["contacts"][2]["existingCustomerNumber"],
        300_001
    );

    // A candidate taken over is no candidate any more.
    let (status, saved) = app
        .call(
            &admin,
            "PUT",
            "/api/contacts/customer-number/400001",
            Some(json!({
                "customerNumber": 400_001, "companyName": "Planungs GmbH",
                "listsIds": [l1], "uncheckedListsIds": [], "contacts": [],
                "alphaPlanContacts": [person("paul.plan@planung.example", "Paul")],
            })),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(emails(&saved), ["paul.plan@planung.example"]);
    assert_eq!(
        candidates(&saved),
        ["petra@planung.example", "fremd@andere.example"]
    );

    // Unknown, slow, broken: the group still loads, with a German message.
    let unknown = load(&app, &admin, 123_456).await;
    assert!(
        unknown["imports"]["message"]
            .as_str()
            .unwrap()
            .contains("kennt die Kundennummer 123456 nicht")
    );
    let started = Instant::now();
    let slow = load(&app, &admin, 499_998).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        slow["imports"]["message"]
            .as_str()
            .unwrap()
            .contains("nicht rechtzeitig"),
        "{slow}"
    );
    let broken = load(&app, &admin, 499_999).await;
    assert!(
        broken["imports"]["message"]
            .as_str()
            .unwrap()
            .contains("nicht erreichbar oder antwortet fehlerhaft")
    );
    assert_eq!(broken["imports"]["contacts"], json!([]));
}

#[tokio::test]
async fn a_planning_system_that_is_down_gives_a_message() {
    // A port nobody listens on.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let app = spawn_app_with(move |config| {
        config.planning_url = Some(format!("http://{closed}"));
    })
    .await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let down = load(&app, &admin, 400_001).await;
    assert!(
        down["imports"]["message"]
            .as_str()
            .unwrap()
            .contains("nicht erreichbar"),
        "{down}"
    );
    let (status, status_answer) = app.call(&admin, "GET", "/api/planning/status", None).await;
    assert_eq!(status, 200);
    assert_eq!(status_answer["service"], true);
}

async fn post_csv(app: &TestApp, token: &str, path: &str, bytes: Vec<u8>) -> (u16, Value) {
    let response = app
        .client
        .post(app.url(path))
        .header("cookie", format!("ap_session={token}"))
        .header("content-type", "text/csv")
        .body(bytes)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_csv_file_is_previewed_imported_whole_or_not_at_all() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;

    // Windows-1252, columns in another order, a quoted company with a semicolon.
    let mut good: Vec<u8> = Vec::new();
    good.extend_from_slice(b"E-Mail;Kundennummer;Firma;Anrede;Vorname;Nachname\r\n");
    good.extend_from_slice(
        b"jens@baeck.example;500001;\"B\xe4ckerei; M\xfcller\";Herr;J\xfcrgen;M\xfcller\r\n",
    );
    good.extend_from_slice(
        b"gabi@baeck.example;500001;\"B\xe4ckerei; M\xfcller\";Frau;Gabi;M\xfcller\r\n",
    );
    good.extend_from_slice(b"info@zweite.example;500002;Zweite KG;Firma;Zentrale;Einkauf\r\n");
    let (status, preview) = post_csv(&app, &admin, "/api/planning/csv/preview", good.clone()).await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(preview["count"], 3);
    assert_eq!(preview["companies"], 2);
    assert_eq!(preview["errors"], json!([]));
    assert_eq!(preview["candidates"][0]["companyName"], "Bäckerei; Müller");
    assert_eq!(preview["candidates"][0]["firstname"], "Jürgen");
    // A preview imports nothing.
    assert_eq!(
        load(&app, &admin, 500_001).await["imports"]["contacts"],
        json!([])
    );

    let (status, imported) = post_csv(&app, &admin, "/api/planning/csv/import", good).await;
    assert_eq!(status, 200, "{imported}");
    assert_eq!(imported["imported"], 3);
    let group = load(&app, &admin, 500_001).await;
    assert_eq!(
        group["imports"]["company"]["companyName"],
        "Bäckerei; Müller"
    );
    assert_eq!(
        candidates(&group),
        ["jens@baeck.example", "gabi@baeck.example"]
    );
    assert_eq!(group["imports"]["contacts"][0]["source"], "csv");
    assert_eq!(group["imports"]["message"], Value::Null);

    // A broken file: every bad line named, and nothing imported.
    let broken = "Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail\n\
                  500001;Bäckerei Müller;Herr;Jens;Müller;neu@baeck.example\n\
                  abc;Firma;Herr;A;B;a@b.example\n\
                  500003;Dritte;Onkel;C;D;c@d.example\n\
                  500003;Dritte;Herr;C;D;keine-mail\n\
                  500001;Bäckerei Müller;Herr;Jens;Müller;NEU@baeck.example\n";
    let (status, preview) =
        post_csv(&app, &admin, "/api/planning/csv/preview", broken.into()).await;
    assert_eq!(status, 200);
    let lines: Vec<i64> = preview["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_i64().unwrap())
        .collect();
    assert_eq!(lines, [3, 4, 5, 6], "{preview}");
    let (status, refused) = post_csv(&app, &admin, "/api/planning/csv/import", broken.into()).await;
    assert_eq!(status, 400);
    assert_eq!(refused["code"], "invalid_csv");
    assert_eq!(refused["errors"].as_array().unwrap().len(), 4);
    assert_eq!(
        candidates(&load(&app, &admin, 500_001).await),
        ["jens@baeck.example", "gabi@baeck.example"],
        "the broken file changed nothing"
    );

    // No header, empty, too large, and not for dealers.
    let (status, preview) = post_csv(
        &app,
        &admin,
        "/api/planning/csv/preview",
        b"a;b;c\n1;2;3\n".to_vec(),
    )
    .await;
    assert_eq!(
        (status, preview["message"].as_str()),
        (
            400,
            Some(
                "Die Datei hat keine Kopfzeile mit den Spalten \
                 Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail."
            )
        ),
        "a file without one of the columns is no import file"
    );
    let (status, preview) = post_csv(
        &app,
        &admin,
        "/api/planning/csv/preview",
        "Kundennummer;Firma\n1;A\n".into(),
    )
    .await;
    assert_eq!(status, 200, "some columns: the missing ones are named");
    assert_eq!(preview["errors"][0]["line"], 1);
    assert_eq!(
        post_csv(&app, &admin, "/api/planning/csv/import", Vec::new())
            .await
            .0,
        400
    );
    let huge = vec![b'x'; 6 * 1024 * 1024];
    assert_eq!(
        post_csv(&app, &admin, "/api/planning/csv/import", huge)
            .await
            .0,
        413
    );
    let dealer = app.session_with_roles(&["GS-Aktionsportal"]).await;
    assert_eq!(
        post_csv(&app, &dealer, "/api/planning/csv/import", b"x".to_vec())
            .await
            .0,
        403
    );
    let (status, answer) = app.call(&admin, "GET", "/api/planning/status", None).await;
    assert_eq!(status, 200);
    assert_eq!(answer, json!({ "service": false, "csvCandidates": 3 }));
}

/// Spec §5: the criterion rule is lifted by holding BU-DOI, also beside Admin; a moderator
/// without BU-DOI is held to it, with the German message alone.
#[tokio::test]
async fn holding_bu_doi_lifts_the_criterion_rule_also_beside_admin() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    two_lists(&app, &admin).await;
    let (status, answer) = save(
        &app,
        &admin,
        group(vec![person("ohne@berger.example", "Olaf")], &[], &[]),
    )
    .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (
            400,
            Some("Es muss mindestens ein Kriterium ausgewählt werden.")
        )
    );
    let admin_with_doi = app.session_with_roles(&[ADMIN, DOI]).await;
    let (status, saved) = save(
        &app,
        &admin_with_doi,
        group(vec![person("ohne@berger.example", "Olaf")], &[], &[]),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(emails(&saved), vec!["ohne@berger.example"]);
}

/// The body is read into the type the description shows: a field of the wrong shape is named
/// in the German answer, and nothing is saved.
#[tokio::test]
async fn a_body_field_of_the_wrong_shape_is_named_and_nothing_is_saved() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (l1, _) = two_lists(&app, &admin).await;
    let mut body = group(vec![person("anna@berger.example", "Anna")], &[l1], &[]);
    body["contacts"][0]["firstname"] = json!(["Anna"]);
    let (status, answer) = save(&app, &admin, body).await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (
            400,
            Some("Das Feld „contacts[0].firstname“ hat nicht das erwartete Format.")
        )
    );
    let mut body = group(vec![person("anna@berger.example", "Anna")], &[l1], &[]);
    body["contacts"] = json!({"email": "anna@berger.example"});
    let (status, answer) = save(&app, &admin, body).await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (
            400,
            Some("Das Feld „contacts“ hat nicht das erwartete Format.")
        )
    );
    assert!(
        load(&app, &admin, 200_001).await["content"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // Ids and salutations may come as digit strings, and whole numbers as `12.0`.
    let mut body = group(vec![person("anna@berger.example", "Anna")], &[l1], &[]);
    body["customerNumber"] = json!("200001");
    body["listsIds"] = json!([format!("{l1}")]);
    body["contacts"][0]["salutation"] = json!("3");
    let (status, saved) = save(&app, &admin, body).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["content"][0]["salutation"], 3);
}
