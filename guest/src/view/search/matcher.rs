//! The pattern of a `grep`, compiled once: ripgrep's regular-expression
//! syntax, `^` and `$` at line ends (a `\r` before the `\n` included), and
//! a match that never spans lines unless the search is `multiline` — a
//! line matches when the pattern matches within it alone, as in ripgrep.
//!
//! A pattern that must contain a piece of plain text after its start (the
//! `_with(` of `fn \w+_with\(`) is searched line by line from that text:
//! each line holding it is matched alone, and no other line is looked at.
//! The engine's own search starts from the pattern's first text, which in
//! source code (`fn `) is often everywhere.
//!
//! ```
//! use filetools_core::view::search::matcher::Matcher;
//! let matcher = Matcher::new("b$", false, false).unwrap();
//! let hit = matcher.next_line("ab\r\ncd\nb\n", 0).unwrap();
//! assert_eq!((hit.line_start, hit.line_end), (0, 3));
//! ```

use memchr::memmem::Finder;
use regex::{Regex, RegexBuilder};
use regex_syntax::hir::{Hir, HirKind};

use crate::answers::error::ToolError;
use crate::answers::quote::quoted;
use crate::answers::tool::Tool;

/// Bytes the compiled pattern may take: a pattern that needs more is
/// refused rather than left to exhaust memory.
pub const MAX_PATTERN_BYTES: usize = 16 << 20;

/// The shortest text worth searching lines from: shorter text is too
/// common to spare the engine much.
pub const MIN_REQUIRED_BYTES: usize = 3;

/// A compiled `grep` pattern.
#[derive(Debug, Clone)]
pub struct Matcher {
    regex: Regex,
    /// Text every match contains, past its start, when the search goes
    /// line by line from it.
    required: Option<Finder<'static>>,
}

/// A line with a match in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// Where the line starts.
    pub line_start: usize,
    /// Where it ends, before its `\n` (or the end of the text).
    pub line_end: usize,
    /// The first match in the line, `(start, end)`.
    pub first: (usize, usize),
}

impl Matcher {
    /// `pattern`, case-insensitive when asked; `multiline` lets a match
    /// span lines and `.` match a newline.
    pub fn new(pattern: &str, case_insensitive: bool, multiline: bool) -> Result<Self, ToolError> {
        let regex = RegexBuilder::new(pattern)
            .case_insensitive(case_insensitive)
            .multi_line(true)
            .crlf(true)
            .dot_matches_new_line(multiline)
            .size_limit(MAX_PATTERN_BYTES)
            .build()
            .map_err(|err| ToolError::InvalidArgument {
                tool: Tool::Grep,
                name: "pattern",
                expected: "a regular expression in ripgrep's syntax (escape ( ) [ ] { } . * + ? | with \\ to match them as text)",
                got: format!("{} ({})", quoted(pattern), reason(&err)),
            })?;
        let required = if multiline {
            None
        } else {
            required_text(pattern, case_insensitive).map(|text| Finder::new(&text).into_owned())
        };
        Ok(Self { regex, required })
    }

    /// The first line at or after `from` (a line start) that matches;
    /// the place after a final `\n` is no line.
    pub fn next_line(&self, text: &str, from: usize) -> Option<Hit> {
        if let Some(required) = &self.required {
            return self.next_line_holding(required, text, from);
        }
        let bytes = text.as_bytes();
        let mut at = from;
        while at < text.len() {
            let found = self.regex.find_at(text, at)?;
            let (line_start, line_end) = line_around(bytes, at, found.start());
            if found.end() <= line_end {
                return Some(Hit {
                    line_start,
                    line_end,
                    first: (found.start(), found.end()),
                });
            }
            // The match ran past the line's end: the line matches only if
            // the pattern matches within it alone.
            if let Some(hit) = self.within_line(text, (line_start, line_end)) {
                return Some(hit);
            }
            at = line_end + 1;
        }
        None
    }

    /// [`Matcher::next_line`] for a pattern that needs `required`: the
    /// lines that hold it, each matched alone.
    fn next_line_holding(&self, required: &Finder<'_>, text: &str, from: usize) -> Option<Hit> {
        let bytes = text.as_bytes();
        let mut at = from;
        while at < text.len() {
            let found = at + required.find(&bytes[at..])?;
            let (line_start, line_end) = line_around(bytes, at, found);
            if let Some(hit) = self.within_line(text, (line_start, line_end)) {
                return Some(hit);
            }
            at = line_end + 1;
        }
        None
    }

    /// The first match of the pattern in the line `text[start..end]` alone.
    fn within_line(&self, text: &str, (start, end): (usize, usize)) -> Option<Hit> {
        let inside = self.regex.find(&text[start..end])?;
        Some(Hit {
            line_start: start,
            line_end: end,
            first: (start + inside.start(), start + inside.end()),
        })
    }

    /// Every match of the whole `text`, for a multiline search.
    pub fn all<'t>(&self, text: &'t str) -> impl Iterator<Item = (usize, usize)> + 't {
        let regex = self.regex.clone();
        let mut at = 0;
        std::iter::from_fn(move || {
            if at > text.len() {
                return None;
            }
            let found = regex.find_at(text, at)?;
            at = if found.end() > found.start() {
                found.end()
            } else {
                // An empty match: move on by one character.
                found.end() + text[found.end()..].chars().next().map_or(1, char::len_utf8)
            };
            Some((found.start(), found.end()))
        })
    }
}

/// The longest plain text every match of `pattern` holds past its start
/// (none when the pattern starts with it: the engine searches from there
/// itself), at least [`MIN_REQUIRED_BYTES`] long and within one line.
fn required_text(pattern: &str, case_insensitive: bool) -> Option<Vec<u8>> {
    let hir = regex_syntax::ParserBuilder::new()
        .case_insensitive(case_insensitive)
        .multi_line(true)
        .crlf(true)
        .build()
        .parse(pattern)
        .ok()?;
    let HirKind::Concat(parts) = top(&hir).kind() else {
        return None;
    };
    let (at, text) = parts
        .iter()
        .enumerate()
        .filter_map(|(at, part)| match top(part).kind() {
            HirKind::Literal(literal) => Some((at, &literal.0)),
            _ => None,
        })
        .max_by_key(|(at, text)| (text.len(), std::cmp::Reverse(*at)))?;
    let usable = at > 0
        && text.len() >= MIN_REQUIRED_BYTES
        && !text.iter().any(|byte| matches!(byte, b'\n' | b'\r'));
    usable.then(|| text.to_vec())
}

/// `hir` without the groups around it.
fn top(mut hir: &Hir) -> &Hir {
    while let HirKind::Capture(group) = hir.kind() {
        hir = &group.sub;
    }
    hir
}

/// The last line of a regex error: the reason, without the pattern the
/// error repeats.
fn reason(err: &regex::Error) -> String {
    let text = err.to_string();
    text.lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .unwrap_or("invalid")
        .trim()
        .trim_start_matches("error: ")
        .to_owned()
}

/// The line of `bytes` that holds byte `at`, from no earlier than `from`
/// (where the search began) to its `\n` or the end.
fn line_around(bytes: &[u8], from: usize, at: usize) -> (usize, usize) {
    let start = memchr::memrchr(b'\n', &bytes[from..at]).map_or(from, |i| from + i + 1);
    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(pattern: &str, text: &str) -> Vec<(usize, usize)> {
        let matcher = Matcher::new(pattern, false, false).unwrap();
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(hit) = matcher.next_line(text, at) {
            out.push((hit.line_start, hit.line_end));
            at = hit.line_end + 1;
        }
        out
    }

    #[test]
    fn a_match_never_spans_lines() {
        assert_eq!(lines(r"a\sb", "a\nb\na b\n"), [(4, 7)]);
        assert_eq!(lines(r"x[^y]*z", "x\nz\nxz\n"), [(4, 6)]);
    }

    #[test]
    fn anchors_are_per_line_with_crlf() {
        assert_eq!(lines("^b", "ab\r\nb\r\n"), [(4, 6)]);
        assert_eq!(lines("a$", "a\r\nba\n"), [(0, 2), (3, 5)]);
    }

    #[test]
    fn an_empty_match_matches_each_line() {
        assert_eq!(lines("", "a\n\nb"), [(0, 1), (2, 2), (3, 4)]);
    }

    #[test]
    fn a_pattern_with_text_inside_is_searched_from_that_text() {
        let required = |pattern: &str| required_text(pattern, false);
        assert_eq!(required(r"fn \w+_with\("), Some(b"_with(".to_vec()));
        assert_eq!(required("unsafe"), None);
        assert_eq!(required(r"unsafe \w+"), None);
        assert_eq!(required(r"\w+(foo|bar)"), None);
        assert_eq!(required(r"a|b\w+xyz"), None);
        assert_eq!(required(r"\w+ab"), None);
        assert_eq!(required(r"(\d+)(error)"), Some(b"error".to_vec()));
        assert_eq!(required(r"(?i)\w+_with"), None);
        assert_eq!(required(r"(?i)\w+_123"), Some(b"_123".to_vec()));
    }

    #[test]
    fn lines_searched_from_inner_text_are_the_lines_the_engine_finds() {
        let texts = [
            "fn a_with(x)\nlet b_with(\nfn c_with(y) fn d_with(\n",
            "  fn  e_with(\r\nfn f_with(\r\n_with(\nfn _with(",
            "x_with(fn g_with(\n\nfn é_with(\nfn\nh_with(",
            "error 12error\n(9error)\nerror\n1error\r\n",
        ];
        let patterns = [
            r"fn \w+_with\(",
            r"\w+_with\($",
            r"^fn \w+_with",
            r"\d+error",
            r"(\d+)(error)",
        ];
        for pattern in patterns {
            let fast = Matcher::new(pattern, false, false).unwrap();
            assert!(fast.required.is_some(), "{pattern}");
            let plain = Matcher {
                required: None,
                ..fast.clone()
            };
            for text in texts {
                let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1));
                for mut at in starts {
                    loop {
                        let hit = fast.next_line(text, at);
                        assert_eq!(hit, plain.next_line(text, at), "{pattern:?} in {text:?}");
                        let Some(hit) = hit else { break };
                        at = hit.line_end + 1;
                    }
                }
            }
        }
    }

    #[test]
    fn a_bad_pattern_says_why() {
        let err = Matcher::new("fn (", false, false).unwrap_err().to_string();
        assert!(err.contains("unclosed group"), "{err}");
        assert!(err.contains("escape"), "{err}");
    }
}
