//! What a package's mails brought (issue 37), over real HTTP and a real SMTP conversation: the
//! mail's "Zum Paket" link opens the package on the customer page and marks the visit, the
//! downloads of that visit count with the channel `mail`, and the statistics (JSON and CSV)
//! show per package the mails sent and failed, the unsubscribes, the downloads through the
//! link and the share of the mailed customer numbers that took anything afterwards.

mod common;

use std::time::Duration;

use aktionsportal::domain::roles::ADMIN;
use serde_json::{Value, json};

use common::{TestApp, days_around, file_path, spawn_app_with_smtp};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

/// The stored channel of each download event of `upload`.
async fn channels(app: &TestApp, upload: i64) -> Vec<String> {
    let sql = format!("select channel from download_events where upload_id = {upload} order by id");
    aktionsportal::db_run!(&app.test_db.db, pool => {
        sqlx::query_scalar::<_, String>(&sql).fetch_all(pool).await
    })
    .unwrap()
}

#[tokio::test]
async fn the_mail_link_opens_the_package_and_its_downloads_count_as_the_mails() {
    let (app, smtp) = spawn_app_with_smtp().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Privat").await;
    let (_, flyer) = app
        .upload(&admin, "Flyer Winter.pdf", b"%PDF-1.4\nflyer")
        .await;
    let (_, prices) = app.upload(&admin, "Preise Winter.txt", "Preise").await;
    let days = days_around(1, 30);
    let package = app
        .create_package_with_files(
            &admin,
            provider,
            "Winter Glasfaser",
            &[list],
            (&days.0, &days.1),
            &[
                flyer["id"].as_i64().unwrap(),
                prices["id"].as_i64().unwrap(),
            ],
        )
        .await;
    let id = package["id"].as_i64().unwrap();
    let path_of = |upload: &Value| file_path(&package, upload);
    let dealer = app.dealer_session(100_777, &[list]).await;
    app.contact_of(100_888, "weber@example.de", (true, false), &[list])
        .await;
    app.contact_of(100_999, "geht@example.de", (true, false), &[list])
        .await;

    let announcement = json!({
        "announce": true, "subject": "Neu: {Paket}", "text": "Jetzt da.", "reminderDays": 3,
        "confirmStarted": true,
    });
    let path = format!("/api/download/{id}/announcement");
    let (status, view) = app.call(&admin, "PUT", &path, Some(announcement)).await;
    assert_eq!(status, 200, "{view}");
    let received = smtp.wait_for(3).await;
    assert_eq!(received.len(), 3);

    // One recipient unsubscribes with its mail's one-click link.
    let leaving = &smtp.mails_to("geht@example.de")[0];
    let response = app
        .client
        .post(app.url(&format!("/api/unsubscribe/{}", leaving.unsubscribe_token())))
        .form(&[("List-Unsubscribe", "One-Click")])
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{}", response.status());

    // The dealer follows its mail's link: the package is opened and the visit marked.
    let mine = &smtp.mails_to("kunde100777@example.de")[0];
    let link = format!("https://portal.example.de/user/downloads?paket={id}&von=mail");
    assert!(mine.decoded().contains(&link), "the mail's link");
    let page = app
        .get_as(&dealer, &format!("/user/downloads?paket={id}&von=mail"))
        .await;
    assert_eq!(page.status(), 200);
    let cookie = page
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("ap_mail="))
        .expect("the visit remembers the mail")
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let html = page.text().await.unwrap();
    assert!(html.contains("data-testid=\"opened-package\""), "opened");
    assert!(html.contains("Paket aus Ihrer E-Mail: Winter Glasfaser"));
    assert!(html.contains("Flyer Winter.pdf herunterladen"));
    let visit = cookie.split(';').next().unwrap().to_string();

    // The flyer in that visit counts as the mail's; the price list without it as a file.
    let response = app
        .get_with(&dealer, &path_of(&flyer), &[("cookie", &visit)])
        .await;
    assert_eq!(response.status(), 200);
    response.bytes().await.unwrap();
    let response = app.get_as(&dealer, &path_of(&prices)).await;
    assert_eq!(response.status(), 200);
    response.bytes().await.unwrap();

    // The SMTP server has the third mail before the queue records it as sent, and the
    // downloads are counted in batches, the mail's and the package's figures apart: the figures
    // are asked until they are complete.
    let expected = json!({
        "id": id, "name": "Winter Glasfaser", "sent": 3, "failed": 0, "unsubscribes": 1,
        "mailDownloads": 1, "mailedCustomers": 3, "tookAfterwards": 1, "tookShare": 0.333,
    });
    let figures_path = format!("/api/statistics/packages/{id}");
    let mut figures = Value::Null;
    for _ in 0..100 {
        let (status, body) = app.call(&admin, "GET", &figures_path, None).await;
        assert_eq!(status, 200, "{body}");
        figures = body;
        if figures["mails"] == expected && figures["downloads"] == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(figures["mails"], expected, "{figures}");
    assert_eq!(figures["downloads"], 2, "both downloads count as downloads");
    let flyer_id = flyer["id"].as_i64().unwrap();
    let prices_id = prices["id"].as_i64().unwrap();
    assert_eq!(channels(&app, flyer_id).await, ["mail"]);
    assert_eq!(channels(&app, prices_id).await, ["file"]);

    // The statistics screen's list and its CSV show the same.
    let (status, listed) = app.call(&admin, "GET", "/api/statistics/mails", None).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed, json!([expected]));
    let response = app
        .get_as(&admin, "/api/statistics/export.csv?view=mails")
        .await;
    assert_eq!(response.status(), 200);
    let csv = response.text().await.unwrap();
    let lines: Vec<&str> = csv.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(
        lines,
        [
            "Paket-ID;Paket;E-Mails gesendet;Fehlgeschlagen;Abmeldungen;Downloads über E-Mail;\
             Kundennummern angeschrieben;davon danach heruntergeladen;Anteil",
            &format!("{id};Winter Glasfaser;3;0;1;1;3;1;0,333"),
        ]
    );

    // A package the dealer does not see is not opened, and says so.
    let page = app
        .get_as(&dealer, "/user/downloads?paket=999999&von=mail")
        .await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("data-testid=\"opened-package-missing\""));
    assert!(!html.contains("data-testid=\"opened-package\""));
}
