//! Why a patch was not applied ([`PatchError`]), or could not be read
//! ([`ParseError`]): each names the file and hunk, and how to fix the
//! patch. Nothing changed on disk when one is given.

use std::fmt;

use crate::answers::error::ToolError;
use crate::answers::quote::quoted;

/// Why a patch was not applied; nothing was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchError {
    /// The patch text is malformed.
    Parse(ParseError),
    /// An added file already exists.
    Exists {
        /// The file.
        path: String,
    },
    /// A moved file's destination already exists: a move never replaces a
    /// file.
    MoveOnto {
        /// The file moved.
        path: String,
        /// Where it was to go.
        to: String,
    },
    /// An updated or deleted file does not exist.
    Missing {
        /// The file.
        path: String,
        /// It was to be deleted: nothing to create.
        deleting: bool,
    },
    /// Two operations of the patch name the same file.
    Twice {
        /// The file.
        path: String,
    },
    /// A hunk's lines (or its `@@` line) are not in the file.
    NotFound {
        /// The file.
        path: String,
        /// 1-based hunk number in the file's section.
        hunk: usize,
        /// The first line sought.
        first: String,
        /// The 1-based line the search started at.
        after: usize,
        /// It was the `@@` line that was missing.
        anchor: bool,
        /// How far the hunk's lines did match: its first `n` lines at the
        /// 1-based line given, the next one not following.
        matched: Option<(usize, usize)>,
    },
    /// Two hunks of one file would change the same lines.
    Overlap {
        /// The file.
        path: String,
    },
    /// A hunk's lines match several places.
    Ambiguous {
        /// The file.
        path: String,
        /// 1-based hunk number.
        hunk: usize,
        /// 1-based lines where they match.
        lines: Vec<usize>,
        /// It was the `@@` line that matched several.
        anchor: bool,
    },
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Error: the patch was not applied and no file changed: ")?;
        match self {
            PatchError::Parse(err) => write!(f, "{err}."),
            PatchError::Exists { path } => write!(
                f,
                "{path} already exists. Change it with \"*** Update File: {path}\" instead of adding it."
            ),
            PatchError::MoveOnto { path, to } => write!(
                f,
                "{path} cannot be moved to {to}, which already exists; a move never replaces a file. Move it to a path that does not exist."
            ),
            PatchError::Missing {
                path,
                deleting: true,
            } => write!(
                f,
                "{path} does not exist, so there is nothing to delete. Drop its \"*** Delete File\" section, or check the path."
            ),
            PatchError::Missing {
                path,
                deleting: false,
            } => write!(
                f,
                "{path} does not exist. Create it with \"*** Add File: {path}\"."
            ),
            PatchError::Twice { path } => write!(
                f,
                "{path} is named by two operations; put all changes of one file in one section."
            ),
            PatchError::NotFound {
                path,
                hunk,
                first,
                after,
                anchor,
                matched,
            } => {
                let ahead = format!("Read {path} again and build the patch from its current text.");
                match (anchor, matched) {
                    (true, _) => write!(
                        f,
                        "hunk {hunk} of {path}: its @@ line was not found from line {after} on (sought: {}). {ahead}",
                        quoted(first)
                    ),
                    (false, Some((n, at))) => write!(
                        f,
                        "hunk {hunk} of {path}: its lines were not found from line {after} on: its first {n} match at line {at}, but its line {}, {}, does not follow there. {ahead}",
                        n + 1,
                        quoted(first)
                    ),
                    (false, None) => write!(
                        f,
                        "hunk {hunk} of {path}: its lines were not found from line {after} on (its first line, {}, is not there). {ahead}",
                        quoted(first)
                    ),
                }
            }
            PatchError::Overlap { path } => write!(
                f,
                "two hunks of {path} change the same lines; merge them into one hunk."
            ),
            PatchError::Ambiguous {
                path,
                hunk,
                lines,
                anchor,
            } => {
                let listed: Vec<String> = lines.iter().map(ToString::to_string).collect();
                let what = if *anchor {
                    "its @@ line matches"
                } else {
                    "its lines match"
                };
                write!(
                    f,
                    "hunk {hunk} of {path}: {what} {} places (lines {}). Add context lines, or an @@ line naming the enclosing class or function, so it matches one place.",
                    lines.len(),
                    listed.join(", ")
                )
            }
        }
    }
}

/// Why a patch cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The first line is not `*** Begin Patch`.
    NoBegin,
    /// The last line is not `*** End Patch`.
    NoEnd,
    /// No file operations between the markers.
    Empty,
    /// A line that fits nowhere: its 1-based number, the line, and what
    /// was expected there.
    Unexpected {
        /// Line number in the patch.
        line: usize,
        /// The line.
        text: String,
        /// What may stand there.
        expected: &'static str,
    },
    /// An update with no hunk lines.
    EmptyUpdate {
        /// The file.
        path: String,
    },
    /// A file header without a path.
    NoPath {
        /// Line number in the patch.
        line: usize,
    },
    /// A hunk of `@@` lines (or an `*** End of File`) and nothing else.
    NoLines {
        /// Line number in the patch where the hunk starts.
        line: usize,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::NoBegin => f.write_str("the patch must start with the line \"*** Begin Patch\""),
            ParseError::NoEnd => f.write_str("the patch must end with the line \"*** End Patch\""),
            ParseError::Empty => f.write_str("the patch holds no file operation (\"*** Add File: \", \"*** Delete File: \" or \"*** Update File: \")"),
            ParseError::Unexpected { line, text, expected } => {
                write!(f, "line {line} of the patch, {}, is not {expected}", quoted(text))
            }
            ParseError::EmptyUpdate { path } => write!(
                f,
                "the update of {path} has no lines; give at least one hunk of context (' '), removed ('-') and added ('+') lines"
            ),
            ParseError::NoPath { line } => write!(f, "line {line} of the patch names no file"),
            ParseError::NoLines { line } => write!(
                f,
                "the hunk at line {line} of the patch has no lines; after its @@ line give the context (' '), removed ('-') and added ('+') lines"
            ),
        }
    }
}

impl From<PatchError> for ToolError {
    fn from(err: PatchError) -> Self {
        ToolError::Patch(err)
    }
}

impl From<ParseError> for ToolError {
    fn from(err: ParseError) -> Self {
        ToolError::Patch(PatchError::Parse(err))
    }
}
