//! Outline entries by name and by line, for the tools that take one: `read`
//! of a symbol or of the block around a line, and `edit` of a symbol. A
//! name is matched whole first (a heading may hold dots), else by its parts
//! (split on `.`, `/` and `::`) as the last names of an entry's path; an
//! `impl` is named by the type it is for. A name that fits several entries
//! is refused with them and their lines, one that fits none with the
//! closest names.

use crate::answers::error::ToolError;
use crate::answers::error::symbol::SymbolError;
use crate::answers::tool::Tool;
use crate::config::Config;
use crate::view::outline::{self, Language, Symbol};
use crate::view::sniff::SNIFF_BYTES;

/// Entries an ambiguous name lists.
const MAX_CANDIDATES: usize = 10;
/// Names an unknown name suggests.
const MAX_CLOSEST: usize = 5;
/// Longest last part of an unknown name compared with the entries' names.
const MAX_COMPARED_CHARS: usize = 128;
/// How a qualified name joins its parts when shown.
pub(crate) const SEPARATOR: &str = ".";

/// One outline entry found: its qualified name and its lines, 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Named {
    /// The names of its path joined by `.`, e.g. `Decimal.__new__`.
    pub name: String,
    /// First line.
    pub start: u64,
    /// Last line.
    pub end: u64,
}

/// Refuses a file of `language` and `size` bytes (shown as `path`) that
/// has no outline: not a language the outline knows, or over
/// `max_outline_bytes`.
pub(crate) fn outline_refusal(
    config: &Config,
    (path, tool): (&str, Tool),
    language: Language,
    size: u64,
) -> Result<(), ToolError> {
    if language == Language::Plain {
        return Err(no_outline(path, tool, "not a language the outline knows"));
    }
    if size > config.max_outline_bytes {
        return Err(no_outline(path, tool, "too large to outline"));
    }
    Ok(())
}

/// The outline of `text`, the content of `rel` (shown as `path`); refused
/// as [`outline_refusal`] says, or when the parse did not finish within its
/// budget.
pub(crate) fn outline_of(
    config: &Config,
    (path, tool): (&str, Tool),
    rel: &str,
    text: &str,
) -> Result<(Language, Vec<Symbol>), ToolError> {
    let head = &text.as_bytes()[..text.len().min(SNIFF_BYTES as usize)];
    let language = Language::detect(rel, head);
    outline_refusal(config, (path, tool), language, text.len() as u64)?;
    match outline::symbols_within_budget(language, text) {
        Ok(Some(symbols)) => Ok((language, symbols)),
        Ok(None) => Err(no_outline(path, tool, "its grammar is not in this build")),
        Err(_) => Err(no_outline(
            path,
            tool,
            "its parse went over the time or memory budget",
        )),
    }
}

fn no_outline(path: &str, tool: Tool, why: &str) -> ToolError {
    ToolError::Symbol(SymbolError::NoOutline {
        path: path.to_owned(),
        why: why.to_owned(),
        tool,
    })
}

/// Every named entry of `symbols`, in file order, with its qualified name.
pub(crate) fn all(symbols: &[Symbol]) -> Vec<Named> {
    let mut entries = Vec::new();
    collect(symbols, &mut Vec::new(), &mut entries);
    entries.iter().map(Entry::named).collect()
}

/// The one entry of `symbols` that `symbol` names, in the file shown as
/// `path`.
pub(crate) fn named(symbols: &[Symbol], path: &str, symbol: &str) -> Result<Named, SymbolError> {
    let mut entries = Vec::new();
    collect(symbols, &mut Vec::new(), &mut entries);
    let found = find(&entries, symbol);
    match found.as_slice() {
        [one] => Ok(one.named()),
        [] => Err(SymbolError::Unknown {
            path: path.to_owned(),
            symbol: symbol.to_owned(),
            closest: closest(&entries, symbol),
        }),
        many => Err(SymbolError::Ambiguous {
            path: path.to_owned(),
            symbol: symbol.to_owned(),
            candidates: many
                .iter()
                .take(MAX_CANDIDATES)
                .map(|e| (e.qualified(), e.symbol().start, e.symbol().end))
                .collect(),
            count: many.len(),
        }),
    }
}

/// The innermost named entry of `symbols` that holds line `line`: the
/// deepest, and of two at one depth the later.
pub(crate) fn around(symbols: &[Symbol], line: u64) -> Option<Named> {
    let mut entries = Vec::new();
    collect(symbols, &mut Vec::new(), &mut entries);
    entries
        .iter()
        .filter(|e| e.symbol().start <= line && line <= e.symbol().end)
        .max_by_key(|e| (e.path.len(), e.symbol().start))
        .map(Entry::named)
}

/// One entry with the names of its parents.
struct Entry<'s> {
    path: Vec<&'s Symbol>,
}

impl Entry<'_> {
    fn symbol(&self) -> &Symbol {
        self.path[self.path.len() - 1]
    }

    fn named(&self) -> Named {
        Named {
            name: self.qualified(),
            start: self.symbol().start,
            end: self.symbol().end,
        }
    }

    fn qualified(&self) -> String {
        let names: Vec<&str> = self.path.iter().map(|s| s.name.as_str()).collect();
        names.join(SEPARATOR)
    }
}

fn collect<'s>(symbols: &'s [Symbol], parents: &mut Vec<&'s Symbol>, out: &mut Vec<Entry<'s>>) {
    for symbol in symbols {
        parents.push(symbol);
        if !symbol.name.is_empty() {
            out.push(Entry {
                path: parents.clone(),
            });
        }
        collect(&symbol.children, parents, out);
        parents.pop();
    }
}

/// The parts of a qualified name: split on `::`, `.` and `/`.
fn parts(symbol: &str) -> Vec<&str> {
    symbol
        .split("::")
        .flat_map(|part| part.split(['.', '/']))
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect()
}

/// Whether `part` names `symbol`: its name, or for an `impl`, the type
/// it is for, without generics.
fn names(symbol: &Symbol, part: &str) -> bool {
    if symbol.name == part {
        return true;
    }
    if symbol.kind == "impl" {
        let target = symbol.name.rsplit(" for ").next().unwrap_or(&symbol.name);
        let bare = target.split('<').next().unwrap_or(target).trim();
        return bare == part;
    }
    false
}

/// The entries `symbol` names: the whole string as one name first (a
/// heading may hold dots), else its parts as the last names of the path.
fn find<'a, 's>(entries: &'a [Entry<'s>], symbol: &str) -> Vec<&'a Entry<'s>> {
    let whole: Vec<&Entry<'_>> = entries
        .iter()
        .filter(|e| names(e.symbol(), symbol.trim()))
        .collect();
    if !whole.is_empty() {
        return whole;
    }
    let wanted = parts(symbol);
    if wanted.len() < 2 {
        return whole;
    }
    entries
        .iter()
        .filter(|e| {
            e.path.len() >= wanted.len()
                && e.path[e.path.len() - wanted.len()..]
                    .iter()
                    .zip(&wanted)
                    .all(|(s, part)| names(s, part))
        })
        .collect()
}

/// The qualified names closest to `symbol`: by the edit distance of the
/// last part to each entry's name, ignoring case.
fn closest(entries: &[Entry<'_>], symbol: &str) -> Vec<String> {
    let wanted = parts(symbol)
        .last()
        .map_or_else(String::new, |p| p.to_lowercase());
    // Names in outlines are short: a longer one is close to none of them,
    // and comparing it with each would only cost time.
    if wanted.chars().count() > MAX_COMPARED_CHARS {
        return Vec::new();
    }
    let mut ranked: Vec<(usize, String)> = entries
        .iter()
        .map(|e| {
            let name = e.symbol().name.to_lowercase();
            let distance = if name.contains(&wanted) || wanted.contains(&name) {
                0
            } else {
                crate::paths::repair::distance(&name, &wanted)
            };
            (distance, e.qualified())
        })
        .filter(|(distance, _)| *distance <= wanted.chars().count().max(3) / 2)
        .collect();
    ranked.sort();
    ranked.dedup_by(|a, b| a.1 == b.1);
    ranked
        .into_iter()
        .take(MAX_CLOSEST)
        .map(|(_, n)| n)
        .collect()
}
