//! Export and import of a whole installation (issue 25): `aktionsportal export --to FILE`
//! and `import --from FILE`.
//! - An archive reads the same from either database: SQLite's export, imported into
//!   PostgreSQL and exported again, has byte for byte the same tables and files (and the other
//!   way round), and every table of the schema is in it or left out on purpose.
//! - An import refuses a filled database, a filled file store, a damaged archive and an
//!   archive of a newer schema, in German, and changes nothing.
//! - An import killed with SIGKILL leaves the database without rows and no file in place; the
//!   next import succeeds.
//! - (`-- --ignored`, with moto) `seed-large` on SQLite and a folder moves to PostgreSQL and a
//!   bucket, and the API answers byte for byte as before.

mod common;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use aktionsportal::db::operations::snapshot;
use aktionsportal::db::{Backend, Db};
use aktionsportal::services::operations::backup::{self, OnProgress};
use aktionsportal::storage::{FileStore, local_keys};
use aktionsportal::test_support::{TestDb, empty_database, test_backend};
use reqwest::header::{CONTENT_TYPE, COOKIE, ORIGIN, SET_COOKIE};

use common::binary::{free_port, portal, run, until_killed_sessions_end};
use common::moto::Moto;

fn quiet() -> OnProgress {
    Arc::new(|_| {})
}

fn other(backend: Backend) -> Backend {
    match backend {
        Backend::Sqlite => Backend::Postgres,
        Backend::Postgres => Backend::Sqlite,
    }
}

/// The demo data set (with its month of downloads) and audit entries: every table the portal
/// fills in use has rows.
async fn demo_installation() -> (TestDb, FileStore) {
    let source = TestDb::new().await;
    let files = FileStore::new(source.data_dir.join("files")).unwrap();
    aktionsportal::seed::demo::seed_demo(&source.db, &files)
        .await
        .unwrap();
    aktionsportal::seed::large_audit::seed_audit_entries(&source.db, 200, 30)
        .await
        .unwrap();
    (source, files)
}

/// Every part of an archive but the manifest, by name.
fn parts(archive: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(archive).unwrap()).unwrap();
    let mut parts = BTreeMap::new();
    for i in 0..zip.len() {
        let mut part = zip.by_index(i).unwrap();
        let mut bytes = Vec::new();
        part.read_to_end(&mut bytes).unwrap();
        parts.insert(part.name().unwrap().to_string(), bytes);
    }
    parts
}

fn manifest(parts: &BTreeMap<String, Vec<u8>>) -> serde_json::Value {
    serde_json::from_slice(&parts["manifest.json"]).unwrap()
}

/// Every table the database has, by name.
async fn all_tables(db: &Db) -> Vec<String> {
    match db {
        Db::Sqlite(pool, _) => {
            sqlx::query_scalar("select name from sqlite_master where type = 'table' order by name")
                .fetch_all(pool)
                .await
                .unwrap()
        }
        Db::Postgres(pool, _) => sqlx::query_scalar(
            "select table_name::text from information_schema.tables \
             where table_schema = current_schema() order by table_name",
        )
        .fetch_all(pool)
        .await
        .unwrap(),
    }
}

#[tokio::test]
async fn an_archive_reads_the_same_from_either_database_and_loads_into_the_other() {
    let (source, source_files) = demo_installation().await;
    let work = tempfile::tempdir().unwrap();
    let first = work.path().join("erstes.zip");
    let report = backup::export(&source.db, &source_files, &first, quiet())
        .await
        .unwrap();
    assert!(report.rows > 500 && report.files > 5, "{report:?}");
    assert!(report.missing.is_empty());
    let first_parts = parts(&first);

    // Every table of the schema is in the archive, or left out on purpose.
    let in_archive: Vec<String> = manifest(&first_parts)["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    for table in all_tables(&source.db).await {
        assert!(
            in_archive.contains(&table) || snapshot::is_left_out(&table),
            "{table} is neither in the archive nor left out"
        );
    }
    for table in [
        "contacts",
        "uploads",
        "audit_log",
        "download_events",
        "download_daily",
    ] {
        assert!(in_archive.contains(&table.to_string()), "{table}");
    }
    // Parents before the rows that refer to them.
    let at = |t: &str| in_archive.iter().position(|n| n == t).unwrap();
    assert!(at("companies") < at("contacts") && at("contacts") < at("contact_lists"));
    // Every stored file is in it, with its bytes.
    for (key, _) in local_keys(source.data_dir.join("files")).await.unwrap() {
        let stored = std::fs::read(source.data_dir.join("files").join(&key)).unwrap();
        assert_eq!(first_parts[&format!("files/{key}")], stored, "{key}");
    }

    // Into the other database, with its own file folder, and out again.
    let (url, folder) = empty_database(other(source.db.backend())).await;
    let target = Db::connect(&url).await.unwrap();
    let target_files = FileStore::new(folder.path().join("files")).unwrap();
    let loaded = backup::restore(&target, &target_files, &first, quiet())
        .await
        .unwrap();
    assert_eq!(loaded.rows, report.rows);
    assert_eq!(loaded.files, report.files);
    let second = work.path().join("zweites.zip");
    backup::export(&target, &target_files, &second, quiet())
        .await
        .unwrap();
    let second_parts = parts(&second);
    let names = |parts: &BTreeMap<String, Vec<u8>>| parts.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&first_parts), names(&second_parts));
    for (name, bytes) in &first_parts {
        if name != "manifest.json" && second_parts[name] != *bytes {
            let lines = |b: &[u8]| {
                String::from_utf8_lossy(b)
                    .lines()
                    .map(String::from)
                    .collect::<Vec<_>>()
            };
            let (was, is) = (lines(bytes), lines(&second_parts[name]));
            let at = was
                .iter()
                .zip(&is)
                .position(|(a, b)| a != b)
                .unwrap_or(was.len().min(is.len()));
            panic!(
                "{name} differs at line {}: {:?} ≠ {:?}",
                at + 1,
                was.get(at),
                is.get(at)
            );
        }
    }
    let (mut a, mut b) = (manifest(&first_parts), manifest(&second_parts));
    for m in [&mut a, &mut b] {
        let m = m.as_object_mut().unwrap();
        m.remove("source");
        m.remove("createdAt");
    }
    assert_eq!(a, b);

    // The loaded database goes on where the old one stood: new rows get new ids.
    let next: i64 = aktionsportal::db::catalog::tags::create(
        &target,
        "Neu nach dem Import",
        "bi-star",
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap()
    .id;
    let highest: i64 = match &target {
        Db::Sqlite(pool, _) => sqlx::query_scalar("select max(id) from tags where id <> $1")
            .bind(next)
            .fetch_one(pool)
            .await
            .unwrap(),
        Db::Postgres(pool, _) => sqlx::query_scalar("select max(id) from tags where id <> $1")
            .bind(next)
            .fetch_one(pool)
            .await
            .unwrap(),
    };
    assert!(next > highest);
}

/// Copies `archive` to `to`, with `change` applied to the manifest.
fn with_manifest(archive: &Path, to: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(archive).unwrap()).unwrap();
    let mut out = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    let mut manifest = serde_json::Value::Null;
    for i in 0..zip.len() {
        let part = zip.by_index(i).unwrap();
        if part.name().unwrap() == "manifest.json" {
            manifest = serde_json::from_reader(part).unwrap();
        } else {
            out.raw_copy_file(part).unwrap();
        }
    }
    change(&mut manifest);
    out.start_file("manifest.json", zip::write::SimpleFileOptions::default())
        .unwrap();
    out.write_all(manifest.to_string().as_bytes()).unwrap();
    out.finish().unwrap();
}

/// Copies `archive` to `to` with one byte in the middle of a stored file changed.
fn with_a_changed_byte(archive: &Path, to: &Path) {
    let mut bytes = std::fs::read(archive).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.clone())).unwrap();
    let (start, size) = (0..zip.len())
        .find_map(|i| {
            let part = zip.by_index(i).unwrap();
            (part.name().unwrap().starts_with("files/") && part.size() > 100)
                .then(|| (part.data_start().unwrap(), part.compressed_size()))
        })
        .expect("a stored file");
    bytes[(start + size / 2) as usize] ^= 0x20;
    std::fs::write(to, bytes).unwrap();
}

/// What a target holds: rows in its tables, files in place, files in the staging folder.
async fn contents(db: &Db, files: &Path) -> (Option<(String, i64)>, usize, usize) {
    let tables = snapshot::tables(db).await.unwrap();
    let filled = snapshot::first_filled(db, &tables).await.unwrap();
    let placed = if files.exists() {
        local_keys(files.to_path_buf()).await.unwrap().len()
    } else {
        0
    };
    let staged = std::fs::read_dir(files.join(".staging"))
        .map(|d| d.count())
        .unwrap_or(0);
    (filled, placed, staged)
}

async fn refusal(db: &Db, files: &FileStore, archive: &Path) -> String {
    let err = backup::restore(db, files, archive, quiet())
        .await
        .expect_err("refused");
    format!("{err:#}")
}

#[tokio::test]
async fn an_import_refuses_a_filled_target_or_a_damaged_or_newer_archive_and_changes_nothing() {
    let (source, source_files) = demo_installation().await;
    let work = tempfile::tempdir().unwrap();
    let archive = work.path().join("sicherung.zip");
    backup::export(&source.db, &source_files, &archive, quiet())
        .await
        .unwrap();

    // The export does not overwrite a file.
    let again = backup::export(&source.db, &source_files, &archive, quiet()).await;
    assert!(format!("{:#}", again.unwrap_err()).contains("gibt es schon"));

    // A filled database.
    let message = refusal(&source.db, &source_files, &archive).await;
    assert!(
        message.contains("Die Zieldatenbank ist nicht leer"),
        "{message}"
    );
    assert!(message.ends_with("Es wurde nichts verändert."), "{message}");

    let (url, folder) = empty_database(test_backend()).await;
    let target = Db::connect(&url).await.unwrap();
    let target_dir = folder.path().join("files");
    let target_files = FileStore::new(&target_dir).unwrap();

    // A damaged archive: a changed byte, a cut-off file, another ZIP file.
    let changed = work.path().join("veraendert.zip");
    with_a_changed_byte(&archive, &changed);
    let cut = work.path().join("abgeschnitten.zip");
    let bytes = std::fs::read(&archive).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let foreign = work.path().join("fremd.zip");
    {
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&foreign).unwrap());
        zip.start_file("manifest.json", zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(b"{\"format\": \"etwas anderes\"}").unwrap();
        zip.finish().unwrap();
    }
    for damaged in [&changed, &cut, &foreign] {
        let message = refusal(&target, &target_files, damaged).await;
        assert!(message.contains("Das Archiv ist beschädigt"), "{message}");
        assert!(message.ends_with("Es wurde nichts verändert."), "{message}");
    }

    // An archive of a newer schema.
    let newer = work.path().join("neuer.zip");
    with_manifest(&archive, &newer, |m| {
        m["schema"] = (m["schema"].as_i64().unwrap() + 1).into();
    });
    let message = refusal(&target, &target_files, &newer).await;
    assert!(
        message.contains("neueren Version des Aktionsportals"),
        "{message}"
    );

    // Nothing of all that reached the target: no table, no file.
    assert!(all_tables(&target).await.is_empty());
    assert_eq!(contents(&target, &target_dir).await, (None, 0, 0));

    // A file store with a file of its own.
    std::fs::create_dir_all(target_dir.join("ab")).unwrap();
    let own = target_dir.join("ab/ab000000000000000000000000000000.pdf");
    std::fs::write(&own, b"%PDF-1.4 eigene Datei").unwrap();
    let message = refusal(&target, &target_files, &archive).await;
    assert!(message.contains("Der Dateispeicher"), "{message}");
    assert!(message.contains("ist nicht leer"), "{message}");
    assert!(all_tables(&target).await.is_empty());
    std::fs::remove_file(&own).unwrap();

    // The same target takes the archive once it is empty.
    let loaded = backup::restore(&target, &target_files, &archive, quiet())
        .await
        .unwrap();
    assert!(loaded.rows > 0);
    let (filled, placed, staged) = contents(&target, &target_dir).await;
    assert!(filled.is_some());
    assert_eq!((placed as u64, staged), (loaded.files, 0));
}

#[tokio::test]
async fn an_import_killed_midway_leaves_the_target_empty_and_the_next_one_succeeds() {
    // An installation with 60 MB of files, so that the kill comes while they are copied.
    let app = common::spawn_app().await;
    let admin = app.session_with_roles(&["GS-Aktionsportal-Admin"]).await;
    for n in 0..30 {
        let (status, _) = app
            .upload(
                &admin,
                &format!("Katalog {n}.pdf"),
                common::big_pdf(2_000_000 + n),
            )
            .await;
        assert_eq!(status, 200);
    }
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    let archive = work.join("sicherung.zip");
    run(
        portal(work, &app.test_db.url)
            .arg("--data")
            .arg(&app.test_db.data_dir)
            .args(["export", "--to"])
            .arg(&archive),
        "",
    );

    let (url, folder) = empty_database(test_backend()).await;
    let target_dir = folder.path().to_path_buf();
    let import = |work: &Path| {
        let mut command = portal(work, &url);
        command
            .arg("--data")
            .arg(&target_dir)
            .args(["import", "--from"])
            .arg(&archive)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    };
    let mut child: Child = import(work).spawn().unwrap();
    let staging = target_dir.join("files/.staging");
    let started = Instant::now();
    while std::fs::read_dir(&staging).map(|d| d.count()).unwrap_or(0) < 2 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the import ended before it was killed"
        );
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no file copied"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    let target = Db::connect(&url).await.unwrap();
    until_killed_sessions_end(&target).await;
    let (filled, placed, _) = contents(&target, &target_dir.join("files")).await;
    assert_eq!(
        (filled, placed),
        (None, 0),
        "the killed import left rows or files"
    );

    let output = run(&mut import(work), "");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("Fertig:"), "{said}");
    let (filled, placed, staged) = contents(&target, &target_dir.join("files")).await;
    assert!(filled.is_some());
    assert_eq!((placed, staged), (30, 0));
    // Once more: the target is filled now, and the command says so and fails.
    let refused = import(work).output().unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("Fehler: Die Zieldatenbank ist nicht leer"),
        "{said}"
    );
    let keys = local_keys(app.test_db.data_dir.join("files"))
        .await
        .unwrap();
    assert_eq!(keys.len(), 30);
    for (key, _) in keys {
        assert!(
            std::fs::read(app.test_db.data_dir.join("files").join(&key)).unwrap()
                == std::fs::read(target_dir.join("files").join(&key)).unwrap(),
            "{key}"
        );
    }
}

/// An `aktionsportal serve` process; killed when dropped.
struct Served {
    port: u16,
    child: Child,
}

impl Served {
    async fn start(work: &Path, data: &Path, database_url: &str, env: &[(&str, String)]) -> Served {
        let port = free_port();
        let log = std::fs::File::create(work.join(format!("serve-{port}.log"))).unwrap();
        let child = portal(work, database_url)
            .envs(env.iter().map(|(k, v)| (*k, v)))
            .arg("--data")
            .arg(data)
            .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        let served = Served { port, child };
        let deadline = Instant::now() + Duration::from_secs(60);
        while !reqwest::get(served.url("/healthz"))
            .await
            .is_ok_and(|r| r.status() == 200)
        {
            assert!(Instant::now() < deadline, "no answer on /healthz");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        served
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Signs in and returns the session cookie.
    async fn sign_in(&self, login: &str, password: &str) -> String {
        let response = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
            .post(self.url("/api/auth/login"))
            .header(ORIGIN, format!("http://127.0.0.1:{}", self.port))
            .form(&[("login", login), ("password", password)])
            .send()
            .await
            .unwrap();
        response
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("ap_session="))
            .map(|v| v.split(';').next().unwrap().to_string())
            .unwrap_or_else(|| panic!("{login} not signed in: {}", response.status()))
    }

    async fn get(&self, cookie: &str, path: &str) -> (u16, String, Vec<u8>) {
        let response = reqwest::Client::new()
            .get(self.url(path))
            .header(COOKIE, cookie)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let kind = response
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        (status, kind, response.bytes().await.unwrap().to_vec())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The answers an admin and a dealer rely on, by call.
async fn answers(
    on: &Served,
    passwords: &BTreeMap<String, String>,
    calls: &[(&str, String)],
) -> Vec<(String, (u16, String, Vec<u8>))> {
    let admin = on.sign_in("bench-admin", &passwords["bench-admin"]).await;
    let dealer = on
        .sign_in("bench-haendler", &passwords["bench-haendler"])
        .await;
    let mut out = Vec::new();
    for (who, path) in calls {
        let cookie = if *who == "admin" { &admin } else { &dealer };
        let answer = on.get(cookie, path).await;
        assert_eq!(
            answer.0,
            200,
            "{who} {path}: {}",
            String::from_utf8_lossy(&answer.2)
        );
        out.push((format!("{who} {path}"), answer));
    }
    out
}

#[tokio::test]
#[ignore = "needs moto and PostgreSQL: scripts/test.sh runs it with moto (AP_TEST_MOTO_SERVER)"]
async fn seed_large_moves_from_sqlite_to_postgresql_and_a_bucket_and_answers_the_same() {
    use aktionsportal::seed::large::{self, LargeDataSize};
    let work = tempfile::tempdir().unwrap();
    let work = work.path();

    // The benchmark data set, small, on SQLite and a folder.
    let source_dir: PathBuf = work.join("quelle");
    let source_url = format!("sqlite://{}", source_dir.join("aktionsportal.db").display());
    let mut passwords = BTreeMap::new();
    {
        let db = Db::open_sqlite(&source_dir.join("aktionsportal.db"))
            .await
            .unwrap();
        db.migrate().await.unwrap();
        let files = FileStore::new(source_dir.join("files")).unwrap();
        let size = LargeDataSize::tiny();
        let summary = large::seed_large(&db, &files, &size).await.unwrap();
        aktionsportal::seed::large_events::seed_download_events(&db, 2_000, 30, 10, size.companies)
            .await
            .unwrap();
        aktionsportal::seed::large_audit::seed_audit_entries(&db, 200, 30)
            .await
            .unwrap();
        for account in large::create_accounts(&db, summary.dealer_customer_number)
            .await
            .unwrap()
        {
            passwords.insert(account.login.to_string(), account.password.unwrap());
        }
        db.close().await;
    }
    // Without the preview worker: previews made while the answers are taken would change them.
    let no_previews = [("AP_PREVIEWS", "false".to_string())];
    let source = Served::start(work, &source_dir, &source_url, &no_previews).await;

    // The calls: package lists as admin and dealer, a package, a file, a package ZIP,
    // contacts, a customer group, providers, lists.
    let admin = source
        .sign_in("bench-admin", &passwords["bench-admin"])
        .await;
    let dealer = source
        .sign_in("bench-haendler", &passwords["bench-haendler"])
        .await;
    let (_, _, list) = source
        .get(&dealer, "/api/downloads/contact/?limit=20")
        .await;
    let list: serde_json::Value = serde_json::from_slice(&list).unwrap();
    let package = list["content"][0]["id"]
        .as_i64()
        .expect("a package for the dealer");
    let (_, _, detail) = source
        .get(&admin, &format!("/api/download/{package}"))
        .await;
    let detail: serde_json::Value = serde_json::from_slice(&detail).unwrap();
    let file = detail["Uploads"][0]["path"].as_str().unwrap().to_string();
    let provider = detail["ProviderId"].as_i64().unwrap();
    let (_, _, contacts) = source.get(&admin, "/api/contacts?limit=20").await;
    let contacts: serde_json::Value = serde_json::from_slice(&contacts).unwrap();
    let customer = contacts["content"][0]["customerNumber"].as_i64().unwrap();
    let calls: Vec<(&str, String)> = vec![
        ("admin", "/api/downloads/?limit=20".into()),
        ("admin", "/api/downloads/?limit=20&offset=20".into()),
        ("dealer", "/api/downloads/contact/?limit=20".into()),
        ("admin", format!("/api/download/{package}")),
        ("dealer", file.clone()),
        ("dealer", format!("/api/download/{package}/zip")),
        ("admin", "/api/contacts?limit=50".into()),
        ("admin", "/api/contacts?limit=50&search=a".into()),
        ("admin", format!("/api/contacts/customer-number/{customer}")),
        ("admin", "/api/providers/".into()),
        ("admin", format!("/api/providers/{provider}/lists")),
        ("admin", "/api/tags".into()),
    ];
    let before = answers(&source, &passwords, &calls).await;

    // Exported while the portal serves.
    let archive = work.join("umzug.zip");
    let exported = run(
        portal(work, &source_url)
            .arg("--data")
            .arg(&source_dir)
            .args(["export", "--to"])
            .arg(&archive),
        "",
    );
    assert!(String::from_utf8_lossy(&exported.stdout).contains("Fertig:"));
    drop(source);

    // Into PostgreSQL and a bucket.
    let moto = Moto::start().await;
    let bucket = format!("ap-umzug-{}", free_port());
    moto.create_bucket(&bucket).await;
    let (target_url, _) = empty_database(Backend::Postgres).await;
    let target_dir = work.join("ziel");
    let mut env = moto.env(&bucket, "portal");
    env.extend(no_previews.clone());
    run(
        portal(work, &target_url)
            .envs(env.iter().map(|(k, v)| (*k, v)))
            .arg("--data")
            .arg(&target_dir)
            .args(["import", "--from"])
            .arg(&archive),
        "",
    );
    // Every file of the folder is in the bucket, and nothing else.
    let mut source_keys: Vec<String> = local_keys(source_dir.join("files"))
        .await
        .unwrap()
        .into_iter()
        .map(|(key, _)| format!("portal/{key}"))
        .collect();
    source_keys.sort();
    assert_eq!(moto.keys(&bucket).await, source_keys);
    let target = Served::start(work, &target_dir, &target_url, &env).await;
    let after = answers(&target, &passwords, &calls).await;
    for ((call, was), (_, is)) in before.iter().zip(&after) {
        assert_eq!(was.0, is.0, "{call}");
        assert_eq!(was.1, is.1, "{call}");
        assert!(
            was.2 == is.2,
            "{call}: {} ≠ {}",
            String::from_utf8_lossy(&was.2[..was.2.len().min(400)]),
            String::from_utf8_lossy(&is.2[..is.2.len().min(400)])
        );
    }
    // Nothing of the files stayed on the target's own disk.
    assert!(
        local_keys(target_dir.join("files"))
            .await
            .map(|k| k.len())
            .unwrap_or(0)
            == 0,
        "files on the disk of a bucket installation"
    );
}

/// Copies `archive` to `to` with the part of `table` replaced by `lines` (each written as
/// it comes, so the test holds one at a time), and the manifest's rows and SHA-256 of it
/// made to match, as whoever crafts an archive can.
fn with_table(archive: &Path, to: &Path, table: &str, lines: impl Iterator<Item = Vec<u8>>) {
    use sha2::{Digest, Sha256};
    let mut zip = zip::ZipArchive::new(std::fs::File::open(archive).unwrap()).unwrap();
    let mut out = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    let mut manifest = serde_json::Value::Null;
    let name = format!("tables/{table}.jsonl");
    for i in 0..zip.len() {
        let part = zip.by_index(i).unwrap();
        let part_name = part.name().unwrap().to_string();
        if part_name == "manifest.json" {
            manifest = serde_json::from_reader(part).unwrap();
        } else if part_name != name {
            out.raw_copy_file(part).unwrap();
        }
    }
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    out.start_file(name, options).unwrap();
    let (mut hash, mut rows) = (Sha256::new(), 0u64);
    for mut line in lines {
        line.push(b'\n');
        hash.update(&line);
        out.write_all(&line).unwrap();
        rows += 1;
    }
    let sha256: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let part = manifest["tables"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["name"] == table)
        .unwrap();
    part["rows"] = rows.into();
    part["sha256"] = sha256.into();
    out.start_file("manifest.json", zip::write::SimpleFileOptions::default())
        .unwrap();
    out.write_all(manifest.to_string().as_bytes()).unwrap();
    out.finish().unwrap();
}

/// Runs `command` to its end and returns what it printed and its peak resident memory in
/// bytes (`VmHWM` of /proc, read every 2 ms while it runs).
fn run_measured(command: &mut std::process::Command) -> (std::process::Output, u64) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Read on their own, so that a full pipe cannot stop the child.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stderr.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let mut peak_kib = 0u64;
    let status = loop {
        // Once exited the status has no memory lines: the last reading stays.
        if let Some(kib) = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|status| {
                status
                    .lines()
                    .find_map(|line| line.strip_prefix("VmHWM:"))
                    .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
            })
        {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let output = std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    (output, peak_kib * 1024)
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / 1024.0 / 1024.0)
}

#[tokio::test]
async fn an_archive_of_huge_rows_is_refused_and_an_import_stays_within_its_memory_bound() {
    // An empty installation's archive, with crafted tables.
    let source = TestDb::new().await;
    let source_files = FileStore::new(source.data_dir.join("files")).unwrap();
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    let empty = work.join("leer.zip");
    backup::export(&source.db, &source_files, &empty, quiet())
        .await
        .unwrap();
    let bound = backup::memory_bound(0);

    // Three highly compressible lines of 64 MiB each: a text, a million numbers, nested
    // arrays. The archive itself is small.
    const HUGE: usize = 64 * 1024 * 1024;
    let huge = work.join("riesig.zip");
    let lines = (0..3).map(|n| match n {
        0 => [&b"[1, \""[..], &vec![b'a'; HUGE], b"\"]"].concat(),
        1 => [&b"["[..], &b"1,".repeat(HUGE / 2), b"1]"].concat(),
        _ => [b"[".repeat(HUGE / 2), b"]".repeat(HUGE / 2)].concat(),
    });
    with_table(&empty, &huge, "tags", lines);
    assert!(std::fs::metadata(&huge).unwrap().len() < 4 * 1024 * 1024);

    let (url, folder) = empty_database(test_backend()).await;
    let target_dir = folder.path().to_path_buf();
    let import = |archive: &Path| {
        let mut command = portal(work, &url);
        command
            .arg("--data")
            .arg(&target_dir)
            .args(["import", "--from"])
            .arg(archive);
        command
    };
    let (refused, peak) = run_measured(&mut import(&huge));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{said}");
    assert!(
        said.contains(
            "Fehler: Das Archiv enthält in der Tabelle tags (Zeile 1) eine Zeile von mehr als 4 MiB"
        ),
        "{said}"
    );
    assert!(said.contains("Es wurde nichts verändert."), "{said}");
    assert!(peak < bound, "peak {} ≥ bound {}", mib(peak), mib(bound));
    eprintln!(
        "peak of the refused import of lines of 64 MiB: {}",
        mib(peak)
    );
    let target = Db::connect(&url).await.unwrap();
    assert!(all_tables(&target).await.is_empty());
    assert_eq!(
        contents(&target, &target_dir.join("files")).await,
        (None, 0, 0)
    );

    // Rows as long as a table allows: audit entries of almost 4 MiB each, 96 MiB together,
    // load in batches, and the import stays within the same bound.
    let tables = snapshot::tables(&source.db).await.unwrap();
    let audit = tables
        .iter()
        .find(|t| t.name == "audit_log")
        .unwrap()
        .clone();
    let long = work.join("lang.zip");
    let rows = (1..=24).map(|id| {
        let mut row: Vec<serde_json::Value> = Vec::new();
        for column in &audit.columns {
            use aktionsportal::db::operations::snapshot::ColumnKind::*;
            row.push(match (column.name.as_str(), column.kind) {
                ("id", _) => id.into(),
                ("actor", _) => "CLI".into(),
                ("action", _) => "update".into(),
                ("entity", _) => "tag".into(),
                ("changes", _) => serde_json::json!({
                    "name": {"before": "x".repeat(4 * 1024 * 1024 - 2048), "after": "y"}
                })
                .to_string()
                .into(),
                ("erased_at", _) => serde_json::Value::Null,
                (_, Int64 | Int32 | Int16) => 1.into(),
                (_, Bool) => false.into(),
                (_, Time) => "2026-11-25T15:37:36+00:00".into(),
                (name, Text) if name.ends_with("_at") => "2026-11-25T15:37:36+00:00".into(),
                (_, Text | Bytes) => "".into(),
            });
        }
        serde_json::to_vec(&row).unwrap()
    });
    with_table(&empty, &long, "audit_log", rows);
    let (loaded, peak) = run_measured(&mut import(&long));
    assert!(
        loaded.status.success(),
        "{}",
        String::from_utf8_lossy(&loaded.stderr)
    );
    let said = String::from_utf8_lossy(&loaded.stdout);
    assert!(said.contains("Tabelle audit_log: 24 Zeilen"), "{said}");
    assert!(peak < bound, "peak {} ≥ bound {}", mib(peak), mib(bound));
    eprintln!("peak of the import of 24 rows of 4 MiB: {}", mib(peak));
}

#[tokio::test]
async fn a_row_longer_than_its_table_allows_or_with_too_many_values_imports_nothing() {
    let source = TestDb::new().await;
    let source_files = FileStore::new(source.data_dir.join("files")).unwrap();
    let work = tempfile::tempdir().unwrap();
    let empty = work.path().join("leer.zip");
    backup::export(&source.db, &source_files, &empty, quiet())
        .await
        .unwrap();
    // `download_upload_tags` holds two ids and two times: a line of 3 MiB (under the ceiling of every
    // table) is longer than any of its rows can be.
    let long = work.path().join("lang.zip");
    with_table(
        &empty,
        &long,
        "download_upload_tags",
        std::iter::once([&b"[1, 1, \""[..], &vec![b'a'; 3 << 20], b"\", null]"].concat()),
    );
    // A line of a million values where `tags` has a handful.
    let many = work.path().join("viele.zip");
    with_table(
        &empty,
        &many,
        "tags",
        std::iter::once([&b"["[..], &b"1,".repeat(1_000_000), b"1]"].concat()),
    );
    for (archive, expected) in [
        (
            &long,
            "Das Archiv enthält in der Tabelle download_upload_tags (Zeile 1) eine Zeile von mehr als",
        ),
        (&many, "Tabelle tags, Zeile 1: mehr als"),
    ] {
        let (url, folder) = empty_database(test_backend()).await;
        let target = Db::connect(&url).await.unwrap();
        let target_dir = folder.path().join("files");
        let target_files = FileStore::new(&target_dir).unwrap();
        let message = refusal(&target, &target_files, archive).await;
        assert!(message.contains(expected), "{message}");
        assert!(message.contains("Es wurde nichts verändert."), "{message}");
        assert_eq!(contents(&target, &target_dir).await, (None, 0, 0));
    }
}

/// Runs `command` (an import) and kills it with SIGKILL as soon as it prints a line that
/// starts with `at`; returns all it printed, up to its end.
fn killed_at_line(command: &mut std::process::Command, at: &str, log: &Path) -> String {
    use std::io::BufRead;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut said = String::new();
    loop {
        let mut line = String::new();
        let n = lines.read_line(&mut line).unwrap();
        assert!(n > 0, "the import ended before it said „{at}“: {said}");
        said.push_str(&line);
        if line.starts_with(at) {
            child.kill().unwrap();
            break;
        }
    }
    child.wait().unwrap();
    // What it printed before the kill landed.
    lines.read_to_string(&mut said).unwrap();
    said
}

#[tokio::test]
async fn an_import_killed_while_rows_load_or_before_its_files_are_in_place_is_empty_or_complete_after_the_next_start()
 {
    // Many rows, so that the kill lands while they load; many files, so that it lands
    // before the last one is in place.
    let app = common::spawn_app().await;
    let admin = app.session_with_roles(&["GS-Aktionsportal-Admin"]).await;
    for n in 0..60 {
        let (status, _) = app
            .upload(
                &admin,
                &format!("Katalog {n}.pdf"),
                common::big_pdf(20_000 + n),
            )
            .await;
        assert_eq!(status, 200);
    }
    aktionsportal::seed::large_audit::seed_audit_entries(&app.test_db.db, 30_000, 30)
        .await
        .unwrap();
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    let archive = work.join("sicherung.zip");
    run(
        portal(work, &app.test_db.url)
            .arg("--data")
            .arg(&app.test_db.data_dir)
            .args(["export", "--to"])
            .arg(&archive),
        "",
    );
    let stored = local_keys(app.test_db.data_dir.join("files"))
        .await
        .unwrap();
    assert!(stored.len() >= 60);
    let no_previews = [("AP_PREVIEWS", "false".to_string())];
    let import = |url: &str, data: &Path| {
        let mut command = portal(work, url);
        command
            .arg("--data")
            .arg(data)
            .args(["import", "--from"])
            .arg(&archive);
        command
    };

    // Killed while the rows load: every file waits in the staging folder, no row committed.
    let (url, folder) = empty_database(test_backend()).await;
    let said = killed_at_line(
        &mut import(&url, folder.path()),
        "Lade die Zeilen",
        &work.join("import-1.log"),
    );
    assert!(
        !said.contains("Die Zeilen sind gespeichert"),
        "the kill came after the commit: {said}"
    );
    let target = Db::connect(&url).await.unwrap();
    let files = folder.path().join("files");
    assert_eq!(contents(&target, &files).await, (None, 0, stored.len()));
    // The next start removes what waits: the target is empty.
    drop(Served::start(work, folder.path(), &url, &no_previews).await);
    assert_eq!(contents(&target, &files).await, (None, 0, 0));

    // Killed after the commit, before the files are in place. The kill comes right after the
    // line; whether it came before the last file was moved is read from what it left, and
    // tried again (with a new target) when it came too late.
    let mut killed = None;
    for attempt in 1..=5 {
        let (url, folder) = empty_database(test_backend()).await;
        let said = killed_at_line(
            &mut import(&url, folder.path()),
            "Die Zeilen sind gespeichert; die Dateien kommen an ihren Platz",
            &work.join(format!("import-2-{attempt}.log")),
        );
        assert!(!said.contains("Dateien sind an ihrem Platz"), "{said}");
        let target = Db::connect(&url).await.unwrap();
        let (filled, placed, staged) = contents(&target, &folder.path().join("files")).await;
        assert!(
            filled.is_some(),
            "the rows committed before the line: {said}"
        );
        assert_eq!(placed + staged, stored.len());
        if staged > 0 {
            killed = Some((url, folder, target));
            break;
        }
    }
    let (url, folder, target) =
        killed.expect("in five imports the kill never came before the last file was in place");
    // The next start moves the waiting files in: the target is complete.
    drop(Served::start(work, folder.path(), &url, &no_previews).await);
    let files = folder.path().join("files");
    let (filled, placed, staged) = contents(&target, &files).await;
    assert!(filled.is_some());
    assert_eq!((placed, staged), (stored.len(), 0));
    for (key, _) in &stored {
        assert!(
            std::fs::read(app.test_db.data_dir.join("files").join(key)).unwrap()
                == std::fs::read(files.join(key)).unwrap(),
            "{key}"
        );
    }
}
