//! One pace for all mail (issue 37): the double opt-in mail and a package's announcement go
//! through the same queue, at `AP_MAIL_PER_SECOND` together, and take turns, so a job started
//! while a large announcement is sending does not wait for its end. Over real HTTP and SMTP.

mod common;

use std::time::{Duration, Instant};

use aktionsportal::domain::roles::ADMIN;
use chrono::Utc;
use serde_json::json;

use common::spawn_app_with_smtp_at;

const PER_SECOND: u32 = 4;

#[tokio::test]
async fn all_mail_jobs_share_one_pace_and_take_turns() {
    let (app, smtp) = spawn_app_with_smtp_at(PER_SECOND, true).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", "GS-Aktionsportal-BU-Glasfaser")
        .await;
    let list = app.create_list(&admin, provider, "Privat").await;
    for i in 0..8 {
        app.contact_on_lists(&format!("kunde{i}@example.de"), (true, false), &[list])
            .await;
    }
    for i in 0..2 {
        app.contact_on_lists(&format!("neu{i}@example.de"), (false, false), &[list])
            .await;
    }
    let today = Utc::now().date_naive();
    let days = (
        (today - chrono::Days::new(1)).to_string(),
        (today + chrono::Days::new(30)).to_string(),
    );
    let id = app
        .create_package(
            &admin,
            provider,
            "Frühjahr Glasfaser",
            &[list],
            (&days.0, &days.1),
        )
        .await;
    let body = json!({
        "announce": true, "subject": "Neu: {Paket}", "text": "Jetzt da.", "reminderDays": 3,
        "confirmStarted": true,
    });
    let (status, view) = app
        .call(
            &admin,
            "PUT",
            &format!("/api/download/{id}/announcement"),
            Some(body),
        )
        .await;
    assert_eq!(status, 200, "{view}");
    smtp.wait_for(1).await;

    // While the announcement sends, the double opt-in mail to the two pending contacts starts.
    let started = Instant::now();
    let (status, answer) = app.call(&admin, "POST", "/api/smtp/emails", None).await;
    assert_eq!(status, 200, "{answer}");
    let sent_before = smtp.mails().len();
    let mails = smtp.wait_for(10).await;
    let took = started.elapsed();
    let (_, job) = app.call(&admin, "GET", "/api/smtp/emails", None).await;
    assert_eq!(
        mails.len(),
        10,
        "eight announcements and two double opt-in mails: {answer} {job}"
    );

    // Turns: both double opt-in mails come before the announcement's last ones.
    let order: Vec<&str> = mails.iter().map(|m| m.to[0].as_str()).collect();
    let last_double_opt_in = order.iter().rposition(|to| to.starts_with("neu")).unwrap();
    assert!(
        last_double_opt_in < 8,
        "the double opt-in mail waited for the announcement's end: {order:?}"
    );
    // One pace: the mails after the start of the second job came no faster than the limit for
    // both jobs together.
    let after = (10 - sent_before) as f64;
    let least = Duration::from_secs_f64((after - 1.0) / f64::from(PER_SECOND));
    assert!(
        took + Duration::from_millis(100) >= least,
        "{after} mails in {took:?}, faster than {PER_SECOND} a second"
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(smtp.mails().len(), 10, "nobody twice");
}
