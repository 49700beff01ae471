//! The tag screen (`/admin/tags`, issue 25, admin only): the island `AdminTags` with the icons
//! its picker offers; it loads and changes the tags through `/api/tags`.

use leptos::prelude::*;
use serde::Serialize;

use crate::app::admit;
use crate::app::island::{Island, props_json};
use crate::app::layout::{AdminLayout, unexpected_error};
use crate::app::loaded::loaded;
use crate::domain::access::PageAccess;
use crate::domain::permissions::Capability;
use crate::domain::tags::{ICON_CHOICES, MAX_IMAGE_BYTES, TagName};
use crate::domain::user::User;

/// What the island starts with.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminTagsProps {
    /// The Bootstrap icons to pick from, without the `bi bi-` prefix.
    icon_choices: &'static [&'static str],
    /// The largest image an icon may be, in bytes.
    max_image_bytes: usize,
    name_min: usize,
    name_max: usize,
}

/// The props for an admin; `None` for anybody else.
pub fn load(user: Option<&User>) -> Option<AdminTagsProps> {
    user.filter(|u| Capability::AdminOnly.allows(u))?;
    Some(AdminTagsProps {
        icon_choices: ICON_CHOICES,
        max_image_bytes: MAX_IMAGE_BYTES,
        name_min: TagName::MIN,
        name_max: TagName::MAX,
    })
}

#[component]
pub fn Tags() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::AdminOnly)) {
        return ().into_any();
    }
    let content = match loaded::<AdminTagsProps>() {
        Some(props) => view! {
            <Island name="AdminTags" props=props_json(&*props)>
                <p>"Dieser Bereich benötigt JavaScript."</p>
            </Island>
        }
        .into_any(),
        None => unexpected_error(),
    };
    view! { <AdminLayout title="Tags">{content}</AdminLayout> }.into_any()
}
