//! `read` by symbol (SPEC R18): the lines of one outline entry, named as the
//! outline names it. `symbol: "Decimal.__new__"` (or `Decimal/__new__`,
//! `Decimal::__new__`) reads exactly that method's lines, with the usual
//! caps, so seeing one function whole costs its lines and not an outline
//! first. The lines are shown as they stand, without a gutter, under one
//! header with the entry's name and range: the entry was asked for by name
//! and edits quote its text, so numbering every line would add bytes that
//! tell the model nothing the header does not. A name that fits several entries lists them with their
//! lines; a name that fits none lists the closest.

use super::{Framing, read_framed};
use crate::answers::error::ToolError;
use crate::answers::error::symbol::SymbolError;
use crate::answers::result::ToolResult;
use crate::config::Config;
use crate::fs::host::{HostFs, Metadata};
use crate::memory::ledger::Observation;
use crate::text::decode::Decoder;
use crate::view::image::read_all;
use crate::view::outline::{self, Language, Symbol};
use crate::view::read::args::ReadArgs;

/// Entries an ambiguous name lists.
const MAX_CANDIDATES: usize = 10;
/// Names an unknown name suggests.
const MAX_CLOSEST: usize = 5;
/// Longest last part of an unknown name compared with the entries' names.
const MAX_COMPARED_CHARS: usize = 128;
/// How a qualified name joins its parts when shown.
const SEPARATOR: &str = ".";

/// One entry with the names of its parents.
struct Entry<'s> {
    path: Vec<&'s Symbol>,
}

impl Entry<'_> {
    fn symbol(&self) -> &Symbol {
        self.path[self.path.len() - 1]
    }

    fn qualified(&self) -> String {
        let names: Vec<&str> = self.path.iter().map(|s| s.name.as_str()).collect();
        names.join(SEPARATOR)
    }
}

/// Reads the lines of the entry `symbol` names in `rel`; `head` is the
/// file's first bytes.
pub(crate) fn read<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    symbol: &str,
    rel: &str,
    meta: Metadata,
    head: &[u8],
) -> Result<(ToolResult, Observation), ToolError> {
    let path = &args.file_path;
    let no_outline = |why: &str| {
        ToolError::Symbol(SymbolError::NoOutline {
            path: path.clone(),
            why: why.to_owned(),
        })
    };
    let language = Language::detect(rel, head);
    if language == Language::Plain {
        return Err(no_outline("not a language the outline knows"));
    }
    if meta.size > config.max_outline_bytes {
        return Err(no_outline("too large to outline"));
    }
    let bytes = read_all(fs, rel, path, config.chunk_bytes)?;
    let (_, text) = Decoder::whole(&bytes, super::given_encoding(args));
    let symbols = match outline::symbols_within_budget(language, &text) {
        Ok(Some(symbols)) => symbols,
        Ok(None) => return Err(no_outline("its grammar is not in this build")),
        Err(_) => return Err(no_outline("its parse went over the time or memory budget")),
    };
    let mut entries = Vec::new();
    collect(&symbols, &mut Vec::new(), &mut entries);
    let found = find(&entries, symbol);
    let entry = match found.as_slice() {
        [one] => *one,
        [] => {
            return Err(ToolError::Symbol(SymbolError::Unknown {
                path: path.clone(),
                symbol: symbol.to_owned(),
                closest: closest(&entries, symbol),
            }));
        }
        many => {
            return Err(ToolError::Symbol(SymbolError::Ambiguous {
                path: path.clone(),
                symbol: symbol.to_owned(),
                candidates: many
                    .iter()
                    .take(MAX_CANDIDATES)
                    .map(|e| (e.qualified(), e.symbol().start, e.symbol().end))
                    .collect(),
                count: many.len(),
            }));
        }
    };
    let (first, last) = (entry.symbol().start, entry.symbol().end);
    let ranged = ReadArgs {
        offset: Some(first),
        limit: Some(last - first + 1),
        symbol: None,
        ..args.clone()
    };
    let name = entry.qualified();
    let framing = Framing::Named { name: &name, last };
    let (mut result, seen) = read_framed(config, fs, &ranged, (rel, meta), None, framing)?;
    result.metadata["symbol"] = serde_json::Value::from(name);
    Ok((result, seen))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::memory::MemFs;

    const PY: &str = "class Decimal:\n    def __new__(cls):\n        return 1\n\n    def other(self):\n        pass\n\nclass Context:\n    def __new__(cls):\n        pass\n\ndef helper():\n    return 2\n";

    fn read_symbol(symbol: &str) -> Result<ToolResult, ToolError> {
        let fs = MemFs::new();
        fs.add_file("m.py", PY.as_bytes());
        let meta = fs.stat("m.py").expect("stat");
        let args = ReadArgs {
            file_path: "m.py".into(),
            symbol: Some(symbol.into()),
            ..ReadArgs::default()
        };
        read(
            &Config::default(),
            &fs,
            &args,
            symbol,
            "m.py",
            meta,
            PY.as_bytes(),
        )
        .map(|(r, _)| r)
    }

    #[cfg(feature = "lang-python")]
    #[test]
    fn a_qualified_name_reads_exactly_its_lines() {
        for spelling in ["Decimal.__new__", "Decimal/__new__", "Decimal::__new__"] {
            let result = read_symbol(spelling).expect("found");
            assert_eq!(
                result.text(),
                "[Decimal.__new__: lines 2-3 of 13]\n    def __new__(cls):\n        return 1\n[version 88c01e513f9ef46e-168]"
            );
            assert_eq!(result.metadata["symbol"], "Decimal.__new__");
        }
        assert!(
            read_symbol("helper")
                .expect("found")
                .text()
                .starts_with("[helper: lines 12-13 of 13]\ndef helper():\n")
        );
    }

    #[cfg(feature = "lang-python")]
    #[test]
    fn an_ambiguous_name_lists_the_candidates_with_lines() {
        let err = read_symbol("__new__").expect_err("two match");
        assert_eq!(
            err.to_string(),
            "Error: \"__new__\" names 2 symbols in m.py: \"Decimal.__new__\" (lines 2-3), \"Context.__new__\" (lines 9-10); name one with its parents, as listed."
        );
    }

    #[cfg(feature = "lang-python")]
    #[test]
    fn an_unknown_name_lists_the_closest() {
        let err = read_symbol("Decimal.__neww__").expect_err("none match");
        assert_eq!(
            err.to_string(),
            "Error: no symbol \"Decimal.__neww__\" in m.py; the closest are \"Context.__new__\", \"Decimal.__new__\"."
        );
        let err = read_symbol("zzz").expect_err("none match");
        assert!(
            err.to_string()
                .ends_with("read the file without a range to see its outline.")
        );
    }

    #[test]
    fn a_symbol_with_a_range_or_too_long_is_refused_before_reading() {
        let long = format!(
            r#"{{"file_path": "m.py", "symbol": "{}"}}"#,
            "x".repeat(5000)
        );
        let err = ReadArgs::from_json(&long).expect_err("too long");
        assert!(err.to_string().len() < 600, "{err}");
        let ranged = ReadArgs::from_json(r#"{"file_path": "m.py", "symbol": "f", "limit": 3}"#);
        assert!(
            ranged
                .expect_err("both")
                .to_string()
                .contains("got limit beside it")
        );
    }

    #[test]
    fn plain_text_has_no_outline_to_look_in() {
        let fs = MemFs::new();
        fs.add_file("a.txt", b"one\n");
        let meta = fs.stat("a.txt").expect("stat");
        let args = ReadArgs {
            file_path: "a.txt".into(),
            ..ReadArgs::default()
        };
        let err =
            read(&Config::default(), &fs, &args, "x", "a.txt", meta, b"one\n").expect_err("plain");
        assert!(err.to_string().starts_with("Error: a.txt has no outline"));
    }
}
