//! Where a tree-sitter parse found code broken: its `ERROR` nodes (text it
//! could not fit: one token is named as unexpected, several are quoted) and
//! `MISSING` nodes (a token it had to assume, such as a closing bracket), in
//! the order of the text.
//! Only subtrees that hold an error are walked.

use tree_sitter::Node;

use filetools_code_types::{Grammar, Stopped, SyntaxError};

use crate::budget;
use crate::{grammar, parse};

/// Characters of a token quoted in a message.
const MAX_TOKEN_CHARS: usize = 24;

/// The first `max` syntax errors of `text`; `Ok(None)` when the grammar is
/// not in this build.
pub fn errors(
    language: Grammar,
    text: &str,
    max: usize,
) -> Result<Option<Vec<SyntaxError>>, Stopped> {
    let Some((grammar, _)) = grammar(language) else {
        return Ok(None);
    };
    let mut parser = budget::parser();
    if parser.set_language(&grammar).is_err() {
        return Ok(None);
    }
    let tree = parse(&mut parser, text.as_bytes())?;
    let mut found = Vec::new();
    collect(tree.root_node(), text, max, &mut found);
    Ok(Some(found))
}

/// The errors under `root` in text order, walked with a cursor (a tree of
/// 100,000 nested brackets is as deep as that), entering only subtrees that
/// hold an error.
fn collect(root: Node<'_>, text: &str, max: usize, found: &mut Vec<SyntaxError>) {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let enter = if found.len() >= max || !node.has_error() {
            false
        } else if node.is_missing() {
            found.push(at(node, text, format!("missing {}", quoted(node.kind()))));
            false
        } else if node.is_error() {
            found.push(at(node, text, unexpected(node, text)));
            false
        } else {
            true
        };
        if enter && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// What is wrong at the error node `node`.
fn unexpected(node: Node<'_>, text: &str) -> String {
    let whole = text
        .get(node.start_byte()..node.end_byte())
        .unwrap_or_default();
    match first_token(node, text) {
        // One token the grammar could not place.
        Some(token) if token.len() == whole.trim().len() => format!("unexpected {}", quoted(token)),
        // Several: the parser gave up on them together.
        Some(_) => format!("cannot parse {}", quoted(whole)),
        None => "unexpected end of text".to_owned(),
    }
}

/// The error at `node`, on the line of its first text (an error node may
/// start with the line break before it).
fn at(node: Node<'_>, text: &str, message: String) -> SyntaxError {
    let start = node.start_byte().min(text.len());
    let skipped = text[start..]
        .bytes()
        .take(node.end_byte().saturating_sub(start))
        .take_while(u8::is_ascii_whitespace)
        .filter(|&b| b == b'\n')
        .count();
    SyntaxError {
        line: (node.start_position().row + skipped) as u64 + 1,
        message,
    }
}

/// The text of the first non-empty leaf under `node`.
fn first_token<'t>(node: Node<'_>, text: &'t str) -> Option<&'t str> {
    let mut cursor = node.walk();
    loop {
        let current = cursor.node();
        if current.child_count() == 0 && current.end_byte() > current.start_byte() {
            return text.get(current.start_byte()..current.end_byte());
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() || cursor.node() == node {
                return None;
            }
        }
    }
}

/// `token` in single quotes: its first line with text, cut short.
fn quoted(token: &str) -> String {
    let line = token
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or_default();
    let cut: String = line.chars().take(MAX_TOKEN_CHARS).collect();
    let more = if cut.len() < line.len() { "…" } else { "" };
    format!("'{cut}{more}'")
}
