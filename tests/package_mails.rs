//! A package's announcement as it is sent (issue 37), over real HTTP and a real SMTP
//! conversation: queued once when the package has started, mailed to each confirmed,
//! unblocked address of its lists once, with the one-click unsubscribe headers (RFC 8058),
//! retried after a passing refusal; and the unsubscribe link, whose GET changes nothing and
//! whose POST blocks the address.

mod common;

use std::time::Duration;

use aktionsportal::db::contacts;
use aktionsportal::db::operations::mail_jobs;
use aktionsportal::domain::roles::ADMIN;
use chrono::Utc;
use serde_json::json;

use common::fake_smtp::ReceivedMail;
use common::{TestApp, days_around, file_path, spawn_app_with_smtp, spawn_app_with_smtp_at};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

/// A contact of customer number 200001 on `lists`; its id.
async fn contact(app: &TestApp, email: &str, confirmed: bool, blocked: bool, lists: &[i64]) -> i64 {
    app.contact_on_lists(email, (confirmed, blocked), lists)
        .await
}

#[tokio::test]
async fn a_started_package_is_announced_once_to_each_consenting_address_with_one_click_unsubscribe()
{
    let (app, smtp) = spawn_app_with_smtp().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let a = app.create_list(&admin, provider, "Privat").await;
    let b = app.create_list(&admin, provider, "Gewerbe").await;
    let other = app.create_list(&admin, provider, "Altkunden").await;
    let eins = contact(&app, "eins@example.de", true, false, &[a]).await;
    let zwei = contact(&app, "zwei@example.de", true, false, &[a, b]).await;
    contact(&app, "offen@example.de", false, false, &[a]).await;
    // A mailbox the server does not know: refused for good, only that one.
    contact(&app, "unbekannt@example.de", true, false, &[b]).await;
    smtp.refuse_recipient("unbekannt@example.de");
    contact(&app, "gesperrt@example.de", true, true, &[b]).await;
    contact(&app, "fremd@example.de", true, false, &[other]).await;
    let today = Utc::now().date_naive();
    let (start, end) = (
        (today - chrono::Days::new(1)).to_string(),
        (today + chrono::Days::new(30)).to_string(),
    );
    let id = app
        .create_package(
            &admin,
            provider,
            "Frühjahr Glasfaser",
            &[a, b],
            (&start, &end),
        )
        .await;
    // The first mail is refused for a passing reason (451): it is tried again.
    smtp.refuse_next(1);
    let path = format!("/api/download/{id}/announcement");
    let mut body = json!({
        "announce": true,
        "subject": "Neu: {Paket}",
        "text": "Ab sofort gültig bis {Gültig bis}.",
        "reminderDays": 3,
    });
    let (status, answer) = app.call(&admin, "PUT", &path, Some(body.clone())).await;
    assert_eq!(status, 409, "started: only after a confirmation: {answer}");
    assert!(smtp.mails().is_empty());
    body["confirmStarted"] = json!(true);
    let (status, view) = app.call(&admin, "PUT", &path, Some(body.clone())).await;
    assert_eq!(status, 200, "{view}");
    assert!(view["announcedAt"].is_string(), "queued at once: {view}");

    let received = smtp.wait_for(2).await;
    let mut to: Vec<&str> = received.iter().map(|m| m.to[0].as_str()).collect();
    to.sort();
    assert_eq!(
        to,
        ["eins@example.de", "zwei@example.de"],
        "each consenting address once"
    );
    for mail in &received {
        let parsed = parsed_by_python(mail);
        assert_eq!(parsed["defects"], json!([]), "{parsed}");
        assert_eq!(
            parsed["parts"],
            json!(["multipart/alternative", "text/plain", "text/html"]),
            "{parsed}"
        );
        assert_eq!(parsed["listUnsubscribePost"], "List-Unsubscribe=One-Click");
        assert!(
            parsed["listUnsubscribe"]
                .as_str()
                .unwrap()
                .starts_with("<https://portal.example.de/api/unsubscribe/"),
            "{parsed}"
        );
        assert_eq!(
            mail.header("List-Unsubscribe-Post").as_deref(),
            Some("List-Unsubscribe=One-Click")
        );
        let text = mail.decoded();
        assert!(text.contains("Neu: Frühjahr Glasfaser") || text.contains("Subject:"));
        assert!(
            text.contains("text/plain") && text.contains("text/html"),
            "{text}"
        );
        assert!(
            text.contains(&format!("/user/downloads?paket={id}")),
            "{text}"
        );
        assert!(
            text.contains("Muster Vertrieb GmbH"),
            "the legal details: {text}"
        );
    }
    let db = &app.test_db.db;
    let job = mail_jobs::of_package(db, id, mail_jobs::ANNOUNCEMENT)
        .await
        .unwrap()
        .expect("one job for the package");
    assert_eq!(job.total, 3);
    // Saved again, and a round of the queueing: nothing is queued or sent a second time.
    let (status, _) = app.call(&admin, "PUT", &path, Some(body)).await;
    assert_eq!(status, 200);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(smtp.mails().len(), 2, "once per package and address");
    let counts = mail_jobs::item_counts(db, job.id).await.unwrap();
    assert_eq!((counts.sent, counts.failed, counts.pending), (2, 1, 0));
    let mut attempts = 0;
    for id in [eins, zwei] {
        let items = mail_jobs::mails_of_contact(db, id).await.unwrap();
        assert_eq!(items.len(), 1, "{items:?}");
        assert_eq!(items[0].state, "sent");
        attempts += items[0].attempts;
    }
    assert_eq!(attempts, 3, "the refused mail was tried again");
    let (_, view) = app.call(&admin, "GET", &path, None).await;
    assert_eq!(
        view["mails"],
        json!({"recipients": 3, "sent": 2, "failed": 1, "waiting": 0, "skipped": 0}),
        "the status the form shows: {view}"
    );
    // The admin list asks for its page's packages at once; one not announced is left out.
    let (status, listed) = app
        .call(
            &admin,
            "GET",
            &format!("/api/announcements?ids={id},999"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["downloadId"], id);
    assert_eq!(listed[0]["announcedAt"], view["announcedAt"]);
    assert_eq!(
        listed[0]["mails"], view["mails"],
        "the list says what the form says"
    );
    let other = app
        .session_with_roles(&[
            aktionsportal::domain::roles::BU_MODERATOR,
            "GS-Aktionsportal-BU-Strom",
        ])
        .await;
    let (status, listed) = app
        .call(&other, "GET", &format!("/api/announcements?ids={id}"), None)
        .await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(
        listed,
        json!([]),
        "another provider's moderator sees nothing of it"
    );
    let (status, _) = app
        .call(&admin, "GET", "/api/announcements?ids=abc", None)
        .await;
    assert_eq!(status, 400);
    let (status, failed) = app
        .call(&admin, "GET", &format!("{path}/failures"), None)
        .await;
    assert_eq!(status, 200, "{failed}");
    let failed = failed.as_array().unwrap();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["email"], "unbekannt@example.de");
    assert_eq!(failed[0]["state"], "failed");
    assert_eq!(
        failed[0]["attempts"], 1,
        "a refusal for good is not tried again"
    );
    let reason = failed[0]["error"].as_str().unwrap();
    assert!(reason.contains("550"), "the server's reason: {reason}");
    // Only the mails that went out keep an unsubscribe link: not the refused one, nor the
    // first attempt of the one tried again.
    let links: i64 = aktionsportal::db_run!(db, pool => {
        sqlx::query_scalar("select count(*) from unsubscribe_tokens").fetch_one(pool).await
    })
    .unwrap();
    assert_eq!(links, 2, "one link per mail sent");

    // The unsubscribe link: a GET shows a button and changes nothing.
    let mail = received
        .iter()
        .find(|m| m.to[0] == "zwei@example.de")
        .unwrap();
    let token = mail.unsubscribe_token();
    let page = app.get(&format!("/abmelden/{token}")).await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("Jetzt abmelden"), "{html}");
    let blocked = || async {
        contacts::get_contact(db, zwei)
            .await
            .unwrap()
            .unwrap()
            .email_blacklisted
    };
    assert!(!blocked().await, "a GET unsubscribes nobody");
    // The mail program's one-click POST (no Origin, RFC 8058's body) blocks the address.
    let one_click = |token: String| {
        app.client
            .post(app.url(&format!("/api/unsubscribe/{token}")))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
    };
    let answer = one_click(token.clone()).await.unwrap();
    assert_eq!(answer.status(), 200);
    let answer: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(answer["code"], "UNSUBSCRIBED");
    assert!(blocked().await, "blocked as \"E-Mail sperren\" blocks");
    // The data export of the contact shows the link and when it was used (not its hash).
    let (status, export) = app
        .call(&admin, "GET", &format!("/api/contacts/{zwei}/export"), None)
        .await;
    assert_eq!(status, 200, "{export}");
    let links = export["stored"]["unsubscribeLinks"].as_array().unwrap();
    assert_eq!(links.len(), 1, "{export}");
    assert!(
        links[0]["used_at"].is_string() || links[0]["usedAt"].is_string(),
        "{export}"
    );
    assert!(!export.to_string().contains("token_hash"), "{export}");
    // A second POST changes nothing (it sets, it does not toggle).
    assert_eq!(one_click(token.clone()).await.unwrap().status(), 200);
    assert!(blocked().await);
    // The page says so; the page's button (a browser's form post) returns to it.
    let html = app
        .get(&format!("/abmelden/{token}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("Sie sind abgemeldet."), "{html}");
    let from_page = app
        .client
        .post(app.url(&format!("/api/unsubscribe/{token}")))
        .header("Accept", "text/html")
        .header("Origin", app.url(""))
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    common::assert_redirect(&from_page, &format!("/abmelden/{token}"));
    // An unknown link says so, and blocks nobody.
    let unknown = app.get(&format!("/abmelden/{}", "0".repeat(64))).await;
    assert_eq!(unknown.status(), 404);
    let unknown = one_click("nichts".into()).await.unwrap();
    assert_eq!(unknown.status(), 404);

    // A contact added to a list after the announcement is not mailed by itself ...
    contact(&app, "spaet@example.de", true, false, &[a]).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(
        smtp.mails_to("spaet@example.de").is_empty(),
        "not mailed retroactively"
    );
    // ... but "Erneut ankündigen" reaches it, and tries the failed address anew; those
    // reached (and the one unsubscribed meanwhile) get nothing.
    let (status, view) = app
        .call(&admin, "POST", &format!("{path}/again"), None)
        .await;
    assert_eq!(status, 200, "{view}");
    let received = smtp.wait_for(3).await;
    assert_eq!(smtp.mails_to("spaet@example.de").len(), 1, "{received:?}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    for address in ["eins@example.de", "zwei@example.de"] {
        assert_eq!(smtp.mails_to(address).len(), 1, "{address} once");
    }
    let failed = mail_jobs::failed_items(db, job.id, 10, 0).await.unwrap();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].attempts, 1, "tried anew from the start");
    let (_, view) = app.call(&admin, "GET", &path, None).await;
    assert_eq!(
        view["mails"],
        json!({"recipients": 4, "sent": 3, "failed": 1, "waiting": 0, "skipped": 0}),
        "{view}"
    );
}

/// The unsubscribe links of contact `id`'s mails.
async fn links_of(app: &TestApp, id: i64) -> i64 {
    aktionsportal::db_run!(&app.test_db.db, pool => {
        sqlx::query_scalar("select count(*) from unsubscribe_tokens where contact_id = $1")
            .bind(id)
            .fetch_one(pool)
            .await
    })
    .unwrap()
}

#[tokio::test]
async fn a_contact_blocked_while_its_announcement_is_queued_is_not_mailed_and_keeps_no_link() {
    // One mail a second: the queue claims an item, and stores its link, a slot or two before
    // its mail may go.
    let (app, smtp) = spawn_app_with_smtp_at(1, false).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Privat").await;
    let eins = contact(&app, "eins@example.de", true, false, &[list]).await;
    let zwei = contact(&app, "zwei@example.de", true, false, &[list]).await;
    let drei = contact(&app, "drei@example.de", true, false, &[list]).await;
    let (start, end) = days_around(1, 30);
    let id = app
        .create_package(&admin, provider, "Sommer", &[list], (&start, &end))
        .await;
    let body = json!({
        "announce": true, "subject": "Neu: {Paket}", "text": "Ab sofort.",
        "reminderDays": 0, "confirmStarted": true,
    });
    let path = format!("/api/download/{id}/announcement");
    let (status, view) = app.call(&admin, "PUT", &path, Some(body)).await;
    assert_eq!(status, 200, "{view}");
    // The first mail is out; the second address's slot is a second later.
    smtp.wait_for(1).await;
    let (status, blocked) = app
        .call(
            &admin,
            "PATCH",
            &format!("/api/contacts/email-blacklist/{zwei}"),
            None,
        )
        .await;
    assert_eq!((status, &blocked["emailBlacklisted"]), (200, &json!(true)));
    let received = smtp.wait_for(2).await;
    let mut to: Vec<&str> = received.iter().map(|m| m.to[0].as_str()).collect();
    to.sort();
    assert_eq!(to, ["drei@example.de", "eins@example.de"]);
    let job = mail_jobs::of_package(&app.test_db.db, id, mail_jobs::ANNOUNCEMENT)
        .await
        .unwrap()
        .unwrap();
    // The last outcome is recorded once the server took the mail.
    let mut counts = mail_jobs::item_counts(&app.test_db.db, job.id)
        .await
        .unwrap();
    for _ in 0..50 {
        if counts.sent == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        counts = mail_jobs::item_counts(&app.test_db.db, job.id)
            .await
            .unwrap();
    }
    assert_eq!((counts.sent, counts.skipped), (2, 1), "{counts:?}");
    // Each mail that went has its link; the one that did not go, none.
    let links = (
        links_of(&app, eins).await,
        links_of(&app, zwei).await,
        links_of(&app, drei).await,
    );
    assert_eq!(links, (1, 0, 1));
}

#[tokio::test]
async fn announcing_again_needs_an_announcement_that_went_out() {
    let (app, _smtp) = spawn_app_with_smtp().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Privat").await;
    let id = app
        .create_package(
            &admin,
            provider,
            "Sommer Glasfaser",
            &[list],
            ("2030-06-01", "2030-06-30"),
        )
        .await;
    let (status, answer) = app
        .call(
            &admin,
            "POST",
            &format!("/api/download/{id}/announcement/again"),
            None,
        )
        .await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(
        answer["message"],
        "Die Ankündigung wurde noch nicht versendet."
    );
    let job = mail_jobs::of_package(&app.test_db.db, id, mail_jobs::ANNOUNCEMENT)
        .await
        .unwrap();
    assert!(job.is_none(), "nothing queued");
}

/// Parses a mail as received with Python's `email` package (a parser that is not ours) and
/// returns what it found: the content types of the parts and the unsubscribe header fields.
fn parsed_by_python(mail: &ReceivedMail) -> serde_json::Value {
    use std::io::Write;
    let script = r#"
import email, json, sys
from email import policy
message = email.message_from_bytes(sys.stdin.buffer.read(), policy=policy.SMTP)
parts = [part.get_content_type() for part in message.walk()]
texts = [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
print(json.dumps({
    "defects": [str(d) for d in message.defects],
    "parts": parts,
    "subject": str(message["Subject"]),
    "listUnsubscribe": str(message["List-Unsubscribe"]),
    "listUnsubscribePost": str(message["List-Unsubscribe-Post"]),
    "texts": texts,
}))
"#;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(mail.data.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "python could not read the mail");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test]
async fn the_test_mail_goes_to_me_alone_and_parses_as_mime_with_both_parts() {
    let (app, smtp) = spawn_app_with_smtp().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Privat").await;
    contact(&app, "kunde@example.de", true, false, &[list]).await;
    let id = app
        .create_package(
            &admin,
            provider,
            "Sommer Glasfaser",
            &[list],
            ("2030-06-01", "2030-06-30"),
        )
        .await;
    let body = json!({
        "announce": true,
        "subject": "Neu: {Paket} – ab {Gültig ab}",
        "text": "Gültig bis {Gültig bis}.",
        "reminderDays": 3,
    });
    let path = format!("/api/download/{id}/announcement/test-mail");
    let (status, sent) = app.call(&admin, "POST", &path, Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent["sentTo"], "erika@example.de");
    let received = smtp.wait_for(1).await;
    assert_eq!(received.len(), 1, "only the test mail");
    assert_eq!(received[0].to, ["erika@example.de"], "to me alone");
    let parsed = parsed_by_python(&received[0]);
    assert_eq!(parsed["defects"], json!([]), "{parsed}");
    assert_eq!(
        parsed["parts"],
        json!(["multipart/alternative", "text/plain", "text/html"]),
        "{parsed}"
    );
    assert_eq!(parsed["subject"], "Neu: Sommer Glasfaser – ab 01.06.2030");
    let texts = parsed["texts"].as_array().unwrap();
    assert!(
        texts[0]
            .as_str()
            .unwrap()
            .contains("Gültig bis 30.06.2030."),
        "{parsed}"
    );
    assert!(texts[1].as_str().unwrap().contains("Zum Paket"), "{parsed}");
    // Its "Abmelden" reaches no contact: the page says what the link does in a sent mail.
    assert!(
        texts[0]
            .as_str()
            .unwrap()
            .contains("https://portal.example.de/abmelden/vorschau"),
        "{parsed}"
    );
    let page = app.get("/abmelden/vorschau").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("Abmeldelink der Vorschau oder Testmail"),
        "{html}"
    );
    // The preview's frame: the HTML part as a page of its own, whose policy allows the mail's
    // inline styles and nothing that runs, framed only by the portal.
    let page = app
        .client
        .get(app.url(&format!(
            "/api/download/{id}/announcement/preview.html?subject=Neu%3A%20%7BPaket%7D&text=Hallo"
        )))
        .header("cookie", format!("ap_session={admin}"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let header = |name: &str| {
        page.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    let policy = header("content-security-policy");
    assert!(policy.contains("style-src 'unsafe-inline'"), "{policy}");
    assert!(
        policy.contains("sandbox") && policy.contains("default-src 'none'"),
        "{policy}"
    );
    assert!(policy.contains("frame-ancestors 'self'"), "{policy}");
    assert_eq!(header("x-frame-options"), "SAMEORIGIN");
    assert!(header("content-type").starts_with("text/html"));
    let html = page.text().await.unwrap();
    assert!(
        html.contains("Neu: Sommer Glasfaser") && html.contains("Hallo"),
        "{html}"
    );
    // Every other page stays unframeable.
    let login = app.get("/login-failed").await;
    assert_eq!(
        login.headers().get("x-frame-options").unwrap(),
        "DENY",
        "pages are not framed"
    );
    // Nothing stored or queued: the contact of the list got nothing.
    let (_, view) = app
        .call(
            &admin,
            "GET",
            &format!("/api/download/{id}/announcement"),
            None,
        )
        .await;
    assert_eq!(view["saved"], false, "{view}");
    // A bad text sends nothing.
    let bad = json!({"announce": true, "subject": "{Produkt}", "text": "x", "reminderDays": 3});
    let (status, _) = app.call(&admin, "POST", &path, Some(bad)).await;
    assert_eq!(status, 400);
    assert_eq!(smtp.mails().len(), 1);
}

#[tokio::test]
async fn the_notice_before_the_end_goes_once_to_the_contacts_of_the_takers_and_names_their_files() {
    let (app, smtp) = spawn_app_with_smtp().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Privat").await;
    let (_, flyer) = app
        .upload(&admin, "Flyer Herbst.pdf", b"%PDF-1.4\nflyer")
        .await;
    let (_, prices) = app.upload(&admin, "Preisliste.txt", "Preise").await;
    let days = days_around(5, 2);
    let package = app
        .create_package_with_files(
            &admin,
            provider,
            "Herbst Glasfaser",
            &[list],
            (&days.0, &days.1),
            &[
                flyer["id"].as_i64().unwrap(),
                prices["id"].as_i64().unwrap(),
            ],
        )
        .await;
    let id = package["id"].as_i64().unwrap();
    let flyer_path = file_path(&package, &flyer);
    // Dealer 100777 takes the flyer; dealer 100888, on the same list, takes nothing.
    let taker = app.dealer_session(100_777, &[list]).await;
    app.dealer_session(100_888, &[list]).await;
    app.contact_of(100_777, "kollegin@example.de", (true, false), &[])
        .await;
    app.contact_of(100_777, "offen@example.de", (false, false), &[])
        .await;
    app.contact_of(100_777, "gesperrt@example.de", (true, true), &[])
        .await;
    let response = app.get_as(&taker, &flyer_path).await;
    assert_eq!(response.status(), 200);
    response.bytes().await.unwrap();

    // The writer records the taker with the download's event (it writes every second).
    let db = &app.test_db.db;
    let mut files = Vec::new();
    for _ in 0..100 {
        files = aktionsportal::db::insight::statistics::takers::files_taken(db, id, 100_777)
            .await
            .unwrap();
        if !files.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(files, ["Flyer Herbst.pdf"]);

    // Switched on three days before an end two days away: due at once, queued once.
    let path = format!("/api/download/{id}/announcement");
    let body =
        json!({"announce": false, "subject": "Neu: {Paket}", "text": "Neu.", "reminderDays": 3});
    let (status, view) = app.call(&admin, "PUT", &path, Some(body)).await;
    assert_eq!(status, 200, "{view}");
    let queued = aktionsportal::services::catalog::end_notices::queue_due(db)
        .await
        .unwrap();
    let again = aktionsportal::services::catalog::end_notices::queue_due(db)
        .await
        .unwrap();
    assert!(queued <= 1 && again == 0, "queued once: {queued}, {again}");

    let received = smtp.wait_for(2).await;
    let mut to: Vec<&str> = received.iter().map(|m| m.to[0].as_str()).collect();
    to.sort();
    assert_eq!(
        to,
        ["kollegin@example.de", "kunde100777@example.de"],
        "the confirmed, unblocked contacts of the customer number that took it"
    );
    for mail in &received {
        let subject = mail.header("Subject").unwrap();
        assert!(
            subject.starts_with("Endet am ") && subject.ends_with(": Herbst Glasfaser"),
            "{subject}"
        );
        let text = mail.decoded();
        assert!(text.contains("Flyer Herbst.pdf"), "names the file taken");
        assert!(!text.contains("Preisliste.txt"), "not the file left");
        assert!(
            text.contains("nicht mehr"),
            "says it must not be used after the end"
        );
        assert!(text.contains(&format!("/user/downloads?paket={id}")));
        mail.unsubscribe_token();
        let parsed = parsed_by_python(mail);
        assert_eq!(parsed["defects"], json!([]), "{parsed}");
    }
    let mut view = json!(null);
    for _ in 0..50 {
        (_, view) = app.call(&admin, "GET", &path, None).await;
        if view["endNoticeMails"]["sent"] == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(view["remindedAt"].is_string(), "{view}");
    assert_eq!(view["endNoticeMails"]["recipients"], 2, "{view}");
    assert_eq!(view["endNoticeMails"]["sent"], 2, "{view}");
    assert!(view["mails"].is_null(), "no announcement was sent: {view}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(smtp.mails().len(), 2, "nobody twice");

    // Forgotten once the package has ended long enough; not before.
    let takers = aktionsportal::db::insight::statistics::takers::expire;
    assert_eq!(takers(db, Utc::now()).await.unwrap(), 0, "still running");
    assert_eq!(
        takers(db, Utc::now() + chrono::Duration::days(4))
            .await
            .unwrap(),
        1
    );
}

const LOGO: &[u8] = include_bytes!("../assets/seed/logo-glasfaser-sued.png");
const PICTURES: [&[u8]; 5] = [
    include_bytes!("../assets/seed/banner-blau.png"),
    include_bytes!("../assets/seed/banner-gruen.png"),
    include_bytes!("../assets/seed/flyer.pdf"),
    include_bytes!("../assets/seed/banner-lila.png"),
    include_bytes!("../assets/seed/banner-pink.png"),
];

/// The pictures' addresses in a mail's HTML, without the public URL they start with.
fn picture_paths(html: &str, public_url: &str) -> Vec<String> {
    html.split("<img src=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|src| {
            src.strip_prefix(public_url)
                .unwrap_or_else(|| panic!("{src} under {public_url}"))
                .to_string()
        })
        .collect()
}

/// The announcement shows the provider's logo and the first four of the package's pictures at
/// public addresses under the portal's public URL: a mail program loads them without a
/// session, and a wrong tag, or a tag on another file, opens nothing. The preview shows the
/// same pictures as the mail that goes out.
#[tokio::test]
async fn the_announcement_shows_the_logo_and_four_pictures_that_load_without_a_session() {
    let (app, smtp) = common::spawn_app_with_smtp_and(common::with_previews).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (status, logo) = app.upload(&admin, "Logo.png", LOGO).await;
    assert_eq!(status, 200, "{logo}");
    let (status, provider) = app
        .call(
            &admin,
            "POST",
            "/api/providers/",
            Some(json!({"name": "Glasfaser Süd", "allowedRoles": [GLASFASER],
                "brevoActiveFolderId": "auto", "brevoInactiveFolderId": "auto",
                "uploadId": logo["id"]})),
        )
        .await;
    assert_eq!(status, 200, "{provider}");
    let list = app
        .create_list(&admin, provider["id"].as_i64().unwrap(), "Privat")
        .await;
    contact(&app, "bilder@example.de", true, false, &[list]).await;
    let mut files = Vec::new();
    for (n, bytes) in PICTURES.iter().enumerate() {
        let name = if n == 2 {
            "Flyer.pdf".to_string()
        } else {
            format!("Bild {n}.png")
        };
        let (status, file) = app.upload(&admin, &name, bytes).await;
        assert_eq!(status, 200, "{file}");
        files.push(file["id"].as_i64().unwrap());
    }
    let (status, text) = app.upload(&admin, "Hinweise.txt", b"Bitte beachten").await;
    assert_eq!(status, 200, "{text}");
    let (start, end) = days_around(1, 30);
    let mut with_text = files.clone();
    with_text.insert(0, text["id"].as_i64().unwrap());
    let package = app
        .create_package_with_files(
            &admin,
            provider["id"].as_i64().unwrap(),
            "Bilder",
            &[list],
            (&start, &end),
            &with_text,
        )
        .await;
    let id = package["id"].as_i64().unwrap();

    // The previews are made after upload: the mail shows those that are ready.
    app.files_with_previews(&admin, id, 5).await;
    let started = std::time::Instant::now();
    let public_url = "https://portal.example.de";
    let preview_path = format!("/api/download/{id}/announcement/preview");
    let paths = loop {
        let (status, preview) = app
            .call(
                &admin,
                "POST",
                &preview_path,
                Some(common::announcement_on(0)),
            )
            .await;
        assert_eq!(status, 200, "{preview}");
        let paths = picture_paths(preview["html"].as_str().unwrap(), public_url);
        if paths.len() == 5 || started.elapsed() > Duration::from_secs(30) {
            break paths;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(paths.len(), 5, "the logo and four pictures: {paths:?}");
    let logo_id = logo["id"].as_i64().unwrap();
    assert!(
        paths[0].starts_with(&format!("/mail-bilder/{logo_id}/")),
        "{paths:?}"
    );
    for (path, file) in paths[1..].iter().zip(&files) {
        assert!(
            path.starts_with(&format!("/mail-bilder/{file}/")),
            "in the package's order: {paths:?}"
        );
    }
    for path in &paths {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path} without a session");
        assert_eq!(response.headers()["content-type"], "image/jpeg");
        assert!(
            response.headers()["cache-control"]
                .to_str()
                .unwrap()
                .starts_with("public")
        );
        assert_eq!(&response.bytes().await.unwrap()[..2], b"\xff\xd8", "a JPEG");
    }
    // A tag changed by one digit, another file's id with a valid tag, the text file: nothing.
    let (base, tag) = paths[1].rsplit_once('/').unwrap();
    let flipped = if tag.ends_with('0') { "1" } else { "0" };
    let wrong = format!("{base}/{}{flipped}", &tag[..tag.len() - 1]);
    let other_file = format!("/mail-bilder/{}/{tag}", files[1]);
    let text_file = format!("/mail-bilder/{}/{tag}", text["id"]);
    for path in [
        wrong,
        other_file,
        text_file,
        format!("/mail-bilder/{}/x", files[0]),
    ] {
        assert_eq!(app.get(&path).await.status(), 404, "{path}");
    }

    // The mail that goes out shows the same pictures.
    let (status, saved) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/download/{id}/announcement"),
            Some(common::announcement_on(0)),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    let received = smtp.wait_for(1).await;
    let html = received[0].decoded();
    let html = &html[html.find("<html").expect("an HTML part")..];
    assert_eq!(picture_paths(html, public_url), paths);
}
