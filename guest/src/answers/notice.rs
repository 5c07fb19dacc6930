//! Every sentence the model reads about a read, rendered from typed outcomes
//! in one place so they can be reviewed together (SPEC R3, S4; STYLE 8).
//!
//! Notices are facts (`is-error` stays false, no "Error:" prefix); each one
//! that stops early carries the exact next call. Failures are
//! [`crate::answers::error::ToolError`].
//!
//! ```
//! use filetools_core::answers::notice::{Notice, Total, Next};
//! let notice = Notice::Page { first: 1, last: 2000, total: Total::Exact(80412),
//!     next: Next::Offset(2001), budget_tokens: None };
//! assert_eq!(notice.to_string(), "[lines 1-2000 of 80412; continue with offset=2001]");
//! ```

use std::fmt;

use crate::memory::version::Version;
use filetools_code_types::Stopped;

/// What is known of a count that may have been cut short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Total {
    /// Counted to the end.
    Exact(u64),
    /// Counting stopped after `scanned` bytes; there are more than `counted`.
    AtLeast {
        /// What was counted before stopping.
        counted: u64,
        /// Bytes scanned when counting stopped.
        scanned: u64,
    },
}

impl fmt::Display for Total {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Total::Exact(n) => write!(f, "{n}"),
            Total::AtLeast { counted, scanned } => {
                write!(
                    f,
                    "more than {counted} (counted in the first {})",
                    Size(*scanned)
                )
            }
        }
    }
}

/// Where the model goes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// The file ends here.
    EndOfFile,
    /// Continue at this line.
    Offset(u64),
    /// Continue inside line `offset` at character `char_offset`.
    CharOffset {
        /// The line.
        offset: u64,
        /// 1-based character position in it.
        char_offset: u64,
    },
}

impl fmt::Display for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Next::EndOfFile => f.write_str("end of file"),
            Next::Offset(offset) => write!(f, "continue with offset={offset}"),
            Next::CharOffset {
                offset,
                char_offset,
            } => write!(
                f,
                "continue with offset={offset}, char_offset={char_offset}"
            ),
        }
    }
}

/// How a dedup stub begins; `write` refuses content that is one (SPEC W7).
pub const STUB_PREFIX: &str = "[unchanged since your read";

/// How the encoding of a file that is not UTF-8 was settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoding {
    /// A byte-order mark announced it.
    Bom,
    /// The read named it.
    Given,
    /// The detector is confident.
    Detected,
    /// The detector's best guess; the other encodings that fit.
    Guessed(Vec<&'static str>),
}

/// The line of a binary file; a read that named an encoding (`encoded`)
/// hears that it does not make the file text.
fn binary(f: &mut fmt::Formatter<'_>, mime: &str, size: u64, encoded: bool) -> fmt::Result {
    write!(
        f,
        "[binary file: {mime}, {}; its bytes are not shown",
        Size(size)
    )?;
    if encoded {
        f.write_str(", and naming an encoding does not make a binary file text")?;
    }
    f.write_str("]")
}

/// The notice of bytes invalid in `encoding`: UTF-8 that does not decode
/// may be in a legacy encoding the detector did not see.
fn lossy(f: &mut fmt::Formatter<'_>, encoding: &str) -> fmt::Result {
    write!(f, "[invalid {encoding} bytes are shown as U+FFFD")?;
    if encoding == "UTF-8" {
        f.write_str("; if the file is in another encoding, read it with encoding=\"…\"")?;
    }
    f.write_str("]")
}

impl Decoding {
    /// The notice of text decoded from `encoding` this way.
    fn say(&self, f: &mut fmt::Formatter<'_>, encoding: &str) -> fmt::Result {
        match self {
            Decoding::Bom => write!(f, "[decoded from {encoding}]"),
            Decoding::Given => write!(f, "[decoded from {encoding}, as asked]"),
            Decoding::Detected => write!(
                f,
                "[decoded from {encoding}, detected: the file is not UTF-8; edits and writes keep {encoding}]"
            ),
            Decoding::Guessed(others) => {
                write!(f, "[decoded as {encoding}, a guess")?;
                if !others.is_empty() {
                    write!(f, " (it could also be {})", others.join(", "))?;
                }
                write!(
                    f,
                    ": the file is not UTF-8. Read it with encoding=\"…\" to choose; edits and writes need the same encoding argument]"
                )
            }
        }
    }
}

/// A fact about a read, shown after (or instead of) the content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The file has no content (a BOM alone counts as empty).
    Empty,
    /// The file's version, for `expect` (SPEC V1).
    Version(Version),
    /// The requested first line does not exist.
    PastEnd {
        /// Lines in the file.
        total: u64,
        /// The offset asked for.
        offset: u64,
    },
    /// A page of whole lines.
    Page {
        /// First line shown.
        first: u64,
        /// Last line shown.
        last: u64,
        /// Lines in the file.
        total: Total,
        /// Where to continue.
        next: Next,
        /// Set when the page stopped because the output budget (in tokens)
        /// was reached rather than the line limit.
        budget_tokens: Option<u64>,
    },
    /// Part of one long line (a `char_offset` read).
    Window {
        /// The line.
        line: u64,
        /// First character shown, 1-based.
        from: u64,
        /// Last character shown, 1-based.
        to: u64,
        /// Characters in the line.
        total: Total,
        /// Where to continue.
        next: Next,
    },
    /// A `char_offset` beyond the end of its line.
    CharPastEnd {
        /// The line.
        line: u64,
        /// Characters in the line.
        chars: u64,
        /// The position asked for.
        char_offset: u64,
        /// Where to continue.
        next: Next,
    },
    /// Some lines were cut; the per-line markers say how to see the rest.
    LinesCut {
        /// How many lines were cut.
        count: u64,
        /// The per-line cap in characters.
        max_chars: u64,
        /// Characters shown of a line the output budget cut shorter than
        /// the cap (only a page's first line can be).
        budget_cut_at: Option<u64>,
    },
    /// The file was decoded from an encoding other than UTF-8.
    Decoded {
        /// The encoding's name.
        encoding: &'static str,
        /// How it was settled.
        how: Decoding,
    },
    /// Bytes invalid in the named encoding were replaced.
    Lossy(&'static str),
    /// A binary file, described instead of shown (SPEC R15).
    Binary {
        /// Its MIME type.
        mime: String,
        /// Its size.
        size: u64,
        /// Whether the read named an encoding, which does not make it text.
        encoded: bool,
    },
    /// The same read of an unchanged file, answered without the content
    /// (SPEC R7); the next identical read shows it again.
    Unchanged {
        /// Calls since the read that showed the content.
        calls_ago: u64,
    },
    /// What precedes a file's outline or its head and tail (SPEC R5).
    TooLarge {
        /// Lines in the file.
        lines: u64,
        /// Its size.
        size: u64,
        /// Its estimated tokens.
        tokens: u64,
        /// What follows instead of the whole text.
        shown: Overview,
    },
    /// What ends an outline: how much of it was shown and how to read an
    /// entry (SPEC R5).
    OutlineEnd {
        /// Entries shown.
        shown: usize,
        /// Entries in the full outline.
        total: usize,
        /// Levels shown, and levels in the full outline, when capped.
        capped: Option<(usize, usize)>,
        /// Top-level entries left out: how many, and the line the first
        /// starts on.
        rest: Option<(usize, u64)>,
        /// An entry to name in the example call: name, first and last line.
        example: Option<(String, u64, u64)>,
    },
    /// What ends a head-and-tail view.
    HeadTailEnd,
}

/// What a read of a file too large to show whole shows instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overview {
    /// Its outline, in this language or format.
    Outline(&'static str),
    /// Its first and last lines.
    HeadTail {
        /// Lines from the top.
        head: u64,
        /// Lines from the end.
        tail: u64,
        /// Why there is no outline, when the language has one: its
        /// name, and why the parse stopped.
        stopped: Option<(&'static str, Stopped)>,
    },
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Empty => f.write_str("[the file is empty]"),
            Notice::PastEnd { total, offset } => write!(
                f,
                "[the file has {total} line{}; offset {offset} is past the end; use an offset from 1 to {total}]",
                if *total == 1 { "" } else { "s" }
            ),
            Notice::Page {
                first,
                last,
                total,
                next,
                budget_tokens,
            } => {
                write!(f, "[lines {first}-{last} of {total}; ")?;
                if let Some(tokens) = budget_tokens {
                    write!(f, "output budget of {tokens} tokens reached; ")?;
                }
                write!(f, "{next}]")
            }
            Notice::Window {
                line,
                from,
                to,
                total,
                next,
            } => write!(f, "[line {line}, chars {from}-{to} of {total}; {next}]"),
            Notice::CharPastEnd {
                line,
                chars,
                char_offset,
                next,
            } => write!(
                f,
                "[line {line} has {chars} chars; char_offset {char_offset} is past its end; {next}]"
            ),
            Notice::LinesCut {
                count,
                max_chars,
                budget_cut_at,
            } => lines_cut(f, *count, *max_chars, *budget_cut_at),
            Notice::Decoded { encoding, how } => how.say(f, encoding),
            Notice::Lossy(encoding) => lossy(f, encoding),
            Notice::Version(version) => write!(f, "[version {version}]"),
            Notice::Binary {
                mime,
                size,
                encoded,
            } => binary(f, mime, *size, *encoded),
            Notice::Unchanged { calls_ago } => {
                let calls = if *calls_ago == 1 { "call" } else { "calls" };
                write!(
                    f,
                    "{STUB_PREFIX} {calls_ago} {calls} ago; use that output, or read again to see it anew]"
                )
            }
            Notice::TooLarge {
                lines,
                size,
                tokens,
                shown,
            } => {
                write!(
                    f,
                    "[{lines} lines, {}, about {tokens} tokens: too large to show whole. ",
                    Size(*size)
                )?;
                match shown {
                    Overview::Outline(language) => write!(
                        f,
                        "Its {language} outline follows, each entry with its [first:last] lines.]"
                    ),
                    Overview::HeadTail {
                        head,
                        tail,
                        stopped: None,
                    } => write!(f, "Its first {head} and last {tail} lines follow.]"),
                    Overview::HeadTail {
                        head,
                        tail,
                        stopped: Some((language, why)),
                    } => write!(
                        f,
                        "Its {language} outline could not be made ({why}), so its first {head} and last {tail} lines follow.]"
                    ),
                }
            }
            Notice::OutlineEnd {
                shown,
                total,
                capped,
                rest,
                example,
            } => outline_end(f, (*shown, *total), *capped, *rest, example.as_ref()),
            Notice::HeadTailEnd => f.write_str(
                "[read any range with offset and limit; offset=1 pages through the text from the top]",
            ),
        }
    }
}

/// How the end of an outline starts its advice: by name first. A shape
/// whose read has no `symbol` drops this part (see the dialects).
pub const SYMBOL_ADVICE: &str = ". Read an entry whole by its name";

/// The sentence that ends an outline.
fn outline_end(
    f: &mut fmt::Formatter<'_>,
    (shown, total): (usize, usize),
    capped: Option<(usize, usize)>,
    rest: Option<(usize, u64)>,
    example: Option<&(String, u64, u64)>,
) -> fmt::Result {
    write!(f, "[outline: {shown} of {total} entries")?;
    if let Some((depth, max_depth)) = capped {
        write!(
            f,
            "; {depth} of {max_depth} levels shown, \"(N children)\" marks the rest"
        )?;
    }
    if let Some((count, line)) = rest {
        write!(
            f,
            "; {count} more top-level entries from line {line} (offset={line})"
        )?;
    }
    match example {
        Some((name, _, _)) => write!(f, "{SYMBOL_ADVICE}, e.g. symbol=\"{name}\"")?,
        None => write!(f, "{SYMBOL_ADVICE}, as symbol=\"Parent.name\"")?,
    }
    f.write_str("; or its lines with offset=FIRST and limit=LAST-FIRST+1")?;
    if let Some((name, first, last)) = example {
        write!(
            f,
            ", e.g. offset={first} limit={} for {name}",
            last + 1 - first
        )?;
    }
    f.write_str("; offset=1 reads the text from the top.]")
}

/// [`Notice::LinesCut`]: how many lines were cut, and at what length.
fn lines_cut(
    f: &mut fmt::Formatter<'_>,
    count: u64,
    max_chars: u64,
    budget_cut_at: Option<u64>,
) -> fmt::Result {
    let lines = if count == 1 { "line was" } else { "lines were" };
    match budget_cut_at {
        Some(at) => write!(
            f,
            "[{count} {lines} cut at {at} chars to fit the output budget; each marker gives the offset and char_offset that show the rest]"
        ),
        None => write!(
            f,
            "[{count} {lines} cut at {max_chars} chars; each marker gives the offset and char_offset that show the rest]"
        ),
    }
}

/// The marker appended to a line cut at the per-line cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutMarker {
    /// The line.
    pub line: u64,
    /// Characters shown.
    pub shown: u64,
    /// Characters in the line.
    pub total: Total,
}

impl fmt::Display for CutMarker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = match self.total {
            Total::Exact(n) => n.to_string(),
            Total::AtLeast { counted, .. } => format!("more than {counted}"),
        };
        write!(
            f,
            " [… {} of {total} chars; rest: offset={}, char_offset={}]",
            self.shown,
            self.line,
            self.shown + 1
        )
    }
}

/// A byte count for people and models: `512 bytes`, `16 MiB`, `1.5 GiB`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size(pub u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
        if self.0 == 1 {
            return f.write_str("1 byte");
        }
        if self.0 < 1024 {
            return write!(f, "{} bytes", self.0);
        }
        let mut unit = 0;
        let mut scaled = self.0;
        let mut tenths = 0;
        while scaled >= 1024 * 1024 && unit + 1 < UNITS.len() {
            scaled /= 1024;
            unit += 1;
        }
        // One decimal from integer arithmetic, so every host prints the same.
        let whole = scaled / 1024;
        if whole < 10 {
            tenths = (scaled % 1024) * 10 / 1024;
        }
        if tenths == 0 {
            write!(f, "{whole} {}", UNITS[unit])
        } else {
            write!(f, "{whole}.{tenths} {}", UNITS[unit])
        }
    }
}

/// The header of a read by symbol: the entry's name and its lines, shown
/// below it as they stand, without line numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryHeader<'a> {
    /// The entry's qualified name.
    pub name: &'a str,
    /// Its first line.
    pub first: u64,
    /// Its last line.
    pub last: u64,
    /// Lines in the file.
    pub total: Total,
}

impl fmt::Display for EntryHeader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let EntryHeader {
            name,
            first,
            last,
            total,
        } = self;
        write!(f, "[{name}: lines {first}-{last} of {total}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_way_of_settling_an_encoding_is_said() {
        let said = |how| {
            Notice::Decoded {
                encoding: "windows-1252",
                how,
            }
            .to_string()
        };
        assert_eq!(
            said(Decoding::Given),
            "[decoded from windows-1252, as asked]"
        );
        assert_eq!(
            said(Decoding::Detected),
            "[decoded from windows-1252, detected: the file is not UTF-8; edits and writes keep windows-1252]"
        );
        assert_eq!(
            said(Decoding::Guessed(vec!["Shift_JIS"])),
            "[decoded as windows-1252, a guess (it could also be Shift_JIS): the file is not UTF-8. Read it with encoding=\"…\" to choose; edits and writes need the same encoding argument]"
        );
    }

    #[test]
    fn every_notice_reads_as_intended() {
        let cases = [
            (Notice::Empty, "[the file is empty]"),
            (
                Notice::PastEnd {
                    total: 120,
                    offset: 500,
                },
                "[the file has 120 lines; offset 500 is past the end; use an offset from 1 to 120]",
            ),
            (
                Notice::Page {
                    first: 100,
                    last: 120,
                    total: Total::Exact(120),
                    next: Next::EndOfFile,
                    budget_tokens: None,
                },
                "[lines 100-120 of 120; end of file]",
            ),
            (
                Notice::Page {
                    first: 1,
                    last: 812,
                    total: Total::Exact(5000),
                    next: Next::Offset(813),
                    budget_tokens: Some(25000),
                },
                "[lines 1-812 of 5000; output budget of 25000 tokens reached; continue with offset=813]",
            ),
            (
                Notice::Page {
                    first: 1,
                    last: 50,
                    total: Total::AtLeast {
                        counted: 412_000,
                        scanned: 16 << 20,
                    },
                    next: Next::Offset(51),
                    budget_tokens: None,
                },
                "[lines 1-50 of more than 412000 (counted in the first 16 MiB); continue with offset=51]",
            ),
            (
                Notice::Window {
                    line: 1,
                    from: 2001,
                    to: 102_000,
                    total: Total::Exact(600_000),
                    next: Next::CharOffset {
                        offset: 1,
                        char_offset: 102_001,
                    },
                },
                "[line 1, chars 2001-102000 of 600000; continue with offset=1, char_offset=102001]",
            ),
            (
                Notice::CharPastEnd {
                    line: 3,
                    chars: 80,
                    char_offset: 500,
                    next: Next::Offset(4),
                },
                "[line 3 has 80 chars; char_offset 500 is past its end; continue with offset=4]",
            ),
            (
                Notice::LinesCut {
                    count: 1,
                    max_chars: 2000,
                    budget_cut_at: None,
                },
                "[1 line was cut at 2000 chars; each marker gives the offset and char_offset that show the rest]",
            ),
            (
                Notice::LinesCut {
                    count: 1,
                    max_chars: 2000,
                    budget_cut_at: Some(1387),
                },
                "[1 line was cut at 1387 chars to fit the output budget; each marker gives the offset and char_offset that show the rest]",
            ),
            (
                Notice::Decoded {
                    encoding: "UTF-16LE",
                    how: Decoding::Bom,
                },
                "[decoded from UTF-16LE]",
            ),
            (
                Notice::Lossy("UTF-8"),
                "[invalid UTF-8 bytes are shown as U+FFFD; if the file is in another encoding, read it with encoding=\"…\"]",
            ),
            (
                Notice::Unchanged { calls_ago: 1 },
                "[unchanged since your read 1 call ago; use that output, or read again to see it anew]",
            ),
        ];
        for (notice, text) in cases {
            assert_eq!(notice.to_string(), text);
        }
    }

    #[test]
    fn cut_marker_names_the_next_call() {
        let marker = CutMarker {
            line: 7,
            shown: 2000,
            total: Total::Exact(9000),
        };
        assert_eq!(
            marker.to_string(),
            " [… 2000 of 9000 chars; rest: offset=7, char_offset=2001]"
        );
    }

    #[test]
    fn sizes_are_short() {
        assert_eq!(Size(512).to_string(), "512 bytes");
        assert_eq!(Size(1).to_string(), "1 byte");
        assert_eq!(Size(16 << 20).to_string(), "16 MiB");
        assert_eq!(Size(1536).to_string(), "1.5 KiB");
        assert_eq!(Size(1 << 30).to_string(), "1 GiB");
        assert_eq!(Size(600_000).to_string(), "585 KiB");
    }
}
