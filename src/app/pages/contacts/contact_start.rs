//! "Kontakte bearbeiten" (`/admin/contact/edit` without a number, issue 35): the start page
//! of whoever may open the contact editor, and the only way in for BU-DOI. A customer-number
//! field (a GET form to this page, so it works without JavaScript: a known number is answered
//! with a redirect to its editor) and the customer groups the user changed last.

use leptos::prelude::*;
use serde::Deserialize;

use crate::app::admit;
use crate::app::layout::{AdminLayout, unexpected_error};
use crate::app::loaded::loaded;
use crate::domain::access::{CONTACT_START_PATH, PageAccess};
use crate::domain::format::date_time;
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::services::contacts::contact_start::{self, Lookup, RecentGroup};
use crate::state::AppState;

/// The form's field, as the URL carries it.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct StartQuery {
    #[serde(rename = "customerNumber")]
    pub customer_number: Option<String>,
}

/// What the page shows.
#[derive(Clone, Debug, Default)]
pub struct StartPage {
    /// The number typed in, shown again beside its message.
    typed: String,
    /// Why the number typed in opens nothing.
    message: Option<String>,
    /// The editor of an unknown number, to create its customer group on purpose.
    create: Option<String>,
    recent: Vec<RecentGroup>,
}

/// What the request gets: the editor of a known number, or the page.
pub enum StartAnswer {
    Editor(String),
    Page(StartPage),
}

/// Looks up the number typed in and the groups changed last; `None` for a user who may not
/// open the contact editor (nothing is looked up for them) or when loading failed (logged).
pub async fn load(state: &AppState, user: Option<&User>, query: StartQuery) -> Option<StartAnswer> {
    let user = user.filter(|u| Capability::ContactEdit.allows(u))?;
    let mut page = StartPage::default();
    if let Some(typed) = query.customer_number {
        match contact_start::lookup(&state.db, state.planning.as_ref(), user, &typed).await {
            Ok(Lookup::Open(path)) => return Some(StartAnswer::Editor(path)),
            Ok(Lookup::Unknown { message, path }) => {
                page.message = Some(message);
                page.create = Some(path);
            }
            Ok(Lookup::Invalid(message)) => page.message = Some(message),
            Err(err) => {
                tracing::error!(error = %err, "customer number not looked up");
                return None;
            }
        }
        page.typed = typed.trim().chars().take(40).collect();
    }
    match contact_start::recent_groups(&state.db, user).await {
        Ok(recent) => page.recent = recent,
        Err(err) => {
            tracing::error!(error = %err, "recently changed customer groups");
            return None;
        }
    }
    Some(StartAnswer::Page(page))
}

#[component]
pub fn ContactStart() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::ContactEdit)) {
        return ().into_any();
    }
    let content = match loaded::<StartPage>() {
        Some(page) => view! {
            <NumberForm typed=page.typed.clone() message=page.message.clone()
                create=page.create.clone()/>
            <RecentGroups recent=page.recent.clone()/>
        }
        .into_any(),
        None => unexpected_error(),
    };
    view! { <AdminLayout title="Kontakte bearbeiten">{content}</AdminLayout> }.into_any()
}

#[component]
fn NumberForm(typed: String, message: Option<String>, create: Option<String>) -> impl IntoView {
    let invalid = message.is_some();
    let described = if invalid {
        "customer-number-error customer-number-help"
    } else {
        "customer-number-help"
    };
    view! {
        <section class="card mb-4" aria-labelledby="customer-number-title">
            <form class="card-body" method="get" action=CONTACT_START_PATH novalidate>
                <h2 class="h5" id="customer-number-title">"Kundennummer öffnen"</h2>
                <label class="form-label" for="customer-number">"Kundennummer"</label>
                <div class="input-group has-validation">
                    <input class="form-control" class:is-invalid=invalid id="customer-number"
                        name="customerNumber" type="text" inputmode="numeric" autocomplete="off"
                        maxlength="40" required value=typed autofocus
                        aria-invalid=invalid.then_some("true") aria-describedby=described
                        data-testid="customer-number"/>
                    <button class="btn btn-primary" type="submit" data-testid="open-customer">
                        <i class="bi bi-pencil-square me-1" aria-hidden="true"></i>"Kontakte öffnen"
                    </button>
                    {message.map(|message| view! {
                        <div class="invalid-feedback" id="customer-number-error" role="alert"
                            data-testid="customer-number-error">{message}</div>
                    })}
                </div>
                <p class="form-text mb-0" id="customer-number-help">
                    "Die Kontakte der Kundennummer öffnen sich zum Bearbeiten."
                </p>
                {create.map(|path| view! {
                    <p class="mt-2 mb-0">
                        <a href=path data-testid="create-group">
                            <i class="bi bi-plus-circle me-1" aria-hidden="true"></i>
                            "Trotzdem öffnen und eine neue Kundengruppe anlegen"
                        </a>
                    </p>
                })}
            </form>
        </section>
    }
}

#[component]
fn RecentGroups(recent: Vec<RecentGroup>) -> impl IntoView {
    let list = if recent.is_empty() {
        view! {
            <p class="text-body-secondary" data-testid="recent-groups-empty">
                "Sie haben noch keine Kundengruppe bearbeitet."
            </p>
        }
        .into_any()
    } else {
        let items = recent
            .into_iter()
            .map(|group| {
                let company = group
                    .company_name
                    .unwrap_or_else(|| "Firma nicht mehr vorhanden".into());
                view! {
                    <li class="list-group-item p-0">
                        <a class="list-group-item-action d-block px-3 py-2 text-decoration-none"
                            href=format!("{CONTACT_START_PATH}/{}", group.customer_number)>
                            <span class="d-block fw-semibold text-break">{company}</span>
                            <span class="d-block small text-body-secondary">
                                {format!(
                                    "Kundennummer {} · zuletzt geändert am {}",
                                    group.customer_number,
                                    date_time(group.changed_at)
                                )}
                            </span>
                        </a>
                    </li>
                }
            })
            .collect_view();
        view! { <ul class="list-group" data-testid="recent-groups">{items}</ul> }.into_any()
    };
    view! {
        <section aria-labelledby="recent-groups-title">
            <h2 class="h5" id="recent-groups-title">"Zuletzt von Ihnen bearbeitet"</h2>
            {list}
        </section>
    }
}
