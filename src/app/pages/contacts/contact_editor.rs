//! The contact editor (`/admin/contact/edit/{customer_number}`, spec §2): the island
//! `ContactEditor` with the customer group and the user's rights in its props.

use leptos::prelude::*;

use crate::app::admit;
use crate::app::island::{Island, props_json};
use crate::app::layout::{AdminLayout, unexpected_error};
use crate::app::loaded::loaded;
use crate::domain::access::{CONTACT_START_PATH, PageAccess};
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::services;
use crate::state::AppState;

/// The contact editor's props (see the ContactEditor island).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactEditorProps {
    /// As the path has it; the island reports a number that is none.
    customer_number: String,
    permissions: EditorPermissions,
    providers: Vec<services::contacts::customer_groups::EditorProvider>,
    /// Where "Zurück" leads: the contacts list, which BU-DOI may not open, or its start page.
    back_path: &'static str,
}

#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct EditorPermissions {
    /// Salutation and names, block, delete, add criteria (Admin, BU-Moderator).
    edit_details: bool,
    /// The criteria picker's reset (Admin).
    admin: bool,
}

/// Loads the editor's props; `None` without the right or when loading failed (logged).
pub async fn load_contact_editor(
    state: &AppState,
    user: Option<&User>,
    customer_number: &str,
) -> Option<ContactEditorProps> {
    let user = user.filter(|u| Capability::ContactEdit.allows(u))?;
    match services::contacts::customer_groups::editor_providers(&state.db, user).await {
        Ok(providers) => Some(ContactEditorProps {
            customer_number: customer_number.chars().take(40).collect(),
            permissions: EditorPermissions {
                edit_details: Capability::ContactDetails.allows(user),
                admin: Capability::AdminOnly.allows(user),
            },
            providers,
            back_path: if Capability::AdminArea.allows(user) {
                "/admin/contacts"
            } else {
                CONTACT_START_PATH
            },
        }),
        Err(err) => {
            tracing::error!(error = %err, "contact editor");
            None
        }
    }
}

#[component]
pub fn ContactEdit() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::ContactEdit)) {
        return ().into_any();
    }
    let content = match loaded::<ContactEditorProps>() {
        Some(props) => view! {
            <Island name="ContactEditor" props=props_json(&*props)>
                <p>"Dieser Bereich benötigt JavaScript."</p>
            </Island>
        }
        .into_any(),
        None => unexpected_error(),
    };
    view! { <AdminLayout title="Kontakte bearbeiten">{content}</AdminLayout> }.into_any()
}
