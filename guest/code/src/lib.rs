//! Code outlines and syntax checks from tree-sitter grammars (SPEC R5,
//! E11). One walker; each language says, node by node, whether it is a
//! symbol (kind, name, visibility, and the body holding its members), a
//! wrapper to look inside (`export`, decorators, `#ifdef`, templates) or
//! neither. Statements are never entered, so locals stay out of the outline.
//!
//! The grammars' parse tables are most of the filetools component's data,
//! so they live in a component of their own, built from this crate: a host
//! instantiates it only when a call first parses code, and a read of a text
//! file never pays for them. The native core links this crate directly.
//!
//! ```
//! use filetools_code::symbols;
//! use filetools_code_types::Grammar;
//! let found = symbols(Grammar::Rust, "pub fn f() {}\n").unwrap().unwrap();
//! assert_eq!((found[0].kind, found[0].name.as_str()), ("fn", "f"));
//! ```
#![deny(missing_docs)]

pub mod budget;
#[cfg(any(feature = "lang-c", feature = "lang-cpp"))]
mod c;
#[cfg(target_family = "wasm")]
mod component;
mod errors;
#[cfg(feature = "lang-go")]
mod go;
mod grammar;
#[cfg(feature = "lang-java")]
mod java;
#[cfg(any(feature = "lang-javascript", feature = "lang-typescript"))]
mod js;
#[cfg(feature = "lang-python")]
mod python;
#[cfg(feature = "lang-python")]
mod quiet_python;
#[cfg(feature = "lang-rust")]
mod quiet_rust;
#[cfg(feature = "lang-rust")]
mod rust;
#[cfg(target_family = "wasm")]
mod stdio_close;

use tree_sitter::{Node, ParseOptions, Parser};

use filetools_code_types::{Grammar, MAX_NESTING, Stopped};

use budget::Meter;
pub use errors::errors;
pub use grammar::built;

/// One symbol of an outline, with its members.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Symbol {
    /// What it is, in the language's own word (`fn`, `class`, `def`, …).
    pub kind: &'static str,
    /// Its name.
    pub name: String,
    /// Visibility where the language has it (`pub`, `public`, `export`, …).
    pub visibility: Option<String>,
    /// First line, 1-based.
    pub start: u64,
    /// Last line, 1-based.
    pub end: u64,
    /// Members, in file order.
    pub children: Vec<Symbol>,
}

/// Where a node sits, which decides what counts as a symbol in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// A file, module or namespace.
    Module,
    /// The body of a class, struct, trait, impl or interface.
    Type,
    /// The body of a function.
    Function,
}

/// What a language makes of one node.
pub(crate) enum Step<'t> {
    /// A symbol; its members are looked for in `body`.
    Symbol {
        kind: &'static str,
        name: String,
        visibility: Option<String>,
        body: Option<(Node<'t>, Scope)>,
    },
    /// A wrapper: its children are looked at in `scope`; those found get
    /// `visibility` unless they have their own.
    Descend(Node<'t>, Scope, Option<&'static str>),
    /// Neither.
    Skip,
}

/// Decides what a node is, from its kind, text (`source`) and scope.
type Classify = for<'t> fn(Node<'t>, &str, Scope) -> Step<'t>;

/// Longest name shown, in characters; longer ones end in `…`.
pub(crate) const MAX_NAME_CHARS: usize = 80;

/// The symbols of `text`: `Ok(None)` when its grammar is not in this build,
/// an error when the parse went over its [`budget`].
pub fn symbols(language: Grammar, text: &str) -> Result<Option<Vec<Symbol>>, Stopped> {
    let Some((grammar, classify)) = grammar(language) else {
        return Ok(None);
    };
    let mut parser = budget::parser();
    if parser.set_language(&grammar).is_err() {
        return Ok(None);
    }
    // What is parsed may have what no outline shows left out (see
    // `quiet_rust`) or blanked (see `quiet_python`); the names are read from
    // `text`, where every node has the same place.
    #[cfg(feature = "lang-rust")]
    if language == Grammar::Rust
        && let Some(ranges) = quiet_rust::ranges(text)
        && parser.set_included_ranges(&ranges).is_err()
    {
        return Ok(None);
    }
    let parsed = match language {
        #[cfg(feature = "lang-python")]
        Grammar::Python => quiet_python::python(text),
        _ => std::borrow::Cow::Borrowed(text),
    };
    #[cfg(feature = "lang-python")]
    if language == Grammar::Python
        && matches!(parsed, std::borrow::Cow::Owned(_))
        && parser
            .set_included_ranges(&quiet_python::ranges(&parsed))
            .is_err()
    {
        return Ok(None);
    }
    let tree = parse(&mut parser, parsed.as_bytes())?;
    let mut found = Vec::new();
    walk(
        tree.root_node(),
        text,
        Scope::Module,
        None,
        classify,
        0,
        &mut found,
    );
    Ok(Some(found))
}

/// `bytes` parsed within the [`budget`].
pub(crate) fn parse(parser: &mut Parser, bytes: &[u8]) -> Result<tree_sitter::Tree, Stopped> {
    let mut meter = Meter::start();
    let mut report = |_: &tree_sitter::ParseState| meter.report();
    let tree = parser.parse_with_options(
        &mut |offset, _| &bytes[offset.min(bytes.len())..],
        None,
        Some(ParseOptions::new().progress_callback(&mut report)),
    );
    tree.ok_or_else(|| meter.stopped.unwrap_or(Stopped::Time))
}

/// The grammar of `language` and how its nodes are classified, when the
/// grammar is in this build.
pub(crate) fn grammar(language: Grammar) -> Option<(tree_sitter::Language, Classify)> {
    Some(match language {
        #[cfg(feature = "lang-rust")]
        Grammar::Rust => (tree_sitter_rust::LANGUAGE.into(), rust::classify),
        #[cfg(feature = "lang-python")]
        Grammar::Python => (tree_sitter_python::LANGUAGE.into(), python::classify),
        #[cfg(feature = "lang-javascript")]
        Grammar::JavaScript => (tree_sitter_javascript::LANGUAGE.into(), js::classify),
        #[cfg(feature = "lang-typescript")]
        Grammar::TypeScript => (
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            js::classify,
        ),
        #[cfg(feature = "lang-typescript")]
        Grammar::Tsx => (tree_sitter_typescript::LANGUAGE_TSX.into(), js::classify),
        #[cfg(feature = "lang-go")]
        Grammar::Go => (tree_sitter_go::LANGUAGE.into(), go::classify),
        #[cfg(feature = "lang-java")]
        Grammar::Java => (tree_sitter_java::LANGUAGE.into(), java::classify),
        #[cfg(feature = "lang-c")]
        Grammar::C => (tree_sitter_c::LANGUAGE.into(), c::classify),
        #[cfg(feature = "lang-cpp")]
        Grammar::Cpp => (tree_sitter_cpp::LANGUAGE.into(), c::classify),
        #[allow(unreachable_patterns, reason = "every grammar may be in the build")]
        _ => return None,
    })
}

fn walk(
    node: Node<'_>,
    source: &str,
    scope: Scope,
    visibility: Option<&'static str>,
    classify: Classify,
    depth: usize,
    found: &mut Vec<Symbol>,
) {
    if depth >= MAX_NESTING {
        return;
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match classify(child, source, scope) {
            Step::Symbol {
                kind,
                name,
                visibility: own,
                body,
            } => {
                let mut children = Vec::new();
                if let Some((body, inner)) = body {
                    walk(
                        body,
                        source,
                        inner,
                        None,
                        classify,
                        depth + 1,
                        &mut children,
                    );
                }
                let (start, end) = lines(child);
                found.push(Symbol {
                    kind,
                    name,
                    visibility: own.or_else(|| visibility.map(str::to_owned)),
                    start,
                    end,
                    children,
                });
            }
            Step::Descend(inner, scope, wrapper) => walk(
                inner,
                source,
                scope,
                wrapper.or(visibility),
                classify,
                depth + 1,
                found,
            ),
            Step::Skip => {}
        }
    }
}

/// A node's first and last line, 1-based; a node ending at the start of a
/// line ends on the line before.
fn lines(node: Node<'_>) -> (u64, u64) {
    let start = node.start_position().row as u64 + 1;
    let end = node.end_position();
    let last = if end.column == 0 && end.row as u64 + 1 > start {
        end.row as u64
    } else {
        end.row as u64 + 1
    };
    (start, last)
}

/// The source text of `node`.
pub(crate) fn text<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or("")
}

/// `node`'s text on one line, whitespace collapsed, at most
/// [`MAX_NAME_CHARS`] characters.
pub(crate) fn name_of(node: Node<'_>, source: &str) -> String {
    let mut name = String::new();
    for (index, word) in text(node, source).split_whitespace().enumerate() {
        if index > 0 {
            name.push(' ');
        }
        name.push_str(word);
    }
    if let Some((cut, _)) = name.char_indices().nth(MAX_NAME_CHARS) {
        name.truncate(cut);
        name.push('…');
    }
    name
}

/// The text of `node`'s field `field`, as a name.
pub(crate) fn field_name(node: Node<'_>, field: &str, source: &str) -> Option<String> {
    node.child_by_field_name(field)
        .map(|child| name_of(child, source))
}

/// The first child of `node` of kind `kind`.
pub(crate) fn child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .find(|child| child.kind() == kind)
}

/// A symbol without members.
pub(crate) fn leaf<'t>(kind: &'static str, name: String, visibility: Option<String>) -> Step<'t> {
    Step::Symbol {
        kind,
        name,
        visibility,
        body: None,
    }
}
