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
use crate::answers::tool::Tool;
use crate::config::Config;
use crate::fs::host::{HostFs, Metadata};
use crate::memory::ledger::Observation;
use crate::text::decode::Decoder;
use crate::text::textfile::line_count;
use crate::view::image::read_all;
use crate::view::outline::Language;
use crate::view::outline::named::{Named, around, named, outline_of, outline_refusal};
use crate::view::read::args::ReadArgs;

/// How a read names its entry.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Lookup<'a> {
    /// By its name, e.g. `Decimal.__new__`.
    Name(&'a str),
    /// As the innermost entry that holds this line.
    Line(u64),
}

impl<'a> Lookup<'a> {
    /// The lookup `args` asks for, if any.
    pub fn of(args: &'a ReadArgs) -> Option<Self> {
        match (&args.symbol, args.block) {
            (Some(symbol), _) => Some(Self::Name(symbol)),
            (None, true) => Some(Self::Line(args.offset.unwrap_or(1))),
            (None, false) => None,
        }
    }
}

/// Reads the lines of the entry `lookup` names in `rel`; `head` is the
/// file's first bytes.
pub(crate) fn read<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    lookup: Lookup<'_>,
    rel: &str,
    meta: Metadata,
    head: &[u8],
) -> Result<(ToolResult, Observation), ToolError> {
    let path = &args.file_path;
    // Said before the file is read where its name and size tell.
    outline_refusal(
        config,
        (path, Tool::Read),
        Language::detect(rel, head),
        meta.size,
    )?;
    let bytes = read_all(fs, rel, path, config.chunk_bytes)?;
    let (_, text) = Decoder::whole(&bytes, super::given_encoding(args));
    let (_, symbols) = outline_of(config, (path, Tool::Read), rel, &text)?;
    let entry = match lookup {
        Lookup::Name(symbol) => named(&symbols, path, symbol),
        Lookup::Line(line) => around(&symbols, line).ok_or_else(|| SymbolError::NoBlock {
            path: path.clone(),
            line,
            total: line_count(&text),
        }),
    }
    .map_err(ToolError::Symbol)?;
    read_entry(config, fs, args, (rel, meta), &entry)
}

/// Reads the lines of `entry`, under a header with its name and range.
pub(crate) fn read_entry<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    (rel, meta): (&str, Metadata),
    entry: &Named,
) -> Result<(ToolResult, Observation), ToolError> {
    let (first, last) = (entry.start, entry.end);
    let ranged = ReadArgs {
        offset: Some(first),
        limit: Some(last - first + 1),
        symbol: None,
        block: false,
        ..args.clone()
    };
    let framing = Framing::Named {
        name: &entry.name,
        last,
    };
    let (mut result, seen) = read_framed(config, fs, &ranged, (rel, meta), None, framing)?;
    result.metadata["symbol"] = serde_json::Value::from(entry.name.as_str());
    Ok((result, seen))
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
            Lookup::Name(symbol),
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
        let err = read(
            &Config::default(),
            &fs,
            &args,
            Lookup::Name("x"),
            "a.txt",
            meta,
            b"one\n",
        )
        .expect_err("plain");
        assert!(err.to_string().starts_with("Error: a.txt has no outline"));
    }
}
