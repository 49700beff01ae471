//! Contacts over real HTTP (spec §7 "Contacts"): the table, lookups, create, edit, block and
//! delete with their validation texts, in local mode and mirrored to the fake Brevo
//! (including Brevo and our database failing half-way), and double opt-in: mails through a
//! real SMTP conversation, the confirmation page that a GET never confirms, and the mail to
//! all pending contacts.

mod common;

use std::time::{Duration, Instant};

use common::fake_brevo::FakeBrevo;
use common::fake_smtp::FakeSmtp;
use common::fake_smtp::double_opt_in_token;
use common::{TestApp, spawn_app, spawn_app_on, spawn_app_with};
use serde_json::{Value, json};

const ADMIN: &str = "GS-Aktionsportal-Admin";
const MODERATOR: &str = "GS-Aktionsportal-BU-Moderator";
const DOI: &str = "GS-Aktionsportal-BU-DOI";
const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";
const STROM: &str = "GS-Aktionsportal-BU-Strom";

fn contact_body(email: &str, lists: &[i64]) -> Value {
    json!({
        "customerNumber": 100_001,
        "companyName": "Müller & Söhne GmbH",
        "email": email,
        "salutation": 3,
        "firstname": "Anna",
        "lastname": "Müller",
        "listsIds": lists,
        "somethingElse": "erlaubt",
    })
}

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    let (status, answer) = app.call(token, "POST", "/api/contacts", Some(body)).await;
    assert_eq!(status, 201, "{answer}");
    answer
}

/// A provider with the Glasfaser role and two lists; (provider, list 1, list 2).
async fn provider_with_lists(
    app: &TestApp,
    admin: &str,
    name: &str,
    role: &str,
) -> (i64, i64, i64) {
    let provider = app.create_provider(admin, name, role).await;
    let a = app
        .create_list(admin, provider, &format!("{name} Privat"))
        .await;
    let b = app
        .create_list(admin, provider, &format!("{name} Gewerbe"))
        .await;
    (provider, a, b)
}

async fn spawn_with_brevo() -> (TestApp, FakeBrevo) {
    common::spawn_app_with_brevo(500).await
}

async fn spawn_with_smtp(production: bool) -> (TestApp, FakeSmtp) {
    let smtp = FakeSmtp::start().await;
    let addr = smtp.addr;
    let app = spawn_app_with(move |config| {
        config.smtp_host = Some(addr.ip().to_string());
        config.smtp_port = addr.port();
        config.smtp_security = aktionsportal::integrations::mail::SmtpSecurity::None;
        config.production = production;
        config.mail_per_second = 200;
        config.public_url = Some("https://portal.example.de".into());
    })
    .await;
    (app, smtp)
}

#[tokio::test]
async fn contacts_are_created_found_paged_changed_blocked_and_deleted() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (_, l1, l2) = provider_with_lists(&app, &admin, "Glasfaser Süd", GLASFASER).await;

    let anna = create(
        &app,
        &admin,
        contact_body(" Anna.Mueller@Example.DE ", &[l1]),
    )
    .await;
    assert_eq!(anna["email"], "anna.mueller@example.de");
    assert_eq!(anna["customerNumber"], 100_001);
    assert_eq!(anna["companyName"], "Müller & Söhne GmbH");
    assert_eq!(anna["company"]["companyName"], "Müller & Söhne GmbH");
    assert_eq!(anna["salutation"], 3);
    assert_eq!(anna["doubleOptIn"], false);
    assert_eq!(anna["emailBlacklisted"], false);
    assert_eq!(anna["listsIds"], json!([l1]));
    let id = anna["id"].as_i64().unwrap();

    // A second contact of the same company, and one of a new company (created with it).
    let mut body = contact_body("bernd@example.de", &[l2, l1]);
    body["firstname"] = json!("Bernd");
    create(&app, &admin, body).await;
    let mut body = contact_body("carla@weber.example.de", &[]);
    body["customerNumber"] = json!("100002");
    body["companyName"] = json!("Weber KG");
    let carla = create(&app, &admin, body).await;
    assert_eq!(carla["companyName"], "Weber KG");

    // The table: newest first, 20 per page, count of all matching.
    let (status, page) = app.call(&admin, "GET", "/api/contacts", None).await;
    assert_eq!(status, 200);
    assert_eq!(page["count"], 3);
    let emails: Vec<&str> = page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["email"].as_str().unwrap())
        .collect();
    assert_eq!(
        emails,
        [
            "carla@weber.example.de",
            "bernd@example.de",
            "anna.mueller@example.de"
        ]
    );
    // Each row with the ids of its lists, ascending.
    let lists: Vec<&Value> = page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["listsIds"])
        .collect();
    let mut both = [l1, l2];
    both.sort_unstable();
    assert_eq!(lists, [&json!([]), &json!(both), &json!([l1])]);
    let (_, page) = app
        .call(
            &admin,
            "GET",
            "/api/contacts?sortBy=email&sort=ASC&limit=2&offset=1",
            None,
        )
        .await;
    let emails: Vec<&str> = page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["email"].as_str().unwrap())
        .collect();
    assert_eq!(emails, ["bernd@example.de", "carla@weber.example.de"]);
    assert_eq!(page["count"], 3);
    for (query, expected) in [
        ("search=WEBER", 1),
        ("search=100001", 2),
        ("search=m%C3%BCller", 3),
        ("search=%25", 0),
        (&format!("liste={l1}") as &str, 2),
        // Empty is "not given", as the description says (`IdFilter`).
        ("liste=", 3),
        ("doubleOptIn=false", 3),
        ("doubleOptIn=true", 0),
        ("emailBlacklisted=true", 0),
        ("status=new", 3),
        ("status=active", 0),
        ("sortBy=", 3),
        ("sortBy=company&sort=", 3),
    ] {
        let (status, page) = app
            .call(&admin, "GET", &format!("/api/contacts?{query}"), None)
            .await;
        assert_eq!(status, 200, "{query}: {page}");
        assert_eq!(page["count"], expected, "{query}");
    }
    let (_, page) = app
        .call(
            &admin,
            "GET",
            &format!("/api/contacts/providers/[{}]?limit=20", 987_654),
            None,
        )
        .await;
    assert_eq!(page["count"], 0);
    for query in [
        "sortBy=password",
        "sortBy=id;drop",
        "sortBy=%20id",
        "emailBlacklisted=vielleicht",
        "status=alt",
        "liste=abc",
        "sort=sideways",
    ] {
        let (status, answer) = app
            .call(&admin, "GET", &format!("/api/contacts?{query}"), None)
            .await;
        assert_eq!(status, 400, "{query}: {answer}");
        assert!(answer["message"].as_str().unwrap().len() > 10, "{answer}");
    }

    // Lookups.
    let (status, found) = app
        .call(
            &admin,
            "GET",
            "/api/contacts/email/ANNA.mueller@example.de",
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(found["id"], id);
    let (status, none) = app
        .call(
            &admin,
            "GET",
            "/api/contacts/email/niemand@example.de",
            None,
        )
        .await;
    assert_eq!((status, none), (200, json!({})));
    let (status, group) = app
        .call(&admin, "GET", "/api/contacts/customer-number/100001", None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(group["content"].as_array().unwrap().len(), 2);
    assert_eq!(
        group["imports"]["company"]["companyName"],
        "Müller & Söhne GmbH"
    );
    let (status, _) = app
        .call(&admin, "GET", "/api/contacts/customer-number/abc", None)
        .await;
    assert_eq!(status, 400);
    let (status, lists) = app
        .call(&admin, "GET", &format!("/api/contacts/{id}/lists"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(lists["count"], 1);
    assert_eq!(lists["content"][0]["id"], l1);
    assert_eq!(lists["content"][0]["providerName"], "Glasfaser Süd");
    let bernd_id = page_ids(&app, &admin, "search=bernd").await[0];
    let (status, lists) = app
        .call(
            &admin,
            "GET",
            &format!("/api/contacts/lists/[{id},{bernd_id}]?limit=1000"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{lists}");
    assert_eq!(lists["count"], 2);
    // One id alone, and ids separated by commas, are a list too.
    for (path, count) in [
        (format!("/api/contacts/lists/{id}"), 1),
        (format!("/api/contacts/lists/{id},{bernd_id}"), 2),
    ] {
        let (status, lists) = app.call(&admin, "GET", &path, None).await;
        assert_eq!(status, 200, "{path}: {lists}");
        assert_eq!(lists["count"], count, "{path}");
    }
    for path in [
        "/api/contacts/lists",
        "/api/contacts/lists/[]",
        "/api/contacts/lists/keine",
    ] {
        let (status, answer) = app.call(&admin, "GET", path, None).await;
        assert_eq!(status, 400, "{path}");
        assert_eq!(answer["message"], "No contacts ids array set.", "{path}");
    }

    // An edit: names, another list on, the first one off.
    let mut body = contact_body("anna.neu@example.de", &[l2]);
    body["uncheckedListsIds"] = json!([l1]);
    body["firstname"] = json!("Annabell");
    body["salutation"] = json!("1");
    let (status, edited) = app
        .call(&admin, "PUT", &format!("/api/contacts/{id}"), Some(body))
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["email"], "anna.neu@example.de");
    assert_eq!(edited["firstname"], "Annabell");
    assert_eq!(edited["salutation"], 1);
    assert_eq!(edited["listsIds"], json!([l2]));

    // Block and unblock.
    let (status, blocked) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/email-blacklist/{id}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(blocked["emailBlacklisted"], true);
    let (_, page) = app
        .call(&admin, "GET", "/api/contacts?emailBlacklisted=true", None)
        .await;
    assert_eq!(page["count"], 1);
    let (_, unblocked) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/email-blacklist/{id}"),
            None,
        )
        .await;
    assert_eq!(unblocked["emailBlacklisted"], false);

    // Delete: gone, the count one lower, a second delete finds nothing.
    let (status, answer) = app
        .call(&admin, "DELETE", &format!("/api/contacts/{id}"), None)
        .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (200, Some("Erfolgreich entfernt"))
    );
    let (_, page) = app.call(&admin, "GET", "/api/contacts", None).await;
    assert_eq!(page["count"], 2);
    let (status, _) = app
        .call(&admin, "DELETE", &format!("/api/contacts/{id}"), None)
        .await;
    assert_eq!(status, 404);
    for (method, path) in [
        ("PUT", format!("/api/contacts/{id}")),
        ("PATCH", format!("/api/contacts/email-blacklist/{id}")),
        ("GET", format!("/api/contacts/{id}/lists")),
    ] {
        let body = (method == "PUT").then(|| contact_body("x@example.de", &[]));
        let (status, _) = app.call(&admin, method, &path, body).await;
        assert_eq!(status, 404, "{method} {path}");
    }
}

async fn page_ids(app: &TestApp, token: &str, query: &str) -> Vec<i64> {
    let (_, page) = app
        .call(token, "GET", &format!("/api/contacts?{query}"), None)
        .await;
    page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn every_field_is_checked_with_the_forms_texts_and_nothing_is_written() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    create(&app, &admin, contact_body("anna@example.de", &[])).await;
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "customerNumber",
            json!("abc"),
            "Die Kundennummer muss eine Zahl sein.",
        ),
        (
            "customerNumber",
            json!(null),
            "Die Kundennummer muss eine Zahl sein.",
        ),
        ("companyName", json!(""), "Bitte geben Sie eine Firma an."),
        (
            "companyName",
            json!("x".repeat(101)),
            "Die Firma darf höchstens 100 Zeichen lang sein.",
        ),
        (
            "email",
            json!("kein-at"),
            "Bitte geben Sie eine gültige E-Mail-Adresse an.",
        ),
        (
            "email",
            json!(null),
            "Bitte geben Sie eine gültige E-Mail-Adresse an.",
        ),
        (
            "salutation",
            json!(5),
            "Bitte wählen Sie eine Anrede (Anrede wählen).",
        ),
        (
            "salutation",
            json!("Herr"),
            "Bitte wählen Sie eine Anrede (Anrede wählen).",
        ),
        (
            "firstname",
            json!(" "),
            "Bitte geben Sie einen Vornamen an.",
        ),
        (
            "lastname",
            json!("x".repeat(101)),
            "Der Nachname darf höchstens 100 Zeichen lang sein.",
        ),
        ("lastname", json!("Mül\u{200B}ler"), ""),
        (
            "listsIds",
            json!("keine"),
            "listsIds muss eine Liste von Ids sein.",
        ),
        (
            "listsIds",
            json!([987_654]),
            "Ein gewähltes Kriterium existiert nicht.",
        ),
    ];
    for (field, value, message) in cases {
        let mut body = contact_body("neu@example.de", &[]);
        body[field] = value.clone();
        let (status, answer) = app.call(&admin, "POST", "/api/contacts", Some(body)).await;
        assert_eq!(status, 400, "{field}={value}: {answer}");
        if !message.is_empty() {
            assert_eq!(answer["message"], message, "{field}={value}");
        }
    }
    // The email of another customer: 409 naming the customer number.
    let mut body = contact_body("ANNA@example.de", &[]);
    body["customerNumber"] = json!(100_777);
    let (status, answer) = app.call(&admin, "POST", "/api/contacts", Some(body)).await;
    assert_eq!(status, 409);
    assert_eq!(
        answer["message"],
        "Die E-Mail anna@example.de ist bereits unter der Kundennummer 100001 registriert."
    );
    let (_, page) = app.call(&admin, "GET", "/api/contacts", None).await;
    assert_eq!(page["count"], 1, "nothing was written");
    assert!(
        aktionsportal::db::contacts::get_company(&app.test_db.db, 100_777)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn lists_are_limited_to_the_providers_a_user_manages() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (_, glas, _) = provider_with_lists(&app, &admin, "Glasfaser Süd", GLASFASER).await;
    let (_, strom, _) = provider_with_lists(&app, &admin, "Strom Nord", STROM).await;
    let moderator = app.session_with_roles(&[MODERATOR, GLASFASER]).await;
    let doi = app.session_with_roles(&[DOI, GLASFASER]).await;

    let (status, _) = app
        .call(
            &moderator,
            "POST",
            "/api/contacts",
            Some(contact_body("a@example.de", &[strom])),
        )
        .await;
    assert_eq!(status, 403, "not the moderator's provider");
    let contact = create(&app, &moderator, contact_body("a@example.de", &[glas])).await;
    let id = contact["id"].as_i64().unwrap();
    // The admin adds the Strom list; the moderator's edit keeps it (not theirs to take off).
    let mut body = contact_body("a@example.de", &[glas, strom]);
    let (status, _) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(body.clone()),
        )
        .await;
    assert_eq!(status, 200);
    body["listsIds"] = json!([glas]);
    let (status, edited) = app
        .call(
            &moderator,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(body.clone()),
        )
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["listsIds"], json!([glas, strom]));
    body["uncheckedListsIds"] = json!([strom]);
    let (status, _) = app
        .call(
            &moderator,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(body.clone()),
        )
        .await;
    assert_eq!(status, 403);

    // BU-DOI may assign lists but not change names (spec §6), nor block or delete.
    let mut body = contact_body("a@example.de", &[glas]);
    body["firstname"] = json!("Anders");
    let (status, _) = app
        .call(&doi, "PUT", &format!("/api/contacts/{id}"), Some(body))
        .await;
    assert_eq!(status, 403);
    let (status, _) = app
        .call(
            &doi,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(contact_body("a@example.de", &[glas])),
        )
        .await;
    assert_eq!(status, 200);
    for (method, path) in [
        ("DELETE", format!("/api/contacts/{id}")),
        ("PATCH", format!("/api/contacts/email-blacklist/{id}")),
        ("GET", "/api/contacts".to_string()),
    ] {
        let (status, _) = app.call(&doi, method, &path, None).await;
        assert_eq!(status, 403, "{method} {path}");
    }
}

#[tokio::test]
async fn with_brevo_every_change_is_mirrored_with_its_attributes_and_lists() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (_, l1, l2) = provider_with_lists(&app, &admin, "Glasfaser Süd", GLASFASER).await;
    let owners = aktionsportal::db::marketing::lists::owners(&app.test_db.db, &[l1, l2])
        .await
        .unwrap();
    let (b1, b2) = (
        owners[0].brevo_list_id.unwrap(),
        owners[1].brevo_list_id.unwrap(),
    );

    let contact = create(&app, &admin, contact_body("anna@example.de", &[l1])).await;
    let id = contact["id"].as_i64().unwrap();
    let remote = brevo.contact_by_email("anna@example.de").expect("in Brevo");
    assert_eq!(contact["brevoContactId"], remote.id);
    assert_eq!(contact["externId"], remote.id.to_string());
    assert_eq!(remote.list_ids, vec![b1]);
    assert_eq!(remote.attributes["FIRSTNAME"], "Anna");
    assert_eq!(remote.attributes["LASTNAME"], "Müller");
    assert_eq!(remote.attributes["KUNDENNUMMER"], "100001");
    assert_eq!(remote.attributes["ANREDE"], "Frau");
    assert_eq!(remote.attributes["FIRMA"], "Müller & Söhne GmbH");
    assert_eq!(remote.attributes["DOUBLE_OPT-IN"], 2);

    let mut body = contact_body("anna.neu@example.de", &[l2]);
    body["uncheckedListsIds"] = json!([l1]);
    body["lastname"] = json!("Schmidt");
    let (status, _) = app
        .call(&admin, "PUT", &format!("/api/contacts/{id}"), Some(body))
        .await;
    assert_eq!(status, 200);
    let remote = brevo
        .contact_by_email("anna.neu@example.de")
        .expect("renamed in Brevo");
    assert_eq!(remote.list_ids, vec![b2]);
    assert_eq!(remote.attributes["LASTNAME"], "Schmidt");
    assert!(brevo.contact_by_email("anna@example.de").is_none());

    let (_, blocked) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/email-blacklist/{id}"),
            None,
        )
        .await;
    assert_eq!(blocked["emailBlacklisted"], true);
    assert!(
        brevo
            .contact_by_email("anna.neu@example.de")
            .unwrap()
            .email_blacklisted
    );

    let (status, _) = app
        .call(&admin, "DELETE", &format!("/api/contacts/{id}"), None)
        .await;
    assert_eq!(status, 200);
    assert!(brevo.contact_by_email("anna.neu@example.de").is_none());
}

#[tokio::test]
async fn when_brevo_refuses_or_is_down_nothing_changes_here() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (_, l1, _) = provider_with_lists(&app, &admin, "Glasfaser Süd", GLASFASER).await;
    let contact = create(&app, &admin, contact_body("anna@example.de", &[l1])).await;
    let id = contact["id"].as_i64().unwrap();

    // Down while creating: 502 with a German message, no contact, no company.
    brevo.fail_next(10, 503);
    let mut body = contact_body("bernd@example.de", &[]);
    body["customerNumber"] = json!(100_555);
    let (status, answer) = app.call(&admin, "POST", "/api/contacts", Some(body)).await;
    assert_eq!(status, 502, "{answer}");
    assert!(
        answer["message"].as_str().unwrap().contains("Brevo"),
        "{answer}"
    );
    assert!(
        aktionsportal::db::contacts::find_contact_by_email(&app.test_db.db, "bernd@example.de")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        aktionsportal::db::contacts::get_company(&app.test_db.db, 100_555)
            .await
            .unwrap()
            .is_none()
    );
    brevo.clear_faults();

    // Refused while editing, blocking and deleting: the contact stays as it was.
    for (method, path, body) in [
        (
            "PUT",
            format!("/api/contacts/{id}"),
            Some(contact_body("anders@example.de", &[])),
        ),
        ("PATCH", format!("/api/contacts/email-blacklist/{id}"), None),
        ("DELETE", format!("/api/contacts/{id}"), None),
    ] {
        brevo.fail_next(10, 500);
        let (status, answer) = app.call(&admin, method, &path, body).await;
        assert_eq!(status, 502, "{method}: {answer}");
        brevo.clear_faults();
        let stored = aktionsportal::db::contacts::get_contact(&app.test_db.db, id)
            .await
            .unwrap()
            .expect("still there");
        assert_eq!(stored.email, "anna@example.de");
        assert!(!stored.email_blacklisted);
    }
}

/// Makes our database refuse to store contacts with this email (as a full disk or a lost
/// connection would): the failure comes after Brevo took the change.
async fn database_refuses(app: &TestApp, email: &str) {
    use aktionsportal::db::Db;
    match &app.test_db.db {
        Db::Sqlite(pool, _) => {
            for event in ["insert", "update"] {
                sqlx::query(&format!(
                    "create trigger refuse_{event} before {event} on contacts \
                     when new.email = '{email}' begin select raise(abort, 'Festplatte voll'); end"
                ))
                .execute(pool)
                .await
                .unwrap();
            }
        }
        Db::Postgres(pool, _) => {
            sqlx::query(&format!(
                "create function refuse_contact() returns trigger as $$ begin \
                 if new.email = '{email}' then raise exception 'Festplatte voll'; end if; \
                 return new; end $$ language plpgsql"
            ))
            .execute(pool)
            .await
            .unwrap();
            sqlx::query(
                "create trigger refuse before insert or update on contacts \
                 for each row execute function refuse_contact()",
            )
            .execute(pool)
            .await
            .unwrap();
        }
    }
}

#[tokio::test]
async fn when_our_database_fails_after_brevo_the_change_is_undone_or_kept_for_a_retry() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (_, l1, l2) = provider_with_lists(&app, &admin, "Glasfaser Süd", GLASFASER).await;
    let anna = create(&app, &admin, contact_body("anna@example.de", &[l1])).await;
    let anna_id = anna["id"].as_i64().unwrap();
    let before = brevo.contact_by_email("anna@example.de").unwrap();
    database_refuses(&app, "kaputt@example.de").await;

    // A create: Brevo had the contact, our insert failed; Brevo's contact is deleted again.
    let (status, _) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(contact_body("kaputt@example.de", &[l2])),
        )
        .await;
    assert_eq!(status, 500);
    assert!(
        brevo.contact_by_email("kaputt@example.de").is_none(),
        "undone in Brevo"
    );

    // An edit to that email: Brevo renamed and relisted the contact; the undo puts it back.
    let mut body = contact_body("kaputt@example.de", &[l2]);
    body["uncheckedListsIds"] = json!([l1]);
    let (status, _) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/contacts/{anna_id}"),
            Some(body.clone()),
        )
        .await;
    assert_eq!(status, 500);
    let after = brevo
        .contact_by_email("anna@example.de")
        .expect("email back");
    assert_eq!(after.list_ids, before.list_ids);
    assert_eq!(
        after.attributes["FIRSTNAME"],
        before.attributes["FIRSTNAME"]
    );
    assert!(brevo.contact_by_email("kaputt@example.de").is_none());

    // The same, but Brevo also fails the undo: the undo is kept and shown to admins …
    // (the GET before the change and the change go through; then Brevo is down).
    brevo.pass_next(2);
    brevo.fail_next(20, 503);
    let (status, _) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/contacts/{anna_id}"),
            Some(body.clone()),
        )
        .await;
    assert_eq!(status, 500);
    brevo.clear_faults();
    let (status, retries) = app
        .call(&admin, "GET", "/api/contacts/marketing-retries", None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(retries["count"], 1, "{retries}");
    assert_eq!(retries["content"][0]["email"], "anna@example.de");
    assert!(
        brevo.contact_by_email("kaputt@example.de").is_some(),
        "Brevo still has the change"
    );
    let moderator = app.session_with_roles(&[MODERATOR]).await;
    let (status, _) = app
        .call(&moderator, "GET", "/api/contacts/marketing-retries", None)
        .await;
    assert_eq!(status, 200);

    // … and the next change of the contact runs it first, so Brevo agrees again.
    let (status, blocked) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/email-blacklist/{anna_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{blocked}");
    let (_, retries) = app
        .call(&admin, "GET", "/api/contacts/marketing-retries", None)
        .await;
    assert_eq!(retries["count"], 0);
    let remote = brevo
        .contact_by_email("anna@example.de")
        .expect("back to anna");
    assert_eq!(remote.list_ids, before.list_ids);
    assert!(remote.email_blacklisted);
    assert!(brevo.contact_by_email("kaputt@example.de").is_none());
}

#[tokio::test]
async fn a_double_opt_in_mail_goes_out_by_smtp_and_only_the_post_of_its_page_confirms() {
    let (app, smtp) = spawn_with_smtp(false).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let anna = create(&app, &admin, contact_body("anna@example.de", &[])).await;
    let id = anna["id"].as_i64().unwrap();

    let (status, sent) = app
        .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent["status"], 201);
    assert_eq!(sent["code"], "DOUBLE_OPT-IN_SENT");
    let message_id = sent["messageId"].as_str().unwrap().to_string();
    let mails = smtp.mails_to("anna@example.de");
    assert_eq!(mails.len(), 1);
    let mail = &mails[0];
    assert_eq!(
        mail.header("Message-ID").as_deref(),
        Some(message_id.as_str())
    );
    assert!(mail.header("Subject").is_some());
    assert!(mail.data.contains("multipart/alternative"));
    let text = mail.decoded();
    assert!(text.contains("Sehr geehrte Frau Müller"), "{text}");
    assert!(text.contains("https://portal.example.de/user/verify-double-opt-in/"));
    let token = mail.double_opt_in_token().expect("link");
    assert_eq!(token.len(), 64, "256 random bits");
    assert!(!token.contains(&id.to_string()) || token.len() == 64);

    // A scanner fetches the link: the page shows a form, nothing is confirmed.
    let page = app
        .get(&format!("/user/verify-double-opt-in/{token}"))
        .await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("E-Mail-Adresse jetzt bestätigen"));
    assert!(html.contains("action=\"/api/fn/confirm-double-opt-in\""));
    let stored = aktionsportal::db::contacts::get_contact(&app.test_db.db, id)
        .await
        .unwrap()
        .unwrap();
    assert!(!stored.double_opt_in, "a GET confirms nothing");

    // A made-up token, the contact id, or a token of the wrong shape confirm nothing.
    for bad in ["0".repeat(64), id.to_string(), "zz".into()] {
        let page = app.get(&format!("/user/verify-double-opt-in/{bad}")).await;
        assert_eq!(page.status(), 404);
        assert!(
            page.text()
                .await
                .unwrap()
                .contains("Die E-Mail konnte nicht bestätigt werden oder gefunden werden!")
        );
        let (status, answer) = app
            .call(
                &admin,
                "PATCH",
                &format!("/api/contacts/confirm-double-opt-in/{bad}"),
                None,
            )
            .await;
        assert_eq!(status, 404);
        assert_eq!(
            answer["message"],
            "Die E-Mail konnte nicht bestätigt werden oder gefunden werden!"
        );
    }

    // The form's POST (as the browser sends it, without JavaScript) confirms and returns to
    // the page, which now shows the verified message and the countdown to the portal.
    let response = app
        .client
        .post(app.url("/api/fn/confirm-double-opt-in"))
        .header("accept", "text/html")
        .header("origin", app.url(""))
        .form(&[("token", token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 302);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(location, format!("/user/verify-double-opt-in/{token}"));
    let html = app.get(&location).await.text().await.unwrap();
    assert!(html.contains("Ihre E-Mail-Adresse wurde erfolgreich bestätigt."));
    assert!(html.contains("href=\"/user/downloads\""));
    assert!(html.contains("Sie werden in 5 Sekunden zum Portal weitergeleitet."));
    assert!(html.contains("content=\"5;url=/\""));
    let stored = aktionsportal::db::contacts::get_contact(&app.test_db.db, id)
        .await
        .unwrap()
        .unwrap();
    assert!(stored.double_opt_in);
    assert!(stored.double_opt_in_at.is_some());
    assert_eq!(stored.double_opt_in_address.as_deref(), Some("127.0.0.1"));

    // Confirmed: the next send says so and mails nothing.
    let (status, answer) = app
        .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(answer["code"], "DOUBLE_OPT-IN_ALREADY_DONE");
    assert!(answer["messageId"].is_null());
    assert_eq!(smtp.mails().len(), 1);
    let (status, _) = app
        .call(&admin, "POST", "/api/smtp/email/niemand@example.de", None)
        .await;
    assert_eq!(status, 404);
}

/// Proof of consent (issue 25): the confirmation keeps the mail whose link was used, the
/// request, and the version of the consent text; confirmations without it say so.
#[tokio::test]
async fn a_confirmation_keeps_its_proof_and_one_without_says_so() {
    use aktionsportal::domain::double_opt_in::{CONSENT_TEXT, consent_version};
    let (app, smtp) = spawn_with_smtp(false).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    create(&app, &admin, contact_body("anna@example.de", &[])).await;
    let bert = create(&app, &admin, contact_body("bert@example.de", &[])).await;
    create(&app, &admin, contact_body("carla@example.de", &[])).await;
    let (status, sent) = app
        .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 200, "{sent}");
    let mail = &smtp.mails_to("anna@example.de")[0];
    let token = mail.double_opt_in_token().expect("link");
    let response = app
        .client
        .post(app.url("/api/fn/confirm-double-opt-in"))
        .header("accept", "text/html")
        .header("origin", app.url(""))
        .header("user-agent", "Mozilla/5.0 (Testbrowser)\t")
        .form(&[("token", token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 302);
    // Bert confirmed before the proof was kept (or in Brevo).
    aktionsportal::db::contacts::confirm(
        &app.test_db.db,
        bert["id"].as_i64().unwrap(),
        "bert@example.de",
        chrono::Utc::now(),
        &aktionsportal::db::contacts::Proof::default(),
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();

    let (status, group) = app
        .call(&admin, "GET", "/api/contacts/customer-number/100001", None)
        .await;
    assert_eq!(status, 200, "{group}");
    let consent_of = |email: &str| {
        group["content"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["email"] == email)
            .map(|c| c["consent"].clone())
            .unwrap()
    };
    let proof = consent_of("anna@example.de");
    let version = consent_version(CONSENT_TEXT);
    assert_eq!(proof["proven"], true, "{proof}");
    assert_eq!(proof["address"], "127.0.0.1");
    assert_eq!(proof["userAgent"], "Mozilla/5.0 (Testbrowser)");
    assert_eq!(
        proof["messageId"].as_str(),
        mail.header("Message-ID").as_deref()
    );
    assert_eq!(proof["messageId"], sent["messageId"]);
    assert_eq!(proof["textVersion"], version.as_str());
    let sent_at: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(proof["mailSentAt"].clone()).unwrap();
    let confirmed_at: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(proof["confirmedAt"].clone()).unwrap();
    assert!(sent_at <= confirmed_at, "{proof}");
    assert_eq!(
        aktionsportal::db::contacts::consent_text(&app.test_db.db, &version)
            .await
            .unwrap()
            .as_deref(),
        Some(CONSENT_TEXT),
        "the words consented to stay readable"
    );
    assert_eq!(
        consent_of("bert@example.de"),
        json!({"proven": false, "confirmedAt": consent_of("bert@example.de")["confirmedAt"],
               "address": null, "userAgent": null, "mailSentAt": null, "messageId": null,
               "textVersion": null})
    );
    assert_eq!(consent_of("carla@example.de"), Value::Null, "not confirmed");
}

/// A contact's request for its data (issue 25, DSGVO Art. 15 and 20): everything stored
/// about it in one document, for the admin alone; the request itself is logged.
#[tokio::test]
async fn an_admin_exports_everything_stored_about_a_contact() {
    use aktionsportal::domain::double_opt_in::CONSENT_TEXT;
    let (app, smtp) = spawn_with_smtp(false).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (_, list, _) = provider_with_lists(&app, &admin, "Glasfaser Süd", GLASFASER).await;
    let anna = create(&app, &admin, contact_body("anna@example.de", &[list])).await;
    let id = anna["id"].as_i64().unwrap();
    let (status, _) = app
        .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 200);
    let token = smtp.mails_to("anna@example.de")[0]
        .double_opt_in_token()
        .expect("link");
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/confirm-double-opt-in/{token}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    // Bert has not confirmed: the mail to all pending contacts has an item for him.
    let bert = create(&app, &admin, contact_body("bert@example.de", &[])).await;
    let (job, _) = aktionsportal::db::operations::mail_jobs::start_double_opt_in(
        &app.test_db.db,
        "CLI",
        chrono::Utc::now(),
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();

    let response = app
        .get_with(&admin, &format!("/api/contacts/{id}/export"), &[])
        .await;
    assert_eq!(response.status(), 200);
    let disposition = response.headers()["content-disposition"].to_str().unwrap();
    assert!(disposition.starts_with("attachment"), "{disposition}");
    assert!(disposition.contains(&format!("Kontakt-{id}.json")));
    assert_eq!(response.headers()["cache-control"], "no-store");
    let document: Value = response.json().await.unwrap();
    assert_eq!(document["contact"]["email"], "anna@example.de");
    assert_eq!(document["contact"]["listsIds"], json!([list]));
    assert_eq!(
        document["company"],
        json!({"customerNumber": 100_001, "companyName": "Müller & Söhne GmbH"})
    );
    assert_eq!(document["lists"].as_array().unwrap().len(), 1);
    assert_eq!(document["lists"][0]["id"], list);
    assert_eq!(document["lists"][0]["providerName"], "Glasfaser Süd");
    assert_eq!(document["contact"]["consent"]["proven"], true);
    assert_eq!(document["consentText"], CONSENT_TEXT);
    assert_eq!(document["mails"], json!([]), "confirmed before the job");
    let actions: Vec<&str> = document["audit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        ["create", "doubleOptInSent", "doubleOptInConfirmed"]
    );
    assert!(document["exportedAt"].is_string());

    let bert_id = bert["id"].as_i64().unwrap();
    let (status, theirs) = app
        .call(
            &admin,
            "GET",
            &format!("/api/contacts/{bert_id}/export"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{theirs}");
    assert_eq!(theirs["contact"]["consent"], Value::Null);
    assert_eq!(theirs["consentText"], Value::Null);
    assert_eq!(theirs["mails"].as_array().unwrap().len(), 1);
    assert_eq!(theirs["mails"][0]["jobId"], job.id);
    assert_eq!(theirs["mails"][0]["kind"], job.kind.as_str());

    // The request is in the Protokoll; nobody but the admin gets a contact's data.
    let (_, log) = app
        .call(
            &admin,
            "GET",
            &format!("/api/audit?entity=contact&entityId={id}&limit=1"),
            None,
        )
        .await;
    assert_eq!(log["content"][0]["action"], "export");
    assert_eq!(log["content"][0]["actionLabel"], "Daten exportiert");
    let moderator = app.session_with_roles(&[MODERATOR]).await;
    let (status, _) = app
        .call(
            &moderator,
            "GET",
            &format!("/api/contacts/{id}/export"),
            None,
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = app
        .call(&admin, "GET", "/api/contacts/999999/export", None)
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_confirm_call_takes_the_token_and_old_links_expire() {
    let (app, smtp) = spawn_with_smtp(false).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let anna = create(&app, &admin, contact_body("anna@example.de", &[])).await;
    let id = anna["id"].as_i64().unwrap();
    let (status, _) = app
        .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 200);
    // A second send right away is refused (no flood of mails) …
    let (status, answer) = app
        .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 409);
    assert_eq!(answer["code"], "double_opt_in_recently_sent");
    // … and taken a minute later.
    aktionsportal::db::contacts::mark_mail_sent(
        &app.test_db.db,
        id,
        chrono::Utc::now() - chrono::Duration::minutes(2),
        None,
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let (status, _) = app
        .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 200);
    let mails = smtp.mails_to("anna@example.de");
    let (first, second) = (
        mails[0].double_opt_in_token().unwrap(),
        mails[1].double_opt_in_token().unwrap(),
    );
    assert_ne!(first, second);

    // The first link has expired: it confirms nothing.
    sqlx_expire(&app, &first).await;
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/confirm-double-opt-in/{first}"),
            None,
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/confirm-double-opt-in/{id}"),
            None,
        )
        .await;
    assert_eq!(status, 404, "the bare contact id is no link");
    // The second works, without a session, and again (already confirmed).
    for _ in 0..2 {
        let response = app
            .client
            .patch(app.url(&format!("/api/contacts/confirm-double-opt-in/{second}")))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
    }
    assert!(
        aktionsportal::db::contacts::get_contact(&app.test_db.db, id)
            .await
            .unwrap()
            .unwrap()
            .double_opt_in
    );
}

/// Lets a link expire.
async fn sqlx_expire(app: &TestApp, token: &str) {
    let hash = aktionsportal::domain::secret::hash_token(token);
    let past = chrono::Utc::now() - chrono::Duration::days(1);
    aktionsportal::db_run!(&app.test_db.db, pool => {
        sqlx::query("update double_opt_in_tokens set expires_at = $1 where token_hash = $2")
            .bind(past)
            .bind(&hash)
            .execute(pool)
            .await
            .map(drop)
            .unwrap()
    });
}

#[tokio::test]
async fn with_brevo_the_mail_goes_through_brevo_and_confirming_sets_the_attribute() {
    let (app, brevo) = spawn_with_brevo().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    create(&app, &admin, contact_body("anna@example.de", &[])).await;
    let (status, sent) = app
        .call(&admin, "POST", "/api/smtp/email/anna@example.de", None)
        .await;
    assert_eq!(status, 200, "{sent}");
    let mails = brevo.sent_emails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, vec!["anna@example.de".to_string()]);
    assert_eq!(sent["messageId"], mails[0].message_id);
    let token = double_opt_in_token(mails[0].body["htmlContent"].as_str().unwrap())
        .expect("a link in the mail");
    assert_eq!(
        brevo
            .contact_by_email("anna@example.de")
            .unwrap()
            .attributes["DOUBLE_OPT-IN"],
        2
    );

    let (status, _) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/confirm-double-opt-in/{token}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        brevo
            .contact_by_email("anna@example.de")
            .unwrap()
            .attributes["DOUBLE_OPT-IN"],
        1
    );
}

#[tokio::test]
async fn the_mail_to_all_pending_contacts_is_for_production_and_reaches_each_once() {
    let (app, _smtp) = spawn_with_smtp(false).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    create(&app, &admin, contact_body("anna@example.de", &[])).await;
    let (status, answer) = app.call(&admin, "POST", "/api/smtp/emails", None).await;
    assert_eq!(status, 200);
    assert_eq!(answer["code"], "function_only_in_production_available");
    assert_eq!(
        answer["message"],
        "Diese Funktion ist aus sicherheitsgründen nur in der Produktiv-Version verfügbar!"
    );
    assert_eq!(answer["total"], 1);
    let (status, job) = app.call(&admin, "GET", "/api/smtp/emails", None).await;
    assert_eq!((status, job), (200, json!({ "job": null })));

    let (app, smtp) = spawn_with_smtp(true).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let mut emails = Vec::new();
    for i in 0..12 {
        let email = format!("kunde{i}@example.de");
        let contact = create(&app, &admin, contact_body(&email, &[])).await;
        let id = contact["id"].as_i64().unwrap();
        match i {
            // Confirmed and blocked contacts are not mailed.
            0 => {
                aktionsportal::db::contacts::confirm(
                    &app.test_db.db,
                    id,
                    &email,
                    chrono::Utc::now(),
                    &aktionsportal::db::contacts::Proof::default(),
                    &aktionsportal::test_support::cli_change(),
                )
                .await
                .unwrap();
            }
            1 => {
                app.call(
                    &admin,
                    "PATCH",
                    &format!("/api/contacts/email-blacklist/{id}"),
                    None,
                )
                .await;
            }
            _ => emails.push(email),
        }
    }
    smtp.refuse_next(1);
    let (status, answer) = app.call(&admin, "POST", "/api/smtp/emails", None).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["code"], "job_started");
    assert_eq!(answer["count"], 10);
    assert_eq!(answer["total"], 11);
    let (_, again) = app.call(&admin, "POST", "/api/smtp/emails", None).await;
    assert!(
        again["code"] == "job_running" || again["code"] == "job_started",
        "{again}"
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    let job = loop {
        let (_, answer) = app.call(&admin, "GET", "/api/smtp/emails", None).await;
        if answer["job"]["status"] == "done" {
            break answer["job"].clone();
        }
        assert!(Instant::now() < deadline, "job did not finish: {answer}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(job["total"], 10);
    assert_eq!(job["sent"], 9);
    assert_eq!(
        job["failed"], 1,
        "the refused mail is counted, not retried silently"
    );
    let mut received: Vec<String> = smtp.mails().into_iter().flat_map(|m| m.to).collect();
    received.sort();
    let mut expected: Vec<String> = emails.clone();
    expected.sort();
    received.dedup();
    assert_eq!(received.len(), 9);
    assert!(received.iter().all(|r| expected.contains(r)));
    assert!(
        smtp.mails_to("kunde0@example.de").is_empty()
            && smtp.mails_to("kunde1@example.de").is_empty()
    );
    // Moderators may start it too; BU-DOI may not.
    let doi = app.session_with_roles(&[DOI]).await;
    let (status, _) = app.call(&doi, "POST", "/api/smtp/emails", None).await;
    assert_eq!(status, 403);
}

/// Several portal instances on one database each run the mail worker: they share the running
/// job item by item (a dead instance's claim is taken over), every pending contact gets exactly
/// one mail, and the pace holds for the job as a whole, not per instance.
#[tokio::test]
async fn two_instances_share_the_mail_to_all_once_each_at_one_pace() {
    use aktionsportal::db::{self, contacts, operations::mail_jobs};
    use aktionsportal::test_support::TestDb;

    let smtp = FakeSmtp::start().await;
    let test_db = TestDb::new().await;
    let shared = test_db.db.clone();
    contacts::upsert_company(&shared, 7, "Firma").await.unwrap();
    let mut emails = Vec::new();
    let mut ids = Vec::new();
    for i in 0..11 {
        let email = format!("kunde{i}@example.de");
        let contact = contacts::create_contact(
            &shared,
            &contacts::NewContact {
                customer_number: 7,
                brevo_contact_id: None,
                email: email.clone(),
                salutation: 2,
                firstname: "Max".into(),
                lastname: format!("Muster{i}"),
                extern_id: None,
                // One has confirmed already and gets nothing.
                double_opt_in: i == 10,
                email_blacklisted: false,
            },
        )
        .await
        .unwrap();
        ids.push(contact.id);
        emails.push(email);
    }
    // The job runs before the instances start, so both workers take part from the beginning.
    let (job, _) = mail_jobs::start_double_opt_in(
        &shared,
        "admin@example.de",
        db::now(),
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    assert_eq!(job.total, 10);
    // A third instance died two minutes ago while sending the first item.
    let dead_since = chrono::Utc::now() - chrono::Duration::minutes(2);
    aktionsportal::db_run!(&shared, pool => {
        sqlx::query(
            "update mail_job_items set state = 'sending', attempts = 1, updated_at = $3 \
             where job_id = $1 and contact_id = $2",
        )
        .bind(job.id)
        .bind(ids[0])
        .bind(dead_since)
        .execute(pool)
        .await
        .map(drop)
        .unwrap()
    });

    let addr = smtp.addr;
    // Each instance sends from its own address, so the mails show who sent them.
    let settings = move |from: &'static str| {
        move |config: &mut aktionsportal::config::Config| {
            config.smtp_host = Some(addr.ip().to_string());
            config.smtp_port = addr.port();
            config.smtp_security = aktionsportal::integrations::mail::SmtpSecurity::None;
            config.production = true;
            config.mail_per_second = 5;
            config.mail_from = from.into();
            config.public_url = Some("https://portal.example.de".into());
        }
    };
    // The second instance has its own connection pool to the same database; its own TestDb
    // only provides a data folder.
    let other_pool = db::Db::connect(&test_db.url).await.unwrap();
    let other_folder = TestDb::new().await;
    let started = Instant::now();
    let first = spawn_app_on(test_db, shared, settings("portal@eins.example.de")).await;
    let second = spawn_app_on(other_folder, other_pool, settings("portal@zwei.example.de")).await;

    let admin = first.session_with_roles(&[ADMIN]).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    let job = loop {
        let (_, answer) = first.call(&admin, "GET", "/api/smtp/emails", None).await;
        if answer["job"]["status"] == "done" {
            break answer["job"].clone();
        }
        assert!(Instant::now() < deadline, "job did not finish: {answer}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let took = started.elapsed();
    assert_eq!(
        (&job["total"], &job["sent"], &job["failed"], &job["skipped"]),
        (&json!(10), &json!(10), &json!(0), &json!(0)),
        "{job}"
    );
    assert_eq!((&job["pending"], &job["sending"]), (&json!(0), &json!(0)));
    for email in &emails[..10] {
        assert_eq!(smtp.mails_to(email).len(), 1, "exactly one mail to {email}");
    }
    assert!(smtp.mails_to(&emails[10]).is_empty(), "confirmed: no mail");
    let mails = smtp.mails();
    assert_eq!(mails.len(), 10);
    let by = |from: &str| mails.iter().filter(|m| m.from == from).count();
    let (one, two) = (by("portal@eins.example.de"), by("portal@zwei.example.de"));
    assert_eq!(one + two, 10);
    assert!(one > 0 && two > 0, "both instances sent ({one} and {two})");
    // 5 per second for the job: ten mails are nine gaps of 0.2 s apart at least. Paced per
    // instance, two instances would be done in half the time.
    assert!(
        took >= Duration::from_millis(1750),
        "ten mails at 5 per second took only {took:?}"
    );

    // The other instance reports the same finished job (the session lives in the shared
    // database).
    let (status, answer) = second.call(&admin, "GET", "/api/smtp/emails", None).await;
    assert_eq!(status, 200);
    assert_eq!(answer["job"]["id"], job["id"]);
    assert_eq!(answer["job"]["status"], "done");
}

/// A search holding characters no name has (NUL, which PostgreSQL refuses in text, and other
/// control characters) finds what the rest of it finds, in every list, on both databases.
#[tokio::test]
async fn a_search_with_control_characters_is_no_error() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    create(&app, &admin, contact_body("anna@example.de", &[])).await;
    let (status, page) = app
        .call(&admin, "GET", "/api/contacts?search=%00an%17na", None)
        .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["count"], 1);
    for path in [
        "/api/downloads/?search=%00x",
        "/api/downloads/contact/?search=%00x",
        "/api/providers/?search=%00x",
    ] {
        let (status, answer) = app.call(&admin, "GET", path, None).await;
        assert_eq!(status, 200, "{path}: {answer}");
    }
}

/// A list that takes longer than `AP_LIST_TIME_LIMIT_MS` answers 503 with a German message
/// and reads no further, while the portal goes on answering; within the limit the same
/// question is answered (issue 41).
#[tokio::test]
async fn a_list_over_its_time_limit_answers_503_in_german() {
    use aktionsportal::db::Db;
    use aktionsportal::seed::large::{LargeDataSize, seed_large};
    let test_db = aktionsportal::test_support::TestDb::new().await;
    let files = aktionsportal::storage::FileStore::new(test_db.data_dir.join("files")).unwrap();
    let size = LargeDataSize {
        providers: 1,
        lists_per_provider: 2,
        packages_per_provider: 1,
        files_per_package: 1,
        companies: 2_000,
        contacts: 20_000,
        dealer_lists: 1,
    };
    seed_large(&test_db.db, &files, &size).await.unwrap();
    let db = test_db.db.clone();
    // One millisecond: a search no trigram index can answer ("_" is taken literally) reads
    // all 20,000 contacts, which takes far longer.
    let app = spawn_app_on(test_db, db, |config| config.list_time_limit_ms = 1).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    // PostgreSQL with warm buffers may scan 20,000 rows within the millisecond; a lock on the
    // table makes every reading of it wait, so both questions below take longer there too.
    let mut held_lock = None;
    if let Db::Postgres(pool, _) = &app.test_db.db {
        let mut lock = pool.begin().await.unwrap();
        sqlx::query("lock table contacts in access exclusive mode")
            .execute(&mut *lock)
            .await
            .unwrap();
        held_lock = Some(lock);
    }
    let path = "/api/contacts?limit=20&search=e_x";
    let (status, answer) = app.call(&admin, "GET", path, None).await;
    assert_eq!(status, 503, "{answer}");
    assert_eq!(answer["code"], "timeout");
    assert_eq!(
        answer["message"],
        "Die Liste braucht gerade zu lange. Bitte grenzen Sie die Suche ein oder versuchen Sie \
         es in Kürze erneut."
    );
    // The contacts page, whose first rows the URL's search picks, says the same.
    let page = app.get_as(&admin, "/admin/contacts?search=e_x").await;
    assert_eq!(page.status(), 503);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("Die Liste braucht gerade zu lange."),
        "{html}"
    );
    let health = app.get("/healthz").await;
    assert_eq!(health.status(), 200, "the portal goes on answering");
    if let (Some(lock), Db::Postgres(pool, _)) = (held_lock, &app.test_db.db) {
        // PostgreSQL would go on waiting for the lock with both statements the requests gave
        // up, each holding a connection; the portal cancels them.
        let waiting = || async {
            sqlx::query_scalar::<_, i64>(
                "select count(*) from pg_stat_activity where datname = current_database() \
                 and state = 'active' and wait_event_type = 'Lock'",
            )
            .fetch_one(pool)
            .await
            .unwrap()
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while waiting().await > 0 {
            assert!(
                Instant::now() < deadline,
                "the statements over the limit still run"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        lock.rollback().await.unwrap();
    }

    // A second instance on the same database, with the default limit; the session is the
    // database's, so it signs in there too.
    let db = app.test_db.db.clone();
    let patient = spawn_app_on(aktionsportal::test_support::TestDb::new().await, db, |_| {}).await;
    let (status, answer) = patient.call(&admin, "GET", path, None).await;
    assert_eq!(status, 200, "within the default limit: {answer}");
    assert_eq!(answer["count"], 0);
    let page = patient.get_as(&admin, "/admin/contacts?search=e_x").await;
    assert_eq!(page.status(), 200);
}
