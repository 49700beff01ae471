//! Local login, sessions, logout and CSRF protection over real HTTP.

mod common;

use aktionsportal::auth::session;
use aktionsportal::db;
use aktionsportal::domain::user::User;
use aktionsportal::services::accounts::{self, AccountInput};
use chrono::{Duration, Utc};
use common::{TestApp, assert_redirect, spawn_app, spawn_app_with};

const PASSWORD: &str = "Sommer-Aktion-2026";

async fn add_account(app: &TestApp, login: &str, roles: &[&str]) {
    accounts::add(
        &app.test_db.db,
        AccountInput {
            login: login.into(),
            password: PASSWORD.into(),
            name: Some("Erika Musterfrau".into()),
            email: format!("{login}@example.de"),
            customer_number: Some(100_001),
            roles: roles.iter().map(|r| r.to_string()).collect(),
        },
    )
    .await
    .unwrap();
}

async fn post_login(app: &TestApp, login: &str, password: &str) -> reqwest::Response {
    app.client
        .post(app.url("/api/auth/login"))
        .header("origin", format!("http://{}", app.addr))
        .form(&[("login", login), ("password", password)])
        .send()
        .await
        .unwrap()
}

fn session_cookie(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("ap_session="))
        .map(str::to_string)
}

fn token_of(cookie: &str) -> String {
    cookie
        .trim_start_matches("ap_session=")
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn login_form_is_german_and_posts_back_to_the_endpoint() {
    let app = spawn_app().await;
    let response = app.get("/api/auth/login").await;
    assert_eq!(response.status(), 200);
    let body = response.text().await.unwrap();
    assert!(
        body.contains(r#"<form method="post" action="/api/auth/login""#),
        "{body}"
    );
    assert!(body.contains(r#"name="login""#) && body.contains(r#"name="password""#));
    assert!(body.contains("Passwort"));

    let body = app
        .get("/api/auth/login?fehler=zugangsdaten")
        .await
        .text()
        .await
        .unwrap();
    assert!(body.contains("Login oder Passwort ist nicht korrekt."));
}

#[tokio::test]
async fn a_local_user_logs_in_sees_their_data_and_logs_out() {
    let app = spawn_app().await;
    add_account(&app, "erika", &["GS-Aktionsportal"]).await;

    let response = post_login(&app, "erika", PASSWORD).await;
    assert_redirect(&response, "/user/downloads");
    let cookie = session_cookie(&response).expect("session cookie");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/")
    );
    assert!(!cookie.contains("Secure"), "plain http on 127.0.0.1");
    let token = token_of(&cookie);

    let user: User = app
        .get_as(&token, "/api/auth/responseUserData")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(user.name, "Erika Musterfrau");
    assert_eq!(user.customer_number, Some(100_001));
    assert_eq!(user.email, "erika@example.de");
    assert_eq!(user.roles, vec!["GS-Aktionsportal".to_string()]);
    let raw: serde_json::Value = app
        .get_as(&token, "/api/login/user")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        raw["customerNumber"], 100_001,
        "fields are camelCase as spec section 3 names them"
    );

    assert_eq!(app.get_as(&token, "/user/downloads").await.status(), 200);
    assert_redirect(
        &app.get_as(&token, "/admin/contacts").await,
        "/unauthorized",
    );
    assert_redirect(
        &app.get_as(&token, "/api/auth/login").await,
        "/user/downloads",
    );

    let response = app.get_as(&token, "/api/auth/logout").await;
    assert_redirect(&response, "/login");
    assert!(session_cookie(&response).unwrap().contains("Max-Age=0"));
    assert!(
        session::user_for_token(&app.test_db.db, &token, Utc::now())
            .await
            .unwrap()
            .is_none()
    );
    let response = app.get_as(&token, "/api/auth/responseUserData").await;
    assert_eq!(response.status(), 401);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], "unauthorized_login");
}

#[tokio::test]
async fn not_logged_in_calls_answer_401_with_their_codes() {
    let app = spawn_app().await;
    let response = app.get("/api/login/user").await;
    assert_eq!(response.status(), 401);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], "not_logged_in");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("nicht angemeldet")
    );
    let body: serde_json::Value = app
        .get("/api/auth/responseUserData")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["code"], "unauthorized_login");
}

#[tokio::test]
async fn wrong_credentials_get_one_generic_message_and_no_session() {
    let app = spawn_app().await;
    add_account(&app, "erika", &["GS-Aktionsportal"]).await;
    for (login, password) in [
        ("erika", "falsch-falsch"),
        ("niemand", PASSWORD),
        ("", ""),
        ("erika", ""),
    ] {
        let response = post_login(&app, login, password).await;
        assert_redirect(&response, "/api/auth/login?fehler=zugangsdaten");
        assert!(session_cookie(&response).is_none());
    }
}

#[tokio::test]
async fn repeated_failures_lock_the_account_for_a_while() {
    let app = spawn_app().await;
    add_account(&app, "erika", &["GS-Aktionsportal"]).await;
    for _ in 0..5 {
        assert_redirect(
            &post_login(&app, "erika", "falsch-falsch").await,
            "/api/auth/login?fehler=zugangsdaten",
        );
    }
    let response = post_login(&app, "erika", PASSWORD).await;
    assert_redirect(&response, "/api/auth/login?fehler=gesperrt&minuten=15");
    assert!(
        session_cookie(&response).is_none(),
        "even the right password waits"
    );
    let body = app
        .get("/api/auth/login?fehler=gesperrt&minuten=15")
        .await
        .text()
        .await
        .unwrap();
    assert!(body.contains("Zu viele fehlgeschlagene Anmeldeversuche"));
}

#[tokio::test]
async fn cross_site_writes_are_refused() {
    let app = spawn_app().await;
    add_account(&app, "erika", &["GS-Aktionsportal"]).await;
    for (name, value) in [
        ("origin", "https://evil.example"),
        ("sec-fetch-site", "cross-site"),
    ] {
        let response = app
            .client
            .post(app.url("/api/auth/login"))
            .header(name, value)
            .form(&[("login", "erika"), ("password", PASSWORD)])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 403, "{name}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["code"], "cross_site_request");
    }
    let same_origin = app
        .client
        .post(app.url("/api/auth/login"))
        .header("sec-fetch-site", "same-origin")
        .form(&[("login", "erika"), ("password", PASSWORD)])
        .send()
        .await
        .unwrap();
    assert_redirect(&same_origin, "/user/downloads");
}

#[tokio::test]
async fn cookies_are_secure_behind_a_trusted_https_proxy() {
    let app = spawn_app_with(|config| config.trusted_proxies = "127.0.0.1".into()).await;
    add_account(&app, "erika", &["GS-Aktionsportal"]).await;
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .header("x-forwarded-proto", "https")
        .form(&[("login", "erika"), ("password", PASSWORD)])
        .send()
        .await
        .unwrap();
    assert!(session_cookie(&response).unwrap().contains("; Secure"));
    assert!(
        response.headers().contains_key("strict-transport-security"),
        "HSTS over https"
    );
}

#[tokio::test]
async fn forwarding_headers_of_untrusted_clients_are_ignored() {
    let app = spawn_app().await;
    add_account(&app, "erika", &["GS-Aktionsportal"]).await;
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .header("x-forwarded-proto", "https")
        .form(&[("login", "erika"), ("password", PASSWORD)])
        .send()
        .await
        .unwrap();
    assert!(!session_cookie(&response).unwrap().contains("; Secure"));
    assert!(!response.headers().contains_key("strict-transport-security"));
}

#[tokio::test]
async fn a_login_replaces_the_session_the_browser_brought_and_ends_it() {
    let app = spawn_app().await;
    add_account(&app, "erika", &["GS-Aktionsportal"]).await;
    let first = token_of(&session_cookie(&post_login(&app, "erika", PASSWORD).await).unwrap());
    assert_eq!(app.get_as(&first, "/user/downloads").await.status(), 200);
    // The next login comes from a browser that still holds (or was given) the first cookie.
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .header("origin", format!("http://{}", app.addr))
        .header("cookie", format!("ap_session={first}"))
        .form(&[("login", "erika"), ("password", PASSWORD)])
        .send()
        .await
        .unwrap();
    let second = token_of(&session_cookie(&response).expect("the cookie is replaced"));
    assert_ne!(first, second);
    assert_eq!(app.get_as(&second, "/user/downloads").await.status(), 200);
    // The old cookie no longer signs anyone in: the page sends the browser to the login.
    let old = app.get_as(&first, "/user/downloads").await;
    assert!(old.status().is_redirection(), "{}", old.status());
    let location = old.headers()["location"].to_str().unwrap();
    assert!(location.starts_with("/login"), "{location}");
}

#[tokio::test]
async fn expired_and_idle_sessions_end() {
    let app = spawn_app().await;
    let user = User {
        name: "Erika".into(),
        customer_number: None,
        email: "erika@example.de".into(),
        roles: vec!["GS-Aktionsportal".into()],
        subject: "test".into(),
    };
    let now = Utc::now();
    let token = session::create(&app.test_db.db, None, &user, now)
        .await
        .unwrap();
    assert_eq!(app.get_as(&token, "/user/downloads").await.status(), 200);
    // Idle longer than the idle timeout.
    let later = now + session::IDLE_TIMEOUT + Duration::minutes(1);
    assert!(
        session::user_for_token(&app.test_db.db, &token, later)
            .await
            .unwrap()
            .is_none()
    );
    assert_redirect(
        &app.get_as(&token, "/user/downloads").await,
        "/login?next=%2Fuser%2Fdownloads",
    );

    // Active all along, but past the absolute limit.
    let token = session::create(&app.test_db.db, None, &user, now)
        .await
        .unwrap();
    db::accounts::sessions::touch(
        &app.test_db.db,
        &db::accounts::sessions::hash_token(&token),
        now + Duration::hours(23),
    )
    .await
    .unwrap();
    let after = now + session::ABSOLUTE_TIMEOUT + Duration::minutes(1);
    assert!(
        session::user_for_token(&app.test_db.db, &token, after)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn removing_an_account_ends_its_sessions() {
    let app = spawn_app().await;
    add_account(&app, "erika", &["GS-Aktionsportal"]).await;
    let token = token_of(&session_cookie(&post_login(&app, "erika", PASSWORD).await).unwrap());
    assert_eq!(app.get_as(&token, "/user/downloads").await.status(), 200);
    accounts::remove(&app.test_db.db, "erika").await.unwrap();
    assert_redirect(
        &app.get_as(&token, "/user/downloads").await,
        "/login?next=%2Fuser%2Fdownloads",
    );
}

async fn post_login_returning_to(app: &TestApp, next: &str) -> reqwest::Response {
    app.client
        .post(app.url("/api/auth/login"))
        .form(&[("login", "erika"), ("password", PASSWORD), ("next", next)])
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn after_signing_in_the_user_returns_to_the_page_and_never_elsewhere() {
    let app = spawn_app().await;
    add_account(&app, "erika", &["GS-Aktionsportal-Admin"]).await;
    // The guard remembers the page; the login page and the form carry it on.
    assert_redirect(
        &app.get("/admin/provider/7?x=1").await,
        "/login?next=%2Fadmin%2Fprovider%2F7%3Fx%3D1",
    );
    let login_page = app
        .get("/login?next=%2Fadmin%2Fprovider%2F7%3Fx%3D1")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        login_page.contains("url=/api/auth/login?next=%2Fadmin%2Fprovider%2F7%3Fx%3D1"),
        "{login_page}"
    );
    let form = app
        .get("/api/auth/login?next=%2Fadmin%2Fprovider%2F7%3Fx%3D1")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        form.contains(r#"name="next" value="/admin/provider/7?x=1""#),
        "{form}"
    );
    assert_redirect(
        &post_login_returning_to(&app, "/admin/provider/7?x=1").await,
        "/admin/provider/7?x=1",
    );
    for hostile in [
        // Dot segments that collapse into `//evil.example` only when normalised.
        "/.//evil.example/x",
        "/x/..//evil.example",
        "/%2e//evil.example",
        "//evil.example",
        "https://evil.example/",
        "/\\evil.example",
        "/%2F%2Fevil.example",
        "%2F%2Fevil.example",
        "/%5Cevil.example",
        "/%255C%255Cevil.example",
        "/\t/evil.example",
        "javascript:alert(1)",
    ] {
        assert_redirect(
            &post_login_returning_to(&app, hostile).await,
            "/user/downloads",
        );
        let login_page = app
            .get(&format!(
                "/login?next={}",
                url::form_urlencoded::byte_serialize(hostile.as_bytes()).collect::<String>()
            ))
            .await
            .text()
            .await
            .unwrap();
        assert!(
            login_page.contains("url=/api/auth/login\""),
            "{hostile}: {login_page}"
        );
    }
    // A wrong password keeps the page for the next try.
    let wrong = app
        .client
        .post(app.url("/api/auth/login"))
        .form(&[
            ("login", "erika"),
            ("password", "falsch"),
            ("next", "/admin/downloads"),
        ])
        .send()
        .await
        .unwrap();
    assert_redirect(
        &wrong,
        "/api/auth/login?fehler=zugangsdaten&next=%2Fadmin%2Fdownloads",
    );
}

/// A request without the login form, or with values longer than the description states, is
/// refused with a German message instead of being taken for wrong credentials.
#[tokio::test]
async fn a_login_without_the_form_or_with_overlong_values_is_refused() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], "validation_error");
    assert!(body["message"].as_str().unwrap().contains("Formular"));
    let long = "x".repeat(1025);
    let response = post_login(&app, "erika", &long).await;
    assert_eq!(response.status(), 400);
    let response = post_login(&app, "erika", "falsch").await;
    assert_eq!(
        response.status(),
        303,
        "a form of the right shape is a login attempt"
    );
}
