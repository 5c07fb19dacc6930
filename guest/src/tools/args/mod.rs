//! The model's raw arguments, checked (SPEC R17, as far as each tool needs
//! today): numbers may arrive as JSON numbers or numeric strings, booleans as
//! `true`/`"true"`, `null` means absent; anything malformed is refused with
//! the tool's schema, never guessed.
//!
//! ```
//! use filetools_core::answers::tool::Tool;
//! use filetools_core::change::args::WriteArgs;
//! let args = WriteArgs::from_json(r#"{"file_path": "a.txt", "content": "hi\n"}"#).unwrap();
//! assert_eq!(args.content, "hi\n");
//! assert_eq!(Tool::from_name("edit"), Some(Tool::Edit));
//! ```

mod alias;
pub(crate) mod change;
pub(crate) mod read;
mod search;

use serde_json::{Map, Value};

use crate::answers::error::ToolError;
use crate::answers::quote::short_json;
use crate::answers::tool::Tool;

/// The argument names the tool accepts.
fn arguments(tool: Tool) -> &'static [&'static str] {
    match tool {
        Tool::Read => &[
            "file_path",
            "file_paths",
            "offset",
            "limit",
            "char_offset",
            "pages",
            "symbol",
            "block",
            "encoding",
        ],
        Tool::Write => &["file_path", "content", "encoding", "expect"],
        Tool::Edit => &[
            "file_path",
            "old_string",
            "new_string",
            "replace_all",
            "edits",
            "symbol",
            "position",
            "encoding",
            "expect",
        ],
        Tool::Undo => &["file_path", "expect"],
        Tool::Grep => &[
            "pattern",
            "path",
            "glob",
            "type",
            "output_mode",
            "-A",
            "-B",
            "-C",
            "-i",
            "-n",
            "multiline",
            "head_limit",
            "offset",
            "no_ignore",
            "hidden",
        ],
        Tool::Find => &[
            "pattern",
            "path",
            "head_limit",
            "offset",
            "no_ignore",
            "hidden",
        ],
        Tool::Replace => &[
            "pattern",
            "replacement",
            "path",
            "glob",
            "regex",
            "apply",
            "expected_count",
            "occurrences",
            "no_ignore",
            "hidden",
        ],
        Tool::Mark => &["changed"],
        Tool::Rewind => &["mark", "dry_run", "changed"],
    }
}

/// `text` parsed as a JSON object (blank text is `{}`), aliases renamed.
pub(crate) fn object(tool: Tool, text: &str) -> Result<Map<String, Value>, ToolError> {
    let text = if text.trim().is_empty() { "{}" } else { text };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => alias::normalise(tool, map),
        Ok(other) => Err(ToolError::ArgumentsNotObject {
            tool,
            detail: format!("got {}", kind_of(&other)),
        }),
        Err(err) => Err(ToolError::ArgumentsNotObject {
            tool,
            detail: err.to_string(),
        }),
    }
}

/// The file the raw JSON `arguments` of the call `name` name, under any of
/// its aliases (`path`, `filePath`, …); none for a tool of another set, or
/// arguments that are not a JSON object.
pub fn file_path(name: &str, arguments: &str) -> Option<String> {
    let map = object(Tool::from_name(name)?, arguments).ok()?;
    match map.get("file_path") {
        Some(Value::String(path)) if !path.is_empty() => Some(path.clone()),
        _ => None,
    }
}

/// Refuses keys `tool` does not take.
pub(crate) fn known_keys(tool: Tool, map: &Map<String, Value>) -> Result<(), ToolError> {
    match map.keys().find(|k| !arguments(tool).contains(&k.as_str())) {
        Some(name) => Err(ToolError::UnknownArgument {
            tool,
            name: name.clone(),
        }),
        None => Ok(()),
    }
}

/// A string argument; `None` when absent or `null`.
pub(crate) fn string(
    tool: Tool,
    map: &Map<String, Value>,
    name: &'static str,
) -> Result<Option<String>, ToolError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(ToolError::InvalidArgument {
            tool,
            name,
            expected: "a string",
            got: short_json(other),
        }),
    }
}

/// A required string argument.
pub(crate) fn required_string(
    tool: Tool,
    map: &Map<String, Value>,
    name: &'static str,
) -> Result<String, ToolError> {
    string(tool, map, name)?.ok_or(ToolError::MissingArgument { tool, name })
}

/// A boolean argument from `true`/`false` or the strings `"true"`/`"false"`.
pub(crate) fn boolean(
    tool: Tool,
    map: &Map<String, Value>,
    name: &'static str,
) -> Result<Option<bool>, ToolError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(Value::String(s)) if s.trim() == "true" => Ok(Some(true)),
        Some(Value::String(s)) if s.trim() == "false" => Ok(Some(false)),
        Some(other) => Err(ToolError::InvalidArgument {
            tool,
            name,
            expected: "true or false",
            got: short_json(other),
        }),
    }
}

/// A whole number argument at least `min`, from a number or numeric string.
pub(crate) fn number(
    tool: Tool,
    map: &Map<String, Value>,
    name: &'static str,
    min: u64,
) -> Result<Option<u64>, ToolError> {
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
        _ => Err(ToolError::InvalidArgument {
            tool,
            name,
            expected: "an integer >= 1",
            got: short_json(value),
        }),
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
    use super::file_path;

    #[test]
    fn the_file_a_call_names_is_found_under_its_aliases() {
        let edit = r#"{"path": "a.rs", "old_string": "a", "new_string": "b"}"#;
        assert_eq!(file_path("edit", edit).as_deref(), Some("a.rs"));
        assert_eq!(
            file_path("read", r#"{"filePath": "b.txt"}"#).as_deref(),
            Some("b.txt")
        );
    }

    #[test]
    fn no_file_when_the_arguments_or_the_tool_are_not_ours() {
        assert_eq!(file_path("read", "not json"), None);
        assert_eq!(file_path("read", r#"{"file_path": ""}"#), None);
        assert_eq!(file_path("view", r#"{"file_path": "a"}"#), None);
    }
}
