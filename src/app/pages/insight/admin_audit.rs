//! The Protokoll (`/admin/audit`, issue 24, Admin only): the audit log, newest first, filtered
//! by entity, record, actor and German days through an ordinary form, 50 entries a page.
//! Rendered on the server alone: it is a table to read, and works without JavaScript.

use leptos::prelude::*;
use serde::Deserialize;
use serde_json::Value;

use crate::app::admit;
use crate::app::layout::AdminLayout;
use crate::app::loaded::loaded;
use crate::domain::access::PageAccess;
use crate::domain::audit::{Entity, Named, Shown, describe, field_label, same_value};
use crate::domain::format;
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::services::error::ServiceError;
use crate::services::insight::audit::{self, AuditEntry, AuditQuery, Names};
use crate::state::AppState;

/// Entries per page.
const PAGE_SIZE: i64 = 50;

/// The URL's filter, as the form sends it; every part may be missing or empty.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditPageQuery {
    entity: Option<String>,
    entity_id: Option<String>,
    actor: Option<String>,
    from: Option<String>,
    to: Option<String>,
    page: Option<String>,
}

impl AuditPageQuery {
    /// The 1-based page; anything unreadable is the first.
    fn page_number(&self) -> i64 {
        self.page
            .as_deref()
            .and_then(|p| p.trim().parse::<i64>().ok())
            .filter(|p| (1..=1_000_000).contains(p))
            .unwrap_or(1)
    }

    /// The URL of page `page` with the same filter.
    fn url_of(&self, page: i64) -> String {
        let mut url = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in [
            ("entity", &self.entity),
            ("entityId", &self.entity_id),
            ("actor", &self.actor),
            ("from", &self.from),
            ("to", &self.to),
        ] {
            if let Some(value) = value.as_deref().filter(|v| !v.trim().is_empty()) {
                url.append_pair(name, value);
            }
        }
        url.append_pair("page", &page.to_string());
        format!("/admin/audit?{}", url.finish())
    }
}

/// What the page shows.
pub struct AuditScreen {
    query: AuditPageQuery,
    entries: Vec<AuditEntry>,
    /// The present names of the records the entries name.
    names: Names,
    count: i64,
    /// Why the filter was refused (German), or that loading failed.
    problem: Option<String>,
    /// The page's status: 400 for a refused filter, 500 when loading failed.
    status: Option<axum::http::StatusCode>,
}

/// Loads the page for an admin; `None` for anybody else (the page sends them away).
pub async fn load(
    state: &AppState,
    user: Option<&User>,
    query: AuditPageQuery,
) -> Option<AuditScreen> {
    let user = user.filter(|u| Capability::AdminOnly.allows(u))?;
    let asked = AuditQuery {
        entity: query.entity.as_deref(),
        entity_id: query.entity_id.as_deref(),
        actor: query.actor.as_deref(),
        from: query.from.as_deref(),
        to: query.to.as_deref(),
        limit: Some(PAGE_SIZE),
        offset: Some((query.page_number() - 1) * PAGE_SIZE),
    };
    use axum::http::StatusCode;
    let (entries, names, count, problem, status) =
        match audit::named_page(&state.db, user, &asked).await {
            Ok(named) => (
                named.page.content,
                named.names,
                named.page.count,
                None,
                None,
            ),
            Err(ServiceError::Invalid(message)) => (
                Vec::new(),
                Names::default(),
                0,
                Some(message),
                Some(StatusCode::BAD_REQUEST),
            ),
            Err(err) => {
                tracing::error!(error = %err, "audit page");
                let message = "Das Protokoll konnte nicht geladen werden. Bitte versuchen Sie es \
                           später erneut.";
                let status = Some(StatusCode::INTERNAL_SERVER_ERROR);
                (
                    Vec::new(),
                    Names::default(),
                    0,
                    Some(message.to_owned()),
                    status,
                )
            }
        };
    Some(AuditScreen {
        query,
        entries,
        names,
        count,
        problem,
        status,
    })
}

/// A field's value in words (see `domain::audit::describe`), each part with its id or stored
/// code as a tooltip; nothing as "—".
fn value_view(key: &str, value: &Value, names: &Names) -> AnyView {
    let shown = describe(key, value, &|kind, id| {
        names.get(kind, id).map(str::to_owned)
    });
    if shown.is_empty() {
        return view! { <span>"—"</span> }.into_any();
    }
    let last = shown.len() - 1;
    shown
        .into_iter()
        .enumerate()
        .map(|(i, Shown { text, title })| {
            let comma = (i < last).then_some(", ");
            view! { <span title=title>{text}</span>{comma} }
        })
        .collect_view()
        .into_any()
}

fn changes_view(entry: &AuditEntry, names: &Names) -> AnyView {
    let Some(fields) = entry.changes.as_object().filter(|f| !f.is_empty()) else {
        return view! { <span class="text-body-secondary">"—"</span> }.into_any();
    };
    let items = fields
        .iter()
        // A set whose order alone changed is no change (entries written before issue 35).
        .filter(|(_, pair)| !same_value(&pair["before"], &pair["after"]))
        .map(|(key, pair)| {
            let label = pair["label"]
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| field_label(&entry.entity, key));
            let before = value_view(key, &pair["before"], names);
            let after = value_view(key, &pair["after"], names);
            view! {
                <li data-field=key.clone()>
                    <span class="fw-semibold">{label}</span>": "
                    <span class="ap-audit-before">{before}</span>
                    " → "
                    <span class="ap-audit-after">{after}</span>
                </li>
            }
        })
        .collect_view();
    view! { <ul class="list-unstyled mb-0 small text-break">{items}</ul> }.into_any()
}

/// The stored values, for a careful reader.
fn details_view(entry: &AuditEntry) -> AnyView {
    let stored = serde_json::from_str::<Value>(&entry.stored)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| entry.stored.clone());
    let id = entry
        .entity_id
        .map(|id| format!("ID {id} · "))
        .unwrap_or_default();
    view! {
        <details class="small">
            <summary>"Details"</summary>
            <p class="mb-1 text-body-secondary">
                {format!("{id}{} · {} · {}", entry.entity, entry.action, entry.at.to_rfc3339())}
            </p>
            <pre class="mb-0 ap-audit-stored">{stored}</pre>
        </details>
    }
    .into_any()
}

/// The record as it was named when the entry was written, with today's name beside it when
/// that differs; `Entity 9` when the entry kept no name and the record is gone.
fn record_name(entry: &AuditEntry) -> String {
    let label = &entry.entity_label;
    let Some(id) = entry.entity_id else {
        return label.clone();
    };
    match (&entry.entity_name, &entry.current_name) {
        (Some(then), Some(now)) if then != now => format!("{label} „{then}“ (heute „{now}“)"),
        (Some(then), Some(_)) => format!("{label} „{then}“"),
        (Some(then), None) if Named::of_entity(&entry.entity).is_some() => {
            format!("{label} „{then}“ (nicht mehr vorhanden)")
        }
        (Some(then), None) => format!("{label} „{then}“"),
        (None, Some(now)) => format!("{label} „{now}“"),
        (None, None) => format!("{label} {id}"),
    }
}

fn entry_row(entry: &AuditEntry, names: &Names) -> AnyView {
    let when = format::date_time_seconds(entry.at);
    let stamp = entry.at.to_rfc3339();
    let name = record_name(entry);
    let record = match entry.entity_id {
        Some(id) => {
            let href = format!("/admin/audit?entity={}&entityId={id}", entry.entity);
            let label = format!("Verlauf von {name}");
            let title = format!("ID {id}");
            view! { <a href=href aria-label=label title=title>{name}</a> }.into_any()
        }
        None => view! { <span>{name}</span> }.into_any(),
    };
    view! {
        <tr data-testid="audit-entry">
            <td class="text-nowrap"><time datetime=stamp>{when}</time></td>
            <td class="text-break">{entry.actor.clone()}</td>
            <td>{entry.action_label.clone()}</td>
            <td class="text-break">{record}</td>
            <td>{changes_view(entry, names)}{erasures_view(entry)}{details_view(entry)}</td>
        </tr>
    }
    .into_any()
}

/// Which erasures of a person replaced values of this entry, when, and in which fields.
fn erasures_view(entry: &AuditEntry) -> AnyView {
    entry
        .erasures
        .iter()
        .map(|mark| {
            let when = format::date_time_seconds(mark.at);
            let fields: Vec<String> = mark
                .fields
                .iter()
                .map(|f| field_label(&entry.entity, f))
                .collect();
            let fields = fields.join(", ");
            view! {
                <p class="small text-body-secondary mb-0" data-testid="audit-erasure">
                    {format!(
                        "Personenbezogene Werte gelöscht am {when} (Löschung Nr. {}): {fields}",
                        mark.erasure
                    )}
                </p>
            }
        })
        .collect_view()
        .into_any()
}

fn filter_form(query: &AuditPageQuery) -> AnyView {
    let value = |v: &Option<String>| v.clone().unwrap_or_default();
    let chosen = value(&query.entity);
    let options = Entity::ALL
        .iter()
        .map(|entity| {
            let word = entity.as_str();
            view! { <option value=word selected=chosen == word>{entity.label()}</option> }
        })
        .collect_view();
    view! {
        <form method="get" action="/admin/audit" class="row g-2 align-items-end mb-3" aria-label="Protokoll filtern">
            <div class="col-12 col-sm-6 col-lg-2">
                <label class="form-label" for="audit-entity">"Bereich"</label>
                <select class="form-select" id="audit-entity" name="entity">
                    <option value="" selected=chosen.is_empty()>"Alle"</option>
                    {options}
                </select>
            </div>
            <div class="col-12 col-sm-6 col-lg-2">
                <label class="form-label" for="audit-entity-id">"ID"</label>
                <input class="form-control" id="audit-entity-id" name="entityId" inputmode="numeric"
                    value=value(&query.entity_id)/>
            </div>
            <div class="col-12 col-sm-6 col-lg-3">
                <label class="form-label" for="audit-actor">"Wer (Login, CLI oder System)"</label>
                <input class="form-control" id="audit-actor" name="actor" autocomplete="off"
                    value=value(&query.actor)/>
            </div>
            <div class="col-6 col-lg-2">
                <label class="form-label" for="audit-from">"Von"</label>
                <input class="form-control" type="date" id="audit-from" name="from" value=value(&query.from)/>
            </div>
            <div class="col-6 col-lg-2">
                <label class="form-label" for="audit-to">"Bis"</label>
                <input class="form-control" type="date" id="audit-to" name="to" value=value(&query.to)/>
            </div>
            <div class="col-12 col-lg-1 d-flex gap-2">
                <button type="submit" class="btn btn-primary">"Filtern"</button>
            </div>
            <div class="col-12">
                <a href="/admin/audit">"Filter zurücksetzen"</a>
            </div>
        </form>
    }
    .into_any()
}

fn pager(screen: &AuditScreen) -> AnyView {
    let page = screen.query.page_number();
    let pages = ((screen.count + PAGE_SIZE - 1) / PAGE_SIZE).max(1);
    let previous = (page > 1).then(|| {
        let href = screen.query.url_of(page - 1);
        view! { <li class="page-item"><a class="page-link" href=href rel="prev">"Zurück"</a></li> }
    });
    let next = (page < pages).then(|| {
        let href = screen.query.url_of(page + 1);
        view! { <li class="page-item"><a class="page-link" href=href rel="next">"Weiter"</a></li> }
    });
    view! {
        <nav aria-label="Seiten des Protokolls" class="d-flex flex-wrap align-items-center gap-3">
            <ul class="pagination mb-0">{previous}{next}</ul>
            <span>{format!("Seite {page} von {pages} · {} Einträge", screen.count)}</span>
        </nav>
    }
    .into_any()
}

#[component]
pub fn Audit() -> impl IntoView {
    if !admit(PageAccess::Requires(Capability::AdminOnly)) {
        return ().into_any();
    }
    let Some(screen) = loaded::<AuditScreen>() else {
        return view! { <AdminLayout title="Protokoll">{crate::app::layout::unexpected_error()}</AdminLayout> }
            .into_any();
    };
    if let Some(status) = screen.status {
        crate::app::set_status(status);
    }
    let problem = screen.problem.clone().map(|message| {
        view! { <div class="alert alert-warning" role="alert">{message}</div> }
    });
    let body = if screen.entries.is_empty() {
        view! { <p data-testid="audit-empty">"Keine Einträge für diesen Filter."</p> }.into_any()
    } else {
        let rows = screen
            .entries
            .iter()
            .map(|entry| entry_row(entry, &screen.names))
            .collect_view();
        view! {
            <div class="table-responsive">
                <table class="table table-sm align-top">
                    <caption class="visually-hidden">"Änderungen, die neuesten zuerst"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Zeit"</th>
                            <th scope="col">"Wer"</th>
                            <th scope="col">"Aktion"</th>
                            <th scope="col">"Datensatz"</th>
                            <th scope="col">"Änderungen (vorher → nachher)"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let form = filter_form(&screen.query);
    let pages = pager(&screen);
    view! {
        <AdminLayout title="Protokoll">
            {form}
            {problem}
            {body}
            {pages}
        </AdminLayout>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_links_keep_the_filter() {
        let query = AuditPageQuery {
            entity: Some("package".into()),
            entity_id: Some("7".into()),
            actor: Some("a b@example.com".into()),
            page: Some("x".into()),
            ..AuditPageQuery::default()
        };
        assert_eq!(query.page_number(), 1);
        assert_eq!(
            query.url_of(2),
            "/admin/audit?entity=package&entityId=7&actor=a+b%40example.com&page=2"
        );
    }
}
