//! An insertion after a line the file does not have ([`PastTheEnd`]): the
//! answer gives the file's last line, the place an insertion can go.

use std::fmt;

/// The insertion's own refusal: the line is past the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastTheEnd {
    /// The path as sent.
    pub path: String,
    /// The line asked for.
    pub line: u64,
    /// Lines of the file.
    pub total: u64,
}

impl fmt::Display for PastTheEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Error: insert_line {} is past the end of {}, which has {} line{}; use a line from 0 (the start) to {}.",
            self.line,
            self.path,
            self.total,
            if self.total == 1 { "" } else { "s" },
            self.total
        )
    }
}
