//! A file's lines as a patch rewrites them (SPEC W3): each line keeps its
//! own line end, a line that replaces another takes that line's end, and
//! the final newline stays as the file had it. So `-two`/`+TWO` in
//! `one\r\ntwo\nthree\r\n` writes `TWO\n`, where `two` had LF.
//!
//! In a run of changed lines between two context lines, the i-th added
//! line takes the end of the i-th removed line, the last added line the
//! end of the last removed line, and any other added line the file's
//! dominant end.
//!
//! ```
//! use filetools_core::change::patch::lines::FileLines;
//! let file = FileLines::of("a\r\nb", true);
//! assert_eq!(file.contents(), ["a", "b"]);
//! assert_eq!(file.render(&file.lines), "a\r\nb");
//! ```

use super::parse::Hunk;

/// One line: its text without the line end, and whether the end is CRLF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// The text.
    pub text: &'a str,
    /// Its line end is `\r\n` (else `\n`).
    pub crlf: bool,
}

/// A file split into lines.
#[derive(Debug, Clone)]
pub struct FileLines<'a> {
    /// The lines, in order.
    pub lines: Vec<Line<'a>>,
    /// The file ends with a newline (an empty file gains one with its
    /// first line).
    final_newline: bool,
    /// New lines that take no end from a replaced line end in CRLF.
    dominant_crlf: bool,
}

impl<'a> FileLines<'a> {
    /// The lines of `text`; new lines get CRLF when `dominant_crlf`.
    pub fn of(text: &'a str, dominant_crlf: bool) -> Self {
        let final_newline = text.is_empty() || text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut lines: Vec<Line<'a>> = if text.is_empty() {
            Vec::new()
        } else {
            body.split('\n')
                .map(|l| match l.strip_suffix('\r') {
                    Some(text) => Line { text, crlf: true },
                    None => Line {
                        text: l,
                        crlf: false,
                    },
                })
                .collect()
        };
        // The last line of a file without a final newline has no end: a
        // carriage return there is text, and should lines follow it, it
        // gets the dominant end.
        if !final_newline && let Some(last) = lines.last_mut() {
            *last = Line {
                text: body.rsplit('\n').next().unwrap_or(body),
                crlf: dominant_crlf,
            };
        }
        Self {
            lines,
            final_newline,
            dominant_crlf,
        }
    }

    /// The lines' texts, to seek in.
    pub fn contents(&self) -> Vec<&'a str> {
        self.lines.iter().map(|l| l.text).collect()
    }

    /// The lines that replace the `remove` lines from `start` under
    /// `hunk`: its first `kept` new lines, context lines as the file has
    /// them, added lines with the ends the module doc gives.
    pub fn replacement(
        &self,
        start: usize,
        remove: usize,
        hunk: &'a Hunk,
        kept: usize,
    ) -> Vec<Line<'a>> {
        let old = self.lines.get(start..start + remove).unwrap_or(&[]);
        let mut out = Vec::with_capacity(kept);
        let mut consumed = 0;
        let mut added: Vec<&'a str> = Vec::new();
        for (text, context) in hunk.new.iter().zip(&hunk.context).take(kept) {
            match context.filter(|&i| i < old.len() && i >= consumed) {
                Some(i) => {
                    self.run(&old[consumed..i], &added, &mut out);
                    added.clear();
                    out.push(old[i]);
                    consumed = i + 1;
                }
                None => added.push(text),
            }
        }
        self.run(&old[consumed..], &added, &mut out);
        out
    }

    /// `added` lines in place of `removed` ones, with their ends.
    fn run(&self, removed: &[Line<'a>], added: &[&'a str], out: &mut Vec<Line<'a>>) {
        for (j, &text) in added.iter().enumerate() {
            let crlf = match removed.last() {
                Some(last) if j + 1 == added.len() => last.crlf,
                _ if j + 1 < removed.len() => removed[j].crlf,
                _ => self.dominant_crlf,
            };
            out.push(Line { text, crlf });
        }
    }

    /// The text of `lines` as this file writes them.
    pub fn render(&self, lines: &[Line<'_>]) -> String {
        let mut text = String::with_capacity(lines.iter().map(|l| l.text.len() + 2).sum());
        for (n, line) in lines.iter().enumerate() {
            text.push_str(line.text);
            if n + 1 < lines.len() || self.final_newline {
                text.push_str(if line.crlf { "\r\n" } else { "\n" });
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::patch::parse::parse_diff;

    fn applied(text: &str, dominant_crlf: bool, diff: &str, start: usize, remove: usize) -> String {
        let file = FileLines::of(text, dominant_crlf);
        let hunks = parse_diff(diff).unwrap();
        let new = file.replacement(start, remove, &hunks[0], hunks[0].new.len());
        let mut lines = file.lines[..start].to_vec();
        lines.extend(new);
        lines.extend_from_slice(&file.lines[start + remove..]);
        file.render(&lines)
    }

    #[test]
    fn a_replaced_line_keeps_its_own_end_in_a_mixed_file() {
        assert_eq!(
            applied("one\r\ntwo\nthree\r\n", true, "-two\n+TWO", 1, 1),
            "one\r\nTWO\nthree\r\n"
        );
    }

    #[test]
    fn extra_added_lines_take_the_dominant_end_and_the_last_the_replaced_one() {
        assert_eq!(
            applied("a\r\nb\nc\r\n", true, "-b\n+B1\n+B2", 1, 1),
            "a\r\nB1\r\nB2\nc\r\n"
        );
        assert_eq!(
            applied("a\nb\r\nc\nd\n", false, " a\n-b\n-c\n+X\n+Y\n d", 0, 4),
            "a\nX\r\nY\nd\n"
        );
    }

    #[test]
    fn lines_added_after_a_last_line_without_newline_keep_the_state() {
        assert_eq!(applied("a\r\nb", true, " b\n+c", 1, 1), "a\r\nb\r\nc");
        assert_eq!(applied("a\nb", false, "-b\n+B", 1, 1), "a\nB");
    }

    #[test]
    fn a_carriage_return_ending_a_file_without_newline_is_text() {
        let file = FileLines::of("a\nb\r", false);
        assert_eq!(file.contents(), ["a", "b\r"]);
        assert_eq!(file.render(&file.lines), "a\nb\r");
    }

    #[test]
    fn an_empty_file_gains_a_final_newline_with_its_first_line() {
        assert_eq!(applied("", false, "+x", 0, 0), "x\n");
    }
}
