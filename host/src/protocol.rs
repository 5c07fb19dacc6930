//! The JSONL protocol of `filetools session`: one call per input line,
//! `{"tool": "read", "args": {...}}`, one result per output line.
//!
//! Whatever arrives, every line gets exactly one answer and the session
//! goes on: [`Lines`] reads a line only when it is UTF-8 and within the size
//! cap, reporting anything else as what it is, with memory bounded by the
//! cap however long a line runs; [`answer`] turns a line into the call's
//! result or into one short error that names the problem ([`BadLine`]).
//!
//! ```
//! use filetools::protocol::{BadLine, Line, Lines};
//! let mut lines = Lines::new(&b"caf\xe9\n"[..], 1024);
//! assert_eq!(lines.next_line().unwrap(), Some(Line::NotUtf8 { at: 3, byte: 0xe9 }));
//! let err = BadLine::NotUtf8 { at: 3, byte: 0xe9 };
//! assert!(err.to_string().starts_with("Error: the line is not UTF-8 (byte 0xE9 at offset 3)"));
//! ```

use std::fmt;
use std::io::{self, BufRead};

use serde_json::Value;

use crate::{Session, ToolResult};

/// Default cap on one protocol line, in bytes: room for a write of a 16 MiB
/// file even when JSON escaping doubles it.
pub const DEFAULT_MAX_LINE_BYTES: u64 = 32 * 1024 * 1024;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of UTF-8 text, without its line break.
    Text(String),
    /// A line with a byte sequence that is not UTF-8 at byte `at`.
    NotUtf8 {
        /// Offset of the first bad byte.
        at: usize,
        /// That byte.
        byte: u8,
    },
    /// A line longer than the cap; it was read to its end and dropped.
    TooLong {
        /// Its length in bytes.
        bytes: u64,
    },
}

/// Bytes kept of each end of a line for [`Taken`].
pub const EDGE_BYTES: usize = 256;

/// Line splitting without I/O, shared by [`Lines`] and the MCP server's
/// reader: feed it chunks, take a line when one ended. Memory stays bounded
/// by the cap however long a line runs.
#[derive(Debug)]
pub struct Splitter {
    cap: u64,
    line: Vec<u8>,
    length: u64,
    head: Vec<u8>,
    tail: Vec<u8>,
}

/// A line as [`Splitter::take`] gives it, with its first and last
/// [`EDGE_BYTES`] bytes (for a reply to a line that was refused) and, for a
/// line within the cap that is not UTF-8, all its bytes.
#[derive(Debug, PartialEq, Eq)]
pub struct Taken {
    /// The line.
    pub line: Line,
    /// Its first bytes.
    pub head: Vec<u8>,
    /// Its last bytes.
    pub tail: Vec<u8>,
    /// Every byte of a line that is not UTF-8.
    pub raw: Option<Vec<u8>>,
}

impl Splitter {
    /// A splitter for lines of at most `cap` bytes.
    pub fn new(cap: u64) -> Self {
        Self {
            cap,
            line: Vec::new(),
            length: 0,
            head: Vec::new(),
            tail: Vec::new(),
        }
    }

    /// Takes the bytes of `chunk` up to and including the first line break:
    /// how many it took, and whether that ended a line.
    pub fn feed(&mut self, chunk: &[u8]) -> (usize, bool) {
        let (piece, used, ended) = match memchr(b'\n', chunk) {
            Some(at) => (&chunk[..at], at + 1, true),
            None => (chunk, chunk.len(), false),
        };
        self.length += piece.len() as u64;
        if self.length <= self.cap {
            self.line.extend_from_slice(piece);
        } else {
            self.line = Vec::new();
        }
        let room = EDGE_BYTES.saturating_sub(self.head.len());
        self.head.extend_from_slice(&piece[..room.min(piece.len())]);
        self.tail
            .extend_from_slice(&piece[piece.len().saturating_sub(EDGE_BYTES)..]);
        let over = self.tail.len().saturating_sub(EDGE_BYTES);
        self.tail.drain(..over);
        (used, ended)
    }

    /// Whether bytes of a line were fed since the last [`Splitter::take`].
    pub fn started(&self) -> bool {
        self.length > 0
    }

    /// The line fed so far; the splitter starts the next one.
    pub fn take(&mut self) -> Taken {
        let length = std::mem::take(&mut self.length);
        let mut line = std::mem::take(&mut self.line);
        let head = std::mem::take(&mut self.head);
        let tail = std::mem::take(&mut self.tail);
        if length > self.cap {
            let line = Line::TooLong { bytes: length };
            return Taken {
                line,
                head,
                tail,
                raw: None,
            };
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        match String::from_utf8(line) {
            Ok(text) => Taken {
                line: Line::Text(text),
                head,
                tail,
                raw: None,
            },
            Err(err) => {
                let at = err.utf8_error().valid_up_to();
                let raw = err.into_bytes();
                let line = Line::NotUtf8 { at, byte: raw[at] };
                Taken {
                    line,
                    head,
                    tail,
                    raw: Some(raw),
                }
            }
        }
    }
}

/// Splits a byte stream into [`Line`]s.
#[derive(Debug)]
pub struct Lines<R> {
    input: R,
    splitter: Splitter,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `input`, each at most `cap` bytes.
    pub fn new(input: R, cap: u64) -> Self {
        Self {
            input,
            splitter: Splitter::new(cap),
        }
    }

    /// The next line; `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            if chunk.is_empty() {
                let started = self.splitter.started();
                return Ok(started.then(|| self.splitter.take().line));
            }
            let (used, ended) = self.splitter.feed(chunk);
            self.input.consume(used);
            if ended {
                return Ok(Some(self.splitter.take().line));
            }
        }
    }
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

/// A line that is not a call, as the answer says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadLine {
    /// Not UTF-8.
    NotUtf8 {
        /// Offset of the first bad byte.
        at: usize,
        /// That byte.
        byte: u8,
    },
    /// Over the cap.
    TooLong {
        /// The line's length in bytes.
        bytes: u64,
        /// The cap.
        cap: u64,
    },
    /// Not JSON, with the parser's reason.
    NotJson(String),
    /// JSON without a string `tool`.
    NoTool,
}

/// What every line must look like, quoted by the errors.
const SHAPE: &str =
    r#"each line must be one JSON object {"tool": "<name>", "args": {...}} in UTF-8"#;

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadLine::NotUtf8 { at, byte } => write!(
                f,
                "Error: the line is not UTF-8 (byte 0x{byte:02X} at offset {at}); nothing was done; {SHAPE}."
            ),
            BadLine::TooLong { bytes, cap } => write!(
                f,
                "Error: the line has {bytes} bytes, over the limit of {cap}; nothing was done. Send smaller calls (change a large file with several edits), or raise the limit with --max-line-bytes."
            ),
            BadLine::NotJson(reason) => {
                write!(f, "Error: the line is not JSON ({reason}); {SHAPE}.")
            }
            BadLine::NoTool => write!(f, "Error: \"tool\" is missing or not a string; {SHAPE}."),
        }
    }
}

/// A call: the tool's name and its arguments as JSON text.
pub fn parse_call(line: &str) -> Result<(String, String), BadLine> {
    let value: Value =
        serde_json::from_str(line).map_err(|err| BadLine::NotJson(err.to_string()))?;
    let tool = value
        .get("tool")
        .and_then(Value::as_str)
        .ok_or(BadLine::NoTool)?;
    let arguments = match value.get("args").or_else(|| value.get("arguments")) {
        None | Some(Value::Null) => "{}".to_owned(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    };
    Ok((tool.to_owned(), arguments))
}

/// The answer to one input line, or `None` for a blank line (which gets
/// none). `cap` is the line cap [`Lines`] applied.
pub fn answer(session: &mut Session, line: Line, cap: u64) -> Option<ToolResult> {
    let bad = match line {
        Line::Text(text) if text.trim().is_empty() => return None,
        Line::Text(text) => match parse_call(&text) {
            Ok((tool, arguments)) => return Some(session.call(&tool, &arguments)),
            Err(bad) => bad,
        },
        Line::NotUtf8 { at, byte } => BadLine::NotUtf8 { at, byte },
        Line::TooLong { bytes } => BadLine::TooLong { bytes, cap },
    };
    Some(ToolResult::failure(bad.to_string(), "bad_request"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], cap: u64) -> Vec<Line> {
        let mut lines = Lines::new(io::BufReader::with_capacity(4, input), cap);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push(line);
        }
        out
    }

    #[test]
    fn each_line_is_text_not_utf8_or_too_long() {
        let input = b"{\"a\":1}\r\ncaf\xe9\n0123456789abc\nlast";
        assert_eq!(
            all(input, 10),
            [
                Line::Text("{\"a\":1}".into()),
                Line::NotUtf8 { at: 3, byte: 0xe9 },
                Line::TooLong { bytes: 13 },
                Line::Text("last".into()),
            ]
        );
    }

    #[test]
    fn errors_name_the_problem_and_stay_short() {
        let long = BadLine::TooLong {
            bytes: 400 << 20,
            cap: DEFAULT_MAX_LINE_BYTES,
        };
        assert!(
            long.to_string()
                .contains("419430400 bytes, over the limit of 33554432")
        );
        assert_eq!(parse_call("[1]"), Err(BadLine::NoTool));
        assert!(matches!(parse_call("{"), Err(BadLine::NotJson(_))));
        assert_eq!(
            parse_call(r#"{"tool": "read", "args": {"file_path": "a"}}"#),
            Ok(("read".into(), r#"{"file_path":"a"}"#.into()))
        );
    }

    #[test]
    fn blank_lines_and_the_end_are_told_apart() {
        assert_eq!(
            all(b"\n\n", 10),
            [Line::Text(String::new()), Line::Text(String::new())]
        );
        assert!(all(b"", 10).is_empty());
    }
}
