//! Builds a tree from entries listed in file order with a nesting level
//! (heading level, indentation): an entry holds the later ones of deeper
//! level and ends on the line before the next entry of its level or
//! shallower.

use super::{MAX_NESTING, Symbol};

/// Nests `flat` (level, entry) pairs; the last open entries end at `last`.
pub(crate) fn nest(flat: Vec<(usize, Symbol)>, last: u64) -> Vec<Symbol> {
    let mut roots = Vec::new();
    let mut open: Vec<(usize, Symbol)> = Vec::new();
    for (level, symbol) in flat {
        while open.last().is_some_and(|(depth, _)| *depth >= level) {
            if let Some((_, mut done)) = open.pop() {
                done.end = symbol.start.saturating_sub(1).max(done.start);
                attach(&mut open, &mut roots, done);
            }
        }
        if open.len() < MAX_NESTING {
            open.push((level, symbol));
        }
    }
    while let Some((_, mut done)) = open.pop() {
        done.end = last.max(done.start);
        attach(&mut open, &mut roots, done);
    }
    roots
}

fn attach(open: &mut [(usize, Symbol)], roots: &mut Vec<Symbol>, symbol: Symbol) {
    match open.last_mut() {
        Some((_, parent)) => parent.children.push(symbol),
        None => roots.push(symbol),
    }
}

/// Lines in `text` as read counts them.
pub(crate) fn last_line(text: &str) -> u64 {
    crate::text::textfile::line_count(text).max(1)
}

/// Pulls each entry's end back over trailing lines that `blank` says hold
/// nothing (empty lines, comments), never before its start or its last
/// member's end.
pub(crate) fn trim(symbols: &mut [Symbol], lines: &[&str], blank: fn(&str) -> bool) {
    for symbol in symbols {
        trim(&mut symbol.children, lines, blank);
        let floor = symbol
            .children
            .last()
            .map_or(symbol.start, |child| child.end.max(symbol.start));
        while symbol.end > floor
            && lines
                .get(symbol.end as usize - 1)
                .is_none_or(|line| blank(line))
        {
            symbol.end -= 1;
        }
    }
}

/// A line with nothing but whitespace.
pub(crate) fn empty(line: &str) -> bool {
    line.trim().is_empty()
}

/// A line with nothing but whitespace or a `#` comment.
pub(crate) fn empty_or_comment(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with('#')
}
