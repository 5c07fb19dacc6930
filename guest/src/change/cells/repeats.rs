//! Notebooks whose JSON holds a key twice: a cell edit is refused with the
//! key and where it stands, the file is left as it was, and nothing panics;
//! an edit that succeeds is one every JSON reader sees.

use proptest::prelude::*;
use serde_json::Value;

use super::find;
use crate::fs::memory::MemFs;
use crate::tools::session::Session;

/// Reads `notebook`, then runs the `notebook_edit` `call`: its answer, and
/// the file's bytes after.
fn run(notebook: &str, call: &Value) -> (crate::answers::result::ToolResult, String) {
    let fs = MemFs::new();
    fs.add_file("n.ipynb", notebook.as_bytes());
    let mut session = Session::open(r#"{"tools": ["filetools", "notebook"]}"#, fs).unwrap();
    let read = session.call("read", r#"{"file_path": "n.ipynb"}"#);
    assert!(!read.is_error, "{}", read.text());
    let result = session.call("notebook_edit", &call.to_string());
    let after = String::from_utf8(session.fs().contents("n.ipynb").unwrap()).unwrap();
    (result, after)
}

fn replace(cell: &str) -> Value {
    serde_json::json!({"notebook_path": "n.ipynb", "cell_id": cell, "new_source": "changed"})
}

const CELL_A: &str = r#"{"cell_type": "code", "execution_count": null, "id": "a", "metadata": {}, "outputs": [], "source": "x = 1"}"#;
const CELL_B: &str = r##"{"cell_type": "markdown", "id": "b", "metadata": {}, "source": "# B"}"##;
const TAIL: &str = r#""metadata": {}, "nbformat": 4, "nbformat_minor": 5"#;

/// Asserts that editing `cell` of `notebook` is refused naming `repeated`,
/// and leaves the file as it was.
fn refused(notebook: &str, cell: &str, repeated: &str) {
    let (result, after) = run(notebook, &replace(cell));
    assert!(result.is_error, "{}", result.text());
    assert!(
        result.text().contains(repeated),
        "{} lacks {repeated}",
        result.text()
    );
    assert_eq!(after, notebook);
}

#[test]
fn a_repeated_cells_array_is_refused_whether_the_first_is_shorter_or_longer() {
    let shorter = format!(r#"{{"cells": [], "cells": [{CELL_A}], {TAIL}}}"#);
    let (result, _) = run(&shorter, &replace("a"));
    assert_eq!(
        result.text(),
        "Error: n.ipynb holds the key \"cells\" twice at the top level of its JSON. Jupyter and every JSON reader keep only the last, so editing cells here could change text no reader sees; nothing was written. Rewrite it as readers see it (`jq . n.ipynb` keeps the last) or delete the other with a text edit of its JSON, then edit the cell."
    );
    refused(&shorter, "1", "the key \"cells\" twice at the top level");
    let longer = format!(r#"{{"cells": [{CELL_A}, {CELL_B}], "cells": [{CELL_B}], {TAIL}}}"#);
    refused(&longer, "a", "the key \"cells\" twice at the top level");
    refused(&longer, "2", "the key \"cells\" twice at the top level");
    refused(&longer, "b", "the key \"cells\" twice at the top level");
    let spelled = format!(r#"{{"cells": [], "c\u0065lls": [{CELL_A}], {TAIL}}}"#);
    refused(&spelled, "a", "the key \"cells\" twice at the top level");
}

#[test]
fn repeats_inside_a_cell_or_beside_the_cells_are_refused_with_their_place() {
    let source = format!(
        r#"{{"cells": [{CELL_B}, {{"cell_type": "code", "execution_count": null, "id": "a", "metadata": {{}}, "outputs": [], "source": "old", "source": "new"}}], {TAIL}}}"#
    );
    refused(
        &source,
        "a",
        "the key \"source\" twice in the object at .cells[1]",
    );
    let id = format!(
        r#"{{"cells": [{{"cell_type": "markdown", "id": "a", "id": "b", "metadata": {{}}, "source": ""}}], {TAIL}}}"#
    );
    refused(&id, "a", "the key \"id\" twice in the object at .cells[0]");
    let deep = format!(
        r#"{{"cells": [{{"cell_type": "markdown", "id": "a", "metadata": {{"tags": {{"text/x": 1, "text/x": 2}}}}, "source": ""}}], {TAIL}}}"#
    );
    refused(
        &deep,
        "a",
        "the key \"text/x\" twice in the object at .cells[0].metadata.tags",
    );
    for key in ["nbformat", "metadata"] {
        let top = format!(r#"{{"{key}": 3, "cells": [{CELL_A}], {TAIL}}}"#);
        refused(
            &top,
            "a",
            &format!("the key \"{key}\" twice at the top level"),
        );
    }
}

/// A JSON value as the generator builds it: objects keep their keys in
/// order, repeats included.
#[derive(Debug, Clone)]
enum Json {
    Raw(String),
    Object(Vec<(String, Json)>),
    Array(Vec<Json>),
}

impl Json {
    fn text(&self, pretty: bool, depth: usize) -> String {
        let (open, step, close) = if pretty {
            (
                format!("\n{}", " ".repeat(depth + 1)),
                format!(",\n{}", " ".repeat(depth + 1)),
                format!("\n{}", " ".repeat(depth)),
            )
        } else {
            (String::new(), ",".to_owned(), String::new())
        };
        match self {
            Json::Raw(text) => text.clone(),
            Json::Object(entries) if entries.is_empty() => "{}".to_owned(),
            Json::Array(items) if items.is_empty() => "[]".to_owned(),
            Json::Object(entries) => {
                let inner: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{k:?}: {}", v.text(pretty, depth + 1)))
                    .collect();
                format!("{{{open}{}{close}}}", inner.join(&step))
            }
            Json::Array(items) => {
                let inner: Vec<String> = items.iter().map(|v| v.text(pretty, depth + 1)).collect();
                format!("[{open}{}{close}]", inner.join(&step))
            }
        }
    }
}

/// A key to repeat: which entry (modulo the count), a choice of the other
/// value, and whether the repeat stands before the entry or last.
type Repeat = Option<(usize, usize, bool)>;

/// Another value for `key`: sometimes the same, sometimes another of its
/// kind, sometimes a wrong kind.
fn other_value(key: &str, choice: usize, cells: &Json) -> Json {
    let pick = |options: &[&str]| Json::Raw(options[choice % options.len()].to_owned());
    match key {
        "cells" => match choice % 3 {
            0 => Json::Array(Vec::new()),
            1 => cells.clone(),
            _ => Json::Raw("3".to_owned()),
        },
        "source" => pick(&["\"other\"", "[\"a\\n\", \"b\"]", "\"\"", "1"]),
        "id" => pick(&["\"c1\"", "\"c9\"", "\"bad id\"", "null"]),
        "cell_type" => pick(&["\"code\"", "\"markdown\"", "\"raw\"", "\"what\""]),
        "outputs" => pick(&[
            "[]",
            "[{\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": \"x\"}]",
            "{}",
        ]),
        "execution_count" => pick(&["null", "1", "\"one\""]),
        "nbformat" => pick(&["4", "3"]),
        "nbformat_minor" => pick(&["5", "4"]),
        _ => pick(&["{}", "[]", "{\"a\": 1, \"a\": 2}"]),
    }
}

fn repeat(entries: &mut Vec<(String, Json)>, repeat: Repeat, cells: &Json) {
    let Some((which, choice, before)) = repeat else {
        return;
    };
    let which = which % entries.len();
    let key = entries[which].0.clone();
    let value = other_value(&key, choice, cells);
    if before {
        entries.insert(which, (key, value));
    } else {
        entries.push((key, value));
    }
}

/// One cell: its kind (0 code, 1 markdown, 2 raw), whether it has an id,
/// its source and a repeated key.
fn cell_strategy() -> impl Strategy<Value = (u8, bool, String, Repeat)> {
    (
        0u8..3,
        any::<bool>(),
        "[a-c \n]{0,6}",
        proptest::option::weighted(0.1, (0usize..8, 0usize..8, any::<bool>())),
    )
}

/// The cell at 0-based `n` of its list: its id, when it has one, is
/// `c{n + 1}`.
fn cell(n: usize, (kind, has_id, source, repeated): &(u8, bool, String, Repeat)) -> Json {
    let kind = ["code", "markdown", "raw"][usize::from(*kind)];
    let mut entries = vec![("cell_type".to_owned(), Json::Raw(format!("{kind:?}")))];
    if *has_id {
        entries.push(("id".to_owned(), Json::Raw(format!("\"c{}\"", n + 1))));
    }
    entries.push(("metadata".to_owned(), Json::Object(Vec::new())));
    if kind == "code" {
        entries.push(("outputs".to_owned(), Json::Array(Vec::new())));
        entries.push(("execution_count".to_owned(), Json::Raw("null".to_owned())));
    }
    entries.push(("source".to_owned(), Json::Raw(format!("{source:?}"))));
    repeat(&mut entries, *repeated, &Json::Array(Vec::new()));
    Json::Object(entries)
}

/// The text of a cell's source as readers join it.
fn joined(source: &Value) -> String {
    match source {
        Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
        other => other.as_str().unwrap_or_default().to_owned(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn an_edit_that_succeeds_is_the_edit_every_json_reader_sees(
        first in proptest::collection::vec(cell_strategy(), 0..5),
        second in proptest::collection::vec(cell_strategy(), 0..4),
        top in proptest::option::weighted(0.35, (0usize..4, 0usize..8, any::<bool>())),
        pretty in any::<bool>(),
        mode in 0usize..3,
        target in prop::sample::select(vec!["c1", "c2", "c3", "cell-0", "cell-2", "1", "2", "2", "none"]),
        source in "[a-c \n]{0,6}",
        kind in prop::sample::select(vec![None, Some("code"), Some("markdown"), Some("raw"), Some("code")]),
    ) {
        let cells = |list: &[(u8, bool, String, Repeat)]| {
            Json::Array(list.iter().enumerate().map(|(n, c)| cell(n, c)).collect())
        };
        let other_cells = cells(&second);
        let mut entries = vec![
            ("cells".to_owned(), cells(&first)),
            ("metadata".to_owned(), Json::Object(Vec::new())),
            ("nbformat".to_owned(), Json::Raw("4".to_owned())),
            ("nbformat_minor".to_owned(), Json::Raw("5".to_owned())),
        ];
        repeat(&mut entries, top, &other_cells);
        let notebook = Json::Object(entries).text(pretty, 0) + "\n";
        let Ok(seen) = serde_json::from_str::<Value>(&notebook) else {
            return Err(TestCaseError::fail(format!("the generator made bad JSON: {notebook}")));
        };
        let mut call = serde_json::json!({"notebook_path": "n.ipynb", "new_source": source});
        call["edit_mode"] = ["replace", "insert", "delete"][mode].into();
        if target != "none" {
            call["cell_id"] = target.into();
        }
        if let Some(kind) = kind {
            call["cell_type"] = kind.into();
        }
        let (result, after) = run(&notebook, &call);
        if result.is_error {
            prop_assert_eq!(&after, &notebook, "{}", result.text());
            return Ok(());
        }
        // What a reader saw before, and sees now.
        let before = seen["cells"].as_array().cloned().unwrap_or_default();
        let now: Value = serde_json::from_str(&after).expect("the edited notebook is JSON");
        let now = now["cells"].as_array().cloned().unwrap_or_default();
        let index = (target != "none").then(|| find(&before, target)).flatten();
        match mode {
            0 => {
                let i = index.expect("a replace names a cell");
                prop_assert_eq!(now.len(), before.len());
                prop_assert_eq!(joined(&now[i]["source"]), source.clone(), "{}", after);
                for (j, (old, new)) in before.iter().zip(&now).enumerate() {
                    prop_assert!(j == i || old == new, "cell {} changed: {}", j, after);
                }
            }
            1 => {
                let at = index.map_or(0, |i| i + 1);
                prop_assert_eq!(now.len(), before.len() + 1);
                prop_assert_eq!(joined(&now[at]["source"]), source.clone(), "{}", after);
                let mut rest = now.clone();
                rest.remove(at);
                prop_assert_eq!(rest, before);
            }
            _ => {
                let i = index.expect("a delete names a cell");
                let mut expected = before.clone();
                expected.remove(i);
                prop_assert_eq!(now, expected, "{}", after);
            }
        }
    }
}
