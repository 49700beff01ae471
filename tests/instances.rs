//! Two portal instances as a load balancer would see them: two `aktionsportal serve`
//! processes on one PostgreSQL database and one S3-compatible bucket (moto's server on
//! 127.0.0.1). One browser's requests alternate between them: it signs in on one and works
//! on the other, uploads on one and downloads (with ranges) and fetches the package ZIP from
//! the other; the mass mail runs on both, one is killed in the middle, and every contact
//! still gets exactly one mail; so does a package's announcement, with the killed instance
//! started again. `scripts/test.sh` runs it with moto installed (`-- --ignored`);
//! without moto or PostgreSQL it fails instead of passing unseen.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use aktionsportal::storage::bucket::PART;
use aktionsportal::test_support::TestDb;
use reqwest::header::{COOKIE, ORIGIN, RANGE, SET_COOKIE};
use reqwest::{Method, Response};
use serde_json::{Value, json};

use common::big_pdf;
use common::binary::{free_port, portal, run};
use common::fake_smtp::{FakeSmtp, ReceivedMail};
use common::moto::Moto;

const ADMIN_ROLE: &str = "GS-Aktionsportal-Admin";
const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";
const PASSWORD: &str = "Zwei-Instanzen-2026";
const CONTACTS: usize = 40;
/// Mails per second of each instance: slow enough that both are still sending when one dies.
const PER_SECOND: &str = "4";

/// One `aktionsportal serve` process; killed when dropped (also when the test panics).
struct Instance {
    name: &'static str,
    port: u16,
    data: PathBuf,
    child: Option<Child>,
}

impl Instance {
    fn start(
        name: &'static str,
        work: &Path,
        database_url: &str,
        env: &[(&'static str, String)],
    ) -> Instance {
        let port = free_port();
        let data = work.join(name);
        std::fs::create_dir_all(&data).unwrap();
        let log = std::fs::File::create(log_path(work, name)).unwrap();
        let mut command = portal(work, database_url);
        command
            .envs(env.iter().map(|(k, v)| (k, v)))
            .arg("--data")
            .arg(&data)
            .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log);
        let child = command.spawn().expect("start instance");
        Instance {
            name,
            port,
            data,
            child: Some(child),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    async fn wait_for_health(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(response) = reqwest::get(self.url("/healthz")).await
                && response.status() == 200
            {
                return;
            }
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                panic!("instance {} ended at its start: {status}", self.name);
            }
            assert!(
                Instant::now() < deadline,
                "instance {} did not answer /healthz within 60 s",
                self.name
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// SIGKILL: no shutdown, no chance to hand anything over.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }

    /// Files the instance keeps on its own disk (there must be none: they are in the bucket).
    fn local_files(&self) -> Vec<PathBuf> {
        fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, found);
                } else {
                    found.push(path);
                }
            }
        }
        let mut found = Vec::new();
        walk(&self.data.join("files"), &mut found);
        found
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn log_path(work: &Path, name: &str) -> PathBuf {
    work.join(format!("{name}.log"))
}

/// Prints both instances' logs when the test fails.
struct LogsOnFailure(PathBuf);

impl Drop for LogsOnFailure {
    fn drop(&mut self) {
        if std::thread::panicking() {
            for name in ["a", "b", "a2"] {
                if let Ok(log) = std::fs::read_to_string(log_path(&self.0, name)) {
                    eprintln!("===== log of instance {name} =====\n{log}");
                }
            }
        }
    }
}

/// One browser: it keeps the session cookie it is given and sends it to whichever instance
/// it talks to, as behind a load balancer (cookies are per host name, not per port).
struct Browser {
    client: reqwest::Client,
    cookie: Option<String>,
}

impl Browser {
    fn new() -> Browser {
        Browser {
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            cookie: None,
        }
    }

    fn request(&self, method: Method, url: String) -> reqwest::RequestBuilder {
        let request = self.client.request(method, url);
        match &self.cookie {
            Some(cookie) => request.header(COOKIE, cookie),
            None => request,
        }
    }

    /// Sends and keeps (or drops) the session cookie the answer sets.
    async fn send(&mut self, request: reqwest::RequestBuilder) -> Response {
        let response = request.send().await.expect("request");
        for value in response.headers().get_all(SET_COOKIE) {
            let value = value.to_str().unwrap();
            if let Some(rest) = value.strip_prefix("ap_session=") {
                let token = rest.split(';').next().unwrap();
                self.cookie = (!token.is_empty() && !value.contains("Max-Age=0"))
                    .then(|| format!("ap_session={token}"));
            }
        }
        response
    }

    async fn call(
        &mut self,
        on: &Instance,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self.request(method.parse().unwrap(), on.url(path));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = self.send(request).await;
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    async fn get(&mut self, on: &Instance, path: &str, range: Option<&str>) -> Response {
        let mut request = self.request(Method::GET, on.url(path));
        if let Some(range) = range {
            request = request.header(RANGE, range);
        }
        self.send(request).await
    }

    async fn upload(&mut self, on: &Instance, name: &str, bytes: &[u8]) -> i64 {
        let form = reqwest::multipart::Form::new().part(
            "files[0]",
            reqwest::multipart::Part::bytes(bytes.to_vec()).file_name(name.to_string()),
        );
        let request = self
            .request(Method::POST, on.url("/api/upload/"))
            .multipart(form);
        let response = self.send(request).await;
        let status = response.status();
        let answer: Value = response.json().await.unwrap_or(Value::Null);
        assert_eq!(status, 200, "upload of {name} on {}: {answer}", on.name);
        answer["id"].as_i64().expect("upload id")
    }
}

fn recipient(mail: &ReceivedMail) -> String {
    mail.to.join(",").to_ascii_lowercase()
}

fn message_id(mail: &ReceivedMail) -> String {
    mail.header("Message-ID")
        .expect("every mail has a Message-ID")
}

#[tokio::test]
#[ignore = "needs moto and PostgreSQL: scripts/test.sh runs it with moto (AP_TEST_MOTO_SERVER)"]
async fn two_instances_share_sessions_files_and_the_mass_mail() {
    let started = Instant::now();
    let moto = Moto::start().await;
    let bucket = format!("ap-instanzen-{}", free_port());
    moto.create_bucket(&bucket).await;
    let test_db = TestDb::postgres().await;
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    let _logs = LogsOnFailure(work.to_path_buf());

    // The operator's steps: the schema, then an admin account (password on stdin).
    let mut migrate = portal(work, &test_db.url);
    migrate.arg("migrate");
    run(&mut migrate, "");
    let mut add = portal(work, &test_db.url);
    add.args([
        "user",
        "add",
        "--login",
        "erika",
        "--password-stdin",
        "--roles",
        ADMIN_ROLE,
        "--email",
        "erika@example.de",
        "--name",
        "Erika Musterfrau",
    ]);
    run(&mut add, &format!("{PASSWORD}\n"));

    // Each instance has its own mail relay, so the test sees which one sent what.
    let (smtp_a, smtp_b) = (FakeSmtp::start().await, FakeSmtp::start().await);
    let public_port = free_port();
    let shared: Vec<(&'static str, String)> = moto
        .env(&bucket, "portal")
        .into_iter()
        .chain([
            ("AP_PUBLIC_URL", format!("http://127.0.0.1:{public_port}")),
            ("AP_MAIL_FROM", "aktionen@example.de".into()),
            ("AP_PRODUCTION", "true".into()),
            ("AP_MAIL_PER_SECOND", PER_SECOND.into()),
            ("AP_SMTP_HOST", "127.0.0.1".into()),
            ("AP_SMTP_SECURITY", "none".into()),
        ])
        .collect();
    let with_smtp = |smtp: &FakeSmtp| {
        let mut env = shared.clone();
        env.push(("AP_SMTP_PORT", smtp.addr.port().to_string()));
        env
    };
    let mut a = Instance::start("a", work, &test_db.url, &with_smtp(&smtp_a));
    let mut b = Instance::start("b", work, &test_db.url, &with_smtp(&smtp_b));
    a.wait_for_health().await;
    b.wait_for_health().await;
    eprintln!("instances up after {:?}", started.elapsed());

    // Signed in on A, working on B.
    let mut browser = Browser::new();
    let login = browser
        .client
        .post(a.url("/api/auth/login"))
        .header(ORIGIN, format!("http://127.0.0.1:{}", a.port))
        .form(&[("login", "erika"), ("password", PASSWORD)]);
    let response = browser.send(login).await;
    assert!(
        response.status().is_redirection(),
        "login: {}",
        response.status()
    );
    assert!(
        browser.cookie.is_some(),
        "the login sets the session cookie"
    );
    let (status, me) = browser.call(&b, "GET", "/api/login/user", None).await;
    assert_eq!(status, 200, "B knows the session A created: {me}");
    assert_eq!(me["email"], "erika@example.de");
    let (status, page) = browser.call(&b, "GET", "/api/providers/", None).await;
    assert_eq!((status, &page["count"]), (200, &json!(0)), "{page}");

    let (status, provider) = browser
        .call(
            &b,
            "POST",
            "/api/providers/",
            Some(json!({
                "name": "Glasfaser Süd",
                "allowedRoles": [GLASFASER],
                "brevoActiveFolderId": "auto",
                "brevoInactiveFolderId": "auto",
            })),
        )
        .await;
    assert_eq!(status, 200, "{provider}");
    let provider = provider["id"].as_i64().unwrap();
    let (status, list) = browser
        .call(
            &a,
            "POST",
            &format!("/api/providers/{provider}/lists"),
            Some(json!({ "name": "Glasfaser Privat" })),
        )
        .await;
    assert_eq!(status, 200, "{list}");
    let list = list["id"].as_i64().unwrap();
    let (_, page) = browser.call(&a, "GET", "/api/providers/", None).await;
    assert_eq!(page["content"][0]["id"], provider, "{page}");

    // Uploaded on A: a file of two parts and a small one, both only in the bucket.
    let big = big_pdf(PART + 4 * 1024 * 1024 + 123);
    let small = "Preise für Händler".as_bytes();
    let big_id = browser.upload(&a, "Katalog groß.pdf", &big).await;
    let small_id = browser.upload(&a, "Preise.txt", small).await;
    let keys = moto.keys(&bucket).await;
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert!(keys.iter().all(|k| k.starts_with("portal/")), "{keys:?}");
    assert!(a.local_files().is_empty(), "{:?}", a.local_files());
    assert!(b.local_files().is_empty(), "{:?}", b.local_files());

    // The package is made on B from A's uploads; B serves the file, whole and in ranges.
    let (status, package) = browser
        .call(
            &b,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Herbstaktion",
                "startAt": "2026-11-01", "endAt": "2026-12-31",
                "ProviderId": provider, "listsIds": [list],
                "uploadsToInsert": [big_id, small_id],
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let package_id = package["id"].as_i64().unwrap();

    // Package lists are kept per instance under the data version both share: A answers twice
    // (the second time from what it keeps), B archives the package, and A's very next answer
    // shows it; the same the other way round.
    for _ in 0..2 {
        let (status, page) = browser.call(&a, "GET", "/api/downloads/", None).await;
        assert_eq!((status, &page["count"]), (200, &json!(1)), "{page}");
    }
    let toggle = format!("/api/download/changeArchiveStatus/{package_id}");
    for (changed_on, asked_on, archived) in [(&b, &a, true), (&a, &b, false)] {
        let body = Some(json!({ "archived": archived }));
        let (status, answer) = browser.call(changed_on, "PATCH", &toggle, body).await;
        assert_eq!(status, 200, "{answer}");
        let (_, page) = browser.call(asked_on, "GET", "/api/downloads/", None).await;
        let shown = if archived { 0 } else { 1 };
        assert_eq!(
            page["count"], shown,
            "the other instance's change is not shown: {page}"
        );
    }
    let path = package["Uploads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == big_id)
        .and_then(|u| u["path"].as_str())
        .expect("the big file in the package")
        .to_string();
    let whole = browser.get(&b, &path, None).await;
    assert_eq!(whole.status(), 200);
    assert_eq!(whole.bytes().await.unwrap().as_ref(), big.as_slice());
    let (from, to) = (PART - 1000, PART + 999);
    let part = browser
        .get(&b, &path, Some(&format!("bytes={from}-{to}")))
        .await;
    assert_eq!(part.status(), 206);
    assert_eq!(
        part.headers()["content-range"],
        format!("bytes {from}-{to}/{}", big.len()).as_str()
    );
    assert_eq!(part.bytes().await.unwrap().as_ref(), &big[from..=to]);

    // The ZIP from B; a resumed download that lands on A continues the same bytes.
    let zip_path = format!("/api/download/{package_id}/zip");
    let response = browser.get(&b, &zip_path, None).await;
    assert_eq!(response.status(), 200);
    let archive = response.bytes().await.unwrap().to_vec();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive.clone())).unwrap();
    assert_eq!(zip.len(), 2);
    for index in 0..zip.len() {
        let mut entry = zip.by_index(index).unwrap();
        let mut content = Vec::new();
        entry.read_to_end(&mut content).unwrap();
        let name = entry.name().unwrap().to_string();
        let expected: &[u8] = if name.ends_with("Katalog groß.pdf") {
            &big
        } else {
            small
        };
        assert!(content == expected, "{name} holds other bytes");
    }
    let from = archive.len() - PART / 2;
    let rest = browser
        .get(&a, &zip_path, Some(&format!("bytes={from}-")))
        .await;
    assert_eq!(rest.status(), 206);
    assert_eq!(rest.bytes().await.unwrap().as_ref(), &archive[from..]);
    eprintln!("files done after {:?}", started.elapsed());

    // Pending contacts, made on A and B in turn.
    let mut expected = BTreeSet::new();
    for i in 0..CONTACTS {
        let email = format!("kunde{i:02}@example.de");
        let on = if i % 2 == 0 { &a } else { &b };
        let (status, answer) = browser
            .call(
                on,
                "POST",
                "/api/contacts",
                Some(json!({
                    "customerNumber": 100_001 + i,
                    "companyName": format!("Händler {i} GmbH"),
                    "email": email,
                    "salutation": 2,
                    "firstname": "Max",
                    "lastname": format!("Kunde {i}"),
                    "listsIds": [list],
                })),
            )
            .await;
        assert_eq!(status, 201, "{answer}");
        expected.insert(email);
    }

    // The mass mail starts on A; B, running too, takes part.
    let (status, answer) = browser.call(&a, "POST", "/api/smtp/emails", None).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["code"], "job_started", "{answer}");
    assert_eq!(answer["count"], CONTACTS);
    let deadline = Instant::now() + Duration::from_secs(30);
    while smtp_b.mails().len() < 3 || smtp_a.mails().is_empty() {
        assert!(
            Instant::now() < deadline,
            "both instances should send: A sent {}, B sent {}",
            smtp_a.mails().len(),
            smtp_b.mails().len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // A's next mail reaches its relay, but A dies before it hears the "250 OK": A's item
    // stays `sending`, and whether the mail left is unknown to the portal.
    smtp_a.hold_next_delivering();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !smtp_a.is_holding() {
        assert!(
            Instant::now() < deadline,
            "A sent no further mail ({} so far, B {})",
            smtp_a.mails().len(),
            smtp_b.mails().len()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    a.kill();
    let by_a = smtp_a.mails();
    let before_kill: Vec<ReceivedMail> = by_a.iter().chain(&smtp_b.mails()).cloned().collect();
    eprintln!(
        "A killed after {:?}: A sent {} (the last unanswered), B {}",
        started.elapsed(),
        by_a.len(),
        before_kill.len() - by_a.len()
    );
    let mut seen = BTreeSet::new();
    for mail in &before_kill {
        assert!(
            seen.insert(recipient(mail)),
            "while both ran, {} got two mails",
            recipient(mail)
        );
    }
    let held = recipient(by_a.last().unwrap());

    // B finishes the job, including A's unanswered item once it counts as abandoned.
    let deadline = Instant::now() + Duration::from_secs(150);
    let job = loop {
        let (status, answer) = browser.call(&b, "GET", "/api/smtp/emails", None).await;
        assert_eq!(status, 200, "{answer}");
        if answer["job"]["status"] == "done" {
            break answer["job"].clone();
        }
        assert!(
            Instant::now() < deadline,
            "the job did not finish on B within 150 s after the kill: {answer}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    eprintln!("job done after {:?}: {job}", started.elapsed());
    assert_eq!(
        (
            job["total"].as_u64(),
            job["sent"].as_u64(),
            job["failed"].as_u64()
        ),
        (Some(CONTACTS as u64), Some(CONTACTS as u64), Some(0)),
        "{job}"
    );

    // Every contact got the mail, each contact one mail (one Message-ID); the only second
    // copy is A's unanswered mail, sent again by B as the same mail.
    let mut per_contact: BTreeMap<String, Vec<ReceivedMail>> = BTreeMap::new();
    for mail in smtp_a.mails().into_iter().chain(smtp_b.mails()) {
        per_contact.entry(recipient(&mail)).or_default().push(mail);
    }
    assert_eq!(
        per_contact.keys().cloned().collect::<BTreeSet<_>>(),
        expected,
        "every pending contact, and no one else"
    );
    for (to, mails) in &per_contact {
        let ids: BTreeSet<String> = mails.iter().map(message_id).collect();
        assert_eq!(ids.len(), 1, "{to} got different mails: {ids:?}");
        let copies = if *to == held { 2 } else { 1 };
        assert_eq!(mails.len(), copies, "{to}: {} copies", mails.len());
    }

    // A link from a mail A sent points at the shared address and works on B.
    let mail = &by_a[0];
    let link = format!("http://127.0.0.1:{public_port}/user/verify-double-opt-in/");
    assert!(mail.decoded().contains(&link), "{}", mail.decoded());
    let token = mail.double_opt_in_token().expect("a link in the mail");
    let (status, answer) = browser
        .call(
            &b,
            "PATCH",
            &format!("/api/contacts/confirm-double-opt-in/{token}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{answer}");

    // A restarted A knows the session; signed out on B, it is gone there too.
    let mut a = Instance::start("a2", work, &test_db.url, &with_smtp(&smtp_a));
    a.wait_for_health().await;
    let (status, me) = browser.call(&a, "GET", "/api/login/user", None).await;
    assert_eq!(status, 200, "{me}");

    let a = announce_on_both_with_a_kill(AnnouncementRun {
        browser: &mut browser,
        a,
        b: &b,
        smtp: (&smtp_a, &smtp_b),
        restart: Box::new(|| Instance::start("a3", work, &test_db.url, &with_smtp(&smtp_a))),
        db: &test_db.db,
        provider,
        list,
        expected: &expected,
    })
    .await;

    let session = browser.cookie.clone().unwrap();
    let response = browser.get(&b, "/api/auth/logout", None).await;
    assert!(response.status().is_redirection(), "{}", response.status());
    assert!(browser.cookie.is_none(), "the logout clears the cookie");
    let response = browser
        .client
        .get(a.url("/api/login/user"))
        .header(COOKIE, session)
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        401,
        "the old cookie no longer works on A"
    );
    b.kill();
    eprintln!("test took {:?}", started.elapsed());
}

/// What the announcement's part of the test works with.
struct AnnouncementRun<'a> {
    browser: &'a mut Browser,
    a: Instance,
    b: &'a Instance,
    /// The relays of A and B.
    smtp: (&'a FakeSmtp, &'a FakeSmtp),
    /// Starts A again on the same database and relay.
    restart: Box<dyn FnOnce() -> Instance + 'a>,
    db: &'a aktionsportal::db::Db,
    provider: i64,
    list: i64,
    /// Every contact's address.
    expected: &'a BTreeSet<String>,
}

/// A package's announcement (issue 37) to the contacts, now confirmed, sent by both instances;
/// A is killed while a mail is unanswered and started again. Every address gets the mail
/// exactly once (one Message-ID; A's unanswered mail is sent again as the same mail), none is
/// skipped, and the status says so. Answers the restarted A.
async fn announce_on_both_with_a_kill(run: AnnouncementRun<'_>) -> Instance {
    let AnnouncementRun {
        browser,
        mut a,
        b,
        smtp: (smtp_a, smtp_b),
        restart,
        db,
        provider,
        list,
        expected,
    } = run;
    aktionsportal::db_run!(db, pool => {
        sqlx::query("update contacts set double_opt_in = true")
            .execute(pool)
            .await
            .map(|_| ())
    })
    .unwrap();
    let today = chrono::Utc::now().date_naive();
    let (status, package) = browser
        .call(
            b,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Winteraktion",
                "startAt": (today - chrono::Days::new(1)).to_string(),
                "endAt": (today + chrono::Days::new(30)).to_string(),
                "ProviderId": provider, "listsIds": [list], "uploadsToInsert": [],
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    let path = format!("/api/download/{}/announcement", package["id"]);
    let announcement = json!({
        "announce": true, "subject": "Neu: {Paket}", "text": "Jetzt im Portal.",
        "reminderDays": 3, "confirmStarted": true,
    });
    let (status, view) = browser.call(&a, "PUT", &path, Some(announcement)).await;
    assert_eq!(status, 200, "{view}");
    let announced = |smtp: &FakeSmtp| -> Vec<ReceivedMail> {
        smtp.mails()
            .into_iter()
            .filter(|m| {
                m.header("Subject")
                    .is_some_and(|s| s.contains("Winteraktion"))
            })
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while announced(smtp_a).is_empty() || announced(smtp_b).len() < 2 {
        assert!(Instant::now() < deadline, "both instances should announce");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The hold of the mass mail's part is over (its connection died with the first A).
    smtp_a.release();
    smtp_a.hold_next_delivering();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !smtp_a.is_holding() {
        assert!(Instant::now() < deadline, "A sent no further announcement");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    a.kill();
    let held = recipient(announced(smtp_a).last().unwrap());
    let mut a = restart();
    a.wait_for_health().await;

    let deadline = Instant::now() + Duration::from_secs(150);
    let view = loop {
        let (status, view) = browser.call(b, "GET", &path, None).await;
        assert_eq!(status, 200, "{view}");
        if view["mails"]["sent"] == json!(CONTACTS) {
            break view;
        }
        assert!(
            Instant::now() < deadline,
            "the announcement did not finish: {view}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert_eq!(
        view["mails"],
        json!({"recipients": CONTACTS, "sent": CONTACTS, "failed": 0, "waiting": 0, "skipped": 0}),
        "{view}"
    );
    let mut per_contact: BTreeMap<String, Vec<ReceivedMail>> = BTreeMap::new();
    for mail in announced(smtp_a).into_iter().chain(announced(smtp_b)) {
        per_contact.entry(recipient(&mail)).or_default().push(mail);
    }
    assert_eq!(
        per_contact.keys().cloned().collect::<BTreeSet<_>>(),
        *expected,
        "every confirmed contact of the list, and no one else"
    );
    for (to, mails) in &per_contact {
        let ids: BTreeSet<String> = mails.iter().map(message_id).collect();
        assert_eq!(ids.len(), 1, "{to} got different announcements: {ids:?}");
        let copies = if *to == held { 2 } else { 1 };
        assert_eq!(mails.len(), copies, "{to}: {} copies", mails.len());
    }
    // Restarted, A queues nothing again: the announcement went out once.
    tokio::time::sleep(Duration::from_secs(11)).await;
    assert_eq!(
        announced(smtp_a).len() + announced(smtp_b).len(),
        CONTACTS + 1,
        "no second round after the restart"
    );
    a
}
