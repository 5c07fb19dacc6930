//! `read` arguments: a `0` offset or char offset means the first, a `0`
//! limit is refused.
//!
//! ```
//! use filetools_core::tools::args::ReadArgs;
//! let args = ReadArgs::from_json(r#"{"file_path": "a.txt", "offset": "2", "limit": 1}"#).unwrap();
//! assert_eq!((args.offset, args.limit), (Some(2), Some(1)));
//! ```

use serde_json::{Map, Value};

use super::{Tool, known_keys, number, object, required_string, string};
use crate::answers::error::ToolError;

/// Longest `symbol` taken: names in outlines are cut at 80 characters, so a
/// path of them is never this long.
pub const MAX_SYMBOL_BYTES: usize = 1024;

/// Typed arguments of `read`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadArgs {
    /// The path as the model sent it.
    pub file_path: String,
    /// First line, 1-based.
    pub offset: Option<u64>,
    /// Maximum lines.
    pub limit: Option<u64>,
    /// 1-based character position within line `offset`.
    pub char_offset: Option<u64>,
    /// Pages of a PDF, `"3"` or `"3-7"`.
    pub pages: Option<String>,
    /// An outline entry whose lines to show, e.g. `"Decimal.__new__"`.
    pub symbol: Option<String>,
    /// The encoding to read a file without a BOM as, e.g. `"shift_jis"`.
    pub encoding: Option<String>,
}

impl ReadArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        Self::from_map(&object(Tool::Read, text)?)
    }

    /// Parses an already decoded JSON object.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, ToolError> {
        known_keys(Tool::Read, map)?;
        Self {
            file_path: required_string(Tool::Read, map, "file_path")?,
            offset: number(Tool::Read, map, "offset", 0)?,
            limit: number(Tool::Read, map, "limit", 1)?,
            char_offset: number(Tool::Read, map, "char_offset", 0)?,
            pages: pages(map)?,
            symbol: string(Tool::Read, map, "symbol")?,
            encoding: string(Tool::Read, map, "encoding")?,
        }
        .checked()
    }

    /// The page range asked for, `(first, last)`, 1-based.
    pub fn page_range(&self) -> Option<(u64, u64)> {
        self.pages.as_deref().and_then(parse_pages)
    }

    /// The same rules for typed arguments: a 0 offset or char offset means
    /// 1, a 0 limit is refused, `pages` must be a page or a range.
    pub fn checked(self) -> Result<Self, ToolError> {
        if let Some(pages) = &self.pages
            && parse_pages(pages).is_none()
        {
            return Err(ToolError::InvalidArgument {
                tool: Tool::Read,
                name: "pages",
                expected: "a page or range like \"3\" or \"3-7\"",
                got: format!("{pages:?}"),
            });
        }
        if let Some(symbol) = &self.symbol {
            let beside = [
                ("offset", self.offset.is_some()),
                ("limit", self.limit.is_some()),
                ("char_offset", self.char_offset.is_some()),
                ("pages", self.pages.is_some()),
            ];
            if let Some((name, _)) = beside.iter().find(|(_, given)| *given) {
                return Err(ToolError::InvalidArgument {
                    tool: Tool::Read,
                    name: "symbol",
                    expected: "given alone: it names the lines to show, as offset and limit do",
                    got: format!("{name} beside it"),
                });
            }
            if symbol.trim().is_empty() || symbol.len() > MAX_SYMBOL_BYTES {
                return Err(ToolError::InvalidArgument {
                    tool: Tool::Read,
                    name: "symbol",
                    expected: "an outline entry's name, e.g. \"Decimal.__new__\", of at most 1024 bytes",
                    got: format!("{symbol:?}"),
                });
            }
        }
        if self.limit == Some(0) {
            return Err(ToolError::InvalidArgument {
                tool: Tool::Read,
                name: "limit",
                expected: "an integer >= 1",
                got: "0".to_owned(),
            });
        }
        Ok(Self {
            offset: self.offset.map(|n| n.max(1)),
            char_offset: self.char_offset.map(|n| n.max(1)),
            ..self
        })
    }
}

/// `"3"` or `"3-7"` as `(first, last)`; `None` when malformed or backwards.
fn parse_pages(text: &str) -> Option<(u64, u64)> {
    let number = |s: &str| s.trim().parse::<u64>().ok().filter(|n| *n >= 1);
    match text.split_once('-') {
        Some((a, b)) => Some((number(a)?, number(b)?)).filter(|(a, b)| a <= b),
        None => number(text).map(|n| (n, n)),
    }
}

/// `pages` as sent: a string, or a single page as a number.
fn pages(map: &Map<String, Value>) -> Result<Option<String>, ToolError> {
    match map.get("pages") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(other) => Err(ToolError::InvalidArgument {
            tool: Tool::Read,
            name: "pages",
            expected: "a page or range like \"3\" or \"3-7\"",
            got: other.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ReadArgs, ToolError> {
        ReadArgs::from_json(text)
    }

    #[test]
    fn numbers_and_numeric_strings_are_accepted() {
        let args =
            parse(r#"{"file_path":"a","offset":" 12 ","limit":3.0,"char_offset":"7"}"#).unwrap();
        assert_eq!(args.offset, Some(12));
        assert_eq!(args.limit, Some(3));
        assert_eq!(args.char_offset, Some(7));
    }

    #[test]
    fn a_malformed_range_is_echoed_cut_to_its_first_characters() {
        let long = "x-".repeat(5000);
        for args in [
            serde_json::json!({"file_path": "a", "lines": long}),
            serde_json::json!({"file_path": "a", "pages": long}),
            serde_json::json!({"file_path": "a", "pages": [long]}),
        ] {
            let err = parse(&args.to_string())
                .and_then(ReadArgs::checked)
                .unwrap_err()
                .to_string();
            assert!(err.len() < 600, "{} bytes: {err}", err.len());
            assert!(err.contains(" chars)"), "{err}");
        }
    }

    #[test]
    fn pages_are_a_page_or_a_range() {
        assert_eq!(
            parse(r#"{"file_path":"a","pages":"3-7"}"#)
                .unwrap()
                .page_range(),
            Some((3, 7))
        );
        assert_eq!(
            parse(r#"{"file_path":"a","pages":4}"#)
                .unwrap()
                .page_range(),
            Some((4, 4))
        );
        for bad in [r#""7-3""#, r#""x""#, r#""0""#, "true"] {
            let text = format!(r#"{{"file_path":"a","pages":{bad}}}"#);
            assert!(
                matches!(
                    parse(&text),
                    Err(ToolError::InvalidArgument { name: "pages", .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn zero_offset_means_the_first_line() {
        assert_eq!(
            parse(r#"{"file_path":"a","offset":0}"#).unwrap().offset,
            Some(1)
        );
    }

    #[test]
    fn nulls_are_absent() {
        let args = parse(r#"{"file_path":"a","offset":null,"limit":null}"#).unwrap();
        assert_eq!((args.offset, args.limit), (None, None));
    }

    #[test]
    fn bad_numbers_are_refused_with_the_schema() {
        for (text, name) in [
            (r#"{"file_path":"a","offset":-1}"#, "offset"),
            (r#"{"file_path":"a","offset":"abc"}"#, "offset"),
            (r#"{"file_path":"a","offset":1.5}"#, "offset"),
            (r#"{"file_path":"a","limit":0}"#, "limit"),
            (r#"{"file_path":"a","limit":"-3"}"#, "limit"),
            (r#"{"file_path":"a","limit":true}"#, "limit"),
        ] {
            match parse(text) {
                Err(ToolError::InvalidArgument { name: got, .. }) => {
                    assert_eq!(got, name, "{text}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn missing_path_unknown_keys_and_non_objects_are_refused() {
        assert_eq!(
            parse(r#"{"offset":1}"#),
            Err(ToolError::MissingArgument {
                tool: Tool::Read,
                name: "file_path"
            })
        );
        assert_eq!(
            parse(r#"{"file_path":"a","colour":1}"#),
            Err(ToolError::UnknownArgument {
                tool: Tool::Read,
                name: "colour".into()
            })
        );
        assert!(matches!(
            parse("[1]"),
            Err(ToolError::ArgumentsNotObject { .. })
        ));
        assert!(matches!(
            parse("{"),
            Err(ToolError::ArgumentsNotObject { .. })
        ));
        assert!(matches!(
            parse(r#"{"file_path":5}"#),
            Err(ToolError::InvalidArgument {
                name: "file_path",
                ..
            })
        ));
    }
}
