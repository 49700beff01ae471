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
use utoipa::openapi::RefOr;
use utoipa::openapi::response::Response;
use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, Ref, Schema, Type};
use utoipa::{OpenApi, PartialSchema, ToSchema};

use crate::domain::permissions::Capability;

/// What the derive cannot express; see the module comment.
const OVERLAY: &str = include_str!("openapi_overlay.json");

fn overlay() -> &'static Value {
    static PARSED: LazyLock<Value> =
        LazyLock::new(|| serde_json::from_str(OVERLAY).expect("openapi_overlay.json is JSON"));
    &PARSED
}

/// The error answers many calls share, referenced as `#/components/responses/{name}`. Their
/// bodies (`Error` narrowed to one `code`, with an example) are more than utoipa's schema
/// model reads, so the overlay's entry replaces the description given here in [`document`].
macro_rules! shared_responses {
    ($($name:ident),* $(,)?) => {
        $(
            pub struct $name;

            impl<'r> utoipa::ToResponse<'r> for $name {
                fn response() -> (&'r str, RefOr<Response>) {
                    (stringify!($name), RefOr::T(shared_response(stringify!($name))))
                }
            }
        )*
    };
}

shared_responses!(
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
);

fn shared_response(name: &str) -> Response {
    let description = overlay()["components"]["responses"][name]["description"]
        .as_str()
        .unwrap_or_else(|| panic!("openapi_overlay.json lacks the response {name}"));
    Response::new(description)
}

/// An `Error` whose `code` is one of the given ones: how one call fails in a few known ways,
/// so that a client (and the fuzzing's schema check) can rely on the code.
macro_rules! error_codes {
    ($($name:ident($description:literal): [$($code:literal),+ $(,)?] $(+ $extra:path)?;)*) => {
        $(
            #[doc = $description]
            pub struct $name;

            impl PartialSchema for $name {
                fn schema() -> RefOr<Schema> {
                    #[allow(unused_mut)]
                    let mut narrowing = ObjectBuilder::new().property(
                        "code",
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .enum_values(Some([$($code),+])),
                    );
                    $(narrowing = $extra(narrowing);)?
                    AllOfBuilder::new()
                        .description(Some($description))
                        .item(Ref::from_schema_name(crate::api::error::ErrorBody::name()))
                        .item(narrowing)
                        .into()
                }
            }

            impl ToSchema for $name {
                fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                    use crate::api::error::ErrorBody;
                    schemas.push((ErrorBody::name().into(), ErrorBody::schema()));
                    ErrorBody::schemas(schemas);
                }
            }
        )*
    };
}

error_codes! {
    CrossSiteRequest("A state-changing request another site sent the browser with."):
        ["cross_site_request"];
    UnauthorizedLogin("Not signed in, as the islands' \"who am I\" call says it."):
        ["unauthorized_login"];
    ValidationError("Invalid input; the German message names what is wrong."):
        ["validation_error"];
    ListConflict("The list is a criterion already, or the provider has no active folder."):
        ["list_exists", "change_folder_warning"];
    ListActive("Only an inactive list can be deleted."):
        ["list_active"];
    GroupConflict("A customer-group save that conflicts with other data."):
        ["email_exists", "changed_meanwhile", "marketing_retry_pending"];
    MarketingServiceError("The marketing service refused or could not be reached."):
        ["marketing_service_error"];
    MailRefused("No confirmation mail to a blocked address, nor twice within a minute."):
        ["email_blacklisted", "double_opt_in_recently_sent"];
    PayloadTooLargeError("The request body is over the limit."):
        ["payload_too_large"];
    CsvRefused("A CSV file with bad lines (`invalid_csv`, naming them) or unreadable input."):
        ["invalid_csv", "validation_error"]
        + csv_errors;
    SyncRefused("A sync runs already, or there is no marketing service to sync from."):
        ["sync_running", "marketing_not_connected"];
    TagConflict("Another tag has the name (without regard to case)."):
        ["tag_exists"];
}

/// The bad lines an `invalid_csv` answer lists (`services::planning` `Refused`).
fn csv_errors(narrowing: ObjectBuilder) -> ObjectBuilder {
    narrowing
        .property(
            "errors",
            utoipa::openapi::schema::ArrayBuilder::new().items(Ref::from_schema_name(
                crate::domain::planning_csv::LineError::name(),
            )),
        )
        .property(
            "errorCount",
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0)),
        )
}

#[derive(OpenApi)]
#[openapi(
    paths(
        super::auth::login_page,
        super::auth::login,
        super::auth::callback,
        super::auth::logout_page,
        super::auth::logout,
        super::auth::response_user_data,
        super::auth::login_user,
        super::providers::page,
        super::providers::create,
        super::providers::update,
        super::providers::remove,
        super::providers::lists_page,
        super::providers::create_list,
        super::providers::of_contact,
        super::lists::rename,
        super::lists::status,
        super::lists::remove,
        super::lists::sync,
        super::marketing::folders,
        super::marketing::folder_lists,
        super::uploads::upload,
        openapi,
        super::files::serve,
        super::files::preview,
        super::health::healthz,
        super::downloads::admin_page,
        super::downloads::customer_page,
        super::downloads::tags,
        super::downloads::create,
        super::downloads::duplicate,
        super::downloads::one,
        super::downloads::update,
        super::downloads::remove,
        super::downloads::change_archive_status,
        super::downloads::package_zip,
        super::downloads::files_zip,
        super::uploads::requirements,
        super::contacts::page,
        super::contacts::create,
        super::contacts::page_of_providers,
        super::marketing_retries::marketing_retries,
        super::contacts::by_email,
        super::customer_groups::by_customer_number,
        super::customer_groups::save_customer_group,
        super::contacts::lists_of,
        super::contacts::lists_without_ids,
        super::contacts::lists_of_many,
        super::contacts::update,
        super::contacts::remove,
        super::contacts::export,
        super::contacts::erase,
        super::tags::list,
        super::tags::create,
        super::tags::update,
        super::tags::remove,
        super::contacts::toggle_blacklist,
        super::double_opt_in::confirm_double_opt_in,
        super::double_opt_in::confirm_double_opt_in_form_doc,
        super::double_opt_in::send_one,
        super::double_opt_in::send_all,
        super::double_opt_in::mail_job,
        super::planning::status,
        super::planning::preview,
        super::planning::import,
        super::brevo_sync::sync_from_brevo,
        super::statistics::summary,
        super::statistics::providers,
        super::statistics::downloads_of_packages,
        super::statistics::package,
        super::statistics::package_customers,
        super::statistics::packages_csv,
        super::statistics::export_csv,
        super::audit::list,
    ),
    components(
        schemas(
            crate::api::error::ErrorBody,
            crate::services::brevo_sync::Event,
            crate::domain::input::IdsText,
            crate::domain::input::IdsFilter
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
