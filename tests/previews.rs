//! Previews of uploaded files (issue 21) over real HTTP: made after upload by the portal's own
//! binary in a child process, listed with every file, served with exactly the file's rights
//! and removed with the file; hostile files are given up within the limits.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use aktionsportal::domain::roles::ADMIN;
use aktionsportal::previews::DrawingKind;
use aktionsportal::previews::isolated::{Limits, RenderFailure, Renderer};
use serde_json::{Value, json};

use common::binary::{free_port, portal};
use common::{TestApp, spawn_app_with, with_previews};

const FLYER: &[u8] = include_bytes!("../assets/seed/flyer.pdf");
const BANNER: &[u8] = include_bytes!("../assets/seed/banner-blau.png");
const ROLE: &str = "GS-Aktionsportal-BU-Glasfaser";

async fn upload(app: &TestApp, token: &str, name: &str, bytes: &[u8]) -> i64 {
    let (status, answer) = app.upload(token, name, bytes).await;
    assert_eq!(status, 200, "{answer}");
    answer["id"].as_i64().unwrap()
}

async fn get(app: &TestApp, token: Option<&str>, path: &str) -> reqwest::Response {
    let mut request = app.client.get(app.url(path));
    if let Some(token) = token {
        request = request.header("cookie", format!("ap_session={token}"));
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn previews_are_made_after_upload_listed_and_served_with_the_files_rights() {
    let app = spawn_app_with(with_previews).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app.create_provider(&admin, "Glasfaser Süd", ROLE).await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    let other_list = app.create_list(&admin, provider, "Glasfaser Gewerbe").await;
    let flyer = upload(&app, &admin, "Flyer Herbst.pdf", FLYER).await;
    let banner = upload(&app, &admin, "Banner.png", BANNER).await;
    let text = upload(&app, &admin, "Hinweise.txt", b"Bitte beachten Sie").await;
    let (status, package) = app
        .call(
            &admin,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Herbstaktion Glasfaser",
                "startAt": "2026-01-01",
                "endAt": "2030-12-31",
                "ProviderId": provider,
                "listsIds": [list],
                "uploadsToInsert": [flyer, banner, text],
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let package = package["id"].as_i64().unwrap();
    let files = app.files_with_previews(&admin, package, 2).await;

    // The PDF and the picture have both previews with the thumbnail's size; the text none.
    let pdf = &files[0];
    assert_eq!(pdf["previewUrl"], format!("/previews/{flyer}/thumb.jpg"));
    assert_eq!(
        pdf["previewLargeUrl"],
        format!("/previews/{flyer}/large.jpg")
    );
    assert_eq!(pdf["previewWidth"], 320);
    assert!(
        pdf["previewHeight"].as_i64().unwrap() > 320,
        "A4 is portrait"
    );
    assert_eq!(
        files[1]["previewWidth"], 240,
        "a small picture is not enlarged"
    );
    assert_eq!(files[2]["previewUrl"], Value::Null);
    assert_eq!(files[2]["previewLargeUrl"], Value::Null);

    // The admin list and the customer list carry them too.
    let dealer = app.dealer_session(100_002, &[list]).await;
    let stranger = app.dealer_session(100_003, &[other_list]).await;
    let (_, page) = app
        .call(&dealer, "GET", "/api/downloads/contact/", None)
        .await;
    assert_eq!(
        page["content"][0]["Uploads"][0]["previewUrl"],
        pdf["previewUrl"]
    );
    let (_, page) = app.call(&admin, "GET", "/api/downloads/", None).await;
    assert_eq!(
        page["content"][0]["Uploads"][0]["previewLargeUrl"],
        pdf["previewLargeUrl"]
    );

    // Served as JPEG, cached for good, shown in the browser.
    let thumb_path = pdf["previewUrl"].as_str().unwrap();
    let response = get(&app, Some(&dealer), thumb_path).await;
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "image/jpeg");
    assert_eq!(
        headers["cache-control"],
        "private, max-age=31536000, immutable"
    );
    assert!(
        headers["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("inline;")
    );
    let etag = headers["etag"].to_str().unwrap().to_string();
    let bytes = response.bytes().await.unwrap();
    assert!(bytes.len() <= 40 * 1024, "{} bytes", bytes.len());
    let thumb = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg).unwrap();
    assert_eq!(thumb.width() as i64, pdf["previewWidth"].as_i64().unwrap());
    assert_eq!(
        thumb.height() as i64,
        pdf["previewHeight"].as_i64().unwrap()
    );
    let again = app
        .client
        .get(app.url(thumb_path))
        .header("cookie", format!("ap_session={dealer}"))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    let large = get(
        &app,
        Some(&dealer),
        pdf["previewLargeUrl"].as_str().unwrap(),
    )
    .await;
    assert_eq!(large.status(), 200);
    let large = image::load_from_memory(&large.bytes().await.unwrap()).unwrap();
    assert!((1190..=1200).contains(&large.width()), "{}", large.width());

    // Exactly the file's rights: a dealer not on the package's lists and a wrong size get the
    // same 404 as a file that does not exist; nobody signed in gets 401.
    for (token, path, status) in [
        (Some(&stranger), thumb_path.to_string(), 404),
        (Some(&stranger), format!("/files/{flyer}/x"), 404),
        (Some(&dealer), format!("/previews/{flyer}/huge.jpg"), 404),
        (Some(&dealer), format!("/previews/{text}/thumb.jpg"), 404),
        (Some(&dealer), "/previews/999999/thumb.jpg".to_string(), 404),
        (Some(&dealer), "/previews/abc/thumb.jpg".to_string(), 404),
        (None, thumb_path.to_string(), 401),
    ] {
        let response = get(&app, token.map(String::as_str), &path).await;
        assert_eq!(response.status(), status, "{path}");
    }

    // Uploads of the same bytes share the previews; they go with the last of them.
    let again = upload(&app, &admin, "Flyer Kopie.pdf", FLYER).await;
    let sha = aktionsportal::db::catalog::uploads::get(&app.test_db.db, flyer)
        .await
        .unwrap()
        .unwrap()
        .sha256
        .unwrap();
    let stored = aktionsportal::db::catalog::previews::ready(&app.test_db.db, &sha)
        .await
        .unwrap()
        .unwrap();
    let files_before = app.stored_files();
    assert!(
        files_before
            .iter()
            .any(|f| f.ends_with(stored.thumb_key.rsplit('/').next().unwrap()))
    );
    let (status, _) = app
        .call(&admin, "DELETE", &format!("/api/download/{package}"), None)
        .await;
    assert_eq!(status, 200);
    assert!(
        aktionsportal::db::catalog::previews::ready(&app.test_db.db, &sha)
            .await
            .unwrap()
            .is_some(),
        "the fresh copy still has the content"
    );
    aktionsportal::services::catalog::uploads::remove_unreferenced(
        &app.test_db.db,
        &aktionsportal::storage::FileStore::new(app.test_db.data_dir.join("files")).unwrap(),
        &[again],
        &aktionsportal::domain::audit::Actor::Cli,
    )
    .await
    .unwrap();
    assert!(
        aktionsportal::db::catalog::previews::ready(&app.test_db.db, &sha)
            .await
            .unwrap()
            .is_none()
    );
    let left = app.stored_files();
    for key in [&stored.thumb_key, &stored.large_key] {
        assert!(!left.contains(key), "{key} removed with the file");
    }
}

fn renderer_of(timeout: Duration, memory_mb: u64) -> Renderer {
    Renderer::new(Limits {
        exe: env!("CARGO_BIN_EXE_aktionsportal").into(),
        timeout,
        memory_bytes: memory_mb * 1024 * 1024,
        max_input_bytes: 64 * 1024 * 1024,
    })
}

/// A PDF whose page content is nested `depth` levels deep (arrays in arrays).
fn deeply_nested_pdf(depth: usize) -> Vec<u8> {
    let mut content = String::from("BT ");
    content.push_str(&"[".repeat(depth));
    content.push_str(&"]".repeat(depth));
    content.push_str(" TJ ET");
    let resources = format!("<< /Kids {} >>", "[".repeat(depth) + &"]".repeat(depth));
    aktionsportal::test_support::pdf_of(&[
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources {resources} /Contents 4 0 R >>"
        ),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
    ])
}

/// A PNG of `side` × `side` black pixels: small on disk, large in memory.
fn big_png(side: u32) -> Vec<u8> {
    let image = image::GrayImage::new(side, side);
    let mut png = Vec::new();
    image::DynamicImage::ImageLuma8(image)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    png
}

#[tokio::test]
async fn hostile_files_are_given_up_in_the_child_within_the_limits() {
    let renderer = renderer_of(Duration::from_secs(10), 512);
    // The real thing works in the child, too.
    let rendered = renderer
        .render(FLYER.to_vec(), DrawingKind::Pdf)
        .await
        .unwrap();
    assert_eq!(rendered.thumb.width, 320);

    // Deep nesting, a truncated file, a picture that claims 60,000 × 60,000 pixels, and
    // garbage: each ends with an error (or a harmless preview), quickly, and the portal's
    // process is untouched.
    let nested = deeply_nested_pdf(200_000);
    let truncated = FLYER[..FLYER.len() / 2].to_vec();
    let mut claims = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    claims.extend_from_slice(&60_000u32.to_be_bytes());
    claims.extend_from_slice(&60_000u32.to_be_bytes());
    claims.extend_from_slice(&[8, 2, 0, 0, 0]);
    let crc = crc32fast::hash(&claims[12..]);
    claims.extend_from_slice(&crc.to_be_bytes());
    for (bytes, kind) in [
        (nested, DrawingKind::Pdf),
        (truncated, DrawingKind::Pdf),
        (claims, DrawingKind::Picture),
        (b"<svg><g><g><g>".to_vec(), DrawingKind::Svg),
        (vec![0xFF; 4096], DrawingKind::Picture),
    ] {
        let started = Instant::now();
        let result = renderer.render(bytes, kind).await;
        assert!(started.elapsed() < Duration::from_secs(10), "{kind:?}");
        if let Ok(rendered) = result {
            assert!(rendered.thumb.width <= 320 && rendered.thumb.jpeg.len() <= 40 * 1024);
        }
    }

    // Past the memory limit the child ends, not the portal: 12,000² pixels need about
    // 430 MB as RGB, more than 192 MB.
    let small_memory = renderer_of(Duration::from_secs(30), 192);
    let failure = small_memory
        .render(big_png(12_000), DrawingKind::Picture)
        .await
        .unwrap_err();
    assert!(
        matches!(
            failure,
            RenderFailure::Crashed(_) | RenderFailure::Refused(_)
        ),
        "{failure:?}"
    );
    // Past the deadline the child is stopped.
    let impatient = renderer_of(Duration::from_millis(1), 512);
    assert!(matches!(
        impatient.render(FLYER.to_vec(), DrawingKind::Pdf).await,
        Err(RenderFailure::Timeout(_))
    ));
    // Too large to be read at all.
    let tiny = Renderer::new(Limits {
        exe: env!("CARGO_BIN_EXE_aktionsportal").into(),
        timeout: Duration::from_secs(10),
        memory_bytes: 512 * 1024 * 1024,
        max_input_bytes: 100,
    });
    assert!(matches!(
        tiny.render(FLYER.to_vec(), DrawingKind::Pdf).await,
        Err(RenderFailure::Refused(_))
    ));
}

#[tokio::test]
async fn a_hostile_upload_gets_no_preview_and_the_next_one_does() {
    let app = spawn_app_with(|config| {
        with_previews(config);
        config.preview_timeout_secs = 10;
    })
    .await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let broken = upload(&app, &admin, "Kaputt.pdf", &deeply_nested_pdf(200_000)).await;
    let fine = upload(&app, &admin, "Banner.png", BANNER).await;
    let db = &app.test_db.db;
    let sha_of = |id: i64| async move {
        aktionsportal::db::catalog::uploads::get(db, id)
            .await
            .unwrap()
            .unwrap()
            .sha256
            .unwrap()
    };
    let (broken_sha, fine_sha) = (sha_of(broken).await, sha_of(fine).await);
    assert_ne!(broken_sha, fine_sha);
    // Until nothing waits: both files are settled, one way or the other.
    let started = Instant::now();
    let counts = loop {
        let counts = aktionsportal::db::catalog::previews::counts(db, &DrawingKind::CONTENT_TYPES)
            .await
            .unwrap();
        if counts.waiting == 0 {
            break counts;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "still waiting: {counts:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // The hostile file is given up, with no preview; the good one has its previews.
    assert_eq!(
        (counts.ready, counts.failed, counts.waiting),
        (1, 1, 0),
        "{counts:?}"
    );
    assert!(
        aktionsportal::db::catalog::previews::ready(db, &broken_sha)
            .await
            .unwrap()
            .is_none(),
        "the hostile file has a preview"
    );
    assert!(
        aktionsportal::db::catalog::previews::ready(db, &fine_sha)
            .await
            .unwrap()
            .is_some(),
        "the good file has no preview"
    );
    // So do the lists: the hostile file shows its type icon, the good one its thumbnail.
    let provider = app.create_provider(&admin, "Glasfaser Nord", ROLE).await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    let (status, package) = app
        .call(
            &admin,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Kaputt und heil",
                "startAt": "2026-01-01",
                "endAt": "2030-12-31",
                "ProviderId": provider,
                "listsIds": [list],
                "uploadsToInsert": [broken, fine],
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let (status, view) = app
        .call(
            &admin,
            "GET",
            &format!("/api/download/{}", package["id"]),
            None,
        )
        .await;
    assert_eq!(status, 200, "{view}");
    let preview_of = |id: i64| {
        view["Uploads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == id)
            .map(|f| f["previewUrl"].clone())
    };
    assert_eq!(preview_of(broken), Some(Value::Null), "{view}");
    assert_eq!(
        preview_of(fine),
        Some(json!(format!("/previews/{fine}/thumb.jpg"))),
        "{view}"
    );
    assert_eq!(app.get("/healthz").await.status(), 200);
}

/// The ids of the `preview-render` processes whose parent is `parent`.
fn renderers_of(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        // Between fork and exec the child still shows the portal's command line, so a
        // `preview-render` here is the renderer itself, with its own environment and folder.
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        if !cmdline
            .split(|b| *b == 0)
            .any(|arg| arg == b"preview-render")
        {
            continue;
        }
        let parent_of = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|status| {
                status
                    .lines()
                    .find_map(|line| line.strip_prefix("PPid:"))
                    .and_then(|ppid| ppid.trim().parse::<u32>().ok())
            });
        if parent_of == Some(parent) {
            found.push(pid);
        }
    }
    found
}

/// The variables (`NAME=value`) of a process, from `/proc/<pid>/environ`.
fn environment_of(pid: u32) -> Option<Vec<String>> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    Some(
        environ
            .split(|b| *b == 0)
            .filter(|entry| !entry.is_empty())
            .map(|entry| String::from_utf8_lossy(entry).into_owned())
            .collect(),
    )
}

/// A process's open file descriptors and what each one is (`pipe:[…]`, a path, …).
fn descriptors_of(pid: u32) -> Option<Vec<(String, String)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(format!("/proc/{pid}/fd")).ok()? {
        // One closed between the listing and this look is not open any more.
        let Ok(entry) = entry else { continue };
        let Ok(target) = std::fs::read_link(entry.path()) else {
            continue;
        };
        found.push((
            entry.file_name().to_string_lossy().into_owned(),
            target.to_string_lossy().into_owned(),
        ));
    }
    found.sort();
    Some(found)
}

/// A process's working folder and what is in it.
fn folder_of(pid: u32) -> Option<(PathBuf, Vec<String>)> {
    let path = std::fs::read_link(format!("/proc/{pid}/cwd")).ok()?;
    let entries = std::fs::read_dir(format!("/proc/{pid}/cwd"))
        .ok()?
        .map(|entry| entry.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    Some((path, entries))
}

/// The `aktionsportal serve` process of a test, killed when dropped; its log for messages.
struct Server {
    child: Child,
    log: PathBuf,
}

impl Server {
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Secrets as an operator sets them; none of them may reach the renderer.
const SECRETS: [(&str, &str); 5] = [
    ("AP_SMTP_USER", "postfach@example.de"),
    ("AP_SMTP_PASSWORD", "smtp-geheim-7f3a"),
    ("AP_OIDC_CLIENT_SECRET", "oidc-geheim-91c2"),
    ("AP_PLANNING_TOKEN", "planung-geheim-5d0e"),
    ("AWS_SECRET_ACCESS_KEY", "aws-geheim-2b8c"),
];

#[tokio::test]
async fn the_renderer_holds_none_of_the_portals_secrets_and_works_in_an_empty_folder() {
    let test_db = aktionsportal::test_support::TestDb::new().await;
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    // The portal's own working folder is not empty: the renderer must not start there.
    std::fs::write(work.join("notizen.txt"), "Arbeitsordner des Portals").unwrap();
    let port = free_port();
    let log = work.join("portal.log");
    let log_file = std::fs::File::create(&log).unwrap();
    let child = portal(work, &test_db.url)
        .envs(SECRETS)
        // Time enough for the large picture below in an unoptimised build.
        .env("AP_PREVIEW_TIMEOUT_SECS", "120")
        .arg("--data")
        .arg(work.join("data"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(log_file.try_clone().unwrap())
        .stderr(log_file)
        .spawn()
        .expect("start the portal");
    let server = Server { child, log };
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !client
        .get(format!("{base}/healthz"))
        .send()
        .await
        .is_ok_and(|r| r.status() == 200)
    {
        assert!(Instant::now() < deadline, "no answer: {}", server.log());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The portal itself holds the secrets (else the test would prove nothing).
    let portal_pid = server.child.id();
    let portal_env = environment_of(portal_pid).unwrap();
    for name in [
        "DATABASE_URL=",
        "AP_SMTP_PASSWORD=",
        "AWS_SECRET_ACCESS_KEY=",
    ] {
        assert!(portal_env.iter().any(|v| v.starts_with(name)), "{name}");
    }

    let user = aktionsportal::domain::user::User {
        name: "Erika Musterfrau".into(),
        customer_number: None,
        email: "erika@example.de".into(),
        roles: vec![ADMIN.into()],
        subject: "test:admin".into(),
    };
    let token = aktionsportal::auth::session::create(&test_db.db, None, &user, chrono::Utc::now())
        .await
        .unwrap();
    // A picture that takes the renderer a moment: 4,000 × 4,000 pixels to decode and scale.
    let form = reqwest::multipart::Form::new().part(
        "files[0]",
        reqwest::multipart::Part::bytes(big_png(4_000)).file_name("Plakat.png"),
    );
    let response = client
        .post(format!("{base}/api/upload/"))
        .header("cookie", format!("ap_session={token}"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{}", server.log());
    let upload: Value = response.json().await.unwrap();
    let sha = aktionsportal::db::catalog::uploads::get(&test_db.db, upload["id"].as_i64().unwrap())
        .await
        .unwrap()
        .unwrap()
        .sha256
        .unwrap();

    // Caught during the render: its environment and its folder.
    let deadline = Instant::now() + Duration::from_secs(60);
    let (pid, environment, (folder, entries)) = loop {
        let seen = renderers_of(portal_pid)
            .into_iter()
            .find_map(|pid| Some((pid, environment_of(pid)?, folder_of(pid)?)));
        if let Some(seen) = seen {
            break seen;
        }
        assert!(
            Instant::now() < deadline,
            "no renderer seen: {}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    let leaked: Vec<&String> = environment
        .iter()
        .filter(|v| v.starts_with("AP_") || v.starts_with("DATABASE_URL=") || v.starts_with("AWS_"))
        .collect();
    assert!(leaked.is_empty(), "the renderer holds {leaked:?}");
    for (_, secret) in SECRETS {
        assert!(!environment.iter().any(|v| v.contains(secret)), "{secret}");
    }
    // It needs nothing at all.
    assert!(environment.is_empty(), "{environment:?}");
    assert!(entries.is_empty(), "{}: {entries:?}", folder.display());
    assert_ne!(folder, work.canonicalize().unwrap());
    // Its only source of bytes is standard input: nothing open but the three pipes. The
    // child closes what it inherited first thing, so the last look while it renders counts.
    // A look that finds nothing (the child just gone) keeps the one before; one taken while
    // the child closes is followed by later ones while it renders.
    let mut descriptors = Vec::new();
    while renderers_of(portal_pid).contains(&pid) {
        if let Some(open) = descriptors_of(pid).filter(|open| !open.is_empty()) {
            descriptors = open;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let numbers: Vec<&str> = descriptors.iter().map(|(fd, _)| fd.as_str()).collect();
    assert_eq!(numbers, ["0", "1", "2"], "{descriptors:?}");
    assert!(
        descriptors
            .iter()
            .all(|(_, what)| what.starts_with("pipe:")),
        "{descriptors:?}"
    );
    assert!(!folder.starts_with(work), "{}", folder.display());

    // The render still succeeds, and its folder goes with it.
    let deadline = Instant::now() + Duration::from_secs(120);
    while aktionsportal::db::catalog::previews::ready(&test_db.db, &sha)
        .await
        .unwrap()
        .is_none()
    {
        assert!(Instant::now() < deadline, "no preview: {}", server.log());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        !Path::new(&folder).exists(),
        "{} left behind",
        folder.display()
    );
}
