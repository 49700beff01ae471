//! A package's announcement settings over real HTTP (issue 37): who an announcement reaches,
//! the template's placeholders, the confirmation for a package that has started, the preview,
//! and who may see and change them.

mod common;

use aktionsportal::domain::roles::{ADMIN, BU_MODERATOR};
use serde_json::{Value, json};

use common::{TestApp, spawn_app, spawn_app_with};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

struct Setup {
    app: TestApp,
    admin: String,
    provider: i64,
    lists: Vec<i64>,
}

async fn setup() -> Setup {
    setup_on(spawn_app().await).await
}

async fn setup_on(app: TestApp) -> Setup {
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser <Süd>", GLASFASER)
        .await;
    let lists = vec![
        app.create_list(&admin, provider, "Glasfaser Privat").await,
        app.create_list(&admin, provider, "Glasfaser Gewerbe").await,
        app.create_list(&admin, provider, "Glasfaser Alt").await,
    ];
    Setup {
        app,
        admin,
        provider,
        lists,
    }
}

/// A package of the provider on `lists`, from `start` to `end` (dates); its id.
async fn package(s: &Setup, lists: &[i64], start: &str, end: &str) -> i64 {
    s.app
        .create_package(
            &s.admin,
            s.provider,
            "Frühjahr <Glasfaser>",
            lists,
            (start, end),
        )
        .await
}

/// A contact of customer number 200001 on `lists`.
async fn contact(s: &Setup, email: &str, confirmed: bool, blocked: bool, lists: &[i64]) {
    s.app
        .contact_on_lists(email, (confirmed, blocked), lists)
        .await;
}

fn settings(announce: bool, subject: &str, text: &str, reminder: i64) -> Value {
    json!({"announce": announce, "subject": subject, "text": text, "reminderDays": reminder})
}

#[tokio::test]
async fn an_announcement_reaches_each_confirmed_unblocked_address_on_the_lists_once() {
    let s = setup().await;
    let (a, b, other) = (s.lists[0], s.lists[1], s.lists[2]);
    let id = package(&s, &[a, b], "2030-03-01", "2030-03-31").await;
    contact(&s, "eins@example.de", true, false, &[a]).await;
    contact(&s, "zwei@example.de", true, false, &[a, b]).await;
    contact(&s, "offen@example.de", false, false, &[a]).await;
    contact(&s, "gesperrt@example.de", true, true, &[b]).await;
    contact(&s, "fremd@example.de", true, false, &[other]).await;
    let path = format!("/api/download/{id}/announcement");
    let (status, view) = s.app.call(&s.admin, "GET", &path, None).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["recipients"], 2, "{view}");
    // Nothing saved: nothing is sent, and the German template is offered.
    assert_eq!(view["saved"], false);
    assert_eq!(view["announce"], false);
    assert_eq!(view["subject"], "Neu im Aktionsportal: {Paket}");
    assert_eq!(view["reminderDays"], 3);
    assert_eq!(
        view["placeholders"],
        json!(["{Paket}", "{Anbieter}", "{Gültig ab}", "{Gültig bis}"])
    );
    // A contact added to a list later counts.
    contact(&s, "drei@example.de", true, false, &[b]).await;
    let (_, view) = s.app.call(&s.admin, "GET", &path, None).await;
    assert_eq!(view["recipients"], 3);
}

#[tokio::test]
async fn placeholders_are_checked_and_nothing_is_stored_for_bad_input() {
    let s = setup().await;
    let id = package(&s, &[s.lists[0]], "2030-03-01", "2030-03-31").await;
    let path = format!("/api/download/{id}/announcement");
    for (body, expected) in [
        (
            settings(true, "Neu: {Produkt}", "Text", 3),
            "Den Platzhalter „{Produkt}“ gibt es nicht.",
        ),
        (
            settings(true, "Neu", "Ab {Gültig ab", 3),
            "nicht mit „}“ geschlossen",
        ),
        (settings(true, "Neu", "Text", 61), "zwischen 0 und 60 Tagen"),
        (
            settings(true, "Neu", "  ", 3),
            "Der Text darf nicht leer sein.",
        ),
    ] {
        let (status, answer) = s.app.call(&s.admin, "PUT", &path, Some(body)).await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["code"], "validation_error");
        let message = answer["message"].as_str().unwrap();
        assert!(message.contains(expected), "{message}");
    }
    let (_, view) = s.app.call(&s.admin, "GET", &path, None).await;
    assert_eq!(view["saved"], false, "nothing stored: {view}");
    // The preview checks the whole body as a save does.
    let (status, answer) = s
        .app
        .call(
            &s.admin,
            "POST",
            &format!("{path}/preview"),
            Some(settings(true, "Neu", "Text", -1)),
        )
        .await;
    assert_eq!(status, 400, "{answer}");

    let body = settings(
        true,
        "{Paket} von {Anbieter}",
        "Gültig {Gültig ab} bis {Gültig bis}.\n\nBis bald",
        0,
    );
    let (status, view) = s.app.call(&s.admin, "PUT", &path, Some(body)).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["saved"], true);
    assert_eq!(view["announce"], true);
    assert_eq!(view["reminderDays"], 0);
    assert_eq!(view["announcedAt"], Value::Null);
    let (_, again) = s.app.call(&s.admin, "GET", &path, None).await;
    assert_eq!(
        again["text"],
        "Gültig {Gültig ab} bis {Gültig bis}.\n\nBis bald"
    );

    // The preview fills the placeholders with the package's facts (German dates) and frames
    // the mail: both parts, the package's link and the way to unsubscribe.
    let (status, mail) = s
        .app
        .call(
            &s.admin,
            "POST",
            &format!("{path}/preview"),
            Some(again_body(&again)),
        )
        .await;
    assert_eq!(status, 200, "{mail}");
    assert_eq!(mail["subject"], "Frühjahr <Glasfaser> von Glasfaser <Süd>");
    let text = mail["text"].as_str().unwrap();
    assert!(text.contains("Gültig 01.03.2030 bis 31.03.2030."), "{text}");
    assert!(
        text.contains(&format!("/user/downloads?paket={id}")),
        "{text}"
    );
    assert!(text.contains("Abmelden: "), "{text}");
    let html = mail["html"].as_str().unwrap();
    assert!(html.contains("Frühjahr &lt;Glasfaser&gt;"), "{html}");
    assert!(!html.contains("<Glasfaser>"), "escaped: {html}");
    assert!(html.contains(">Zum Paket</a>") && html.contains(">Abmelden</a>"));
}

fn again_body(view: &Value) -> Value {
    settings(
        true,
        view["subject"].as_str().unwrap(),
        view["text"].as_str().unwrap(),
        0,
    )
}

#[tokio::test]
async fn switching_on_for_a_started_package_needs_a_confirmation_naming_the_count() {
    let s = setup().await;
    let id = package(&s, &[s.lists[0]], "2026-01-01", "2030-03-31").await;
    for n in 0..3 {
        contact(&s, &format!("k{n}@example.de"), true, false, &[s.lists[0]]).await;
    }
    let path = format!("/api/download/{id}/announcement");
    let body = settings(true, "Neu: {Paket}", "Jetzt verfügbar.", 3);
    let (status, answer) = s.app.call(&s.admin, "PUT", &path, Some(body.clone())).await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["code"], "confirmation_required");
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("sofort an 3 Kontakte"),
        "{answer}"
    );
    let (_, view) = s.app.call(&s.admin, "GET", &path, None).await;
    assert_eq!(view["saved"], false);
    // Off needs no confirmation; on, confirmed, is stored.
    let (status, _) = s
        .app
        .call(
            &s.admin,
            "PUT",
            &path,
            Some(settings(false, "Neu", "Text", 3)),
        )
        .await;
    assert_eq!(status, 200);
    let mut confirmed = body;
    confirmed["confirmStarted"] = json!(true);
    let (status, view) = s.app.call(&s.admin, "PUT", &path, Some(confirmed)).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["announce"], true);
}

/// The start is read in the save's own transaction: a package whose start moves into the past
/// while the save waits for it needs the confirmation, and nothing is stored without it.
#[tokio::test]
async fn a_start_moved_into_the_past_during_the_save_still_needs_the_confirmation() {
    let s = setup().await;
    let id = package(&s, &[s.lists[0]], "2030-03-01", "2030-03-31").await;
    contact(&s, "k@example.de", true, false, &[s.lists[0]]).await;
    let path = format!("/api/download/{id}/announcement");
    let body = settings(true, "Neu: {Paket}", "Jetzt verfügbar.", 3);
    let started = chrono::Utc::now() - chrono::Duration::days(1);
    aktionsportal::db_run!(&s.app.test_db.db, pool => {
        // Another writer moves the start while the save is under way.
        let mut tx = pool.begin_write().await.unwrap();
        sqlx::query("update downloads set start_at = $1 where id = $2")
            .bind(started)
            .bind(id)
            .execute(&mut *tx)
            .await
            .unwrap();
        let save = s.app.call(&s.admin, "PUT", &path, Some(body.clone()));
        let commit = async {
            tokio::time::sleep(std::time::Duration::from_millis(400)).await;
            tx.commit().await.unwrap();
        };
        let ((status, answer), ()) = tokio::join!(save, commit);
        assert_eq!(status, 409, "{answer}");
        assert_eq!(answer["code"], "confirmation_required");
    });
    let (_, view) = s.app.call(&s.admin, "GET", &path, None).await;
    assert_eq!(view["saved"], false, "{view}");
}

#[tokio::test]
async fn only_admin_and_the_providers_roles_see_and_change_the_announcement() {
    let s = setup().await;
    let id = package(&s, &[s.lists[0]], "2030-03-01", "2030-03-31").await;
    let path = format!("/api/download/{id}/announcement");
    let moderator = s.app.session_with_roles(&[BU_MODERATOR]).await;
    let own = s.app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    let dealer = s.app.dealer_session(300_001, &[s.lists[0]]).await;
    let body = settings(true, "Neu", "Text", 3);
    for (who, token, expected) in [
        ("moderator of another provider", &moderator, 403),
        ("dealer", &dealer, 403),
        ("moderator of the provider", &own, 200),
    ] {
        let (status, _) = s.app.call(token, "GET", &path, None).await;
        assert_eq!(status, expected, "GET as {who}");
        let (status, _) = s.app.call(token, "PUT", &path, Some(body.clone())).await;
        assert_eq!(status, expected, "PUT as {who}");
    }
    let (status, _) = s
        .app
        .call(&s.admin, "GET", "/api/download/999999/announcement", None)
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_preview_carries_the_configured_legal_details() {
    let app = spawn_app_with(|config| {
        config.impressum_company = Some("Muster Energie GmbH".into());
        config.impressum_register = Some("Amtsgericht Berlin, HRB 12345".into());
    })
    .await;
    let s = setup_on(app).await;
    let id = package(&s, &[s.lists[0]], "2030-03-01", "2030-03-31").await;
    let (status, mail) = s
        .app
        .call(
            &s.admin,
            "POST",
            &format!("/api/download/{id}/announcement/preview"),
            Some(settings(true, "Neu: {Paket}", "Text", 3)),
        )
        .await;
    assert_eq!(status, 200, "{mail}");
    for part in ["text", "html"] {
        let body = mail[part].as_str().unwrap();
        assert!(body.contains("Muster Energie GmbH"), "{part}: {body}");
        assert!(
            body.contains("Registereintrag: Amtsgericht Berlin, HRB 12345"),
            "{part}: {body}"
        );
    }
}
