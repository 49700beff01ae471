//! `GET /api/openapi.json`: the OpenAPI 3.1 description of this API, derived from the
//! handlers' `#[utoipa::path]` annotations and the `ToSchema` types they answer with, so that
//! paths, operations, parameters and schemas cannot drift from the code. What a derive cannot
//! say (the API's long introduction, tags, the session cookie, the shared error answers and
//! the contracts we expect of third parties) comes from `openapi_overlay.json`, merged in here.
//!
//! `openapi.json` at the repository root is the generated, reviewable copy; `tests/openapi.rs`
//! fails when it differs from what the code generates (`UPDATE_OPENAPI=1 cargo test --test
//! openapi` rewrites it).

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use serde_json::{Value, json};
use utoipa::OpenApi;

use crate::api::responses::{
    BadQuery, ContactConflict, ContactInvalid, ContactQueryInvalid, DownloadInvalid,
    ExtensionNotAllowed, Forbidden, ForbiddenOrCrossSite, InternalError, MarketingError,
    MarketingRetryPending, NoContactIds, NotFound, NotLoggedIn, PayloadTooLarge, SlowRequest,
    Timeout, UploadTooLarge, overlay,
};
use crate::domain::permissions::Capability;

#[derive(OpenApi)]
#[openapi(
    paths(
        crate::api::accounts::auth::login_page,
        crate::api::accounts::auth::login,
        crate::api::accounts::auth::callback,
        crate::api::accounts::auth::logout_page,
        crate::api::accounts::auth::logout,
        crate::api::accounts::auth::response_user_data,
        crate::api::accounts::auth::login_user,
        crate::api::marketing::providers::page,
        crate::api::marketing::providers::create,
        crate::api::marketing::providers::update,
        crate::api::marketing::providers::remove,
        crate::api::marketing::providers::lists_page,
        crate::api::marketing::providers::create_list,
        crate::api::marketing::providers::of_contact,
        crate::api::marketing::lists::rename,
        crate::api::marketing::lists::status,
        crate::api::marketing::lists::remove,
        crate::api::marketing::lists::sync,
        crate::api::marketing::folders,
        crate::api::marketing::folder_lists,
        crate::api::catalog::uploads::upload,
        openapi,
        crate::api::catalog::files::serve,
        crate::api::catalog::files::preview,
        crate::api::catalog::files::mail_picture,
        crate::api::operations::health::healthz,
        crate::api::catalog::packages::admin_page,
        crate::api::catalog::packages::customer_page,
        crate::api::catalog::packages::tags,
        crate::api::catalog::packages::create,
        crate::api::catalog::packages::duplicate,
        crate::api::catalog::packages::one,
        crate::api::catalog::packages::update,
        crate::api::catalog::packages::remove,
        crate::api::catalog::packages::change_archive_status,
        crate::api::catalog::packages::package_zip,
        crate::api::catalog::packages::files_zip,
        crate::api::catalog::uploads::requirements,
        crate::api::contacts::page,
        crate::api::contacts::create,
        crate::api::contacts::page_of_providers,
        crate::api::marketing::marketing_retries::marketing_retries,
        crate::api::contacts::by_email,
        crate::api::contacts::customer_groups::by_customer_number,
        crate::api::contacts::customer_groups::save_customer_group,
        crate::api::contacts::lists_of,
        crate::api::contacts::lists_without_ids,
        crate::api::contacts::lists_of_many,
        crate::api::contacts::update,
        crate::api::contacts::remove,
        crate::api::contacts::export,
        crate::api::contacts::erase,
        crate::api::catalog::announcements::settings,
        crate::api::catalog::announcements::statuses,
        crate::api::catalog::announcements::save,
        crate::api::catalog::announcements::preview,
        crate::api::catalog::announcements::failures,
        crate::api::catalog::announcements::test_mail,
        crate::api::catalog::announcements::preview_page,
        crate::api::catalog::announcements::again,
        crate::api::catalog::tags::list,
        crate::api::catalog::tags::create,
        crate::api::catalog::tags::update,
        crate::api::catalog::tags::remove,
        crate::api::contacts::toggle_blacklist,
        crate::api::contacts::double_opt_in::confirm_double_opt_in,
        crate::api::contacts::double_opt_in::confirm_double_opt_in_form_doc,
        crate::api::contacts::double_opt_in::send_one,
        crate::api::contacts::double_opt_in::send_all,
        crate::api::contacts::double_opt_in::mail_job,
        crate::api::contacts::unsubscribe::unsubscribe_by_link,
        crate::api::contacts::planning::status,
        crate::api::contacts::planning::preview,
        crate::api::contacts::planning::import,
        crate::api::marketing::brevo_sync::sync_from_brevo,
        crate::api::insight::statistics::summary,
        crate::api::insight::statistics::providers,
        crate::api::insight::statistics::mails,
        crate::api::insight::statistics::downloads_of_packages,
        crate::api::insight::statistics::package,
        crate::api::insight::statistics::package_customers,
        crate::api::insight::statistics::packages_csv,
        crate::api::insight::statistics::export_csv,
        crate::api::insight::audit::list,
    ),
    components(
        schemas(
            crate::api::error::ErrorBody,
            crate::services::marketing::brevo_sync::Event,
            crate::domain::input::IdsText,
            crate::domain::input::IdsFilter,
            crate::domain::input::IdFilter
        ),
        responses(
            NotLoggedIn,
            Forbidden,
            ForbiddenOrCrossSite,
            NotFound,
            BadQuery,
            MarketingError,
            InternalError,
            SlowRequest,
            PayloadTooLarge,
            Timeout,
            UploadTooLarge,
            ExtensionNotAllowed,
            DownloadInvalid,
            ContactQueryInvalid,
            ContactInvalid,
            NoContactIds,
            ContactConflict,
            MarketingRetryPending,
        )
    )
)]
struct ApiDoc;

/// The capabilities an operation's `x-access` may name, by their Rust name.
const CAPABILITIES: [Capability; 7] = [
    Capability::AdminArea,
    Capability::ContactEdit,
    Capability::ContactDetails,
    Capability::AdminOnly,
    Capability::CustomerDownloads,
    Capability::ViewLinks,
    Capability::SignedIn,
];

/// Every operation's `x-access` names the capability of its route (or `null` for a public
/// call); who that lets in is filled in from the capability table, so it cannot drift.
fn expand_access(access: &mut Value) {
    let name = access["capability"].as_str().map(str::to_string);
    let capability = name.as_deref().map(|name| {
        CAPABILITIES
            .into_iter()
            .find(|c| format!("{c:?}") == name)
            .unwrap_or_else(|| panic!("x-access names an unknown capability {name}"))
    });
    let Some(object) = access.as_object_mut() else {
        return;
    };
    object.insert("signedIn".into(), Value::Bool(capability.is_some()));
    if let Some(crate::domain::roles::RoleRule::AnyOf(roles)) = capability.and_then(|c| c.rule()) {
        object.insert("anyOfRoles".into(), json!(roles));
    }
}

/// Shallow-merges `from` into `into` for objects (one level deep per call).
fn merge(into: &mut Value, from: &Value) {
    if let (Some(into), Some(from)) = (into.as_object_mut(), from.as_object()) {
        for (key, value) in from {
            match into.get_mut(key) {
                Some(existing) if existing.is_object() && value.is_object() => {
                    merge(existing, value)
                }
                _ => {
                    into.insert(key.clone(), value.clone());
                }
            }
        }
    }
}

/// Doc comments become descriptions; their rustdoc links (``[`ContactQuery::params`]``) mean
/// nothing to an API reader, so only the code span stays.
fn unlink_rustdoc(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                match inner {
                    Value::String(text) if key == "description" => {
                        *text = text.replace("[`", "`").replace("`]", "`");
                    }
                    _ => unlink_rustdoc(inner),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(unlink_rustdoc),
        _ => {}
    }
}

/// The whole description as served.
pub fn document() -> Value {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).expect("the description serializes");
    unlink_rustdoc(&mut doc);
    let overlay = overlay();
    for key in [
        "info",
        "servers",
        "tags",
        "security",
        "x-external-contracts",
    ] {
        doc[key] = overlay[key].clone();
    }
    merge(&mut doc["components"], &overlay["components"]);
    join_slash_twins(&mut doc["paths"]);
    if let Some(paths) = doc["paths"].as_object_mut() {
        for item in paths.values_mut() {
            if let Some(item) = item.as_object_mut() {
                for operation in item.values_mut() {
                    if let Some(access) = operation.get_mut("x-access") {
                        expand_access(access);
                    }
                }
            }
        }
    }
    doc
}

/// Spec §7 spells some calls of one resource with a trailing slash and others without
/// (`PUT /api/providers/{id}`, `DELETE /api/providers/{id}/`). The server strips the slash
/// before routing, so both are one resource: one path item holds all its operations (under
/// the spelling without the slash), and its `Allow` header lists exactly them.
fn join_slash_twins(paths: &mut Value) {
    let Some(paths) = paths.as_object_mut() else {
        return;
    };
    let twins: Vec<String> = paths
        .keys()
        .filter(|p| p.len() > 1 && p.ends_with('/') && paths.contains_key(&p[..p.len() - 1]))
        .cloned()
        .collect();
    for twin in twins {
        let Some(Value::Object(operations)) = paths.remove(&twin) else {
            continue;
        };
        if let Some(Value::Object(item)) = paths.get_mut(&twin[..twin.len() - 1]) {
            item.extend(operations);
        }
    }
}

/// The document as this build serves it: pretty JSON with a final newline, the same bytes as
/// `openapi.json`.
pub fn document_text() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| {
        let mut text = serde_json::to_string_pretty(&document()).expect("JSON");
        text.push('\n');
        text
    });
    &TEXT
}

#[utoipa::path(
    get,
    path = "/api/openapi.json",
    operation_id = "openapi",
    tag = "system",
    summary = "This API description",
    description = "The OpenAPI 3.1 description of the REST API (this document), generated from the code; `openapi.json` in the repository is the same document.\n\n**Wer darf:** jeder, auch ohne Anmeldung.",
    security(),
    responses(
        (status = 200, description = "The OpenAPI document.", body = Object, content_type = "application/json"),
        (status = 503, response = Timeout),
    ),
    extensions(("x-access" = json!({"capability": null}))),
)]
pub async fn openapi() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        document_text(),
    )
}
