//! Notebook cell edits (Claude Code's `NotebookEdit`): replace a cell's
//! source, insert a cell after another (or at the start), or delete one,
//! under the edit's rules (SPEC E4, W2: read first, unchanged since). Only
//! the `cells` array is rewritten, and in it only the cells touched: every
//! other cell keeps its bytes, ids are kept, a new cell gets a fresh id
//! when the notebook uses ids, and an edited code cell loses its outputs
//! and execution count, which no longer describe it. The result is checked
//! as nbformat 4 before anything is written. A notebook whose JSON holds a
//! key twice is refused: readers keep the last, and the bytes kept or
//! spliced here would not be the ones they see.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("n.ipynb", b"{\n \"cells\": [\n  {\n   \"cell_type\": \"code\",\n   \"execution_count\": 1,\n   \"id\": \"a1\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n    \"1 + 1\"\n   ]\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n");
//! let mut session = Session::open(r#"{"tools": ["filetools", "notebook"]}"#, fs).unwrap();
//! session.call("read", r#"{"file_path": "n.ipynb"}"#);
//! let result = session.call("notebook_edit", r#"{"notebook_path": "n.ipynb", "cell_id": "a1", "new_source": "2 + 2"}"#);
//! assert_eq!(result.text(), "Replaced the source of cell 1 (id a1, code) of n.ipynb; its outputs were cleared. The notebook has 1 cell.\n[version 4e9a4de0f7927a5e-218]");
//! ```

use std::fmt;

use serde_json::{Map, Value, json};

use crate::answers::error::ToolError;
use crate::answers::error::cells::CellError;
use crate::answers::result::ToolResult;
use crate::answers::sorted::Sorted;
use crate::answers::tool::Tool;
use crate::change::batch;
use crate::change::context::Ctx;
use crate::change::rewrite;
use crate::fs::host::HostFs;
use crate::fs::sha256::sha256_hex;
use crate::paths::repair::Target;
use crate::view::notebook::repeated_key;

/// What to do to the notebook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Replace the source of the cell (and maybe its type).
    Replace,
    /// Insert a new cell after the cell (at the start without one).
    Insert,
    /// Delete the cell.
    Delete,
}

/// A cell edit, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellEdit {
    /// The cell: its id, `cell-N` (0-based) or `N` (1-based, as `read`
    /// numbers cells); `None` only to insert at the start.
    pub cell: Option<String>,
    /// The new source.
    pub source: String,
    /// `code`, `markdown` or `raw`, when given.
    pub kind: Option<String>,
    /// What to do.
    pub mode: Mode,
    /// The version the notebook must be at (SPEC V2).
    pub expect: Option<String>,
}

/// What a cell edit did.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Edited {
    path: String,
    mode: Mode,
    /// 1-based number of the cell edited, inserted or deleted.
    number: usize,
    id: Option<String>,
    kind: String,
    cleared: bool,
    cells: usize,
}

impl fmt::Display for Edited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match &self.id {
            Some(id) => format!("cell {} (id {id}, {})", self.number, self.kind),
            None => format!("cell {} ({})", self.number, self.kind),
        };
        match self.mode {
            Mode::Replace => write!(f, "Replaced the source of {name} of {}", self.path)?,
            Mode::Insert => write!(f, "Inserted {name} into {}", self.path)?,
            Mode::Delete => write!(f, "Deleted {name} of {}", self.path)?,
        }
        if self.cleared {
            f.write_str("; its outputs were cleared")?;
        }
        let noun = if self.cells == 1 { "cell" } else { "cells" };
        write!(f, ". The notebook has {} {noun}.", self.cells)
    }
}

/// Runs a cell edit on `target`.
pub(crate) fn run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    target: &Target,
    path: &str,
    edit: &CellEdit,
) -> Result<ToolResult, ToolError> {
    let loaded = rewrite::load_existing(ctx, target, path, Tool::Edit, edit.expect.as_deref())?;
    // Cells are named by number or id in the model's view: a notebook
    // someone changed since is shown, never merged into.
    loaded.unmerged(ctx, Tool::Edit)?;
    let not_notebook = |why: String| -> ToolError {
        ToolError::Cells(CellError::NotNotebook {
            path: path.to_owned(),
            why,
        })
    };
    let text = &loaded.file.text;
    let notebook = crate::view::notebook::parse(text.as_bytes())
        .map_err(|err| not_notebook(format!("not JSON: {err}")))?;
    // The scan below splices the bytes of the first `cells` array and keeps
    // other bytes as they are, while readers take the last of a repeated
    // key: only a notebook without repeats edits what they see.
    if let Some(repeated) = repeated_key(text.as_bytes()) {
        return Err(ToolError::Cells(CellError::RepeatedKey {
            path: path.to_owned(),
            repeated,
        }));
    }
    validate(&notebook).map_err(not_notebook)?;
    let layout = layout(text).ok_or_else(|| not_notebook("no cells array".to_owned()))?;
    let (cells, minor) = into_cells(notebook);
    if layout.cells.len() != cells.len() {
        return Err(not_notebook(format!(
            "its text holds {} cells where JSON readers see {}",
            layout.cells.len(),
            cells.len()
        )));
    }
    let uses_ids = cells.iter().any(|c| c.get("id").is_some()) || minor.is_some_and(|m| m >= 5);
    let index = match &edit.cell {
        Some(cell) => Some(find(&cells, cell).ok_or_else(|| {
            ToolError::Cells(CellError::NoCell {
                path: path.to_owned(),
                cell: cell.clone(),
                known: known(&cells),
            })
        })?),
        None => None,
    };
    let mut pieces: Vec<String> = layout
        .cells
        .iter()
        .map(|&(start, end)| text[start..end].to_owned())
        .collect();
    let needed = |mode| ToolError::Cells(CellError::CellNeeded { mode });
    let (number, cell, cleared) = match edit.mode {
        Mode::Replace => {
            let i = index.ok_or_else(|| needed("replace"))?;
            let cell = replaced(&cells[i], edit);
            pieces[i] = render(&cell, &layout.indent);
            let cleared = cell["cell_type"] == "code" && had_outputs(&cells[i]);
            (i + 1, cell, cleared)
        }
        Mode::Delete => {
            let i = index.ok_or_else(|| needed("delete"))?;
            pieces.remove(i);
            (i + 1, cells[i].clone(), false)
        }
        Mode::Insert => {
            let kind = edit
                .kind
                .clone()
                .ok_or(ToolError::Cells(CellError::TypeNeeded))?;
            let position = index.map_or(0, |i| i + 1);
            let id = uses_ids.then(|| fresh_id(&cells, &loaded.current.sha256, position));
            let cell = new_cell(&kind, &edit.source, id);
            pieces.insert(position, render(&cell, &layout.indent));
            (position + 1, cell, false)
        }
    };
    drop(cells);
    let new_text = splice(text, &layout, &pieces);
    let reparsed = crate::view::notebook::parse(new_text.as_bytes())
        .map_err(|err| not_notebook(format!("not JSON: {err}")))?;
    validate(&reparsed).map_err(not_notebook)?;
    if reparsed["cells"].as_array().map(Vec::len) != Some(pieces.len()) {
        return Err(not_notebook(format!(
            "after the edit JSON readers would not see {} cells",
            pieces.len()
        )));
    }
    let step = loaded.step(&new_text, None)?;
    batch::commit_all(ctx, &[step], Tool::Edit)?;
    let outcome = Edited {
        path: path.to_owned(),
        mode: edit.mode.clone(),
        number,
        id: cell["id"].as_str().map(str::to_owned),
        kind: cell["cell_type"].as_str().unwrap_or("code").to_owned(),
        cleared,
        cells: pieces.len(),
    };
    let text = outcome.to_string();
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    Ok(ToolResult::from_text(
        text,
        json!({"path": target.rel, "action": "notebook_edited", "cells": pieces.len(), "estimated_tokens": tokens}),
    ))
}

/// The cells of `notebook` and its `nbformat_minor`, the rest of the tree
/// dropped: a notebook of 100,000 cells is parsed twice per edit, never
/// held twice.
fn into_cells(notebook: Value) -> (Vec<Value>, Option<u64>) {
    let minor = notebook["nbformat_minor"].as_u64();
    let cells = match notebook {
        Value::Object(mut map) => match map.remove("cells") {
            Some(Value::Array(cells)) => cells,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    (cells, minor)
}

fn had_outputs(cell: &Value) -> bool {
    cell["outputs"].as_array().is_some_and(|o| !o.is_empty()) || !cell["execution_count"].is_null()
}

/// The cell named `cell`: by id, then `cell-N` (0-based), then `N`
/// (1-based).
fn find(cells: &[Value], cell: &str) -> Option<usize> {
    if let Some(i) = cells.iter().position(|c| c["id"] == cell) {
        return Some(i);
    }
    let numbered = |text: &str, base: usize| {
        text.parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(base))
            .filter(|&i| i < cells.len())
    };
    match cell.strip_prefix("cell-") {
        Some(rest) => numbered(rest, 0),
        None => numbered(cell, 1),
    }
}

/// How the cells are named in an error: their ids, or their numbers.
fn known(cells: &[Value]) -> Vec<String> {
    cells
        .iter()
        .enumerate()
        .map(|(i, c)| {
            c["id"]
                .as_str()
                .map_or_else(|| (i + 1).to_string(), str::to_owned)
        })
        .collect()
}

/// `source` as nbformat stores it: lines, each with its `\n`.
fn source_lines(source: &str) -> Value {
    Value::Array(
        source
            .split_inclusive('\n')
            .map(|l| Value::String(l.to_owned()))
            .collect(),
    )
}

/// `cell` with `edit`'s source (and type); a code cell's outputs cleared.
fn replaced(cell: &Value, edit: &CellEdit) -> Value {
    let mut cell = cell.clone();
    let kind = edit
        .kind
        .clone()
        .or_else(|| cell["cell_type"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "code".to_owned());
    if let Some(map) = cell.as_object_mut() {
        map.insert("source".to_owned(), source_lines(&edit.source));
        map.insert("cell_type".to_owned(), Value::String(kind.clone()));
        if kind == "code" {
            map.insert("outputs".to_owned(), json!([]));
            map.insert("execution_count".to_owned(), Value::Null);
        } else {
            map.remove("outputs");
            map.remove("execution_count");
        }
    }
    cell
}

fn new_cell(kind: &str, source: &str, id: Option<String>) -> Value {
    let mut cell = Map::new();
    cell.insert("cell_type".to_owned(), json!(kind));
    if let Some(id) = id {
        cell.insert("id".to_owned(), json!(id));
    }
    cell.insert("metadata".to_owned(), json!({}));
    cell.insert("source".to_owned(), source_lines(source));
    if kind == "code" {
        cell.insert("execution_count".to_owned(), Value::Null);
        cell.insert("outputs".to_owned(), json!([]));
    }
    Value::Object(cell)
}

/// An id no cell has: derived from the notebook's content and the
/// position, so every host picks the same. Among more candidates than the
/// notebook has cells, one is always free.
fn fresh_id(cells: &[Value], sha256: &str, position: usize) -> String {
    (0..=cells.len())
        .map(|n| sha256_hex(format!("{sha256}/{position}/{n}").as_bytes())[..8].to_owned())
        .find(|id| !cells.iter().any(|c| c["id"] == id.as_str()))
        .unwrap_or_default()
}

/// Checks the nbformat 4 structure of `notebook`.
fn validate(notebook: &Value) -> Result<(), String> {
    if notebook["nbformat"].as_u64() != Some(4) {
        return Err("nbformat must be 4".to_owned());
    }
    if !notebook["metadata"].is_object() {
        return Err("metadata must be an object".to_owned());
    }
    let Some(cells) = notebook["cells"].as_array() else {
        return Err("cells must be a list".to_owned());
    };
    let mut ids = std::collections::BTreeSet::new();
    for (i, cell) in cells.iter().enumerate() {
        let n = i + 1;
        let kind = cell["cell_type"].as_str().unwrap_or("");
        if !["code", "markdown", "raw"].contains(&kind) {
            return Err(format!("cell {n} has cell_type {:?}", cell["cell_type"]));
        }
        let source_ok = cell["source"].is_string()
            || cell["source"]
                .as_array()
                .is_some_and(|lines| lines.iter().all(Value::is_string));
        if !source_ok || !cell["metadata"].is_object() {
            return Err(format!("cell {n} needs a source and a metadata object"));
        }
        if kind == "code"
            && (!cell["outputs"].is_array()
                || !(cell["execution_count"].is_null() || cell["execution_count"].is_u64()))
        {
            return Err(format!("code cell {n} needs outputs and execution_count"));
        }
        if let Some(id) = cell.get("id") {
            let valid = id.as_str().is_some_and(|id| {
                (1..=64).contains(&id.len())
                    && id
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            });
            if !valid || !ids.insert(id.to_string()) {
                return Err(format!("cell {n} has an invalid or repeated id {id}"));
            }
        }
    }
    Ok(())
}

/// Where the cells stand in the notebook's text.
#[derive(Debug)]
struct Layout {
    /// Just after the `[` of the cells array.
    open: usize,
    /// At its `]`.
    close: usize,
    /// Each cell's span.
    cells: Vec<(usize, usize)>,
    /// The indentation of a cell, from the file.
    indent: String,
}

/// The cells array of the notebook `text`, by a scan that follows strings
/// and nesting.
fn layout(text: &str) -> Option<Layout> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    let mut last_key: Option<(usize, usize)> = None;
    let mut open = None;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                let end = string_end(bytes, at)?;
                last_key = Some((at, end));
                at = end;
                continue;
            }
            b'{' | b'[' => {
                if depth == 1
                    && bytes[at] == b'['
                    && last_key.is_some_and(|(s, e)| &text[s..e] == "\"cells\"")
                {
                    open = Some(at + 1);
                    break;
                }
                depth += 1;
            }
            b'}' | b']' => depth = depth.checked_sub(1)?,
            _ => {}
        }
        at += 1;
    }
    let open = open?;
    let mut cells = Vec::new();
    let mut depth = 0usize;
    let mut start = None;
    let mut at = open;
    loop {
        let byte = *bytes.get(at)?;
        match byte {
            b'"' => {
                start.get_or_insert(at);
                at = string_end(bytes, at)?;
                continue;
            }
            b'{' | b'[' => {
                start.get_or_insert(at);
                depth += 1;
            }
            b'}' | b']' if depth > 0 => depth -= 1,
            b',' | b']' if depth == 0 => {
                if let Some(s) = start.take() {
                    cells.push((s, text[..at].trim_end().len()));
                }
                if byte == b']' {
                    break;
                }
            }
            b if b.is_ascii_whitespace() => {}
            _ => {
                start.get_or_insert(at);
            }
        }
        at += 1;
    }
    let close = at;
    let indent = cells.first().map_or_else(
        || "  ".to_owned(),
        |&(s, _)| {
            let line_start = text[..s].rfind('\n').map_or(0, |n| n + 1);
            let before = &text[line_start..s];
            // A notebook written on one line has no indentation to copy.
            if before.bytes().all(|b| b == b' ' || b == b'\t') {
                before.to_owned()
            } else {
                String::new()
            }
        },
    );
    Some(Layout {
        open,
        close,
        cells,
        indent,
    })
}

/// The end (just past the closing quote) of the JSON string at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

/// `cell` as JSON in nbformat's style (keys sorted, one-space steps),
/// indented to stand at `indent`.
fn render(cell: &Value, indent: &str) -> String {
    let step = &indent[..unit(indent)];
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(step.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    if serde::Serialize::serialize(&Sorted(cell), &mut serializer).is_err() {
        return cell.to_string();
    }
    let text = String::from_utf8(out).unwrap_or_default();
    text.replace('\n', &format!("\n{indent}"))
}

/// One step of indentation, in bytes: a cell stands two steps in.
fn unit(indent: &str) -> usize {
    (indent.len() / 2).max(usize::from(!indent.is_empty()))
}

/// `text` with its cells array holding `pieces`.
fn splice(text: &str, layout: &Layout, pieces: &[String]) -> String {
    let outer = &layout.indent[..layout.indent.len() - unit(&layout.indent)];
    let body = if pieces.is_empty() {
        String::new()
    } else {
        format!(
            "\n{}{}\n{outer}",
            layout.indent,
            pieces.join(&format!(",\n{}", layout.indent))
        )
    };
    format!("{}{body}{}", &text[..layout.open], &text[layout.close..])
}

#[cfg(test)]
mod repeats;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    fn edited(notebook: &str, call: &str) -> (String, Value) {
        let fs = MemFs::new();
        fs.add_file("n.ipynb", notebook.as_bytes());
        let mut session = Session::open(r#"{"tools": ["filetools", "notebook"]}"#, fs).unwrap();
        session.call("read", r#"{"file_path": "n.ipynb"}"#);
        let result = session.call("notebook_edit", call);
        let text = String::from_utf8(session.fs().contents("n.ipynb").unwrap()).unwrap();
        let parsed = serde_json::from_str(&text).unwrap();
        assert!(!result.is_error, "{}", result.text());
        (text, parsed)
    }

    #[test]
    fn brackets_and_quotes_inside_strings_do_not_confuse_the_scan() {
        let notebook = r##"{"cells":[{"cell_type":"code","execution_count":1,"id":"x","metadata":{"tags":["]"]},"outputs":[{"output_type":"stream","name":"stdout","text":"],\"{"}],"source":"a[\"]\"]"},{"cell_type":"markdown","id":"y","metadata":{},"source":"# ]["}],"metadata":{},"nbformat":4,"nbformat_minor":5}"##;
        let (text, parsed) = edited(
            notebook,
            r#"{"notebook_path": "n.ipynb", "cell_id": "x", "new_source": "b = 1\n"}"#,
        );
        assert_eq!(parsed["cells"][0]["source"], json!(["b = 1\n"]));
        assert_eq!(parsed["cells"][0]["outputs"], json!([]));
        assert_eq!(parsed["cells"][0]["metadata"]["tags"], json!(["]"]));
        assert!(
            text.contains(r##"{"cell_type":"markdown","id":"y","metadata":{},"source":"# ]["}"##),
            "the untouched cell keeps its bytes: {text}"
        );
    }

    #[test]
    fn a_notebook_without_ids_gets_no_ids_and_cells_are_named_by_number() {
        let notebook = "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"metadata\": {},\n   \"source\": \"a\"\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 2\n}\n";
        let (_, parsed) = edited(
            notebook,
            r#"{"notebook_path": "n.ipynb", "cell_id": "cell-0", "new_source": "b", "cell_type": "code", "edit_mode": "insert"}"#,
        );
        assert_eq!(parsed["cells"][1]["source"], json!(["b"]));
        assert!(parsed["cells"][1].get("id").is_none());
        assert_eq!(parsed["cells"][1]["execution_count"], Value::Null);
    }

    #[test]
    fn deleting_the_last_cell_leaves_an_empty_list() {
        let notebook = "{\n \"cells\": [\n  {\n   \"cell_type\": \"raw\",\n   \"id\": \"r\",\n   \"metadata\": {},\n   \"source\": []\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n";
        let (text, parsed) = edited(
            notebook,
            r#"{"notebook_path": "n.ipynb", "cell_id": "r", "edit_mode": "delete"}"#,
        );
        assert_eq!(parsed["cells"], json!([]));
        assert!(text.starts_with("{\n \"cells\": [],\n"), "{text}");
    }
}
