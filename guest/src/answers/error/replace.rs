//! Why a `replace` that was to change files changed none
//! ([`ReplaceError`]): files moved since the dry run, the count or an
//! occurrence number no longer fits, nothing matched, or too many files did.

use std::fmt;

use crate::answers::quote::quoted;

/// Why a `replace` wrote nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplaceError {
    /// Files changed since the session saw them (the dry run), or were not
    /// among what it saw.
    Moved {
        /// Their paths, root-relative.
        paths: Vec<String>,
    },
    /// `expected_count` is not the number the change would replace.
    Count {
        /// What the call expected.
        expected: u64,
        /// What it would replace.
        found: u64,
    },
    /// An occurrence number the pattern no longer has.
    NoSuchOccurrence {
        /// The number given.
        number: u64,
        /// The occurrences now.
        total: u64,
    },
    /// Nothing to replace.
    Nothing {
        /// The pattern as given.
        pattern: String,
        /// Files searched.
        searched: u64,
    },
    /// More files hold the pattern than one change takes.
    TooManyFiles {
        /// At most this many.
        max: usize,
    },
}

impl ReplaceError {
    /// The machine-readable name of the failure.
    pub fn code(&self) -> &'static str {
        match self {
            ReplaceError::Moved { .. } => "stale",
            ReplaceError::Count { .. } | ReplaceError::NoSuchOccurrence { .. } => "count_mismatch",
            ReplaceError::Nothing { .. } => "no_match",
            ReplaceError::TooManyFiles { .. } => "too_many_files",
        }
    }
}

impl fmt::Display for ReplaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const AGAIN: &str = "Run the dry run again (without apply) and check its occurrences.";
        match self {
            ReplaceError::Moved { paths } => {
                let (noun, was) = if paths.len() == 1 {
                    ("file", "was")
                } else {
                    ("files", "were")
                };
                write!(
                    f,
                    "Error: {} {noun} changed since the dry run, or {was} not in it: {}; nothing was written. {AGAIN}",
                    paths.len(),
                    paths.join(", ")
                )
            }
            ReplaceError::Count { expected, found } => write!(
                f,
                "Error: expected_count is {expected}, but {found} {} would be replaced; nothing was written. {AGAIN}",
                if *found == 1 {
                    "occurrence"
                } else {
                    "occurrences"
                }
            ),
            ReplaceError::NoSuchOccurrence { number, total } => write!(
                f,
                "Error: there is no occurrence {number}: the pattern has {total} now; nothing was written. {AGAIN}"
            ),
            ReplaceError::Nothing { pattern, searched } => write!(
                f,
                "Error: no occurrence of {} in the {searched} {} searched; nothing was written.",
                quoted(pattern),
                if *searched == 1 { "file" } else { "files" }
            ),
            ReplaceError::TooManyFiles { max } => write!(
                f,
                "Error: the pattern is in more than {max} files, more than one change takes; nothing was written. Narrow it with path or glob."
            ),
        }
    }
}
