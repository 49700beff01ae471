//! The binary as an operator uses it: configuration errors, migrations, local accounts, the
//! demo data, and a server that starts, answers and stops cleanly on SIGTERM.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use aktionsportal::db::Backend;
use aktionsportal::test_support::{TestDb, test_backend};

#[path = "common/binary.rs"]
mod binary;
use binary::{BIN, free_port};

/// The binary pointed at the test database (`--data` for SQLite, `DATABASE_URL` for PostgreSQL).
fn portal(test: &TestDb) -> Command {
    let mut command = Command::new(BIN);
    command
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn")
        .current_dir(test.data_dir.parent().unwrap())
        .arg("--data")
        .arg(&test.data_dir);
    if test_backend() == Backend::Postgres {
        command.env("DATABASE_URL", &test.url);
    }
    command
}

fn run(mut command: Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start binary");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().expect("binary output")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test]
async fn invalid_configuration_stops_the_start_naming_the_setting() {
    let test = TestDb::new().await;
    let mut command = portal(&test);
    command
        .env("AP_CONTENT_SITE_URL", "ftp://inhalte")
        .arg("migrate");
    let output = run(command, "");
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("Ungültige Konfiguration"), "{stderr}");
    assert!(stderr.contains("AP_CONTENT_SITE_URL"), "{stderr}");

    let mut command = portal(&test);
    command.arg("--config").arg("/nicht/da.toml").arg("migrate");
    let output = run(command, "");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("/nicht/da.toml"));
}

#[tokio::test]
async fn migrate_creates_the_sqlite_file_in_the_data_folder() {
    let test = TestDb::new().await;
    let fresh = test.data_dir.join("neu");
    let mut command = Command::new(BIN);
    command
        .env_remove("DATABASE_URL")
        .arg("migrate")
        .arg("--data")
        .arg(&fresh);
    let output = run(command, "");
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("Datenbank ist auf dem neuesten Stand"));
    assert!(fresh.join("aktionsportal.db").exists());
}

#[tokio::test]
async fn accounts_are_added_listed_changed_and_removed() {
    let test = TestDb::new().await;
    let add = |login: &str, password: &str| {
        let mut command = portal(&test);
        command.args([
            "user",
            "add",
            "--login",
            login,
            "--password-stdin",
            "--roles",
            "GS-Aktionsportal-Admin,GS-Aktionsportal",
            "--customer-number",
            "100001",
            "--email",
            "Erika@Example.de",
        ]);
        run(command, &format!("{password}\n"))
    };
    let output = add("erika", "Sommer-Aktion-2026");
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("Konto erika angelegt"));

    let output = add("erika", "Sommer-Aktion-2026");
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("existiert bereits"));

    let output = add("max", "kurz");
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("mindestens 10 Zeichen"));

    let mut command = portal(&test);
    command.args(["user", "list"]);
    let listing = text(&run(command, "").stdout);
    assert!(
        listing.contains(
            "erika\terika\terika@example.de\t100001\tGS-Aktionsportal,GS-Aktionsportal-Admin"
        ) || listing.contains(
            "erika\terika\terika@example.de\t100001\tGS-Aktionsportal-Admin,GS-Aktionsportal"
        ),
        "{listing}"
    );
    assert!(!listing.contains("max"));
    assert!(!listing.contains("Sommer"), "passwords are never printed");

    let user = aktionsportal::db::accounts::users::find_by_login(&test.db, "erika")
        .await
        .unwrap()
        .unwrap();
    assert!(aktionsportal::auth::password::verify_password(
        "Sommer-Aktion-2026",
        &user.password_hash
    ));

    let mut command = portal(&test);
    command.args([
        "user",
        "set-roles",
        "--login",
        "erika",
        "--roles",
        "GS-Provision",
    ]);
    assert!(run(command, "").status.success());
    let mut command = portal(&test);
    command.args([
        "user",
        "set-password",
        "--login",
        "erika",
        "--password-stdin",
    ]);
    assert!(run(command, "Winter-Aktion-2026\n").status.success());
    let user = aktionsportal::db::accounts::users::find_by_login(&test.db, "erika")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(user.roles, vec!["GS-Provision".to_string()]);
    assert!(aktionsportal::auth::password::verify_password(
        "Winter-Aktion-2026",
        &user.password_hash
    ));

    let mut command = portal(&test);
    command.args(["user", "remove", "--login", "erika"]);
    assert!(run(command, "").status.success());
    let mut command = portal(&test);
    command.args(["user", "remove", "--login", "erika"]);
    let output = run(command, "");
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("Kein Konto mit dem Login erika"));
}

#[tokio::test]
async fn seed_demo_creates_data_and_prints_the_admin_login_once() {
    let test = TestDb::new().await;
    let mut command = portal(&test);
    command.arg("seed-demo");
    let output = run(command, "");
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("Demo-Daten angelegt"), "{stdout}");
    let password_line = stdout
        .lines()
        .find(|l| l.starts_with("Konto angelegt: Login admin, Passwort "))
        .expect("admin login printed");
    let password = password_line
        .trim_start_matches("Konto angelegt: Login admin, Passwort ")
        .split_whitespace()
        .next()
        .unwrap();
    let admin = aktionsportal::db::accounts::users::find_by_login(&test.db, "admin")
        .await
        .unwrap()
        .unwrap();
    assert!(aktionsportal::auth::password::verify_password(
        password,
        &admin.password_hash
    ));
    assert!(admin.roles.contains(&"GS-Aktionsportal-Admin".to_string()));
    assert!(
        aktionsportal::db::marketing::providers::count(&test.db)
            .await
            .unwrap()
            >= 3
    );
    // The demo's pictures, drawings and PDFs have their previews.
    assert!(stdout.contains("Vorschauen erstellt: "), "{stdout}");
    let counts = aktionsportal::db::catalog::previews::counts(
        &test.db,
        &aktionsportal::previews::DrawingKind::CONTENT_TYPES,
    )
    .await
    .unwrap();
    assert!(counts.ready >= 8, "{counts:?}");
    assert_eq!((counts.failed, counts.waiting), (0, 0));

    let mut command = portal(&test);
    command.arg("seed-demo");
    let again = text(&run(command, "").stdout);
    assert!(again.contains("Konto admin existiert bereits"), "{again}");
    assert!(!again.contains("Passwort "), "{again}");

    // The backfill command: nothing left to make; then a preview lost is made again.
    let mut command = portal(&test);
    command.arg("previews");
    let output = run(command, "");
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "Vorschauen: {} vorhanden, 0 nicht möglich, 0 zu erstellen.",
            counts.ready
        )),
        "{stdout}"
    );
    aktionsportal::db_run!(&test.db, pool => {
        sqlx::query("delete from previews where sha256 = (select min(sha256) from previews)")
            .execute(pool)
            .await
            .map(drop)
            .unwrap()
    });
    let mut command = portal(&test);
    command.arg("previews");
    let stdout = text(&run(command, "").stdout);
    assert!(stdout.contains("1 zu erstellen."), "{stdout}");
    assert!(
        stdout.contains("Vorschauen erstellt: 1 neu, 0 nicht möglich"),
        "{stdout}"
    );
}

async fn wait_for_health(port: u16) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(response) = reqwest::get(format!("http://127.0.0.1:{port}/healthz")).await
            && response.status() == 200
        {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test]
async fn serve_answers_and_stops_gracefully_on_sigterm() {
    let test = TestDb::new().await;
    let port = free_port();
    let mut command = portal(&test);
    command
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("start server");
    assert!(wait_for_health(port).await, "server did not come up");

    let response = reqwest::get(format!("http://127.0.0.1:{port}/login-failed"))
        .await
        .unwrap();
    assert_eq!(response.status(), 200);

    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "server did not stop after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "exit status {status:?}");
    assert!(
        reqwest::get(format!("http://127.0.0.1:{port}/healthz"))
            .await
            .is_err()
    );
}

#[test]
fn the_data_flag_is_accepted_by_every_subcommand() {
    for args in [
        &["serve", "--help"][..],
        &["migrate", "--help"],
        &["user", "list", "--help"],
        &["user", "add", "--help"],
        &["seed-demo", "--help"],
    ] {
        let output = Command::new(BIN).args(args).output().unwrap();
        assert!(output.status.success());
        assert!(text(&output.stdout).contains("--data <DIR>"), "{args:?}");
    }
}

/// Peak resident memory of a process in KiB (`VmHWM` in /proc).
fn peak_memory_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap()
}

async fn login(client: &reqwest::Client, port: u16, password: &str) -> reqwest::Response {
    client
        .post(format!("http://127.0.0.1:{port}/api/auth/login"))
        .form(&[("login", "erika"), ("password", password)])
        .send()
        .await
        .unwrap()
}

fn signed_in(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .any(|c| c.to_str().unwrap_or("").starts_with("ap_session="))
}

#[tokio::test]
async fn a_login_burst_checks_five_guesses_in_bounded_memory_and_the_cli_lifts_the_lock() {
    let test = TestDb::new().await;
    let mut command = portal(&test);
    command.args([
        "user",
        "add",
        "--login",
        "erika",
        "--password-stdin",
        "--roles",
        "GS-Aktionsportal",
        "--email",
        "erika@example.de",
    ]);
    assert!(run(command, "Sommer-Aktion-2026\n").status.success());
    let port = free_port();
    let mut command = portal(&test);
    command
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = command.spawn().expect("start server");
    assert!(wait_for_health(port).await, "server did not come up");
    let before = peak_memory_kib(child.id());

    // 119 wrong passwords at once, then the right one.
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let burst: Vec<_> = (0..119)
        .map(|i| {
            let client = client.clone();
            tokio::spawn(async move { login(&client, port, &format!("geraten-{i}")).await })
        })
        .collect();
    let mut checked = 0;
    for guess in burst {
        let response = guess.await.unwrap();
        let location = response.headers()["location"].to_str().unwrap().to_string();
        assert!(!signed_in(&response));
        if location.contains("fehler=zugangsdaten") {
            checked += 1;
        } else {
            assert!(location.contains("fehler=gesperrt"), "{location}");
        }
    }
    assert_eq!(checked, 5, "only five guesses may reach the password check");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let right = login(&client, port, "Sommer-Aktion-2026").await;
    assert!(
        !signed_in(&right),
        "the right password after the burst must wait"
    );
    assert!(
        right.headers()["location"]
            .to_str()
            .unwrap()
            .contains("fehler=gesperrt")
    );

    let grown_mib = peak_memory_kib(child.id()).saturating_sub(before) / 1024;
    eprintln!(
        "peak memory before the burst: {} MiB, growth: {grown_mib} MiB",
        before / 1024
    );
    assert!(
        grown_mib < 150,
        "the burst raised the server's peak memory by {grown_mib} MiB"
    );

    // The admin lifts the lock; the owner signs in.
    let mut command = portal(&test);
    command.args([
        "user",
        "unlock",
        "--login",
        "erika",
        "--address",
        "127.0.0.1",
    ]);
    let output = run(command, "");
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("Sperre für Konto erika aufgehoben."));
    assert!(signed_in(&login(&client, port, "Sommer-Aktion-2026").await));

    let _ = child.kill();
    let _ = child.wait();
}

/// A session of an admin in the test database (the binary reads the same database).
async fn admin_session(test: &TestDb) -> String {
    aktionsportal::auth::session::create(
        &test.db,
        None,
        &aktionsportal::domain::user::User {
            name: "Anna Admin".into(),
            customer_number: None,
            email: "admin@example.de".into(),
            roles: vec!["GS-Aktionsportal-Admin".into()],
            subject: "test:admin".into(),
        },
        chrono::Utc::now(),
    )
    .await
    .unwrap()
}

/// Files under the store's shard folders and in its staging folder.
fn store_contents(test: &TestDb) -> (Vec<String>, Vec<String>) {
    let root = test.data_dir.join("files");
    let mut stored = Vec::new();
    let mut staged = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&root) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            for file in std::fs::read_dir(entry.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let file = format!("{name}/{}", file.file_name().to_string_lossy());
                if name == ".staging" {
                    staged.push(file);
                } else {
                    stored.push(file);
                }
            }
        }
    }
    (stored, staged)
}

#[tokio::test]
async fn a_server_killed_during_an_upload_leaves_no_row_and_after_a_restart_no_file() {
    use tokio::io::AsyncWriteExt;
    let test = TestDb::new().await;
    let admin = admin_session(&test).await;
    let start = |port: u16| {
        let mut command = portal(&test);
        command
            .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command.spawn().expect("start server")
    };
    let port = free_port();
    let mut child = start(port);
    assert!(wait_for_health(port).await, "server did not come up");

    // 100 MB announced, 40 MB sent, then the server is killed mid-stream.
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let head = format!(
        "POST /api/upload/ HTTP/1.1\r\nHost: portal\r\nCookie: ap_session={admin}\r\n\
         Content-Type: multipart/form-data; boundary=GRENZE\r\nContent-Length: 104857700\r\n\r\n\
         --GRENZE\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"Video.mp4\"\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(b"\0\0\0\x18ftypmp42").await.unwrap();
    let chunk = vec![0x42u8; 1024 * 1024];
    for _ in 0..40 {
        stream.write_all(&chunk).await.unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while store_contents(&test).1.is_empty() {
        assert!(
            Instant::now() < deadline,
            "the upload never reached the staging folder"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stream);

    assert_eq!(
        aktionsportal::db::catalog::uploads::count(&test.db)
            .await
            .unwrap(),
        0,
        "no row"
    );
    assert!(
        store_contents(&test).0.is_empty(),
        "nothing was renamed into place"
    );

    let port = free_port();
    let mut child = start(port);
    assert!(wait_for_health(port).await, "server did not come up again");
    let (stored, staged) = store_contents(&test);
    assert!(
        stored.is_empty() && staged.is_empty(),
        "left behind: {stored:?} {staged:?}"
    );
    let _ = child.kill();
    let _ = child.wait();
}

#[tokio::test]
async fn a_large_upload_streams_to_disk_in_flat_memory() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let test = TestDb::new().await;
    let admin = admin_session(&test).await;
    let port = free_port();
    let mut command = portal(&test);
    command
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = command.spawn().expect("start server");
    assert!(wait_for_health(port).await, "server did not come up");
    let before = peak_memory_kib(child.id());

    const MIB: usize = 1024 * 1024;
    let size = 300 * MIB;
    let preamble = "--GRENZE\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"Video Großformat.mp4\"\r\n\
                    Content-Type: video/mp4\r\n\r\n";
    let closing = "\r\n--GRENZE--\r\n";
    let length = preamble.len() + size + closing.len();
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let head = format!(
        "POST /api/upload/ HTTP/1.1\r\nHost: portal\r\nCookie: ap_session={admin}\r\nConnection: close\r\n\
         Content-Type: multipart/form-data; boundary=GRENZE\r\nContent-Length: {length}\r\n\r\n{preamble}"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut chunk = vec![0x42u8; MIB];
    chunk[..12].copy_from_slice(b"\0\0\0\x18ftypmp42");
    let mut crc = crc32fast::Hasher::new();
    for i in 0..size / MIB {
        stream.write_all(&chunk).await.unwrap();
        crc.update(&chunk);
        if i == 0 {
            chunk[..12].fill(0x42);
        }
    }
    stream.write_all(closing.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let grown_mib = peak_memory_kib(child.id()).saturating_sub(before) / 1024;
    eprintln!(
        "peak memory before the upload: {} MiB, growth: {grown_mib} MiB",
        before / 1024
    );
    assert!(
        grown_mib < 32,
        "a 300 MiB upload raised the peak memory by {grown_mib} MiB"
    );

    let upload = aktionsportal::db::catalog::uploads::list_all(&test.db)
        .await
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!(upload.name, "Video Großformat.mp4");
    assert_eq!(upload.size as usize, size);
    assert_eq!(upload.crc32, Some(i64::from(crc.finalize())));
    assert_eq!(upload.content_type, "video/mp4");
    let _ = child.kill();
    let _ = child.wait();
}

#[path = "common/fake_smtp.rs"]
mod fake_smtp;

#[tokio::test]
async fn a_mass_mail_killed_midway_mails_each_pending_contact_exactly_once_after_a_restart() {
    use aktionsportal::db::contacts;
    let test = TestDb::new().await;
    contacts::upsert_company(&test.db, 100_001, "Müller GmbH")
        .await
        .unwrap();
    let mut expected = Vec::new();
    for i in 0..30 {
        let email = format!("kunde{i:02}@example.de");
        contacts::create_contact(
            &test.db,
            &contacts::NewContact {
                customer_number: 100_001,
                brevo_contact_id: None,
                email: email.clone(),
                salutation: 2,
                firstname: "Max".into(),
                lastname: format!("Kunde {i}"),
                extern_id: None,
                double_opt_in: false,
                email_blacklisted: false,
            },
        )
        .await
        .unwrap();
        expected.push(email);
    }
    let admin = admin_session(&test).await;
    let smtp = fake_smtp::FakeSmtp::start().await;
    // The 11th mail's "250 OK" never comes: the server dies while it waits for it.
    smtp.hold_after(10);
    let start = |port: u16| {
        let mut command = portal(&test);
        command
            .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .env("AP_SMTP_HOST", "127.0.0.1")
            .env("AP_SMTP_PORT", smtp.addr.port().to_string())
            .env("AP_SMTP_SECURITY", "none")
            .env("AP_PRODUCTION", "true")
            .env("AP_MAIL_PER_SECOND", "100")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command.spawn().expect("start server")
    };
    let client = reqwest::Client::new();
    let port = free_port();
    let mut child = start(port);
    assert!(wait_for_health(port).await, "server did not come up");
    let answer: serde_json::Value = client
        .post(format!("http://127.0.0.1:{port}/api/smtp/emails"))
        .header("cookie", format!("ap_session={admin}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["code"], "job_started", "{answer}");
    assert_eq!(answer["count"], 30);

    let deadline = Instant::now() + Duration::from_secs(30);
    while !smtp.is_holding() {
        assert!(
            Instant::now() < deadline,
            "the job never reached the 11th mail"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(smtp.mails().len(), 10);
    smtp.release();

    // After the restart the job goes on at once; the contact the dead server was sending to
    // is claimed again once that claim is stale (30 s).
    let port = free_port();
    let mut child = start(port);
    assert!(wait_for_health(port).await, "server did not come up again");
    let deadline = Instant::now() + Duration::from_secs(90);
    let job = loop {
        let answer: serde_json::Value = client
            .get(format!("http://127.0.0.1:{port}/api/smtp/emails"))
            .header("cookie", format!("ap_session={admin}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if answer["job"]["status"] == "done" {
            break answer["job"].clone();
        }
        assert!(Instant::now() < deadline, "job did not finish: {answer}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        (job["sent"].as_i64(), job["failed"].as_i64()),
        (Some(30), Some(0))
    );
    let mut received: Vec<String> = smtp.mails().into_iter().flat_map(|m| m.to).collect();
    received.sort();
    assert_eq!(received, expected, "each pending contact exactly once");
}
