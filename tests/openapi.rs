//! The OpenAPI description (generated from the handlers' annotations by
//! `aktionsportal::api::openapi`, kept as `openapi.json` and served at `/api/openapi.json`):
//! the file is what the code generates, served as JSON, covering every API call the permission
//! table exercises with the statuses it expects, every documented call routed, and internally
//! consistent (responses, `$ref`s, path parameters).
//!
//! After a change to the API, `UPDATE_OPENAPI=1 cargo test --test openapi` rewrites
//! `openapi.json`; review its diff like code.

mod common;

use std::collections::BTreeSet;

use common::permission_table::{ATTACKS, ROWS, SIGN_OUT};
use common::spawn_app;
use serde_json::Value;

/// The calls of the shared permission table (pages aside): method, path as requested there,
/// and the statuses it expects of any role (each must be documented).
fn permission_rows() -> Vec<(&'static str, &'static str, BTreeSet<u16>)> {
    let rows = ROWS
        .iter()
        .chain(SIGN_OUT)
        .map(|r| (r.method, r.path, r.expect));
    let attacks = ATTACKS.iter().map(|a| (a.method, a.path, a.expect));
    rows.chain(attacks)
        .filter(|(_, path, _)| {
            ["/api/", "/files/", "/previews/"]
                .iter()
                .any(|p| path.starts_with(p))
        })
        .map(|(method, path, expect)| (method, path, expect.into_iter().collect()))
        .collect()
}

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

const OPENAPI_JSON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");

#[test]
fn openapi_json_is_what_the_code_generates() {
    let generated = aktionsportal::api::openapi::document_text();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(OPENAPI_JSON, generated).expect("write openapi.json");
        return;
    }
    let kept = std::fs::read_to_string(OPENAPI_JSON).expect("openapi.json at the repository root");
    assert!(
        kept == generated,
        "openapi.json differs from what the code generates; run \
         `UPDATE_OPENAPI=1 cargo test --test openapi` and review the diff"
    );
}

fn on_disk() -> Value {
    let text = std::fs::read_to_string(OPENAPI_JSON).expect("openapi.json at the repository root");
    serde_json::from_str(&text).expect("openapi.json is JSON")
}

/// The documented template and operation a requested path falls under: the same literal
/// segments, any one non-empty segment for a `{parameter}` (`/api/providers/999/` →
/// `/api/providers/{id}/`, `/api/contacts/lists/[1]` → `/api/contacts/lists/{contactIds}`);
/// the template with the fewest parameters wins (`/api/contacts/lists` over
/// `/api/contacts/{id}`).
fn documented<'a>(doc: &'a Value, method: &str, path: &str) -> Option<(&'a str, &'a Value)> {
    let path = path.split('?').next().unwrap_or(path);
    // The server strips a trailing slash, and the description holds such twins as one path:
    // both sides are compared without it.
    let bare = |p: &'a str| p.strip_suffix('/').filter(|b| !b.is_empty()).unwrap_or(p);
    let wanted: Vec<&str> = path
        .strip_suffix('/')
        .filter(|b| !b.is_empty())
        .unwrap_or(path)
        .split('/')
        .collect();
    let method = method.to_lowercase();
    doc["paths"]
        .as_object()?
        .iter()
        .filter_map(|(template, item)| {
            let segments: Vec<&str> = bare(template).split('/').collect();
            if segments.len() != wanted.len() {
                return None;
            }
            let mut params = 0;
            for (t, w) in segments.iter().zip(&wanted) {
                if t.starts_with('{') && t.ends_with('}') && !w.is_empty() {
                    params += 1;
                } else if t != w {
                    return None;
                }
            }
            let op = item.get(&method)?;
            Some((params, template.as_str(), op))
        })
        .min_by_key(|(params, ..)| *params)
        .map(|(_, template, op)| (template, op))
}

/// Every (path template, method, operation) of the document.
fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            if let Some(op) = item.get(method) {
                out.push((path.clone(), method.to_string(), op));
            }
        }
    }
    out
}

/// `{name}` segments of a path template.
fn template_params(path: &str) -> BTreeSet<String> {
    path.split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(str::to_string)
        .collect()
}

/// Follows a local `$ref` (`#/…`, JSON-pointer escaped).
fn resolve<'a>(doc: &'a Value, value: &'a Value) -> Option<&'a Value> {
    match value.get("$ref").and_then(Value::as_str) {
        Some(reference) => doc.pointer(reference.strip_prefix('#')?),
        None => Some(value),
    }
}

fn collect_refs<'a>(value: &'a Value, at: String, out: &mut Vec<(String, &'a str)>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                if key == "$ref"
                    && let Some(reference) = inner.as_str()
                {
                    out.push((at.clone(), reference));
                } else {
                    collect_refs(inner, format!("{at}/{key}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                collect_refs(inner, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[tokio::test]
async fn the_description_is_served_and_every_documented_call_is_routed() {
    let app = spawn_app().await;
    let response = app.get("/api/openapi.json").await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/json")
    );
    let served: Value = response.json().await.expect("JSON");
    let version = served["openapi"].as_str().unwrap_or_default();
    assert!(version.starts_with("3.1"), "openapi is {version:?}");
    assert_eq!(
        served,
        on_disk(),
        "the binary serves the current openapi.json"
    );
    // With the trailing slash, as spec §7 spells it.
    assert_eq!(app.get("/api/openapi.json/").await.status(), 200);

    // Anonymous requests: a routed call answers anything but the fallback's 404 (or 405). A
    // routed call may answer 404 with a code of its own (an unknown double opt-in link:
    // `double_opt_in_failed`), or outside `/api` any JSON 404 (a mail's picture with a wrong
    // tag); the API fallback's code is `not_found`, the page's 404 has none.
    // They also hold `x-access` to the routes: a call for signed-in users refuses an anonymous
    // request with 401, a public one does not.
    let mut unrouted = Vec::new();
    let mut wrong_access = Vec::new();
    for (path, method, op) in operations(&served) {
        let concrete = path.replace("{id}", "1").replace("{name}", "logo.png");
        let response = app
            .client
            .request(method.to_uppercase().parse().unwrap(), app.url(&concrete))
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        let at = format!("{} {path}: {status}", method.to_uppercase());
        match op["x-access"]["signedIn"].as_bool() {
            Some(true) if status != 401 => wrong_access.push(format!("{at}, not 401")),
            Some(false) if status == 401 => wrong_access.push(format!("{at}, yet public")),
            None => wrong_access.push(format!("{at}: no x-access.signedIn")),
            _ => {}
        }
        let body: Value = response.json().await.unwrap_or_default();
        // Outside `/api` the fallback is the HTML page: a JSON 404 there is a route's own.
        let own_not_found = status == 404
            && (body["code"]
                .as_str()
                .is_some_and(|code| code != "not_found")
                || (!path.starts_with("/api/") && body["code"].is_string()));
        if (status == 404 && !own_not_found) || status == 405 {
            unrouted.push(at);
        }
    }
    assert!(
        wrong_access.is_empty(),
        "x-access disagrees with the route:\n{}",
        wrong_access.join("\n")
    );
    assert!(
        unrouted.is_empty(),
        "documented but not routed:\n{}",
        unrouted.join("\n")
    );
}

#[test]
fn every_call_of_the_permission_table_is_documented_with_its_statuses() {
    let doc = on_disk();
    let mut missing = Vec::new();
    for (method, path, statuses) in permission_rows() {
        let Some((template, op)) = documented(&doc, method, path) else {
            missing.push(format!("{method} {path} is not documented"));
            continue;
        };
        for status in statuses {
            if op["responses"].get(status.to_string()).is_none() {
                missing.push(format!("{method} {template} lacks the answer {status}"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_operation_has_responses_an_id_and_a_word_on_who_may_call_it() {
    let doc = on_disk();
    let mut wrong = Vec::new();
    let mut ids = BTreeSet::new();
    for (path, method, op) in operations(&doc) {
        let at = format!("{} {path}", method.to_uppercase());
        match op.get("responses").and_then(Value::as_object) {
            None => wrong.push(format!("{at}: no responses object")),
            Some(responses) if responses.is_empty() => wrong.push(format!("{at}: no responses")),
            Some(responses) => {
                for (status, response) in responses {
                    let valid = status == "default"
                        || (status.len() == 3 && status.bytes().all(|b| b.is_ascii_digit()));
                    if !valid {
                        wrong.push(format!("{at}: response key {status:?}"));
                    }
                    let described = resolve(&doc, response)
                        .and_then(|r| r.get("description"))
                        .and_then(Value::as_str)
                        .is_some_and(|d| !d.is_empty());
                    if !described {
                        wrong.push(format!("{at}: response {status} has no description"));
                    }
                }
            }
        }
        match op.get("operationId").and_then(Value::as_str) {
            Some(id) if ids.insert(id.to_string()) => {}
            other => wrong.push(format!("{at}: operationId {other:?} missing or repeated")),
        }
        let description = op["description"].as_str().unwrap_or_default();
        if !description.contains("Wer darf:") {
            wrong.push(format!(
                "{at}: the description does not say who may call it"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_ref_resolves_inside_the_document() {
    let doc = on_disk();
    let mut refs = Vec::new();
    collect_refs(&doc, String::new(), &mut refs);
    assert!(!refs.is_empty());
    let broken: Vec<String> = refs
        .iter()
        .filter(|(_, reference)| {
            reference
                .strip_prefix('#')
                .and_then(|pointer| doc.pointer(pointer))
                .is_none()
        })
        .map(|(at, reference)| format!("{at}: {reference}"))
        .collect();
    assert!(broken.is_empty(), "unresolved $ref:\n{}", broken.join("\n"));
}

/// The overlay (`src/api/openapi_overlay.json`) must not keep answers or schemas that no call
/// uses any more: every component is reached from some operation.
#[test]
fn every_component_is_used_by_an_operation() {
    let doc = on_disk();
    let mut reached = BTreeSet::new();
    let mut todo: Vec<String> = Vec::new();
    let mut refs = Vec::new();
    collect_refs(&doc["paths"], String::new(), &mut refs);
    todo.extend(refs.iter().map(|(_, r)| r.to_string()));
    while let Some(reference) = todo.pop() {
        if !reached.insert(reference.clone()) {
            continue;
        }
        if let Some(target) = reference.strip_prefix('#').and_then(|p| doc.pointer(p)) {
            let mut inner = Vec::new();
            collect_refs(target, String::new(), &mut inner);
            todo.extend(inner.iter().map(|(_, r)| r.to_string()));
        }
    }
    let mut unused = Vec::new();
    for kind in ["schemas", "responses", "parameters"] {
        for name in doc["components"][kind]
            .as_object()
            .into_iter()
            .flat_map(|m| m.keys())
        {
            if !reached.contains(&format!("#/components/{kind}/{name}")) {
                unused.push(format!("{kind}/{name}"));
            }
        }
    }
    assert!(
        unused.is_empty(),
        "components no operation uses: {unused:?}"
    );
}

#[test]
fn every_path_parameter_is_declared_and_every_declared_one_is_in_the_path() {
    let doc = on_disk();
    let mut wrong = Vec::new();
    for (path, method, op) in operations(&doc) {
        let at = format!("{} {path}", method.to_uppercase());
        let shared = doc["paths"][&path]["parameters"].as_array();
        let own = op["parameters"].as_array();
        let mut declared = BTreeSet::new();
        for parameter in shared.into_iter().chain(own).flatten() {
            let Some(parameter) = resolve(&doc, parameter) else {
                wrong.push(format!("{at}: a parameter $ref does not resolve"));
                continue;
            };
            if parameter["in"] != "path" {
                continue;
            }
            let name = parameter["name"].as_str().unwrap_or_default().to_string();
            if parameter["required"] != Value::Bool(true) {
                wrong.push(format!("{at}: path parameter {name} is not required"));
            }
            declared.insert(name);
        }
        let in_template = template_params(&path);
        for name in in_template.difference(&declared) {
            wrong.push(format!("{at}: {{{name}}} is not declared in parameters"));
        }
        for name in declared.difference(&in_template) {
            wrong.push(format!(
                "{at}: declares path parameter {name} not in the path"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_schemas_the_brief_names_exist() {
    let doc = on_disk();
    for name in [
        "User",
        "Provider",
        "ProviderInput",
        "List",
        "ListPage",
        "ProviderPage",
        "Folder",
        "FolderPage",
        "UploadRef",
        "Error",
    ] {
        assert!(
            doc["components"]["schemas"].get(name).is_some(),
            "schema {name} missing"
        );
    }
    let cookie = &doc["components"]["securitySchemes"]["sessionCookie"];
    assert_eq!(cookie["in"], "cookie");
    assert_eq!(cookie["name"], "ap_session");
}

/// A method a resource does not have answers 405 with `Allow` naming exactly the methods the
/// description lists for that path (paths that differ only by a trailing slash are one
/// resource, and one path item).
#[tokio::test]
async fn a_method_not_allowed_names_exactly_the_described_methods() {
    let app = spawn_app().await;
    // Signed in as admin: the routes behind a role answer 405 only to someone who passes it.
    let admin = app.session_with_roles(&["GS-Aktionsportal-Admin"]).await;
    let served = on_disk();
    let mut wrong = Vec::new();
    let mut checked = Vec::new();
    for (path, item) in served["paths"].as_object().expect("paths") {
        let described: BTreeSet<String> = METHODS
            .iter()
            .filter(|m| item.get(**m).is_some())
            .map(|m| m.to_uppercase())
            .collect();
        let Some(unused) = ["PATCH", "PUT", "DELETE", "POST"]
            .into_iter()
            .find(|m| !described.contains(*m))
        else {
            continue;
        };
        let concrete = path.replace("{id}", "1").replace("{name}", "logo.png");
        let response = app
            .client
            .request(unused.parse().unwrap(), app.url(&concrete))
            .header("cookie", format!("ap_session={admin}"))
            .header("sec-fetch-site", "same-origin")
            .send()
            .await
            .expect("request");
        if response.status() != 405 {
            // The fallback of a parameter that names nothing (404) is no method answer.
            continue;
        }
        let allowed: BTreeSet<String> = response
            .headers()
            .get("allow")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .split(',')
            .map(|m| m.trim().to_string())
            .filter(|m| !m.is_empty() && m != "HEAD")
            .collect();
        checked.push(path.clone());
        if allowed != described {
            wrong.push(format!(
                "{unused} {path}: Allow {allowed:?}, described {described:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "Allow differs:\n{}", wrong.join("\n"));
    // Among them the resources spec §7 spells with and without a trailing slash.
    for path in ["/api/providers/{id}", "/api/providers/{id}/lists"] {
        assert!(
            checked.iter().any(|p| p == path),
            "{path} not checked: {checked:?}"
        );
    }
}

/// Every error `code` the server's code names (`code: "…"` of a conflict or an error answer)
/// is in the description's `ErrorCode`, so a client's schema check does not refuse an answer.
#[test]
fn every_error_code_the_server_sends_is_described() {
    let doc = on_disk();
    let described: BTreeSet<&str> = doc["components"]["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .expect("ErrorCode enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut sent = BTreeSet::new();
    let mut pending = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (at, _) in text.match_indices("code: \"") {
                    let rest = &text[at + 7..];
                    let Some(end) = rest.find('"') else { continue };
                    // `code: "…".into()` are success words and Brevo's own codes, and the
                    // spec's success codes are written in capitals (`DOUBLE_OPT-IN_CONFIRMED`).
                    let word = &rest[..end];
                    let ours = word.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
                    if ours && !rest[end + 1..].starts_with('.') {
                        sent.insert(word.to_owned());
                    }
                }
            }
        }
    }
    let missing: Vec<_> = sent
        .iter()
        .filter(|code| !described.contains(code.as_str()))
        .collect();
    assert!(sent.contains("tag_exists"), "the scan finds the codes");
    assert!(missing.is_empty(), "not in ErrorCode: {missing:?}");
}
