//! Typed client for the parts of Brevo's API v3 the portal uses: contact folders, contact
//! lists, contacts and transactional email (`shared/reference/external-apis.md` §1).
//!
//! - Every request carries `api-key`, `accept: application/json` and, with a body,
//!   `content-type: application/json`, and has the configured timeout.
//! - Requests to `/contacts/...` (folders, lists and contacts all count against Brevo's
//!   10 requests/second) are paced client-side: at most
//!   [`BrevoConfig::contacts_per_second`] per second across all clones of a client.
//! - Failed attempts are retried with exponential back-off on 429 (waiting
//!   `x-sib-ratelimit-reset` seconds when given), 5xx, timeouts and connection errors; never on
//!   other 4xx. A POST (it creates something) is only repeated when Brevo certainly did not act
//!   on it: 429, 502/503/504 or a failed connect — never after a timeout or a 500.
//! - Logs carry method, route (without identifiers or query), status and attempt; never the
//!   key, email addresses or bodies.
//! - An answer longer than [`MAX_ANSWER_BYTES`] is refused unread, like the planning system's
//!   and the content site's.

mod error;
mod rate_limit;
mod types;

use crate::integrations::{BodyError, error_chain, read_body};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;

pub use error::BrevoError;
pub use types::{
    BrevoContact, BrevoContactPage, BrevoFolder, BrevoFolderLists, BrevoFolderPage, BrevoList,
    BrevoSortOrder, ContactRef, CreateContact, EmailAddress, MAX_CONTACT_PAGE, MAX_FOLDER_PAGE,
    TransactionalEmail, UpdateContact, parse_brevo_datetime,
};

use rate_limit::{Failure, Pacer, RateLimitWait};

/// Brevo's production API.
pub const DEFAULT_BASE_URL: &str = "https://api.brevo.com/v3";

/// The longest answer read from Brevo: a page of 1,000 contacts with their attributes is far
/// below.
pub const MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;

/// Settings of the Brevo client.
#[derive(Clone)]
pub struct BrevoConfig {
    /// API root including `/v3`, e.g. `https://api.brevo.com/v3` (a trailing slash is ignored).
    pub base_url: String,
    /// The `api-key` header value (`xkeysib-…`). Never printed.
    pub api_key: String,
    /// Timeout of one attempt (connect to end of body).
    pub timeout: Duration,
    /// Retries after the first attempt (so at most `max_retries + 1` attempts).
    pub max_retries: u32,
    /// Client-side pace of `/contacts/...` requests; 0 switches pacing off.
    pub contacts_per_second: u32,
    /// First back-off delay; doubled for each further retry.
    pub retry_base_delay: Duration,
    /// Upper bound of one back-off delay.
    pub max_retry_delay: Duration,
    /// Longest time one call takes with all its attempts and waits: a user action that
    /// meets a hanging Brevo gets its answer within this, however many retries are left.
    pub call_deadline: Duration,
    /// Longest wait for a rate-limit reset; a later reset gives [`BrevoError::RateLimited`]
    /// at once.
    pub max_rate_limit_wait: Duration,
}

impl Default for BrevoConfig {
    fn default() -> Self {
        Self {
            base_url: DEFAULT_BASE_URL.to_owned(),
            api_key: String::new(),
            timeout: Duration::from_secs(10),
            max_retries: 3,
            contacts_per_second: 10,
            retry_base_delay: Duration::from_millis(200),
            max_retry_delay: Duration::from_secs(5),
            max_rate_limit_wait: Duration::from_secs(10),
            call_deadline: Duration::from_secs(12),
        }
    }
}

impl fmt::Debug for BrevoConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BrevoConfig")
            .field("base_url", &self.base_url)
            .field("api_key", &redacted(&self.api_key))
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("contacts_per_second", &self.contacts_per_second)
            .field("retry_base_delay", &self.retry_base_delay)
            .field("max_retry_delay", &self.max_retry_delay)
            .field("max_rate_limit_wait", &self.max_rate_limit_wait)
            .field("call_deadline", &self.call_deadline)
            .finish()
    }
}

fn redacted(secret: &str) -> &'static str {
    if secret.is_empty() {
        "<empty>"
    } else {
        "<redacted>"
    }
}

/// Client for Brevo's API v3. Cheap to clone; clones share the pacing of `/contacts` requests.
#[derive(Clone)]
pub struct BrevoClient {
    inner: Arc<ClientInner>,
}

struct ClientInner {
    config: BrevoConfig,
    http: reqwest::Client,
    pacer: Pacer,
}

impl fmt::Debug for BrevoClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BrevoClient")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

/// One API call, before attempts.
struct Call {
    method: Method,
    /// Path below the base URL, identifiers already encoded.
    path: String,
    query: Vec<(&'static str, String)>,
    body: Option<Vec<u8>>,
    /// Route template for logs, e.g. `/contacts/{identifier}`.
    route: &'static str,
}

impl Call {
    fn new(method: Method, path: impl Into<String>, route: &'static str) -> Self {
        Self {
            method,
            path: path.into(),
            query: Vec::new(),
            body: None,
            route,
        }
    }

    fn query(mut self, query: Vec<(&'static str, String)>) -> Self {
        self.query.extend(query);
        self
    }

    fn json(mut self, body: &impl Serialize) -> Result<Self, BrevoError> {
        let bytes = serde_json::to_vec(body)
            .map_err(|e| BrevoError::InvalidResponse(format!("cannot encode request: {e}")))?;
        self.body = Some(bytes);
        Ok(self)
    }
}

/// A 2xx answer.
struct BrevoAnswer {
    status: u16,
    body: Vec<u8>,
}

impl BrevoAnswer {
    fn json<T: DeserializeOwned>(&self, what: &str) -> Result<T, BrevoError> {
        // serde_json's messages can quote values (e.g. an email); report position only.
        serde_json::from_slice(&self.body).map_err(|e| {
            BrevoError::InvalidResponse(format!(
                "{what}: {:?} error at line {} column {} (HTTP {})",
                e.classify(),
                e.line(),
                e.column(),
                self.status
            ))
        })
    }

    fn is_empty(&self) -> bool {
        self.body.iter().all(u8::is_ascii_whitespace)
    }
}

impl BrevoClient {
    pub fn new(config: BrevoConfig, http: reqwest::Client) -> Self {
        let mut config = config;
        config.base_url = config.base_url.trim().trim_end_matches('/').to_owned();
        let pacer = Pacer::new(config.contacts_per_second);
        Self {
            inner: Arc::new(ClientInner {
                config,
                http,
                pacer,
            }),
        }
    }

    /// The configuration in use (the key is redacted in its `Debug`).
    pub fn config(&self) -> &BrevoConfig {
        &self.inner.config
    }

    // -----------------------------------------------------------------------------------------
    // Folders
    // -----------------------------------------------------------------------------------------

    /// One page of folders, oldest first. `limit` is clamped to 1..=50.
    pub async fn list_folders(
        &self,
        limit: u32,
        offset: u32,
    ) -> Result<BrevoFolderPage, BrevoError> {
        let call = Call::new(Method::GET, "/contacts/folders", "/contacts/folders").query(
            page_query(limit, MAX_FOLDER_PAGE, offset, BrevoSortOrder::Asc),
        );
        self.execute(call).await?.json("folder page")
    }

    /// Every folder, paging with 50.
    pub async fn all_folders(&self) -> Result<Vec<BrevoFolder>, BrevoError> {
        let mut all = Vec::new();
        loop {
            let offset = page_offset(all.len())?;
            let page = self.list_folders(MAX_FOLDER_PAGE, offset).await?;
            let got = page.folders.len();
            all.extend(page.folders);
            if is_last_page(got, MAX_FOLDER_PAGE, all.len(), page.count) {
                return Ok(all);
            }
        }
    }

    /// Creates a folder and returns its id.
    pub async fn create_folder(&self, name: &str) -> Result<i64, BrevoError> {
        let call = Call::new(Method::POST, "/contacts/folders", "/contacts/folders")
            .json(&json!({ "name": name }))?;
        self.create(call, "created folder").await
    }

    /// Renames a folder.
    pub async fn rename_folder(&self, id: i64, name: &str) -> Result<(), BrevoError> {
        let call = Call::new(
            Method::PUT,
            format!("/contacts/folders/{id}"),
            "/contacts/folders/{folderId}",
        )
        .json(&json!({ "name": name }))?;
        self.execute(call).await.map(drop)
    }

    /// Deletes a folder — and with it every list inside it.
    pub async fn delete_folder(&self, id: i64) -> Result<(), BrevoError> {
        let call = Call::new(
            Method::DELETE,
            format!("/contacts/folders/{id}"),
            "/contacts/folders/{folderId}",
        );
        self.execute(call).await.map(drop)
    }

    // -----------------------------------------------------------------------------------------
    // Lists
    // -----------------------------------------------------------------------------------------

    /// One page of the lists of a folder (`limit` clamped to 1..=50). Brevo omits `folderId`
    /// in these items; the client fills it in.
    pub async fn folder_lists(
        &self,
        folder_id: i64,
        limit: u32,
        offset: u32,
        sort: BrevoSortOrder,
    ) -> Result<BrevoFolderLists, BrevoError> {
        let call = Call::new(
            Method::GET,
            format!("/contacts/folders/{folder_id}/lists"),
            "/contacts/folders/{folderId}/lists",
        )
        .query(page_query(limit, MAX_FOLDER_PAGE, offset, sort));
        let mut page: BrevoFolderLists = self.execute(call).await?.json("list page")?;
        for list in &mut page.lists {
            list.folder_id.get_or_insert(folder_id);
        }
        Ok(page)
    }

    /// Every list of a folder, oldest first, paging with 50.
    pub async fn all_folder_lists(&self, folder_id: i64) -> Result<Vec<BrevoList>, BrevoError> {
        let mut all = Vec::new();
        loop {
            let offset = page_offset(all.len())?;
            let page = self
                .folder_lists(folder_id, MAX_FOLDER_PAGE, offset, BrevoSortOrder::Asc)
                .await?;
            let got = page.lists.len();
            all.extend(page.lists);
            if is_last_page(got, MAX_FOLDER_PAGE, all.len(), page.count) {
                return Ok(all);
            }
        }
    }

    /// One list, with its folder id.
    pub async fn get_list(&self, id: i64) -> Result<BrevoList, BrevoError> {
        let call = Call::new(
            Method::GET,
            format!("/contacts/lists/{id}"),
            "/contacts/lists/{listId}",
        );
        self.execute(call).await?.json("list")
    }

    /// Creates a list in a folder and returns its id.
    pub async fn create_list(&self, name: &str, folder_id: i64) -> Result<i64, BrevoError> {
        let call = Call::new(Method::POST, "/contacts/lists", "/contacts/lists")
            .json(&json!({ "name": name, "folderId": folder_id }))?;
        self.create(call, "created list").await
    }

    /// Renames a list (Brevo accepts only one of name / folder per update).
    pub async fn rename_list(&self, id: i64, name: &str) -> Result<(), BrevoError> {
        self.update_list(id, json!({ "name": name })).await
    }

    /// Moves a list to another folder (Brevo accepts only one of name / folder per update).
    pub async fn move_list(&self, id: i64, folder_id: i64) -> Result<(), BrevoError> {
        self.update_list(id, json!({ "folderId": folder_id })).await
    }

    async fn update_list(&self, id: i64, body: serde_json::Value) -> Result<(), BrevoError> {
        let call = Call::new(
            Method::PUT,
            format!("/contacts/lists/{id}"),
            "/contacts/lists/{listId}",
        )
        .json(&body)?;
        self.execute(call).await.map(drop)
    }

    /// Deletes a list (its contacts stay in the account).
    pub async fn delete_list(&self, id: i64) -> Result<(), BrevoError> {
        let call = Call::new(
            Method::DELETE,
            format!("/contacts/lists/{id}"),
            "/contacts/lists/{listId}",
        );
        self.execute(call).await.map(drop)
    }

    // -----------------------------------------------------------------------------------------
    // Contacts
    // -----------------------------------------------------------------------------------------

    /// Creates a contact: `Some(id)` when created (201); `None` when it existed and
    /// `update_enabled` made Brevo update it (204). Without `update_enabled` an existing email
    /// gives [`BrevoError::Api`] with `duplicate: true`.
    pub async fn create_contact(&self, contact: &CreateContact) -> Result<Option<i64>, BrevoError> {
        let call = Call::new(Method::POST, "/contacts", "/contacts").json(contact)?;
        let answer = self.execute(call).await?;
        if answer.status == 204 || answer.is_empty() {
            return Ok(None);
        }
        let created: types::Created = answer.json("created contact")?;
        Ok(Some(created.id))
    }

    /// Updates a contact (204). Lists in `list_ids` are added, those in `unlink_list_ids`
    /// removed; other lists stay.
    pub async fn update_contact(
        &self,
        identifier: ContactRef,
        update: &UpdateContact,
    ) -> Result<(), BrevoError> {
        let (path, query) = identifier.path_and_query();
        let call = Call::new(Method::PUT, path, "/contacts/{identifier}")
            .query(query)
            .json(update)?;
        self.execute(call).await.map(drop)
    }

    /// One contact.
    pub async fn get_contact(&self, identifier: ContactRef) -> Result<BrevoContact, BrevoError> {
        let (path, query) = identifier.path_and_query();
        let call = Call::new(Method::GET, path, "/contacts/{identifier}").query(query);
        self.execute(call).await?.json("contact")
    }

    /// One page of contacts, oldest first (stable offsets for sync loops); `limit` clamped to
    /// 1..=1000. With `modified_since`, only contacts changed after that instant, and `count`
    /// counts only those.
    pub async fn list_contacts(
        &self,
        limit: u32,
        offset: u32,
        modified_since: Option<DateTime<Utc>>,
    ) -> Result<BrevoContactPage, BrevoError> {
        let mut query = page_query(limit, MAX_CONTACT_PAGE, offset, BrevoSortOrder::Asc);
        if let Some(since) = modified_since {
            query.push((
                "modifiedSince",
                since.to_rfc3339_opts(SecondsFormat::Millis, true),
            ));
        }
        let call = Call::new(Method::GET, "/contacts", "/contacts").query(query);
        self.execute(call).await?.json("contact page")
    }

    /// Deletes a contact.
    pub async fn delete_contact(&self, identifier: ContactRef) -> Result<(), BrevoError> {
        let (path, query) = identifier.path_and_query();
        let call = Call::new(Method::DELETE, path, "/contacts/{identifier}").query(query);
        self.execute(call).await.map(drop)
    }

    // -----------------------------------------------------------------------------------------
    // Transactional email
    // -----------------------------------------------------------------------------------------

    /// Sends a transactional email and returns Brevo's message id (`<…@…>`).
    /// Not repeated after a timeout: the mail may have gone out.
    pub async fn send_email(&self, email: &TransactionalEmail) -> Result<String, BrevoError> {
        let call = Call::new(Method::POST, "/smtp/email", "/smtp/email").json(email)?;
        let sent: types::SentEmail = self.execute(call).await?.json("sent email")?;
        sent.message_id
            .or_else(|| sent.message_ids.into_iter().next())
            .ok_or_else(|| BrevoError::InvalidResponse("sent email: no messageId".to_owned()))
    }

    // -----------------------------------------------------------------------------------------
    // Transport
    // -----------------------------------------------------------------------------------------

    /// A create answering `{ "id": n }`.
    async fn create(&self, call: Call, what: &str) -> Result<i64, BrevoError> {
        let created: types::Created = self.execute(call).await?.json(what)?;
        Ok(created.id)
    }

    /// Runs one call and counts its outcome for the metrics.
    async fn execute(&self, call: Call) -> Result<BrevoAnswer, BrevoError> {
        let answer = self.execute_attempts(call).await;
        crate::metrics::brevo_call(match &answer {
            Ok(_) => "ok",
            Err(err) => err.kind(),
        });
        answer
    }

    /// Runs the attempts of one call: pacing, timeout, retries, error mapping.
    async fn execute_attempts(&self, call: Call) -> Result<BrevoAnswer, BrevoError> {
        let config = &self.inner.config;
        let url = format!("{}{}", config.base_url, call.path);
        let idempotent = call.method != Method::POST;
        let paced = call.path.starts_with("/contacts");
        let method = call.method.as_str();
        let route = call.route;
        let mut attempt: u32 = 0;
        let deadline = tokio::time::Instant::now() + config.call_deadline;
        loop {
            if paced {
                self.inner.pacer.wait().await;
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return Err(BrevoError::Unavailable(format!(
                    "keine Antwort innerhalb von {} s",
                    config.call_deadline.as_secs()
                )));
            }
            let backoff =
                rate_limit::backoff_delay(attempt, config.retry_base_delay, config.max_retry_delay);
            let retries_left = attempt < config.max_retries;
            let (failure, wait, error) = match self.attempt(&call, &url, left).await {
                Ok((status, _, body)) if (200..300).contains(&status) => {
                    tracing::debug!(method, path = route, status, attempt, "Brevo request done");
                    return Ok(BrevoAnswer { status, body });
                }
                Ok((429, reset, _)) => {
                    let wait =
                        rate_limit::rate_limit_wait(reset, backoff, config.max_rate_limit_wait);
                    match wait {
                        RateLimitWait::Retry(wait) if retries_left => {
                            (Failure::Status(429), wait, BrevoError::RateLimited)
                        }
                        _ => {
                            tracing::warn!(
                                method,
                                path = route,
                                status = 429,
                                attempt,
                                "Brevo rate limit: giving up"
                            );
                            return Err(BrevoError::RateLimited);
                        }
                    }
                }
                Ok((status, _, body)) => {
                    let error = error::error_from_response(status, &body);
                    if status < 500 {
                        tracing::debug!(method, path = route, status, attempt, "Brevo refused");
                        return Err(error);
                    }
                    (Failure::Status(status), backoff, error)
                }
                Err(BodyError::TooLarge) => {
                    tracing::warn!(method, path = route, attempt, "Brevo answer too large");
                    return Err(BrevoError::InvalidResponse(format!(
                        "answer larger than {} MiB",
                        MAX_ANSWER_BYTES / 1024 / 1024
                    )));
                }
                Err(BodyError::Transport(err)) => {
                    let (failure, description) = describe_transport_error(err, config.timeout);
                    (failure, backoff, BrevoError::Unavailable(description))
                }
            };
            let in_time = tokio::time::Instant::now() + wait < deadline;
            if !(retries_left && in_time && rate_limit::may_retry(idempotent, failure)) {
                tracing::warn!(
                    method,
                    path = route,
                    ?failure,
                    attempt,
                    "Brevo request failed"
                );
                return Err(error);
            }
            tracing::warn!(
                method,
                path = route,
                ?failure,
                attempt,
                wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                "Brevo request failed; retrying"
            );
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    /// One HTTP exchange: status, rate-limit reset and the whole body.
    async fn attempt(
        &self,
        call: &Call,
        url: &str,
        left: Duration,
    ) -> Result<(u16, Option<Duration>, Vec<u8>), BodyError> {
        let config = &self.inner.config;
        let mut request = self
            .inner
            .http
            .request(call.method.clone(), url)
            .timeout(config.timeout.min(left))
            .header("api-key", &config.api_key)
            .header(ACCEPT, "application/json");
        if !call.query.is_empty() {
            request = request.query(&call.query);
        }
        if let Some(body) = &call.body {
            request = request
                .header(CONTENT_TYPE, "application/json")
                .body(body.clone());
        }
        let response = request.send().await.map_err(BodyError::Transport)?;
        let status = response.status().as_u16();
        let reset = rate_limit::reset_after(response.headers());
        let body = read_body(response, MAX_ANSWER_BYTES).await?;
        Ok((status, reset, body))
    }
}

/// Classifies a reqwest error and describes it without the URL (it may hold an email).
fn describe_transport_error(err: reqwest::Error, timeout: Duration) -> (Failure, String) {
    let err = err.without_url();
    if err.is_connect() {
        (
            Failure::Connect,
            format!("connection failed: {}", error_chain(&err)),
        )
    } else if err.is_timeout() {
        (Failure::Timeout, format!("no answer within {timeout:?}"))
    } else {
        (
            Failure::Transport,
            format!("transport error: {}", error_chain(&err)),
        )
    }
}

/// `limit`, `offset`, `sort` with the limit clamped to `1..=max`.
fn page_query(
    limit: u32,
    max: u32,
    offset: u32,
    sort: BrevoSortOrder,
) -> Vec<(&'static str, String)> {
    vec![
        ("limit", limit.clamp(1, max).to_string()),
        ("offset", offset.to_string()),
        ("sort", sort.as_str().to_owned()),
    ]
}

fn page_offset(seen: usize) -> Result<u32, BrevoError> {
    u32::try_from(seen).map_err(|_| BrevoError::InvalidResponse("too many pages".to_owned()))
}

/// Paging stops at a short or empty page, or once `count` items were read.
fn is_last_page(got: usize, limit: u32, seen: usize, count: i64) -> bool {
    got == 0 || got < limit as usize || i64::try_from(seen).unwrap_or(i64::MAX) >= count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_key() {
        let client = BrevoClient::new(
            BrevoConfig {
                api_key: "xkeysib-secret-123".into(),
                base_url: "https://api.brevo.com/v3/".into(),
                ..BrevoConfig::default()
            },
            reqwest::Client::new(),
        );
        let debug = format!("{client:?}");
        assert!(!debug.contains("xkeysib-secret-123"), "{debug}");
        assert!(debug.contains("<redacted>"));
        // Trailing slash removed.
        assert_eq!(client.config().base_url, "https://api.brevo.com/v3");
        let debug = format!("{:?}", BrevoConfig::default());
        assert!(debug.contains("<empty>"));
    }

    #[test]
    fn paging_helpers() {
        assert_eq!(
            page_query(500, 50, 100, BrevoSortOrder::Desc),
            vec![
                ("limit", "50".to_owned()),
                ("offset", "100".to_owned()),
                ("sort", "desc".to_owned())
            ]
        );
        assert_eq!(page_query(0, 50, 0, BrevoSortOrder::Asc)[0].1, "1");
        assert!(is_last_page(0, 50, 100, 200));
        assert!(is_last_page(10, 50, 60, 200));
        assert!(is_last_page(50, 50, 100, 100));
        assert!(!is_last_page(50, 50, 50, 100));
    }
}
