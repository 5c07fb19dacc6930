//! Code outlines and syntax checks from the tree-sitter grammars of the
//! `filetools-code` crate. Natively it is linked here. In the component it
//! is reached through the imported `code` interface, which a host serves
//! from the separate `filetools-code` component, instantiated on the first
//! call that parses code: the grammars' tables, most of the tools' data,
//! are never loaded for a read of a text file. Either way the values are
//! the contract's ([`filetools_code_types`]).

use filetools_code_types::{Grammar, Stopped, SyntaxError};

use super::{Language, Symbol};

/// The grammar of `language`, when it is code whose grammar is in this
/// build.
pub(crate) fn grammar(language: Language) -> Option<Grammar> {
    language.grammar().filter(|grammar| match grammar {
        Grammar::Rust => cfg!(feature = "lang-rust"),
        Grammar::Python => cfg!(feature = "lang-python"),
        Grammar::JavaScript => cfg!(feature = "lang-javascript"),
        Grammar::TypeScript | Grammar::Tsx => cfg!(feature = "lang-typescript"),
        Grammar::Go => cfg!(feature = "lang-go"),
        Grammar::Java => cfg!(feature = "lang-java"),
        Grammar::C => cfg!(feature = "lang-c"),
        Grammar::Cpp => cfg!(feature = "lang-cpp"),
    })
}

/// The symbols of `text`: `Ok(None)` when its grammar is not in this build,
/// an error when the parse went over its budget.
pub(crate) fn symbols(language: Language, text: &str) -> Result<Option<Vec<Symbol>>, Stopped> {
    let Some(grammar) = grammar(language) else {
        return Ok(None);
    };
    parsed::symbols(grammar, text)
}

/// The first `max` syntax errors of `text`; `Ok(None)` when the grammar is
/// not in this build.
pub(crate) fn errors(
    language: Language,
    text: &str,
    max: usize,
) -> Result<Option<Vec<SyntaxError>>, Stopped> {
    let Some(grammar) = grammar(language) else {
        return Ok(None);
    };
    parsed::errors(grammar, text, max)
}

/// No grammar in this build: nothing is parsed.
#[cfg(all(not(target_family = "wasm"), not(feature = "code")))]
mod parsed {
    use super::{Grammar, Stopped, Symbol, SyntaxError};

    pub(super) fn symbols(_: Grammar, _: &str) -> Result<Option<Vec<Symbol>>, Stopped> {
        Ok(None)
    }

    pub(super) fn errors(
        _: Grammar,
        _: &str,
        _: usize,
    ) -> Result<Option<Vec<SyntaxError>>, Stopped> {
        Ok(None)
    }
}

/// The parses, by the linked crate.
#[cfg(all(not(target_family = "wasm"), feature = "code"))]
mod parsed {
    use super::{Grammar, Stopped, Symbol, SyntaxError};

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

    pub(super) fn symbols(grammar: Grammar, text: &str) -> Result<Option<Vec<Symbol>>, Stopped> {
        let found = filetools_code::symbols(grammar, text)?;
        Ok(found.map(|found| found.into_iter().map(symbol).collect()))
    }

    pub(super) fn errors(
        grammar: Grammar,
        text: &str,
        max: usize,
    ) -> Result<Option<Vec<SyntaxError>>, Stopped> {
        filetools_code::errors(grammar, text, max)
    }
}

/// The parses, by the host's `filetools-code` component.
#[cfg(target_family = "wasm")]
mod parsed {
    use std::collections::BTreeSet;
    use std::sync::Mutex;

    use filetools_code_types::OutlineEntry;

    use super::{Grammar, Stopped, Symbol, SyntaxError};
    use crate::imports;

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
    fn tree(flat: Vec<OutlineEntry>) -> Vec<Symbol> {
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

    pub(super) fn symbols(grammar: Grammar, text: &str) -> Result<Option<Vec<Symbol>>, Stopped> {
        Ok(imports::outline(grammar, text)?.map(tree))
    }

    pub(super) fn errors(
        grammar: Grammar,
        text: &str,
        max: usize,
    ) -> Result<Option<Vec<SyntaxError>>, Stopped> {
        imports::syntax_errors(grammar, text, u32::try_from(max).unwrap_or(u32::MAX))
    }
}

#[cfg(all(test, not(target_family = "wasm"), feature = "code"))]
mod tests {
    use super::*;

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
            let grammar = grammar(language).unwrap();
            assert!(filetools_code::built(grammar), "{language:?}");
        }
        assert_eq!(grammar(Language::Markdown), None);
    }
}
