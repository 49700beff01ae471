//! The unsubscribe page of advertising mails (issue 37): opened from a mail's "Abmelden"
//! link, no login. The GET only shows a button; its POST to `/api/unsubscribe/{token}` (as a
//! mail program's one-click POST, RFC 8058) blocks the address and returns here.

use leptos::prelude::*;

use crate::app::layout::Layout;
use crate::app::loaded::loaded;
use crate::app::{no_store, set_status};
use crate::services::contacts::unsubscribe::{
    DONE, PREVIEW, UNKNOWN, UnsubscribeState, one_click_path,
};

/// What the route loaded for the page: the link's state and its token.
pub struct UnsubscribePage {
    pub state: UnsubscribeState,
    pub token: String,
}

/// The page's heading.
pub const HEADING: &str = "Vom Newsletter abmelden";

#[component]
pub fn Unsubscribe() -> impl IntoView {
    no_store();
    let page = loaded::<UnsubscribePage>();
    let content = match page.as_deref() {
        Some(UnsubscribePage {
            state: UnsubscribeState::Subscribed,
            token,
        }) => view! {
            <p>"Möchten Sie keine Ankündigungen und Hinweise zu Aktionen mehr per E-Mail erhalten?"</p>
            <form method="post" action=one_click_path(token)>
                <input type="hidden" name="List-Unsubscribe" value="One-Click"/>
                <button type="submit" class="btn btn-primary" data-testid="unsubscribe-button">
                    "Jetzt abmelden"
                </button>
            </form>
        }
        .into_any(),
        Some(UnsubscribePage {
            state: UnsubscribeState::Unsubscribed,
            ..
        }) => view! {
            <p role="status" data-testid="unsubscribed">{DONE}</p>
        }
        .into_any(),
        Some(UnsubscribePage {
            state: UnsubscribeState::Preview,
            ..
        }) => view! {
            <p role="status" data-testid="unsubscribe-preview">{PREVIEW}</p>
        }
        .into_any(),
        _ => {
            set_status(axum::http::StatusCode::NOT_FOUND);
            view! {
                <p class="text-danger" role="alert" data-testid="unsubscribe-unknown">{UNKNOWN}</p>
            }
            .into_any()
        }
    };
    view! {
        <Layout>
            <section class="ap-card-page card mx-auto">
                <div class="card-body p-4 text-center">
                    <h1 class="h3">{HEADING}</h1>
                    {content}
                </div>
            </section>
        </Layout>
    }
}
