//! Arguments of the tools that change files: `write`, `edit` and `undo`.
//! An edit is either one `old_string`/`new_string` pair or a list of them
//! under `edits` (SPEC E7), never both.
//!
//! ```
//! use filetools_core::change::args::EditArgs;
//! let args = EditArgs::from_json(
//!     r#"{"file_path": "a.rs", "old_string": "x", "new_string": "y", "replace_all": "true"}"#,
//! ).unwrap();
//! assert_eq!(args.edits.len(), 1);
//! assert!(args.edits[0].replace_all);
//! ```

use serde_json::{Map, Value};

use super::{boolean, known_keys, number, object, required_string, string};
use crate::answers::error::ToolError;
use crate::answers::tool::Tool;
use crate::change::args::{
    EditArgs, EditOp, MarkArgs, Placement, ReplaceArgs, RewindArgs, SymbolEditArgs, UndoArgs,
    WriteArgs, checked_version,
};
use crate::view::read::args::checked_symbol;

/// An `edit`: of text found by `old_string`, or of an outline entry by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditCall {
    /// Replacements of text.
    Text(EditArgs),
    /// An entry replaced, deleted, or given lines before or after it.
    Symbol(SymbolEditArgs),
}

impl EditCall {
    /// Parses raw JSON arguments: by symbol when `symbol` is given.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        let map = object(Tool::Edit, text)?;
        if map.get("symbol").is_none_or(Value::is_null) {
            // `position: "replace"` says nothing: it is the default a
            // strict schema makes the model fill in.
            let placed = map
                .get("position")
                .is_some_and(|v| !v.is_null() && v.as_str() != Some("replace"));
            if placed {
                return Err(ToolError::InvalidArgument {
                    tool: Tool::Edit,
                    name: "position",
                    expected: "given with symbol: where the text goes beside that entry",
                    got: "position without symbol".to_owned(),
                });
            }
            return EditArgs::from_map(&map).map(Self::Text);
        }
        SymbolEditArgs::from_map(&map).map(Self::Symbol)
    }
}

impl SymbolEditArgs {
    /// Parses an already decoded JSON object that names a `symbol`.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, ToolError> {
        known_keys(Tool::Edit, map)?;
        let beside = ["old_string", "edits", "replace_all"]
            .into_iter()
            .find(|key| {
                map.get(*key)
                    .is_some_and(|v| !v.is_null() && *v != Value::Bool(false))
            });
        if let Some(name) = beside {
            return Err(ToolError::InvalidArgument {
                tool: Tool::Edit,
                name: "symbol",
                expected: "given without old_string, edits or replace_all: it names the text to change",
                got: format!("{name} beside it"),
            });
        }
        let symbol = required_string(Tool::Edit, map, "symbol")?;
        checked_symbol(Tool::Edit, &symbol)?;
        let position = match string(Tool::Edit, map, "position")?.as_deref() {
            None | Some("replace") => Placement::Replace,
            Some("before") => Placement::Before,
            Some("after") => Placement::After,
            Some(other) => {
                return Err(ToolError::InvalidArgument {
                    tool: Tool::Edit,
                    name: "position",
                    expected: "\"replace\", \"before\" or \"after\"",
                    got: format!("{other:?}"),
                });
            }
        };
        let new_string =
            string(Tool::Edit, map, "new_string")?.ok_or(ToolError::MissingArgument {
                tool: Tool::Edit,
                name: "new_string",
            })?;
        if position != Placement::Replace && new_string.trim().is_empty() {
            return Err(ToolError::InvalidArgument {
                tool: Tool::Edit,
                name: "new_string",
                expected: "the lines to put beside the entry (empty only to delete it, with position \"replace\")",
                got: "nothing".to_owned(),
            });
        }
        Ok(Self {
            file_path: required_string(Tool::Edit, map, "file_path")?,
            symbol,
            new_string,
            position,
            encoding: string(Tool::Edit, map, "encoding")?,
            expect: expect(Tool::Edit, map)?,
        })
    }
}

impl WriteArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        let map = object(Tool::Write, text)?;
        known_keys(Tool::Write, &map)?;
        Ok(Self {
            file_path: required_string(Tool::Write, &map, "file_path")?,
            content: required_string(Tool::Write, &map, "content")?,
            encoding: string(Tool::Write, &map, "encoding")?,
            expect: expect(Tool::Write, &map)?,
        })
    }
}

impl UndoArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        let map = object(Tool::Undo, text)?;
        known_keys(Tool::Undo, &map)?;
        Ok(Self {
            file_path: required_string(Tool::Undo, &map, "file_path")?,
            expect: expect(Tool::Undo, &map)?,
        })
    }
}

impl EditArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        Self::from_map(&object(Tool::Edit, text)?)
    }

    /// Parses an already decoded JSON object.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, ToolError> {
        known_keys(Tool::Edit, map)?;
        let file_path = required_string(Tool::Edit, map, "file_path")?;
        // `replace_all: false` says nothing: a strict schema makes the
        // model fill every field, and false is its default.
        let single = ["old_string", "new_string", "replace_all"]
            .iter()
            .any(|key| {
                map.get(*key)
                    .is_some_and(|v| !v.is_null() && *v != Value::Bool(false))
            });
        let edits = match map.get("edits") {
            None | Some(Value::Null) => vec![op(map, &[])?],
            Some(_) if single => {
                return Err(ToolError::InvalidArgument {
                    tool: Tool::Edit,
                    name: "edits",
                    expected: "given alone, without old_string/new_string beside it",
                    got: "both".to_owned(),
                });
            }
            Some(Value::Array(items)) if !items.is_empty() => items
                .iter()
                .map(|item| match item {
                    Value::Object(map) => op(&op_aliases(map.clone())?, OP_KEYS),
                    _ => Err(not_a_list()),
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(not_a_list()),
        };
        let encoding = string(Tool::Edit, map, "encoding")?;
        Ok(Self {
            file_path,
            edits,
            encoding,
            expect: expect(Tool::Edit, map)?,
        })
    }
}

impl ReplaceArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        let map = object(Tool::Replace, text)?;
        known_keys(Tool::Replace, &map)?;
        let tool = Tool::Replace;
        let args = Self {
            pattern: required_string(tool, &map, "pattern")?,
            replacement: string(tool, &map, "replacement")?.ok_or(ToolError::MissingArgument {
                tool,
                name: "replacement",
            })?,
            path: string(tool, &map, "path")?,
            glob: string(tool, &map, "glob")?,
            regex: boolean(tool, &map, "regex")?.unwrap_or(false),
            apply: boolean(tool, &map, "apply")?.unwrap_or(false),
            expected_count: number(tool, &map, "expected_count", 1)?,
            occurrences: occurrences(&map)?,
            no_ignore: boolean(tool, &map, "no_ignore")?.unwrap_or(false),
            hidden: boolean(tool, &map, "hidden")?.unwrap_or(false),
        };
        if args.pattern.is_empty() {
            return Err(ToolError::InvalidArgument {
                tool,
                name: "pattern",
                expected: "the text to replace, not empty",
                got: "\"\"".to_owned(),
            });
        }
        if args.apply && args.expected_count.is_none() {
            return Err(ToolError::InvalidArgument {
                tool,
                name: "expected_count",
                expected: "given with apply: the number of occurrences the dry run listed (or of those in occurrences)",
                got: "nothing".to_owned(),
            });
        }
        if !args.apply && (args.expected_count.is_some() || args.occurrences.is_some()) {
            return Err(ToolError::InvalidArgument {
                tool,
                name: "apply",
                expected: "true when expected_count or occurrences is given: they say what to change",
                got: "a dry run".to_owned(),
            });
        }
        Ok(args)
    }
}

impl MarkArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        let map = object(Tool::Mark, text)?;
        known_keys(Tool::Mark, &map)?;
        Ok(Self {
            changed: paths(Tool::Mark, &map)?,
        })
    }
}

impl RewindArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        let tool = Tool::Rewind;
        let map = object(tool, text)?;
        known_keys(tool, &map)?;
        Ok(Self {
            mark: number(tool, &map, "mark", 1)?
                .ok_or(ToolError::MissingArgument { tool, name: "mark" })?,
            dry_run: boolean(tool, &map, "dry_run")?.unwrap_or(false),
            changed: paths(tool, &map)?,
        })
    }
}

/// The `changed` argument: a list of paths, perhaps empty.
fn paths(tool: Tool, map: &Map<String, Value>) -> Result<Vec<String>, ToolError> {
    let wrong = |got: &Value| ToolError::InvalidArgument {
        tool,
        name: "changed",
        expected: "a list of paths, e.g. [\"src/main.rs\"]",
        got: crate::answers::quote::short_json(got),
    };
    match map.get("changed") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(str::to_owned).ok_or_else(|| wrong(item)))
            .collect(),
        Some(other) => Err(wrong(other)),
    }
}

/// The `occurrences` argument: the dry run's numbers, at least one.
fn occurrences(map: &Map<String, Value>) -> Result<Option<Vec<u64>>, ToolError> {
    let wrong = |got: &Value| ToolError::InvalidArgument {
        tool: Tool::Replace,
        name: "occurrences",
        expected: "a non-empty list of the dry run's occurrence numbers, e.g. [1, 3]",
        got: crate::answers::quote::short_json(got),
    };
    match map.get("occurrences") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) if !items.is_empty() => items
            .iter()
            .map(|item| item.as_u64().filter(|n| *n >= 1).ok_or_else(|| wrong(item)))
            .collect::<Result<Vec<u64>, _>>()
            .map(Some),
        Some(other) => Err(wrong(other)),
    }
}

/// The `expect` argument, checked to be a version.
fn expect(tool: Tool, map: &Map<String, Value>) -> Result<Option<String>, ToolError> {
    let given = string(tool, map, "expect")?;
    checked_version(tool, given.as_deref())?;
    Ok(given)
}

/// One item of `edits` with its aliases renamed.
fn op_aliases(mut map: Map<String, Value>) -> Result<Map<String, Value>, ToolError> {
    for (alias, canonical) in super::alias::EDIT_OP_ALIASES {
        if let Some(value) = map.remove(*alias) {
            if map.get(*canonical).is_some_and(|v| *v != value) {
                return Err(ToolError::DuplicateArgument {
                    tool: Tool::Edit,
                    name: canonical,
                    alias: (*alias).to_owned(),
                });
            }
            map.insert((*canonical).to_owned(), value);
        }
    }
    Ok(map)
}

fn not_a_list() -> ToolError {
    ToolError::InvalidArgument {
        tool: Tool::Edit,
        name: "edits",
        expected: "a non-empty list of {old_string, new_string, replace_all?} objects",
        got: "something else".to_owned(),
    }
}

/// The keys of one item of `edits`.
const OP_KEYS: &[&str] = &["old_string", "new_string", "replace_all"];

/// One `{old_string, new_string, replace_all?}` object; `allowed` lists the
/// keys to check (none for the top level, already checked).
fn op(map: &Map<String, Value>, allowed: &[&str]) -> Result<EditOp, ToolError> {
    if let Some(name) = map
        .keys()
        .find(|k| !allowed.is_empty() && !allowed.contains(&k.as_str()))
    {
        return Err(ToolError::UnknownArgument {
            tool: Tool::Edit,
            name: name.clone(),
        });
    }
    Ok(EditOp {
        old_string: required_string(Tool::Edit, map, "old_string")?,
        new_string: string(Tool::Edit, map, "new_string")?.ok_or(ToolError::MissingArgument {
            tool: Tool::Edit,
            name: "new_string",
        })?,
        replace_all: boolean(Tool::Edit, map, "replace_all")?.unwrap_or(false),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pair_or_a_list() {
        let one =
            EditArgs::from_json(r#"{"file_path":"a","old_string":"x","new_string":"y"}"#).unwrap();
        assert_eq!(
            one.edits,
            vec![EditOp {
                old_string: "x".into(),
                new_string: "y".into(),
                replace_all: false
            }]
        );
        let list = EditArgs::from_json(
            r#"{"file_path":"a","edits":[{"old_string":"x","new_string":"y"},{"old_string":"p","new_string":"q","replace_all":true}]}"#,
        )
        .unwrap();
        assert_eq!(list.edits.len(), 2);
        assert!(list.edits[1].replace_all);
    }

    #[test]
    fn both_forms_at_once_or_an_empty_list_are_refused() {
        let both = EditArgs::from_json(
            r#"{"file_path":"a","old_string":"x","new_string":"y","edits":[{"old_string":"x","new_string":"y"}]}"#,
        );
        assert!(matches!(
            both,
            Err(ToolError::InvalidArgument { name: "edits", .. })
        ));
        let empty = EditArgs::from_json(r#"{"file_path":"a","edits":[]}"#);
        assert!(matches!(
            empty,
            Err(ToolError::InvalidArgument { name: "edits", .. })
        ));
    }

    #[test]
    fn missing_strings_are_named() {
        let err = EditArgs::from_json(r#"{"file_path":"a","old_string":"x"}"#).unwrap_err();
        assert_eq!(
            err,
            ToolError::MissingArgument {
                tool: Tool::Edit,
                name: "new_string"
            }
        );
        let err = WriteArgs::from_json(r#"{"file_path":"a"}"#).unwrap_err();
        assert_eq!(
            err,
            ToolError::MissingArgument {
                tool: Tool::Write,
                name: "content"
            }
        );
    }

    #[test]
    fn replace_all_must_be_a_boolean() {
        let err = EditArgs::from_json(
            r#"{"file_path":"a","old_string":"x","new_string":"y","replace_all":"yes"}"#,
        )
        .unwrap_err();
        assert!(matches!(
            err,
            ToolError::InvalidArgument {
                name: "replace_all",
                ..
            }
        ));
    }
}
