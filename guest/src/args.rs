//! Checks the model's raw `read` arguments (SPEC R17, as far as `read` needs
//! today): numbers may arrive as JSON numbers or numeric strings, a `0` offset
//! means the first line, `null` means absent; negative, fractional, zero-limit
//! or non-numeric values are refused with the schema, never guessed.
//!
//! ```
//! use filetools_core::args::ReadArgs;
//! let args = ReadArgs::from_json(r#"{"file_path": "a.txt", "offset": "2", "limit": 1}"#).unwrap();
//! assert_eq!((args.offset, args.limit), (Some(2), Some(1)));
//! ```

use serde_json::{Map, Value};

use crate::error::ToolError;

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
}

/// Argument names `read` accepts.
const READ_ARGUMENTS: [&str; 4] = ["file_path", "offset", "limit", "char_offset"];

impl ReadArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        let value: Value = serde_json::from_str(if text.trim().is_empty() { "{}" } else { text })
            .map_err(|err| ToolError::ArgumentsNotObject {
            detail: err.to_string(),
        })?;
        match value {
            Value::Object(map) => Self::from_map(&map),
            other => Err(ToolError::ArgumentsNotObject {
                detail: format!("got {}", kind_of(&other)),
            }),
        }
    }

    /// Parses an already decoded JSON object.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, ToolError> {
        if let Some(name) = map.keys().find(|k| !READ_ARGUMENTS.contains(&k.as_str())) {
            return Err(ToolError::UnknownArgument { name: name.clone() });
        }
        let file_path = match map.get("file_path") {
            Some(Value::String(path)) => path.clone(),
            None | Some(Value::Null) => {
                return Err(ToolError::MissingArgument { name: "file_path" });
            }
            Some(other) => {
                return Err(ToolError::InvalidArgument {
                    name: "file_path",
                    expected: "a string",
                    got: other.to_string(),
                });
            }
        };
        Self {
            file_path,
            offset: number(map, "offset", 0)?,
            limit: number(map, "limit", 1)?,
            char_offset: number(map, "char_offset", 0)?,
        }
        .checked()
    }

    /// The same rules for typed arguments: a 0 offset or char offset means
    /// 1, a 0 limit is refused.
    pub fn checked(self) -> Result<Self, ToolError> {
        if self.limit == Some(0) {
            return Err(ToolError::InvalidArgument {
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

/// A whole number argument at least `min`, from a number or numeric string.
fn number(
    map: &Map<String, Value>,
    name: &'static str,
    min: u64,
) -> Result<Option<u64>, ToolError> {
    let expected = "an integer >= 1";
    let invalid = |value: &Value| ToolError::InvalidArgument {
        name,
        expected,
        got: value.to_string(),
    };
    let value = match map.get(name) {
        None | Some(Value::Null) => return Ok(None),
        Some(value) => value,
    };
    let parsed = match value {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15)
                .map(|f| {
                    #[expect(clippy::cast_sign_loss, reason = "checked non-negative above")]
                    let whole = f as u64;
                    whole
                })
        }),
        Value::String(s) => {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                None
            } else {
                s.parse::<u64>().ok()
            }
        }
        _ => None,
    };
    match parsed {
        Some(n) if n >= min => Ok(Some(n)),
        _ => Err(invalid(value)),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
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
            Err(ToolError::MissingArgument { name: "file_path" })
        );
        assert_eq!(
            parse(r#"{"file_path":"a","colour":1}"#),
            Err(ToolError::UnknownArgument {
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
