//! The layers of design.md, read from the code's own imports: `domain` and `metrics` import
//! nothing of the crate, `db` and `integrations` nothing above them, no module below the faces
//! imports a face (`api`, `app`) or the composition root (`state`, `startup`), neither face
//! imports the other or `db`, and the top-level modules form no circle.
//!
//! The product areas (issue 36): `api`, `services`, `db` and `app/pages` each hold one folder
//! per area of `AREAS`, and the rules between areas are:
//! - within one layer, the areas form no circle (area A naming area B of the same layer, and B
//!   naming A, directly or through others, is a circle);
//! - an area's `db` is read and written by its own `services` and `db` modules; another area's
//!   services or db modules reach it only through the items that area publishes in `PUBLISHED`
//!   below (a function, a type it returns, or, for a facility such as the mail queue, a whole
//!   module). A new use across areas therefore shows up here, to be published on purpose or
//!   moved to its owner. The faces may call the services of any area (they compose the
//!   screens), and the cross-cutting modules (`auth`, `server`, `seed`, `cli`, …) are outside
//!   the areas.
use std::collections::{BTreeMap, BTreeSet};

#[path = "common/source_files.rs"]
mod source_files;

/// Top-level module → the top-level modules its code (tests and comments aside) names.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = source_files::src();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in source_files::rust_files(&src) {
        let relative = path.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str();
        let top = first.to_string_lossy().trim_end_matches(".rs").to_string();
        if top == "main" || top == "lib" {
            continue;
        }
        let code = source_files::code_of(&path);
        let named = graph.entry(top.clone()).or_default();
        for line in code.lines() {
            for (at, _) in line.match_indices("crate::") {
                let name: String = line[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !name.is_empty() && name != top {
                    named.insert(name);
                }
            }
        }
    }
    graph
}

fn reaches(graph: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut pending = vec![from.to_string()];
    while let Some(module) = pending.pop() {
        for next in graph.get(&module).into_iter().flatten() {
            if next == to {
                return true;
            }
            if seen.insert(next.clone()) {
                pending.push(next.clone());
            }
        }
    }
    false
}

#[test]
fn the_layers_import_only_downwards_and_form_no_circle() {
    let graph = imports();
    let named = |module: &str| graph.get(module).cloned().unwrap_or_default();
    let mut wrong = Vec::new();
    // `metrics` is a leaf like logging: every layer counts into it, and it imports nothing.
    let allowed: &[(&str, &[&str])] = &[
        ("domain", &[]),
        ("metrics", &[]),
        ("db", &["domain", "db_run"]),
        ("integrations", &["domain", "metrics"]),
    ];
    for (module, may) in allowed {
        for import in named(module) {
            if !may.contains(&import.as_str()) {
                wrong.push(format!("{module} imports {import}"));
            }
        }
    }
    let above = ["api", "app", "state", "startup"];
    for module in [
        "domain",
        "db",
        "integrations",
        "storage",
        "services",
        "auth",
        "server",
    ] {
        for import in named(module) {
            if above.contains(&import.as_str()) {
                wrong.push(format!("{module} imports {import}, a module above it"));
            }
        }
    }
    for (face, other) in [("api", "app"), ("app", "api")] {
        for forbidden in [other, "db"] {
            if named(face).contains(forbidden) {
                wrong.push(format!("{face} imports {forbidden}"));
            }
        }
    }
    for (module, imports) in &graph {
        for import in imports {
            if graph.contains_key(import) && module < import && reaches(&graph, import, module) {
                wrong.push(format!(
                    "{module} and {import} import each other (a circle)"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The reading itself works: the faces are found with what they use.
    assert!(named("api").contains("services") && named("app").contains("services"));
}

/// The product areas, one folder each in `api`, `services`, `db` and `app/pages`.
const AREAS: [&str; 6] = [
    "accounts",
    "catalog",
    "contacts",
    "insight",
    "marketing",
    "operations",
];

/// The layers split by area: folder below `src/`, and the path segment that names it in code.
const AREA_LAYERS: [(&str, &str); 4] = [
    ("api", "api"),
    ("services", "services"),
    ("db", "db"),
    ("app/pages", "pages"),
];

/// What an area's `db` offers the other areas: `(area, path below db::<area>)`; a path ending
/// in `*` publishes a whole module.
const PUBLISHED: &[(&str, &str)] = &[
    // The package a statistic or a provider's files are about.
    ("catalog", "packages::get"),
    ("catalog", "packages::get_many"),
    ("catalog", "packages::files_of"),
    ("catalog", "packages::uploads_of_provider"),
    ("catalog", "packages::next_period_change"),
    ("catalog", "uploads::get"),
    ("catalog", "previews::counts"),
    // A package's announcement, as the mail queue sends it (issue 37).
    ("catalog", "announcements::get"),
    ("catalog", "announcements::PackageMail"),
    // The lists a contact is on decide what it sees and what Brevo mirrors.
    ("contacts", "get_contact"),
    ("contacts", "list_ids_of_contact"),
    ("contacts", "list_ids_of_customer"),
    // The Brevo sync writes contacts with the statements the contacts' own writes use.
    ("contacts", "UPSERT_COMPANY"),
    ("contacts", "END_CONSENT_OF_OLD_ADDRESS"),
    // The data version's one read brings the contact texts' version with it, and tells the
    // contact search's texts in memory (issue 41).
    ("contacts", "texts::seen"),
    // Every area writes its audit entries in its own transaction.
    ("insight", "audit::*"),
    // An import loads the roll-ups as rows and moves the statistics and history versions in
    // its transaction, so no report or ranking made before is served.
    ("insight", "statistics::count_version"),
    ("insight", "statistics::Changed::History"),
    // The notice before a package's end names the files its customer number took (issue 37).
    ("insight", "statistics::takers::files_taken"),
    // Providers and lists own packages and contacts.
    ("marketing", "providers::get"),
    ("marketing", "providers::get_many"),
    ("marketing", "providers::list_all"),
    ("marketing", "providers::ids_for_roles"),
    ("marketing", "providers::roles_of"),
    ("marketing", "providers::is_logo"),
    ("marketing", "lists::get"),
    ("marketing", "lists::owners"),
    ("marketing", "lists::count_of_provider"),
    ("marketing", "marketing_retries::count"),
    // The durable mail queue: a facility for every area that sends mail.
    ("operations", "mail_jobs::*"),
];

/// Every crate path a piece of code names, with `use` groups expanded: `crate::db::{a, b::c}`
/// gives `db::a` and `db::b::c`. Paths start at `crate::` or at a bare layer segment
/// (`db::…` after `use crate::db;`), and `crate::`/`app::` are dropped from the front.
fn named_paths(code: &str) -> Vec<String> {
    fn is_ident(c: u8) -> bool {
        c.is_ascii_alphanumeric() || c == b'_'
    }
    /// Reads one path (with groups) at `at`, pushing every full path; returns the end.
    fn read(code: &[u8], mut at: usize, prefix: &str, out: &mut Vec<String>) -> usize {
        let mut path = prefix.to_string();
        loop {
            let start = at;
            while at < code.len() && (is_ident(code[at]) || code[at] == b'*') {
                at += 1;
            }
            let segment = std::str::from_utf8(&code[start..at]).unwrap();
            if segment != "self" && !segment.is_empty() {
                if !path.is_empty() {
                    path.push_str("::");
                }
                path.push_str(segment);
            }
            if code[at..].starts_with(b"::{") {
                at += 3;
                loop {
                    while at < code.len() && (code[at] as char).is_whitespace() {
                        at += 1;
                    }
                    if at >= code.len() || code[at] == b'}' {
                        return at + 1;
                    }
                    at = read(code, at, &path, out);
                    while at < code.len() && code[at] != b',' && code[at] != b'}' {
                        at += 1; // ` as name`
                    }
                    if at < code.len() && code[at] == b',' {
                        at += 1;
                    }
                }
            } else if code[at..].starts_with(b"::") && at + 2 < code.len() && is_ident(code[at + 2])
            {
                at += 2;
            } else {
                out.push(path);
                return at;
            }
        }
    }
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let boundary = at == 0 || !(is_ident(bytes[at - 1]) || bytes[at - 1] == b':');
        let rest = &bytes[at..];
        let start = ["crate::", "db::", "services::", "api::", "pages::", "app::"]
            .iter()
            .find(|p| boundary && rest.starts_with(p.as_bytes()));
        match start {
            Some(_) => {
                let mut found = Vec::new();
                at = read(bytes, at, "", &mut found);
                for path in found {
                    let path = path.strip_prefix("crate::").unwrap_or(&path);
                    out.push(path.strip_prefix("app::").unwrap_or(path).to_string());
                }
            }
            None => at += 1,
        }
    }
    out
}

/// Each file of an area: (layer segment, area, the paths it names).
fn area_files() -> Vec<(&'static str, &'static str, String, Vec<String>)> {
    let src = source_files::src();
    let mut files = Vec::new();
    for (folder, segment) in AREA_LAYERS {
        for path in source_files::rust_files(&src.join(folder)) {
            let relative = path.strip_prefix(src.join(folder)).unwrap();
            let first = relative.components().next().unwrap().as_os_str();
            let first = first.to_string_lossy().trim_end_matches(".rs").to_string();
            if let Some(area) = AREAS.iter().find(|a| **a == first) {
                let name = format!("{folder}/{}", relative.display());
                files.push((
                    segment,
                    *area,
                    name,
                    named_paths(&source_files::code_of(&path)),
                ));
            }
        }
    }
    files
}

/// `(layer, area)` of a path such as `db::catalog::packages::get`, and what follows the area.
fn area_of_path(path: &str) -> Option<(&str, &str, &str)> {
    let mut parts = path.splitn(3, "::");
    let layer = parts.next()?;
    let area = parts.next()?;
    let rest = parts.next().unwrap_or("");
    let known = AREA_LAYERS.iter().any(|(_, s)| *s == layer) && AREAS.contains(&area);
    known.then_some((layer, area, rest))
}

/// The entry of `PUBLISHED` that lets another area use `db::<area>::<rest>`, if any.
fn published(area: &str, rest: &str) -> Option<usize> {
    PUBLISHED.iter().position(|(owner, item)| {
        *owner == area
            && (*item == rest
                || item.strip_suffix('*').is_some_and(|module| {
                    rest.starts_with(module) || rest == module.trim_end_matches("::")
                }))
    })
}

#[test]
fn the_areas_form_no_circle_within_a_layer() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (segment, area, _, paths) in area_files() {
        let node = format!("{segment}::{area}");
        graph.entry(node.clone()).or_default();
        for path in &paths {
            if let Some((layer, other, _)) = area_of_path(path)
                && layer == segment
                && other != area
            {
                let edge = format!("{layer}::{other}");
                graph.get_mut(&node).unwrap().insert(edge);
            }
        }
    }
    let mut circles = Vec::new();
    for (node, named) in &graph {
        for other in named {
            if node < other && reaches(&graph, other, node) {
                circles.push(format!("{node} and {other} import each other (a circle)"));
            }
        }
    }
    assert!(circles.is_empty(), "{}", circles.join("\n"));
    // The reading works: services of contacts name the marketing mirror.
    assert!(graph["services::contacts"].contains("services::marketing"));
}

#[test]
fn an_area_s_db_is_reached_from_other_areas_only_through_what_it_publishes() {
    let mut wrong = BTreeSet::new();
    let mut used = BTreeSet::new();
    for (segment, area, file, paths) in area_files() {
        if segment != "services" && segment != "db" {
            continue;
        }
        for path in &paths {
            match area_of_path(path) {
                Some(("db", owner, rest)) if owner != area => {
                    if let Some(entry) = published(owner, rest) {
                        used.insert(entry);
                    } else {
                        wrong.insert(format!(
                            "{file} uses db::{owner}::{rest}, which {owner} does not publish"
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{}",
        wrong.into_iter().collect::<Vec<_>>().join("\n")
    );
    // Every published item is used, so the list says what the areas really share.
    let unused: Vec<_> = (0..PUBLISHED.len())
        .filter(|entry| !used.contains(entry))
        .map(|entry| PUBLISHED[entry])
        .collect();
    assert!(
        unused.is_empty(),
        "published but used by no other area: {unused:?}"
    );
}

#[test]
fn paths_are_read_with_their_groups() {
    let paths = named_paths(
        "use crate::db::{self, Db, catalog::packages::{get, PackageRecord as P}};\n\
         let x = db::marketing::providers::get(db, 1); crate::app::pages::catalog::customer::Page",
    );
    assert_eq!(
        paths,
        [
            "db",
            "db::Db",
            "db::catalog::packages::get",
            "db::catalog::packages::PackageRecord",
            "db::marketing::providers::get",
            "pages::catalog::customer::Page",
        ]
    );
    assert!(published("operations", "mail_jobs::latest").is_some());
    assert!(published("catalog", "packages::list").is_none());
}
