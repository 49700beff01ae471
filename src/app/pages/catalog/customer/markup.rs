//! The customer page's toolbar, filter panel and table as the server renders them: the same
//! markup as the `CustomerDownloads` island (islands/src/features/catalog/customer-downloads/
//! Toolbar.tsx, DownloadsTable.tsx, DownloadsPage.tsx), so nothing moves when the island takes
//! over. Without JavaScript the toolbar is a GET form and sorting, reset and more rows are
//! links; the controls that need the island (file selection, manager, tour) are disabled.

use leptos::prelude::*;

use super::list_url::ListState;
use chrono::{DateTime, Utc};

use crate::domain::badges::Badge;
use crate::domain::files::type_icon;
use crate::domain::format;
use crate::domain::paging::PAGE_SIZE;
use crate::services::catalog::packages::Tag;
use crate::services::catalog::packages::{FileView, NewSinceVisit, PackageView, ProviderRef};

const PAGE_PATH: &str = "/user/downloads";

pub const NO_MORE_DOWNLOADS: &str = "Keine weiteren Downloads vorhanden.";

fn badge_view(badge: Option<Badge>) -> AnyView {
    let Some(badge) = badge else {
        return ().into_any();
    };
    let (class, label) = match badge {
        Badge::New => ("ap-badge ap-badge-new", "NEU"),
        Badge::Upcoming => ("ap-badge ap-badge-upcoming", "BEVORSTEHENDE"),
        Badge::EndingSoon => ("ap-badge ap-badge-ending-soon", "LÄUFT IN KÜRZE AB"),
        Badge::Finished => ("ap-badge ap-badge-finished", "BEENDET"),
        Badge::Archived => ("ap-badge ap-badge-archived", "ARCHIVIERT"),
    };
    view! { <span class=class>{label}</span> }.into_any()
}

/// The end-date cell's colour (spec §4): red expired, orange ending soon, blue upcoming.
fn end_date_class(badge: Option<Badge>) -> Option<&'static str> {
    match badge {
        Some(Badge::Finished) => Some("ap-date-expired"),
        Some(Badge::EndingSoon) => Some("ap-date-ending-soon"),
        Some(Badge::Upcoming) => Some("ap-date-upcoming"),
        _ => None,
    }
}

/// A tag's icon: a Bootstrap icon class (`bi bi-…`), an https or site-relative image URL, or an
/// uploaded image as a `data:` URL.
fn tag_icon(tag: &Tag) -> AnyView {
    let icon = tag.icon.trim();
    if icon.contains("bi bi-") {
        let class: String = icon
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-') || c.is_whitespace())
            .collect();
        return view! { <i class=format!("ap-tag-icon {class}") aria-hidden="true"></i> }
            .into_any();
    }
    let image = (icon.starts_with("https://")
        || (icon.starts_with('/') && !icon.starts_with("//"))
        || crate::domain::tags::is_image_icon(icon))
        && !icon.contains(char::is_whitespace);
    if image {
        let src = icon.to_string();
        return view! { <img class="ap-tag-icon" src=src alt="" width="16" height="16"/> }
            .into_any();
    }
    ().into_any()
}

/// The page with `state`, one page of rows.
fn link(state: &ListState) -> String {
    link_with_rows(state, PAGE_SIZE)
}

fn link_with_rows(state: &ListState, rows: i64) -> String {
    format!("{PAGE_PATH}{}", state.url(rows))
}

/// Search, mode, filters, reset, manager and help (spec §2 "Toolbar", "Filter panel").
/// The text of the "new since your last visit" marks and chip.
pub const NEW_SINCE_VISIT: &str = "Neu seit Ihrem letzten Besuch";

fn new_since_visit_badge(on: bool) -> Option<impl IntoView> {
    on.then(|| view! { <span class="ap-badge ap-badge-visit">{NEW_SINCE_VISIT}</span> })
}

/// The chip that shows only what is new since the previous visit, with their count; none on
/// a first visit (unless the filter is on).
pub fn new_since_visit_chip(state: &ListState, new: Option<&NewSinceVisit>) -> AnyView {
    if new.is_none() && !state.new_since_visit {
        return ().into_any();
    }
    let on = state.new_since_visit;
    let class = if on {
        "btn btn-sm ap-chip ap-chip-on"
    } else {
        "btn btn-sm ap-chip"
    };
    view! {
        <div class="ap-chips mb-3">
            <a class=class href=link(&state.with_new_since_visit(!on)) role="button"
                aria-pressed=on.to_string() data-testid="new-since-chip" data-tour="new-since">
                <i class="bi bi-stars" aria-hidden="true"></i>" "{NEW_SINCE_VISIT}" "
                <span class="badge rounded-pill ap-chip-count">{new.map_or(0, |n| n.count)}</span>
            </a>
        </div>
    }
    .into_any()
}

pub fn toolbar(state: &ListState, tags: &[Tag], providers: &[ProviderRef]) -> AnyView {
    let filters = state.filter_count();
    let sort = state.sort_by.map(|column| {
        let order = if state.ascending { "ASC" } else { "DESC" };
        view! {
            <input type="hidden" name="sortBy" value=column/>
            <input type="hidden" name="sort" value=order/>
        }
    });
    let tag_boxes = tags
        .iter()
        .map(|tag| {
            let id = format!("ap-dl-tag-{}", tag.id);
            let checked = state.tag_ids.contains(&tag.id);
            view! {
                <div class="form-check">
                    <input class="form-check-input" type="checkbox" id=id.clone() name="tagsIds"
                        value=tag.id.to_string() checked=checked/>
                    <label class="form-check-label" for=id>{tag_icon(tag)}" "{tag.name.clone()}</label>
                </div>
            }
        })
        .collect_view();
    let provider_boxes = providers
        .iter()
        .map(|provider| {
            let id = format!("ap-dl-provider-{}", provider.id);
            let checked = state.provider_ids.contains(&provider.id);
            view! {
                <div class="form-check">
                    <input class="form-check-input" type="checkbox" id=id.clone() name="providerIds"
                        value=provider.id.to_string() checked=checked/>
                    <label class="form-check-label" for=id>{provider.name.clone()}</label>
                </div>
            }
        })
        .collect_view();
    view! {
        <form class="ap-toolbar d-flex flex-wrap align-items-start gap-2 mb-3" method="get"
            action=PAGE_PATH role="search" aria-label="Downloads durchsuchen">
            <div class="input-group ap-search" data-tour="search">
                <label class="visually-hidden" for="ap-dl-search">"Suchbegriff"</label>
                <input id="ap-dl-search" class="form-control" type="search" name="search"
                    placeholder="Suchen …" autocomplete="off" value=state.search.clone()/>
                <label class="visually-hidden" for="ap-dl-mode">"Suchen nach"</label>
                <select id="ap-dl-mode" class="form-select ap-search-mode" name="searchMethode" data-tour="mode">
                    <option value="byName" selected=!state.by_filename>"Bezeichnung"</option>
                    <option value="byFilename" selected=state.by_filename>"Dateiname"</option>
                </select>
                <button class="btn btn-outline-secondary" type="submit" aria-label="Suchen">
                    <i class="bi bi-search" aria-hidden="true"></i>
                </button>
            </div>
            {sort}
            <details class="ap-filters">
                <summary class="btn btn-outline-secondary" data-tour="filters" data-testid="filters-toggle">
                    <i class="bi bi-funnel" aria-hidden="true"></i><span class="ap-label">" Filter"</span>
                    {(filters > 0).then(|| view! {
                        <span class="badge text-bg-primary ms-1" data-testid="filter-count">
                            {filters}<span class="visually-hidden">" aktiv"</span>
                        </span>
                    })}
                </summary>
                <div class="ap-filter-panel card card-body shadow" data-testid="filter-panel">
                    <div class="ap-sheet-head">
                        <p class="h5 mb-0">"Filter"</p>
                        <a class="btn-close" href=link(state) aria-label="Filter schließen"
                            data-testid="filters-close"></a>
                    </div>
                    <div class="form-check form-switch mb-3" data-tour="filter-archived">
                        <input class="form-check-input" type="checkbox" role="switch" id="ap-dl-archived"
                            name="archived" value="true" checked=state.archived/>
                        <label class="form-check-label" for="ap-dl-archived">"Archivierte Downloads anzeigen"</label>
                    </div>
                    <fieldset class="mb-3" data-tour="filter-tags">
                        <legend class="h6 mb-1">"Tags"</legend>
                        <p class="small text-body-secondary mb-1">"Keine Auswahl: Dateien mit und ohne Tags"</p>
                        {tag_boxes}
                    </fieldset>
                    <fieldset class="mb-3" data-tour="filter-providers">
                        <legend class="h6 mb-1">"Anbieter"</legend>
                        <p class="small text-body-secondary mb-1">"Keine Auswahl: alle Anbieter"</p>
                        {provider_boxes}
                    </fieldset>
                    <button class="btn btn-primary btn-sm" type="submit">"Filter anwenden"</button>
                </div>
            </details>
            <a class="btn btn-outline-secondary" href=link(&state.reset()) data-tour="reset"
                data-testid="filters-reset">
                <i class="bi bi-arrow-counterclockwise" aria-hidden="true"></i>
                <span class="ap-label">" Zurücksetzen"</span>
            </a>
            <button type="button" class="btn btn-primary ms-auto" data-tour="manager"
                data-testid="manager-open" disabled=true>
                <i class="bi bi-file-earmark-zip" aria-hidden="true"></i>
                <span class="ap-label">" Download-Manager"</span>" "
                <span class="badge text-bg-light" data-testid="selected-count">"0"</span>
                <span class="visually-hidden">" Dateien ausgewählt"</span>
            </button>
            <button type="button" class="btn btn-outline-secondary" data-tour="help"
                data-testid="tour-start" aria-label="Hilfe: Rundgang starten"
                title="Hilfe: Rundgang starten" disabled=true>
                <i class="bi bi-question-circle" aria-hidden="true"></i>
            </button>
        </form>
    }
    .into_any()
}

/// A checkbox of the island, shown but inert until it has taken over.
fn inert_checkbox(label: String, tour: Option<&'static str>) -> impl IntoView {
    view! {
        <input class="form-check-input" type="checkbox" aria-label=label data-tour=tour disabled=true/>
    }
}

/// A file's picture: its preview's thumbnail (a link to the large preview, which the island
/// opens in a dialog), or its type icon.
fn file_visual(file: &FileView) -> AnyView {
    match (&file.preview_url, &file.preview_large_url) {
        (Some(thumb), Some(large)) => view! {
            <a class="ap-thumb" href=large.clone() aria-label=format!("Vorschau von {} öffnen", file.name)
                data-tour="preview">
                <img src=thumb.clone() alt="" loading="lazy" width=file.preview_width
                    height=file.preview_height/>
            </a>
        }
        .into_any(),
        _ => view! {
            <span class="ap-thumb ap-thumb-icon" aria-hidden="true">
                <i class=format!("bi {}", type_icon(&file.ext))></i>
            </span>
        }
        .into_any(),
    }
}

fn file_item(file: &FileView, tags: &[Tag]) -> impl IntoView {
    let file_tags: Vec<&Tag> = file
        .tags_ids
        .iter()
        .filter_map(|id| tags.iter().find(|t| t.id == *id))
        .collect();
    let tag_names = file_tags
        .iter()
        .map(|t| t.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let tag_list = (!file_tags.is_empty()).then(|| {
        let icons = file_tags.iter().map(|t| tag_icon(t)).collect_view();
        view! {
            <span class="ap-file-tags" title=tag_names.clone()>
                {icons}<span class="visually-hidden">"Tags: "{tag_names.clone()}</span>
            </span>
        }
    });
    view! {
        <li class="ap-file">
            <input class="form-check-input ap-file-check" type="checkbox"
                aria-label=format!("{} auswählen", file.name) data-tour="file-checkbox" disabled=true/>
            {file_visual(file)}
            <span class="ap-file-main">
                <a class="ap-file-name" href=file.path.clone() download=file.name.clone()
                    aria-label=format!("{} herunterladen", file.name) data-tour="file-link">
                    <i class=format!("bi {} ap-file-type", type_icon(&file.ext)) aria-hidden="true"></i>" "
                    {file.name.clone()}
                </a>" "
                <span class="ap-file-meta">
                    {tag_list}" "
                    <span class="text-secondary small">{format::file_size(file.size)}</span>" "
                    {badge_view(file.badge)}" "{new_since_visit_badge(file.new_since_visit)}
                </span>
            </span>
            // A large target for fingers; for assistive technology and the keyboard it repeats
            // the name's link, so it is left out there.
            <a class="btn btn-outline-primary ap-file-download" href=file.path.clone()
                download=file.name.clone() aria-hidden="true" tabindex="-1">
                <i class="bi bi-download" aria-hidden="true"></i>" Herunterladen"
            </a>
        </li>
    }
}

/// A date cell; on a phone the cell shows its column's name before the date.
fn date_cell(
    class: &'static str,
    label: &'static str,
    extra: Option<&'static str>,
    at: DateTime<Utc>,
) -> impl IntoView {
    let class = match extra {
        Some(extra) => format!("{class} {extra}"),
        None => class.to_string(),
    };
    view! {
        <td class=class>
            <span class="ap-cell-label">{label}": "</span>{format::date_time(at)}
        </td>
    }
}

fn package_row(package: &PackageView, tags: &[Tag]) -> impl IntoView {
    let provider = match &package.provider.upload {
        Some(logo) => view! {
            <img class="ap-customer-logo" src=logo.path.clone() alt=package.provider.name.clone()/>
        }
        .into_any(),
        None => view! { <span>{package.provider.name.clone()}</span> }.into_any(),
    };
    let select = (!package.uploads.is_empty())
        .then(|| inert_checkbox(format!("Alle Dateien von {} auswählen", package.name), None));
    let files = if package.uploads.is_empty() {
        view! {
            <span class="text-warning-emphasis" data-testid="no-files">
                <i class="bi bi-exclamation-triangle-fill" aria-hidden="true"></i>" Keine Dateien"
            </span>
        }
        .into_any()
    } else {
        let items = package
            .uploads
            .iter()
            .map(|file| file_item(file, tags))
            .collect_view();
        let zip = format!("/api/download/{}/zip", package.id);
        view! {
            <ul class="list-unstyled mb-1 ap-file-list">{items}</ul>
            <a class="ap-package-zip" href=zip data-tour="package-zip">
                <i class="bi bi-file-earmark-zip" aria-hidden="true"></i>" Alle Dateien als ZIP"
            </a>
        }
        .into_any()
    };
    view! {
        <tr class=package.archived.then_some("ap-row-archived") data-testid="download-row">
            <td class="ap-cell-select">{select}</td>
            <td class="ap-cell-provider">{provider}</td>
            <td class="ap-cell-name">
                <span class="ap-package-name">{package.name.clone()}</span>" "{badge_view(package.badge)}
                " "{new_since_visit_badge(package.new_since_visit)}
            </td>
            {date_cell("ap-cell-start", "Gültig ab", None, package.start_at)}
            {date_cell("ap-cell-end", "Gültig bis", end_date_class(package.badge), package.end_at)}
            {date_cell("ap-cell-updated", "Geändert", None, package.updated_at)}
            <td class="ap-cell-files">{files}</td>
        </tr>
    }
}

const COLUMNS: [(&str, &str); 5] = [
    ("provider", "Anbieter"),
    ("name", "Bezeichnung"),
    ("startAt", "Gültig ab"),
    ("endAt", "Gültig bis"),
    ("updatedAt", "Geändert"),
];

fn column_header(state: &ListState, column: &'static str, label: &'static str) -> impl IntoView {
    let sorted = state.sort_by == Some(column);
    let aria_sort = sorted.then_some(if state.ascending {
        "ascending"
    } else {
        "descending"
    });
    let icon = match (sorted, state.ascending) {
        (false, _) => "bi bi-chevron-expand",
        (true, true) => "bi bi-caret-up-fill",
        (true, false) => "bi bi-caret-down-fill",
    };
    view! {
        <th scope="col" aria-sort=aria_sort data-tour=format!("column-{column}")>
            <a class="ap-sort" href=link(&state.sorted_by(column))>
                {label}" "<i class=icon aria-hidden="true"></i>
            </a>
        </th>
    }
}

/// The packages (spec §2 "Table columns") and the row below with 'loaded/total' and the link
/// to more rows.
pub fn table(packages: &[PackageView], count: i64, state: &ListState, tags: &[Tag]) -> AnyView {
    let headers = COLUMNS
        .iter()
        .map(|(column, label)| column_header(state, column, label))
        .collect_view();
    let rows = packages.iter().map(|p| package_row(p, tags)).collect_view();
    let shown = packages.len() as i64;
    let more = if shown < count {
        let next = link_with_rows(state, shown + PAGE_SIZE);
        view! {
            <a class="btn btn-outline-primary" href=next data-testid="load-more">"Weitere laden"</a>
        }
        .into_any()
    } else {
        view! { <p class="text-secondary mb-0" data-testid="no-more">{NO_MORE_DOWNLOADS}</p> }
            .into_any()
    };
    view! {
        <div class="ap-select-all-bar form-check">
            <input class="form-check-input" type="checkbox" id="ap-dl-select-all-cards"
                data-tour="select-all" disabled=true/>
            <label class="form-check-label" for="ap-dl-select-all-cards">"Alle Dateien auswählen"</label>
        </div>
        <div class="ap-table-wrap">
            <table class="table align-middle ap-downloads-table">
                <caption class="visually-hidden">"Ihre Download-Pakete"</caption>
                <thead>
                    <tr>
                        <th scope="col" class="ap-col-select">
                            {inert_checkbox("Alle Dateien auswählen".into(), Some("select-all"))}
                        </th>
                        {headers}
                        <th scope="col">"Dateien"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <div class="d-flex align-items-center gap-3 ap-list-footer" data-tour="load-more">
            <span>
                <span class="visually-hidden">"Geladen: "</span>
                <span data-testid="loaded-total">{format!("{shown}/{count}")}</span>
            </span>
            {more}
        </div>
    }
    .into_any()
}

/// A dealer without any released package (nothing searched or filtered).
pub fn no_packages() -> AnyView {
    view! {
        <div class="alert alert-info" role="status" data-testid="no-packages">
            <h2 class="h5">"Noch keine Download-Pakete"</h2>
            <p class="mb-0">"Für Ihre Kundennummer sind derzeit keine Download-Pakete freigegeben. \
                Sobald neues Werbematerial für Sie bereitsteht, finden Sie es hier. \
                Bei Fragen hilft Ihnen Ihr Ansprechpartner gerne weiter."</p>
        </div>
    }
    .into_any()
}

/// Search or filters match nothing.
pub fn no_matches(state: &ListState) -> AnyView {
    view! {
        <div class="alert alert-secondary" role="status" data-testid="no-matches">
            "Keine Downloads gefunden, die zu Ihrer Suche und Ihren Filtern passen. "
            <a href=link(&state.reset())>"Suche und Filter zurücksetzen"</a>
        </div>
    }
    .into_any()
}
