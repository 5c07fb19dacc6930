//! The footer of a `read` of several files (SPEC G5): what each file
//! used, in request order, and how to go on with the ones shown in part.
//!
//! ```
//! use filetools_core::answers::batch::{Entry, Shown, Footer};
//! let footer = Footer(vec![
//!     Entry { path: "a.rs".into(), shown: Shown::Whole { tokens: 120 } },
//!     Entry { path: "b.rs".into(), shown: Shown::Part { tokens: 900, next_offset: Some(201) } },
//!     Entry { path: "c.rs".into(), shown: Shown::Unchanged },
//!     Entry { path: "d.rs".into(), shown: Shown::Error("not_found".into()) },
//! ]);
//! assert_eq!(
//!     footer.to_string(),
//!     "[4 files, in the order asked: a.rs whole (120 tokens); b.rs in part (900 tokens; read it with offset=201 to go on); c.rs unchanged since you read it; d.rs not read (not_found)]"
//! );
//! ```

use std::fmt;

/// How much of one file an answer showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// All of it (or all there is to show: a directory, an image).
    Whole {
        /// Tokens it used.
        tokens: u64,
    },
    /// Part of it: a page, an outline.
    Part {
        /// Tokens it used.
        tokens: u64,
        /// The `offset` that continues, when the read gave one.
        next_offset: Option<u64>,
    },
    /// Nothing new: the "unchanged" note.
    Unchanged,
    /// An error, by its code.
    Error(String),
}

/// One file of the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The path as asked.
    pub path: String,
    /// What was shown of it.
    pub shown: Shown,
}

/// The footer: every file, in request order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Footer(pub Vec<Entry>);

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = &self.path;
        match &self.shown {
            Shown::Whole { tokens } => write!(f, "{path} whole ({tokens} tokens)"),
            Shown::Part {
                tokens,
                next_offset: Some(offset),
            } => write!(
                f,
                "{path} in part ({tokens} tokens; read it with offset={offset} to go on)"
            ),
            Shown::Part { tokens, .. } => write!(f, "{path} in part ({tokens} tokens)"),
            Shown::Unchanged => write!(f, "{path} unchanged since you read it"),
            Shown::Error(code) => write!(f, "{path} not read ({code})"),
        }
    }
}

impl fmt::Display for Footer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        write!(
            f,
            "[{} files, in the order asked: {}]",
            self.0.len(),
            entries.join("; ")
        )
    }
}
