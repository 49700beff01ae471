//! Aktionsportal: the library behind the `aktionsportal` binary.
//!
//! Layers (see README): `domain` holds pure rules, `db` the data access for SQLite and
//! PostgreSQL, `services` the use cases, `integrations` third-party clients, `storage` the
//! file store, `previews` the drawing of file previews, `auth` sessions and guards, `api` the REST handlers, `app` the Leptos SSR pages,
//! `seed` the demo and benchmark data sets.

pub mod api;
pub mod app;
pub mod assets;
pub mod auth;
pub mod cli;
pub mod config;
pub mod db;
pub mod domain;
pub mod headers;
pub mod integrations;
pub mod metrics;
pub mod previews;
pub mod seed;
pub mod server;
pub mod services;
pub mod startup;
pub mod state;
pub mod storage;
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
