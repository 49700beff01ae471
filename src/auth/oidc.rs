//! Sign-in through the company directory with OpenID Connect: authorization code flow with
//! PKCE and nonce (`openidconnect` crate). The ID token's signature, issuer, audience, expiry
//! and nonce are verified by the crate; roles, name, email and customer number are then read
//! from the verified token's claims under the configured names.

use crate::integrations::error_chain;
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use openidconnect::core::{CoreClient, CoreResponseType};
use openidconnect::{
    AuthenticationFlow, AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl,
    LogoutRequest, Nonce, PkceCodeChallenge, PkceCodeVerifier, PostLogoutRedirectUrl,
    ProviderMetadataWithLogout, RedirectUrl, Scope,
};
use serde_json::Value;
use tokio::sync::RwLock;

use crate::config::Config;
use crate::db::{self, Db};
use crate::domain::secret::{hash_token, is_token_shaped, new_token};
use crate::domain::user::User;

/// How long discovered provider metadata (endpoints and signing keys) is reused.
const METADATA_TTL: Duration = Duration::from_secs(3600);
/// How long a login may take at the provider before its state expires.
pub const LOGIN_TIMEOUT: chrono::Duration = chrono::Duration::minutes(15);

/// The cookie that binds an OpenID login to the browser that started it: the callback is
/// taken only with the same value (login CSRF: a callback URL of someone else's login, opened
/// in a victim's browser, would sign the victim in as that someone).
pub const BROWSER_COOKIE: &str = "ap_login";

/// The starting browser's binding: the value of its cookie when it has one (several tabs may
/// be signing in at once), else a new random one.
pub fn browser_binding(headers: &axum::http::HeaderMap) -> String {
    crate::auth::session::cookie_value(headers, BROWSER_COOKIE)
        .filter(|value| is_token_shaped(value))
        .unwrap_or_else(new_token)
}

/// The `Set-Cookie` value that keeps the binding for as long as a login may take.
pub fn browser_cookie(value: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{BROWSER_COOKIE}={value}; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        LOGIN_TIMEOUT.num_seconds()
    )
}

/// A completed OpenID login.
#[derive(Debug)]
pub struct FinishedLogin {
    /// With `oidc:` plus the token's subject as its `subject`.
    pub user: User,
    /// The page the user came from (a checked same-origin path), if any.
    pub return_to: Option<String>,
}

#[derive(Clone, Debug)]
pub struct OidcSettings {
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Option<String>,
    pub redirect_url: String,
    pub scopes: Vec<String>,
    pub claims: ClaimNames,
    /// Where the provider sends the browser after logging out there.
    pub post_logout_redirect_url: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ClaimNames {
    pub groups: String,
    pub name: String,
    pub email: String,
    pub customer_number: String,
}

impl OidcSettings {
    /// The settings when the configuration names an issuer.
    pub fn from_config(config: &Config) -> Option<OidcSettings> {
        let issuer = config.oidc_issuer.clone()?;
        Some(OidcSettings {
            issuer,
            client_id: config.oidc_client_id.clone()?,
            client_secret: config.oidc_client_secret.clone(),
            redirect_url: config.oidc_redirect_url()?,
            scopes: config
                .oidc_scopes
                .split_whitespace()
                .filter(|s| *s != "openid")
                .map(str::to_string)
                .collect(),
            claims: ClaimNames {
                groups: config.oidc_groups_claim.clone(),
                name: config.oidc_name_claim.clone(),
                email: config.oidc_email_claim.clone(),
                customer_number: config.oidc_customer_number_claim.clone(),
            },
            post_logout_redirect_url: config
                .public_url
                .as_deref()
                .map(|url| format!("{}/login", url.trim_end_matches('/'))),
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    #[error("Anmeldedienst nicht erreichbar: {0}")]
    Discovery(String),
    #[error("Anmeldung abgebrochen oder unbekannt")]
    UnknownState,
    /// The callback was opened in another browser than the login's start (login CSRF).
    #[error("Anmeldung in einem anderen Browser begonnen")]
    OtherBrowser,
    #[error("Anmeldung vom Anmeldedienst abgelehnt: {0}")]
    Denied(String),
    #[error("Token-Austausch fehlgeschlagen: {0}")]
    Exchange(String),
    #[error("ID-Token ungültig: {0}")]
    InvalidToken(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// The OpenID provider as the portal uses it; cheap to clone.
#[derive(Clone)]
pub struct Oidc {
    settings: Arc<OidcSettings>,
    http: reqwest::Client,
    metadata: Arc<RwLock<Option<(Instant, ProviderMetadataWithLogout)>>>,
}

impl Oidc {
    /// `http` must not follow redirects (the crate's advice against SSRF).
    pub fn new(settings: OidcSettings, http: reqwest::Client) -> Oidc {
        Oidc {
            settings: Arc::new(settings),
            http,
            metadata: Arc::new(RwLock::new(None)),
        }
    }

    async fn provider_metadata(
        &self,
        fresh: bool,
    ) -> Result<ProviderMetadataWithLogout, OidcError> {
        if !fresh
            && let Some((fetched, metadata)) = self.metadata.read().await.as_ref()
            && fetched.elapsed() < METADATA_TTL
        {
            return Ok(metadata.clone());
        }
        let issuer = IssuerUrl::new(self.settings.issuer.clone())
            .map_err(|e| OidcError::Discovery(e.to_string()))?;
        let metadata = ProviderMetadataWithLogout::discover_async(issuer, &self.http)
            .await
            .map_err(|e| OidcError::Discovery(error_chain(&e)))?;
        *self.metadata.write().await = Some((Instant::now(), metadata.clone()));
        Ok(metadata)
    }

    fn client(
        &self,
        metadata: ProviderMetadataWithLogout,
    ) -> Result<
        CoreClient<
            openidconnect::EndpointSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointMaybeSet,
            openidconnect::EndpointMaybeSet,
        >,
        OidcError,
    > {
        let redirect = RedirectUrl::new(self.settings.redirect_url.clone())
            .map_err(|e| OidcError::Discovery(e.to_string()))?;
        Ok(CoreClient::from_provider_metadata(
            metadata,
            ClientId::new(self.settings.client_id.clone()),
            self.settings.client_secret.clone().map(ClientSecret::new),
        )
        .set_redirect_uri(redirect))
    }

    /// Starts a login: remembers state, PKCE verifier, nonce, the page to return to and the
    /// hash of `browser` (the value of the starting browser's login cookie), and returns the
    /// provider's authorization URL to send the browser to.
    pub async fn start_login(
        &self,
        db: &Db,
        return_to: Option<&str>,
        browser: &str,
    ) -> Result<String, OidcError> {
        let client = self.client(self.provider_metadata(false).await?)?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client
            .authorize_url(
                AuthenticationFlow::<CoreResponseType>::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .set_pkce_challenge(challenge);
        for scope in &self.settings.scopes {
            request = request.add_scope(Scope::new(scope.clone()));
        }
        let (url, state, nonce) = request.url();
        db::accounts::oidc_logins::create(
            db,
            &db::accounts::oidc_logins::NewLogin {
                state_hash: &hash_token(state.secret()),
                pkce_verifier: verifier.secret(),
                nonce: nonce.secret(),
                return_to,
                browser_hash: &hash_token(browser),
            },
        )
        .await?;
        Ok(url.to_string())
    }

    /// Completes a login from the provider's redirect in the browser that started it
    /// (`browser`: the value of its login cookie): exchanges the code, verifies the ID token
    /// and returns the user with the token's subject. A `state` is used once, whatever the
    /// outcome.
    pub async fn finish_login(
        &self,
        db: &Db,
        code: &str,
        state: &str,
        browser: Option<&str>,
    ) -> Result<FinishedLogin, OidcError> {
        let pending = db::accounts::oidc_logins::take(db, &hash_token(state))
            .await?
            .filter(|p| p.created_at + LOGIN_TIMEOUT > chrono::Utc::now())
            .ok_or(OidcError::UnknownState)?;
        // Someone else's callback URL opened here would sign this browser in as them.
        let same_browser = browser
            .zip(pending.browser_hash.as_deref())
            .is_some_and(|(browser, stored)| hash_token(browser) == stored);
        if !same_browser {
            return Err(OidcError::OtherBrowser);
        }
        let client = self.client(self.provider_metadata(false).await?)?;
        let response = client
            .exchange_code(AuthorizationCode::new(code.to_string()))
            .map_err(|e| OidcError::Exchange(e.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(pending.pkce_verifier))
            .request_async(&self.http)
            .await
            .map_err(|e| OidcError::Exchange(error_chain(&e)))?;
        let id_token = openidconnect::TokenResponse::id_token(&response)
            .ok_or_else(|| OidcError::InvalidToken("kein ID-Token erhalten".into()))?;
        let nonce = Nonce::new(pending.nonce);
        let verified = id_token.claims(&client.id_token_verifier(), &nonce);
        let claims = match verified {
            Ok(claims) => claims,
            Err(first) => {
                // The provider may have rotated its keys since discovery: fetch them once more.
                let client = self.client(self.provider_metadata(true).await?)?;
                match id_token.claims(&client.id_token_verifier(), &nonce) {
                    Ok(claims) => claims,
                    Err(_) => return Err(OidcError::InvalidToken(first.to_string())),
                }
            }
        };
        let payload = token_payload(&id_token.to_string())?;
        let mut user = user_from_claims(&payload, &self.settings.claims);
        user.subject = format!("oidc:{}", claims.subject().as_str());
        Ok(FinishedLogin {
            user,
            return_to: pending.return_to,
        })
    }

    /// The provider's logout URL, when it offers RP-initiated logout.
    pub async fn logout_url(&self) -> Option<String> {
        let metadata = self.provider_metadata(false).await.ok()?;
        let endpoint = metadata
            .additional_metadata()
            .end_session_endpoint
            .clone()?;
        let mut request = LogoutRequest::from(endpoint)
            .set_client_id(ClientId::new(self.settings.client_id.clone()));
        if let Some(url) = &self.settings.post_logout_redirect_url
            && let Ok(url) = PostLogoutRedirectUrl::new(url.clone())
        {
            request = request.set_post_logout_redirect_uri(url);
        }
        Some(request.http_get_url().to_string())
    }
}

/// The JSON payload of an (already verified) compact JWT.
fn token_payload(jwt: &str) -> Result<Value, OidcError> {
    let part = jwt
        .split('.')
        .nth(1)
        .ok_or_else(|| OidcError::InvalidToken("kein JWT".into()))?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(part.trim_end_matches('='))
        .map_err(|e| OidcError::InvalidToken(e.to_string()))?;
    serde_json::from_slice(&bytes).map_err(|e| OidcError::InvalidToken(e.to_string()))
}

/// Reads a claim by name; dots address nested objects (`realm_access.roles`). A claim whose
/// name itself contains dots (common for URI-named claims) is found too.
fn claim<'a>(payload: &'a Value, name: &str) -> Option<&'a Value> {
    payload.get(name).or_else(|| {
        name.split('.')
            .try_fold(payload, |value, key| value.get(key))
    })
}

/// The portal user described by ID-token claims (its `subject` is set by the caller from the
/// verified token).
pub fn user_from_claims(payload: &Value, names: &ClaimNames) -> User {
    let text = |name: &str| {
        claim(payload, name)
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let mut roles: Vec<String> = match claim(payload, &names.groups) {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        Some(Value::String(s)) => s.split(',').map(str::to_string).collect(),
        _ => Vec::new(),
    };
    // Keycloak's group mapper writes full paths such as "/GS-Aktionsportal-Admin".
    roles = roles
        .into_iter()
        .map(|r| r.trim().trim_start_matches('/').to_string())
        .filter(|r| !r.is_empty())
        .collect();
    roles.dedup();
    let customer_number = match claim(payload, &names.customer_number) {
        Some(Value::Number(n)) => n.as_i64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    let email = text(&names.email).unwrap_or_default();
    let name = text(&names.name)
        .or_else(|| text("preferred_username"))
        .unwrap_or_else(|| email.clone());
    User {
        name,
        customer_number,
        email,
        roles,
        subject: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(groups: &str) -> ClaimNames {
        ClaimNames {
            groups: groups.into(),
            name: "name".into(),
            email: "email".into(),
            customer_number: "customer_number".into(),
        }
    }

    #[test]
    fn roles_come_from_the_groups_claim() {
        let payload = json!({
            "name": "Erika Muster", "email": "erika@example.de", "customer_number": "100001",
            "groups": ["GS-Aktionsportal-Admin", "/GS-Aktionsportal-BU-Glasfaser", ""]
        });
        let user = user_from_claims(&payload, &names("groups"));
        assert_eq!(
            user.roles,
            vec!["GS-Aktionsportal-Admin", "GS-Aktionsportal-BU-Glasfaser"]
        );
        assert_eq!(user.customer_number, Some(100_001));
        assert_eq!(user.name, "Erika Muster");
    }

    #[test]
    fn nested_and_dotted_claim_names_are_found() {
        let payload = json!({
            "realm_access": { "roles": ["GS-Provision"] },
            "https://example.de/kundennummer": 4711,
            "preferred_username": "erika"
        });
        let user = user_from_claims(&payload, &names("realm_access.roles"));
        assert_eq!(user.roles, vec!["GS-Provision"]);
        assert_eq!(user.name, "erika");
        let mut custom = names("groups");
        custom.customer_number = "https://example.de/kundennummer".into();
        assert_eq!(
            user_from_claims(&payload, &custom).customer_number,
            Some(4711)
        );
    }

    #[test]
    fn missing_claims_give_no_roles() {
        let user = user_from_claims(&json!({"sub": "x"}), &names("groups"));
        assert!(user.roles.is_empty());
        assert_eq!(user.customer_number, None);
    }

    #[test]
    fn payload_of_a_compact_jwt() {
        let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(br#"{"sub":"abc"}"#);
        let value = token_payload(&format!("e30.{payload}.sig")).unwrap();
        assert_eq!(value["sub"], "abc");
        assert!(token_payload("kaputt").is_err());
    }
}
