//! Reading a patch: the Codex envelope (`*** Begin Patch` … `*** End Patch`
//! around `Add File`, `Delete File` and `Update File` sections, an update
//! optionally `Move to` another path) and the headerless V4A diffs of the
//! Responses API's `create_file` and `update_file` operations. Hunks are
//! kept as old and new lines; nothing is looked up in a file here.
//!
//! ```
//! use filetools_core::change::patch::parse::{FileOp, parse_envelope};
//! let ops = parse_envelope("*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch").unwrap();
//! assert_eq!(ops, [FileOp::Add { path: "a.txt".into(), text: "hi\n".into() }]);
//! ```

use crate::answers::error::patch::ParseError;

/// One hunk of an update: lines to find, and what replaces them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hunk {
    /// The texts after its `@@` lines, outermost first: lines to find
    /// first (such as a class, then a method in it). Each one after the
    /// first is sought inside the block the one before it opens.
    pub anchors: Vec<String>,
    /// The lines to find: context and removed lines, in order.
    pub old: Vec<String>,
    /// The lines put in their place: context and added lines, in order.
    pub new: Vec<String>,
    /// For each line of `new`, the index in `old` of the context line it
    /// is, or `None` for an added line: context keeps the file's own text.
    pub context: Vec<Option<usize>>,
    /// Marked `*** End of File`: the old lines end the file.
    pub end_of_file: bool,
}

impl Hunk {
    /// Whether it has any context, removed or added line: anchors alone
    /// change nothing.
    pub fn has_lines(&self) -> bool {
        !self.old.is_empty() || !self.new.is_empty()
    }

    /// Adds a context line.
    fn keep(&mut self, line: &str) {
        self.context.push(Some(self.old.len()));
        self.old.push(line.to_owned());
        self.new.push(line.to_owned());
    }
}

/// One file's part of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOp {
    /// Create the file with this text.
    Add {
        /// Its path.
        path: String,
        /// Its whole text, each line ended by `\n`.
        text: String,
    },
    /// Remove the file.
    Delete {
        /// Its path.
        path: String,
    },
    /// Change the file by hunks, and maybe move it.
    Update {
        /// Its path.
        path: String,
        /// Where it moves to.
        move_to: Option<String>,
        /// The hunks, in file order.
        hunks: Vec<Hunk>,
        /// The diff's own lines end in CRLF: lines added to a file that
        /// has no line end yet to take a style from get CRLF too.
        crlf: bool,
    },
}

impl FileOp {
    /// The path the operation names first.
    pub fn path(&self) -> &str {
        match self {
            FileOp::Add { path, .. } | FileOp::Delete { path } | FileOp::Update { path, .. } => {
                path
            }
        }
    }
}

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

/// The lines of `text`, each without its line end (`\r\n` or `\n`).
fn lines_of(text: &str) -> Vec<&str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// Reads a Codex envelope. Blank lines around the markers and a shell
/// heredoc wrapped around the whole (`<<'EOF'` … `EOF`) are tolerated.
pub fn parse_envelope(text: &str) -> Result<Vec<FileOp>, ParseError> {
    let all = lines_of(text);
    let mut lines: Vec<(usize, &str)> = all
        .iter()
        .copied()
        .enumerate()
        .map(|(n, l)| (n + 1, l))
        .collect();
    while lines.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        lines.pop();
    }
    let start = lines
        .iter()
        .position(|(_, l)| !l.trim().is_empty())
        .unwrap_or(lines.len());
    lines.drain(..start);
    // `apply_patch <<'EOF'` … `EOF`, as models sometimes send it.
    if lines.first().is_some_and(|(_, l)| l.contains("<<"))
        && lines.last().is_some_and(|(_, l)| l.trim() == "EOF")
    {
        lines.remove(0);
        lines.pop();
    }
    if lines.first().is_none_or(|(_, l)| l.trim() != BEGIN) {
        return Err(ParseError::NoBegin);
    }
    if lines.len() < 2 || lines.last().is_none_or(|(_, l)| l.trim() != END) {
        return Err(ParseError::NoEnd);
    }
    let body = &lines[1..lines.len() - 1];
    let ops = parse_sections(body)?;
    if ops.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(ops)
}

/// The path after `marker`, when `line` is that header; whitespace before
/// the marker is tolerated, as Codex does.
fn header<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    line.trim_start().strip_prefix(marker).map(str::trim)
}

/// Whether `line` starts a new section. Inside an update's hunks only an
/// unindented header does: an indented one is a context line (a file may
/// hold such a line), as Codex reads it.
fn is_header(line: &str, indented: bool) -> bool {
    let line = if indented { line.trim_start() } else { line };
    [ADD, DELETE, UPDATE, END]
        .iter()
        .any(|m| line.starts_with(m.trim_end()))
}

fn parse_sections(body: &[(usize, &str)]) -> Result<Vec<FileOp>, ParseError> {
    let mut ops = Vec::new();
    let mut at = 0;
    while at < body.len() {
        let (number, line) = body[at];
        at += 1;
        let named = |path: &str| {
            if path.is_empty() {
                Err(ParseError::NoPath { line: number })
            } else {
                Ok(path.to_owned())
            }
        };
        if let Some(path) = header(line, ADD) {
            let path = named(path)?;
            let end = section_end(body, at, true);
            let text = added_text(&body[at..end])?;
            at = end;
            ops.push(FileOp::Add { path, text });
        } else if let Some(path) = header(line, DELETE) {
            ops.push(FileOp::Delete { path: named(path)? });
        } else if let Some(path) = header(line, UPDATE) {
            let path = named(path)?;
            let mut move_to = None;
            if let Some(&(n, next)) = body.get(at)
                && let Some(to) = header(next, MOVE)
            {
                if to.is_empty() {
                    return Err(ParseError::NoPath { line: n });
                }
                move_to = Some(to.to_owned());
                at += 1;
            }
            let end = section_end(body, at, false);
            let hunks = parse_hunks(&body[at..end])?;
            at = end;
            if hunks.is_empty() && move_to.is_none() {
                return Err(ParseError::EmptyUpdate { path });
            }
            ops.push(FileOp::Update {
                path,
                move_to,
                hunks,
                crlf: false,
            });
        } else if !line.trim().is_empty() {
            return Err(ParseError::Unexpected {
                line: number,
                text: line.to_owned(),
                expected: "a file header (\"*** Add File: \", \"*** Delete File: \" or \"*** Update File: \")",
            });
        }
    }
    Ok(ops)
}

/// Where the section starting at `from` ends: the next file header
/// (indented too, when `indented`).
fn section_end(body: &[(usize, &str)], from: usize, indented: bool) -> usize {
    body[from..]
        .iter()
        .position(|(_, l)| is_header(l, indented))
        .map_or(body.len(), |n| from + n)
}

/// The text of an added file: every line starts with `+`, and each ends
/// with `\n`. Blank lines after the last one (before the next header) are
/// not part of it.
fn added_text(lines: &[(usize, &str)]) -> Result<String, ParseError> {
    let blank_tail = lines
        .iter()
        .rev()
        .take_while(|(_, l)| l.trim().is_empty())
        .count();
    let mut text = String::new();
    for &(number, line) in &lines[..lines.len() - blank_tail] {
        let Some(content) = line.strip_prefix('+') else {
            return Err(ParseError::Unexpected {
                line: number,
                text: line.to_owned(),
                expected: "a line of the new file, starting with '+'",
            });
        };
        text.push_str(content);
        text.push('\n');
    }
    Ok(text)
}

/// The hunks of an update section (or of a headerless V4A diff). An empty
/// line inside a hunk is an empty context line; blank lines before a hunk
/// (after the header or after `*** End of File`) separate hunks. `@@` lines
/// that follow one another stack their anchors on one hunk; a hunk without
/// lines is refused.
pub fn parse_hunks(lines: &[(usize, &str)]) -> Result<Vec<Hunk>, ParseError> {
    let mut hunks: Vec<Hunk> = Vec::new();
    // The hunk being read, with the patch line it starts at.
    let mut current: Option<(usize, Hunk)> = None;
    for &(number, line) in lines {
        if let Some(rest) = line.strip_prefix("@@") {
            let anchor = anchor_text(rest);
            match &mut current {
                Some((_, hunk)) if !hunk.has_lines() && !hunk.end_of_file => {
                    hunk.anchors.extend(anchor);
                }
                _ => {
                    if let Some(done) = current.take() {
                        hunks.push(finished(done)?);
                    }
                    let hunk = Hunk {
                        anchors: anchor.into_iter().collect(),
                        ..Hunk::default()
                    };
                    current = Some((number, hunk));
                }
            }
            continue;
        }
        if line.trim() == END_OF_FILE {
            let (start, mut hunk) = current.take().unwrap_or((number, Hunk::default()));
            hunk.end_of_file = true;
            hunks.push(finished((start, hunk))?);
            continue;
        }
        if current.is_none() && line.trim().is_empty() {
            continue;
        }
        let (_, hunk) = current.get_or_insert_with(|| (number, Hunk::default()));
        match line.chars().next() {
            Some(' ') => hunk.keep(&line[1..]),
            Some('-') => hunk.old.push(line[1..].to_owned()),
            Some('+') => {
                hunk.new.push(line[1..].to_owned());
                hunk.context.push(None);
            }
            None => hunk.keep(""),
            _ => {
                return Err(ParseError::Unexpected {
                    line: number,
                    text: line.to_owned(),
                    expected: "a hunk line: '@@', or ' ' (context), '-' (removed) or '+' (added) followed by the line",
                });
            }
        }
    }
    if let Some(done) = current {
        hunks.push(finished(done)?);
    }
    Ok(hunks)
}

/// The anchor of an `@@` line, from what follows the `@@`: one space
/// after it is the separator, the rest is the line to find; none when
/// blank.
fn anchor_text(rest: &str) -> Option<String> {
    let text = rest.strip_prefix(' ').unwrap_or(rest).trim_end();
    (!text.trim().is_empty()).then(|| text.to_owned())
}

/// `hunk` as read, or why it cannot stand: it has no lines.
fn finished((start, hunk): (usize, Hunk)) -> Result<Hunk, ParseError> {
    if hunk.has_lines() {
        Ok(hunk)
    } else {
        Err(ParseError::NoLines { line: start })
    }
}

/// The hunks of a headerless V4A diff (`update_file`).
pub fn parse_diff(diff: &str) -> Result<Vec<Hunk>, ParseError> {
    let numbered: Vec<(usize, &str)> = lines_of(diff)
        .into_iter()
        .enumerate()
        .map(|(n, l)| (n + 1, l))
        .collect();
    parse_hunks(&numbered)
}

/// The text of a `create_file` diff, as OpenAI's handler makes it: every
/// line starts with `+`, and the lines are joined by the diff's own line
/// end (CRLF when the diff has one, else LF), so a last bare `+` is the
/// final newline: `+a\n+b\n+` is `a\nb\n`, and `+a\n+b` is `a\nb`.
pub fn parse_created(diff: &str) -> Result<String, ParseError> {
    if diff.is_empty() {
        return Ok(String::new());
    }
    let end = if diff.contains("\r\n") { "\r\n" } else { "\n" };
    let mut text = String::with_capacity(diff.len());
    for (n, line) in lines_of(diff).into_iter().enumerate() {
        let Some(content) = line.strip_prefix('+') else {
            return Err(ParseError::Unexpected {
                line: n + 1,
                text: line.to_owned(),
                expected: "a line of the new file, starting with '+'",
            });
        };
        if n > 0 {
            text.push_str(end);
        }
        text.push_str(content);
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_envelope_with_every_kind_of_section() {
        let patch = "*** Begin Patch\n*** Add File: n.txt\n+one\n+two\n*** Delete File: old.txt\n*** Update File: a.py\n*** Move to: b.py\n@@ def f():\n-    return 1\n+    return 2\n*** End of File\n*** End Patch\n";
        let ops = parse_envelope(patch).unwrap();
        assert_eq!(ops.len(), 3);
        assert_eq!(
            ops[0],
            FileOp::Add {
                path: "n.txt".into(),
                text: "one\ntwo\n".into()
            }
        );
        assert_eq!(
            ops[1],
            FileOp::Delete {
                path: "old.txt".into()
            }
        );
        let FileOp::Update { move_to, hunks, .. } = &ops[2] else {
            panic!()
        };
        assert_eq!(move_to.as_deref(), Some("b.py"));
        assert_eq!(hunks[0].anchors, ["def f():"]);
        assert_eq!(hunks[0].old, ["    return 1"]);
        assert_eq!(hunks[0].new, ["    return 2"]);
        assert!(hunks[0].end_of_file);
    }

    #[test]
    fn missing_markers_and_stray_lines_are_named() {
        assert_eq!(
            parse_envelope("*** Add File: a\n+x"),
            Err(ParseError::NoBegin)
        );
        assert_eq!(
            parse_envelope("*** Begin Patch\n*** Add File: a\n+x"),
            Err(ParseError::NoEnd)
        );
        let err =
            parse_envelope("*** Begin Patch\n*** Update File: a\nx\n*** End Patch").unwrap_err();
        assert!(
            matches!(err, ParseError::Unexpected { line: 3, .. }),
            "{err:?}"
        );
        assert_eq!(
            parse_envelope("*** Begin Patch\n*** End Patch"),
            Err(ParseError::Empty)
        );
    }

    #[test]
    fn a_heredoc_around_the_patch_is_unwrapped() {
        let ops = parse_envelope(
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF\n",
        )
        .unwrap();
        assert_eq!(ops, [FileOp::Delete { path: "x".into() }]);
    }

    #[test]
    fn crlf_patches_read_like_lf_ones() {
        let ops = parse_envelope("*** Begin Patch\r\n*** Add File: a\r\n+x\r\n*** End Patch\r\n")
            .unwrap();
        assert_eq!(
            ops,
            [FileOp::Add {
                path: "a".into(),
                text: "x\n".into()
            }]
        );
    }
}
