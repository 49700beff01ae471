//! The layers of design.md, read from the code's own imports: `domain` and `metrics` import
//! nothing of the crate, `db` and `integrations` nothing above them, no module below the faces
//! imports a face (`api`, `app`) or the composition root (`state`, `startup`), neither face
//! imports the other or `db`, and the top-level modules form no circle.

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
