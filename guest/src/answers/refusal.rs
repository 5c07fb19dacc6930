//! Every refusal of `write`, `edit` and `undo`, rendered in one place (SPEC
//! W2, W7, E1–E10, S4; STYLE 8). Each names the cause and a next step that
//! works — most carry the exact call to make — and each leaves the file as it
//! was: a refusal is decided before anything is written.
//!
//! ```
//! use filetools_core::answers::{refusal::Refusal, tool::Tool};
//! let refusal = Refusal::NotRead { path: "a.txt".into(), tool: Tool::Write };
//! assert_eq!(
//!     refusal.to_string(),
//!     "Error: a.txt exists and you have not read it; read it first, so nothing you have not seen is overwritten."
//! );
//! ```

use std::fmt;

use serde_json::{Value, json};

use crate::answers::notice::Size;
use crate::answers::tool::Tool;
use crate::memory::ledger::Coverage;
use crate::memory::version::Version;
use crate::text::encoding::{Unmappable, describe_chars};
use crate::text::textfile::NotText;

/// How a file differs from what the session last saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The size changed.
    Size {
        /// Bytes then.
        was: u64,
        /// Bytes now.
        now: u64,
    },
    /// Same size, different content.
    Content,
    /// Same size, newer mtime; the content could not be compared because the
    /// read saw only part of a large file.
    Modified,
    /// The file no longer exists.
    Deleted,
    /// The change removed the file, and a file stands there again.
    Recreated,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Size { was, now } => write!(f, "it was {was} bytes, now {now}"),
            Change::Content => f.write_str("same size, different content"),
            Change::Modified => f.write_str("it was modified"),
            Change::Deleted => f.write_str("it was deleted"),
            Change::Recreated => f.write_str("a file was created there again"),
        }
    }
}

/// Why a change of a file that changed since the model's view was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unmerged {
    /// The change is not merged (merging is off, or the change is not
    /// one of text): the model redoes it against the file now.
    NotMerged,
    /// The change touches lines that changed, or the lines next to them.
    Overlap,
    /// The text an edit replaces no longer matches one place.
    Unmatched,
    /// `write` replaces the whole file: it never merges.
    Whole,
    /// The file is not at the version `expect` named.
    Expected(Version),
}

/// Why the nearest candidate of an edit did not match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// Leading whitespace differs.
    Indentation,
    /// Trailing whitespace differs.
    TrailingSpace,
    /// Whitespace inside the line differs.
    Spacing,
    /// `old_string` carries read's line-number gutter.
    LineNumbers,
    /// Quotes, dashes or special spaces differ.
    Typography,
    /// The text differs.
    Text,
}

impl Why {
    fn describe(self) -> &'static str {
        match self {
            Why::Indentation => "indentation",
            Why::TrailingSpace => "trailing whitespace",
            Why::Spacing => "spacing inside the line",
            Why::LineNumbers => "line numbers copied from read output",
            Why::Typography => "quote, dash or space characters",
            Why::Text => "different text",
        }
    }
}

/// The region of a file closest to an `old_string` that was not found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nearest {
    /// First line of the region.
    pub first: u64,
    /// Last line of the region.
    pub last: u64,
    /// The first line that differs.
    pub line: u64,
    /// Why it differs.
    pub why: Why,
    /// That line in the file.
    pub file_text: String,
    /// The corresponding line of `old_string`.
    pub old_text: String,
}

/// Which edit of a list a refusal is about: `index` of `count`, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// 1-based position in the list.
    pub index: usize,
    /// Edits in the list.
    pub count: usize,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count > 1 {
            write!(f, "edit {} of {}: ", self.index, self.count)?;
        }
        Ok(())
    }
}

/// Lines listed in an ambiguity error before the rest are summarised.
pub const MAX_LISTED_LINES: usize = 10;
/// Characters of a line quoted in a no-match error.
pub const MAX_QUOTED_CHARS: usize = 120;

/// A change the session will not make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The file exists and this session has not read it.
    NotRead {
        /// The path as sent.
        path: String,
        /// The tool refused.
        tool: Tool,
    },
    /// The file changed since the session read or wrote it.
    Stale {
        /// The path as sent.
        path: String,
        /// The tool refused.
        tool: Tool,
        /// What changed.
        change: Change,
    },
    /// The file changed since the model's view; the answer shows how.
    ChangedSinceView {
        /// The path as sent.
        path: String,
        /// The tool refused.
        tool: Tool,
        /// Why the change did not land.
        why: Unmerged,
        /// What changed, as a diff of the view against the file now.
        diff: String,
        /// The file's version now.
        version: Version,
    },
    /// The file is not at the version `expect` named, and the session
    /// keeps no text of that version to show what changed.
    Unexpected {
        /// The path as sent.
        path: String,
        /// The tool refused.
        tool: Tool,
        /// The version named.
        expected: Version,
        /// The version now; `None` when there is no file.
        now: Option<Version>,
    },
    /// `write` over a file the session has seen only in part.
    PartialView {
        /// The path as sent.
        path: String,
        /// Lines seen.
        seen: Coverage,
        /// Lines in the file, when counted.
        total: Option<u64>,
        /// The first line not seen.
        next: u64,
    },
    /// The host found the file changed at the moment of writing.
    Conflict {
        /// The path as sent.
        path: String,
        /// The tool refused.
        tool: Tool,
    },
    /// `write` content that is read output: every line has a gutter.
    GutterContent {
        /// The path as sent.
        path: String,
    },
    /// `write` content that is a dedup stub.
    StubContent {
        /// The path as sent.
        path: String,
    },
    /// The file is larger than an edit may load.
    TooLarge {
        /// The path as sent.
        path: String,
        /// Its size.
        size: u64,
        /// The limit.
        max: u64,
    },
    /// The file is not valid text, so an edit would change unseen bytes.
    NotText {
        /// The path as sent.
        path: String,
        /// The encoding name.
        encoding: &'static str,
        /// First invalid byte, when known.
        offset: Option<u64>,
    },
    /// The file is binary (or an image, a PDF): a read describes it but
    /// shows none of its bytes, so no read of it counts as seeing it, and
    /// no encoding makes it text (SPEC R15, W2).
    Binary {
        /// The path as sent.
        path: String,
        /// What it is, as a MIME type.
        mime: &'static str,
    },
    /// The file is not UTF-8 and its legacy encoding is only a guess: the
    /// model must name one before the file is changed.
    EncodingUnsure {
        /// The path as sent.
        path: String,
        /// The detector's guess.
        guess: &'static str,
        /// Other encodings that decode it cleanly.
        plausible: Vec<&'static str>,
    },
    /// Decoding and encoding back would alter bytes the change did not touch.
    NoRoundTrip {
        /// The path as sent.
        path: String,
        /// The file's encoding.
        encoding: &'static str,
        /// Offset of the first byte that would change.
        offset: u64,
    },
    /// The new text has characters the file's encoding cannot represent.
    Unmappable {
        /// The path as sent.
        path: String,
        /// The file's encoding.
        encoding: &'static str,
        /// The characters, described (`U+65E5 '日'`).
        chars: String,
        /// 1-based line of the first in the new text.
        line: u64,
    },
    /// The change would leave a file that parsed cleanly with syntax
    /// errors, and the session refuses such changes.
    BrokenSyntax {
        /// The path as sent.
        path: String,
        /// The language's name.
        language: &'static str,
        /// Where and what, `line 41: unexpected '}'; …`.
        errors: String,
    },
    /// `edit` with an `old_string` on a file that does not exist.
    NoFile {
        /// The path as sent.
        path: String,
    },
    /// An empty `old_string` on a file that has content.
    FileNotEmpty {
        /// The path as sent.
        path: String,
        /// Its size.
        size: u64,
    },
    /// `old_string` equals `new_string`.
    SameStrings {
        /// Which edit.
        at: At,
    },
    /// `old_string` was not found.
    NoMatch {
        /// The path as sent.
        path: String,
        /// Which edit.
        at: At,
        /// The closest region, if any is close.
        nearest: Option<Nearest>,
    },
    /// `old_string` matches several places.
    Ambiguous {
        /// The path as sent.
        path: String,
        /// Which edit.
        at: At,
        /// How many places match.
        count: usize,
        /// First line of every match (a line with several is listed once).
        lines: Vec<u64>,
        /// Whether the matches were found only by tolerant matching.
        tolerant: bool,
    },
    /// One edit of a list is already in the file, the others are not.
    PartlyApplied {
        /// The path as sent.
        path: String,
        /// Which edit.
        at: At,
        /// Where its `new_string` is.
        line: u64,
    },
    /// `undo` of a file this session has not changed.
    NothingToUndo {
        /// The path as sent.
        path: String,
    },
    /// The version before the last change was too large to keep.
    UndoNotKept {
        /// The path as sent.
        path: String,
        /// Its size.
        size: u64,
    },
    /// The last change of `path` was made together with changes of other
    /// files, and `later` was changed again since.
    UndoLater {
        /// The path as sent.
        path: String,
        /// The file changed since.
        later: String,
    },
}

impl Refusal {
    /// Why the file at `path` cannot be changed as text.
    pub fn not_text(path: &str, err: NotText) -> Self {
        let path = path.to_owned();
        match err {
            NotText::Invalid { encoding, offset } => Refusal::NotText {
                path,
                encoding: encoding.name(),
                offset,
            },
            NotText::Unsure(found) => Refusal::EncodingUnsure {
                path,
                guess: found.encoding.name(),
                plausible: found.plausible.iter().map(|e| e.name()).collect(),
            },
            NotText::NoRoundTrip { encoding, offset } => Refusal::NoRoundTrip {
                path,
                encoding: encoding.name(),
                offset,
            },
        }
    }

    /// The new text of the file at `path` has characters its encoding
    /// cannot represent.
    pub fn unmappable(path: &str, err: &Unmappable) -> Self {
        Refusal::Unmappable {
            path: path.to_owned(),
            encoding: err.encoding,
            chars: describe_chars(&err.chars),
            line: err.line,
        }
    }

    /// `expect` named `expected` for `path`, where there is no file.
    pub fn absent(path: &str, tool: Tool, expected: Version) -> Self {
        Refusal::Unexpected {
            path: path.to_owned(),
            tool,
            expected,
            now: None,
        }
    }

    /// A stable machine-readable name for metadata.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::NotRead { .. } => "not_read",
            Refusal::Conflict { .. }
            | Refusal::ChangedSinceView {
                why: Unmerged::Expected(_),
                ..
            }
            | Refusal::Unexpected { .. } => "conflict",
            Refusal::Stale { .. } | Refusal::ChangedSinceView { .. } => "stale",
            Refusal::PartialView { .. } => "partial_view",
            Refusal::GutterContent { .. } | Refusal::StubContent { .. } => "display_text",
            Refusal::TooLarge { .. } => "too_large",
            Refusal::NotText { .. } | Refusal::NoRoundTrip { .. } => "not_text",
            Refusal::Binary { .. } => "binary",
            Refusal::EncodingUnsure { .. } => "encoding_unsure",
            Refusal::BrokenSyntax { .. } => "syntax_error",
            Refusal::Unmappable { .. } => "unmappable",
            Refusal::NoFile { .. } => "not_found",
            Refusal::FileNotEmpty { .. } => "file_not_empty",
            Refusal::SameStrings { .. } => "no_change",
            Refusal::NoMatch { .. } => "no_match",
            Refusal::Ambiguous { .. } => "ambiguous",
            Refusal::PartlyApplied { .. } => "partly_applied",
            Refusal::NothingToUndo { .. } => "nothing_to_undo",
            Refusal::UndoNotKept { .. } => "undo_not_kept",
            Refusal::UndoLater { .. } => "undo_later_change_first",
        }
    }

    /// Facts for the metadata beside the error code: the file's version
    /// now and the one expected (SPEC V2).
    pub fn facts(&self) -> Option<Value> {
        match self {
            Refusal::ChangedSinceView { why, version, .. } => {
                let mut facts = json!({"version": version.to_string()});
                if let Unmerged::Expected(expected) = why {
                    facts["expected"] = json!(expected.to_string());
                }
                Some(facts)
            }
            Refusal::Unexpected { expected, now, .. } => {
                let mut facts = json!({"expected": expected.to_string()});
                if let Some(now) = now {
                    facts["version"] = json!(now.to_string());
                }
                Some(facts)
            }
            _ => None,
        }
    }

    /// The read that moves the model forward, as `{"tool", "args"}`.
    pub fn next_call(&self) -> Option<Value> {
        let read = |path: &str| json!({"tool": "read", "args": {"file_path": path}});
        match self {
            Refusal::PartialView { path, next, .. } => {
                Some(json!({"tool": "read", "args": {"file_path": path, "offset": next}}))
            }
            Refusal::NoMatch {
                path,
                nearest: Some(nearest),
                ..
            } => Some(json!({"tool": "read", "args": {
                "file_path": path,
                "offset": nearest.first,
                "limit": nearest.last + 1 - nearest.first,
            }})),
            Refusal::NotRead { path, .. }
            | Refusal::Stale { path, .. }
            | Refusal::Unexpected {
                path, now: Some(_), ..
            }
            | Refusal::Conflict { path, .. }
            | Refusal::NoMatch { path, .. } => Some(read(path)),
            _ => None,
        }
    }
}

/// The refusal of a change to `path`, which changed since the model's view:
/// why, then the diff, then the way forward.
fn changed_since_view(
    f: &mut fmt::Formatter<'_>,
    path: &str,
    tool: &str,
    why: Unmerged,
    diff: &str,
    version: Version,
) -> fmt::Result {
    match why {
        Unmerged::NotMerged => write!(
            f,
            "Error: {path} changed since your view; nothing was written."
        )?,
        Unmerged::Overlap => write!(
            f,
            "Error: your {tool} touches lines of {path} changed since your view (or next to them); nothing was written."
        )?,
        Unmerged::Unmatched => write!(
            f,
            "Error: {path} changed since your view, and your {tool}'s text no longer matches one place; nothing was written."
        )?,
        Unmerged::Whole => write!(
            f,
            "Error: {path} changed since your view; write replaces the whole file and does not merge; nothing was written."
        )?,
        Unmerged::Expected(expected) => write!(
            f,
            "Error: {path} is at version {version}, not {expected}; nothing was written."
        )?,
    }
    write!(
        f,
        " Lines changed, as they are now (version {version}):\n{diff}\n"
    )?;
    match why {
        Unmerged::Whole => f.write_str("Write it again with them in, or use edit."),
        _ => write!(f, "Redo the {tool} against them."),
    }
}

/// `text` quoted for an error, cut to [`MAX_QUOTED_CHARS`] with its length.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((at, _)) => format!("{:?}… ({} chars)", &text[..at], text.chars().count()),
        None => format!("{text:?}"),
    }
}

impl fmt::Display for Refusal {
    #[expect(
        clippy::too_many_lines,
        reason = "one arm per message, reviewed together"
    )]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotRead { path, tool } => match tool {
                Tool::Edit => write!(
                    f,
                    "Error: you have not read {path}; read it (any part) first, then edit."
                ),
                _ => write!(
                    f,
                    "Error: {path} exists and you have not read it; read it first, so nothing you have not seen is overwritten."
                ),
            },
            Refusal::Stale { path, tool, change } => match tool {
                Tool::Undo if *change == Change::Deleted => write!(
                    f,
                    "Error: {path} was deleted after your last change to it; undo does not bring it back. Write it again if it is still needed."
                ),
                Tool::Undo => write!(
                    f,
                    "Error: {path} changed on disk after your last change to it ({change}); undo would throw that away, so nothing was written. Read it and edit it instead."
                ),
                _ => write!(
                    f,
                    "Error: {path} changed on disk since you read it ({change}); nothing was written. Read it again, then redo the {}.",
                    tool.name()
                ),
            },
            Refusal::ChangedSinceView {
                path,
                tool,
                why,
                diff,
                version,
            } => changed_since_view(f, path, tool.name(), *why, diff, *version),
            Refusal::Unexpected {
                path,
                tool,
                expected,
                now,
            } => {
                let tool = tool.name();
                match now {
                    Some(now) => write!(
                        f,
                        "Error: {path} is at version {now}, not {expected}; nothing was written. Read it to see what changed, then redo the {tool}."
                    ),
                    None => write!(
                        f,
                        "Error: {path} does not exist, so it is not at version {expected}; nothing was written. Check the path; to create the file, send the {tool} without expect."
                    ),
                }
            }
            Refusal::PartialView {
                path,
                seen,
                total,
                next,
            } => {
                let lines = if seen.lines() == 1 { "line" } else { "lines" };
                if seen.lines() == 0 {
                    // A read that showed lines without their numbers (a
                    // tail read from the end of the file).
                    write!(f, "Error: you have seen part of {path} but not which lines")?;
                } else {
                    write!(f, "Error: you have seen {lines} {seen} of {path}")?;
                    match total {
                        Some(total) => write!(f, " ({total} lines)")?,
                        None => f.write_str(" (its end has not been shown)")?,
                    }
                }
                write!(
                    f,
                    ", not all of it; replacing it would drop lines you have not seen. Read the rest first (continue with offset={next}), or change parts of it with edit."
                )
            }
            Refusal::Conflict { path, tool } => write!(
                f,
                "Error: {path} changed on disk while the {} was being saved; nothing was written. Read it again, then redo the {}.",
                tool.name(),
                tool.name()
            ),
            Refusal::GutterContent { path } => write!(
                f,
                "Error: every line of the content for {path} starts with a line number and a tab, as read displays them; those numbers are not part of the file. Send the text without them (if they really are its content, make the change with edit, which does not check this)."
            ),
            Refusal::StubContent { path } => write!(
                f,
                "Error: the content for {path} is read's \"unchanged\" notice, not file text; send the real content."
            ),
            Refusal::TooLarge { path, size, max } => write!(
                f,
                "Error: {path} is {}, over the {} an edit may load; to change it, replace it whole with write.",
                Size(*size),
                Size(*max)
            ),
            Refusal::NotText {
                path,
                encoding,
                offset,
            } => {
                write!(f, "Error: {path} is not valid {encoding}")?;
                if let Some(offset) = offset {
                    write!(f, " (first bad byte at offset {offset})")?;
                }
                f.write_str("; an edit would alter bytes that read shows as U+FFFD. Replace it whole with write if that is intended.")?;
                if *encoding == "UTF-8" {
                    f.write_str(
                        " If it is in another encoding, read and edit it with encoding=\"…\".",
                    )?;
                }
                Ok(())
            }
            Refusal::Binary { path, mime } => {
                let (what, shown) = if mime.starts_with("image/") {
                    ("an image", "It is shown as a picture, never as its bytes")
                } else if *mime == "application/pdf" {
                    (
                        "a PDF document",
                        "It is shown as its pages' text, never as its bytes",
                    )
                } else {
                    (
                        "a binary file",
                        "A read describes it without showing its bytes, so it never counts as read",
                    )
                };
                write!(
                    f,
                    "Error: {path} is {what} ({mime}), not text; nothing was written. {shown}, and no encoding makes it text: these tools do not change it. Put the text in a new file instead."
                )
            }
            Refusal::EncodingUnsure {
                path,
                guess,
                plausible,
            } => {
                write!(
                    f,
                    "Error: {path} is not UTF-8 and its encoding is a guess: {guess}"
                )?;
                if !plausible.is_empty() {
                    write!(f, ", or else {}", plausible.join(", "))?;
                }
                write!(
                    f,
                    ". Read it with encoding=\"{guess}\" (or another) to check the text, then change it with the same encoding argument; the file keeps that encoding."
                )
            }
            Refusal::NoRoundTrip {
                path,
                encoding,
                offset,
            } => write!(
                f,
                "Error: {path}'s {encoding} bytes at offset {offset} have a second form that would not be written back the same, so an edit would alter bytes it did not touch. Replace it whole with write if that is intended."
            ),
            Refusal::Unmappable {
                path,
                encoding,
                chars,
                line,
            } => write!(
                f,
                "Error: {path} is in {encoding}, which cannot represent {chars} (first on line {line}); nothing was written. Use other characters, or convert the file by writing it whole with encoding=\"utf-8\"."
            ),
            Refusal::BrokenSyntax {
                path,
                language,
                errors,
            } => write!(
                f,
                "Error: {path} parses cleanly as {language}, and this change would break it: {errors}; nothing was written. Check the new text against the lines around it and try again."
            ),
            Refusal::NoFile { path } => write!(
                f,
                "Error: {path} does not exist; to create it, use write, or edit with an empty old_string."
            ),
            Refusal::FileNotEmpty { path, size } => write!(
                f,
                "Error: old_string is empty but {path} already has content ({}); give the text to replace, or use write to replace the whole file.",
                Size(*size)
            ),
            Refusal::SameStrings { at } => write!(
                f,
                "Error: {at}old_string and new_string are identical, so the edit would change nothing; send the new text as new_string."
            ),
            Refusal::NoMatch { path, at, nearest } => {
                write!(f, "Error: {at}old_string was not found in {path}")?;
                match nearest {
                    Some(n) => write!(
                        f,
                        ". Nearest: line{} {}, where line {} differs ({}): the file has {}, old_string has {}. Copy the exact text from read offset={}, limit={}.",
                        if n.first == n.last { "" } else { "s" },
                        if n.first == n.last {
                            n.first.to_string()
                        } else {
                            format!("{}-{}", n.first, n.last)
                        },
                        n.line,
                        n.why.describe(),
                        quoted(&n.file_text),
                        quoted(&n.old_text),
                        n.first,
                        n.last + 1 - n.first
                    )?,
                    None => f.write_str(
                        ", not even ignoring whitespace and quote style. Read the file and copy the exact text.",
                    )?,
                }
                if at.count > 1 {
                    f.write_str(" No edit was applied.")?;
                }
                Ok(())
            }
            Refusal::Ambiguous {
                path,
                at,
                count,
                lines,
                tolerant,
            } => {
                let mut lines = lines.clone();
                lines.dedup();
                let mut listed: Vec<String> = lines
                    .iter()
                    .take(MAX_LISTED_LINES)
                    .map(ToString::to_string)
                    .collect();
                if lines.len() > MAX_LISTED_LINES {
                    listed.push("…".to_owned());
                }
                let listed = listed.join(", ");
                if *tolerant {
                    write!(
                        f,
                        "Error: {at}old_string is not in {path} exactly, and ignoring whitespace and typography it matches {count} places (lines {listed}); copy the exact text of the one you mean, with a line or two around it."
                    )?;
                } else {
                    write!(
                        f,
                        "Error: {at}old_string occurs {count} times in {path} (lines {listed}); add surrounding lines so it matches one place, or set replace_all to change all {count}."
                    )?;
                }
                if at.count > 1 {
                    f.write_str(" No edit was applied.")?;
                }
                Ok(())
            }
            Refusal::PartlyApplied { path, at, line } => write!(
                f,
                "Error: {at}already applied (its new_string is at line {line} of {path}) but other edits are not; nothing was written. Send the edits again without it."
            ),
            Refusal::NothingToUndo { path } => write!(
                f,
                "Error: this session has not changed {path} (or its changes are already undone), so there is nothing to undo."
            ),
            Refusal::UndoNotKept { path, size } => write!(
                f,
                "Error: the version of {path} before the last change ({}) was too large to keep, so it cannot be restored; change the file back with edit or write.",
                Size(*size)
            ),
            Refusal::UndoLater { path, later } => write!(
                f,
                "Error: the last change of {path} was made together with changes of other files, and {later} was changed again since; nothing was undone. Undo {later} first, then undo {path}."
            ),
        }
    }
}
