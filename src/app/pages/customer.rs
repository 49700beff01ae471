//! The customer view (spec §2 "Customer downloads page", "Double opt-in page").

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::app::admit;
use crate::app::island::{Island, props_json};
use crate::app::layout::Layout;
use crate::domain::access::PageAccess;
use crate::domain::permissions::Capability;

#[component]
pub fn Downloads() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::CustomerDownloads)) {
        return ().into_any();
    }
    view! {
        <Layout>
            <h1 class="h3 mb-3">"Aktionsportal Netzvermarktung"</h1>
            <Island name="AdminPlaceholder" props=props_json(&serde_json::json!({ "title": "Downloads" }))>
                <p>"Hier finden Sie Ihre Download-Pakete."</p>
            </Island>
        </Layout>
    }
    .into_any()
}

/// Double opt-in confirmation: no login needed. Filled by the double opt-in issue.
#[component]
pub fn VerifyDoubleOptIn() -> impl IntoView {
    let params = use_params_map();
    let has_contact =
        params.with_untracked(|p| p.get("contact_id").is_some_and(|id| !id.is_empty()));
    view! {
        <Layout>
            <section class="ap-card-page card mx-auto">
                <div class="card-body p-4 text-center">
                    <h1 class="h3">"E-Mail-Adresse bestätigen"</h1>
                    {if has_contact {
                        "Die Bestätigung Ihrer E-Mail-Adresse ist in Kürze hier möglich."
                    } else {
                        "Die E-Mail konnte nicht bestätigt werden oder gefunden werden!"
                    }}
                </div>
            </section>
        </Layout>
    }
}
