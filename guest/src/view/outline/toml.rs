//! TOML outline: top-level keys, then each `[table]` with its keys; the
//! repeated headers of an array of tables (`[[bin]]`) are one entry that
//! says how many there are, with `[i]` entries for each. Values spread over
//! lines (arrays, multi-line strings) stay inside their key's range.

use super::Symbol;
use super::json::items_note;
use super::nest::{empty_or_comment, last_line, trim};

/// Gives tables their brackets and arrays of tables their item count and
/// `[i]` entries.
fn name_tables(roots: &mut [Symbol]) {
    for root in roots {
        match root.kind {
            ARRAY => {
                root.detail = Some(items_note(root.children.len()));
                for (index, item) in root.children.iter_mut().enumerate() {
                    item.name = format!("[{index}]");
                }
                root.name = format!("[[{}]]", root.name);
            }
            TABLE => root.name = format!("[{}]", root.name),
            _ => {}
        }
        root.kind = "";
    }
}

/// Marks a table while the tree is built.
const TABLE: &str = "[]";
/// Marks an array of tables while the tree is built.
const ARRAY: &str = "[[]]";

/// The table and key tree of `text`.
pub(crate) fn tables(text: &str) -> Vec<Symbol> {
    let mut roots: Vec<Symbol> = Vec::new();
    // The table being filled, if any: an index into `roots`, and for an
    // array of tables the item inside it.
    let mut table: Option<(usize, bool)> = None;
    let mut open_string: Option<&str> = None;
    let mut open_brackets = 0i64;
    let last = last_line(text);
    for (index, raw) in text.split('\n').enumerate() {
        let number = index as u64 + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw).trim();
        if let Some(close) = open_string {
            if line.contains(close) {
                open_string = None;
            }
            extend(&mut roots, table, number);
            continue;
        }
        if open_brackets > 0 {
            open_brackets += brackets(line);
            extend(&mut roots, table, number);
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = header(line, "[[", "]]") {
            close_table(&mut roots, table, number);
            table = Some((array_item(&mut roots, name, number), true));
            continue;
        }
        if let Some(name) = header(line, "[", "]") {
            close_table(&mut roots, table, number);
            roots.push(Symbol {
                kind: TABLE,
                ..Symbol::on_line(name, number)
            });
            table = Some((roots.len() - 1, false));
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim();
        for quotes in ["\"\"\"", "'''"] {
            if let Some(after) = value.strip_prefix(quotes)
                && !after.contains(quotes)
            {
                open_string = Some(quotes);
            }
        }
        if open_string.is_none() {
            open_brackets = brackets(value).max(0);
        }
        let entry = Symbol::on_line(key.trim(), number);
        match table {
            None => roots.push(entry),
            Some((at, false)) => roots[at].children.push(entry),
            Some((at, true)) => {
                if let Some(item) = roots[at].children.last_mut() {
                    item.children.push(entry);
                }
            }
        }
    }
    close_table(&mut roots, table, last + 1);
    name_tables(&mut roots);
    trim(
        &mut roots,
        &text.split('\n').collect::<Vec<_>>(),
        empty_or_comment,
    );
    roots
}

/// Opens an item of the array of tables `name` on `line`: the array is the
/// last root when the previous header was its item too. Returns its index.
fn array_item(roots: &mut Vec<Symbol>, name: &str, line: u64) -> usize {
    let item = Symbol::on_line("", line);
    let group = roots
        .iter()
        .rposition(|s| s.kind == ARRAY && s.name == name)
        .filter(|&at| at + 1 == roots.len());
    let at = group.unwrap_or_else(|| {
        roots.push(Symbol {
            kind: ARRAY,
            ..Symbol::on_line(name, line)
        });
        roots.len() - 1
    });
    roots[at].children.push(item);
    at
}

/// `[name]` (or `[[name]]`) → name.
fn header<'a>(line: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let inner = line.strip_prefix(open)?;
    let end = inner.find(close)?;
    let rest = inner[end + close.len()..].trim_start();
    if !(rest.is_empty() || rest.starts_with('#')) {
        return None;
    }
    let name = inner[..end].trim();
    (!name.is_empty() && !name.contains('[')).then_some(name)
}

/// Net `[` minus `]` outside strings and comments.
fn brackets(text: &str) -> i64 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for ch in text.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if ch == '\\' && q == '"' {
                    escaped = true;
                } else if ch == q {
                    quote = None;
                }
            }
            None => match ch {
                '"' | '\'' => quote = Some(ch),
                '#' => break,
                '[' | '{' => depth += 1,
                ']' | '}' => depth -= 1,
                _ => {}
            },
        }
    }
    depth
}

/// A value spread over lines ends on `line`.
fn extend(roots: &mut [Symbol], table: Option<(usize, bool)>, line: u64) {
    let entry = match table {
        None => roots.last_mut(),
        Some((at, false)) => roots[at].children.last_mut(),
        Some((at, true)) => roots[at]
            .children
            .last_mut()
            .and_then(|item| item.children.last_mut()),
    };
    if let Some(entry) = entry {
        entry.end = line;
    }
}

/// The open table ends on the line before `next`.
fn close_table(roots: &mut [Symbol], table: Option<(usize, bool)>, next: u64) {
    let Some((at, array)) = table else { return };
    let end = next.saturating_sub(1);
    let root = &mut roots[at];
    root.end = end.max(root.start);
    if array && let Some(item) = root.children.last_mut() {
        item.end = end.max(item.start);
    }
}
