//! One name per type (issue 36): no two types of the crate share a name, so that a name in a
//! signature, a log or a review says which type it is without its module. Read from the
//! declarations at the top level of each file (tests aside); a type local to a function may
//! repeat a name.

use std::collections::BTreeMap;

/// The type declared by a top-level line (`pub struct Name`, `enum Name<T>`, `type Name =`).
fn declared(line: &str) -> Option<&str> {
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let mut words = line.split_whitespace().skip_while(|w| w.starts_with("pub"));
    let kind = words.next()?;
    if !matches!(kind, "struct" | "enum" | "type" | "trait" | "union") {
        return None;
    }
    let name = words.next()?;
    let end = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    Some(&name[..end]).filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
}

#[path = "common/source_files.rs"]
mod source_files;

#[test]
fn no_two_types_share_a_name() {
    let src = source_files::src();
    let mut places: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in source_files::rust_files(&src) {
        let code = source_files::code_of(&file);
        for name in code.lines().filter_map(declared) {
            let at = file.strip_prefix(&src).unwrap().display().to_string();
            places.entry(name.to_owned()).or_default().push(at);
        }
    }
    assert!(
        places.len() > 200,
        "the crate's types were read: {}",
        places.len()
    );
    let shared: Vec<_> = places.iter().filter(|(_, at)| at.len() > 1).collect();
    assert!(shared.is_empty(), "types sharing a name: {shared:#?}");
}

#[test]
fn declarations_are_read_with_their_visibility_and_generics() {
    assert_eq!(declared("pub struct Package {"), Some("Package"));
    assert_eq!(declared("pub(crate) enum Tx {"), Some("Tx"));
    assert_eq!(declared("struct Loaded<T>(Arc<T>);"), Some("Loaded"));
    assert_eq!(declared("pub type Render ="), Some("Render"));
    assert_eq!(declared("    struct Local;"), None);
    assert_eq!(declared("pub fn struct_like() {"), None);
}
