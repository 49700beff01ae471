//! Admin screens (spec §2). Each renders its frame with the right title; the tables, forms
//! and modals are islands that later issues fill in.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::app::admit;
use crate::app::island::{Island, props_json};
use crate::app::layout::AdminLayout;
use crate::domain::access::PageAccess;
use crate::domain::permissions::Capability;

/// An admin page frame: guard, admin menu, title and the island placeholder.
#[component]
fn AdminFrame(
    title: &'static str,
    access: PageAccess,
    #[prop(optional)] subtitle: Option<String>,
) -> impl IntoView {
    if !admit(access) {
        return ().into_any();
    }
    let props = props_json(&serde_json::json!({ "title": title }));
    view! {
        <AdminLayout title=title>
            {subtitle.map(|s| view! { <p class="text-secondary">{s}</p> })}
            <Island name="AdminPlaceholder" props=props>
                <p>"Dieser Bereich benötigt JavaScript."</p>
            </Island>
        </AdminLayout>
    }
    .into_any()
}

fn param(name: &'static str) -> String {
    use_params_map().with_untracked(|p| p.get(name).unwrap_or_default())
}

#[component]
pub fn Contacts() -> impl IntoView {
    view! { <AdminFrame title="Händler" access=PageAccess::Requires(Capability::AdminArea)/> }
}

#[component]
pub fn ContactEdit() -> impl IntoView {
    let subtitle = format!("Kundennummer: {}", param("customer_number"));
    view! { <AdminFrame title="Kontakte bearbeiten" access=PageAccess::Requires(Capability::ContactEdit) subtitle=subtitle/> }
}

#[component]
pub fn Provider() -> impl IntoView {
    let subtitle = format!("Anbieter-ID: {}", param("id"));
    view! { <AdminFrame title="Kriterien" access=PageAccess::Requires(Capability::AdminArea) subtitle=subtitle/> }
}

#[component]
pub fn Downloads() -> impl IntoView {
    view! { <AdminFrame title="Downloads" access=PageAccess::Requires(Capability::AdminArea)/> }
}

#[component]
pub fn DownloadAdd() -> impl IntoView {
    view! { <AdminFrame title="Download anlegen" access=PageAccess::Requires(Capability::AdminArea)/> }
}

#[component]
pub fn DownloadEdit() -> impl IntoView {
    let subtitle = format!("Download-ID: {}", param("id"));
    view! { <AdminFrame title="Download bearbeiten" access=PageAccess::Requires(Capability::AdminArea) subtitle=subtitle/> }
}
