//! Code outlines and syntax checks from the tree-sitter grammars of the
//! `filetools-code` crate. Natively it is linked here. In the component it
//! is reached through the imported `code` interface, which a host serves
//! from the separate `filetools-code` component, instantiated on the first
//! call that parses code: the grammars' tables, most of the tools' data,
//! are never loaded for a read of a text file.

use std::fmt;
use std::time::Duration;

use super::{Language, Symbol};
use crate::view::syntax::SyntaxError;

/// Time one outline parse may take (the code crate stops it then).
pub const MAX_PARSE_TIME: Duration = Duration::from_secs(3);

/// Bytes tree-sitter may hold during one parse.
pub const MAX_PARSE_BYTES: usize = 96 * 1024 * 1024;

/// Why a parse was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// It took longer than its time (3 s).
    Time,
    /// It held more than its memory (96 MiB).
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

/// The grammar's name for `language`, when it is code whose grammar is in
/// this build.
pub(crate) fn grammar(language: Language) -> Option<&'static str> {
    let (name, built) = match language {
        Language::Rust => ("rust", cfg!(feature = "lang-rust")),
        Language::Python => ("python", cfg!(feature = "lang-python")),
        Language::JavaScript => ("javascript", cfg!(feature = "lang-javascript")),
        Language::TypeScript => ("typescript", cfg!(feature = "lang-typescript")),
        Language::Tsx => ("tsx", cfg!(feature = "lang-typescript")),
        Language::Go => ("go", cfg!(feature = "lang-go")),
        Language::Java => ("java", cfg!(feature = "lang-java")),
        Language::C => ("c", cfg!(feature = "lang-c")),
        Language::Cpp => ("cpp", cfg!(feature = "lang-cpp")),
        Language::Markdown | Language::Json | Language::Yaml | Language::Toml | Language::Plain => {
            return None;
        }
    };
    built.then_some(name)
}

/// The symbols of `text`: `Ok(None)` when its grammar is not in this build,
/// an error when the parse went over its budget.
pub(crate) fn symbols(language: Language, text: &str) -> Result<Option<Vec<Symbol>>, Stopped> {
    let Some(name) = grammar(language) else {
        return Ok(None);
    };
    parsed::symbols(name, text)
}

/// The first `max` syntax errors of `text`; `Ok(None)` when the grammar is
/// not in this build.
pub(crate) fn errors(
    language: Language,
    text: &str,
    max: usize,
) -> Result<Option<Vec<SyntaxError>>, Stopped> {
    let Some(name) = grammar(language) else {
        return Ok(None);
    };
    parsed::errors(name, text, max)
}

/// No grammar in this build: nothing is parsed.
#[cfg(all(not(target_family = "wasm"), not(feature = "code")))]
mod parsed {
    use super::{Stopped, Symbol, SyntaxError};

    pub(super) fn symbols(_: &str, _: &str) -> Result<Option<Vec<Symbol>>, Stopped> {
        Ok(None)
    }

    pub(super) fn errors(_: &str, _: &str, _: usize) -> Result<Option<Vec<SyntaxError>>, Stopped> {
        Ok(None)
    }
}

/// The parses, by the linked crate.
#[cfg(all(not(target_family = "wasm"), feature = "code"))]
mod parsed {
    use filetools_code::{Grammar, Stopped as Why};

    use super::{Stopped, Symbol, SyntaxError};

    impl From<Why> for Stopped {
        fn from(why: Why) -> Self {
            match why {
                Why::Time => Self::Time,
                Why::Memory => Self::Memory,
            }
        }
    }

    fn grammar(name: &str) -> Option<Grammar> {
        Grammar::named(name)
    }

    fn symbol(found: filetools_code::Symbol) -> Symbol {
        Symbol {
            kind: found.kind,
            name: found.name,
            visibility: found.visibility,
            detail: None,
            start: found.start,
            end: found.end,
            children: found.children.into_iter().map(symbol).collect(),
        }
    }

    pub(super) fn symbols(name: &str, text: &str) -> Result<Option<Vec<Symbol>>, Stopped> {
        let Some(grammar) = grammar(name) else {
            return Ok(None);
        };
        let found = filetools_code::symbols(grammar, text)?;
        Ok(found.map(|found| found.into_iter().map(symbol).collect()))
    }

    pub(super) fn errors(
        name: &str,
        text: &str,
        max: usize,
    ) -> Result<Option<Vec<SyntaxError>>, Stopped> {
        let Some(grammar) = grammar(name) else {
            return Ok(None);
        };
        let found = filetools_code::errors(grammar, text, max)?;
        Ok(found.map(|found| {
            found
                .into_iter()
                .map(|error| SyntaxError {
                    line: error.line,
                    message: error.message,
                })
                .collect()
        }))
    }
}

/// The parses, by the host's `filetools-code` component.
#[cfg(target_family = "wasm")]
mod parsed {
    use std::collections::BTreeSet;
    use std::sync::Mutex;

    use super::{Stopped, Symbol, SyntaxError};
    use crate::component::code as imported;

    impl From<imported::Stopped> for Stopped {
        fn from(why: imported::Stopped) -> Self {
            match why {
                imported::Stopped::Time => Self::Time,
                imported::Stopped::Memory => Self::Memory,
            }
        }
    }

    /// A symbol kind as the `'static` word outlines hold: the kinds are the
    /// code crate's few constant words, each kept once.
    fn interned(kind: String) -> &'static str {
        static KINDS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
        let mut kinds = KINDS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(known) = kinds.get(kind.as_str()) {
            return known;
        }
        let kept: &'static str = Box::leak(kind.into_boxed_str());
        kinds.insert(kept);
        kept
    }

    /// The tree of a flat outline in file order with depths.
    fn tree(flat: Vec<imported::Symbol>) -> Vec<Symbol> {
        let mut roots = Vec::new();
        // The open symbols, one per level.
        let mut open: Vec<Symbol> = Vec::new();
        let close = |open: &mut Vec<Symbol>, roots: &mut Vec<Symbol>| {
            if let Some(done) = open.pop() {
                match open.last_mut() {
                    Some(owner) => owner.children.push(done),
                    None => roots.push(done),
                }
            }
        };
        for entry in flat {
            let depth = usize::try_from(entry.depth).unwrap_or(usize::MAX);
            while open.len() > depth {
                close(&mut open, &mut roots);
            }
            open.push(Symbol {
                kind: interned(entry.kind),
                name: entry.name,
                visibility: entry.visibility,
                detail: None,
                start: entry.start,
                end: entry.end,
                children: Vec::new(),
            });
        }
        while !open.is_empty() {
            close(&mut open, &mut roots);
        }
        roots
    }

    pub(super) fn symbols(name: &str, text: &str) -> Result<Option<Vec<Symbol>>, Stopped> {
        Ok(imported::outline(name, text)?.map(tree))
    }

    pub(super) fn errors(
        name: &str,
        text: &str,
        max: usize,
    ) -> Result<Option<Vec<SyntaxError>>, Stopped> {
        let max = u32::try_from(max).unwrap_or(u32::MAX);
        let found = imported::syntax_errors(name, text, max)?;
        Ok(found.map(|found| {
            found
                .into_iter()
                .map(|error| SyntaxError {
                    line: error.line,
                    message: error.message,
                })
                .collect()
        }))
    }
}

#[cfg(all(test, not(target_family = "wasm"), feature = "code"))]
mod tests {
    use super::*;

    #[test]
    fn the_budget_named_is_the_code_crates() {
        assert_eq!(MAX_PARSE_TIME, filetools_code::budget::MAX_PARSE_TIME);
        assert_eq!(MAX_PARSE_BYTES, filetools_code::budget::MAX_PARSE_BYTES);
        assert_eq!(super::super::MAX_NESTING, filetools_code::MAX_NESTING);
    }

    #[test]
    fn every_code_language_names_a_grammar_of_the_crate() {
        for language in [
            Language::Rust,
            Language::Python,
            Language::JavaScript,
            Language::TypeScript,
            Language::Tsx,
            Language::Go,
            Language::Java,
            Language::C,
            Language::Cpp,
        ] {
            let name = grammar(language).unwrap();
            let named = filetools_code::Grammar::named(name).unwrap();
            assert!(named.built(), "{name}");
        }
        assert_eq!(grammar(Language::Markdown), None);
    }
}
