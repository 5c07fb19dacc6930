//! The bindings generated from `wit/` (wasm only), and the two imports the
//! layers call as plain functions: the host's SHA-256 and the grammars'
//! parses. They sit below every layer so that the hashing in `fs` and the
//! outlines in `view` reach them downward; the exports, and the host's file
//! system handed to a session as a `HostFs`, are the glue in `component`.
//! The conversions between the grammars' contract ([`filetools_code_types`])
//! and the generated types live here and nowhere else.

use filetools_code_types::{Grammar, OutlineEntry, Stopped, SyntaxError};

/// The generated bindings, kept apart so lints on generated code stay here.
#[expect(
    clippy::same_length_and_capacity,
    clippy::crate_in_macro_def,
    reason = "wit-bindgen's generated list lifting"
)]
pub(crate) mod generated {
    wit_bindgen::generate!({
        path: "wit",
        world: "filetools",
        pub_export_macro: true,
        default_bindings_module: "crate::imports::generated",
    });
}

use generated::filetools::core::code;
use generated::filetools::core::code_types as wit;
use generated::filetools::core::host_fs;

/// The host's digests of `data`, when it offers them.
pub(crate) fn host_digests(data: &[u8]) -> Option<host_fs::ContentDigests> {
    host_fs::digests(data)
}

/// The outline of `text` in `grammar`, in file order, by the grammars'
/// component; none when it lacks the grammar.
pub(crate) fn outline(grammar: Grammar, text: &str) -> Result<Option<Vec<OutlineEntry>>, Stopped> {
    let found = code::outline(grammar.into(), text).map_err(Stopped::from)?;
    Ok(found.map(|entries| entries.into_iter().map(Into::into).collect()))
}

/// The first `max` syntax errors of `text` in `grammar`, by the grammars'
/// component; none when it lacks the grammar.
pub(crate) fn syntax_errors(
    grammar: Grammar,
    text: &str,
    max: u32,
) -> Result<Option<Vec<SyntaxError>>, Stopped> {
    let found = code::syntax_errors(grammar.into(), text, max).map_err(Stopped::from)?;
    Ok(found.map(|errors| errors.into_iter().map(Into::into).collect()))
}

impl From<Grammar> for wit::Grammar {
    fn from(grammar: Grammar) -> Self {
        match grammar {
            Grammar::Rust => Self::Rust,
            Grammar::Python => Self::Python,
            Grammar::JavaScript => Self::Javascript,
            Grammar::TypeScript => Self::Typescript,
            Grammar::Tsx => Self::Tsx,
            Grammar::Go => Self::Go,
            Grammar::Java => Self::Java,
            Grammar::C => Self::C,
            Grammar::Cpp => Self::Cpp,
        }
    }
}

impl From<wit::Stopped> for Stopped {
    fn from(stopped: wit::Stopped) -> Self {
        match stopped {
            wit::Stopped::Time => Self::Time,
            wit::Stopped::Memory => Self::Memory,
        }
    }
}

impl From<wit::OutlineEntry> for OutlineEntry {
    fn from(entry: wit::OutlineEntry) -> Self {
        Self {
            kind: entry.kind,
            name: entry.name,
            visibility: entry.visibility,
            start: entry.start,
            end: entry.end,
            depth: entry.depth,
        }
    }
}

impl From<wit::SyntaxError> for SyntaxError {
    fn from(error: wit::SyntaxError) -> Self {
        Self {
            line: error.line,
            message: error.message,
        }
    }
}
