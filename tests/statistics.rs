//! Download statistics (issue 24) through real HTTP: what a file, a resumed file, a package
//! ZIP and a selection ZIP count; what HEAD, 304 and a cut-off download count; who sees which
//! figures; the CSV for German Excel; and the personal events expiring while the anonymous
//! roll-ups stay.

mod common;

use std::time::Duration;

use aktionsportal::domain::roles::{ADMIN, BU_MODERATOR};
use aktionsportal::domain::time::berlin_date;
use common::TestApp;
use serde_json::{Value, json};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

struct World {
    app: TestApp,
    admin: String,
    dealer: String,
    provider: i64,
    list: i64,
    /// The package nobody takes.
    winter: i64,
    package: i64,
    pdf: i64,
    txt: i64,
    pdf_path: String,
    pdf_len: usize,
}

fn day(offset: i64) -> String {
    (berlin_date(chrono::Utc::now()) + chrono::Duration::days(offset))
        .format("%Y-%m-%d")
        .to_string()
}

/// A provider with a package (a PDF and a text file) offered to the dealer 100777's list,
/// valid from yesterday for a month; and a second package of it that nobody will take.
async fn world() -> World {
    world_with(|_| {}).await
}

async fn world_with(adjust: impl FnOnce(&mut aktionsportal::config::Config)) -> World {
    let app = common::spawn_app_with(adjust).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    let mut bytes = b"%PDF-1.4\n".to_vec();
    bytes.extend((0..50_000u32).map(|i| (i % 251) as u8));
    let (_, pdf) = app.upload(&admin, "Flyer.pdf", &bytes).await;
    let (_, txt) = app.upload(&admin, "Preise.txt", "Preise für Händler").await;
    let (_, unused) = app.upload(&admin, "Plakat.txt", "Plakat").await;
    let create = |name: &str, files: Vec<Value>| {
        json!({
            "name": name,
            "startAt": day(-1), "endAt": day(30),
            "ProviderId": provider, "listsIds": [list],
            "uploadsToInsert": files,
        })
    };
    let (status, package) = app
        .call(
            &admin,
            "POST",
            "/api/download/",
            Some(create(
                "=Herbst; Aktion",
                vec![pdf["id"].clone(), txt["id"].clone()],
            )),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let (status, winter) = app
        .call(
            &admin,
            "POST",
            "/api/download/",
            Some(create("Winter Aktion", vec![unused["id"].clone()])),
        )
        .await;
    assert_eq!(status, 200);
    let dealer = app.dealer_session(100_777, &[list]).await;
    World {
        pdf_path: package["Uploads"][0]["path"].as_str().unwrap().to_string(),
        package: package["id"].as_i64().unwrap(),
        pdf: pdf["id"].as_i64().unwrap(),
        txt: txt["id"].as_i64().unwrap(),
        pdf_len: bytes.len(),
        provider,
        list,
        winter: winter["id"].as_i64().unwrap(),
        app,
        admin,
        dealer,
    }
}

const STROM: &str = "GS-Aktionsportal-BU-Strom";

/// A second provider with a package of its own, and its moderator.
struct Neighbour {
    provider: i64,
    package: i64,
    file: i64,
    /// A moderator of this provider only (`BU_MODERATOR` and `STROM`).
    moderator: String,
}

/// Stadtwerke Nord (`STROM`) with one package of one file, offered to dealer 100888's list;
/// that dealer takes the file twice. With the world's one download the admin then sees 3.
async fn neighbour(w: &World) -> Neighbour {
    let app = &w.app;
    let provider = app
        .create_provider(&w.admin, "Stadtwerke Nord", STROM)
        .await;
    let list = app.create_list(&w.admin, provider, "Strom Privat").await;
    let (status, file) = app.upload(&w.admin, "Tarif.pdf", b"%PDF-1.4\nStrom").await;
    assert_eq!(status, 200, "{file}");
    let (status, package) = app
        .call(
            &w.admin,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Strom Aktion",
                "startAt": day(-1), "endAt": day(30),
                "ProviderId": provider, "listsIds": [list],
                "uploadsToInsert": [file["id"].clone()],
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let dealer = app.dealer_session(100_888, &[list]).await;
    let path = package["Uploads"][0]["path"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let response = app.get_with(&dealer, &path, &[]).await;
        assert_eq!(response.status(), 200);
        response.bytes().await.unwrap();
    }
    Neighbour {
        provider,
        package: package["id"].as_i64().unwrap(),
        file: file["id"].as_i64().unwrap(),
        moderator: app.session_with_roles(&[BU_MODERATOR, STROM]).await,
    }
}

/// The summary once the writer has caught up with `downloads` downloads (it writes every
/// second).
async fn summary_with(app: &TestApp, token: &str, query: &str, downloads: i64) -> Value {
    let mut last = Value::Null;
    for _ in 0..50 {
        let (status, body) = app
            .call(
                token,
                "GET",
                &format!("/api/statistics/summary{query}"),
                None,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        if body["downloads"] == json!(downloads) {
            return body;
        }
        last = body;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the summary never showed {downloads} downloads: {last}");
}

/// The events as stored: (upload, channel, kind, bytes, outcome, customer number).
type Event = (i64, String, String, i64, String, Option<i64>);

async fn events(app: &TestApp) -> Vec<Event> {
    const SQL: &str = "select upload_id, channel, kind, bytes_sent, outcome, customer_number \
                       from download_events order by id";
    match &app.test_db.db {
        aktionsportal::db::Db::Sqlite(pool, _) => sqlx::query_as(SQL).fetch_all(pool).await,
        aktionsportal::db::Db::Postgres(pool, _) => sqlx::query_as(SQL).fetch_all(pool).await,
    }
    .unwrap()
}

#[tokio::test]
async fn files_and_zips_count_per_file_and_resumptions_head_and_304_do_not() {
    let w = world().await;
    let app = &w.app;

    // A whole file: a download. Its ETag for the 304 below.
    let whole = app.get_with(&w.dealer, &w.pdf_path, &[]).await;
    assert_eq!(whole.status(), 200);
    let etag = whole.headers()["etag"].to_str().unwrap().to_string();
    assert_eq!(whole.bytes().await.unwrap().len(), w.pdf_len);
    // HEAD and a 304 count nothing; a Range later in the file is a resumption.
    let head = app
        .client
        .head(app.url(&w.pdf_path))
        .header("cookie", format!("ap_session={}", w.dealer))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    let cached = app
        .get_with(&w.dealer, &w.pdf_path, &[("if-none-match", &etag)])
        .await;
    assert_eq!(cached.status(), 304);
    let resumed = app
        .get_with(&w.dealer, &w.pdf_path, &[("range", "bytes=1000-")])
        .await;
    assert_eq!(resumed.status(), 206);
    resumed.bytes().await.unwrap();
    // The package ZIP: each of its two files is a download.
    let zip = app
        .get_with(&w.dealer, &format!("/api/download/{}/zip", w.package), &[])
        .await;
    assert_eq!(zip.status(), 200);
    zip.bytes().await.unwrap();
    // A selection ZIP of the text file.
    let selection = format!("/api/downloads/zip?files={}:{}", w.package, w.txt);
    let zip = app.get_with(&w.dealer, &selection, &[]).await;
    assert_eq!(zip.status(), 200);
    zip.bytes().await.unwrap();

    let summary = summary_with(app, &w.admin, "", 4).await;
    assert_eq!(summary["customers"], 1);
    assert_eq!(
        summary["zipShare"], 0.75,
        "three of four downloads came in a ZIP"
    );
    assert_eq!(summary["days"].as_array().unwrap().len(), 30);
    assert_eq!(summary["days"][29], json!({"date": day(0), "downloads": 4}));
    assert_eq!(
        summary["topPackages"],
        json!([{"id": w.package, "name": "=Herbst; Aktion", "downloads": 4}])
    );
    let untouched = summary["untouchedPackages"].as_array().unwrap();
    assert_eq!(untouched.len(), 1);
    assert_eq!(untouched[0]["name"], "Winter Aktion");

    let mut stored = events(app).await;
    stored.sort();
    let pdf_len = w.pdf_len as i64;
    let txt_len = "Preise für Händler".len() as i64;
    assert_eq!(
        stored,
        vec![
            (
                w.pdf,
                "file".into(),
                "download".into(),
                pdf_len,
                "complete".into(),
                Some(100_777)
            ),
            (
                w.pdf,
                "file".into(),
                "resumption".into(),
                pdf_len - 1000,
                "complete".into(),
                Some(100_777)
            ),
            (
                w.pdf,
                "package_zip".into(),
                "download".into(),
                pdf_len,
                "complete".into(),
                Some(100_777)
            ),
            (
                w.txt,
                "package_zip".into(),
                "download".into(),
                txt_len,
                "complete".into(),
                Some(100_777)
            ),
            (
                w.txt,
                "selection_zip".into(),
                "download".into(),
                txt_len,
                "complete".into(),
                Some(100_777)
            ),
        ]
    );

    let (status, package) = app
        .call(
            &w.admin,
            "GET",
            &format!("/api/statistics/packages/{}", w.package),
            None,
        )
        .await;
    assert_eq!(status, 200, "{package}");
    assert_eq!(package["downloads"], 4);
    assert_eq!(package["customers"], 1);
    assert_eq!(
        package["files"],
        json!([
            {"id": w.pdf, "name": "Flyer.pdf", "downloads": 2},
            {"id": w.txt, "name": "Preise.txt", "downloads": 2},
        ])
    );
    let (status, customers) = app
        .call(
            &w.admin,
            "GET",
            &format!("/api/statistics/packages/{}/customers", w.package),
            None,
        )
        .await;
    assert_eq!(status, 200, "{customers}");
    assert_eq!(customers["content"][0]["customerNumber"], 100_777);
    assert_eq!(customers["content"][0]["downloads"], 4);

    // The admin list's column: all-time downloads, 0 for the package nobody took.
    let (status, counts) = app
        .call(
            &w.admin,
            "GET",
            &format!("/api/statistics/downloads?ids={},{}", w.package, w.winter),
            None,
        )
        .await;
    assert_eq!(status, 200, "{counts}");
    assert_eq!(
        counts,
        json!([{"id": w.package, "downloads": 4}, {"id": w.winter, "downloads": 0}])
    );
    // The provider's one dealer took something: all of its dealers.
    let (status, shares) = app
        .call(&w.admin, "GET", "/api/statistics/providers", None)
        .await;
    assert_eq!(status, 200, "{shares}");
    assert_eq!(
        shares,
        json!([{"id": w.provider, "name": "Glasfaser Süd", "customers": 1, "dealers": 1, "share": 1.0}])
    );
}

#[tokio::test]
async fn with_recording_off_a_download_counts_nothing() {
    let w = world_with(|config| config.stats_recording = false).await;
    let response = w.app.get_as(&w.dealer, &w.pdf_path).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.bytes().await.unwrap().len(), w.pdf_len);
    // Longer than the writer's second: it had its chance to write.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(events(&w.app).await.is_empty());
    let (status, summary) = w
        .app
        .call(&w.admin, "GET", "/api/statistics/summary", None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(summary["downloads"], 0);
}

#[tokio::test]
async fn a_download_cut_off_counts_as_aborted_with_the_bytes_sent() {
    let w = world().await;
    let app = &w.app;
    // Larger than the socket buffers of both ends, so it cannot all be sent before we go.
    let mut big = b"%PDF-1.4\n".to_vec();
    big.extend(std::iter::repeat_n(7u8, 24 * 1024 * 1024));
    let (status, upload) = app.upload(&w.admin, "Gross.pdf", &big).await;
    assert_eq!(status, 200, "{upload}");
    let (status, package) = app
        .call(
            &w.admin,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Großes Paket", "startAt": day(-1), "endAt": day(30),
                "ProviderId": w.provider, "listsIds": [w.list],
                "uploadsToInsert": [upload["id"]],
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let path = package["Uploads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == upload["id"])
        .unwrap()["path"]
        .as_str()
        .unwrap()
        .to_string();
    let mut response = app.get_with(&w.dealer, &path, &[]).await;
    assert_eq!(response.status(), 200);
    response.chunk().await.unwrap().expect("a first chunk");
    drop(response);

    let stored = {
        let mut found = Vec::new();
        for _ in 0..50 {
            found = events(app).await;
            if !found.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        found
    };
    assert_eq!(stored.len(), 1, "{stored:?}");
    let (id, channel, kind, bytes, outcome, _) = &stored[0];
    assert_eq!(
        (*id, channel.as_str(), kind.as_str()),
        (upload["id"].as_i64().unwrap(), "file", "download")
    );
    assert_eq!(outcome, "aborted");
    assert!(*bytes > 0 && *bytes < big.len() as i64, "{bytes}");
}

#[tokio::test]
async fn moderators_see_their_providers_and_dealers_see_nothing() {
    let w = world().await;
    let app = &w.app;
    app.get_with(&w.dealer, &w.pdf_path, &[])
        .await
        .bytes()
        .await
        .unwrap();
    let n = neighbour(&w).await;
    summary_with(app, &w.admin, "", 3).await;

    // A moderator of another provider: only its own figures, nothing of this one, and no way
    // to ask for it.
    let other = &n.moderator;
    let (status, body) = app
        .call(other, "GET", "/api/statistics/summary", None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["downloads"], 2, "{body}");
    assert_eq!(body["customers"], 1, "{body}");
    assert_eq!(
        body["topPackages"],
        json!([{"id": n.package, "name": "Strom Aktion", "downloads": 2}])
    );
    assert_eq!(
        body["untouchedPackages"],
        json!([]),
        "Winter Aktion is not its"
    );
    assert_eq!(body["days"][29], json!({"date": day(0), "downloads": 2}));
    let query = format!("/api/statistics/summary?providerId={}", w.provider);
    assert_eq!(app.call(other, "GET", &query, None).await.0, 403);
    let own_query = format!("/api/statistics/summary?providerId={}", n.provider);
    let (status, own_summary) = app.call(other, "GET", &own_query, None).await;
    assert_eq!((status, own_summary["downloads"].clone()), (200, json!(2)));
    let package = format!("/api/statistics/packages/{}", w.package);
    assert_eq!(app.call(other, "GET", &package, None).await.0, 403);
    let (status, own_package) = app
        .call(
            other,
            "GET",
            &format!("/api/statistics/packages/{}", n.package),
            None,
        )
        .await;
    assert_eq!(status, 200, "{own_package}");
    assert_eq!(
        own_package["files"],
        json!([{"id": n.file, "name": "Tarif.pdf", "downloads": 2}])
    );
    let counts = format!("/api/statistics/downloads?ids={},{}", w.package, n.package);
    assert_eq!(
        app.call(other, "GET", &counts, None).await,
        (200, json!([{"id": n.package, "downloads": 2}]))
    );
    assert_eq!(
        app.call(other, "GET", "/api/statistics/providers", None)
            .await,
        (
            200,
            json!([{"id": n.provider, "name": "Stadtwerke Nord", "customers": 1, "dealers": 1, "share": 1.0}])
        )
    );

    // The provider's own moderator sees it, but not who took it (Admin only).
    let own = app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    let body = summary_with(app, &own, &format!("?providerId={}", w.provider), 1).await;
    assert_eq!(body["customers"], 1);
    assert_eq!(app.call(&own, "GET", &package, None).await.0, 200);
    assert_eq!(
        app.call(&own, "GET", &format!("{package}/customers"), None)
            .await
            .0,
        403
    );

    // Dealers see no statistics at all.
    assert_eq!(
        app.call(&w.dealer, "GET", "/api/statistics/summary", None)
            .await
            .0,
        403
    );
    assert_eq!(app.call(&w.dealer, "GET", &package, None).await.0, 403);
}

#[tokio::test]
async fn bad_ranges_are_refused_in_german() {
    let w = world().await;
    for query in [
        "?from=2026-13-01",
        "?from=2026-11-02&to=2026-11-01",
        "?from=2024-01-01&to=2026-01-01",
        "?providerId=abc",
    ] {
        let (status, body) = w
            .app
            .call(
                &w.admin,
                "GET",
                &format!("/api/statistics/summary{query}"),
                None,
            )
            .await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["code"], "validation_error");
    }
    let (status, _) = w
        .app
        .call(
            &w.admin,
            "GET",
            "/api/statistics/summary?providerId=987654",
            None,
        )
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_csv_opens_in_german_excel_and_runs_no_formula() {
    let w = world().await;
    w.app
        .get_with(&w.dealer, &w.pdf_path, &[])
        .await
        .bytes()
        .await
        .unwrap();
    summary_with(&w.app, &w.admin, "", 1).await;
    let response = w
        .app
        .get_with(&w.admin, "/api/statistics/packages.csv", &[])
        .await;
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let text = response.text().await.unwrap();
    assert_eq!(
        text,
        format!(
            "\u{feff}Paket-ID;Paket;Downloads\r\n{};\"'=Herbst; Aktion\";1\r\n",
            w.package
        )
    );
}

/// The summary and the CSVs are kept for whoever asks the same next (a crowd of admins costs
/// one computation), and never outlive a counted download or a change to what they name.
#[tokio::test]
async fn kept_reports_follow_downloads_and_changes_and_answer_304() {
    let w = world().await;
    let app = &w.app;
    let untouched_csv = "/api/statistics/export.csv?view=untouched";
    let admin = w.admin.as_str();
    let csv = |path: &'static str| async move {
        let response = app.get_with(admin, path, &[]).await;
        assert_eq!(response.status(), 200);
        response.text().await.unwrap()
    };
    let first = app.get_with(&w.admin, "/api/statistics/summary", &[]).await;
    assert_eq!(first.status(), 200);
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    let body: Value = first.json().await.unwrap();
    assert_eq!(body["untouchedPackages"].as_array().unwrap().len(), 2);
    assert!(csv(untouched_csv).await.contains("Winter Aktion"));
    let again = app
        .get_with(
            &w.admin,
            "/api/statistics/summary",
            &[("if-none-match", &etag)],
        )
        .await;
    assert_eq!(again.status(), 304);

    // Archived: gone from the untouched packages at once, in the summary and the CSV.
    let (status, _) = app
        .call(
            &w.admin,
            "PATCH",
            &format!("/api/download/changeArchiveStatus/{}", w.winter),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (_, body) = app
        .call(&w.admin, "GET", "/api/statistics/summary", None)
        .await;
    assert_eq!(
        body["untouchedPackages"],
        json!([{"id": w.package, "name": "=Herbst; Aktion"}])
    );
    assert!(!csv(untouched_csv).await.contains("Winter Aktion"));
    let stale = app
        .get_with(
            &w.admin,
            "/api/statistics/summary",
            &[("if-none-match", &etag)],
        )
        .await;
    assert_eq!(stale.status(), 200, "the old answer is not named any more");

    // Downloaded: counted in the next answers once the writer has written it.
    let files_csv = "/api/statistics/export.csv?view=files";
    assert!(!csv(files_csv).await.contains("Flyer.pdf"));
    app.get_with(&w.dealer, &w.pdf_path, &[])
        .await
        .bytes()
        .await
        .unwrap();
    let body = summary_with(app, &w.admin, "", 1).await;
    assert_eq!(body["untouchedPackages"], json!([]));
    assert_eq!(
        csv(files_csv).await,
        format!(
            "\u{feff}Paket-ID;Datei-ID;Datei;Downloads\r\n{};{};Flyer.pdf;1\r\n",
            w.package, w.pdf
        )
    );
}

#[tokio::test]
async fn every_view_exports_as_csv_for_german_excel() {
    let w = world().await;
    let app = &w.app;
    app.get_with(&w.dealer, &w.pdf_path, &[])
        .await
        .bytes()
        .await
        .unwrap();
    summary_with(app, &w.admin, "", 1).await;
    let csv = |query: String| {
        let admin = w.admin.clone();
        async move {
            let response = app
                .get_with(&admin, &format!("/api/statistics/export.csv?{query}"), &[])
                .await;
            let status = response.status().as_u16();
            let disposition = response
                .headers()
                .get("content-disposition")
                .map(|v| v.to_str().unwrap().to_string())
                .unwrap_or_default();
            (status, disposition, response.text().await.unwrap())
        }
    };
    let german_today = berlin_date(chrono::Utc::now())
        .format("%d.%m.%Y")
        .to_string();

    let (status, disposition, days) = csv("view=days".into()).await;
    assert_eq!(status, 200, "{days}");
    assert!(
        disposition.contains("Downloads%20je%20Tag"),
        "{disposition}"
    );
    assert!(days.starts_with("\u{feff}Datum;Downloads\r\n"), "{days}");
    assert!(days.ends_with(&format!("{german_today};1\r\n")), "{days}");
    assert_eq!(days.lines().count(), 31, "a header and 30 days");

    let (_, _, files) = csv("view=files".into()).await;
    assert_eq!(
        files,
        format!(
            "\u{feff}Paket-ID;Datei-ID;Datei;Downloads\r\n{};{};Flyer.pdf;1\r\n",
            w.package, w.pdf
        )
    );
    let (_, _, untouched) = csv("view=untouched".into()).await;
    assert_eq!(
        untouched,
        format!("\u{feff}Paket-ID;Paket\r\n{};Winter Aktion\r\n", w.winter)
    );
    let (_, _, providers) = csv("view=providers".into()).await;
    assert_eq!(
        providers,
        format!(
            "\u{feff}Anbieter-ID;Anbieter;Händler erreicht;Händler gesamt;Anteil\r\n{};Glasfaser Süd;1;1;1,000\r\n",
            w.provider
        )
    );
    let (_, _, package) = csv(format!("view=package&packageId={}", w.package)).await;
    assert_eq!(
        package,
        format!(
            "\u{feff}Datei-ID;Datei;Downloads\r\n{};Flyer.pdf;1\r\n{};Preise.txt;0\r\n",
            w.pdf, w.txt
        )
    );

    for (query, expected) in [
        ("view=everything", 400),
        ("", 400),
        ("view=package", 400),
        ("view=days&providerId=x", 400),
        ("view=package&packageId=987654", 404),
    ] {
        let (status, _, body) = csv(query.into()).await;
        assert_eq!(status, expected, "{query}: {body}");
    }
    // A moderator of another provider exports its own figures and nothing of this one.
    let n = neighbour(&w).await;
    summary_with(app, &w.admin, "", 3).await;
    let other = &n.moderator;
    let export = |view: &str| {
        let path = format!("/api/statistics/export.csv?view={view}");
        async move {
            let response = app.get_with(other, &path, &[]).await;
            assert_eq!(response.status(), 200, "{path}");
            response.text().await.unwrap()
        }
    };
    assert_eq!(
        export("packages").await,
        format!(
            "\u{feff}Paket-ID;Paket;Downloads\r\n{};Strom Aktion;2\r\n",
            n.package
        )
    );
    assert_eq!(
        export("files").await,
        format!(
            "\u{feff}Paket-ID;Datei-ID;Datei;Downloads\r\n{};{};Tarif.pdf;2\r\n",
            n.package, n.file
        )
    );
    assert_eq!(export("untouched").await, "\u{feff}Paket-ID;Paket\r\n");
    assert_eq!(
        export("providers").await,
        format!(
            "\u{feff}Anbieter-ID;Anbieter;Händler erreicht;Händler gesamt;Anteil\r\n{};Stadtwerke Nord;1;1;1,000\r\n",
            n.provider
        )
    );
    let days = export("days").await;
    assert!(days.ends_with(&format!("{german_today};2\r\n")), "{days}");
    let query = format!(
        "/api/statistics/export.csv?view=package&packageId={}",
        w.package
    );
    assert_eq!(app.get_with(other, &query, &[]).await.status(), 403);
}

#[tokio::test]
async fn personal_events_expire_and_the_anonymous_roll_ups_stay() {
    use aktionsportal::db::insight::statistics::{NewEvent, write_batch};
    use aktionsportal::services::insight::statistics::{expire_personal_events, totals_of};
    let w = world().await;
    let db = &w.app.test_db.db;
    let old = NewEvent {
        at: chrono::Utc::now() - chrono::Duration::days(100),
        day: day(-100),
        subject: Some("test:dealer100777".into()),
        customer_number: Some(100_777),
        package_id: w.package,
        upload_id: w.pdf,
        provider_id: w.provider,
        channel: "file",
        kind: "download",
        bytes_sent: 10,
        outcome: "complete",
    };
    let recent = NewEvent {
        at: chrono::Utc::now(),
        day: day(0),
        ..old.clone()
    };
    let batch = [old, recent];
    write_batch(db, &batch, &totals_of(&batch)).await.unwrap();
    assert_eq!(events(&w.app).await.len(), 2);

    expire_personal_events(db, 90).await;
    let left = events(&w.app).await;
    assert_eq!(left.len(), 1, "only today's event names the customer still");

    let query = format!("?from={}&to={}", day(-100), day(-100));
    let body = summary_with(&w.app, &w.admin, &query, 1).await;
    assert_eq!(
        body["customers"], 1,
        "the day's customers stay, anonymously"
    );
    let (_, customers) = w
        .app
        .call(
            &w.admin,
            "GET",
            &format!("/api/statistics/packages/{}/customers{query}", w.package),
            None,
        )
        .await;
    assert_eq!(customers["content"], json!([]), "nobody is named any more");
}

/// Issue 34: a date outside what the description states (`YYYY-MM-DD`, years 2000–2100) is
/// refused with 400 and a German message wherever a client sends one, and the server goes on
/// answering. `-262143-01-01` (chrono's first year, read by `%Y`) used to panic the handler,
/// which closed the connection without an answer.
#[tokio::test]
async fn hostile_dates_are_refused_in_german_and_the_server_answers_on() {
    let app = common::spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let moderator = app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    let reproductions = [
        (&moderator, "/api/statistics/summary"),
        (&admin, "/api/audit"),
    ];
    let hostile = [
        "from=-262143-01-01&to=-262143-01-02",
        "from=+262142-12-30&to=+262142-12-31",
        "from=12026-01-01",
        "to=1999-12-31",
        "from=2101-01-01&to=2101-01-02",
        "from=%202026-11-01",
    ];
    for (token, path) in reproductions {
        for query in hostile {
            let (status, body) = app
                .call(token, "GET", &format!("{path}?{query}"), None)
                .await;
            assert_eq!(status, 400, "{path}?{query}: {body}");
            let message = body["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("muss ein Datum der Form JJJJ-MM-TT sein")
                    && message.contains("Jahre 2000 bis 2100"),
                "{path}?{query}: {body}"
            );
        }
        let (status, body) = app
            .call(
                token,
                "GET",
                &format!("{path}?from=2026-11-01&to=2026-11-30"),
                None,
            )
            .await;
        assert_eq!(status, 200, "the server answers on: {body}");
    }
    for path in [
        "/api/statistics/export.csv?view=days&from=-262143-01-01&to=-262143-01-02",
        "/api/statistics/packages.csv?from=-262143-01-01&to=-262143-01-02",
        "/api/statistics/providers?from=-262143-01-01&to=-262143-01-02",
    ] {
        let (status, body) = app.call(&admin, "GET", path, None).await;
        assert_eq!(status, 400, "{path}: {body}");
    }
    let page = app
        .get_as(&admin, "/admin/audit?from=-262143-01-01&to=-262143-01-02")
        .await;
    assert_eq!(page.status(), 400);
    assert!(page.text().await.unwrap().contains("Jahre 2000 bis 2100"));
    // A package's start and end: the spec's message, nothing stored.
    for start in [
        "-262143-01-01",
        "-262143-01-01T00:30",
        "+262142-12-31T23:59:59Z",
    ] {
        let (status, body) = app
            .call(
                &admin,
                "POST",
                "/api/download/",
                Some(json!({
                    "name": "Winter Aktion", "ProviderId": provider, "listsIds": [list],
                    "startAt": start, "endAt": "2026-12-31",
                })),
            )
            .await;
        assert_eq!(status, 400, "{start}: {body}");
        assert_eq!(
            body["message"],
            "Bitte geben Sie ein gültiges Startdatum an."
        );
    }
    let (status, body) = app.call(&admin, "GET", "/api/downloads/", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["count"], 0, "nothing stored: {body}");
}
