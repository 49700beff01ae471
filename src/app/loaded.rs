//! How a page reads what its route loaded (`app::data`): the values travel in the request's
//! extensions. Apart from the routes so that pages and routes do not import each other.

use std::sync::Arc;

use axum::extract::Request;
use leptos::prelude::{AnyView, use_context};

/// A loaded value in the request's extensions.
struct LoadedValue<T>(Arc<T>);

impl<T> Clone for LoadedValue<T> {
    fn clone(&self) -> Self {
        LoadedValue(self.0.clone())
    }
}

/// The value of type `T` loaded for the page being rendered, if its route loaded one.
pub fn loaded<T: Send + Sync + 'static>() -> Option<Arc<T>> {
    use_context::<axum::http::request::Parts>()?
        .extensions
        .get::<LoadedValue<T>>()
        .map(|loaded| loaded.0.clone())
}

pub(super) fn insert<T: Send + Sync + 'static>(request: &mut Request, value: T) {
    request
        .extensions_mut()
        .insert(LoadedValue(Arc::new(value)));
}

/// The component a data route renders, beside what it loaded.
#[derive(Clone, Copy)]
pub(super) struct PageView(pub(super) fn() -> AnyView);

/// The page a data route loaded, rendered by the app's fallback; `None` on every other path.
pub fn loaded_page() -> Option<AnyView> {
    let parts = use_context::<axum::http::request::Parts>()?;
    let page = parts.extensions.get::<PageView>()?;
    Some((page.0)())
}
