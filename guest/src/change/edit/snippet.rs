//! The changed regions of an edit, shown the way `read` shows lines (SPEC
//! E8): numbered, with [`CONTEXT_LINES`] of context around each change, close
//! regions merged, at most [`MAX_SNIPPET_LINES`] lines in all — past that the
//! answer says which offset shows the rest, so the model need not re-read
//! the file to see what it did.

use std::fmt::Write as _;

use crate::answers::notice::{CutMarker, Total};
use crate::change::edit::view::LineIndex;
use crate::view::read::cut::cut_point;
use crate::view::read::gutter;

/// Unchanged lines shown before and after each change.
pub const CONTEXT_LINES: u64 = 3;
/// Lines shown in all.
pub const MAX_SNIPPET_LINES: u64 = 60;

/// Renders `regions` (byte spans of `text`, indexed by `index`, which has
/// `total` lines as [`line_count`](crate::text::textfile::line_count)
/// counts them, in order) with line numbers; long lines are cut at
/// `max_chars` like read cuts them.
pub(crate) fn render(
    (text, index): (&str, &LineIndex),
    total: u64,
    regions: &[(usize, usize)],
    max_chars: u64,
) -> String {
    if total == 0 {
        return "[the file is now empty]".to_owned();
    }
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for &(start, end) in regions {
        let first = index.line_of(start);
        let last = index.line_of(end.saturating_sub(1).max(start)).max(first);
        let (from, to) = (
            first.saturating_sub(CONTEXT_LINES).max(1),
            (last + CONTEXT_LINES).min(total),
        );
        match ranges.last_mut() {
            Some(prev) if from <= prev.1 + 1 => prev.1 = prev.1.max(to),
            _ => ranges.push((from, to)),
        }
    }
    let mut shown: Vec<(u64, u64)> = Vec::new();
    let mut budget = MAX_SNIPPET_LINES;
    let mut hidden_from = None;
    for &(from, to) in &ranges {
        if budget == 0 {
            hidden_from.get_or_insert(from);
            break;
        }
        let to_shown = to.min(from + budget - 1);
        shown.push((from, to_shown));
        budget -= to_shown + 1 - from;
        if to_shown < to {
            hidden_from = Some(to_shown + 1);
            break;
        }
    }
    let mut out = String::new();
    for (n, &(from, to)) in shown.iter().enumerate() {
        if n > 0 {
            out.push_str("[…]\n");
        }
        for number in from..=to {
            let line = index.line(text, number);
            gutter::push(&mut out, number);
            let cut = cut_point(line, max_chars, usize::MAX);
            out.push_str(&line[..cut]);
            if cut < line.len() {
                let marker = CutMarker {
                    line: number,
                    shown: line[..cut].chars().count() as u64,
                    total: Total::Exact(line.chars().count() as u64),
                };
                out.push_str(&marker.to_string());
            }
            out.push('\n');
        }
    }
    if let Some(from) = hidden_from {
        let _ = writeln!(
            out,
            "[more changes below line {}; read offset={from} to see them]",
            from - 1
        );
    }
    out.pop();
    out
}

#[cfg(test)]
#[expect(clippy::format_collect, reason = "test inputs; speed does not matter")]
mod tests {
    use super::*;
    use crate::text::textfile::line_count;

    #[test]
    fn a_change_is_shown_with_context() {
        let text: String = (1..=20).map(|n| format!("line {n}\n")).collect();
        let at = text.find("line 10").unwrap();
        let out = render(
            (&text, &LineIndex::new(&text)),
            line_count(&text),
            &[(at, at + 7)],
            2000,
        );
        assert_eq!(
            out,
            "7\tline 7\n8\tline 8\n9\tline 9\n10\tline 10\n11\tline 11\n12\tline 12\n13\tline 13"
        );
    }

    #[test]
    fn distant_changes_are_separated_and_close_ones_merged() {
        let text: String = (1..=40).map(|n| format!("l{n}\n")).collect();
        let span = |line: &str| {
            let at = text.find(&format!("{line}\n")).unwrap();
            (at, at + line.len())
        };
        let out = render(
            (&text, &LineIndex::new(&text)),
            line_count(&text),
            &[span("l2"), span("l5"), span("l30")],
            2000,
        );
        assert!(out.starts_with("1\tl1\n"), "{out}");
        assert!(out.contains("8\tl8\n[…]\n27\tl27\n"), "{out}");
        assert!(out.ends_with("33\tl33"), "{out}");
    }

    #[test]
    fn the_rest_is_named_when_over_the_cap() {
        let text: String = (1..=200).map(|n| format!("l{n}\n")).collect();
        let out = render(
            (&text, &LineIndex::new(&text)),
            line_count(&text),
            &[(0, text.len())],
            2000,
        );
        assert!(
            out.ends_with("[more changes below line 60; read offset=61 to see them]"),
            "{out}"
        );
    }

    #[test]
    fn an_emptied_file_says_so() {
        assert_eq!(
            render(("", &LineIndex::new("")), 0, &[(0, 0)], 2000),
            "[the file is now empty]"
        );
    }
}
