//! OpenID Connect round trips against a fake OpenID provider on 127.0.0.1 that serves a
//! discovery document, a JWKS and a token endpoint issuing RSA-signed ID tokens.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Form, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::{TestApp, assert_redirect, spawn_app_with};
use rsa::RsaPrivateKey;
use rsa::pkcs1v15::SigningKey;
use rsa::signature::{SignatureEncoding, Signer};
use rsa::traits::PublicKeyParts;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const CLIENT_ID: &str = "aktionsportal";

/// What the fake provider puts into the ID token it issues for a code.
#[derive(Clone)]
struct Grant {
    challenge: String,
    claims: Value,
    /// Sign with a key that is not in the JWKS.
    foreign_key: bool,
}

#[derive(Clone)]
struct FakeProvider {
    issuer: String,
    key: Arc<RsaPrivateKey>,
    foreign: Arc<RsaPrivateKey>,
    grants: Arc<Mutex<HashMap<String, Grant>>>,
}

impl FakeProvider {
    async fn start() -> FakeProvider {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let mut rng = rand::thread_rng();
        let provider = FakeProvider {
            issuer,
            key: Arc::new(RsaPrivateKey::new(&mut rng, 2048).unwrap()),
            foreign: Arc::new(RsaPrivateKey::new(&mut rng, 2048).unwrap()),
            grants: Arc::default(),
        };
        let app = Router::new()
            .route("/.well-known/openid-configuration", get(discovery))
            .route("/jwks", get(jwks))
            .route("/token", post(token))
            .with_state(provider.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        provider
    }

    fn sign(&self, claims: &Value, foreign_key: bool) -> String {
        let header =
            URL_SAFE_NO_PAD.encode(json!({"alg": "RS256", "kid": "k1", "typ": "JWT"}).to_string());
        let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
        let input = format!("{header}.{payload}");
        let key = if foreign_key {
            &self.foreign
        } else {
            &self.key
        };
        let signature = SigningKey::<Sha256>::new((**key).clone()).sign(input.as_bytes());
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(signature.to_bytes()))
    }

    /// The user authorises at the provider: the provider remembers the grant for `code`.
    fn authorize(&self, code: &str, grant: Grant) {
        self.grants.lock().unwrap().insert(code.into(), grant);
    }

    /// The grant of a user with these roles for the authorisation request `params`.
    fn grant(&self, params: &HashMap<String, String>, groups: &[&str]) -> Grant {
        Grant {
            challenge: params["code_challenge"].clone(),
            claims: self.claims(&params["nonce"], groups),
            foreign_key: false,
        }
    }

    /// Standard claims for an authorisation request, with the given roles.
    fn claims(&self, nonce: &str, groups: &[&str]) -> Value {
        let now = chrono::Utc::now().timestamp();
        json!({
            "iss": self.issuer, "sub": "entra-4711", "aud": CLIENT_ID,
            "iat": now, "exp": now + 300, "nonce": nonce,
            "name": "Olga OIDC", "email": "olga@example.de", "customer_number": "100002",
            "groups": groups,
        })
    }
}

async fn discovery(State(p): State<FakeProvider>) -> Json<Value> {
    Json(json!({
        "issuer": p.issuer,
        "authorization_endpoint": format!("{}/authorize", p.issuer),
        "token_endpoint": format!("{}/token", p.issuer),
        "jwks_uri": format!("{}/jwks", p.issuer),
        "end_session_endpoint": format!("{}/logout", p.issuer),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
    }))
}

async fn jwks(State(p): State<FakeProvider>) -> Json<Value> {
    let public = p.key.to_public_key();
    Json(json!({ "keys": [{
        "kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
        "n": URL_SAFE_NO_PAD.encode(public.n().to_bytes_be()),
        "e": URL_SAFE_NO_PAD.encode(public.e().to_bytes_be()),
    }]}))
}

async fn token(
    State(p): State<FakeProvider>,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Json<Value>, (axum::http::StatusCode, Json<Value>)> {
    let invalid = || {
        (
            axum::http::StatusCode::BAD_REQUEST,
            Json(json!({"error": "invalid_grant"})),
        )
    };
    let code = form.get("code").ok_or_else(invalid)?;
    let grant = p.grants.lock().unwrap().remove(code).ok_or_else(invalid)?;
    // PKCE: the verifier must hash to the challenge of the authorisation request.
    let verifier = form.get("code_verifier").ok_or_else(invalid)?;
    if URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) != grant.challenge {
        return Err(invalid());
    }
    Ok(Json(json!({
        "access_token": "at-1", "token_type": "Bearer", "expires_in": 300,
        "id_token": p.sign(&grant.claims, grant.foreign_key),
    })))
}

/// Starts a login at the portal and returns the authorisation request's parameters.
async fn start_login(app: &TestApp, provider: &FakeProvider) -> HashMap<String, String> {
    start_login_at(app, provider, "/api/auth/login").await
}

/// Starts a login at `path` (the login endpoint, maybe with a page to return to) in a new
/// browser; the parameters carry that browser's login cookie as `browser`.
async fn start_login_at(
    app: &TestApp,
    provider: &FakeProvider,
    path: &str,
) -> HashMap<String, String> {
    start_login_in(app, provider, path, None).await
}

/// Starts a login at `path` in the browser whose login cookie is `browser` (`None`: a browser
/// without one).
async fn start_login_in(
    app: &TestApp,
    provider: &FakeProvider,
    path: &str,
    browser: Option<&str>,
) -> HashMap<String, String> {
    let mut request = app.client.get(app.url(path));
    if let Some(browser) = browser {
        request = request.header("cookie", format!("ap_login={browser}"));
    }
    let response = request.send().await.unwrap();
    assert!(response.status().is_redirection());
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let cookie = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("ap_login="))
        .expect("the login cookie")
        .to_string();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(cookie.contains("Path=/api/auth"), "{cookie}");
    assert!(
        location.starts_with(&format!("{}/authorize?", provider.issuer)),
        "{location}"
    );
    let url = reqwest::Url::parse(&location).unwrap();
    let params: HashMap<String, String> = url.query_pairs().into_owned().collect();
    assert_eq!(params["response_type"], "code");
    assert_eq!(params["client_id"], CLIENT_ID);
    assert_eq!(params["code_challenge_method"], "S256");
    assert!(params["scope"].split(' ').any(|s| s == "openid"));
    let mut params = params;
    let value = cookie["ap_login=".len()..].split(';').next().unwrap();
    params.insert("browser".into(), value.to_string());
    params
}

async fn spawn_with_provider() -> (TestApp, FakeProvider) {
    let provider = FakeProvider::start().await;
    let issuer = provider.issuer.clone();
    let app = spawn_app_with(move |config| {
        config.oidc_issuer = Some(issuer);
        config.oidc_client_id = Some(CLIENT_ID.into());
        config.oidc_client_secret = Some("geheim".into());
        config.oidc_redirect_url = Some("http://127.0.0.1/api/auth/callback".into());
        config.public_url = Some("http://127.0.0.1".into());
    })
    .await;
    (app, provider)
}

/// The provider sends the browser that started the login (`params`) back with `code`.
async fn callback(
    app: &TestApp,
    code: &str,
    params: &HashMap<String, String>,
) -> reqwest::Response {
    callback_in(app, code, &params["state"], Some(&params["browser"])).await
}

/// The callback opened in the browser with the login cookie `browser` (`None`: without one).
async fn callback_in(
    app: &TestApp,
    code: &str,
    state: &str,
    browser: Option<&str>,
) -> reqwest::Response {
    let mut request = app
        .client
        .get(app.url(&format!("/api/auth/callback?code={code}&state={state}")));
    if let Some(browser) = browser {
        request = request.header("cookie", format!("ap_login={browser}"));
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn a_directory_user_logs_in_with_their_groups_as_roles() {
    let (app, provider) = spawn_with_provider().await;
    let params = start_login(&app, &provider).await;
    provider.authorize(
        "code-1",
        provider.grant(
            &params,
            &[
                "GS-Aktionsportal-BU-Moderator",
                "GS-Aktionsportal-BU-Glasfaser",
            ],
        ),
    );
    let response = callback(&app, "code-1", &params).await;
    assert_redirect(&response, "/user/downloads");
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_string();
    let token = cookie
        .trim_start_matches("ap_session=")
        .split(';')
        .next()
        .unwrap()
        .to_string();

    let user: Value = app
        .get_as(&token, "/api/auth/responseUserData")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(user["name"], "Olga OIDC");
    assert_eq!(user["email"], "olga@example.de");
    assert_eq!(user["customerNumber"], 100_002);
    assert_eq!(
        user["roles"],
        json!([
            "GS-Aktionsportal-BU-Moderator",
            "GS-Aktionsportal-BU-Glasfaser"
        ])
    );
    assert_eq!(app.get_as(&token, "/admin/contacts").await.status(), 200);

    // The state is used up: the same callback again is refused.
    assert_redirect(&callback(&app, "code-1", &params).await, "/login-failed");

    // Logging out also ends the session at the provider.
    let response = app.get_as(&token, "/api/auth/logout").await;
    let location = response.headers()["location"].to_str().unwrap();
    assert!(
        location.starts_with(&format!("{}/logout?", provider.issuer)),
        "{location}"
    );
    assert!(location.contains("client_id=aktionsportal"));
    assert!(
        location.contains("post_logout_redirect_uri=http%3A%2F%2F127.0.0.1%2Flogin"),
        "{location}"
    );
    assert_eq!(
        app.get_as(&token, "/api/auth/responseUserData")
            .await
            .status(),
        401
    );
}

#[tokio::test]
async fn a_directory_user_returns_to_the_page_they_came_from_and_never_elsewhere() {
    let (app, provider) = spawn_with_provider().await;
    let cases = [
        (
            "%2Fadmin%2Fdownloads%3Fsuche%3Dx",
            "/admin/downloads?suche=x",
        ),
        ("%2F%2Fevil.example", "/user/downloads"),
        ("https%3A%2F%2Fevil.example%2F", "/user/downloads"),
        ("%2F%5Cevil.example", "/user/downloads"),
        ("%2F%252F%252Fevil.example", "/user/downloads"),
    ];
    for (i, (next, expected)) in cases.into_iter().enumerate() {
        let params = start_login_at(&app, &provider, &format!("/api/auth/login?next={next}")).await;
        let code = format!("code-{i}");
        provider.authorize(&code, provider.grant(&params, &["GS-Aktionsportal"]));
        assert_redirect(&callback(&app, &code, &params).await, expected);
    }
}

/// Runs a login whose ID token is changed by `tamper`; it must end on /login-failed.
async fn assert_login_fails(tamper: impl FnOnce(&FakeProvider, &HashMap<String, String>) -> Grant) {
    let (app, provider) = spawn_with_provider().await;
    let params = start_login(&app, &provider).await;
    provider.authorize("code-x", tamper(&provider, &params));
    let response = callback(&app, "code-x", &params).await;
    assert_redirect(&response, "/login-failed");
    assert!(response.headers().get("set-cookie").is_none());
}

#[tokio::test]
async fn a_token_signed_with_an_unknown_key_is_refused() {
    assert_login_fails(|p, params| Grant {
        challenge: params["code_challenge"].clone(),
        claims: p.claims(&params["nonce"], &["GS-Aktionsportal-Admin"]),
        foreign_key: true,
    })
    .await;
}

#[tokio::test]
async fn a_token_with_another_nonce_is_refused() {
    assert_login_fails(|p, params| Grant {
        challenge: params["code_challenge"].clone(),
        claims: p.claims("replayed-nonce", &["GS-Aktionsportal-Admin"]),
        foreign_key: false,
    })
    .await;
}

#[tokio::test]
async fn an_expired_token_is_refused() {
    assert_login_fails(|p, params| {
        let mut claims = p.claims(&params["nonce"], &["GS-Aktionsportal-Admin"]);
        let past = chrono::Utc::now().timestamp() - 3600;
        claims["iat"] = json!(past - 300);
        claims["exp"] = json!(past);
        Grant {
            challenge: params["code_challenge"].clone(),
            claims,
            foreign_key: false,
        }
    })
    .await;
}

#[tokio::test]
async fn a_token_for_another_client_is_refused() {
    assert_login_fails(|p, params| {
        let mut claims = p.claims(&params["nonce"], &["GS-Aktionsportal-Admin"]);
        claims["aud"] = json!("other-app");
        Grant {
            challenge: params["code_challenge"].clone(),
            claims,
            foreign_key: false,
        }
    })
    .await;
}

#[tokio::test]
async fn a_wrong_pkce_verifier_gets_no_token() {
    assert_login_fails(|p, params| Grant {
        challenge: "not-the-challenge".into(),
        claims: p.claims(&params["nonce"], &["GS-Aktionsportal-Admin"]),
        foreign_key: false,
    })
    .await;
}

#[tokio::test]
async fn a_cancelled_or_unknown_login_lands_on_login_failed() {
    let (app, provider) = spawn_with_provider().await;
    let params = start_login(&app, &provider).await;
    let response = app
        .get(&format!(
            "/api/auth/callback?error=access_denied&state={}",
            params["state"]
        ))
        .await;
    assert_redirect(&response, "/login-failed");
    assert_redirect(
        &callback_in(&app, "code-1", "erfundener-state", Some(&params["browser"])).await,
        "/login-failed",
    );
    assert_redirect(&app.get("/api/auth/callback").await, "/login-failed");
}

#[tokio::test]
async fn an_unreachable_provider_lands_on_login_failed() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let issuer = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let app = spawn_app_with(move |config| {
        config.oidc_issuer = Some(issuer);
        config.oidc_client_id = Some(CLIENT_ID.into());
        config.oidc_redirect_url = Some("http://127.0.0.1/api/auth/callback".into());
    })
    .await;
    assert_redirect(&app.get("/api/auth/login").await, "/login-failed");
}

#[tokio::test]
async fn local_accounts_do_not_sign_in_when_a_provider_is_configured() {
    let (app, _provider) = spawn_with_provider().await;
    aktionsportal::services::accounts::add(
        &app.test_db.db,
        aktionsportal::services::accounts::AccountInput {
            login: "lokal".into(),
            password: "Sommer-Aktion-2026".into(),
            name: None,
            email: "lokal@example.de".into(),
            customer_number: None,
            roles: vec!["GS-Aktionsportal-Admin".into()],
        },
    )
    .await
    .unwrap();
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .form(&[("login", "lokal"), ("password", "Sommer-Aktion-2026")])
        .send()
        .await
        .unwrap();
    assert_redirect(&response, "/api/auth/login");
    assert!(response.headers().get("set-cookie").is_none());
}

#[tokio::test]
async fn a_callback_opened_in_another_browser_fails_and_the_starting_browser_signs_in() {
    let (app, provider) = spawn_with_provider().await;
    let grant = |params: &HashMap<String, String>| provider.grant(params, &["GS-Aktionsportal"]);
    // An attacker starts a login and sends the callback URL to a victim: the victim's browser
    // has no login cookie, or another one.
    for other_browser in [None, Some("0".repeat(64))] {
        let params = start_login(&app, &provider).await;
        provider.authorize("code-a", grant(&params));
        let response =
            callback_in(&app, "code-a", &params["state"], other_browser.as_deref()).await;
        assert_redirect(&response, "/login-failed");
        assert!(response.headers().get("set-cookie").is_none());
        // The state is used up: not even the starting browser can finish it now.
        assert_redirect(&callback(&app, "code-a", &params).await, "/login-failed");
    }

    // Two tabs of one browser keep one cookie, and each finishes its own login.
    let first = start_login(&app, &provider).await;
    let second = start_login_in(&app, &provider, "/api/auth/login", Some(&first["browser"])).await;
    assert_eq!(first["browser"], second["browser"]);
    for (code, params) in [("code-1", &first), ("code-2", &second)] {
        provider.authorize(code, grant(params));
        let response = callback(&app, code, params).await;
        assert_redirect(&response, "/user/downloads");
        assert!(
            response.headers()["set-cookie"]
                .to_str()
                .unwrap()
                .starts_with("ap_session=")
        );
    }
}

#[tokio::test]
async fn starting_logins_is_throttled_per_address_and_said_in_german() {
    let (app, provider) = spawn_with_provider().await;
    // Finished logins give their start back.
    for i in 0..25 {
        let params = start_login(&app, &provider).await;
        let code = format!("code-{i}");
        provider.authorize(&code, provider.grant(&params, &["GS-Aktionsportal"]));
        assert_redirect(&callback(&app, &code, &params).await, "/user/downloads");
    }
    // Abandoned ones count: twenty per address within fifteen minutes.
    for _ in 0..aktionsportal::auth::throttle::MAX_ATTEMPTS_PER_ADDRESS {
        start_login(&app, &provider).await;
    }
    let refused = app.get("/api/auth/login").await;
    assert_redirect(&refused, "/login-failed?fehler=zu-viele&minuten=15");
    assert!(refused.headers().get("set-cookie").is_none());
    let page = app
        .get("/login-failed?fehler=zu-viele&minuten=15")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        page.contains(
            "Von Ihrer Adresse wurden zu viele Anmeldungen begonnen. Bitte versuchen Sie es in 15 Minuten erneut."
        ),
        "{page}"
    );
    let rows: i64 = aktionsportal::db_run!(&app.test_db.db, pool => {
        sqlx::query_scalar("select count(*) from oidc_logins").fetch_one(pool).await.unwrap()
    });
    assert_eq!(rows, 20, "a refused start writes no row");
    // The lock is lifted by the operator command for the address, too.
    assert!(
        aktionsportal::services::accounts::unlock(
            &app.test_db.db,
            &aktionsportal::auth::throttle::ThrottleKey::LoginStart("127.0.0.1".parse().unwrap()),
        )
        .await
        .unwrap()
    );
    start_login(&app, &provider).await;
}
