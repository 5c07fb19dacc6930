//! `read` arguments: a `0` offset or char offset means the first, a `0`
//! limit is refused.
//!
//! ```
//! use filetools_core::view::read::args::ReadArgs;
//! let args = ReadArgs::from_json(r#"{"file_path": "a.txt", "offset": "2", "limit": 1}"#).unwrap();
//! assert_eq!((args.offset, args.limit), (Some(2), Some(1)));
//! ```

use serde_json::{Map, Value};

use super::{boolean, known_keys, number, object, required_string, string};
use crate::answers::error::ToolError;
use crate::answers::quote::short_json;
use crate::answers::tool::Tool;
use crate::view::read::args::{MAX_READ_FILES, ReadArgs};

/// A `read` of one file, or of several in one answer (`file_paths`, or a
/// list given as `file_path`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadCall {
    /// One file, with its range, pages or symbol.
    One(ReadArgs),
    /// Several files, each shown as a plain read shows it.
    Many(Vec<String>),
}

impl ReadCall {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        let mut map = object(Tool::Read, text)?;
        if matches!(map.get("file_path"), Some(Value::Array(_))) {
            if map.get("file_paths").is_some_and(|v| !v.is_null()) {
                return Err(ToolError::DuplicateArgument {
                    tool: Tool::Read,
                    name: "file_paths",
                    alias: "file_path".to_owned(),
                });
            }
            if let Some(list) = map.remove("file_path") {
                map.insert("file_paths".to_owned(), list);
            }
        }
        let list = match map.remove("file_paths") {
            None | Some(Value::Null) => return ReadArgs::from_map(&map).map(Self::One),
            Some(list) => list,
        };
        known_keys(Tool::Read, &map)?;
        // `block: false` says nothing, as a strict schema's null does.
        let given = |value: &&Value| !value.is_null() && **value != Value::Bool(false);
        if let Some((name, _)) = map.iter().find(|(_, value)| given(value)) {
            return Err(ToolError::InvalidArgument {
                tool: Tool::Read,
                name: "file_paths",
                expected: "alone: read a range, pages or a symbol of one file in a call of its own",
                got: format!("file_paths with {name}"),
            });
        }
        paths(&list).map(Self::Many)
    }
}

// The error below names the cap in words.
const _: () = assert!(MAX_READ_FILES == 20);

/// The paths of `file_paths`: 1 to [`MAX_READ_FILES`] strings.
fn paths(list: &Value) -> Result<Vec<String>, ToolError> {
    let wrong = || ToolError::InvalidArgument {
        tool: Tool::Read,
        name: "file_paths",
        expected: "a list of 1 to 20 paths",
        got: short_json(list),
    };
    let Value::Array(items) = list else {
        return Err(wrong());
    };
    if items.is_empty() || items.len() > MAX_READ_FILES {
        return Err(wrong());
    }
    items
        .iter()
        .map(|item| item.as_str().map(str::to_owned).ok_or_else(wrong))
        .collect()
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
            block: boolean(Tool::Read, map, "block")?.unwrap_or(false),
            encoding: string(Tool::Read, map, "encoding")?,
        }
        .checked()
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
