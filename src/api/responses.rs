//! The answers many calls share and the error bodies narrowed to a few codes: what the
//! handlers name in their `#[utoipa::path]` responses and the description (`openapi.rs`)
//! collects. Kept apart from the description so that the handlers and it both import this
//! module and neither imports the other.

use std::sync::LazyLock;

use utoipa::openapi::RefOr;
use utoipa::openapi::response::Response;
use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, Ref, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// What the derive cannot express; see the module comment.
const OVERLAY: &str = include_str!("openapi_overlay.json");

pub(super) fn overlay() -> &'static serde_json::Value {
    static PARSED: LazyLock<serde_json::Value> =
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
    AnnouncementUnconfirmed("The package has started: switching its announcement on sends it at once, so it needs `confirmStarted`."):
        ["confirmation_required"];
    AnnouncementNotSent("The announcement has not gone out, or its package is archived or has ended."):
        ["conflict"];
}

/// The bad lines an `invalid_csv` answer lists (`services::contacts::planning` `Refused`).
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
