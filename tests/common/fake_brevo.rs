//! A stateful fake of Brevo's API v3 (the subset the portal uses), served over real HTTP on
//! 127.0.0.1 by a small axum app. See `shared/reference/external-apis.md` §1.
//!
//! Endpoints (below `{base_url}` = `http://127.0.0.1:PORT/v3`):
//! - `GET|POST /contacts/folders`, `GET|PUT|DELETE /contacts/folders/{id}`,
//!   `GET /contacts/folders/{id}/lists`
//! - `GET|POST /contacts/lists`, `GET|PUT|DELETE /contacts/lists/{id}`,
//!   `GET /contacts/lists/{id}/contacts`
//! - `GET|POST /contacts`, `GET|PUT|DELETE /contacts/{identifier}` (`identifierType`
//!   `email_id` / `contact_id` / `ext_id`; without it `…@…` is an email and digits an id)
//! - `POST /smtp/email` (a repeated `Idempotency-Key` header sends nothing again)
//!
//! Behaviour like Brevo: 201 `{id}` on create, 204 on update/delete, 404 `document_not_found`,
//! 400 `invalid_parameter` for missing or invalid fields and limits above the maximum,
//! duplicate emails → 400 `duplicate_parameter` with `metadata.duplicate_identifiers`
//! (204 upsert with `updateEnabled`), deleting a folder deletes its lists, `PUT` of a list takes
//! only one of `name` / `folderId`, `listIds` adds and `unlinkListIds` removes, `modifiedSince`
//! filters strictly after the instant, dates come as `2024-05-01T10:00:00.000+01:00`.
//! Ids start at 100 (folders), 1000 (lists) and 10000 (contacts) so they differ from local ids.
//!
//! Where Brevo's behaviour is not documented the fake is strict, so that client bugs show:
//! `GET /contacts/folders` needs `limit` and `offset` (the Feb-2025 spec marks them required),
//! unknown list ids in `listIds` or a create's `folderId` give 400 `invalid_parameter`
//! (unknown ids in `unlinkListIds` are ignored), and an endpoint the fake does not know answers
//! 400 `bad_request` (never 404, which clients may read as "already gone").
//!
//! Every request is recorded (also those answered by an injected fault) with its path below
//! `/v3`, raw query and JSON body.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, FixedOffset, SubsecRound, Utc};
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

/// The only key the fake accepts.
pub const FAKE_API_KEY: &str = "xkeysib-fake-0123456789abcdef-TESTONLY";

const FIRST_FOLDER_ID: i64 = 100;
const FIRST_LIST_ID: i64 = 1_000;
const FIRST_CONTACT_ID: i64 = 10_000;

/// One request as the fake received it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedRequest {
    pub method: String,
    /// Path below `/v3`, still percent-encoded (e.g. `/contacts/max%2Btest%40example.de`).
    pub path: String,
    /// Raw query string without `?` ("" when none).
    pub query: String,
    /// JSON body; `Null` when empty, a `String` when the body is not JSON.
    pub body: Value,
    /// The `api-key` header.
    pub api_key: Option<String>,
    /// All headers, names in lower case.
    pub headers: BTreeMap<String, String>,
}

impl RecordedRequest {
    /// Decoded query pairs in order.
    pub fn query_pairs(&self) -> Vec<(String, String)> {
        parse_query(&self.query)
    }

    /// First decoded value of a query parameter.
    pub fn query_param(&self, name: &str) -> Option<String> {
        self.query_pairs()
            .into_iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// `"METHOD path"`, handy in assertions.
    pub fn line(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeFolder {
    pub id: i64,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FakeList {
    pub id: i64,
    pub name: String,
    pub folder_id: i64,
    pub created_at: DateTime<Utc>,
    /// Contacts in the list that are not blocklisted (derived from the contacts).
    pub total_subscribers: i64,
    /// Blocklisted contacts in the list (derived from the contacts).
    pub total_blacklisted: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FakeContact {
    pub id: i64,
    /// Stored in lower case, as Brevo does.
    pub email: Option<String>,
    pub ext_id: Option<String>,
    pub attributes: Map<String, Value>,
    /// Sorted, without duplicates.
    pub list_ids: Vec<i64>,
    pub email_blacklisted: bool,
    pub created_at: DateTime<Utc>,
    pub modified_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SentEmail {
    pub message_id: String,
    /// Recipient addresses.
    pub to: Vec<String>,
    pub subject: Option<String>,
    pub template_id: Option<i64>,
    pub params: Option<Value>,
    /// The whole request body.
    pub body: Value,
}

#[derive(Clone, Debug)]
enum Fault {
    /// Answered normally (lets the faults queued after it hit later requests).
    Pass,
    Error {
        status: u16,
    },
    NonJson {
        status: u16,
    },
    RateLimit {
        reset_secs: u64,
    },
}

/// Fails requests of one kind (method and path pattern) from the `nth` on, `times` times;
/// requests of other kinds pass and are not counted.
#[derive(Clone, Debug)]
struct FaultRule {
    method: String,
    /// Path segments below `/v3`; `*` matches any one segment. A request matches when its
    /// path has exactly these segments.
    pattern: Vec<String>,
    /// Matching requests seen so far.
    seen: usize,
    nth: usize,
    times: usize,
    status: u16,
}

impl FaultRule {
    fn matches(&self, method: &Method, path: &str) -> bool {
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        self.method.eq_ignore_ascii_case(method.as_str())
            && segments.len() == self.pattern.len()
            && self
                .pattern
                .iter()
                .zip(&segments)
                .all(|(p, s)| p == "*" || p == s)
    }

    /// Counts a matching request; true when it is to fail.
    fn hit(&mut self) -> bool {
        self.seen += 1;
        self.seen >= self.nth && self.seen - self.nth < self.times
    }
}

/// Everything the fake knows. Tests may read and change it through [`FakeBrevo::lock`].
#[derive(Debug)]
pub struct FakeState {
    pub folders: BTreeMap<i64, FakeFolder>,
    pub lists: BTreeMap<i64, FakeList>,
    pub contacts: BTreeMap<i64, FakeContact>,
    pub sent_emails: Vec<SentEmail>,
    pub requests: Vec<RecordedRequest>,
    next_folder_id: i64,
    next_list_id: i64,
    next_contact_id: i64,
    next_message: u64,
    faults: VecDeque<Fault>,
    delays: VecDeque<Duration>,
    rules: Vec<FaultRule>,
}

impl Default for FakeState {
    fn default() -> Self {
        Self {
            folders: BTreeMap::new(),
            lists: BTreeMap::new(),
            contacts: BTreeMap::new(),
            sent_emails: Vec::new(),
            requests: Vec::new(),
            next_folder_id: FIRST_FOLDER_ID,
            next_list_id: FIRST_LIST_ID,
            next_contact_id: FIRST_CONTACT_ID,
            next_message: 1,
            faults: VecDeque::new(),
            delays: VecDeque::new(),
            rules: Vec::new(),
        }
    }
}

/// Brevo-like "now": UTC, millisecond precision (what survives the JSON round trip).
pub fn fake_now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(3)
}

impl FakeState {
    pub fn add_folder(&mut self, name: &str) -> i64 {
        let id = self.next_folder_id;
        self.next_folder_id += 1;
        self.folders.insert(
            id,
            FakeFolder {
                id,
                name: name.to_owned(),
            },
        );
        id
    }

    /// Adds a list; panics when the folder does not exist (a test bug).
    pub fn add_list(&mut self, folder_id: i64, name: &str) -> i64 {
        assert!(
            self.folders.contains_key(&folder_id),
            "no folder {folder_id}"
        );
        let id = self.next_list_id;
        self.next_list_id += 1;
        self.lists.insert(
            id,
            FakeList {
                id,
                name: name.to_owned(),
                folder_id,
                created_at: fake_now(),
                total_subscribers: 0,
                total_blacklisted: 0,
            },
        );
        self.recount();
        id
    }

    /// Adds many contacts at once (for benchmarks): `make(i)` gives the email and the
    /// attributes of the i-th; no duplicate check, list counters updated once at the end.
    pub fn add_generated_contacts(
        &mut self,
        n: usize,
        make: impl Fn(usize) -> (String, Map<String, Value>),
    ) {
        let now = fake_now();
        for i in 0..n {
            let (email, attributes) = make(i);
            let id = self.next_contact_id;
            self.next_contact_id += 1;
            self.contacts.insert(
                id,
                FakeContact {
                    id,
                    email: Some(email.to_lowercase()),
                    ext_id: None,
                    attributes,
                    list_ids: Vec::new(),
                    email_blacklisted: false,
                    created_at: now,
                    modified_at: now,
                },
            );
        }
        self.recount();
    }

    /// Adds a contact directly (no duplicate check beyond a panic, no list check).
    pub fn add_contact(&mut self, email: &str, list_ids: &[i64]) -> i64 {
        let email = email.to_lowercase();
        assert!(
            self.contact_id_by_email(&email).is_none(),
            "contact exists already"
        );
        let id = self.next_contact_id;
        self.next_contact_id += 1;
        let now = fake_now();
        let mut lists: Vec<i64> = list_ids.to_vec();
        lists.sort_unstable();
        lists.dedup();
        self.contacts.insert(
            id,
            FakeContact {
                id,
                email: Some(email),
                ext_id: None,
                attributes: Map::new(),
                list_ids: lists,
                email_blacklisted: false,
                created_at: now,
                modified_at: now,
            },
        );
        self.recount();
        id
    }

    pub fn contact_id_by_email(&self, email: &str) -> Option<i64> {
        let email = email.to_lowercase();
        self.contacts
            .values()
            .find(|c| c.email.as_deref() == Some(email.as_str()))
            .map(|c| c.id)
    }

    fn contact_id_by_ext_id(&self, ext_id: &str) -> Option<i64> {
        self.contacts
            .values()
            .find(|c| c.ext_id.as_deref() == Some(ext_id))
            .map(|c| c.id)
    }

    /// Recomputes the list counters from the contacts.
    pub fn recount(&mut self) {
        for list in self.lists.values_mut() {
            let (mut subscribers, mut blacklisted) = (0, 0);
            for contact in self.contacts.values() {
                if contact.list_ids.contains(&list.id) {
                    if contact.email_blacklisted {
                        blacklisted += 1;
                    } else {
                        subscribers += 1;
                    }
                }
            }
            list.total_subscribers = subscribers;
            list.total_blacklisted = blacklisted;
        }
    }

    fn unlink_lists(&mut self, removed: &BTreeSet<i64>) {
        for contact in self.contacts.values_mut() {
            contact.list_ids.retain(|id| !removed.contains(id));
        }
    }
}

#[derive(Clone)]
struct Shared {
    state: Arc<Mutex<FakeState>>,
}

/// The running fake. Dropping it stops the server.
pub struct FakeBrevo {
    /// `http://127.0.0.1:PORT/v3`
    pub base_url: String,
    pub state: Arc<Mutex<FakeState>>,
    shutdown: Option<oneshot::Sender<()>>,
}

impl Drop for FakeBrevo {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

impl FakeBrevo {
    pub async fn start() -> FakeBrevo {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fake Brevo");
        let addr = listener.local_addr().expect("fake Brevo address");
        let state = Arc::new(Mutex::new(FakeState::default()));
        let app = Router::new().fallback(handle).with_state(Shared {
            state: Arc::clone(&state),
        });
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
        });
        FakeBrevo {
            base_url: format!("http://{addr}/v3"),
            state,
            shutdown: Some(tx),
        }
    }

    /// The only key the fake accepts; others get 401 `{"code":"unauthorized","message":"Key not found"}`.
    pub fn api_key(&self) -> &str {
        FAKE_API_KEY
    }

    pub fn lock(&self) -> MutexGuard<'_, FakeState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    // --- fault injection (each fault is used up by one request, in the order queued) ---

    /// The next `n` requests answer `status` with a Brevo error body (state untouched).
    pub fn fail_next(&self, n: usize, status: u16) {
        self.push_faults(n, Fault::Error { status });
    }

    /// The next `n` requests answer `status` with an HTML body (a proxy error page).
    pub fn fail_next_non_json(&self, n: usize, status: u16) {
        self.push_faults(n, Fault::NonJson { status });
    }

    /// The next `n` requests answer 429 with `x-sib-ratelimit-*` headers, reset = 1 s.
    pub fn rate_limit_next(&self, n: usize) {
        self.rate_limit_next_with_reset(n, 1);
    }

    /// Like [`rate_limit_next`](Self::rate_limit_next) with another `x-sib-ratelimit-reset`.
    pub fn rate_limit_next_with_reset(&self, n: usize, reset_secs: u64) {
        self.push_faults(n, Fault::RateLimit { reset_secs });
    }

    /// The next `n` requests are processed at once but answered only after `delay`
    /// (like a request that reached Brevo whose answer is late — for timeouts).
    pub fn delay_next(&self, n: usize, delay: Duration) {
        self.lock().delays.extend(std::iter::repeat_n(delay, n));
    }

    /// The next `n` requests are answered normally; faults queued afterwards hit the
    /// requests after them (to fail a call in the middle of a sequence).
    pub fn pass_next(&self, n: usize) {
        self.push_faults(n, Fault::Pass);
    }

    /// The `n`-th request (1-based, counted from now) of one kind answers `status` with a
    /// Brevo error body; requests of other kinds pass and do not count. `path` is below `/v3`
    /// with `*` for any one segment, e.g. `fail_nth("PUT", "/contacts/lists/*", 2, 400)`
    /// fails the second list change.
    pub fn fail_nth(&self, method: &str, path: &str, n: usize, status: u16) {
        self.fail_nth_times(method, path, n, 1, status);
    }

    /// Like [`fail_nth`](Self::fail_nth), but every request of the kind from the `n`-th on
    /// fails (until [`clear_faults`](Self::clear_faults)): that part of Brevo is down.
    pub fn fail_from_nth(&self, method: &str, path: &str, n: usize, status: u16) {
        self.fail_nth_times(method, path, n, usize::MAX, status);
    }

    /// Fails the `n`-th to the `(n + times - 1)`-th request of one kind.
    pub fn fail_nth_times(&self, method: &str, path: &str, n: usize, times: usize, status: u16) {
        assert!(n >= 1, "n counts from 1");
        self.lock().rules.push(FaultRule {
            method: method.to_string(),
            pattern: path
                .trim_matches('/')
                .split('/')
                .map(str::to_string)
                .collect(),
            seen: 0,
            nth: n,
            times,
            status,
        });
    }

    /// Drops the faults not used up yet (queued ones and those of `fail_nth`).
    pub fn clear_faults(&self) {
        let mut state = self.lock();
        state.faults.clear();
        state.rules.clear();
    }

    fn push_faults(&self, n: usize, fault: Fault) {
        self.lock().faults.extend(std::iter::repeat_n(fault, n));
    }

    // --- inspection and seeding ---

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.lock().requests.clone()
    }

    pub fn clear_requests(&self) {
        self.lock().requests.clear();
    }

    pub fn folders(&self) -> Vec<FakeFolder> {
        self.lock().folders.values().cloned().collect()
    }

    /// Lists with counters derived from the current contacts.
    pub fn lists(&self) -> Vec<FakeList> {
        let mut state = self.lock();
        state.recount();
        state.lists.values().cloned().collect()
    }

    pub fn contacts(&self) -> Vec<FakeContact> {
        self.lock().contacts.values().cloned().collect()
    }

    pub fn contact_by_email(&self, email: &str) -> Option<FakeContact> {
        let state = self.lock();
        let id = state.contact_id_by_email(email)?;
        state.contacts.get(&id).cloned()
    }

    pub fn sent_emails(&self) -> Vec<SentEmail> {
        self.lock().sent_emails.clone()
    }

    pub fn add_folder(&self, name: &str) -> i64 {
        self.lock().add_folder(name)
    }

    pub fn add_list(&self, folder_id: i64, name: &str) -> i64 {
        self.lock().add_list(folder_id, name)
    }

    pub fn add_contact(&self, email: &str, list_ids: &[i64]) -> i64 {
        self.lock().add_contact(email, list_ids)
    }
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

type Answer = Result<Response, Reject>;

/// A Brevo error answer (kept small; turned into a response at the end).
struct Reject {
    status: u16,
    body: Value,
}

impl IntoResponse for Reject {
    fn into_response(self) -> Response {
        json_response(self.status, self.body)
    }
}

async fn handle(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let full_path = uri.path().to_owned();
    // Control for the browser tests, which cannot call `delay_next`: `POST /__fake/delay`
    // with `{"count": n, "ms": m}` holds back the next n answers by m milliseconds.
    if method == Method::POST && full_path == "/__fake/delay" {
        let control: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let count = control.get("count").and_then(Value::as_u64).unwrap_or(1);
        let ms = control.get("ms").and_then(Value::as_u64).unwrap_or(1000);
        let mut state = shared.state.lock().unwrap_or_else(PoisonError::into_inner);
        for _ in 0..count.min(1000) {
            state
                .delays
                .push_back(Duration::from_millis(ms.min(60_000)));
        }
        return StatusCode::NO_CONTENT.into_response();
    }
    let below_v3 = full_path
        .strip_prefix("/v3")
        .filter(|p| p.is_empty() || p.starts_with('/'))
        .map(str::to_owned);
    let raw_query = uri.query().unwrap_or("").to_owned();
    let api_key = headers
        .get("api-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let recorded = RecordedRequest {
        method: method.as_str().to_owned(),
        path: below_v3.clone().unwrap_or_else(|| full_path.clone()),
        query: raw_query.clone(),
        body: if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&body)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()))
        },
        api_key: api_key.clone(),
        headers: headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
    };

    let (delay, response) = {
        let mut state = shared.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.requests.push(recorded);
        let delay = state.delays.pop_front();
        let queued = state
            .faults
            .pop_front()
            .filter(|f| !matches!(f, Fault::Pass));
        // Every rule counts the request of its kind, whether or not another fault answers.
        let mut by_rule = None;
        if let Some(path) = &below_v3 {
            for rule in &mut state.rules {
                if rule.matches(&method, path) && rule.hit() && by_rule.is_none() {
                    by_rule = Some(Fault::Error {
                        status: rule.status,
                    });
                }
            }
        }
        let fault = queued.or(by_rule);
        let response = if let Some(fault) = fault {
            fault_response(&fault)
        } else if api_key.is_none() {
            error(401, "unauthorized", "authentication not found in headers").into_response()
        } else if api_key.as_deref() != Some(FAKE_API_KEY) {
            error(401, "unauthorized", "Key not found").into_response()
        } else if let Some(path) = below_v3 {
            let query = Query(parse_query(&raw_query));
            let answer = route(&mut state, &method, &path, &query, &body);
            state.recount();
            answer.unwrap_or_else(IntoResponse::into_response)
        } else {
            error(
                400,
                "bad_request",
                "fake Brevo serves the API below /v3 only",
            )
            .into_response()
        };
        (delay, response)
    };
    if let Some(delay) = delay {
        tokio::time::sleep(delay).await;
    }
    response
}

fn route(state: &mut FakeState, method: &Method, path: &str, q: &Query, body: &Bytes) -> Answer {
    let segments: Vec<String> = path
        .trim_matches('/')
        .split('/')
        .map(percent_decode)
        .collect();
    let segs: Vec<&str> = segments.iter().map(String::as_str).collect();
    let m = method.clone();
    match segs.as_slice() {
        ["contacts", "folders"] => match m {
            Method::GET => state.get_folders(q),
            Method::POST => state.create_folder(&json_body(body)?),
            _ => not_allowed(method),
        },
        ["contacts", "folders", id] => {
            let id = path_id(id, "folder")?;
            match m {
                Method::GET => state.get_folder(id),
                Method::PUT => state.update_folder(id, &json_body(body)?),
                Method::DELETE => state.delete_folder(id),
                _ => not_allowed(method),
            }
        }
        ["contacts", "folders", id, "lists"] => match m {
            Method::GET => state.get_folder_lists(path_id(id, "folder")?, q),
            _ => not_allowed(method),
        },
        ["contacts", "lists"] => match m {
            Method::GET => state.get_lists(q),
            Method::POST => state.create_list(&json_body(body)?),
            _ => not_allowed(method),
        },
        ["contacts", "lists", id] => {
            let id = path_id(id, "list")?;
            match m {
                Method::GET => state.get_list(id),
                Method::PUT => state.update_list(id, &json_body(body)?),
                Method::DELETE => state.delete_list(id),
                _ => not_allowed(method),
            }
        }
        ["contacts", "lists", id, "contacts"] => match m {
            Method::GET => state.get_list_contacts(path_id(id, "list")?, q),
            _ => not_allowed(method),
        },
        ["contacts"] => match m {
            Method::GET => state.get_contacts(q, None),
            Method::POST => state.create_contact(&json_body(body)?),
            _ => not_allowed(method),
        },
        ["contacts", identifier]
            if !matches!(
                *identifier,
                "folders"
                    | "lists"
                    | "attributes"
                    | "batch"
                    | "segments"
                    | "export"
                    | "import"
                    | "doubleOptinConfirmation"
            ) =>
        {
            match m {
                Method::GET => {
                    let id = state.resolve_contact(identifier, q)?;
                    Ok(json_response(200, contact_json(&state.contacts[&id], true)))
                }
                Method::PUT => {
                    let id = state.resolve_contact(identifier, q)?;
                    state.update_contact(id, &json_body(body)?)
                }
                Method::DELETE => {
                    let id = state.resolve_contact(identifier, q)?;
                    state.contacts.remove(&id);
                    Ok(no_content())
                }
                _ => not_allowed(method),
            }
        }
        ["smtp", "email"] => match m {
            Method::POST => state.send_email(&json_body(body)?),
            _ => not_allowed(method),
        },
        _ => Err(error(
            400,
            "bad_request",
            &format!("fake Brevo does not implement {method} {path}"),
        )),
    }
}

// --- folders -------------------------------------------------------------------------------

impl FakeState {
    fn folder_json(&self, folder: &FakeFolder) -> Value {
        let lists: Vec<&FakeList> = self
            .lists
            .values()
            .filter(|l| l.folder_id == folder.id)
            .collect();
        let unique: BTreeSet<i64> = self
            .contacts
            .values()
            .filter(|c| lists.iter().any(|l| c.list_ids.contains(&l.id)))
            .map(|c| c.id)
            .collect();
        json!({
            "id": folder.id,
            "name": folder.name,
            "totalBlacklisted": lists.iter().map(|l| l.total_blacklisted).sum::<i64>(),
            "totalSubscribers": lists.iter().map(|l| l.total_subscribers).sum::<i64>(),
            "uniqueSubscribers": unique.len(),
        })
    }

    fn get_folders(&mut self, q: &Query) -> Answer {
        let paging = q.paging(10, 50, true)?;
        let all: Vec<&FakeFolder> = self.folders.values().collect();
        let page: Vec<Value> = paging
            .apply(&all)
            .into_iter()
            .map(|f| self.folder_json(f))
            .collect();
        Ok(json_response(
            200,
            json!({ "folders": page, "count": all.len() }),
        ))
    }

    fn create_folder(&mut self, body: &Map<String, Value>) -> Answer {
        let name = required_name(body)?;
        let id = self.add_folder(&name);
        Ok(json_response(201, json!({ "id": id })))
    }

    fn get_folder(&mut self, id: i64) -> Answer {
        let folder = self.folders.get(&id).ok_or_else(folder_not_found)?;
        Ok(json_response(200, self.folder_json(folder)))
    }

    fn update_folder(&mut self, id: i64, body: &Map<String, Value>) -> Answer {
        let name = required_name(body)?;
        let folder = self.folders.get_mut(&id).ok_or_else(folder_not_found)?;
        folder.name = name;
        Ok(no_content())
    }

    fn delete_folder(&mut self, id: i64) -> Answer {
        self.folders.remove(&id).ok_or_else(folder_not_found)?;
        let removed: BTreeSet<i64> = self
            .lists
            .values()
            .filter(|l| l.folder_id == id)
            .map(|l| l.id)
            .collect();
        self.lists.retain(|list_id, _| !removed.contains(list_id));
        self.unlink_lists(&removed);
        Ok(no_content())
    }

    // --- lists -----------------------------------------------------------------------------

    fn list_json(list: &FakeList, with_folder: bool) -> Value {
        let mut value = json!({
            "id": list.id,
            "name": list.name,
            "totalBlacklisted": list.total_blacklisted,
            "totalSubscribers": list.total_subscribers,
            "uniqueSubscribers": list.total_blacklisted + list.total_subscribers,
        });
        if with_folder {
            value["folderId"] = json!(list.folder_id);
        }
        value
    }

    fn get_folder_lists(&mut self, folder_id: i64, q: &Query) -> Answer {
        let paging = q.paging(10, 50, false)?;
        if !self.folders.contains_key(&folder_id) {
            return Err(folder_not_found());
        }
        self.recount();
        let all: Vec<&FakeList> = self
            .lists
            .values()
            .filter(|l| l.folder_id == folder_id)
            .collect();
        let page: Vec<Value> = paging
            .apply(&all)
            .into_iter()
            .map(|l| Self::list_json(l, false))
            .collect();
        Ok(json_response(
            200,
            json!({ "lists": page, "count": all.len() }),
        ))
    }

    fn get_lists(&mut self, q: &Query) -> Answer {
        let paging = q.paging(10, 50, false)?;
        self.recount();
        let all: Vec<&FakeList> = self.lists.values().collect();
        let page: Vec<Value> = paging
            .apply(&all)
            .into_iter()
            .map(|l| Self::list_json(l, true))
            .collect();
        Ok(json_response(
            200,
            json!({ "lists": page, "count": all.len() }),
        ))
    }

    fn create_list(&mut self, body: &Map<String, Value>) -> Answer {
        let name = required_name(body)?;
        let folder_id = match body.get("folderId") {
            None | Some(Value::Null) => {
                return Err(invalid("folderId is missing"));
            }
            Some(v) => v
                .as_i64()
                .ok_or_else(|| invalid("folderId should be an integer"))?,
        };
        if !self.folders.contains_key(&folder_id) {
            return Err(invalid("Folder ID does not exist"));
        }
        let id = self.add_list(folder_id, &name);
        Ok(json_response(201, json!({ "id": id })))
    }

    fn get_list(&mut self, id: i64) -> Answer {
        self.recount();
        let list = self.lists.get(&id).ok_or_else(list_not_found)?;
        let mut value = Self::list_json(list, true);
        value["createdAt"] = json!(brevo_time(list.created_at));
        value["dynamicList"] = json!(false);
        value["campaignStats"] = json!([]);
        Ok(json_response(200, value))
    }

    fn update_list(&mut self, id: i64, body: &Map<String, Value>) -> Answer {
        if !self.lists.contains_key(&id) {
            return Err(list_not_found());
        }
        let name = body.get("name").filter(|v| !v.is_null());
        let folder = body.get("folderId").filter(|v| !v.is_null());
        match (name, folder) {
            (Some(_), Some(_)) => Err(invalid(
                "Either of the two parameters (name, folderId) can be updated at a time",
            )),
            (None, None) => Err(invalid("name or folderId is missing")),
            (Some(_), None) => {
                let name = required_name(body)?;
                self.lists.get_mut(&id).expect("checked").name = name;
                Ok(no_content())
            }
            (None, Some(folder)) => {
                let folder_id = folder
                    .as_i64()
                    .ok_or_else(|| invalid("folderId should be an integer"))?;
                if !self.folders.contains_key(&folder_id) {
                    return Err(invalid("Folder ID does not exist"));
                }
                self.lists.get_mut(&id).expect("checked").folder_id = folder_id;
                Ok(no_content())
            }
        }
    }

    fn delete_list(&mut self, id: i64) -> Answer {
        self.lists.remove(&id).ok_or_else(list_not_found)?;
        self.unlink_lists(&BTreeSet::from([id]));
        Ok(no_content())
    }

    fn get_list_contacts(&mut self, list_id: i64, q: &Query) -> Answer {
        if !self.lists.contains_key(&list_id) {
            return Err(list_not_found());
        }
        self.get_contacts(q, Some(list_id))
    }

    // --- contacts --------------------------------------------------------------------------

    /// `GET /contacts` (or the contacts of one list with `only_list`).
    fn get_contacts(&mut self, q: &Query, only_list: Option<i64>) -> Answer {
        let max = if only_list.is_some() { 500 } else { 1000 };
        let paging = q.paging(50, max, false)?;
        let modified_since = q.datetime("modifiedSince")?;
        let created_since = q.datetime("createdSince")?;
        let mut list_filter: BTreeSet<i64> = BTreeSet::new();
        for raw in q.all("listIds").into_iter().flat_map(|v| v.split(',')) {
            let id = raw
                .trim()
                .parse::<i64>()
                .map_err(|_| invalid("listIds should be integers"))?;
            list_filter.insert(id);
        }
        if !list_filter.is_empty() && q.get("segmentId").is_some() {
            return Err(invalid("Either listIds or segmentId can be passed"));
        }
        if let Some(id) = only_list {
            list_filter.insert(id);
        }
        let all: Vec<&FakeContact> = self
            .contacts
            .values()
            .filter(|c| modified_since.is_none_or(|since| c.modified_at > since))
            .filter(|c| created_since.is_none_or(|since| c.created_at > since))
            .filter(|c| {
                list_filter.is_empty() || c.list_ids.iter().any(|l| list_filter.contains(l))
            })
            .collect();
        let page: Vec<Value> = paging
            .apply(&all)
            .into_iter()
            .map(|c| contact_json(c, false))
            .collect();
        Ok(json_response(
            200,
            json!({ "contacts": page, "count": all.len() }),
        ))
    }

    fn resolve_contact(&self, raw: &str, q: &Query) -> Result<i64, Reject> {
        let by_id = |raw: &str| -> Result<Option<i64>, Reject> {
            let id = raw
                .parse::<i64>()
                .map_err(|_| invalid("Invalid contact id"))?;
            Ok(self.contacts.contains_key(&id).then_some(id))
        };
        let found = match q.get("identifierType") {
            None if raw.contains('@') => self.contact_id_by_email(raw),
            None if !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit()) => by_id(raw)?,
            None => None,
            Some("email_id") => self.contact_id_by_email(raw),
            Some("contact_id") => by_id(raw)?,
            Some("ext_id") => self.contact_id_by_ext_id(raw),
            Some("phone_id" | "whatsapp_id" | "landline_number_id") => {
                return Err(invalid("this identifierType is not supported by the fake"));
            }
            Some(_) => return Err(invalid("Invalid identifierType")),
        };
        found.ok_or_else(|| error(404, "document_not_found", "Contact does not exist"))
    }

    fn check_list_ids(&self, body: &Map<String, Value>, field: &str) -> Result<Vec<i64>, Reject> {
        let Some(value) = body.get(field).filter(|v| !v.is_null()) else {
            return Ok(Vec::new());
        };
        let ids = value
            .as_array()
            .and_then(|items| items.iter().map(Value::as_i64).collect::<Option<Vec<_>>>())
            .ok_or_else(|| invalid(&format!("{field} should be an array of integers")))?;
        Ok(ids)
    }

    fn create_contact(&mut self, body: &Map<String, Value>) -> Answer {
        let email = optional_string(body, "email")?.map(|e| e.trim().to_lowercase());
        if let Some(email) = &email
            && !valid_email(email)
        {
            return Err(invalid("Invalid email address"));
        }
        let ext_id = optional_string(body, "ext_id")?;
        if email.is_none() && ext_id.is_none() {
            return Err(invalid("email is missing"));
        }
        let attributes = optional_object(body, "attributes")?;
        let list_ids = self.check_list_ids(body, "listIds")?;
        if let Some(unknown) = list_ids.iter().find(|id| !self.lists.contains_key(id)) {
            return Err(invalid(&format!("List ID {unknown} does not exist")));
        }
        let blacklisted = optional_bool(body, "emailBlacklisted")?;
        let update_enabled = optional_bool(body, "updateEnabled")?.unwrap_or(false);

        let by_email = email.as_deref().and_then(|e| self.contact_id_by_email(e));
        let by_ext = ext_id.as_deref().and_then(|e| self.contact_id_by_ext_id(e));
        if by_email.is_some() || by_ext.is_some() {
            if update_enabled && (by_email.is_none() || by_ext.is_none() || by_email == by_ext) {
                let id = by_email.or(by_ext).expect("one matched");
                let contact = self.contacts.get_mut(&id).expect("exists");
                merge_attributes(&mut contact.attributes, attributes);
                add_lists(&mut contact.list_ids, &list_ids);
                if let Some(b) = blacklisted {
                    contact.email_blacklisted = b;
                }
                if ext_id.is_some() {
                    contact.ext_id = ext_id;
                }
                if contact.email.is_none() {
                    contact.email = email;
                }
                contact.modified_at = fake_now();
                return Ok(no_content());
            }
            let mut identifiers = Vec::new();
            if by_email.is_some() {
                identifiers.push("email");
            }
            if by_ext.is_some() {
                identifiers.push("ext_id");
            }
            return Err(Reject {
                status: 400,
                body: json!({
                    "code": "duplicate_parameter",
                    "message": "Unable to create contact, email is already associated with another Contact",
                    "metadata": { "duplicate_identifiers": identifiers },
                }),
            });
        }

        let id = self.next_contact_id;
        self.next_contact_id += 1;
        let now = fake_now();
        let mut contact = FakeContact {
            id,
            email,
            ext_id,
            attributes: Map::new(),
            list_ids: Vec::new(),
            email_blacklisted: blacklisted.unwrap_or(false),
            created_at: now,
            modified_at: now,
        };
        merge_attributes(&mut contact.attributes, attributes);
        add_lists(&mut contact.list_ids, &list_ids);
        self.contacts.insert(id, contact);
        Ok(json_response(201, json!({ "id": id })))
    }

    fn update_contact(&mut self, id: i64, body: &Map<String, Value>) -> Answer {
        let mut attributes = optional_object(body, "attributes")?;
        let list_ids = self.check_list_ids(body, "listIds")?;
        if let Some(unknown) = list_ids.iter().find(|id| !self.lists.contains_key(id)) {
            return Err(invalid(&format!("List ID {unknown} does not exist")));
        }
        let unlink = self.check_list_ids(body, "unlinkListIds")?;
        let blacklisted = optional_bool(body, "emailBlacklisted")?;
        let ext_id = optional_string(body, "ext_id")?;
        let new_email = match attributes.remove("EMAIL") {
            None | Some(Value::Null) => None,
            Some(Value::String(e)) => {
                let e = e.trim().to_lowercase();
                if !valid_email(&e) {
                    return Err(invalid("Invalid email address"));
                }
                Some(e)
            }
            Some(_) => return Err(invalid("EMAIL should be a string")),
        };
        let duplicate = |field: &'static str, other: Option<i64>| {
            other.filter(|other| *other != id).map(|_| Reject {
                status: 400,
                body: json!({
                    "code": "duplicate_parameter",
                    "message": "Unable to update contact, email is already associated with another Contact",
                    "metadata": { "duplicate_identifiers": [field] },
                }),
            })
        };
        if let Some(e) = &new_email
            && let Some(dup) = duplicate("email", self.contact_id_by_email(e))
        {
            return Err(dup);
        }
        if let Some(x) = &ext_id
            && let Some(dup) = duplicate("ext_id", self.contact_id_by_ext_id(x))
        {
            return Err(dup);
        }

        let contact = self.contacts.get_mut(&id).expect("resolved");
        merge_attributes(&mut contact.attributes, attributes);
        add_lists(&mut contact.list_ids, &list_ids);
        contact.list_ids.retain(|l| !unlink.contains(l));
        if let Some(e) = new_email
            && contact.email.as_deref() != Some(e.as_str())
        {
            contact.email = Some(e);
            // Brevo: changing the email of a blocklisted contact resubscribes it.
            contact.email_blacklisted = false;
        }
        if let Some(b) = blacklisted {
            contact.email_blacklisted = b;
        }
        if ext_id.is_some() {
            contact.ext_id = ext_id;
        }
        contact.modified_at = fake_now();
        Ok(no_content())
    }

    // --- transactional email ---------------------------------------------------------------

    fn send_email(&mut self, body: &Map<String, Value>) -> Answer {
        let to = body
            .get("to")
            .and_then(Value::as_array)
            .filter(|to| !to.is_empty())
            .ok_or_else(|| invalid("to is missing"))?;
        let mut recipients = Vec::new();
        for item in to {
            let email = item
                .get("email")
                .and_then(Value::as_str)
                .filter(|e| valid_email(e))
                .ok_or_else(|| invalid("email is not valid in to"))?;
            recipients.push(email.to_owned());
        }
        let template_id = match body.get("templateId") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_i64()
                    .filter(|id| *id > 0)
                    .ok_or_else(|| invalid("templateId should be a positive integer"))?,
            ),
        };
        let subject = optional_string(body, "subject")?;
        if let Some(sender) = body.get("sender").filter(|s| !s.is_null()) {
            let email_ok = match sender.get("email") {
                None => sender.get("id").and_then(Value::as_i64).is_some(),
                Some(email) => email.as_str().is_some_and(valid_email),
            };
            if !email_ok {
                return Err(invalid("valid sender email required"));
            }
        }
        if template_id.is_none() {
            let sender_ok = body.get("sender").is_some_and(|s| {
                s.get("email")
                    .and_then(Value::as_str)
                    .is_some_and(valid_email)
                    || s.get("id").and_then(Value::as_i64).is_some()
            });
            if !sender_ok {
                return Err(invalid("sender is missing"));
            }
            if subject.as_deref().is_none_or(str::is_empty) {
                return Err(invalid("subject is missing"));
            }
            let has_content = ["htmlContent", "textContent"].iter().any(|f| {
                body.get(*f)
                    .and_then(Value::as_str)
                    .is_some_and(|s| !s.is_empty())
            });
            if !has_content {
                return Err(invalid("htmlContent is missing"));
            }
        }
        let params = body.get("params").filter(|p| !p.is_null()).cloned();
        if params.as_ref().is_some_and(|p| !p.is_object()) {
            return Err(invalid("params should be an object"));
        }
        // As Brevo: a call repeated with the same idempotency key (in `headers`) is the first
        // one again, answered with its message id and sent no second time.
        let key = body
            .get("headers")
            .and_then(|h| h.get("Idempotency-Key"))
            .and_then(Value::as_str);
        if let Some(first) = key.and_then(|key| {
            self.sent_emails.iter().find(|sent| {
                sent.body["headers"]
                    .get("Idempotency-Key")
                    .and_then(Value::as_str)
                    == Some(key)
            })
        }) {
            return Ok(json_response(201, json!({ "messageId": first.message_id })));
        }
        let message_id = format!(
            "<{}.{}@fake.brevo>",
            Utc::now().format("%Y%m%d%H%M%S"),
            self.next_message
        );
        self.next_message += 1;
        self.sent_emails.push(SentEmail {
            message_id: message_id.clone(),
            to: recipients,
            subject,
            template_id,
            params,
            body: Value::Object(body.clone()),
        });
        Ok(json_response(201, json!({ "messageId": message_id })))
    }
}

fn contact_json(contact: &FakeContact, with_statistics: bool) -> Value {
    let mut value = json!({
        "id": contact.id,
        "emailBlacklisted": contact.email_blacklisted,
        "smsBlacklisted": false,
        "createdAt": brevo_time(contact.created_at),
        "modifiedAt": brevo_time(contact.modified_at),
        "listIds": contact.list_ids,
        "attributes": contact.attributes,
    });
    if let Some(email) = &contact.email {
        value["email"] = json!(email);
    }
    if let Some(ext_id) = &contact.ext_id {
        value["attributes"]["EXT_ID"] = json!(ext_id);
    }
    if with_statistics {
        value["statistics"] = json!({});
    }
    value
}

/// Brevo's style: milliseconds and a fixed +01:00 offset (so clients must handle offsets).
fn brevo_time(t: DateTime<Utc>) -> String {
    let offset = FixedOffset::east_opt(3600).expect("valid offset");
    t.with_timezone(&offset)
        .format("%Y-%m-%dT%H:%M:%S%.3f%:z")
        .to_string()
}

fn merge_attributes(target: &mut Map<String, Value>, changes: Map<String, Value>) {
    for (name, value) in changes {
        if value.is_null() {
            target.remove(&name);
        } else {
            target.insert(name, value);
        }
    }
}

fn add_lists(target: &mut Vec<i64>, add: &[i64]) {
    target.extend_from_slice(add);
    target.sort_unstable();
    target.dedup();
}

fn valid_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !email.chars().any(char::is_whitespace)
}

// --- request helpers -----------------------------------------------------------------------

struct Query(Vec<(String, String)>);

struct Paging {
    limit: usize,
    offset: usize,
    desc: bool,
}

impl Paging {
    /// Items are stored oldest first (ids grow with creation).
    fn apply<'a, T>(&self, items: &[&'a T]) -> Vec<&'a T> {
        let mut ordered = items.to_vec();
        if self.desc {
            ordered.reverse();
        }
        ordered
            .into_iter()
            .skip(self.offset)
            .take(self.limit)
            .collect()
    }
}

impl Query {
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn all(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(k, _)| k == name || k == &format!("{name}[]"))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    fn number(&self, name: &str, required: bool) -> Result<Option<usize>, Reject> {
        match self.get(name) {
            None if required => Err(invalid(&format!("{name} is required"))),
            None => Ok(None),
            Some(raw) => raw
                .parse::<usize>()
                .map(Some)
                .map_err(|_| invalid(&format!("{name} should be a non-negative integer"))),
        }
    }

    fn paging(&self, default_limit: usize, max: usize, required: bool) -> Result<Paging, Reject> {
        let limit = self.number("limit", required)?.unwrap_or(default_limit);
        if limit > max {
            return Err(invalid(&format!("limit should be at most {max}")));
        }
        let offset = self.number("offset", required)?.unwrap_or(0);
        let desc = match self.get("sort") {
            None | Some("desc") => true,
            Some("asc") => false,
            Some(_) => return Err(invalid("sort should be asc or desc")),
        };
        Ok(Paging {
            limit,
            offset,
            desc,
        })
    }

    fn datetime(&self, name: &str) -> Result<Option<DateTime<Utc>>, Reject> {
        self.get(name)
            .map(|raw| {
                DateTime::parse_from_rfc3339(raw)
                    .map(|t| t.with_timezone(&Utc))
                    .map_err(|_| {
                        invalid(&format!(
                            "{name} should be a date-time like YYYY-MM-DDTHH:mm:ss.SSSZ"
                        ))
                    })
            })
            .transpose()
    }
}

fn json_body(body: &Bytes) -> Result<Map<String, Value>, Reject> {
    if body.is_empty() {
        return Err(invalid("Request body is missing"));
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(error(
            400,
            "bad_request",
            "Input must be a valid JSON object",
        )),
    }
}

fn required_name(body: &Map<String, Value>) -> Result<String, Reject> {
    match body.get("name") {
        Some(Value::String(name)) if !name.trim().is_empty() => Ok(name.clone()),
        Some(Value::String(_)) | None | Some(Value::Null) => Err(invalid("name is missing")),
        Some(_) => Err(invalid("name should be a string")),
    }
}

fn optional_string(body: &Map<String, Value>, field: &str) -> Result<Option<String>, Reject> {
    match body.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(invalid(&format!("{field} should be a string"))),
    }
}

fn optional_bool(body: &Map<String, Value>, field: &str) -> Result<Option<bool>, Reject> {
    match body.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(invalid(&format!("{field} should be a boolean"))),
    }
}

fn optional_object(body: &Map<String, Value>, field: &str) -> Result<Map<String, Value>, Reject> {
    match body.get(field) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map.clone()),
        Some(_) => Err(invalid(&format!("{field} should be an object"))),
    }
}

fn path_id(raw: &str, what: &str) -> Result<i64, Reject> {
    raw.parse::<i64>()
        .map_err(|_| invalid(&format!("{what} id should be an integer")))
}

fn parse_query(raw: &str) -> Vec<(String, String)> {
    raw.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (
                percent_decode(&k.replace('+', " ")),
                percent_decode(&v.replace('+', " ")),
            )
        })
        .collect()
}

fn percent_decode(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(byte) = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

// --- responses -----------------------------------------------------------------------------

fn json_response(status: u16, body: Value) -> Response {
    let status = StatusCode::from_u16(status).expect("valid status");
    (status, axum::Json(body)).into_response()
}

fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

fn error(status: u16, code: &str, message: &str) -> Reject {
    Reject {
        status,
        body: json!({ "code": code, "message": message }),
    }
}

fn invalid(message: &str) -> Reject {
    error(400, "invalid_parameter", message)
}

fn folder_not_found() -> Reject {
    error(404, "document_not_found", "Folder ID not found")
}

fn list_not_found() -> Reject {
    error(404, "document_not_found", "List ID not found")
}

fn not_allowed(method: &Method) -> Answer {
    Err(error(
        405,
        "method_not_allowed",
        &format!("{method} Method is not allowed on this path"),
    ))
}

fn fault_response(fault: &Fault) -> Response {
    match *fault {
        Fault::Pass => unreachable!("passed faults are filtered out"),
        Fault::Error { status } => {
            let code = match status {
                400 => "bad_request",
                401 => "unauthorized",
                402 => "not_enough_credits",
                403 => "permission_denied",
                404 => "document_not_found",
                405 => "method_not_allowed",
                406 => "not_acceptable",
                422 => "unprocessable_entity",
                _ => "internal_error",
            };
            error(status, code, &format!("injected failure {status}")).into_response()
        }
        Fault::NonJson { status } => {
            let status = StatusCode::from_u16(status).expect("valid status");
            (
                status,
                [("content-type", "text/html")],
                format!("<html><body><h1>{status}</h1></body></html>"),
            )
                .into_response()
        }
        Fault::RateLimit { reset_secs } => {
            let mut response = error(429, "too_many_requests", "Too many requests").into_response();
            let headers = response.headers_mut();
            headers.insert("x-sib-ratelimit-limit", HeaderValue::from_static("10"));
            headers.insert("x-sib-ratelimit-remaining", HeaderValue::from_static("0"));
            headers.insert(
                "x-sib-ratelimit-reset",
                HeaderValue::from_str(&reset_secs.to_string()).expect("digits"),
            );
            response
        }
    }
}
