//! The lenient adapter from either menu plugin's JSON to a tree of [`MenuItem`]s.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{MAX_MENU_DEPTH, MenuError, MenuItem};

/// Parses the answer of either menu plugin into a tree.
///
/// Accepts an object with `items` or a bare item array (`[]` is an empty menu). Items may be
/// nested (`child_items` / `children`), flat with parent ids, or mixed: everything is flattened,
/// de-duplicated by id (first occurrence wins) and rebuilt by parent id; an item whose parent is
/// unknown becomes top-level. Each level is sorted by order, then id. Items without id, title or
/// an allowed URL (`http(s)://…` or `/…`) are dropped. Titles have HTML entities decoded.
pub fn parse_menu(json: &Value) -> Result<Vec<MenuItem>, MenuError> {
    let top = match json {
        Value::Array(items) => items.iter().collect(),
        Value::Object(menu) => match menu.get("items") {
            Some(items) => item_values(items).ok_or_else(|| {
                MenuError::UnexpectedShape(format!("`items` is {}, expected an array", kind(items)))
            })?,
            None => return Err(MenuError::UnexpectedShape(describe_object(menu))),
        },
        other => {
            return Err(MenuError::UnexpectedShape(format!(
                "expected an object with `items` or an array, got {}",
                kind(other)
            )));
        }
    };
    Ok(build_tree(flatten(top)))
}

/// Removes the items with the given ids, at any depth, together with their children.
pub fn hide_items(items: Vec<MenuItem>, ids: &[i64]) -> Vec<MenuItem> {
    items
        .into_iter()
        .filter(|item| !ids.contains(&item.id))
        .map(|mut item| {
            item.children = hide_items(std::mem::take(&mut item.children), ids);
            item
        })
        .collect()
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn describe_object(object: &Map<String, Value>) -> String {
    match object.get("code").and_then(Value::as_str) {
        // WordPress REST error body: {"code": "...", "message": "...", "data": {"status": 404}}
        Some(code) => format!("WordPress error `{code}` instead of a menu"),
        None => "object without `items`".to_owned(),
    }
}

/// The item values of an `items` / `children` value: an array, or an object whose values are
/// all objects (PHP encodes an array with gaps in its keys that way).
fn item_values(value: &Value) -> Option<Vec<&Value>> {
    match value {
        Value::Array(items) => Some(items.iter().collect()),
        Value::Object(map) if map.values().all(Value::is_object) => Some(map.values().collect()),
        _ => None,
    }
}

struct FlatItem {
    id: i64,
    parent: i64,
    order: i64,
    title: String,
    url: String,
}

/// Walks the (possibly nested) items depth-first without recursion and returns every valid
/// item once, in document order. A nested item without its own parent id gets its enclosing
/// item's id.
fn flatten(top: Vec<&Value>) -> Vec<FlatItem> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<(&Value, i64)> = top.into_iter().rev().map(|v| (v, 0)).collect();
    while let Some((value, enclosing)) = stack.pop() {
        let Some(object) = value.as_object() else {
            continue;
        };
        let id = int_field(object, &["ID", "id"]).filter(|id| *id > 0);
        let children = ["child_items", "children"]
            .iter()
            .filter_map(|key| object.get(*key))
            .find_map(item_values)
            .unwrap_or_default();
        let child_parent = id.unwrap_or(0);
        stack.extend(
            children
                .into_iter()
                .rev()
                .map(|child| (child, child_parent)),
        );

        let Some(id) = id else { continue };
        if !seen.insert(id) {
            continue;
        }
        let parent = int_field(object, &["menu_item_parent", "parent"])
            .filter(|parent| *parent > 0)
            .unwrap_or(enclosing);
        let order = int_field(object, &["menu_order", "order"]).unwrap_or(0);
        let Some(title) = title_field(object) else {
            continue;
        };
        let Some(url) = url_field(object) else {
            continue;
        };
        out.push(FlatItem {
            id,
            parent,
            order,
            title,
            url,
        });
    }
    out
}

/// The first of `keys` holding an integer (or a string of one).
fn int_field(object: &Map<String, Value>, keys: &[&str]) -> Option<i64> {
    keys.iter()
        .filter_map(|key| object.get(*key))
        .find_map(|value| match value {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        })
}

fn title_field(object: &Map<String, Value>) -> Option<String> {
    let raw = match object.get("title")? {
        Value::String(s) => s.as_str(),
        // WordPress core's own REST shape: {"title": {"rendered": "…"}}
        Value::Object(title) => title.get("rendered")?.as_str()?,
        _ => return None,
    };
    let title = decode_title(raw).trim().to_owned();
    (!title.is_empty()).then_some(title)
}

fn url_field(object: &Map<String, Value>) -> Option<String> {
    let url = object.get("url")?.as_str()?.trim();
    is_allowed_url(url).then(|| url.to_owned())
}

/// Only `http://…`, `https://…` or site-relative `/…` links; never `javascript:`, `data:`,
/// `mailto:`, `#` or URLs containing control characters.
fn is_allowed_url(url: &str) -> bool {
    if url.chars().any(char::is_control) {
        return false;
    }
    let has_prefix = |prefix: &str| {
        url.len() > prefix.len()
            && url
                .get(..prefix.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(prefix))
    };
    url.starts_with('/') || has_prefix("http://") || has_prefix("https://")
}

/// Rebuilds the tree from parent ids. Unknown parents and cycles make an item top-level.
fn build_tree(flat: Vec<FlatItem>) -> Vec<MenuItem> {
    let index: HashMap<i64, usize> = flat
        .iter()
        .enumerate()
        .map(|(i, item)| (item.id, i))
        .collect();
    let mut parent: Vec<Option<usize>> = flat
        .iter()
        .map(|item| {
            if item.parent == item.id {
                None
            } else {
                index.get(&item.parent).copied()
            }
        })
        .collect();
    // Break cycles: walk up from each item; the item whose parent was already on the path
    // becomes top-level.
    for start in 0..flat.len() {
        let mut path = HashSet::from([start]);
        let mut current = start;
        while let Some(up) = parent[current] {
            if !path.insert(up) {
                parent[current] = None;
                break;
            }
            current = up;
        }
    }
    let mut children: HashMap<Option<usize>, Vec<usize>> = HashMap::new();
    for (i, p) in parent.iter().enumerate() {
        children.entry(*p).or_default().push(i);
    }
    let mut slots: Vec<Option<FlatItem>> = flat.into_iter().map(Some).collect();
    assemble(None, &children, &mut slots, 1)
}

fn assemble(
    parent: Option<usize>,
    children: &HashMap<Option<usize>, Vec<usize>>,
    slots: &mut [Option<FlatItem>],
    depth: usize,
) -> Vec<MenuItem> {
    if depth > MAX_MENU_DEPTH {
        return Vec::new();
    }
    let Some(indices) = children.get(&parent) else {
        return Vec::new();
    };
    let mut level: Vec<(usize, FlatItem)> = indices
        .iter()
        .filter_map(|&i| slots[i].take().map(|item| (i, item)))
        .collect();
    level.sort_by_key(|(_, item)| (item.order, item.id));
    level
        .into_iter()
        .map(|(i, item)| MenuItem {
            id: item.id,
            title: item.title,
            url: item.url,
            order: item.order,
            children: assemble(Some(i), children, slots, depth + 1),
        })
        .collect()
}

/// A title as plain text: HTML character references decoded once (`&amp;lt;` becomes `&lt;`,
/// unknown or invalid ones stay as they are). Numeric references to 0x80–0x9F are read as
/// Windows-1252, as browsers do (old WordPress content writes `&#150;` for a dash); line breaks
/// and tabs become spaces and other control characters U+FFFD.
fn decode_title(raw: &str) -> String {
    html_escape::decode_html_entities(raw)
        .chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => ' ',
            '\u{80}'..='\u{9f}' => {
                let byte = [c as u8];
                let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&byte);
                text.chars()
                    .next()
                    .filter(|c| !c.is_control())
                    .unwrap_or('\u{fffd}')
            }
            c if c.is_control() => '\u{fffd}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integrations::content_site::HIDDEN_HEADER_ITEM_IDS;
    use serde_json::json;

    fn item(id: i64, title: &str, url: &str, order: i64, children: Vec<MenuItem>) -> MenuItem {
        MenuItem {
            id,
            title: title.to_owned(),
            url: url.to_owned(),
            order,
            children,
        }
    }

    fn ids(items: &[MenuItem]) -> Vec<i64> {
        items.iter().map(|i| i.id).collect()
    }

    /// `GET /wp-json/menus/v1/menus/2` of plugin wp-rest-api-v2-menus (raw nav_menu_item posts,
    /// string parents, `child_items` only on parents).
    fn menus_v1_header() -> Value {
        json!({
            "term_id": 2, "name": "Hauptmenü", "slug": "hauptmenue", "term_group": 0,
            "term_taxonomy_id": 2, "taxonomy": "nav_menu", "description": "", "parent": 0,
            "count": 9, "filter": "raw",
            "items": [
                {
                    "ID": 10, "menu_order": 1, "menu_item_parent": "0", "db_id": 10,
                    "title": "Start", "url": "https://www.example.de/", "target": "",
                    "attr_title": "", "description": "", "classes": [""], "xfn": "",
                    "object_id": "5", "object": "page", "type": "post_type",
                    "type_label": "Seite", "post_title": "", "post_name": "10",
                    "post_status": "publish", "post_type": "nav_menu_item", "post_parent": 0,
                    "slug": "start"
                },
                {
                    "ID": 20, "menu_order": 2, "menu_item_parent": "0", "db_id": 20,
                    "title": "Intern", "url": "https://www.example.de/intern/",
                    "object_id": "7", "object": "page", "type": "post_type",
                    "post_type": "nav_menu_item", "post_parent": 0, "slug": "intern",
                    "child_items": [
                        { "ID": 21, "menu_order": 3, "menu_item_parent": "20",
                          "title": "Unterseite", "url": "https://www.example.de/intern/a/" }
                    ]
                },
                {
                    "ID": 30, "menu_order": 4, "menu_item_parent": "0",
                    "title": "Produkte &amp; Services", "url": "https://www.example.de/produkte/",
                    "type": "post_type", "object": "page",
                    "child_items": [
                        { "ID": 32, "menu_order": 6, "menu_item_parent": "30",
                          "title": "Aktionen &#8211; Herbst", "url": "/aktionen/herbst/" },
                        { "ID": 31, "menu_order": 5, "menu_item_parent": "30",
                          "title": "Neuheiten", "url": "https://www.example.de/neu/",
                          "child_items": [
                              { "ID": 33, "menu_order": 7, "menu_item_parent": "31",
                                "title": "Katalog &#x201E;2025&#x201C;",
                                "url": "https://www.example.de/neu/katalog/" }
                          ] },
                        { "ID": 214, "menu_order": 8, "menu_item_parent": "30",
                          "title": "Versteckt", "url": "https://www.example.de/x/" }
                    ]
                },
                { "ID": 213, "menu_order": 9, "menu_item_parent": "0",
                  "title": "Login", "url": "https://www.example.de/login/" },
                { "ID": 40, "menu_order": 10, "menu_item_parent": "0",
                  "title": "Böse", "url": "javascript:alert(1)" },
                { "ID": 50695, "menu_order": 11, "menu_item_parent": "0",
                  "title": "Shop", "url": "https://shop.example.de/" }
            ]
        })
    }

    /// `GET /wp-json/wp-api-menus/v2/menus/3` of plugin wp-api-menus (lowercase `id`, int
    /// `parent`, `children` only when present).
    fn wp_api_menus_footer() -> Value {
        json!({
            "ID": 3, "name": "Footer", "slug": "footer", "description": "", "count": 4,
            "items": [
                { "id": 301, "order": 1, "parent": 0, "title": "Impressum",
                  "url": "https://www.example.de/impressum/", "attr": "", "target": "",
                  "classes": "", "xfn": "", "description": "", "object_id": 50,
                  "object": "page", "object_slug": "impressum", "type": "post_type",
                  "type_label": "Seite" },
                { "id": 302, "order": 2, "parent": 0, "title": "Rechtliches",
                  "url": "https://www.example.de/recht/", "object_slug": "recht",
                  "children": [
                      { "id": 304, "order": 4, "parent": 302, "title": "AGB",
                        "url": "https://www.example.de/agb/" },
                      { "id": 303, "order": 3, "parent": 302, "title": "Datenschutz",
                        "url": "https://www.example.de/datenschutz/" }
                  ] }
            ],
            "meta": { "links": {
                "collection": "https://www.example.de/wp-json/wp-api-menus/v2/menus/",
                "self": "https://www.example.de/wp-json/wp-api-menus/v2/menus/3"
            } }
        })
    }

    #[test]
    fn parses_menus_v1_nested_with_string_parents_and_entities() {
        let menu = parse_menu(&menus_v1_header()).unwrap();
        assert_eq!(
            menu,
            vec![
                item(10, "Start", "https://www.example.de/", 1, vec![]),
                item(
                    20,
                    "Intern",
                    "https://www.example.de/intern/",
                    2,
                    vec![item(
                        21,
                        "Unterseite",
                        "https://www.example.de/intern/a/",
                        3,
                        vec![]
                    )]
                ),
                item(
                    30,
                    "Produkte & Services",
                    "https://www.example.de/produkte/",
                    4,
                    vec![
                        item(
                            31,
                            "Neuheiten",
                            "https://www.example.de/neu/",
                            5,
                            vec![item(
                                33,
                                "Katalog „2025“",
                                "https://www.example.de/neu/katalog/",
                                7,
                                vec![]
                            )]
                        ),
                        item(32, "Aktionen – Herbst", "/aktionen/herbst/", 6, vec![]),
                        item(214, "Versteckt", "https://www.example.de/x/", 8, vec![]),
                    ]
                ),
                item(213, "Login", "https://www.example.de/login/", 9, vec![]),
                item(50695, "Shop", "https://shop.example.de/", 11, vec![]),
            ]
        );
    }

    #[test]
    fn header_without_hidden_items() {
        let menu = hide_items(
            parse_menu(&menus_v1_header()).unwrap(),
            &HIDDEN_HEADER_ITEM_IDS,
        );
        assert_eq!(ids(&menu), vec![10, 30]);
        assert_eq!(ids(&menu[1].children), vec![31, 32]);
        assert_eq!(ids(&menu[1].children[0].children), vec![33]);
    }

    #[test]
    fn parses_wp_api_menus_nested() {
        let menu = parse_menu(&wp_api_menus_footer()).unwrap();
        assert_eq!(
            menu,
            vec![
                item(
                    301,
                    "Impressum",
                    "https://www.example.de/impressum/",
                    1,
                    vec![]
                ),
                item(
                    302,
                    "Rechtliches",
                    "https://www.example.de/recht/",
                    2,
                    vec![
                        item(
                            303,
                            "Datenschutz",
                            "https://www.example.de/datenschutz/",
                            3,
                            vec![]
                        ),
                        item(304, "AGB", "https://www.example.de/agb/", 4, vec![]),
                    ]
                ),
            ]
        );
    }

    #[test]
    fn parses_wp_api_menus_location_array_with_uppercase_id_and_empty_children() {
        // `GET /wp-json/wp-api-menus/v2/menu-locations/primary`: bare array, `ID`, `children: []`.
        let body = json!([
            { "ID": 5, "order": 2, "parent": 0, "title": "Kontakt", "url": "/kontakt/",
              "children": [] },
            { "ID": 4, "order": 1, "parent": 0, "title": "Start", "url": "https://x.de/",
              "children": [
                  { "ID": 6, "order": 3, "parent": 4, "title": "Team", "url": "/team/",
                    "children": [] }
              ] }
        ]);
        let menu = parse_menu(&body).unwrap();
        assert_eq!(
            menu,
            vec![
                item(
                    4,
                    "Start",
                    "https://x.de/",
                    1,
                    vec![item(6, "Team", "/team/", 3, vec![])]
                ),
                item(5, "Kontakt", "/kontakt/", 2, vec![]),
            ]
        );
    }

    #[test]
    fn empty_array_is_an_empty_menu() {
        assert_eq!(parse_menu(&json!([])).unwrap(), vec![]);
        assert_eq!(
            parse_menu(&json!({ "ID": 3, "items": [] })).unwrap(),
            vec![]
        );
    }

    #[test]
    fn flat_list_with_string_parents_is_rebuilt_and_sorted() {
        // Children listed before their parents; equal orders sorted by id.
        let body = json!({ "items": [
            { "ID": 12, "menu_order": 3, "menu_item_parent": "11", "title": "B", "url": "/b" },
            { "ID": 13, "menu_order": 3, "menu_item_parent": "11", "title": "A", "url": "/a" },
            { "ID": 14, "menu_order": 1, "menu_item_parent": 12, "title": "C", "url": "/c" },
            { "ID": 11, "menu_order": 2, "menu_item_parent": "0", "title": "Root", "url": "/" },
            { "ID": 10, "menu_order": 2, "menu_item_parent": "0", "title": "First", "url": "/f" }
        ]});
        let menu = parse_menu(&body).unwrap();
        assert_eq!(ids(&menu), vec![10, 11]);
        assert_eq!(ids(&menu[1].children), vec![12, 13]);
        assert_eq!(ids(&menu[1].children[0].children), vec![14]);
    }

    #[test]
    fn mixed_nested_and_flat_items_are_deduplicated() {
        let body = json!([
            { "id": 1, "order": 1, "parent": 0, "title": "Eins", "url": "/1",
              "children": [ { "id": 2, "order": 2, "parent": 1, "title": "Zwei", "url": "/2" } ] },
            { "id": 2, "order": 2, "parent": 1, "title": "Zwei (doppelt)", "url": "/2b" },
            { "id": 3, "order": 3, "parent": 1, "title": "Drei", "url": "/3" },
            { "id": 1, "order": 9, "parent": 0, "title": "Eins (doppelt)", "url": "/1b" }
        ]);
        let menu = parse_menu(&body).unwrap();
        assert_eq!(
            menu,
            vec![item(
                1,
                "Eins",
                "/1",
                1,
                vec![
                    item(2, "Zwei", "/2", 2, vec![]),
                    item(3, "Drei", "/3", 3, vec![])
                ]
            )]
        );
    }

    #[test]
    fn nested_child_without_parent_field_uses_enclosing_item() {
        let body = json!([{ "ID": 1, "title": "A", "url": "/a",
            "child_items": [ { "ID": 2, "title": "B", "url": "/b" } ] }]);
        let menu = parse_menu(&body).unwrap();
        assert_eq!(ids(&menu), vec![1]);
        assert_eq!(ids(&menu[0].children), vec![2]);
    }

    #[test]
    fn unknown_parent_self_parent_and_cycles_become_top_level() {
        let body = json!([
            { "ID": 1, "menu_order": 1, "menu_item_parent": "999", "title": "Waise", "url": "/w" },
            { "ID": 2, "menu_order": 2, "menu_item_parent": "2", "title": "Selbst", "url": "/s" },
            { "ID": 3, "menu_order": 3, "menu_item_parent": "4", "title": "Ring A", "url": "/ra" },
            { "ID": 4, "menu_order": 4, "menu_item_parent": "3", "title": "Ring B", "url": "/rb" }
        ]);
        let menu = parse_menu(&body).unwrap();
        let mut all = Vec::new();
        fn collect(items: &[MenuItem], out: &mut Vec<i64>) {
            for i in items {
                out.push(i.id);
                collect(&i.children, out);
            }
        }
        collect(&menu, &mut all);
        all.sort();
        assert_eq!(all, vec![1, 2, 3, 4], "no item lost");
        assert!(ids(&menu).starts_with(&[1, 2]));
    }

    #[test]
    fn children_of_a_dropped_parent_become_top_level() {
        // A custom link "#" (a dropdown header) is not a valid link; its children stay visible.
        let body = json!({ "items": [
            { "ID": 1, "menu_order": 1, "menu_item_parent": "0", "title": "Mehr", "url": "#",
              "child_items": [
                  { "ID": 2, "menu_order": 2, "menu_item_parent": "1", "title": "FAQ", "url": "/faq" }
              ] }
        ]});
        assert_eq!(
            parse_menu(&body).unwrap(),
            vec![item(2, "FAQ", "/faq", 2, vec![])]
        );
    }

    #[test]
    fn drops_items_without_title_url_or_with_bad_urls() {
        let body = json!([
            { "ID": 1, "title": "Ok", "url": "https://x.de/" },
            { "ID": 2, "title": "", "url": "/leer" },
            { "ID": 3, "title": "&nbsp; ", "url": "/nbsp" },
            { "ID": 4, "url": "/ohne-titel" },
            { "ID": 5, "title": "Ohne URL" },
            { "ID": 6, "title": "JS", "url": "javascript:alert(1)" },
            { "ID": 7, "title": "JS2", "url": "  JavaScript:alert(1)" },
            { "ID": 8, "title": "Mail", "url": "mailto:info@example.de" },
            { "ID": 9, "title": "Data", "url": "data:text/html,<script>alert(1)</script>" },
            { "ID": 10, "title": "Anker", "url": "#" },
            { "ID": 11, "title": "Relativ", "url": "  /kontakt/  " },
            { "ID": 12, "title": "Gross", "url": "HTTPS://X.DE/" },
            { "ID": 13, "title": "Steuerzeichen", "url": "/a\nb" },
            { "ID": 14, "title": "Nur Schema", "url": "https://" },
            { "ID": 15, "title": "Entity-JS", "url": "&#106;avascript:alert(1)" },
            { "ID": 16, "title": 5, "url": "/zahl" },
            { "title": "Ohne ID", "url": "/ohne-id" },
            { "ID": 0, "title": "ID null", "url": "/null" },
            "kein Objekt",
            { "ID": 17, "title": { "rendered": "Core &amp; Co" }, "url": "/core" }
        ]);
        let menu = parse_menu(&body).unwrap();
        assert_eq!(ids(&menu), vec![1, 11, 12, 17]);
        assert_eq!(menu[1].url, "/kontakt/");
        assert_eq!(menu[3].title, "Core & Co");
    }

    #[test]
    fn items_as_php_object_map_are_accepted() {
        let body = json!({ "items": {
            "0": { "ID": 1, "menu_order": 1, "title": "A", "url": "/a" },
            "2": { "ID": 2, "menu_order": 2, "title": "B", "url": "/b" }
        }});
        assert_eq!(ids(&parse_menu(&body).unwrap()), vec![1, 2]);
    }

    #[test]
    fn other_shapes_are_errors() {
        for body in [
            json!(null),
            json!("menu"),
            json!(42),
            json!(true),
            json!({ "ID": 3, "name": "Footer" }),
            json!({ "items": null }),
            json!({ "items": "x" }),
            json!({ "items": { "ID": 1, "title": "A", "url": "/a" } }),
        ] {
            assert!(
                matches!(parse_menu(&body), Err(MenuError::UnexpectedShape(_))),
                "{body}"
            );
        }
        let wp_error = json!({ "code": "not_found", "message": "No menu has been found",
            "data": { "status": 404 } });
        assert_eq!(
            parse_menu(&wp_error).unwrap_err().to_string(),
            "unexpected menu JSON: WordPress error `not_found` instead of a menu"
        );
    }

    #[test]
    fn very_deep_menus_are_cut() {
        let items: Vec<Value> = (1..=40)
            .map(|id| json!({ "ID": id, "menu_item_parent": id - 1, "title": "T", "url": "/" }))
            .collect();
        let menu = parse_menu(&Value::Array(items)).unwrap();
        let mut depth = 0;
        let mut level = &menu;
        while let Some(first) = level.first() {
            depth += 1;
            level = &first.children;
        }
        assert_eq!(depth, MAX_MENU_DEPTH);
    }

    #[test]
    fn decodes_entities() {
        let cases = [
            ("Produkte &amp; Services", "Produkte & Services"),
            (
                "&lt;b&gt; &quot;x&quot; &#039;y&#039; &apos;z&apos;",
                "<b> \"x\" 'y' 'z'",
            ),
            ("A &#8211; B &#8212; C", "A – B — C"),
            ("a&nbsp;b", "a\u{a0}b"),
            ("&#x201E;Hallo&#X201C;", "„Hallo“"),
            ("&#150;", "–"),
            ("M&uuml;nchen &euro; &hellip;", "München € …"),
            ("&amp;lt;", "&lt;"),
            ("Tom & Jerry", "Tom & Jerry"),
            ("&unknown; &#; &#x; &#12a; &", "&unknown; &#; &#x; &#12a; &"),
            // References to no character stay as written.
            (
                "&#0;&#xD800;&#99999999999;&#1;",
                "&#0;&#xD800;&#99999999999;&#1;",
            ),
            ("&amp", "&amp"),
            // Every HTML5 name, not only the common ones.
            ("&Eacute;t&eacute; &hearts; &frac12;", "Été ♥ ½"),
            ("&#x81; &#159; \u{7}", "\u{fffd} Ÿ \u{fffd}"),
            ("Zeile&#10;zwei\tdrei", "Zeile zwei drei"),
        ];
        for (input, expected) in cases {
            assert_eq!(decode_title(input), expected, "{input}");
        }
    }

    #[test]
    fn hiding_a_parent_hides_its_children() {
        let menu = vec![
            item(
                1,
                "A",
                "/a",
                1,
                vec![item(2, "B", "/b", 1, vec![item(3, "C", "/c", 1, vec![])])],
            ),
            item(
                20,
                "Versteckt",
                "/v",
                2,
                vec![item(21, "Kind", "/k", 1, vec![])],
            ),
            item(
                4,
                "D",
                "/d",
                3,
                vec![item(213, "Auch weg", "/w", 1, vec![])],
            ),
        ];
        let shown = hide_items(menu.clone(), &HIDDEN_HEADER_ITEM_IDS);
        assert_eq!(ids(&shown), vec![1, 4]);
        assert_eq!(ids(&shown[0].children), vec![2]);
        assert!(shown[1].children.is_empty());
        assert_eq!(hide_items(menu.clone(), &[]), menu);
        assert_eq!(hide_items(menu, &[2]).first().unwrap().children, vec![]);
    }
}
