//! YAML outline: the key tree by indentation. A sequence says how many items
//! it has; its mapping items become `[i]` entries. Block scalars, comments
//! and flow collections spread over lines are skipped. Each document after
//! the first starts with a `---` entry.

use super::Symbol;
use super::json::items_note;
use super::nest::{empty_or_comment, last_line, nest, trim};

/// The key tree of `text`.
pub(crate) fn keys(text: &str) -> Vec<Symbol> {
    let mut flat: Vec<(usize, Symbol)> = Vec::new();
    // Lines deeper than this indentation belong to a block scalar.
    let mut scalar_above: Option<usize> = None;
    let mut seen_content = false;
    let mut documents = false;
    for (index, raw) in text.split('\n').enumerate() {
        let number = index as u64 + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let content = line.trim_start_matches(' ');
        let indent = line.len() - content.len();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if let Some(limit) = scalar_above {
            if indent > limit {
                continue;
            }
            scalar_above = None;
        }
        if indent == 0 && (content.starts_with("---") || content.starts_with("...")) {
            if seen_content && content.starts_with("---") {
                flat.push((0, Symbol::on_line("---", number)));
                documents = true;
            }
            continue;
        }
        seen_content = true;
        // Documents nest their keys one level down once a `---` has been seen.
        let base = usize::from(documents);
        let mut column = indent;
        let mut rest = content;
        while let Some(after) = rest
            .strip_prefix("- ")
            .or_else(|| (rest == "-").then_some(""))
        {
            flat.push((level(base, column, true), Symbol::on_line("", number)));
            let inner = after.trim_start_matches(' ');
            column += rest.len() - inner.len();
            rest = inner;
        }
        // Anything else continues a plain multi-line scalar or flow value.
        let Some((key, value)) = key_of(rest) else {
            continue;
        };
        flat.push((level(base, column, false), Symbol::on_line(key, number)));
        let value = value.trim();
        if value.starts_with('|') || value.starts_with('>') {
            scalar_above = Some(column);
        }
    }
    let mut tree = nest(flat, last_line(text));
    number_items(&mut tree);
    trim(
        &mut tree,
        &text.split('\n').collect::<Vec<_>>(),
        empty_or_comment,
    );
    tree
}

/// A sequence item sits one step below a key at its own indentation.
fn level(base: usize, column: usize, item: bool) -> usize {
    1 + base + column * 2 + usize::from(item)
}

/// `key: value` → (key, value); quoted keys keep their text.
fn key_of(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    let (key_end, after) = match bytes.first()? {
        quote @ (b'"' | b'\'') => {
            let close = line[1..].find(*quote as char)? + 1;
            (close + 1, close + 1)
        }
        b'{' | b'[' | b'&' | b'*' | b'!' | b'|' | b'>' | b'%' | b'@' | b'`' => return None,
        _ => {
            let colon = line
                .match_indices(':')
                .find(|(at, _)| matches!(bytes.get(at + 1), None | Some(b' ' | b'\t')))?
                .0;
            (colon, colon)
        }
    };
    let rest = line.get(after..)?;
    let value = rest.strip_prefix(':')?;
    if !(value.is_empty() || value.starts_with([' ', '\t'])) {
        return None;
    }
    let key = line[..key_end].trim_end();
    Some((key, value))
}

/// Gives sequence items their `[i]` names, drops scalar items (they are
/// only counted) and notes each sequence's length on its key.
fn number_items(symbols: &mut Vec<Symbol>) {
    for symbol in symbols.iter_mut() {
        let items = symbol
            .children
            .iter()
            .filter(|child| child.name.is_empty())
            .count();
        if items > 0 {
            symbol.detail = Some(items_note(items));
            let mut index = 0;
            symbol.children.retain_mut(|child| {
                if !child.name.is_empty() {
                    return true;
                }
                child.name = format!("[{index}]");
                index += 1;
                !child.children.is_empty()
            });
        }
        number_items(&mut symbol.children);
    }
    // Items at the top level (a document that is a sequence).
    let mut index = 0;
    symbols.retain_mut(|symbol| {
        if !symbol.name.is_empty() {
            return true;
        }
        symbol.name = format!("[{index}]");
        index += 1;
        !symbol.children.is_empty()
    });
}
