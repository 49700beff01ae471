//! The Brevo client against the fake Brevo server (real HTTP on 127.0.0.1).

mod common;

use std::time::{Duration, Instant};

use aktionsportal::integrations::brevo::{
    BrevoClient, BrevoConfig, BrevoError, BrevoSortOrder, ContactRef, CreateContact, EmailAddress,
    TransactionalEmail, UpdateContact,
};
use chrono::{SubsecRound, Utc};
use common::fake_brevo::{FakeBrevo, RecordedRequest};
use serde_json::{Map, Value, json};

/// Short timeouts and back-offs so the file runs fast; pacing off unless a test wants it.
fn test_config(fake: &FakeBrevo) -> BrevoConfig {
    BrevoConfig {
        base_url: fake.base_url.clone(),
        api_key: fake.api_key().to_owned(),
        timeout: Duration::from_millis(300),
        max_retries: 3,
        contacts_per_second: 0,
        retry_base_delay: Duration::from_millis(10),
        max_retry_delay: Duration::from_millis(50),
        max_rate_limit_wait: Duration::from_secs(2),
        call_deadline: Duration::from_secs(10),
    }
}

#[tokio::test]
async fn a_hanging_brevo_ends_a_call_at_its_deadline_whatever_retries_are_left() {
    // Accepts connections and never answers.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    let brevo = BrevoClient::new(
        BrevoConfig {
            base_url: format!("http://{addr}/v3"),
            api_key: "xkeysib-x".into(),
            timeout: Duration::from_millis(400),
            max_retries: 50,
            contacts_per_second: 0,
            retry_base_delay: Duration::from_millis(5),
            max_retry_delay: Duration::from_millis(20),
            call_deadline: Duration::from_millis(1500),
            ..BrevoConfig::default()
        },
        reqwest::Client::new(),
    );
    let started = std::time::Instant::now();
    let err = brevo
        .get_contact(ContactRef::email("haengt@example.de"))
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert!(err.is_unavailable(), "{err:?}");
    assert!(took >= Duration::from_millis(1000), "{took:?}");
    assert!(took < Duration::from_millis(2500), "{took:?}");
}

/// A server that answers every request with `body_len` bytes of a JSON string (with or
/// without announcing the length), counting the requests.
async fn endless_answers(
    body_len: usize,
    announce: bool,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use axum::body::Body;
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = asked.clone();
    let app = axum::Router::new().fallback(move || {
        let counter = counter.clone();
        async move {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let chunk = vec![b' '; 64 * 1024];
            let chunks = body_len / chunk.len();
            let stream = futures_util::stream::iter(
                std::iter::once(b"\"".to_vec())
                    .chain(std::iter::repeat_n(chunk, chunks))
                    .map(Ok::<_, std::io::Error>),
            );
            let mut response = axum::response::Response::new(Body::from_stream(stream));
            response.headers_mut().insert(
                "content-type",
                axum::http::HeaderValue::from_static("application/json"),
            );
            if announce {
                response.headers_mut().insert(
                    "content-length",
                    axum::http::HeaderValue::from(1 + chunks * 64 * 1024),
                );
            }
            response
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/v3"), asked)
}

#[tokio::test]
async fn an_answer_larger_than_the_limit_is_refused_unread() {
    use aktionsportal::integrations::brevo::MAX_ANSWER_BYTES;
    for announce in [true, false] {
        let (base_url, asked) = endless_answers(MAX_ANSWER_BYTES + 1024 * 1024, announce).await;
        let brevo = BrevoClient::new(
            BrevoConfig {
                base_url,
                api_key: "xkeysib-x".into(),
                contacts_per_second: 0,
                ..BrevoConfig::default()
            },
            reqwest::Client::new(),
        );
        let err = brevo.list_contacts(1000, 0, None).await.unwrap_err();
        assert!(
            matches!(&err, BrevoError::InvalidResponse(why) if why.contains("larger")),
            "{err:?}"
        );
        assert_eq!(
            asked.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "not asked again"
        );
    }
}

fn client(fake: &FakeBrevo) -> BrevoClient {
    BrevoClient::new(test_config(fake), reqwest::Client::new())
}

fn client_with(fake: &FakeBrevo, adjust: impl FnOnce(&mut BrevoConfig)) -> BrevoClient {
    let mut config = test_config(fake);
    adjust(&mut config);
    BrevoClient::new(config, reqwest::Client::new())
}

fn attrs(value: Value) -> Map<String, Value> {
    value.as_object().expect("object").clone()
}

fn lines(requests: &[RecordedRequest]) -> Vec<String> {
    requests.iter().map(RecordedRequest::line).collect()
}

fn new_contact(email: &str) -> CreateContact {
    CreateContact {
        email: email.to_owned(),
        ..CreateContact::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn folders_round_trip() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);

    let a = brevo.create_folder("Aktiv").await.unwrap();
    let b = brevo.create_folder("Inaktiv").await.unwrap();
    assert!(a >= 100 && b > a);

    let page = brevo.list_folders(10, 0).await.unwrap();
    assert_eq!(page.count, 2);
    let names: Vec<_> = page.folders.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Aktiv", "Inaktiv"]);

    brevo.rename_folder(b, "Archiv").await.unwrap();
    let list_in_b = fake.add_list(b, "Liste im Archiv");
    brevo.delete_folder(b).await.unwrap();
    let folders = fake.folders();
    assert_eq!(folders.len(), 1);
    assert_eq!(folders[0].name, "Aktiv");
    assert!(
        fake.lists().iter().all(|l| l.id != list_in_b),
        "deleting a folder deletes its lists"
    );

    let requests = fake.requests();
    assert_eq!(
        lines(&requests),
        vec![
            "POST /contacts/folders".to_owned(),
            "POST /contacts/folders".to_owned(),
            "GET /contacts/folders".to_owned(),
            format!("PUT /contacts/folders/{b}"),
            format!("DELETE /contacts/folders/{b}"),
        ]
    );
    // Headers on every request; content type only with a body.
    for r in &requests {
        assert_eq!(r.api_key.as_deref(), Some(fake.api_key()));
        assert_eq!(r.header("accept"), Some("application/json"));
    }
    assert_eq!(requests[0].header("content-type"), Some("application/json"));
    assert_eq!(requests[0].body, json!({"name": "Aktiv"}));
    assert_eq!(requests[3].body, json!({"name": "Archiv"}));
    assert_eq!(requests[4].header("content-type"), None);
    // limit, offset and sort always sent.
    assert_eq!(requests[2].query_param("limit").as_deref(), Some("10"));
    assert_eq!(requests[2].query_param("offset").as_deref(), Some("0"));
    assert_eq!(requests[2].query_param("sort").as_deref(), Some("asc"));
}

#[tokio::test]
async fn all_folders_pages_through_with_50() {
    let fake = FakeBrevo::start().await;
    for i in 0..53 {
        fake.add_folder(&format!("Ordner {i:02}"));
    }
    let brevo = client(&fake);
    let folders = brevo.all_folders().await.unwrap();
    assert_eq!(folders.len(), 53);
    assert_eq!(folders[0].name, "Ordner 00");
    assert_eq!(folders[52].name, "Ordner 52");

    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let offsets: Vec<_> = requests
        .iter()
        .map(|r| (r.query_param("limit"), r.query_param("offset")))
        .collect();
    assert_eq!(
        offsets,
        vec![
            (Some("50".to_owned()), Some("0".to_owned())),
            (Some("50".to_owned()), Some("50".to_owned()))
        ]
    );
    // Limits above Brevo's maximum are clamped, never sent.
    brevo.list_folders(500, 0).await.unwrap();
    assert_eq!(
        fake.requests()
            .last()
            .unwrap()
            .query_param("limit")
            .as_deref(),
        Some("50")
    );
}

#[tokio::test]
async fn lists_round_trip_and_paging() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    let folder = brevo.create_folder("Anbieter").await.unwrap();
    let other = brevo.create_folder("Inaktiv").await.unwrap();

    let mut ids = Vec::new();
    for i in 0..5 {
        ids.push(
            brevo
                .create_list(&format!("Liste {i}"), folder)
                .await
                .unwrap(),
        );
    }
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    assert!(ids[0] >= 1000, "list ids differ from folder ids");
    let contact = fake.add_contact("kunde@example.de", &[ids[0]]);

    let list = brevo.get_list(ids[0]).await.unwrap();
    assert_eq!(list.name, "Liste 0");
    assert_eq!(list.folder_id, Some(folder));
    assert_eq!(list.total_subscribers, 1);
    assert_eq!(list.total_blacklisted, 0);

    // Pages of two, oldest first; folder id filled in by the client.
    let page = brevo
        .folder_lists(folder, 2, 2, BrevoSortOrder::Asc)
        .await
        .unwrap();
    assert_eq!(page.count, 5);
    let got: Vec<_> = page.lists.iter().map(|l| l.id).collect();
    assert_eq!(got, &ids[2..4]);
    assert!(page.lists.iter().all(|l| l.folder_id == Some(folder)));
    let newest = brevo
        .folder_lists(folder, 1, 0, BrevoSortOrder::Desc)
        .await
        .unwrap();
    assert_eq!(newest.lists[0].id, ids[4]);

    let all = brevo.all_folder_lists(folder).await.unwrap();
    assert_eq!(all.iter().map(|l| l.id).collect::<Vec<_>>(), ids);

    // One field per PUT.
    fake.clear_requests();
    brevo.rename_list(ids[1], "Neu").await.unwrap();
    brevo.move_list(ids[1], other).await.unwrap();
    let requests = fake.requests();
    assert_eq!(
        requests[0].line(),
        format!("PUT /contacts/lists/{}", ids[1])
    );
    assert_eq!(requests[0].body, json!({"name": "Neu"}));
    assert_eq!(requests[1].body, json!({"folderId": other}));
    let moved = brevo.get_list(ids[1]).await.unwrap();
    assert_eq!((moved.name.as_str(), moved.folder_id), ("Neu", Some(other)));

    // Delete: gone, and unlinked from contacts.
    brevo.delete_list(ids[0]).await.unwrap();
    assert!(brevo.get_list(ids[0]).await.unwrap_err().is_not_found());
    let stored = fake.contacts();
    assert_eq!(stored[0].id, contact);
    assert!(stored[0].list_ids.is_empty());

    // Brevo requires an existing folder.
    let err = brevo.create_list("Waise", 999_999).await.unwrap_err();
    assert!(
        matches!(&err, BrevoError::Api { status: 400, code, .. } if code == "invalid_parameter"),
        "{err:?}"
    );
}

#[tokio::test]
async fn fake_enforces_brevo_rules_the_client_must_follow() {
    let fake = FakeBrevo::start().await;
    let folder = fake.add_folder("F");
    let list = fake.add_list(folder, "L");
    let http = reqwest::Client::new();
    let send = |method: reqwest::Method, path: &str, body: Option<Value>| {
        let mut request = http
            .request(method, format!("{}{path}", fake.base_url))
            .header("api-key", fake.api_key());
        if let Some(body) = body {
            request = request.json(&body);
        }
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            (status, body)
        }
    };

    // Both name and folderId in one PUT.
    let (status, body) = send(
        reqwest::Method::PUT,
        &format!("/contacts/lists/{list}"),
        Some(json!({"name": "X", "folderId": folder})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("invalid_parameter"))
    );
    // List without folder.
    let (status, body) = send(
        reqwest::Method::POST,
        "/contacts/lists",
        Some(json!({"name": "X"})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("invalid_parameter"))
    );
    // Limits above the maximum.
    let (status, _) = send(
        reqwest::Method::GET,
        "/contacts/folders?limit=51&offset=0",
        None,
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = send(reqwest::Method::GET, "/contacts?limit=1001", None).await;
    assert_eq!(status, 400);
    // Missing key.
    let response = http
        .get(format!(
            "{}/contacts/folders?limit=1&offset=0",
            fake.base_url
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["message"], "authentication not found in headers");
}

#[tokio::test]
async fn contacts_round_trip() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    let folder = fake.add_folder("F");
    let pending = fake.add_list(folder, "Ausstehend");
    let target = fake.add_list(folder, "Ziel");

    let email = "max+test@example.de";
    let id = brevo
        .create_contact(&CreateContact {
            email: email.to_owned(),
            attributes: attrs(json!({"FIRSTNAME": "Max", "KUNDENNUMMER": "0042"})),
            list_ids: vec![pending],
            ext_id: Some("kunde-42".into()),
            ..CreateContact::default()
        })
        .await
        .unwrap()
        .expect("created");
    assert!(id >= 10_000);
    let create = &fake.requests()[0];
    assert_eq!(
        create.body,
        json!({"email": email, "attributes": {"FIRSTNAME": "Max", "KUNDENNUMMER": "0042"},
               "listIds": [pending], "updateEnabled": false, "ext_id": "kunde-42"})
    );

    // By email: URL-encoded.
    let contact = brevo.get_contact(ContactRef::email(email)).await.unwrap();
    assert_eq!(contact.id, id);
    assert_eq!(contact.email.as_deref(), Some(email));
    assert_eq!(contact.list_ids, vec![pending]);
    assert_eq!(contact.attributes["FIRSTNAME"], "Max");
    assert!(!contact.email_blacklisted);
    assert_eq!(
        fake.requests().last().unwrap().path,
        "/contacts/max%2Btest%40example.de"
    );

    // Double opt-in confirmation: add target, remove pending; other lists stay.
    let third = fake.add_list(folder, "Dritte");
    fake.lock()
        .contacts
        .get_mut(&id)
        .unwrap()
        .list_ids
        .push(third);
    brevo
        .update_contact(
            ContactRef::Id(id),
            &UpdateContact {
                attributes: attrs(json!({"DOUBLE_OPT-IN": "1"})),
                list_ids: vec![target],
                unlink_list_ids: vec![pending],
                ..UpdateContact::default()
            },
        )
        .await
        .unwrap();
    let update = fake.requests().last().unwrap().clone();
    assert_eq!(update.line(), format!("PUT /contacts/{id}"));
    assert_eq!(
        update.query_param("identifierType").as_deref(),
        Some("contact_id")
    );
    assert_eq!(
        update.body,
        json!({"attributes": {"DOUBLE_OPT-IN": "1"}, "listIds": [target], "unlinkListIds": [pending]})
    );
    let contact = brevo.get_contact(ContactRef::Id(id)).await.unwrap();
    let mut expected = vec![target, third];
    expected.sort_unstable();
    assert_eq!(contact.list_ids, expected);
    assert_eq!(contact.attributes["DOUBLE_OPT-IN"], "1");
    assert_eq!(contact.attributes["FIRSTNAME"], "Max");
    assert!(contact.modified_at >= contact.created_at);

    // Blocklist via update by email.
    brevo
        .update_contact(
            ContactRef::email(email),
            &UpdateContact {
                email_blacklisted: Some(true),
                ..UpdateContact::default()
            },
        )
        .await
        .unwrap();
    assert!(fake.contact_by_email(email).unwrap().email_blacklisted);
    let target_list = fake.lists().into_iter().find(|l| l.id == target).unwrap();
    assert_eq!(
        (target_list.total_subscribers, target_list.total_blacklisted),
        (0, 1)
    );

    // Delete, then it is gone.
    brevo
        .delete_contact(ContactRef::email(email))
        .await
        .unwrap();
    let err = brevo
        .get_contact(ContactRef::email(email))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, BrevoError::NotFound { code, .. } if code == "document_not_found"),
        "{err:?}"
    );
    assert!(
        brevo
            .delete_contact(ContactRef::Id(id))
            .await
            .unwrap_err()
            .is_not_found()
    );
}

#[tokio::test]
async fn duplicate_email_and_upsert() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    let folder = fake.add_folder("F");
    let list = fake.add_list(folder, "L");
    brevo
        .create_contact(&new_contact("erika@example.de"))
        .await
        .unwrap()
        .expect("created");

    let err = brevo
        .create_contact(&new_contact("Erika@Example.de"))
        .await
        .unwrap_err();
    match &err {
        BrevoError::Api {
            status,
            code,
            duplicate,
            ..
        } => {
            assert_eq!(
                (*status, code.as_str(), *duplicate),
                (400, "duplicate_parameter", true)
            );
        }
        other => panic!("expected a duplicate, got {other:?}"),
    }
    assert!(err.is_duplicate());

    // Upsert: 204 → None, attributes merged, lists added.
    let upsert = brevo
        .create_contact(&CreateContact {
            email: "erika@example.de".into(),
            attributes: attrs(json!({"LASTNAME": "Musterfrau"})),
            list_ids: vec![list],
            update_enabled: true,
            ..CreateContact::default()
        })
        .await
        .unwrap();
    assert_eq!(upsert, None);
    let stored = fake.contacts();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].list_ids, vec![list]);
    assert_eq!(stored[0].attributes["LASTNAME"], "Musterfrau");
}

#[tokio::test]
async fn list_contacts_pages_and_filters_by_modification() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    let mut ids = Vec::new();
    for i in 0..5 {
        ids.push(fake.add_contact(&format!("k{i}@example.de"), &[]));
    }
    // Give the contacts distinct modification times, one hour apart.
    let base = Utc::now().trunc_subsecs(3) - chrono::Duration::days(1);
    {
        let mut state = fake.lock();
        for (n, id) in ids.iter().enumerate() {
            let contact = state.contacts.get_mut(id).unwrap();
            contact.modified_at = base + chrono::Duration::hours(n as i64);
        }
    }

    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let page = brevo.list_contacts(2, offset, None).await.unwrap();
        assert_eq!(page.count, 5);
        if page.contacts.is_empty() {
            break;
        }
        offset += page.contacts.len() as u32;
        seen.extend(page.contacts.into_iter().map(|c| c.id));
    }
    assert_eq!(seen, ids, "oldest first, every contact once");
    let first = &fake.requests()[0];
    assert_eq!(first.query_param("sort").as_deref(), Some("asc"));
    assert_eq!(first.query_param("limit").as_deref(), Some("2"));

    // Modified strictly after the third contact's time: the last two.
    let since = base + chrono::Duration::hours(2);
    let page = brevo.list_contacts(1000, 0, Some(since)).await.unwrap();
    assert_eq!(page.count, 2);
    assert_eq!(
        page.contacts.iter().map(|c| c.id).collect::<Vec<_>>(),
        &ids[3..]
    );
    assert_eq!(page.contacts[0].email.as_deref(), Some("k3@example.de"));
    let sent = fake.requests().last().unwrap().query_param("modifiedSince");
    let sent = sent.expect("modifiedSince sent");
    assert!(sent.ends_with('Z') && sent.contains('.'), "{sent}");
}

#[tokio::test]
async fn send_transactional_email() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    let mut params = Map::new();
    params.insert(
        "CONFIRM_URL".into(),
        json!("https://portal.example.de/doi/abc"),
    );
    let message_id = brevo
        .send_email(&TransactionalEmail {
            sender: EmailAddress::new("noreply@example.de", Some("Aktionsportal".into())),
            to: vec![EmailAddress::new("max@example.de", Some("Max".into()))],
            subject: Some("Bitte bestätigen".into()),
            html_content: Some("<p>Bitte bestätigen</p>".into()),
            text_content: Some("Bitte bestätigen".into()),
            template_id: None,
            params: Some(params),
            headers: Some(Map::from_iter([(
                "List-Unsubscribe".to_string(),
                json!("<https://portal.example.de/abmelden/t>"),
            )])),
            tags: Some(vec!["package-7".into()]),
        })
        .await
        .unwrap();
    assert!(
        message_id.starts_with('<') && message_id.ends_with("@fake.brevo>"),
        "{message_id}"
    );
    let sent = fake.sent_emails();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].message_id, message_id);
    assert_eq!(sent[0].to, vec!["max@example.de".to_owned()]);
    assert_eq!(sent[0].subject.as_deref(), Some("Bitte bestätigen"));
    assert_eq!(
        sent[0].body["sender"],
        json!({"email": "noreply@example.de", "name": "Aktionsportal"})
    );
    assert_eq!(sent[0].body["htmlContent"], "<p>Bitte bestätigen</p>");
    assert_eq!(sent[0].body["textContent"], "Bitte bestätigen");
    assert!(sent[0].body.get("templateId").is_none());

    // With a template, subject and contents come from Brevo.
    let mut params = Map::new();
    params.insert("FIRSTNAME".into(), json!("Max"));
    brevo
        .send_email(&TransactionalEmail {
            sender: EmailAddress::new("noreply@example.de", None),
            to: vec![EmailAddress::new("max@example.de", None)],
            template_id: Some(12),
            params: Some(params),
            ..TransactionalEmail::default()
        })
        .await
        .unwrap();
    let sent = fake.sent_emails();
    assert_eq!(sent[1].template_id, Some(12));
    assert_eq!(sent[1].params, Some(json!({"FIRSTNAME": "Max"})));
    assert!(sent[1].body.get("subject").is_none());

    // No recipient: refused.
    let err = brevo
        .send_email(&TransactionalEmail {
            sender: EmailAddress::new("noreply@example.de", None),
            to: vec![],
            subject: Some("x".into()),
            html_content: Some("x".into()),
            ..TransactionalEmail::default()
        })
        .await
        .unwrap_err();
    assert!(
        matches!(err, BrevoError::Api { status: 400, .. }),
        "{err:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Errors, retries, timeouts, pacing
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn wrong_key_is_an_api_error() {
    let fake = FakeBrevo::start().await;
    let brevo = client_with(&fake, |c| c.api_key = "xkeysib-wrong".into());
    let err = brevo.list_folders(10, 0).await.unwrap_err();
    match &err {
        BrevoError::Api {
            status,
            code,
            message,
            duplicate,
        } => {
            assert_eq!(*status, 401);
            assert_eq!(code, "unauthorized");
            assert_eq!(message, "Key not found");
            assert!(!duplicate);
        }
        other => panic!("expected Api, got {other:?}"),
    }
    assert_eq!(fake.requests().len(), 1, "4xx is not retried");
    assert_eq!(fake.requests()[0].api_key.as_deref(), Some("xkeysib-wrong"));
    assert!(!format!("{brevo:?}").contains("xkeysib-wrong"));
    assert!(!err.to_string().contains("xkeysib"));
}

#[tokio::test]
async fn unknown_ids_are_not_found() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    for err in [
        brevo.get_list(4242).await.unwrap_err(),
        brevo.delete_folder(4242).await.unwrap_err(),
        brevo.delete_list(4242).await.unwrap_err(),
        brevo
            .update_contact(
                ContactRef::email("nobody@example.de"),
                &UpdateContact::default(),
            )
            .await
            .unwrap_err(),
    ] {
        assert!(
            matches!(&err, BrevoError::NotFound { code, .. } if code == "document_not_found"),
            "{err:?}"
        );
    }
    assert_eq!(fake.requests().len(), 4, "404 is not retried");
}

#[tokio::test]
async fn server_error_then_success_is_retried() {
    let fake = FakeBrevo::start().await;
    let folder = fake.add_folder("F");
    let brevo = client(&fake);
    fake.fail_next(1, 500);
    let lists = brevo.all_folder_lists(folder).await.unwrap();
    assert!(lists.is_empty());
    assert_eq!(fake.requests().len(), 2);
}

#[tokio::test]
async fn rate_limit_then_success_waits_for_reset() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    fake.rate_limit_next(1); // x-sib-ratelimit-reset: 1
    let started = Instant::now();
    let id = brevo.create_folder("Nach Wartezeit").await.unwrap();
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(950),
        "waited only {elapsed:?}"
    );
    assert_eq!(fake.requests().len(), 2, "a POST is repeated after 429");
    assert_eq!(fake.folders().len(), 1);
    assert_eq!(fake.folders()[0].id, id);
}

#[tokio::test]
async fn persistent_rate_limit_gives_up() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    // reset 0 → back-off; still 429 after all retries.
    fake.rate_limit_next_with_reset(10, 0);
    let err = brevo.list_folders(10, 0).await.unwrap_err();
    assert!(matches!(err, BrevoError::RateLimited), "{err:?}");
    assert_eq!(fake.requests().len(), 4);
    assert!(err.is_transient());

    // A reset beyond what the client waits: no pointless retries.
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    fake.rate_limit_next_with_reset(1, 3600);
    let started = Instant::now();
    let err = brevo.list_folders(10, 0).await.unwrap_err();
    assert!(matches!(err, BrevoError::RateLimited), "{err:?}");
    assert_eq!(fake.requests().len(), 1);
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[tokio::test]
async fn persistent_server_error_is_unavailable_after_all_attempts() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    fake.fail_next(100, 500);
    let err = brevo.list_folders(10, 0).await.unwrap_err();
    assert!(
        matches!(&err, BrevoError::Unavailable(m) if m.contains("500")),
        "{err:?}"
    );
    assert_eq!(fake.requests().len(), 3 + 1, "max_retries + 1 attempts");
    assert_eq!(
        err.user_message(),
        "Der Marketing-Dienst (Brevo) ist nicht erreichbar. Bitte versuchen Sie es später erneut."
    );
}

#[tokio::test]
async fn creates_are_repeated_only_when_brevo_did_not_act() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    // 500 on a create: it may have been processed, so no retry.
    fake.fail_next(1, 500);
    let err = brevo.create_folder("Einmal").await.unwrap_err();
    assert!(matches!(err, BrevoError::Unavailable(_)), "{err:?}");
    assert_eq!(fake.requests().len(), 1);
    // 503 from a gateway: Brevo did not act, retried.
    fake.clear_requests();
    fake.fail_next(1, 503);
    brevo.create_folder("Zweimal versucht").await.unwrap();
    assert_eq!(fake.requests().len(), 2);
    assert_eq!(fake.folders().len(), 1);
}

#[tokio::test]
async fn timeout_is_unavailable_and_create_not_repeated() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake); // timeout 300 ms
    fake.delay_next(1, Duration::from_millis(1500));
    let err = brevo
        .create_contact(&new_contact("spaet@example.de"))
        .await
        .unwrap_err();
    assert!(matches!(err, BrevoError::Unavailable(_)), "{err:?}");
    assert!(!err.to_string().contains("spaet@"), "{err}");
    let posts = fake
        .requests()
        .iter()
        .filter(|r| r.line() == "POST /contacts")
        .count();
    assert_eq!(posts, 1, "a create that may have arrived is not repeated");
    // The request did reach the fake: exactly one contact.
    assert_eq!(fake.contacts().len(), 1);

    // An idempotent read is repeated after a timeout.
    fake.clear_requests();
    fake.delay_next(1, Duration::from_millis(1500));
    let contact = brevo
        .get_contact(ContactRef::email("spaet@example.de"))
        .await
        .unwrap();
    assert_eq!(contact.email.as_deref(), Some("spaet@example.de"));
    assert_eq!(fake.requests().len(), 2);
}

#[tokio::test]
async fn non_json_error_bodies() {
    let fake = FakeBrevo::start().await;
    let brevo = client(&fake);
    fake.fail_next_non_json(1, 403);
    let err = brevo.list_folders(10, 0).await.unwrap_err();
    assert!(
        matches!(&err, BrevoError::Api { status: 403, code, .. } if code == "http_403"),
        "{err:?}"
    );
    fake.fail_next_non_json(10, 502);
    let err = brevo.get_list(1).await.unwrap_err();
    assert!(
        matches!(&err, BrevoError::Unavailable(m) if m.contains("502")),
        "{err:?}"
    );
}

#[tokio::test]
async fn connection_refused_is_unavailable() {
    // A port that was free a moment ago.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let brevo = BrevoClient::new(
        BrevoConfig {
            base_url: format!("http://{addr}/v3"),
            api_key: "xkeysib-x".into(),
            timeout: Duration::from_millis(300),
            retry_base_delay: Duration::from_millis(5),
            max_retry_delay: Duration::from_millis(20),
            contacts_per_second: 0,
            ..BrevoConfig::default()
        },
        reqwest::Client::new(),
    );
    let err = brevo
        .get_contact(ContactRef::email("geheim@example.de"))
        .await
        .unwrap_err();
    assert!(matches!(&err, BrevoError::Unavailable(_)), "{err:?}");
    assert!(!err.to_string().contains("geheim"), "{err}");
}

#[tokio::test]
async fn contact_requests_are_paced_across_clones() {
    let fake = FakeBrevo::start().await;
    let folder = fake.add_folder("F");
    let brevo = client_with(&fake, |c| c.contacts_per_second = 10);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..25 {
        let brevo = brevo.clone();
        tasks.spawn(async move {
            if i % 2 == 0 {
                brevo
                    .folder_lists(folder, 10, 0, BrevoSortOrder::Asc)
                    .await
                    .map(drop)
            } else {
                brevo.list_contacts(10, 0, None).await.map(drop)
            }
        });
    }
    while let Some(result) = tasks.join_next().await {
        result.unwrap().unwrap();
    }
    let elapsed = started.elapsed();
    // 25 requests at 10/s: the 25th may start 2.4 s after the first.
    assert!(elapsed >= Duration::from_secs(2), "took only {elapsed:?}");
    assert_eq!(fake.requests().len(), 25);

    // /smtp is not in the contacts bucket: 20 mails at 10/s would take at least 1.9 s.
    let started = Instant::now();
    for _ in 0..20 {
        brevo
            .send_email(&TransactionalEmail {
                sender: EmailAddress::new("noreply@example.de", None),
                to: vec![EmailAddress::new("a@example.de", None)],
                subject: Some("s".into()),
                html_content: Some("h".into()),
                ..TransactionalEmail::default()
            })
            .await
            .unwrap();
    }
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_millis(1500), "paced: {elapsed:?}");
}
