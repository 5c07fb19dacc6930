//! The top-level statements a change touches: the run of lines around the
//! changed bytes, from the last line before them that starts a top-level
//! statement (a line starting in column 0 with anything but whitespace or
//! a closing bracket) to the next such line after them. For code, it parses
//! on its own when the change broke nothing, so the syntax check
//! (`syntax_check`) parses that instead of the whole file; only a slice with
//! errors sends it to the whole file.
//!
//! ```text
//! def a():          <- not touched
//!     return 1
//!
//! def b():          <- touched: from here
//!     return 3      <- the change
//!                   <- to here
//! C = 3
//! ```

use crate::text::diff::common_ends;

/// The lines of `after` holding every byte in which it differs from
/// `before`, widened to top-level statement boundaries.
pub(crate) fn touched<'a>(before: &str, after: &'a str) -> &'a str {
    let (from, to) = changed(before.as_bytes(), after.as_bytes());
    let start = statement_start(after.as_bytes(), from);
    let end = statement_end(after.as_bytes(), to);
    after.get(start..end).unwrap_or(after)
}

/// `(from, to)`: the bytes of `after` that differ from `before`, as the
/// span between their common prefix and common suffix.
fn changed(before: &[u8], after: &[u8]) -> (usize, usize) {
    let (prefix, suffix) = common_ends(before, after);
    (prefix, after.len() - suffix)
}

/// Whether the line starting at `at` starts a top-level statement.
fn starts_statement(text: &[u8], at: usize) -> bool {
    text.get(at)
        .is_some_and(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'}' | b')' | b']'))
}

/// The start of the last top-level line at or before the line holding `at`.
fn statement_start(text: &[u8], at: usize) -> usize {
    let mut line = line_start(text, at.min(text.len()));
    while line > 0 && !starts_statement(text, line) {
        line = line_start(text, line - 1);
    }
    line
}

/// The start of the first top-level line after the line holding `at` (the
/// end of the text when there is none).
fn statement_end(text: &[u8], at: usize) -> usize {
    let mut next = match memchr::memchr(b'\n', &text[at.min(text.len())..]) {
        Some(offset) => at + offset + 1,
        None => return text.len(),
    };
    while next < text.len() && !starts_statement(text, next) {
        next = memchr::memchr(b'\n', &text[next..]).map_or(text.len(), |offset| next + offset + 1);
    }
    next
}

/// The start of the line holding byte `at`.
fn line_start(text: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &text[..at]).map_or(0, |newline| newline + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_inside_a_function_touches_that_function() {
        let before = "def a():\n    return 1\n\ndef b():\n    x = 1\n    return x\n\nC = 3\n";
        let after = "def a():\n    return 1\n\ndef b():\n    x = 2\n    return x\n\nC = 3\n";
        assert_eq!(
            touched(before, after),
            "def b():\n    x = 2\n    return x\n\n"
        );
    }

    #[test]
    fn closing_brackets_do_not_start_a_statement() {
        let before = "fn a() {\n    1\n}\nfn b() {\n    2\n}\n";
        let after = "fn a() {\n    1\n}\nfn b() {\n    3\n}\n";
        assert_eq!(touched(before, after), "fn b() {\n    3\n}\n");
    }

    #[test]
    fn changes_at_the_edges_and_no_change_stay_in_bounds() {
        assert_eq!(touched("a\n", "b\n"), "b\n");
        assert_eq!(touched("x\n", "x\ny\n"), "y\n");
        assert_eq!(touched("", ""), "");
        assert_eq!(touched("  a\n", ""), "");
        assert_eq!(touched("é\n", "è\n"), "è\n");
    }
}
