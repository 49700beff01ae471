//! The size targets of issue 36 for the crate: no source file over 800 lines and no function
//! over 150 lines, tests (`#[cfg(test)]` onwards) aside. A long file is split along its seams
//! into a folder, a long function into its steps.

#[path = "common/source_files.rs"]
mod source_files;

const MAX_FILE_LINES: usize = 800;
const MAX_FUNCTION_LINES: usize = 150;

/// Every function of `code` longer than `max` lines, as (first line, name, length): from its
/// `fn` line to the closing brace at the same indentation.
fn long_functions(code: &str, max: usize) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let indent = line.len() - line.trim_start().len();
        let head = line.trim_start();
        let after_visibility = head
            .strip_prefix("pub(crate) ")
            .or_else(|| head.strip_prefix("pub(super) "))
            .or_else(|| head.strip_prefix("pub "))
            .unwrap_or(head);
        let signature = after_visibility
            .strip_prefix("async ")
            .unwrap_or(after_visibility);
        if let Some(rest) = signature.strip_prefix("fn ")
            && !line.trim_end().ends_with(';')
        {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let closing = format!("{}}}", " ".repeat(indent));
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_end() == closing)
                .unwrap_or(lines.len() - 1);
            let length = end - i + 1;
            if length > max {
                found.push((i + 1, name, length));
            }
            i = end;
        }
        i += 1;
    }
    found
}

#[test]
fn no_file_over_800_lines_and_no_function_over_150() {
    let src = source_files::src();
    let mut over = Vec::new();
    for file in source_files::rust_files(&src) {
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let at = file.strip_prefix(&src).unwrap().display().to_string();
        let lines = code.lines().count();
        if lines > MAX_FILE_LINES {
            over.push(format!("{at}: {lines} lines"));
        }
        for (line, name, length) in long_functions(code, MAX_FUNCTION_LINES) {
            over.push(format!("{at}:{line}: fn {name} has {length} lines"));
        }
    }
    assert!(over.is_empty(), "over the size targets: {over:#?}");
}

#[test]
fn a_long_function_is_measured_from_its_fn_line_to_its_closing_brace() {
    let body = "    let x = 1;\n".repeat(200);
    let code = format!(
        "pub async fn long() {{\n{body}}}\n\nfn short() {{\n}}\n    pub(crate) fn inner() {{\n{body}    }}\n"
    );
    let found = long_functions(&code, 150);
    assert_eq!(
        found,
        vec![(1, "long".to_owned(), 202), (206, "inner".to_owned(), 202)]
    );
}
