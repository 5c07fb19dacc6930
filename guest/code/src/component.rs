//! The wit-bindgen glue of the `filetools-code` component, compiled only
//! for wasm: exports `code` over [`symbols`](crate::symbols) and
//! [`errors`](crate::errors), flattening outlines into file order.

use crate::{Grammar, Stopped, Symbol};

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

use generated::exports::filetools::core::code as wit;

struct Code;

impl From<Stopped> for wit::Stopped {
    fn from(stopped: Stopped) -> Self {
        match stopped {
            Stopped::Time => Self::Time,
            Stopped::Memory => Self::Memory,
        }
    }
}

/// `symbols` and their members in file order, each with its depth.
fn flatten(symbols: Vec<Symbol>, depth: u32, out: &mut Vec<wit::Symbol>) {
    for symbol in symbols {
        out.push(wit::Symbol {
            kind: symbol.kind.to_owned(),
            name: symbol.name,
            visibility: symbol.visibility,
            start: symbol.start,
            end: symbol.end,
            depth,
        });
        flatten(symbol.children, depth + 1, out);
    }
}

impl wit::Guest for Code {
    fn outline(language: String, text: String) -> Result<Option<Vec<wit::Symbol>>, wit::Stopped> {
        let Some(grammar) = Grammar::named(&language) else {
            return Ok(None);
        };
        let found = crate::symbols(grammar, &text).map_err(wit::Stopped::from)?;
        Ok(found.map(|symbols| {
            let mut flat = Vec::new();
            flatten(symbols, 0, &mut flat);
            flat
        }))
    }

    fn syntax_errors(
        language: String,
        text: String,
        max: u32,
    ) -> Result<Option<Vec<wit::SyntaxError>>, wit::Stopped> {
        let Some(grammar) = Grammar::named(&language) else {
            return Ok(None);
        };
        let max = usize::try_from(max).unwrap_or(usize::MAX);
        let found = crate::errors(grammar, &text, max).map_err(wit::Stopped::from)?;
        Ok(found.map(|errors| {
            errors
                .into_iter()
                .map(|error| wit::SyntaxError {
                    line: error.line,
                    message: error.message,
                })
                .collect()
        }))
    }
}

generated::export!(Code with_types_in generated);
