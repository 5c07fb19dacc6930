//! Outlines of large real files through the component (SPEC R5): Python's
//! `_pydecimal.py` and a Rust source of over 4,000 lines from the cargo
//! registry come back as outlines of at most 5% of their bytes, and every
//! top-level definition, found here by its own line-by-line scan, is an
//! unindented entry starting on its true line.

use std::path::{Path, PathBuf};

use filetools_tests::real_files::{cargo_registry, python_stdlib};

use super::{read_args, root_and_outside, tools};

/// The most an outline may take of the file it describes.
const MAX_SHARE_PERCENT: usize = 5;

fn python_decimal() -> Option<PathBuf> {
    let path = python_stdlib()?.join("_pydecimal.py");
    path.is_file().then_some(path)
}

/// Smaller files are not read: 4,000 lines of Rust do not fit in them.
const MIN_CANDIDATE_BYTES: u64 = 64 * 1024;

/// A dependency's Rust source of 4,000 to 8,000 lines, the largest there is.
fn registry_rust_file() -> Option<PathBuf> {
    let mut best: Option<(usize, PathBuf)> = None;
    let mut stack = vec![cargo_registry()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && entry
                    .metadata()
                    .is_ok_and(|m| m.len() >= MIN_CANDIDATE_BYTES)
            {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                let lines = text.lines().count();
                let better = best.as_ref().is_none_or(|(n, _)| lines > *n);
                if (4000..=8000).contains(&lines) && better {
                    best = Some((lines, path));
                }
            }
        }
    }
    best.map(|(_, path)| path)
}

/// Reads `source` without a range through the component and checks the
/// outline against `top_level`, the (line, name) pairs of the file's
/// top-level definitions.
fn check(label: &str, source: &Path, top_level: fn(&str) -> Vec<(u64, String)>) {
    let (root, _) = root_and_outside(label);
    let name = source.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(source).unwrap();
    std::fs::write(root.join(&name), &text).unwrap();
    let mut session = tools(&root).session().unwrap();
    let result = session.call("read", &read_args(&name));
    let answer = result.text();
    assert_eq!(result.metadata["outlined"], true, "{answer}");
    assert!(
        answer.len() * 100 <= text.len() * MAX_SHARE_PERCENT,
        "{name}: outline of {} bytes for a file of {}",
        answer.len(),
        text.len()
    );
    let entries: Vec<&str> = answer
        .lines()
        .filter(|l| !l.starts_with([' ', '[']))
        .collect();
    let expected = top_level(&text);
    assert!(
        expected.len() > 20,
        "{name}: only {} definitions found",
        expected.len()
    );
    for (line, symbol) in expected {
        let found = entries.iter().any(|entry| {
            let named =
                entry.contains(&format!("{symbol} ")) || entry.contains(&format!("{symbol}<"));
            named && (entry.contains(&format!("[{line}:")) || entry.ends_with(&format!("[{line}]")))
        });
        assert!(
            found,
            "{name}: no top-level entry for {symbol} at line {line}"
        );
    }
}

fn python_top_level(text: &str) -> Vec<(u64, String)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(rest) = line
            .strip_prefix("def ")
            .or_else(|| line.strip_prefix("class "))
        else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        found.push((index as u64 + 1, name));
    }
    found
}

fn rust_top_level(text: &str) -> Vec<(u64, String)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut rest = line;
        for prefix in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "unsafe ",
            "const ",
            "async ",
            "extern \"C\" ",
        ] {
            if let Some(after) = rest.strip_prefix(prefix)
                && !after.starts_with('{')
            {
                rest = after;
            }
        }
        let item = [
            "fn ", "struct ", "enum ", "trait ", "mod ", "union ", "type ", "static ",
        ]
        .iter()
        .find_map(|kw| rest.strip_prefix(kw));
        let (Some(after), false) = (item, line.ends_with(';') && line.contains("mod ")) else {
            continue;
        };
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            found.push((index as u64 + 1, name));
        }
    }
    found
}

#[test]
fn pydecimal_reads_as_an_outline_with_every_top_level_definition_on_its_line() {
    let source = python_decimal().expect("python3 with its standard library");
    check("outline-pydecimal", &source, python_top_level);
}

#[test]
fn a_registry_rust_file_over_4000_lines_reads_as_an_outline_with_true_start_lines() {
    let source =
        registry_rust_file().expect("the workspace's dependencies are in the cargo registry");
    check("outline-rust", &source, rust_top_level);
}

/// The grammars live in a component of their own: reads and edits of
/// text and JSON never load it; the first parse of code does.
#[test]
fn only_a_parse_of_code_loads_the_grammars() {
    let (root, _) = root_and_outside("outlines-lazy");
    std::fs::write(root.join("notes.txt"), "one\ntwo\n").unwrap();
    std::fs::write(root.join("data.json"), "{\"a\": 1}\n").unwrap();
    std::fs::write(
        root.join("lib.rs"),
        "pub fn first() {}\n\npub fn second() {}\n",
    )
    .unwrap();
    let tools = filetools::Tools::builder().root(&root).build().unwrap();
    let mut session = tools.session().unwrap();
    for (tool, args) in [
        ("read", read_args("notes.txt")),
        ("read", read_args("data.json")),
        (
            "edit",
            r#"{"file_path": "data.json", "old_string": "1", "new_string": "2"}"#.to_owned(),
        ),
    ] {
        let result = session.call(tool, &args);
        assert!(!result.is_error, "{}", result.text());
    }
    assert!(
        !tools.grammars_loaded(),
        "a call on text loaded the grammars"
    );
    let result = session.call("read", r#"{"file_path": "lib.rs", "symbol": "second"}"#);
    assert!(!result.is_error, "{}", result.text());
    assert!(
        result.text().contains("pub fn second() {}"),
        "{}",
        result.text()
    );
    assert!(tools.grammars_loaded());
    let broken = session.call(
        "edit",
        r#"{"file_path": "lib.rs", "old_string": "pub fn first() {}", "new_string": "pub fn first() {"}"#,
    );
    assert!(broken.text().contains("line"), "{}", broken.text());
}
