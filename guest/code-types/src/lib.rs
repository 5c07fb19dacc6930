//! The contract of the `code` interface, in Rust: what the tools and the
//! grammars say to each other across it. The tools ask for an outline or a
//! syntax check of a text in a [`Grammar`]; the grammars answer with
//! [`OutlineEntry`]s or [`SyntaxError`]s, or say why they [`Stopped`]. Each
//! type is the Rust form of a type of the WIT interface `code-types`, and
//! both sides use this one definition: natively the tools link the grammars'
//! crate and pass these values directly; in the components each side's glue
//! converts them to and from the generated bindings and nothing else.
//!
//! The parse limits are part of the contract too: the grammars stop a parse
//! at them, and the tools name them in their answers.
//!
//! ```
//! use filetools_code_types::{Grammar, Stopped};
//! assert_eq!(Grammar::named("tsx"), Some(Grammar::Tsx));
//! assert_eq!(Stopped::Time.to_string(), "its parse was stopped after 3 s");
//! ```
#![deny(missing_docs)]

use std::fmt;
use std::time::Duration;

/// Time one parse may take. tree-sitter recovers from errors by keeping
/// many parse stacks alive; on megabytes of garbage that takes minutes,
/// while 4 MB of real code parses in about a third of a second.
pub const MAX_PARSE_TIME: Duration = Duration::from_secs(3);

/// Bytes tree-sitter may hold during one parse.
pub const MAX_PARSE_BYTES: usize = 96 * 1024 * 1024;

/// Deepest nesting an outline follows; deeper entries are left out, so a
/// pathological file cannot exhaust the stack.
pub const MAX_NESTING: usize = 48;

/// A language whose grammar the grammars' component may hold (WIT enum
/// `grammar`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    /// Rust.
    Rust,
    /// Python.
    Python,
    /// JavaScript (and JSX).
    JavaScript,
    /// TypeScript.
    TypeScript,
    /// TypeScript with JSX.
    Tsx,
    /// Go.
    Go,
    /// Java.
    Java,
    /// C.
    C,
    /// C++.
    Cpp,
}

impl Grammar {
    /// Every grammar, in the order of the WIT enum.
    pub const ALL: [Self; 9] = [
        Self::Rust,
        Self::Python,
        Self::JavaScript,
        Self::TypeScript,
        Self::Tsx,
        Self::Go,
        Self::Java,
        Self::C,
        Self::Cpp,
    ];

    /// Its name, as the WIT enum's case: `rust`, `python`, `javascript`,
    /// `typescript`, `tsx`, `go`, `java`, `c` or `cpp`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rust => "rust",
            Self::Python => "python",
            Self::JavaScript => "javascript",
            Self::TypeScript => "typescript",
            Self::Tsx => "tsx",
            Self::Go => "go",
            Self::Java => "java",
            Self::C => "c",
            Self::Cpp => "cpp",
        }
    }

    /// The grammar named `name`.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|grammar| grammar.name() == name)
    }
}

/// One entry of an outline, in file order, members after their owner
/// (WIT record `outline-entry`): `depth` 0 is the top level, and an entry
/// of depth `d + 1` belongs to the nearest entry of depth `d` before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutlineEntry {
    /// What it is, in the language's own word (`fn`, `class`, `def`).
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Visibility where the language has it (`pub`, `export`).
    pub visibility: Option<String>,
    /// First line, 1-based.
    pub start: u64,
    /// Last line, 1-based.
    pub end: u64,
    /// Levels of nesting above it.
    pub depth: u32,
}

/// One place where a text does not parse (WIT record `syntax-error`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line.
    pub line: u64,
    /// What is wrong there, e.g. `unexpected '}'`.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Why a parse was stopped (WIT enum `stopped`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// It took longer than [`MAX_PARSE_TIME`].
    Time,
    /// It held more than [`MAX_PARSE_BYTES`].
    Memory,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stopped::Time => write!(
                f,
                "its parse was stopped after {} s",
                MAX_PARSE_TIME.as_secs()
            ),
            Stopped::Memory => write!(
                f,
                "its parse was stopped at {} MiB of memory",
                MAX_PARSE_BYTES >> 20
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grammar_is_found_by_its_name_and_no_other() {
        for grammar in Grammar::ALL {
            assert_eq!(Grammar::named(grammar.name()), Some(grammar));
        }
        assert_eq!(Grammar::named("markdown"), None);
        assert_eq!(Grammar::named("Rust"), None);
    }

    #[test]
    fn a_stopped_parse_names_its_limit() {
        assert_eq!(
            Stopped::Memory.to_string(),
            "its parse was stopped at 96 MiB of memory"
        );
    }
}
