//! What a change's answer says of the file's syntax (SPEC E11): where a file
//! that parsed cleanly before the change now fails to parse, or why it was
//! not checked.
//!
//! ```
//! use filetools_code_types::SyntaxError;
//! use filetools_core::answers::syntax_note::SyntaxNote;
//! let note = SyntaxNote::Broke {
//!     language: "python",
//!     errors: vec![SyntaxError { line: 41, message: "unexpected '}'".into() }],
//! };
//! assert_eq!(
//!     note.to_string(),
//!     "Syntax: this python file parsed cleanly before and now does not: line 41: unexpected '}'. If that is not intended, fix it with another edit, or take the change back with undo."
//! );
//! ```

use std::fmt;

use serde_json::{Value, json};

use crate::answers::notice::Size;
use filetools_code_types::Stopped;
use filetools_code_types::SyntaxError;

/// A syntax fact about a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxNote {
    /// The file parsed before and has these errors after (the first few).
    Broke {
        /// The language's name.
        language: &'static str,
        /// Where and what.
        errors: Vec<SyntaxError>,
    },
    /// The file is larger than the check's limit.
    TooLarge {
        /// The language's name.
        language: &'static str,
        /// The limit in bytes.
        max: u64,
    },
    /// The parse went over its time or memory budget.
    Stopped {
        /// The language's name.
        language: &'static str,
        /// Why.
        why: Stopped,
    },
}

impl SyntaxNote {
    /// The errors as `"line 41: unexpected '}'; line 50: …"`.
    pub fn errors_text(errors: &[SyntaxError]) -> String {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Facts for the result's metadata.
    pub fn metadata(&self) -> Value {
        match self {
            SyntaxNote::Broke { errors, .. } => json!({
                "syntax_errors": errors
                    .iter()
                    .map(|e| json!({"line": e.line, "message": e.message}))
                    .collect::<Vec<_>>(),
            }),
            SyntaxNote::TooLarge { .. } | SyntaxNote::Stopped { .. } => {
                json!({"syntax_checked": false})
            }
        }
    }
}

impl fmt::Display for SyntaxNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxNote::Broke { language, errors } => write!(
                f,
                "Syntax: this {language} file parsed cleanly before and now does not: {}. If that is not intended, fix it with another edit, or take the change back with undo.",
                Self::errors_text(errors)
            ),
            SyntaxNote::TooLarge { language, max } => write!(
                f,
                "Syntax not checked: this {language} file is over {}.",
                Size(*max)
            ),
            SyntaxNote::Stopped { language, why } => {
                write!(f, "Syntax not checked for this {language} file: {why}.")
            }
        }
    }
}
