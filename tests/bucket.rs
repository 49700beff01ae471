//! The file store in an S3-compatible bucket (moto's server on 127.0.0.1): uploads go to the
//! bucket (large ones as multipart uploads), downloads and package ZIPs stream from it with
//! ranges, refused and deleted files leave it, the sweep works on it, and the operator
//! command copies a local store into it. `scripts/test.sh` runs these with moto installed
//! (`-- --ignored`); without moto they fail instead of passing unseen.

mod common;

use std::io::Read;
use std::time::Duration;

use aktionsportal::domain::roles::ADMIN;
use aktionsportal::storage::FileStore;
use serde_json::{Value, json};

use common::moto::Moto;
use common::{TestApp, big_pdf, spawn_app, spawn_app_with};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";

fn bucket_name() -> String {
    format!("ap-test-{}", rand_suffix())
}

fn rand_suffix() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("{nanos:09}")
}

async fn app_in_bucket(moto: &Moto, bucket: &str) -> TestApp {
    moto.create_bucket(bucket).await;
    spawn_app_with(|config| moto.configure(config, bucket)).await
}

/// Waits until the bucket holds `count` objects (deletes of refused files run in the
/// background).
async fn wait_for_keys(moto: &Moto, bucket: &str, count: usize) -> Vec<String> {
    for _ in 0..50 {
        let keys = moto.keys(bucket).await;
        if keys.len() == count {
            return keys;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let keys = moto.keys(bucket).await;
    assert_eq!(keys.len(), count, "{keys:?}");
    keys
}

async fn get(app: &TestApp, token: &str, path: &str, range: Option<&str>) -> reqwest::Response {
    let mut request = app
        .client
        .get(app.url(path))
        .header("cookie", format!("ap_session={token}"));
    if let Some(range) = range {
        request = request.header("range", range);
    }
    request.send().await.unwrap()
}

async fn package(app: &TestApp, admin: &str, uploads: &[i64]) -> (i64, Value) {
    let provider = app.create_provider(admin, "Glasfaser Süd", GLASFASER).await;
    let list = app.create_list(admin, provider, "Glasfaser Privat").await;
    let (status, package) = app
        .call(
            admin,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Herbstaktion",
                "startAt": "2026-11-01", "endAt": "2026-12-31",
                "ProviderId": provider, "listsIds": [list],
                "uploadsToInsert": uploads,
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    (package["id"].as_i64().unwrap(), package)
}

#[tokio::test]
#[ignore = "needs moto: scripts/test.sh runs it (AP_TEST_MOTO_SERVER)"]
async fn files_live_in_the_bucket_and_stream_with_ranges() {
    let moto = Moto::start().await;
    let bucket = bucket_name();
    let app = app_in_bucket(&moto, &bucket).await;
    let admin = app.session_with_roles(&[ADMIN]).await;

    // 12 MiB: a multipart upload of two parts; and a small file with one PUT.
    let big = big_pdf(12 * 1024 * 1024 + 123);
    let (status, uploaded) = app.upload(&admin, "Katalog groß.pdf", &big).await;
    assert_eq!(status, 200, "{uploaded}");
    let (status, small) = app.upload(&admin, "Preise.txt", "Preise für Händler").await;
    assert_eq!(status, 200, "{small}");
    let keys = moto.keys(&bucket).await;
    assert_eq!(keys.len(), 2, "both files are in the bucket: {keys:?}");
    assert!(
        app.stored_files().is_empty(),
        "nothing is kept on the disk: {:?}",
        app.stored_files()
    );
    let ids = [
        uploaded["id"].as_i64().unwrap(),
        small["id"].as_i64().unwrap(),
    ];
    let (package, answer) = package(&app, &admin, &ids).await;
    let path = answer["Uploads"][0]["path"].as_str().unwrap().to_string();

    let whole = get(&app, &admin, &path, None).await;
    assert_eq!(whole.status(), 200);
    assert_eq!(whole.bytes().await.unwrap().as_ref(), big.as_slice());
    // Across the border of the two parts.
    let (from, to) = (8 * 1024 * 1024 - 100, 8 * 1024 * 1024 + 99);
    let part = get(&app, &admin, &path, Some(&format!("bytes={from}-{to}"))).await;
    assert_eq!(part.status(), 206);
    assert_eq!(
        part.headers()["content-range"],
        format!("bytes {from}-{to}/{}", big.len()).as_str()
    );
    assert_eq!(part.bytes().await.unwrap().as_ref(), &big[from..=to]);

    let zip_path = format!("/api/download/{package}/zip");
    let response = get(&app, &admin, &zip_path, None).await;
    assert_eq!(response.status(), 200);
    let archive = response.bytes().await.unwrap().to_vec();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive.clone())).unwrap();
    let mut names = Vec::new();
    for index in 0..zip.len() {
        let mut entry = zip.by_index(index).unwrap();
        let mut content = Vec::new();
        entry.read_to_end(&mut content).unwrap();
        let name = entry.name().unwrap().to_string();
        if name.ends_with("Katalog groß.pdf") {
            assert_eq!(content, big, "the archive holds the stored bytes");
        } else {
            assert_eq!(content, "Preise für Händler".as_bytes());
        }
        names.push(name);
    }
    assert_eq!(names.len(), 2, "{names:?}");
    // A resumed ZIP download: the rest from the middle of the big file.
    let from = archive.len() - 5_000_000;
    let rest = get(&app, &admin, &zip_path, Some(&format!("bytes={from}-"))).await;
    assert_eq!(rest.status(), 206);
    assert_eq!(rest.bytes().await.unwrap().as_ref(), &archive[from..]);
}

#[tokio::test]
#[ignore = "needs moto: scripts/test.sh runs it (AP_TEST_MOTO_SERVER)"]
async fn refused_unused_and_deleted_files_leave_the_bucket() {
    let moto = Moto::start().await;
    let bucket = bucket_name();
    let app = app_in_bucket(&moto, &bucket).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let db = &app.test_db.db;

    // Content that does not fit its extension: refused, and its bytes leave the bucket.
    let (status, _) = app
        .upload(&admin, "Flyer.pdf", big_pdf(10 * 1024 * 1024)[9..].to_vec())
        .await;
    assert_eq!(status, 400);
    wait_for_keys(&moto, &bucket, 0).await;

    // An archive is unpacked into the bucket; the archive itself is not kept.
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in [
        ("a.txt", b"erste".as_slice()),
        ("b.txt", b"zweite".as_slice()),
    ] {
        writer
            .start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut writer, bytes).unwrap();
    }
    let archive = writer.finish().unwrap().into_inner();
    let (status, unpacked) = app.upload(&admin, "Paket.zip", archive).await;
    assert_eq!(status, 200, "{unpacked}");
    let ids: Vec<i64> = unpacked["uploads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids.len(), 2);
    wait_for_keys(&moto, &bucket, 2).await;
    let (package, _) = package(&app, &admin, &ids).await;

    // Deleting the package deletes its files.
    let (status, _) = app
        .call(&admin, "DELETE", &format!("/api/download/{package}"), None)
        .await;
    assert_eq!(status, 200);
    wait_for_keys(&moto, &bucket, 0).await;

    // The sweep: an upload no form saved and an object no row names, both a day old.
    let (_, abandoned) = app.upload(&admin, "Vergessen.txt", "vergessen").await;
    let store = FileStore::from_config(&{
        let mut config = common::test_config(&app.test_db);
        moto.configure(&mut config, &bucket);
        config
    })
    .unwrap();
    store.put_bytes(b"verwaist", "txt").await.unwrap();
    wait_for_keys(&moto, &bucket, 2).await;
    let report = aktionsportal::services::catalog::uploads::sweep_as_of(
        db,
        &store,
        chrono::Utc::now() + chrono::Duration::days(2),
    )
    .await
    .unwrap();
    assert_eq!(
        (report.unused_uploads, report.unknown_files),
        (1, 1),
        "{report:?}"
    );
    assert!(
        aktionsportal::db::catalog::uploads::get(db, abandoned["id"].as_i64().unwrap())
            .await
            .unwrap()
            .is_none()
    );
    wait_for_keys(&moto, &bucket, 0).await;
}

#[tokio::test]
#[ignore = "needs moto: scripts/test.sh runs it (AP_TEST_MOTO_SERVER)"]
async fn a_local_store_is_copied_into_the_bucket_and_checked() {
    let moto = Moto::start().await;
    let bucket = bucket_name();
    moto.create_bucket(&bucket).await;
    // A portal that kept its files on disk so far.
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let big = big_pdf(9 * 1024 * 1024);
    let (_, first) = app.upload(&admin, "Katalog.pdf", &big).await;
    let (_, second) = app.upload(&admin, "Preise.txt", "Preise").await;
    let db = &app.test_db.db;
    let mut config = common::test_config(&app.test_db);
    let local = FileStore::from_config(&config).unwrap();
    moto.configure(&mut config, &bucket);
    let in_bucket = FileStore::from_config(&config).unwrap();

    let report = aktionsportal::services::catalog::uploads::copy_to_bucket(db, &local, &in_bucket)
        .await
        .unwrap();
    assert_eq!((report.copied, report.present), (2, 0), "{report}");
    assert!(report.is_complete(), "{report}");
    for (upload, bytes) in [(&first, big.as_slice()), (&second, b"Preise".as_slice())] {
        let row = aktionsportal::db::catalog::uploads::get(db, upload["id"].as_i64().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(in_bucket.read(&row.storage_key).await.unwrap(), bytes);
    }

    // Run again: nothing copied, everything checked.
    let again = aktionsportal::services::catalog::uploads::copy_to_bucket(db, &local, &in_bucket)
        .await
        .unwrap();
    assert_eq!((again.copied, again.present), (0, 2), "{again}");

    // A file lost on both sides is reported, and the command says the bucket is incomplete.
    let row = aktionsportal::db::catalog::uploads::get(db, second["id"].as_i64().unwrap())
        .await
        .unwrap()
        .unwrap();
    in_bucket.delete(&row.storage_key).await.unwrap();
    local.delete(&row.storage_key).await.unwrap();
    let broken = aktionsportal::services::catalog::uploads::copy_to_bucket(db, &local, &in_bucket)
        .await
        .unwrap();
    assert_eq!(broken.missing, vec![row.storage_key.clone()]);
    assert!(!broken.is_complete());
    assert!(broken.to_string().contains("Fehlt"), "{broken}");

    // The operator command says the same and fails; without a bucket it refuses in German.
    let run = |with_bucket: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_aktionsportal"));
        command
            .env_remove("DATABASE_URL")
            .env("RUST_LOG", "warn")
            .arg("--data")
            .arg(&app.test_db.data_dir)
            .arg("copy-files-to-bucket");
        if !app.test_db.url.starts_with("sqlite") {
            command.env("DATABASE_URL", &app.test_db.url);
        }
        if with_bucket {
            command.envs(moto.env(&bucket, ""));
        }
        command.output().unwrap()
    };
    let output = run(true);
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{text}");
    assert!(text.contains("1 waren schon im Bucket"), "{text}");
    assert!(
        text.contains(&format!(
            "Fehlt (weder im Ordner noch im Bucket): {}",
            row.storage_key
        )),
        "{text}"
    );
    let output = run(false);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("Es ist kein Bucket eingestellt"),
        "{output:?}"
    );
}

#[tokio::test]
#[ignore = "needs moto: scripts/test.sh runs it (AP_TEST_MOTO_SERVER)"]
async fn an_unreachable_bucket_gets_a_german_503_and_changes_nothing() {
    use common::chaos::ChaosProxy;
    let moto = Moto::start().await;
    let bucket = bucket_name();
    moto.create_bucket(&bucket).await;
    let target = moto.endpoint.trim_start_matches("http://").parse().unwrap();
    let proxy = ChaosProxy::start(target).await;
    let app = spawn_app_with(|config| {
        moto.configure(config, &bucket);
        config.s3_endpoint = Some(format!("http://{}", proxy.addr));
    })
    .await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (status, uploaded) = app.upload(&admin, "Preise.txt", "Preise").await;
    assert_eq!(status, 200, "{uploaded}");
    let path = uploaded["path"].as_str().unwrap().to_string();
    let db = &app.test_db.db;
    let rows = aktionsportal::db::catalog::uploads::count(db)
        .await
        .unwrap();

    proxy.cut();
    let started = std::time::Instant::now();
    let (status, answer) = app.upload(&admin, "Neu.txt", "neu").await;
    assert_eq!(status, 503, "{answer}");
    assert_eq!(answer["code"], "file_store_unavailable");
    assert_eq!(
        answer["message"],
        "Der Dateispeicher ist gerade nicht erreichbar. Bitte versuchen Sie es in einer Minute erneut."
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        aktionsportal::db::catalog::uploads::count(db)
            .await
            .unwrap(),
        rows
    );
    let response = get(&app, &admin, &path, None).await;
    assert_eq!(response.status(), 503);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["code"], "file_store_unavailable");

    // Back: the file is there, and uploads work again.
    proxy.restore();
    let response = get(&app, &admin, &path, None).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "Preise");
    let (status, _) = app.upload(&admin, "Neu.txt", "neu").await;
    assert_eq!(status, 200);
    assert_eq!(moto.keys(&bucket).await.len(), 2);
}

#[tokio::test]
#[ignore = "needs moto: scripts/test.sh runs it (AP_TEST_MOTO_SERVER)"]
async fn previews_live_in_the_bucket_are_served_from_it_and_leave_with_the_file() {
    const FLYER: &[u8] = include_bytes!("../assets/seed/flyer.pdf");
    let moto = Moto::start().await;
    let bucket = bucket_name();
    moto.create_bucket(&bucket).await;
    let app = spawn_app_with(|config| {
        moto.configure(config, &bucket);
        common::with_previews(config);
    })
    .await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (status, answer) = app.upload(&admin, "Flyer.pdf", FLYER).await;
    assert_eq!(status, 200, "{answer}");
    let flyer = answer["id"].as_i64().unwrap();
    let (id, _) = package(&app, &admin, &[flyer]).await;
    let mut view = Value::Null;
    for _ in 0..300 {
        view = app
            .call(&admin, "GET", &format!("/api/download/{id}"), None)
            .await
            .1;
        if view["Uploads"][0]["previewUrl"].is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The file and its two previews, all in the bucket.
    let keys = wait_for_keys(&moto, &bucket, 3).await;
    assert_eq!(
        keys.iter().filter(|k| k.ends_with(".jpg")).count(),
        2,
        "{keys:?}"
    );
    assert!(app.stored_files().is_empty(), "nothing on disk");
    let thumb = get(
        &app,
        &admin,
        view["Uploads"][0]["previewUrl"].as_str().unwrap(),
        None,
    )
    .await;
    assert_eq!(thumb.status(), 200);
    assert_eq!(thumb.headers()["content-type"], "image/jpeg");
    let bytes = thumb.bytes().await.unwrap();
    assert_eq!(
        image::load_from_memory(&bytes).unwrap().width() as i64,
        view["Uploads"][0]["previewWidth"].as_i64().unwrap()
    );
    // Deleting the package deletes the file and its previews.
    let (status, _) = app
        .call(&admin, "DELETE", &format!("/api/download/{id}"), None)
        .await;
    assert_eq!(status, 200);
    wait_for_keys(&moto, &bucket, 0).await;
}
