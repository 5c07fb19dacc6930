//! Every sentence the model reads after a successful `write`, `edit` or
//! `undo`, rendered from typed outcomes in one place (SPEC W6, E8, E10; STYLE
//! 8): what happened, the size in lines and bytes, and where the change is.
//!
//! ```
//! use filetools_core::answers::report::Report;
//! let report = Report::Created { path: "a.txt".into(), lines: 3, bytes: 17, encoding: None };
//! assert_eq!(report.to_string(), "Created a.txt: 3 lines, 17 bytes.");
//! ```

use std::fmt;

use crate::answers::notice::Size;
use crate::answers::quote::quoted;
use crate::text::diff::LineChange;

/// What a write kept of the old file's identity (SPEC W3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kept {
    /// CRLF line endings were applied to the new content.
    pub crlf: bool,
    /// The BOM was kept.
    pub bom: bool,
    /// The file was encoded back to this non-UTF-8 encoding.
    pub encoding: Option<&'static str>,
    /// The file was converted, as asked, from the first encoding to the
    /// second.
    pub converted: Option<(&'static str, &'static str)>,
}

impl fmt::Display for Kept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(encoding) = self.encoding {
            parts.push(encoding);
        }
        if self.crlf {
            parts.push("CRLF line endings");
        }
        if self.bom && self.encoding.is_none() {
            parts.push("BOM");
        }
        if !parts.is_empty() {
            write!(f, " Kept its {}.", parts.join(" and "))?;
        }
        if let Some((from, to)) = self.converted {
            write!(f, " Converted from {from} to {to}.")?;
        }
        Ok(())
    }
}

/// How an edit found its text, when not exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tolerance {
    /// Straight and curly quotes matched each other; the file's style was
    /// carried into the new text.
    Quotes,
    /// Read's line-number gutter was removed from the strings.
    Gutter,
    /// Typographic characters or Unicode normalisation differed.
    Typography,
    /// Trailing whitespace differed.
    TrailingSpace,
    /// Indentation differed; the new text was re-indented.
    Indentation,
    /// The indentation unit differed (tabs against spaces, 2 against 4),
    /// consistently; the new text was re-indented into the file's unit.
    IndentUnit {
        /// `old_string`'s unit.
        sent: IndentUnit,
        /// The file's unit.
        file: IndentUnit,
    },
}

/// One level of indentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum IndentUnit {
    /// A tab.
    Tab,
    /// This many spaces.
    Spaces(usize),
}

impl fmt::Display for IndentUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndentUnit::Tab => f.write_str("tabs"),
            IndentUnit::Spaces(width) => write!(f, "{width} spaces"),
        }
    }
}

impl Tolerance {
    fn describe(self) -> String {
        let fixed = match self {
            Tolerance::Quotes => "with the file's quote style, which new_string now uses",
            Tolerance::Gutter => "after removing line numbers copied from read output",
            Tolerance::Typography => "ignoring dash, space and Unicode form differences",
            Tolerance::TrailingSpace => "ignoring trailing whitespace",
            Tolerance::Indentation => "at the file's indentation, new_string re-indented to it",
            Tolerance::IndentUnit { sent, file } => {
                return format!(
                    "with the file's indentation unit ({file}) in place of old_string's ({sent}), new_string re-indented into it"
                );
            }
        };
        fixed.to_owned()
    }
}

/// What an edit by symbol did to its entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolChange {
    /// Its lines were replaced.
    Replaced,
    /// Its lines were removed.
    Deleted,
    /// New lines went before it.
    Before,
    /// New lines went after it.
    After,
}

/// A successful change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// A new file.
    Created {
        /// The path as sent.
        path: String,
        /// Lines written.
        lines: u64,
        /// Bytes written.
        bytes: u64,
        /// The encoding, when it is not UTF-8.
        encoding: Option<&'static str>,
    },
    /// An existing file replaced by `write`.
    Updated {
        /// The path as sent.
        path: String,
        /// Lines now.
        lines: u64,
        /// Bytes now.
        bytes: u64,
        /// Lines before.
        was_lines: u64,
        /// The changed region, when the old text was compared.
        change: Option<LineChange>,
        /// Style kept.
        kept: Kept,
    },
    /// `write` of the content the file already has.
    Unchanged {
        /// The path as sent.
        path: String,
    },
    /// An edit applied.
    Edited {
        /// The path as sent.
        path: String,
        /// Replacements made.
        replacements: usize,
        /// Lines now.
        lines: u64,
        /// How the text was found, when not exactly.
        tolerance: Vec<Tolerance>,
        /// The changed regions with line numbers.
        snippet: String,
    },
    /// An outline entry edited by its name.
    SymbolEdited {
        /// The path as sent.
        path: String,
        /// The entry's qualified name.
        name: String,
        /// What was done to it.
        how: SymbolChange,
        /// The entry's lines before: first and last.
        was: (u64, u64),
        /// The lines the new text holds now: first and count (none for a
        /// deletion).
        now: Option<(u64, u64)>,
        /// Lines now.
        lines: u64,
        /// The changed region with line numbers.
        snippet: String,
    },
    /// The entry already reads as the text an edit by symbol gives.
    SymbolUnchanged {
        /// The path as sent.
        path: String,
        /// The entry's qualified name.
        name: String,
        /// Its lines: first and last.
        at: (u64, u64),
    },
    /// The very edit by symbol this session made, sent again.
    SymbolRepeated {
        /// The path as sent.
        path: String,
        /// The name as sent.
        name: String,
        /// Where its text went.
        line: u64,
    },
    /// Every edit's `new_string` is already where its `old_string` would be.
    AlreadyApplied {
        /// The path as sent.
        path: String,
        /// Where the (first) new text is.
        line: u64,
    },
    /// `undo` restored the version before the last change.
    Restored {
        /// The path as sent.
        path: String,
        /// Lines now.
        lines: u64,
        /// Bytes now.
        bytes: u64,
        /// Changes that can still be undone.
        remaining: usize,
    },
    /// `undo` of a creation removed the file.
    Removed {
        /// The path as sent.
        path: String,
        /// Changes that can still be undone.
        remaining: usize,
    },
    /// `undo` of a change made together over several files (a patch, a
    /// move), or of a removal, took all of it back.
    UndidTogether {
        /// Each file, root-relative, with what undo did to it.
        files: Vec<(String, Undone)>,
    },
    /// `undo` of a move whose content the history did not keep (a
    /// directory, a file over the edit limit) moved it back.
    MovedBack {
        /// Where it stood, as the model named it.
        path: String,
        /// Where it is again, spelled as `path` is.
        from: String,
        /// Whether it is a directory.
        directory: bool,
    },
}

/// What undo did to one file of a change made together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undone {
    /// Its earlier content is back.
    Restored,
    /// It was created by the change and is gone again.
    Removed,
    /// It was removed (or moved away) by the change and is back.
    PutBack,
}

fn lines_word(n: u64) -> &'static str {
    if n == 1 { "line" } else { "lines" }
}

fn range(first: u64, count: u64) -> String {
    if count == 1 {
        format!("line {first}")
    } else {
        format!("lines {first}-{}", first + count - 1)
    }
}

fn remaining(f: &mut fmt::Formatter<'_>, n: usize) -> fmt::Result {
    match n {
        0 => Ok(()),
        1 => f.write_str(" 1 earlier change can still be undone."),
        n => write!(f, " {n} earlier changes can still be undone."),
    }
}

impl fmt::Display for Report {
    #[expect(
        clippy::too_many_lines,
        reason = "one arm per report, reviewed together"
    )]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Report::Created {
                path,
                lines,
                bytes,
                encoding,
            } => {
                write!(
                    f,
                    "Created {path}: {lines} {}, {}",
                    lines_word(*lines),
                    Size(*bytes)
                )?;
                match encoding {
                    Some(encoding) => write!(f, ", in {encoding}."),
                    None => f.write_str("."),
                }
            }
            Report::Updated {
                path,
                lines,
                bytes,
                was_lines,
                change,
                kept,
            } => {
                write!(
                    f,
                    "Updated {path}: {lines} {}, {} (was {was_lines} {}).",
                    lines_word(*lines),
                    Size(*bytes),
                    lines_word(*was_lines)
                )?;
                match change {
                    Some(c)
                        if c.first == 1 && c.old_lines == *was_lines && c.new_lines == *lines =>
                    {
                        f.write_str(" Every line changed.")?;
                    }
                    Some(c) if c.old_lines == 0 => {
                        write!(f, " Inserted {}.", range(c.first, c.new_lines))?;
                    }
                    Some(c) if c.new_lines == 0 => write!(
                        f,
                        " Removed old {}; the rest is unchanged.",
                        range(c.first, c.old_lines)
                    )?,
                    Some(c) => write!(
                        f,
                        " Changed {} (were {}); the rest is unchanged.",
                        range(c.first, c.new_lines),
                        range(c.first, c.old_lines)
                    )?,
                    None => {}
                }
                kept.fmt(f)
            }
            Report::Unchanged { path } => write!(
                f,
                "{path} already has exactly this content; nothing was written."
            ),
            Report::Edited {
                path,
                replacements,
                lines,
                tolerance,
                snippet,
            } => {
                let noun = if *replacements == 1 {
                    "replacement"
                } else {
                    "replacements"
                };
                write!(
                    f,
                    "Edited {path}: {replacements} {noun}; the file has {lines} {}.",
                    lines_word(*lines)
                )?;
                if !tolerance.is_empty() {
                    let how: Vec<String> = tolerance.iter().map(|t| t.describe()).collect();
                    write!(f, " Matched {}.", how.join("; "))?;
                }
                write!(f, "\n{snippet}")
            }
            Report::SymbolEdited {
                path,
                name,
                how,
                was: (first, last),
                now,
                lines,
                snippet,
            } => {
                let name = quoted(name);
                let was = range(*first, last - first + 1);
                let now = now.map_or_else(String::new, |(at, count)| range(at, count));
                match how {
                    SymbolChange::Replaced => {
                        write!(f, "Replaced {name} in {path} ({was}, now {now})")?;
                    }
                    SymbolChange::Deleted => write!(f, "Deleted {name} from {path} ({was})")?,
                    SymbolChange::Before => write!(f, "Inserted {now} before {name} in {path}")?,
                    SymbolChange::After => write!(f, "Inserted {now} after {name} in {path}")?,
                }
                write!(
                    f,
                    "; the file has {lines} {}.\n{snippet}",
                    lines_word(*lines)
                )
            }
            Report::SymbolUnchanged {
                path,
                name,
                at: (first, last),
            } => write!(
                f,
                "Already applied: {} in {path} ({}) already reads exactly new_string; nothing was written.",
                quoted(name),
                range(*first, last - first + 1)
            ),
            Report::SymbolRepeated { path, name, line } => write!(
                f,
                "Already applied: this edit of {} was made to {path} before (at line {line}); nothing was written.",
                quoted(name)
            ),
            Report::AlreadyApplied { path, line } => write!(
                f,
                "Already applied: {path} has new_string at line {line} and no old_string; nothing was written."
            ),
            Report::Restored {
                path,
                lines,
                bytes,
                remaining: left,
            } => {
                write!(
                    f,
                    "Undid the last change to {path}: restored the version before it ({lines} {}, {}).",
                    lines_word(*lines),
                    Size(*bytes)
                )?;
                remaining(f, *left)
            }
            Report::Removed {
                path,
                remaining: left,
            } => {
                write!(f, "Undid the creation of {path}: the file was removed.")?;
                remaining(f, *left)
            }
            Report::MovedBack {
                path,
                from,
                directory,
            } => {
                let what = if *directory { "directory" } else { "file" };
                write!(
                    f,
                    "Undid the move of {from} to {path}: the {what} is back at {from}."
                )
            }
            Report::UndidTogether { files } => {
                let said: Vec<String> = files
                    .iter()
                    .map(|(path, undone)| match undone {
                        Undone::Restored => format!("restored {path}"),
                        Undone::Removed => format!("removed {path}"),
                        Undone::PutBack => format!("put back {path}"),
                    })
                    .collect();
                if files.len() == 1 {
                    write!(f, "Undid the last change: {}.", said.join(", "))
                } else {
                    write!(
                        f,
                        "Undid the change of {} files made together: {}.",
                        files.len(),
                        said.join(", ")
                    )
                }
            }
        }
    }
}
