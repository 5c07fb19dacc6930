//! Blanks the statements inside Python function bodies before the outline
//! parse (as `quiet_rust` leaves Rust's long literals out of it). The
//! outline shows a function's name and lines, and inside its body only the
//! functions and classes defined directly in it; everything else there —
//! most of a module's tokens — is parsed for nothing. So each run of
//! statements of a function body that are not a `def`, `class` or
//! decorator, with all the lines of their blocks, becomes blank but for a
//! `0` at their indentation on the run's last statement line: the body
//! stays valid Python and ends on the line it ended on, and every kept line
//! keeps its place. The blank lines are then left out of the parse
//! altogether ([`ranges`]). Comment lines
//! stay as they are. When a file does not fit this reading (a statement
//! whose last line is too short to hold the `0`), it is parsed whole.

use std::borrow::Cow;

/// Whitespace worth leaving out of the parse: shorter runs cost the parser
/// more as range boundaries than as spaces.
const SKIPPED_RUN_BYTES: usize = 128;

/// The byte ranges the parse needs of a blanked `text`: all but its runs of
/// whole whitespace lines of [`SKIPPED_RUN_BYTES`] or more (Python's
/// indentation is read from a line's start, so only whole lines are left
/// out). The parser skips the rest without reading it, and every node
/// keeps its place.
pub(crate) fn ranges(text: &str) -> Vec<tree_sitter::Range> {
    let bytes = text.as_bytes();
    let mut ranges = Vec::new();
    // The range being built: its start byte and row.
    let mut open = (0, 0);
    // The blank run being crossed: its start byte and row.
    let mut run: Option<(usize, usize)> = None;
    let (mut start, mut row) = (0, 0);
    let close = |ranges: &mut Vec<tree_sitter::Range>, from: (usize, usize), to: (usize, usize)| {
        if to.0 > from.0 {
            ranges.push(tree_sitter::Range {
                start_byte: from.0,
                end_byte: to.0,
                start_point: tree_sitter::Point::new(from.1, 0),
                end_point: tree_sitter::Point::new(to.1, 0),
            });
        }
    };
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |n| start + n + 1);
        if bytes[start..end].iter().all(u8::is_ascii_whitespace) {
            run.get_or_insert((start, row));
        } else if let Some(blank) = run.take()
            && start - blank.0 >= SKIPPED_RUN_BYTES
        {
            close(&mut ranges, open, blank);
            open = (start, row);
        }
        start = end;
        row += 1;
    }
    // The end: after the last newline, or on the last line, unfinished.
    let last_start = memchr::memrchr(b'\n', bytes).map_or(0, |n| n + 1);
    let end_point = if last_start == bytes.len() {
        tree_sitter::Point::new(row, 0)
    } else {
        tree_sitter::Point::new(row.saturating_sub(1), bytes.len() - last_start)
    };
    ranges.push(tree_sitter::Range {
        start_byte: open.0,
        end_byte: bytes.len(),
        start_point: tree_sitter::Point::new(open.1, 0),
        end_point,
    });
    ranges
}

/// Definitions nested deeper than this leave the file to be parsed whole
/// (the outline shows fewer levels than that anyway).
const MAX_DEPTH: usize = 32;

/// What a logical line starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Only whitespace.
    Blank,
    /// Only a comment.
    Comment,
    /// `def` or `async def`.
    Def,
    /// `class`.
    Class,
    /// `@decorator`.
    Decorator,
    /// Any other statement.
    Other,
}

/// One logical line: physical lines joined by brackets, strings or `\`.
#[derive(Debug, Clone, Copy)]
struct Logical {
    /// Byte offset of its first physical line.
    start: usize,
    /// Byte offset just past its last byte (before the final newline).
    end: usize,
    /// Byte offset where its last physical line starts.
    last_line: usize,
    /// Bytes of indentation of its first line.
    indent: usize,
    kind: Kind,
}

/// `text` with the statements of function bodies blanked, when there are
/// some and the file fits the reading.
pub(crate) fn python(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lines = logical_lines(bytes);
    let mut out: Option<Vec<u8>> = None;
    if keep(bytes, &lines, 0, lines.len(), 0, &mut out).is_none() {
        return Cow::Borrowed(text);
    }
    match out {
        // Only whole characters became ASCII, so the text stays UTF-8.
        Some(out) => String::from_utf8(out).map_or(Cow::Borrowed(text), Cow::Owned),
        None => Cow::Borrowed(text),
    }
}

/// Walks lines `from..to` of a module or class body, where everything is
/// kept: the bodies of the functions found are blanked. `None` when the
/// file does not fit the reading.
fn keep(
    bytes: &[u8],
    lines: &[Logical],
    from: usize,
    to: usize,
    depth: usize,
    out: &mut Option<Vec<u8>>,
) -> Option<()> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut at = from;
    while at < to {
        if lines[at].kind == Kind::Def {
            let body_end = block_end(lines, at, to);
            body(bytes, lines, at + 1, body_end, depth + 1, out)?;
            at = body_end;
        } else {
            at += 1;
        }
    }
    Some(())
}

/// Blanks the statements of the function body `from..to`.
fn body(
    bytes: &[u8],
    lines: &[Logical],
    from: usize,
    to: usize,
    depth: usize,
    out: &mut Option<Vec<u8>>,
) -> Option<()> {
    if depth > MAX_DEPTH {
        return None;
    }
    let Some(first) = (from..to).find(|&i| !matches!(lines[i].kind, Kind::Blank | Kind::Comment))
    else {
        return Some(());
    };
    let indent = lines[first].indent;
    let mut at = first;
    // Statements to blank together, from this line: one `0` stands for a
    // whole run of them.
    let mut run: Option<usize> = None;
    while at < to {
        let line = lines[at];
        if matches!(line.kind, Kind::Blank | Kind::Comment) {
            at += 1;
            continue;
        }
        if line.indent != indent {
            return None;
        }
        let unit_end = block_end(lines, at, to);
        if !matches!(line.kind, Kind::Def | Kind::Class | Kind::Decorator) {
            run.get_or_insert(at);
            at = unit_end;
            continue;
        }
        if let Some(from) = run.take() {
            blank(bytes, &lines[from..at], out)?;
        }
        match line.kind {
            Kind::Def => body(bytes, lines, at + 1, unit_end, depth + 1, out)?,
            Kind::Class => keep(bytes, lines, at + 1, unit_end, depth + 1, out)?,
            _ => {}
        }
        at = unit_end;
    }
    if let Some(from) = run {
        blank(bytes, &lines[from..to], out)?;
    }
    Some(())
}

/// The first line after line `at`'s block: the next line that is neither
/// blank nor a comment and is not indented deeper than `at`, or `to`.
fn block_end(lines: &[Logical], at: usize, to: usize) -> usize {
    let indent = lines[at].indent;
    (at + 1..to)
        .find(|&i| {
            !matches!(lines[i].kind, Kind::Blank | Kind::Comment) && lines[i].indent <= indent
        })
        .unwrap_or(to)
}

/// Blanks one statement with its block (`unit`), comments inside it too,
/// leaving `0` at its indentation on its last statement line. Comments
/// after that line stay, as they stood after the statement before.
fn blank(bytes: &[u8], unit: &[Logical], out: &mut Option<Vec<u8>>) -> Option<()> {
    let first = unit[0];
    let last_at = unit
        .iter()
        .rposition(|l| !matches!(l.kind, Kind::Blank | Kind::Comment))?;
    let last = unit[last_at];
    if last.end - last.last_line <= first.indent {
        return None;
    }
    let out = out.get_or_insert_with(|| bytes.to_vec());
    for line in &unit[..=last_at] {
        for byte in &mut out[line.start..line.end] {
            if *byte != b'\n' && *byte != b'\r' {
                *byte = b' ';
            }
        }
    }
    // The last line: the statement's own indentation, then `0`.
    let target = last.last_line;
    out[target..target + first.indent]
        .copy_from_slice(&bytes[first.start..first.start + first.indent]);
    out[target + first.indent] = b'0';
    Some(())
}

/// Bytes of indentation at `start`.
fn line_indent(bytes: &[u8], start: usize) -> usize {
    bytes[start..]
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\x0c'))
        .count()
}

/// Splits `bytes` into logical lines.
fn logical_lines(bytes: &[u8]) -> Vec<Logical> {
    let mut lines = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        let indent = line_indent(bytes, start);
        let (end, last_line) = logical_end(bytes, start + indent);
        let content = &bytes[start + indent..end];
        let kind = kind_of(content);
        lines.push(Logical {
            start,
            end,
            last_line,
            indent,
            kind,
        });
        at = end + 1;
    }
    lines
}

fn kind_of(content: &[u8]) -> Kind {
    let word = |w: &[u8]| {
        content.starts_with(w)
            && content
                .get(w.len())
                .is_some_and(|b| matches!(b, b' ' | b'\t' | b'(' | b':'))
    };
    match content.first() {
        None | Some(b'\r') => Kind::Blank,
        Some(b'#') => Kind::Comment,
        Some(b'@') => Kind::Decorator,
        _ if word(b"def") => Kind::Def,
        _ if word(b"class") => Kind::Class,
        _ if content.starts_with(b"async")
            && kind_of(content[5..].trim_ascii_start()) == Kind::Def =>
        {
            Kind::Def
        }
        _ => Kind::Other,
    }
}

/// Where the logical line whose text starts at `at` ends (the offset of its
/// final newline, or the end), and where its last physical line starts.
fn logical_end(bytes: &[u8], mut at: usize) -> (usize, usize) {
    let mut depth = 0usize;
    let mut last_line = line_start(bytes, at);
    while at < bytes.len() {
        match bytes[at] {
            b'#' => {
                at = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
                continue;
            }
            quote @ (b'"' | b'\'') => {
                let end = string_end(bytes, at, quote).min(bytes.len());
                if let Some(n) = memchr::memrchr(b'\n', &bytes[at..end]) {
                    last_line = at + n + 1;
                }
                at = end;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\\' if bytes.get(at + 1) == Some(&b'\n') => {
                at += 2;
                last_line = at;
                continue;
            }
            b'\n' => {
                if depth == 0 {
                    return (at, last_line);
                }
                last_line = at + 1;
            }
            _ => {}
        }
        at += 1;
    }
    (bytes.len(), last_line)
}

/// Where the line holding offset `at` starts.
fn line_start(bytes: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..at.min(bytes.len())]).map_or(0, |n| n + 1)
}

/// Past the string whose opening quote is at `at`.
fn string_end(bytes: &[u8], at: usize, quote: u8) -> usize {
    let triple = bytes.get(at + 1) == Some(&quote) && bytes.get(at + 2) == Some(&quote);
    let mut i = if triple { at + 3 } else { at + 1 };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' if !triple => return i,
            b if b == quote => {
                if !triple {
                    return i + 1;
                }
                if bytes.get(i + 1) == Some(&quote) && bytes.get(i + 2) == Some(&quote) {
                    return i + 3;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
#[expect(clippy::format_collect, reason = "test inputs; speed does not matter")]
mod tests {
    use super::*;

    #[test]
    fn function_bodies_become_one_zero_per_run_keeping_lines_and_nested_definitions() {
        let text = "import os\n\nclass A:\n    X = 1\n\n    def f(self, a,\n          b):\n        \"\"\"Doc\n        string.\"\"\"\n        if a:\n            return b\n        # note\n        def inner():\n            return call(1,\n                        2)\n        return inner\n";
        let quiet = python(text);
        assert_eq!(quiet.len(), text.len());
        assert_eq!(
            quiet,
            "import os\n\nclass A:\n    X = 1\n\n    def f(self, a,\n          b):\n              \n                  \n             \n        0           \n        # note\n        def inner():\n                          \n            0             \n        0           \n"
        );
    }

    #[test]
    fn a_statement_too_short_to_hold_the_zero_keeps_the_file_whole() {
        let text = "def f():\n    x = '''\nab\n'''\n";
        assert_eq!(python(text), text);
    }

    #[test]
    fn hostile_shapes_stay_linear_and_bounded() {
        // A staircase of ever deeper lines, a thousand nested functions, and
        // one line of a hundred thousand strings: each must come back at once.
        let stairs: String = (0..20_000)
            .map(|i| format!("{}x = (\n", " ".repeat(i % 4000)))
            .collect();
        assert_eq!(python(&stairs).len(), stairs.len());
        let nested: String = (0..1000)
            .map(|i| format!("{}def f{i}():\n", " ".repeat(i)))
            .collect();
        assert_eq!(python(&nested), nested.as_str());
        let strings = format!("def f():\n    x = [{}]\n", "'a', ".repeat(100_000));
        assert!(python(&strings).ends_with("    0\n") || python(&strings).len() == strings.len());
    }

    #[test]
    fn strings_and_comments_do_not_open_brackets_or_lines() {
        let text = "def f():\n    s = \"(#\"  # )\n    return s\n";
        assert_eq!(python(text), "def f():\n                 \n    0       \n");
    }
}
