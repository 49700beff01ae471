//! REST API of spec §7 under `/api`; one module per resource, each with its own router.

pub mod auth;
pub mod extract;
pub mod files;
pub mod health;
pub mod lists;
pub mod marketing;
pub mod openapi;
pub mod providers;
pub mod static_files;
pub mod uploads;

use axum::Router;
use axum::routing::get;

use crate::error::ApiError;
use crate::startup::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(auth::router())
        .merge(providers::router())
        .merge(lists::router())
        .merge(marketing::router())
        .merge(uploads::router())
        .route("/openapi.json", get(openapi::openapi))
        .fallback(|| async { ApiError::NotFound })
}
