//! Renders an outline at the deepest level that fits a byte budget (SPEC R5):
//! full depth when it fits, else one level less at a time down to the top
//! level, a capped entry saying `(N children)`; when even the top level does
//! not fit, as many top-level entries as do, and where the rest begin.
//!
//! One entry per line: indentation by depth, visibility, kind, name, detail,
//! then `[start:end]` (`[n]` for one line):
//!
//! ```text
//! pub struct Decimal [40:52]
//! impl Display for Decimal (3 children) [54:90]
//! ```

use std::fmt::Write as _;

use super::{MAX_NESTING, Symbol};

/// An outline as rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The entries, one per line, each ending in `\n`.
    pub text: String,
    /// Levels shown.
    pub depth: usize,
    /// Levels in the full outline.
    pub max_depth: usize,
    /// Entries shown.
    pub shown: usize,
    /// Entries in the full outline.
    pub total: usize,
    /// Top-level entries left out for lack of room: how many, and the line
    /// the first of them starts on.
    pub rest: Option<(usize, u64)>,
}

const INDENT: &str = "  ";

/// Renders `symbols` within `budget` bytes.
pub fn render(symbols: &[Symbol], budget: usize) -> Rendered {
    let max_depth = symbols
        .iter()
        .map(Symbol::depth)
        .max()
        .unwrap_or(0)
        .min(MAX_NESTING);
    let total = symbols.iter().map(|s| 1 + s.descendants()).sum();
    // Bytes of the outline capped at each depth, from one pass: an entry on
    // level L costs its line at every depth >= L, plus its "(N children)"
    // note at depth L exactly.
    let mut base = vec![0usize; max_depth + 1];
    let mut note = vec![0usize; max_depth + 1];
    measure(symbols, 1, &mut base, &mut note);
    let mut size = 0;
    let mut fits = 0;
    for depth in 1..=max_depth {
        size += base[depth];
        if size + note[depth] <= budget {
            fits = depth;
        }
    }
    if fits > 0 {
        let mut text = String::with_capacity(budget);
        let mut shown = 0;
        for symbol in symbols {
            write_tree(&mut text, symbol, 1, fits, &mut shown);
        }
        return Rendered {
            text,
            depth: fits,
            max_depth,
            shown,
            total,
            rest: None,
        };
    }
    let mut text = String::new();
    let mut shown = 0;
    let mut rest = None;
    for (index, symbol) in symbols.iter().enumerate() {
        let mut line = String::new();
        write_line(&mut line, symbol, 1, !symbol.children.is_empty());
        if text.len() + line.len() > budget {
            rest = Some((symbols.len() - index, symbol.start));
            break;
        }
        text.push_str(&line);
        shown += 1;
    }
    Rendered {
        text,
        depth: 1,
        max_depth,
        shown,
        total,
        rest,
    }
}

fn measure(symbols: &[Symbol], level: usize, base: &mut [usize], note: &mut [usize]) {
    let mut line = String::new();
    for symbol in symbols {
        line.clear();
        write_line(&mut line, symbol, level, false);
        base[level] += line.len();
        if !symbol.children.is_empty() {
            note[level] += children_note(symbol).len();
            if level < MAX_NESTING {
                measure(&symbol.children, level + 1, base, note);
            }
        }
    }
}

fn write_tree(out: &mut String, symbol: &Symbol, level: usize, depth: usize, shown: &mut usize) {
    let capped = level == depth && !symbol.children.is_empty();
    write_line(out, symbol, level, capped);
    *shown += 1;
    if level < depth {
        for child in &symbol.children {
            write_tree(out, child, level + 1, depth, shown);
        }
    }
}

fn children_note(symbol: &Symbol) -> String {
    let n = symbol.children.len();
    format!(" ({n} {})", if n == 1 { "child" } else { "children" })
}

fn write_line(out: &mut String, symbol: &Symbol, level: usize, capped: bool) {
    for _ in 1..level {
        out.push_str(INDENT);
    }
    for part in [symbol.visibility.as_deref(), Some(symbol.kind)]
        .into_iter()
        .flatten()
        .filter(|part| !part.is_empty())
    {
        out.push_str(part);
        out.push(' ');
    }
    out.push_str(&symbol.name);
    if let Some(detail) = &symbol.detail {
        out.push(' ');
        out.push_str(detail);
    }
    if capped {
        out.push_str(&children_note(symbol));
    }
    if symbol.start == symbol.end {
        let _ = writeln!(out, " [{}]", symbol.start);
    } else {
        let _ = writeln!(out, " [{}:{}]", symbol.start, symbol.end);
    }
}
