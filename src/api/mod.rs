//! REST API of spec §7 under `/api`; one module per resource, each with its own router.

pub mod auth;
pub mod health;
pub mod static_files;

use axum::Router;

use crate::error::ApiError;
use crate::startup::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(auth::router())
        .fallback(|| async { ApiError::NotFound })
}
