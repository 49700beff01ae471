//! The customer list's search, filters and sort as the address bar carries them, the same as
//! the island's `islands/src/features/catalog/customer-downloads/listState.ts`: the server page reads
//! them, and its links (sorting, reset, more rows) write them in the island's spelling.

use url::form_urlencoded;

use crate::domain::paging::PAGE_SIZE;
use crate::services::catalog::packages::PackageListQuery;

/// The columns a customer can sort by (spec §2), as the API names them.
pub const SORT_COLUMNS: [&str; 5] = ["provider", "name", "startAt", "endAt", "updatedAt"];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListState {
    pub search: String,
    pub by_filename: bool,
    pub archived: bool,
    /// Empty: all providers.
    pub provider_ids: Vec<i64>,
    /// Empty: no tag filter.
    pub tag_ids: Vec<i64>,
    /// `None`: the default order, newest first.
    pub sort_by: Option<&'static str>,
    pub ascending: bool,
    /// Only what is new since the user's previous visit.
    pub new_since_visit: bool,
}

/// Positive ids of a JSON array (`[1,2]`); nothing for anything else.
fn json_ids(text: &str) -> Vec<i64> {
    serde_json::from_str::<Vec<serde_json::Value>>(text)
        .map(|items| {
            items
                .iter()
                .filter_map(serde_json::Value::as_i64)
                .filter(|id| *id > 0)
                .collect()
        })
        .unwrap_or_default()
}

fn ids_param(ids: &[i64]) -> Option<String> {
    (!ids.is_empty()).then(|| serde_json::to_string(ids).unwrap_or_default())
}

impl ListState {
    /// The state a query describes; unknown or malformed values fall back to the defaults.
    pub fn of(query: &PackageListQuery) -> ListState {
        let sort_by = query
            .sort_by
            .as_deref()
            .and_then(|s| SORT_COLUMNS.iter().copied().find(|c| *c == s));
        ListState {
            search: query.search.clone().unwrap_or_default(),
            by_filename: query.search_method.as_deref() == Some("byFilename"),
            archived: matches!(query.archived.as_deref(), Some("true") | Some("1")),
            provider_ids: query
                .provider_ids
                .as_deref()
                .map(json_ids)
                .unwrap_or_default(),
            tag_ids: query.tags_ids.as_deref().map(json_ids).unwrap_or_default(),
            sort_by,
            ascending: sort_by.is_some()
                && query
                    .sort
                    .as_deref()
                    .is_some_and(|s| s.eq_ignore_ascii_case("asc")),
            new_since_visit: matches!(query.new_since_visit.as_deref(), Some("true") | Some("1")),
        }
    }

    /// The address-bar query: only what differs from the defaults, `anzahl` above one page.
    pub fn url(&self, shown: i64) -> String {
        let mut url = form_urlencoded::Serializer::new(String::new());
        let search = self.search.trim();
        if !search.is_empty() {
            url.append_pair("search", search);
        }
        if self.by_filename {
            url.append_pair("searchMethode", "byFilename");
        }
        if self.archived {
            url.append_pair("archived", "true");
        }
        if let Some(ids) = ids_param(&self.provider_ids) {
            url.append_pair("providerIds", &ids);
        }
        if let Some(ids) = ids_param(&self.tag_ids) {
            url.append_pair("tagsIds", &ids);
        }
        if let Some(column) = self.sort_by {
            url.append_pair("sortBy", column);
            url.append_pair("sort", if self.ascending { "ASC" } else { "DESC" });
        }
        if self.new_since_visit {
            url.append_pair("newSinceVisit", "true");
        }
        if shown > PAGE_SIZE {
            url.append_pair("anzahl", &shown.to_string());
        }
        let query = url.finish();
        if query.is_empty() {
            String::new()
        } else {
            format!("?{query}")
        }
    }

    /// Sorting by a column (spec §4): a new column starts ascending, the same one toggles.
    pub fn sorted_by(&self, column: &'static str) -> ListState {
        let ascending = !(self.sort_by == Some(column) && self.ascending);
        ListState {
            sort_by: Some(column),
            ascending,
            ..self.clone()
        }
    }

    /// What the reset button returns to (spec §4); the sort stays.
    pub fn reset(&self) -> ListState {
        ListState {
            sort_by: self.sort_by,
            ascending: self.ascending,
            ..ListState::default()
        }
    }

    /// Active filters for the toolbar's count: archived, providers, tags.
    pub fn filter_count(&self) -> usize {
        usize::from(self.archived)
            + usize::from(!self.provider_ids.is_empty())
            + usize::from(!self.tag_ids.is_empty())
    }

    /// Whether nothing narrows or orders the list.
    pub fn is_default(&self) -> bool {
        self.search.trim().is_empty()
            && !self.by_filename
            && self.filter_count() == 0
            && self.sort_by.is_none()
            && !self.new_since_visit
    }

    /// The list with the "new since your last visit" filter switched.
    pub fn with_new_since_visit(&self, on: bool) -> ListState {
        ListState {
            new_since_visit: on,
            ..self.clone()
        }
    }
}

/// Ids of one URL value: a JSON array, or ids separated by commas (the filter form without
/// JavaScript sends one value per checkbox).
fn ids_of(value: &str) -> Vec<i64> {
    if value.trim_start().starts_with('[') {
        return json_ids(value);
    }
    value
        .split(',')
        .filter_map(|id| id.trim().parse::<i64>().ok())
        .filter(|id| *id > 0)
        .collect()
}

/// The list parameters and `anzahl` of the page's query string. Repeated `providerIds` and
/// `tagsIds` are joined into one JSON array, the spelling the API and the island use.
pub fn parse_page_query(raw: Option<&str>) -> (PackageListQuery, Option<i64>) {
    let mut query = PackageListQuery::default();
    let mut shown = None;
    let mut providers: Vec<i64> = Vec::new();
    let mut tags: Vec<i64> = Vec::new();
    for (key, value) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
        let value = value.into_owned();
        match key.as_ref() {
            "search" => query.search = Some(value),
            "searchMethode" => query.search_method = Some(value),
            "archived" => query.archived = Some(value),
            "sortBy" => query.sort_by = Some(value),
            "sort" => query.sort = Some(value),
            "newSinceVisit" => query.new_since_visit = Some(value),
            "providerIds" => providers.extend(ids_of(&value)),
            "tagsIds" => tags.extend(ids_of(&value)),
            "anzahl" => shown = value.trim().parse().ok(),
            _ => {}
        }
    }
    for ids in [&mut providers, &mut tags] {
        ids.sort_unstable();
        ids.dedup();
    }
    query.provider_ids = ids_param(&providers);
    query.tags_ids = ids_param(&tags);
    (query, shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_list_has_a_plain_url() {
        assert_eq!(ListState::default().url(20), "");
        assert!(ListState::default().is_default());
    }

    #[test]
    fn urls_carry_what_differs_in_the_islands_spelling() {
        let state = ListState {
            search: " Flyer Süd ".into(),
            by_filename: true,
            archived: true,
            provider_ids: vec![2, 5],
            tag_ids: vec![1],
            sort_by: Some("endAt"),
            ascending: true,
            new_since_visit: true,
        };
        assert_eq!(
            state.url(40),
            "?search=Flyer+S%C3%BCd&searchMethode=byFilename&archived=true&providerIds=%5B2%2C5%5D\
             &tagsIds=%5B1%5D&sortBy=endAt&sort=ASC&newSinceVisit=true&anzahl=40"
        );
        assert_eq!(
            ListState::of(&parse_page_query(Some("newSinceVisit=true")).0),
            ListState::default().with_new_since_visit(true)
        );
        assert_eq!(state.filter_count(), 3);
        assert_eq!(state.reset().url(20), "?sortBy=endAt&sort=ASC");
    }

    #[test]
    fn sorting_starts_ascending_and_toggles() {
        let by_name = ListState::default().sorted_by("name");
        assert_eq!((by_name.sort_by, by_name.ascending), (Some("name"), true));
        assert!(!by_name.sorted_by("name").ascending);
        assert!(by_name.sorted_by("name").sorted_by("name").ascending);
        assert!(by_name.sorted_by("endAt").ascending);
    }

    #[test]
    fn the_form_without_javascript_and_the_islands_urls_read_alike() {
        let (form, shown) = parse_page_query(Some(
            "search=Glas&searchMethode=byName&archived=true&providerIds=3&providerIds=1&tagsIds=2&anzahl=40",
        ));
        assert_eq!(shown, Some(40));
        assert_eq!(form.provider_ids.as_deref(), Some("[1,3]"));
        let (island, _) = parse_page_query(Some(
            "search=Glas&archived=true&providerIds=%5B1%2C3%5D&tagsIds=%5B2%5D",
        ));
        assert_eq!(ListState::of(&form), ListState::of(&island));
        assert_eq!(ListState::of(&form).tag_ids, vec![2]);
    }

    #[test]
    fn malformed_values_are_dropped() {
        let (query, shown) = parse_page_query(Some(
            "providerIds=x&tagsIds=%5B%22a%22%5D&sortBy=evil&sort=ASC&anzahl=viele",
        ));
        assert_eq!(shown, None);
        let state = ListState::of(&query);
        assert_eq!(state, ListState::default());
    }
}
