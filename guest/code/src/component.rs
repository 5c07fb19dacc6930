//! The wit-bindgen glue of the `filetools-code` component, compiled only
//! for wasm: exports `code` over [`symbols`](crate::symbols) and
//! [`errors`](crate::errors), flattening outlines into file order. The
//! conversions between the contract's types and the generated ones live
//! here and nowhere else.

use filetools_code_types::{Grammar, OutlineEntry, Stopped, SyntaxError};

use crate::Symbol;

/// The generated bindings, kept apart so lints on generated code stay here.
#[expect(
    clippy::same_length_and_capacity,
    reason = "wit-bindgen's generated list lifting"
)]
mod generated {
    wit_bindgen::generate!({
        path: "wit",
        world: "filetools-code",
    });
}

use generated::exports::filetools::core::code::Guest;
use generated::filetools::core::code_types as wit;

struct Code;

impl From<wit::Grammar> for Grammar {
    fn from(grammar: wit::Grammar) -> Self {
        match grammar {
            wit::Grammar::Rust => Self::Rust,
            wit::Grammar::Python => Self::Python,
            wit::Grammar::Javascript => Self::JavaScript,
            wit::Grammar::Typescript => Self::TypeScript,
            wit::Grammar::Tsx => Self::Tsx,
            wit::Grammar::Go => Self::Go,
            wit::Grammar::Java => Self::Java,
            wit::Grammar::C => Self::C,
            wit::Grammar::Cpp => Self::Cpp,
        }
    }
}

impl From<Stopped> for wit::Stopped {
    fn from(stopped: Stopped) -> Self {
        match stopped {
            Stopped::Time => Self::Time,
            Stopped::Memory => Self::Memory,
        }
    }
}

impl From<OutlineEntry> for wit::OutlineEntry {
    fn from(entry: OutlineEntry) -> Self {
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

impl From<SyntaxError> for wit::SyntaxError {
    fn from(error: SyntaxError) -> Self {
        Self {
            line: error.line,
            message: error.message,
        }
    }
}

/// `symbols` and their members in file order, each with its depth.
fn flatten(symbols: Vec<Symbol>, depth: u32, out: &mut Vec<wit::OutlineEntry>) {
    for symbol in symbols {
        out.push(
            OutlineEntry {
                kind: symbol.kind.to_owned(),
                name: symbol.name,
                visibility: symbol.visibility,
                start: symbol.start,
                end: symbol.end,
                depth,
            }
            .into(),
        );
        flatten(symbol.children, depth + 1, out);
    }
}

impl Guest for Code {
    fn outline(
        grammar: wit::Grammar,
        text: String,
    ) -> Result<Option<Vec<wit::OutlineEntry>>, wit::Stopped> {
        let found = crate::symbols(grammar.into(), &text).map_err(wit::Stopped::from)?;
        Ok(found.map(|symbols| {
            let mut flat = Vec::new();
            flatten(symbols, 0, &mut flat);
            flat
        }))
    }

    fn syntax_errors(
        grammar: wit::Grammar,
        text: String,
        max: u32,
    ) -> Result<Option<Vec<wit::SyntaxError>>, wit::Stopped> {
        let max = usize::try_from(max).unwrap_or(usize::MAX);
        let found = crate::errors(grammar.into(), &text, max).map_err(wit::Stopped::from)?;
        Ok(found.map(|errors| errors.into_iter().map(Into::into).collect()))
    }
}

generated::export!(Code with_types_in generated);
