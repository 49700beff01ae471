//! The Protokoll (`/admin/audit`, issue 24, Admin only): the audit log, newest first, filtered
//! by entity, record, actor and German days through an ordinary form, 50 entries a page.
//! Rendered on the server alone: it is a table to read, and works without JavaScript.

use leptos::prelude::*;
use serde::Deserialize;
use serde_json::Value;

use crate::app::admit;
use crate::app::data::loaded;
use crate::app::layout::AdminLayout;
use crate::domain::access::PageAccess;
use crate::domain::audit::Entity;
use crate::domain::format;
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::services::audit::{self, AuditEntry, AuditQuery};
use crate::services::error::ServiceError;
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
    let (entries, count, problem, status) = match audit::page(&state.db, user, &asked).await {
        Ok(page) => (page.content, page.count, None, None),
        Err(ServiceError::Invalid(message)) => {
            (Vec::new(), 0, Some(message), Some(StatusCode::BAD_REQUEST))
        }
        Err(err) => {
            tracing::error!(error = %err, "audit page");
            let message = "Das Protokoll konnte nicht geladen werden. Bitte versuchen Sie es \
                           später erneut.";
            let status = Some(StatusCode::INTERNAL_SERVER_ERROR);
            (Vec::new(), 0, Some(message.to_owned()), status)
        }
    };
    Some(AuditScreen {
        query,
        entries,
        count,
        problem,
        status,
    })
}

/// A value as the table shows it: text as is, nothing as "—", anything else as JSON.
fn shown(value: &Value) -> String {
    match value {
        Value::Null => "—".into(),
        Value::String(text) if text.is_empty() => "„“".into(),
        Value::String(text) => text.clone(),
        Value::Bool(true) => "ja".into(),
        Value::Bool(false) => "nein".into(),
        other => other.to_string(),
    }
}

fn changes_view(changes: &Value) -> AnyView {
    let Some(fields) = changes.as_object().filter(|f| !f.is_empty()) else {
        return view! { <span class="text-body-secondary">"—"</span> }.into_any();
    };
    let items = fields
        .iter()
        .map(|(field, pair)| {
            let before = shown(&pair["before"]);
            let after = shown(&pair["after"]);
            view! {
                <li>
                    <code>{field.clone()}</code>": "
                    <span class="ap-audit-before">{before}</span>
                    " → "
                    <span class="ap-audit-after">{after}</span>
                </li>
            }
        })
        .collect_view();
    view! { <ul class="list-unstyled mb-0 small text-break">{items}</ul> }.into_any()
}

fn entry_row(entry: &AuditEntry) -> AnyView {
    let when = format::date_time_seconds(entry.at);
    let stamp = entry.at.to_rfc3339();
    let record = match entry.entity_id {
        Some(id) => {
            let href = format!("/admin/audit?entity={}&entityId={id}", entry.entity);
            let label = format!("Verlauf von {} {id}", entry.entity_label);
            view! { <a href=href aria-label=label>{format!("{} {id}", entry.entity_label)}</a> }
                .into_any()
        }
        None => view! { <span>{entry.entity_label.clone()}</span> }.into_any(),
    };
    view! {
        <tr data-testid="audit-entry">
            <td class="text-nowrap"><time datetime=stamp>{when}</time></td>
            <td class="text-break">{entry.actor.clone()}</td>
            <td>{entry.action_label.clone()}</td>
            <td>{record}</td>
            <td>{changes_view(&entry.changes)}{erasures_view(entry)}</td>
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
            let fields = mark.fields.join(", ");
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
        let rows = screen.entries.iter().map(entry_row).collect_view();
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
    use serde_json::json;

    #[test]
    fn values_are_shown_in_german() {
        assert_eq!(shown(&json!(null)), "—");
        assert_eq!(shown(&json!(true)), "ja");
        assert_eq!(shown(&json!("Flyer")), "Flyer");
        assert_eq!(shown(&json!([1, 2])), "[1,2]");
    }

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
