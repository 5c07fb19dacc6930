//! Argument aliases (SPEC R17): the names models reach for instead of the
//! schema's — `filePath`, `path`, `file`; `start_line`/`end_line`, `line`,
//! `lines`; `old_str`/`new_str`, `oldString`; `contents`, `text`, … — are
//! mapped onto the canonical names before the arguments are checked. The
//! same argument given twice under two names is refused, never guessed.
//!
//! ```
//! use filetools_core::view::read::args::ReadArgs;
//! let args = ReadArgs::from_json(r#"{"path": "a.txt", "start_line": 10, "end_line": "19"}"#).unwrap();
//! assert_eq!((args.offset, args.limit), (Some(10), Some(10)));
//! ```

use serde_json::{Map, Value};

use super::number;
use crate::answers::error::ToolError;
use crate::answers::tool::Tool;

/// Other names of `file_path`, for every tool.
const PATH_ALIASES: &[&str] = &[
    "filePath",
    "filepath",
    "path",
    "file",
    "fileName",
    "filename",
    "file_name",
];

/// `(alias, canonical)` pairs of one tool, besides the path.
fn aliases(tool: Tool) -> &'static [(&'static str, &'static str)] {
    match tool {
        // Line ranges (`start_line`, `end_line`, `line`, `lines`) are mapped
        // by `line_range`.
        Tool::Read => &[
            ("charOffset", "char_offset"),
            ("page", "pages"),
            ("page_range", "pages"),
            ("column", "char_offset"),
            ("max_lines", "limit"),
            ("maxLines", "limit"),
            ("filePaths", "file_paths"),
            ("paths", "file_paths"),
            ("files", "file_paths"),
        ],
        Tool::Write => &[
            ("contents", "content"),
            ("text", "content"),
            ("file_text", "content"),
            ("fileText", "content"),
            ("data", "content"),
        ],
        Tool::Edit => EDIT_OP_ALIASES,
        Tool::Undo => &[],
        Tool::Grep => &[
            ("file_path", "path"),
            ("filePath", "path"),
            ("directory", "path"),
            ("dir", "path"),
            ("regex", "pattern"),
            ("query", "pattern"),
            ("include", "glob"),
            ("mode", "output_mode"),
            ("outputMode", "output_mode"),
            ("ignore_case", "-i"),
            ("case_insensitive", "-i"),
            ("caseInsensitive", "-i"),
            ("noIgnore", "no_ignore"),
            ("before", "-B"),
            ("after", "-A"),
            ("context", "-C"),
            ("headLimit", "head_limit"),
            ("limit", "head_limit"),
        ],
        Tool::Find => &[
            ("file_path", "path"),
            ("filePath", "path"),
            ("directory", "path"),
            ("dir", "path"),
            ("glob", "pattern"),
            ("noIgnore", "no_ignore"),
            ("headLimit", "head_limit"),
            ("limit", "head_limit"),
        ],
        Tool::Replace => &[
            ("file_path", "path"),
            ("filePath", "path"),
            ("directory", "path"),
            ("dir", "path"),
            ("include", "glob"),
            ("search", "pattern"),
            ("old_string", "pattern"),
            ("new_string", "replacement"),
            ("with", "replacement"),
            ("expectedCount", "expected_count"),
            ("count", "expected_count"),
            ("noIgnore", "no_ignore"),
        ],
        Tool::Mark => &[("paths", "changed")],
        Tool::Rewind => &[
            ("dryRun", "dry_run"),
            ("turn", "mark"),
            ("paths", "changed"),
        ],
    }
}

/// Aliases inside one edit, also used for the items of `edits`.
pub(crate) const EDIT_OP_ALIASES: &[(&str, &str)] = &[
    ("old_str", "old_string"),
    ("oldString", "old_string"),
    ("old", "old_string"),
    ("old_text", "old_string"),
    ("search", "old_string"),
    ("new_str", "new_string"),
    ("newString", "new_string"),
    ("new", "new_string"),
    ("new_text", "new_string"),
    ("replace", "new_string"),
    ("replaceAll", "replace_all"),
    ("all", "replace_all"),
];

/// Moves `alias` to `canonical` in `map`; refuses when both are given with
/// different values.
fn rename(
    tool: Tool,
    map: &mut Map<String, Value>,
    alias: &str,
    canonical: &'static str,
) -> Result<(), ToolError> {
    let Some(value) = map.remove(alias) else {
        return Ok(());
    };
    match map.get(canonical) {
        Some(existing) if !existing.is_null() && *existing != value => {
            Err(ToolError::DuplicateArgument {
                tool,
                name: canonical,
                alias: alias.to_owned(),
            })
        }
        _ => {
            map.insert(canonical.to_owned(), value);
            Ok(())
        }
    }
}

/// `map` with every alias of `tool` under its canonical name.
pub(crate) fn normalise(
    tool: Tool,
    mut map: Map<String, Value>,
) -> Result<Map<String, Value>, ToolError> {
    // The search tools take a `path` of their own.
    if !matches!(tool, Tool::Grep | Tool::Find | Tool::Replace) {
        for alias in PATH_ALIASES {
            rename(tool, &mut map, alias, "file_path")?;
        }
    }
    if tool == Tool::Read {
        line_range(&mut map)?;
    }
    for (alias, canonical) in aliases(tool) {
        rename(tool, &mut map, alias, canonical)?;
    }
    Ok(map)
}

/// `end_line` (with `start_line`) and `lines` ("10-20", `[10, 20]` or a
/// count) become `offset` and `limit`.
fn line_range(map: &mut Map<String, Value>) -> Result<(), ToolError> {
    for alias in ["startLine", "start_line", "line", "from"] {
        rename(Tool::Read, map, alias, "offset")?;
    }
    for end_name in ["end_line", "endLine", "to"] {
        if let Some(end) = map.remove(end_name) {
            let mut probe = Map::new();
            probe.insert("end_line".to_owned(), end);
            let end = number(Tool::Read, &probe, "end_line", 1)?.unwrap_or(1);
            let start = number(Tool::Read, map, "offset", 0)?.unwrap_or(1).max(1);
            if end < start {
                return Err(ToolError::InvalidArgument {
                    tool: Tool::Read,
                    name: "end_line",
                    expected: "an integer >= the start line",
                    got: end.to_string(),
                });
            }
            let limit = Value::from(end - start + 1);
            map.insert("offset".to_owned(), Value::from(start));
            rename_value(map, "limit", limit, end_name)?;
        }
    }
    if let Some(lines) = map.remove("lines") {
        let range = match &lines {
            Value::String(text) => text
                .split_once('-')
                .map(|(a, b)| (a.trim().to_owned(), b.trim().to_owned())),
            Value::Array(items) if items.len() == 2 => {
                Some((items[0].to_string(), items[1].to_string()))
            }
            _ => None,
        };
        match range {
            Some((a, b)) => {
                let (start, end) = match (
                    a.trim_matches('"').parse::<u64>(),
                    b.trim_matches('"').parse::<u64>(),
                ) {
                    (Ok(start), Ok(end)) if start <= end => (start.max(1), end),
                    _ => {
                        return Err(ToolError::InvalidArgument {
                            tool: Tool::Read,
                            name: "lines",
                            expected: "a range like \"10-20\"",
                            got: lines.to_string(),
                        });
                    }
                };
                rename_value(map, "offset", Value::from(start), "lines")?;
                rename_value(map, "limit", Value::from(end + 1 - start), "lines")?;
            }
            None => rename_value(map, "limit", lines, "lines")?,
        }
    }
    Ok(())
}

fn rename_value(
    map: &mut Map<String, Value>,
    canonical: &'static str,
    value: Value,
    alias: &str,
) -> Result<(), ToolError> {
    map.insert(alias.to_owned(), value);
    rename(Tool::Read, map, alias, canonical)
}

#[cfg(test)]
mod tests {
    use crate::answers::error::ToolError;
    use crate::change::args::{EditArgs, WriteArgs};
    use crate::view::read::args::ReadArgs;

    #[test]
    fn path_aliases_work_for_every_tool() {
        assert_eq!(
            ReadArgs::from_json(r#"{"filePath": "a"}"#)
                .unwrap()
                .file_path,
            "a"
        );
        assert_eq!(
            WriteArgs::from_json(r#"{"path": "a", "contents": "x"}"#)
                .unwrap()
                .content,
            "x"
        );
        let edit = EditArgs::from_json(
            r#"{"file": "a", "old_str": "x", "new_str": "y", "replaceAll": true}"#,
        )
        .unwrap();
        assert_eq!(
            (edit.edits[0].old_string.as_str(), edit.edits[0].replace_all),
            ("x", true)
        );
        let list = EditArgs::from_json(
            r#"{"file_path": "a", "edits": [{"oldString": "x", "newString": "y"}]}"#,
        )
        .unwrap();
        assert_eq!(list.edits[0].new_string, "y");
    }

    #[test]
    fn line_ranges_become_offset_and_limit() {
        let range = |text: &str| {
            let args = ReadArgs::from_json(text).unwrap();
            (args.offset, args.limit)
        };
        assert_eq!(
            range(r#"{"file_path": "a", "lines": "10-20"}"#),
            (Some(10), Some(11))
        );
        assert_eq!(
            range(r#"{"file_path": "a", "lines": [5, 6]}"#),
            (Some(5), Some(2))
        );
        assert_eq!(
            range(r#"{"file_path": "a", "lines": 30}"#),
            (None, Some(30))
        );
        assert_eq!(range(r#"{"file_path": "a", "line": 7}"#), (Some(7), None));
        assert_eq!(
            range(r#"{"file_path": "a", "end_line": 5}"#),
            (Some(1), Some(5))
        );
    }

    #[test]
    fn the_same_argument_twice_is_refused() {
        let err = ReadArgs::from_json(r#"{"file_path": "a", "path": "b"}"#).unwrap_err();
        assert!(
            matches!(
                err,
                ToolError::DuplicateArgument {
                    name: "file_path",
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(ReadArgs::from_json(r#"{"file_path": "a", "path": "a"}"#).is_ok());
        let backwards =
            ReadArgs::from_json(r#"{"file_path": "a", "start_line": 9, "end_line": 3}"#);
        assert!(backwards.is_err());
    }
}
