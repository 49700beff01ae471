//! REST API of spec §7 under `/api`: one folder per product area (README "Product areas"),
//! inside it one module per resource, each with its own router.

pub mod accounts;
pub mod catalog;
pub mod contacts;
pub mod error;
pub mod extract;
pub mod insight;
pub mod marketing;
pub mod openapi;
pub mod operations;
pub mod responses;
pub mod static_files;

use axum::Router;
use axum::middleware::from_fn_with_state;
use axum::routing::get;

use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::config::Config;
use crate::server::limits::{BodyRule, limit_body, time_limit};
use crate::state::AppState;

/// The API. Ordinary calls must receive their body within the body timeout and answer
/// within the request time limit; uploads instead need a minimum transfer rate and have no
/// time limit (a 2 GB upload takes as long as it takes), nor have the streamed ZIPs.
pub fn router(config: &Config) -> Router<AppState> {
    let timed = Router::new()
        .merge(accounts::auth::router())
        .merge(marketing::providers::router())
        .merge(marketing::lists::router())
        .merge(marketing::router())
        .merge(catalog::packages::router())
        .merge(catalog::announcements::router())
        .merge(contacts::router())
        .merge(contacts::customer_groups::router())
        .merge(contacts::double_opt_in::router())
        .merge(contacts::unsubscribe::router())
        .merge(marketing::brevo_sync::router())
        .merge(marketing::marketing_retries::router())
        .merge(catalog::tags::router())
        .merge(contacts::planning::router())
        .merge(insight::statistics::router())
        .merge(insight::audit::router())
        .route("/openapi.json", get(openapi::openapi))
        .layer(from_fn_with_state(BodyRule::for_body(config), limit_body))
        .layer(from_fn_with_state(config.request_timeout(), time_limit));
    let uploads = catalog::uploads::router()
        .layer(from_fn_with_state(BodyRule::for_upload(config), limit_body));
    let streamed = catalog::packages::zip_router()
        .layer(from_fn_with_state(BodyRule::for_body(config), limit_body));
    timed
        .merge(uploads)
        .merge(streamed)
        .fallback(|| async { ApiError::NotFound })
}

/// The answer of a delete that removed the record `id`.
#[derive(Serialize, ToSchema)]
pub struct Removed {
    #[schema(value_type = String, examples("Erfolgreich entfernt"))]
    message: &'static str,
    id: i64,
}

impl Removed {
    pub fn new(id: i64) -> Self {
        Removed {
            message: "Erfolgreich entfernt",
            id,
        }
    }
}
