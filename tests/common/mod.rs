//! Test helpers: the real portal on a random port of 127.0.0.1 with a fresh database of
//! the run's backend (see `aktionsportal::test_support`), and a client that does not follow
//! redirects, so tests see exactly what a browser is told.
#![allow(dead_code)]

pub mod fake_brevo;

use std::net::SocketAddr;

use aktionsportal::config::Config;
use aktionsportal::domain::user::User;
use aktionsportal::startup::{self, AppState};
use aktionsportal::test_support::TestDb;
use tokio::sync::oneshot;

pub struct TestApp {
    pub addr: SocketAddr,
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

    /// A live session for a user with these roles, as a login would create it.
    pub async fn session_with_roles(&self, roles: &[&str]) -> String {
        let user = User {
            name: "Erika Musterfrau".into(),
            customer_number: Some(100_001),
            email: "erika@example.de".into(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
        };
        aktionsportal::auth::session::create(
            &self.test_db.db,
            None,
            "test:erika",
            &user,
            chrono::Utc::now(),
        )
        .await
        .expect("session")
    }
}

impl TestApp {
    /// A provider stored directly, without marketing folders (as data from before folders
    /// were required); the API cannot create one like this.
    pub async fn provider_without_folders(&self, name: &str, role: &str) -> i64 {
        aktionsportal::db::providers::create(
            &self.test_db.db,
            &aktionsportal::db::providers::NewProvider {
                name: name.into(),
                allowed_roles: vec![role.into()],
                brevo_active_folder_id: None,
                brevo_inactive_folder_id: None,
                upload_id: None,
            },
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

pub fn test_config(test_db: &TestDb) -> Config {
    Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: test_db.data_dir.clone(),
        product_name: "Testmarke".into(),
        assets_dir: test_db.data_dir.join("no-islands-build"),
        partner_signup_url: "https://partner.example.de/werden".into(),
        customer_center_url: "https://kunden.example.de/".into(),
        ..Config::default()
    }
}

/// Starts the portal with the default test configuration.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Starts the portal after `adjust` changed the test configuration.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    let test_db = TestDb::new().await;
    let mut config = test_config(&test_db);
    adjust(&mut config);
    let state = AppState::new(config, test_db.db.clone()).expect("state");
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
