//! Whether a text parses in its language (SPEC E11): the code languages the
//! outline parses (tree-sitter, within the outline's time and memory
//! budget), and JSON, TOML and YAML by their own parsers. Each error is a
//! line and a short message, such as `line 41: unexpected '}'`.
//!
//! ```
//! use filetools_core::view::outline::Language;
//! use filetools_core::view::syntax::errors;
//! let found = errors(Language::Json, "{\"a\": 1,\n}", 3).unwrap().unwrap();
//! assert_eq!(found[0].line, 2);
//! assert!(errors(Language::Toml, "a = 1\n", 3).unwrap().unwrap().is_empty());
//! ```

use crate::text::textfile::{line_count, line_of};
use filetools_code_types::{Stopped, SyntaxError};

use crate::view::outline::Language;

/// Characters of a parser's own message kept.
const MAX_MESSAGE_CHARS: usize = 80;

/// Whether `language` has a parser here.
pub fn checkable(language: Language) -> bool {
    match language {
        Language::Json | Language::Toml | Language::Yaml => true,
        Language::Markdown | Language::Plain => false,
        code => crate::view::outline::code::grammar(code).is_some(),
    }
}

/// The first `max` syntax errors of `text` in `language` (none when it
/// parses); `Ok(None)` when the language has no parser here (Markdown,
/// plain text, or a grammar left out of this build).
pub fn errors(
    language: Language,
    text: &str,
    max: usize,
) -> Result<Option<Vec<SyntaxError>>, Stopped> {
    let one = |found: Option<SyntaxError>| -> Result<Option<Vec<SyntaxError>>, Stopped> {
        Ok(Some(found.into_iter().take(max).collect()))
    };
    let mut found = match language {
        Language::Json => one(json(text)),
        Language::Toml => one(toml(text)),
        Language::Yaml => one(yaml(text)),
        Language::Markdown | Language::Plain => Ok(None),
        code => crate::view::outline::code::errors(code, text, max),
    };
    // An error at the very end is on the last line, not one past it.
    if let Ok(Some(errors)) = &mut found
        && !errors.is_empty()
    {
        let last = line_count(text).max(1);
        for error in errors {
            error.line = error.line.min(last);
        }
    }
    found
}

fn json(text: &str) -> Option<SyntaxError> {
    let err = serde_json::from_str::<serde::de::IgnoredAny>(text).err()?;
    let message = err.to_string();
    // serde_json ends its message with " at line L column C".
    let message = message.split(" at line ").next().unwrap_or_default();
    Some(SyntaxError {
        line: err.line().max(1) as u64,
        message: short(message),
    })
}

fn toml(text: &str) -> Option<SyntaxError> {
    let err = text.parse::<::toml::Table>().err()?;
    let at = err.span().map_or(0, |span| span.start).min(text.len());
    Some(SyntaxError {
        line: line_of(text, at),
        message: short(err.message()),
    })
}

/// The first error of the YAML stream `text`, found from its events alone:
/// no document is built, so an alias is never expanded (a kilobyte of
/// nested aliases would stand for billions of nodes) and nesting costs a
/// state per level on the heap, not a frame on the stack.
fn yaml(text: &str) -> Option<SyntaxError> {
    let mut parser = yaml_rust2::parser::Parser::new_from_str(text);
    loop {
        match parser.next_token() {
            Ok((yaml_rust2::Event::StreamEnd, _)) => return None,
            Ok(_) => {}
            Err(err) => {
                return Some(SyntaxError {
                    line: err.marker().line().max(1) as u64,
                    message: short(err.info()),
                });
            }
        }
    }
}

/// `message` on one line, cut short.
fn short(message: &str) -> String {
    let line = message.lines().next().unwrap_or_default().trim();
    let cut: String = line.chars().take(MAX_MESSAGE_CHARS).collect();
    if cut.len() < line.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;

    fn first(language: Language, text: &str) -> Option<String> {
        errors(language, text, 3)
            .unwrap()
            .unwrap()
            .first()
            .map(ToString::to_string)
    }

    #[test]
    fn clean_texts_have_no_errors() {
        assert_eq!(first(Language::Json, "{\"a\": [1, 2]}\n"), None);
        assert_eq!(first(Language::Toml, "[a]\nb = 1\n"), None);
        assert_eq!(first(Language::Yaml, "a:\n  - 1\n  - 2\n"), None);
        assert_eq!(first(Language::Python, "def f(x):\n    return x\n"), None);
        assert_eq!(first(Language::Rust, "fn f() -> u8 { 1 }\n"), None);
    }

    #[test]
    fn each_parser_names_the_line() {
        assert_eq!(
            first(Language::Json, "{\n  \"a\": 1,\n}\n").unwrap()[..7].to_owned(),
            "line 3:"
        );
        assert!(
            first(Language::Toml, "a = 1\nb = \n")
                .unwrap()
                .starts_with("line 2:")
        );
        assert!(first(Language::Yaml, "a: [1, 2\nb: 3\n").is_some());
        assert_eq!(
            first(Language::Rust, "fn f() {\n    let x = 1;\n}\n}\n").unwrap(),
            "line 4: unexpected '}'"
        );
        assert_eq!(
            first(Language::Python, "def f(x):\n    return (x\n").unwrap(),
            "line 2: cannot parse 'return (x'"
        );
    }

    #[test]
    fn an_error_spanning_lines_is_quoted_from_its_first_text() {
        let text = "def f():\n    x = 1\n\ndef g(p):\n    p += (2\n    return p\n";
        let said = first(Language::Python, text).unwrap();
        assert!(!said.contains("''"), "{said}");
        assert!(said.starts_with("line "), "{said}");
    }

    /// A kilobyte of YAML whose aliases stand for 9^9 scalars.
    pub(crate) fn alias_bomb() -> String {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for n in 1..10 {
            let p = n - 1;
            let _ = writeln!(
                text,
                "a{n}: &a{n} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]"
            );
        }
        text
    }

    #[test]
    fn yaml_aliases_are_checked_without_being_expanded() {
        let bomb = alias_bomb();
        assert!(bomb.len() < 1024);
        assert_eq!(first(Language::Yaml, &bomb), None);
        let mut merges = String::from("k0: &k0 {v0: 0}\n");
        for n in 1..10_000 {
            let p = n - 1;
            let _ = write!(merges, "k{n}: &k{n}\n  <<: *k{p}\n  v{n}: {n}\n");
        }
        assert_eq!(first(Language::Yaml, &merges), None);
        assert!(first(Language::Yaml, "a: *missing\n").is_some());
    }

    #[test]
    fn a_block_sequence_nested_a_hundred_thousand_deep_is_checked() {
        let deep = format!("{}x\n", "- ".repeat(100_000));
        assert!(matches!(errors(Language::Yaml, &deep, 3), Ok(Some(_))));
    }

    #[test]
    fn deep_nesting_comes_back_with_an_error() {
        let deep = |open: &str, prefix: &str| format!("{prefix}{}", open.repeat(100_000));
        for (language, text) in [
            (Language::Json, deep("[", "")),
            (Language::Toml, deep("[", "a = ")),
            (Language::Yaml, deep("[", "a: ")),
            (Language::Python, deep("(", "x = ")),
            (Language::Rust, deep("(", "fn f() { let x = ")),
        ] {
            let found = errors(language, &text, 3);
            assert!(
                matches!(&found, Ok(Some(found)) if !found.is_empty()) || found.is_err(),
                "{language:?}: {found:?}"
            );
        }
    }

    #[test]
    fn languages_without_a_parser_are_not_checked() {
        assert_eq!(errors(Language::Markdown, "# a\n", 3).unwrap(), None);
        assert_eq!(errors(Language::Plain, "x", 3).unwrap(), None);
    }
}
