//! No circle between files of the crate (issue 36): read from the code's own paths, no file
//! reaches itself through the files it names.
//!
//! The rule: a file names another when its code (tests and comments aside) holds a path to
//! it: `crate::…` or `super::…` (`use` trees with braces included), or a module it declares
//! itself (`mod x;` and then `x::…`). A path counts for the deepest module file it reaches.
//! A file naming a folder it lies in (that folder's `mod.rs`) does not count: the root of a
//! folder is its face to the rest of the crate, which Rust makes declare its children, so a
//! child using what its folder's root shares is no circle. Two files that need each other
//! share a third file instead (as `api/responses.rs`, `app/loaded.rs`, `auth/cleanup.rs`,
//! `db/tx.rs` and `services/marketing_retries.rs` do).
//! `tests/layers.rs` checks the layers between the top-level modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

#[path = "common/source_files.rs"]
mod source_files;

/// Module path (`services::marketing::lists`, `app` for `app/mod.rs`) → the file it lives in.
fn modules(src: &Path) -> BTreeMap<String, std::path::PathBuf> {
    let mut found = BTreeMap::new();
    for path in source_files::rust_files(src) {
        let relative = path.strip_prefix(src).unwrap().with_extension("");
        let mut parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        if parts == ["main"] || parts == ["lib"] {
            continue;
        }
        found.insert(parts.join("::"), path);
    }
    found
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths of a `use` tree that starts at `text` (after a prefix such as `crate::`): each
/// full path as its segments, `base` in front. `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`,
/// `a::c::e` (and `a` and `a::c`, which resolve no deeper).
fn tree_paths(text: &str, base: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = text;
    let mut path = base.to_vec();
    loop {
        let ident: String = rest.chars().take_while(|c| is_ident_char(*c)).collect();
        if ident.is_empty() {
            if let Some(group) = rest.strip_prefix('{') {
                for item in split_group(group) {
                    paths.extend(tree_paths(item.trim_start(), &path));
                }
            }
            break;
        }
        rest = &rest[ident.len()..];
        if ident != "self" {
            path.push(ident);
        }
        paths.push(path.clone());
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => break,
        }
    }
    paths
}

/// The items of a brace group up to its closing brace, split at top-level commas.
fn split_group(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..at]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// Whether `at` starts a path of its own (not the tail of `a::b` or of an identifier).
fn starts_path(code: &str, at: usize) -> bool {
    let before = &code[..at];
    !(before.ends_with("::") || before.chars().next_back().is_some_and(is_ident_char))
}

/// The modules `module`'s code names (see the module comment for what counts).
fn named_by(
    module: &str,
    code: &str,
    known: &BTreeMap<String, std::path::PathBuf>,
) -> BTreeSet<String> {
    let own: Vec<String> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").map(str::to_owned).collect()
    };
    let parent = own[..own.len().saturating_sub(1)].to_vec();
    let mut paths = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        if starts_path(code, at) {
            paths.extend(tree_paths(&code[at + 7..], &[]));
        }
    }
    for (at, _) in code.match_indices("super::") {
        if !starts_path(code, at) {
            continue;
        }
        let mut base = parent.clone();
        let mut rest = &code[at + 7..];
        while let Some(after) = rest.strip_prefix("super::") {
            base.pop();
            rest = after;
        }
        paths.extend(tree_paths(rest, &base));
    }
    // Modules this file declares, named relatively (`mod pages;` … `pages::accounts::public`).
    for line in code.lines() {
        let line = line.trim_start();
        let declared = line
            .strip_prefix("pub ")
            .or_else(|| line.strip_prefix("pub(crate) "))
            .unwrap_or(line);
        let Some(name) = declared
            .strip_prefix("mod ")
            .and_then(|r| r.strip_suffix(';'))
        else {
            continue;
        };
        let name = name.trim();
        for (at, _) in code.match_indices(&format!("{name}::")) {
            let at = if code[..at].ends_with("self::") {
                at - 6
            } else {
                at
            };
            let start = if code[at..].starts_with("self::") {
                at + 6
            } else {
                at
            };
            if starts_path(code, at) {
                paths.extend(tree_paths(&code[start..], &own));
            }
        }
    }
    let mut named = BTreeSet::new();
    for path in paths {
        let reached = (1..=path.len())
            .rev()
            .map(|n| path[..n].join("::"))
            .find(|candidate| known.contains_key(candidate));
        if let Some(reached) = reached {
            let is_own_folder = reached.is_empty()
                || reached == module
                || module.starts_with(&format!("{reached}::"));
            if !is_own_folder {
                named.insert(reached);
            }
        }
    }
    named
}

/// Every pair of modules that reach each other, each circle once by its smallest member.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut pending = vec![from.to_owned()];
        while let Some(m) = pending.pop() {
            for next in graph.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    pending.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    for (module, from_here) in &reached {
        if !from_here.contains(*module) {
            continue;
        }
        // The circle: every module that this one reaches and that reaches it back.
        let members: Vec<String> = from_here
            .iter()
            .filter(|other| reached.get(other).is_some_and(|r| r.contains(*module)))
            .cloned()
            .collect();
        found.insert(members);
    }
    found.into_iter().collect()
}

fn graph_of_crate() -> BTreeMap<String, BTreeSet<String>> {
    let known = modules(&source_files::src());
    known
        .iter()
        .map(|(module, path)| {
            let code = source_files::code_of(path);
            (module.clone(), named_by(module, &code, &known))
        })
        .collect()
}

#[test]
fn no_file_of_the_crate_reaches_itself_through_others() {
    let graph = graph_of_crate();
    assert!(
        graph.len() > 100,
        "the crate's files were read: {}",
        graph.len()
    );
    // The reading sees what the circles of issue 36 were made of.
    assert!(
        graph["api::catalog::tags"].contains("api::responses"),
        "{:?}",
        graph["api::catalog::tags"]
    );
    assert!(
        graph["app"].contains("app::pages::accounts::public"),
        "{:?}",
        graph["app"]
    );
    let found = circles(&graph);
    assert!(found.is_empty(), "circles between files: {found:#?}");
}

#[test]
fn the_reading_finds_a_circle_through_use_trees_super_and_declared_modules() {
    let known: BTreeMap<String, std::path::PathBuf> =
        ["", "a", "a::b", "a::c", "a::c::d", "e", "e::f", "e::g"]
            .into_iter()
            .map(|m| (m.to_owned(), std::path::PathBuf::new()))
            .collect();
    let mut graph = BTreeMap::new();
    graph.insert(
        "a::b".to_owned(),
        named_by("a::b", "use crate::a::{c::{d::Thing, self}, b::X};", &known),
    );
    graph.insert(
        "a::c::d".to_owned(),
        named_by("a::c::d", "super::super::b::run();", &known),
    );
    graph.insert(
        "e".to_owned(),
        named_by("e", "pub mod f;\nmod g;\nuse f::Y;", &known),
    );
    graph.insert(
        "e::f".to_owned(),
        named_by("e::f", "use super::Z; let x = crate::e::g::Q;", &known),
    );
    graph.insert(
        "e::g".to_owned(),
        named_by("e::g", "fn f() { other::e::f::W }", &known),
    );
    assert_eq!(
        graph["a::b"],
        BTreeSet::from(["a::c".into(), "a::c::d".into()])
    );
    assert_eq!(graph["a::c::d"], BTreeSet::from(["a::b".into()]));
    assert_eq!(graph["e"], BTreeSet::from(["e::f".into()]));
    // `super::Z` is the folder's own root: not counted.
    assert_eq!(graph["e::f"], BTreeSet::from(["e::g".into()]));
    assert!(graph["e::g"].is_empty(), "{:?}", graph["e::g"]);
    assert_eq!(
        circles(&graph),
        vec![vec!["a::b".to_owned(), "a::c::d".to_owned()]]
    );
}
