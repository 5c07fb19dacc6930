//! Structural outlines of files too large to show whole (SPEC R5): the
//! symbols of code (tree-sitter, inside the component), the heading tree of
//! Markdown and the key tree of JSON, YAML and TOML, each entry with its line
//! range, rendered at the deepest level that fits the outline budget.
//!
//! ```
//! use filetools_core::view::outline::{Language, symbols};
//! let tree = symbols(Language::Markdown, "# Intro\ntext\n## Usage\nmore\n").unwrap();
//! assert_eq!(tree[0].name, "Intro");
//! assert_eq!((tree[0].start, tree[0].end), (1, 4));
//! assert_eq!(tree[0].children[0].name, "Usage");
//! ```

pub(crate) mod code;
mod json;
mod language;
mod markdown;
pub(crate) mod named;
mod nest;
mod render;
#[cfg(test)]
mod tests;
mod toml;
mod yaml;

use filetools_code_types::{MAX_NESTING, Stopped};

pub use language::Language;
pub use render::{Rendered, render};

/// One entry of an outline: a symbol, heading or key, with its children.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Symbol {
    /// What it is, in the language's own word (`fn`, `class`, `def`,
    /// `struct`, …); empty for headings and keys.
    pub kind: &'static str,
    /// Its name (for a heading, its text; for a key, the key).
    pub name: String,
    /// Visibility where the language has it (`pub`, `public`, `export`, …).
    pub visibility: Option<String>,
    /// A short fact shown after the name, e.g. `[12 items]` for an array.
    pub detail: Option<String>,
    /// First line, 1-based.
    pub start: u64,
    /// Last line, 1-based.
    pub end: u64,
    /// Nested entries, in file order.
    pub children: Vec<Symbol>,
}

impl Symbol {
    /// An entry named `name` on `line` alone (a heading, a key; its end is
    /// widened once what it holds is known).
    pub fn on_line(name: &str, line: u64) -> Self {
        Self {
            name: name.to_owned(),
            start: line,
            end: line,
            ..Self::default()
        }
    }

    /// Entries in this subtree below the symbol itself.
    pub fn descendants(&self) -> usize {
        self.children
            .iter()
            .map(|child| 1 + child.descendants())
            .sum()
    }

    /// Levels of nesting in this subtree, the symbol itself counting one.
    pub fn depth(&self) -> usize {
        1 + self.children.iter().map(Symbol::depth).max().unwrap_or(0)
    }
}

/// The outline of `text` in `language`, or `None` when the language has no
/// structure to show (or its grammar is not in this build, or its parse
/// went over its budget).
pub fn symbols(language: Language, text: &str) -> Option<Vec<Symbol>> {
    symbols_within_budget(language, text).ok().flatten()
}

/// [`symbols`], saying when the parse was stopped for going over its budget.
pub fn symbols_within_budget(
    language: Language,
    text: &str,
) -> Result<Option<Vec<Symbol>>, Stopped> {
    Ok(match language {
        Language::Markdown => Some(markdown::headings(text)),
        Language::Json => Some(json::keys(text)),
        Language::Yaml => Some(yaml::keys(text)),
        Language::Toml => Some(toml::tables(text)),
        Language::Plain => None,
        code => code::symbols(code, text)?,
    })
}
