//! Test helpers: the real portal on a random port of 127.0.0.1 with a fresh database of
//! the run's backend (see `aktionsportal::test_support`), and a client that does not follow
//! redirects, so tests see exactly what a browser is told.
#![allow(dead_code)]

pub mod binary;
pub mod chaos;
pub mod fake_brevo;
pub mod fake_smtp;
pub mod moto;
pub mod permission_table;

use std::net::SocketAddr;

use aktionsportal::config::Config;
use aktionsportal::domain::user::User;
use aktionsportal::startup;
use aktionsportal::state::AppState;
use aktionsportal::test_support::TestDb;
use tokio::sync::oneshot;

pub struct TestApp {
    pub addr: SocketAddr,
    /// `GET /metrics` when the test switched metrics on (`config.metrics_addr`).
    pub metrics_addr: Option<SocketAddr>,
    pub client: reqwest::Client,
    pub test_db: TestDb,
    shutdown: Option<oneshot::Sender<()>>,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("request")
    }

    /// GET with the session cookie of `token`.
    pub async fn get_as(&self, token: &str, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .header("cookie", format!("ap_session={token}"))
            .send()
            .await
            .expect("request")
    }

    /// GET with the session of `token` and extra request headers (Range, If-None-Match, …).
    pub async fn get_with(
        &self,
        token: &str,
        path: &str,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut request = self
            .client
            .get(self.url(path))
            .header("cookie", format!("ap_session={token}"));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("request")
    }

    /// A JSON call with the session of `token`: the status and the answer (JSON, or the
    /// text as a JSON string when the answer is not JSON).
    pub async fn call(
        &self,
        token: &str,
        method: &str,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> (u16, serde_json::Value) {
        let mut request = self
            .client
            .request(method.parse().unwrap(), self.url(path))
            .header("cookie", format!("ap_session={token}"));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("answer");
        (
            status,
            serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text)),
        )
    }

    /// A live session for a user with these roles, as a login would create it. Sessions with
    /// the same roles belong to the same person.
    pub async fn session_with_roles(&self, roles: &[&str]) -> String {
        self.session_as(&format!("test:{}", roles.join("+")), roles)
            .await
    }

    /// A live session of the person `subject` (two subjects are two people, e.g. two
    /// moderators) with these roles.
    pub async fn session_as(&self, subject: &str, roles: &[&str]) -> String {
        let user = User {
            name: "Erika Musterfrau".into(),
            customer_number: Some(100_001),
            email: "erika@example.de".into(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
            subject: subject.into(),
        };
        aktionsportal::auth::session::create(&self.test_db.db, None, &user, chrono::Utc::now())
            .await
            .expect("session")
    }
}

impl TestApp {
    /// A provider created through the API (automatic folders), with one role; its id.
    pub async fn create_provider(&self, admin: &str, name: &str, role: &str) -> i64 {
        let (status, provider) = self
            .call(
                admin,
                "POST",
                "/api/providers/",
                Some(serde_json::json!({
                    "name": name,
                    "allowedRoles": [role],
                    "brevoActiveFolderId": "auto",
                    "brevoInactiveFolderId": "auto",
                })),
            )
            .await;
        assert_eq!(status, 200, "{provider}");
        provider["id"].as_i64().expect("provider id")
    }

    /// A list (criterion) of a provider created through the API; its id.
    pub async fn create_list(&self, admin: &str, provider: i64, name: &str) -> i64 {
        let (status, list) = self
            .call(
                admin,
                "POST",
                &format!("/api/providers/{provider}/lists"),
                Some(serde_json::json!({ "name": name })),
            )
            .await;
        assert_eq!(status, 200, "{list}");
        list["id"].as_i64().expect("list id")
    }

    /// A package "Frühjahr Glasfaser" of `provider` on `list` that started yesterday and ends
    /// Package `package`'s files (`Uploads`) once `expected` of them have their preview (or
    /// 30 s have passed): previews are made after upload.
    pub async fn files_with_previews(
        &self,
        token: &str,
        package: i64,
        expected: usize,
    ) -> serde_json::Value {
        let started = std::time::Instant::now();
        loop {
            let (status, view) = self
                .call(token, "GET", &format!("/api/download/{package}"), None)
                .await;
            assert_eq!(status, 200, "{view}");
            let ready = view["Uploads"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["previewUrl"].is_string())
                .count();
            if ready >= expected || started.elapsed() > std::time::Duration::from_secs(30) {
                return view["Uploads"].clone();
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }

    /// in 30 days, as the announcement tests send it at once; its id.
    pub async fn started_package(&self, admin: &str, provider: i64, list: i64) -> i64 {
        let (start, end) = days_around(1, 30);
        self.create_package(
            admin,
            provider,
            "Frühjahr Glasfaser",
            &[list],
            (&start, &end),
        )
        .await
    }

    /// A package of `provider` named `name` on `lists`, from `start` to `end` (days), without
    /// files, created through the API; its id.
    pub async fn create_package(
        &self,
        admin: &str,
        provider: i64,
        name: &str,
        lists: &[i64],
        days: (&str, &str),
    ) -> i64 {
        let package = self
            .create_package_with_files(admin, provider, name, lists, days, &[])
            .await;
        package["id"].as_i64().expect("package id")
    }

    /// The same with the uploads `files`; the package as the API answers it.
    pub async fn create_package_with_files(
        &self,
        admin: &str,
        provider: i64,
        name: &str,
        lists: &[i64],
        (start, end): (&str, &str),
        files: &[i64],
    ) -> serde_json::Value {
        let (status, package) = self
            .call(
                admin,
                "POST",
                "/api/download/",
                Some(serde_json::json!({
                    "name": name,
                    "startAt": start,
                    "endAt": end,
                    "ProviderId": provider,
                    "listsIds": lists,
                    "uploadsToInsert": files,
                })),
            )
            .await;
        assert_eq!(status, 200, "{package}");
        package
    }

    /// A contact "Nina Neu" of customer number 200001 ("Müller GmbH") with this consent and
    /// block, on `lists`, written straight into the database; its id.
    pub async fn contact_on_lists(&self, email: &str, state: (bool, bool), lists: &[i64]) -> i64 {
        self.contact_of(200_001, email, state, lists).await
    }

    /// A contact "Nina Neu" of `customer_number` (its company named "Müller GmbH") with this
    /// consent and block, on `lists`, written straight into the database; its id.
    pub async fn contact_of(
        &self,
        customer_number: i64,
        email: &str,
        (confirmed, blocked): (bool, bool),
        lists: &[i64],
    ) -> i64 {
        use aktionsportal::db::contacts;
        let db = &self.test_db.db;
        contacts::upsert_company(db, customer_number, "Müller GmbH")
            .await
            .unwrap();
        let created = contacts::create_contact(
            db,
            &contacts::NewContact {
                customer_number,
                brevo_contact_id: None,
                email: email.into(),
                salutation: 3,
                firstname: "Nina".into(),
                lastname: "Neu".into(),
                extern_id: None,
                double_opt_in: confirmed,
                email_blacklisted: blocked,
            },
        )
        .await
        .unwrap();
        contacts::set_lists(db, created.id, lists).await.unwrap();
        created.id
    }

    /// Uploads one file as `files[0]`; the status and the answer.
    pub async fn upload(
        &self,
        token: &str,
        name: &str,
        bytes: impl AsRef<[u8]>,
    ) -> (u16, serde_json::Value) {
        let form = reqwest::multipart::Form::new().part(
            "files[0]",
            reqwest::multipart::Part::bytes(bytes.as_ref().to_vec()).file_name(name.to_string()),
        );
        let response = self
            .client
            .post(self.url("/api/upload/"))
            .header("cookie", format!("ap_session={token}"))
            .multipart(form)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (
            status,
            response.json().await.unwrap_or(serde_json::Value::Null),
        )
    }

    /// The session of a dealer (GS-Aktionsportal) whose customer number has a contact on
    /// `lists`: the packages offered to them are the dealer's.
    pub async fn dealer_session(&self, customer_number: i64, lists: &[i64]) -> String {
        use aktionsportal::db::contacts;
        let db = &self.test_db.db;
        contacts::upsert_company(db, customer_number, "Müller GmbH")
            .await
            .expect("company");
        let email = format!("kunde{customer_number}@example.de");
        let contact = contacts::create_contact(
            db,
            &contacts::NewContact {
                customer_number,
                brevo_contact_id: None,
                email: email.clone(),
                salutation: 2,
                firstname: "Max".into(),
                lastname: "Müller".into(),
                extern_id: None,
                double_opt_in: true,
                email_blacklisted: false,
            },
        )
        .await
        .expect("contact");
        contacts::set_lists(db, contact.id, lists)
            .await
            .expect("lists");
        let user = User {
            name: "Max Müller".into(),
            customer_number: Some(customer_number),
            email,
            roles: vec![aktionsportal::domain::roles::PORTAL.into()],
            subject: format!("test:dealer{customer_number}"),
        };
        aktionsportal::auth::session::create(db, None, &user, chrono::Utc::now())
            .await
            .expect("session")
    }

    /// The files in the store's shard folders (`ab/ab12….pdf`), not counting the staging
    /// folder.
    pub fn stored_files(&self) -> Vec<String> {
        let root = self.test_db.data_dir.join("files");
        let mut found = Vec::new();
        for shard in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            let shard_name = shard.file_name().to_string_lossy().into_owned();
            if shard_name.starts_with('.') {
                continue;
            }
            for file in std::fs::read_dir(shard.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                found.push(format!(
                    "{shard_name}/{}",
                    file.file_name().to_string_lossy()
                ));
            }
        }
        found.sort();
        found
    }

    /// A provider stored directly, without marketing folders (as data from before folders
    /// were required); the API cannot create one like this.
    pub async fn provider_without_folders(&self, name: &str, role: &str) -> i64 {
        aktionsportal::db::marketing::providers::create(
            &self.test_db.db,
            &aktionsportal::db::marketing::providers::NewProvider {
                name: name.into(),
                allowed_roles: vec![role.into()],
                brevo_active_folder_id: None,
                brevo_inactive_folder_id: None,
                upload_id: None,
            },
            &aktionsportal::test_support::cli_change(),
        )
        .await
        .expect("provider")
        .id
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// A PDF of `len` bytes: the header, then bytes that do not repeat within a multipart part.
pub fn big_pdf(len: usize) -> Vec<u8> {
    let mut bytes = b"%PDF-1.4\n".to_vec();
    let mut state = 0x2545_f491_u32;
    while bytes.len() < len {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        bytes.push(state as u8);
    }
    bytes
}

pub fn test_config(test_db: &TestDb) -> Config {
    Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: test_db.data_dir.clone(),
        product_name: "Testmarke".into(),
        assets_dir: test_db.data_dir.join("no-islands-build"),
        partner_signup_url: "https://partner.example.de/werden".into(),
        customer_center_url: "https://kunden.example.de/".into(),
        // Tests that count stored files or logs stay as they were; tests/previews.rs and the
        // bucket and browser tests switch previews on (see `with_previews`).
        previews: false,
        ..Config::default()
    }
}

/// The path (`/files/{id}/{name}`) of upload `upload` in `package` as the API answered it.
pub fn file_path(package: &serde_json::Value, upload: &serde_json::Value) -> String {
    package["Uploads"]
        .as_array()
        .expect("the package's files")
        .iter()
        .find(|u| u["id"] == upload["id"])
        .and_then(|u| u["path"].as_str())
        .expect("the file in the package")
        .to_string()
}

/// The body of `PUT /api/download/{id}/announcement` that switches the announcement on for a
/// started package (confirmed) with the notice `reminder_days` before the end.
pub fn announcement_on(reminder_days: i64) -> serde_json::Value {
    serde_json::json!({
        "announce": true,
        "subject": "Neu: {Paket}",
        "text": "Ab sofort gültig bis {Gültig bis}.",
        "reminderDays": reminder_days,
        "confirmStarted": true,
    })
}

/// The days `before` days before and `after` days after today (`YYYY-MM-DD`), as the package
/// form takes them.
pub fn days_around(before: u64, after: u64) -> (String, String) {
    let today = chrono::Utc::now().date_naive();
    (
        (today - chrono::Days::new(before)).to_string(),
        (today + chrono::Days::new(after)).to_string(),
    )
}

/// Switches previews on, rendered by the portal binary Cargo built for these tests.
pub fn with_previews(config: &mut Config) {
    config.previews = true;
    config.preview_renderer = Some(env!("CARGO_BIN_EXE_aktionsportal").into());
}

/// Starts the portal with the default test configuration.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// The portal in Brevo mode against a fresh fake Brevo; `timeout_ms` bounds each Brevo call
/// (short, so a timeout case takes a second rather than forty).
pub async fn spawn_app_with_brevo(timeout_ms: u64) -> (TestApp, fake_brevo::FakeBrevo) {
    let brevo = fake_brevo::FakeBrevo::start().await;
    let (url, key) = (brevo.base_url.clone(), brevo.api_key().to_string());
    let app = spawn_app_with(move |config| {
        config.brevo_api_key = Some(key);
        config.brevo_base_url = url;
        config.brevo_timeout_ms = timeout_ms;
    })
    .await;
    (app, brevo)
}

/// The portal sending its package mails to a fresh fake SMTP server, quickly (200 a second,
/// a passing failure tried again after a second), with a public address and an Impressum.
pub async fn spawn_app_with_smtp() -> (TestApp, fake_smtp::FakeSmtp) {
    spawn_app_with_smtp_at(200, false).await
}

/// The same at `per_second` mails a second, in production mode or not (the double opt-in
/// mail to all pending contacts runs only in production).
pub async fn spawn_app_with_smtp_at(
    per_second: u32,
    production: bool,
) -> (TestApp, fake_smtp::FakeSmtp) {
    spawn_smtp_app(per_second, production, |_| {}).await
}

/// [`spawn_app_with_smtp`] after `adjust` changed the configuration further.
pub async fn spawn_app_with_smtp_and(
    adjust: impl FnOnce(&mut Config),
) -> (TestApp, fake_smtp::FakeSmtp) {
    spawn_smtp_app(200, false, adjust).await
}

async fn spawn_smtp_app(
    per_second: u32,
    production: bool,
    adjust: impl FnOnce(&mut Config),
) -> (TestApp, fake_smtp::FakeSmtp) {
    let smtp = fake_smtp::FakeSmtp::start().await;
    let addr = smtp.addr;
    let app = spawn_app_with(move |config| {
        config.smtp_host = Some(addr.ip().to_string());
        config.smtp_port = addr.port();
        config.smtp_security = aktionsportal::integrations::mail::SmtpSecurity::None;
        config.mail_per_second = per_second;
        config.production = production;
        config.mail_retry_secs = 1;
        config.public_url = Some("https://portal.example.de".into());
        config.impressum_company = Some("Muster Vertrieb GmbH".into());
        adjust(config);
    })
    .await;
    (app, smtp)
}

/// Starts the portal after `adjust` changed the test configuration.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    let test_db = TestDb::new().await;
    let db = test_db.db.clone();
    spawn_app_on(test_db, db, adjust).await
}

/// Starts the portal on `db` (e.g. the test database reached through a [`chaos::ChaosProxy`]);
/// the test's own helpers keep using `test_db` directly.
pub async fn spawn_app_on(
    test_db: TestDb,
    db: aktionsportal::db::Db,
    adjust: impl FnOnce(&mut Config),
) -> TestApp {
    let mut config = test_config(&test_db);
    adjust(&mut config);
    let state = AppState::new(config, db).expect("state");
    let (tx, rx) = oneshot::channel::<()>();
    let server = startup::serve(state, "127.0.0.1:0".parse().unwrap(), async {
        let _ = rx.await;
    })
    .await
    .expect("serve");
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    TestApp {
        addr: server.addr,
        metrics_addr: server.metrics_addr,
        client,
        test_db,
        shutdown: Some(tx),
    }
}

/// Asserts a redirect to `location` and returns nothing else worth checking.
pub fn assert_redirect(response: &reqwest::Response, location: &str) {
    assert!(
        response.status().is_redirection(),
        "{} answered {} instead of a redirect",
        response.url(),
        response.status()
    );
    assert_eq!(
        response
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok()),
        Some(location),
        "redirect target of {}",
        response.url()
    );
}
