//! Anthropic's client-side text editor, `str_replace_based_edit_tool`
//! (`text_editor_20250728`; `undo_edit` of the older versions too), onto
//! the core: `view` is `read` (a `view_range` `[start, end]`, `-1` for the
//! end, becomes offset and limit; `max_characters` holds the output
//! budget), `create` is `write`, `str_replace` is a one-edit `edit`,
//! `insert` is [`crate::change::insert`] (the text as `insert_text` or, as the
//! documentation has it, `new_str`), `undo_edit` is `undo`.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("a.txt", b"alpha\nbeta\ngamma\n");
//! let mut session = Session::open(r#"{"tools": "text-editor"}"#, fs).unwrap();
//! let tool = "str_replace_based_edit_tool";
//! let result = session.call(tool, r#"{"command": "view", "path": "a.txt", "view_range": [2, -1]}"#);
//! assert_eq!(result.text(), "2\tbeta\n3\tgamma\n[lines 2-3 of 3; end of file]\n[version dbd8b82c21a8f5af-17]");
//! let result = session.call(tool, r#"{"command": "str_replace", "path": "a.txt", "old_str": "beta", "new_str": "BETA"}"#);
//! assert!(!result.is_error, "{}", result.text());
//! ```

use serde_json::{Value, json};

use super::args::{Args, int_of};
use super::dialect::Dialect;
use crate::answers::error::ToolError;
use crate::answers::quote::short_json;
use crate::answers::result::ToolResult;
use crate::change::args::{EditArgs, EditOp, UndoArgs, WriteArgs};
use crate::change::insert;
use crate::config::Config;
use crate::fs::host::HostFs;
use crate::paths::repair::Lookup;
use crate::tools::definitions::{
    Annotations, Definition, answers, change_output, expect_property, read_output,
};
use crate::tools::schema::Format;
use crate::tools::session::Session;
use crate::view::read::args::ReadArgs;

/// The tool's name.
pub const NAME: &str = "str_replace_based_edit_tool";

/// The tool type of the API version whose shape this follows.
pub const TYPE: &str = "text_editor_20250728";

const TAKES: &str = "{command: \"view\" | \"create\" | \"str_replace\" | \"insert\" | \"undo_edit\", path: string, view_range?: [start, end], file_text?: string, old_str?: string, new_str?: string, insert_line?: integer, insert_text?: string, expect?: string}";

const ARGUMENTS: [&str; 9] = [
    "command",
    "path",
    "view_range",
    "file_text",
    "old_str",
    "new_str",
    "insert_line",
    "insert_text",
    "expect",
];

/// Runs one call of the text editor.
pub fn call<F: HostFs>(session: &mut Session<F>, arguments: &str) -> ToolResult {
    let result = match parse(arguments) {
        Ok(command) => run(session, command),
        Err(err) => session.run(|_| Err(err)),
    };
    Dialect::TextEditor.translate(result)
}

/// A checked command.
enum Command {
    View(ReadArgs),
    Create(WriteArgs),
    Replace(EditArgs),
    Insert {
        path: String,
        line: u64,
        text: String,
        expect: Option<String>,
    },
    Undo(UndoArgs),
}

fn parse(arguments: &str) -> Result<Command, ToolError> {
    let args = Args::parse(NAME, TAKES, arguments)?;
    args.only(&ARGUMENTS)?;
    let command = args.string("command")?;
    let path = args.string("path")?;
    Ok(match command.as_str() {
        "view" => {
            let (offset, limit) = view_range(&args)?;
            Command::View(ReadArgs {
                file_path: path,
                offset,
                limit,
                char_offset: None,
                pages: None,
                symbol: None,
                block: false,
                encoding: None,
            })
        }
        "create" => Command::Create(WriteArgs {
            file_path: path,
            content: args.string("file_text")?,
            encoding: None,
            expect: args.opt_string("expect")?,
        }),
        "str_replace" => Command::Replace(EditArgs {
            file_path: path,
            edits: vec![EditOp {
                old_string: args.string("old_str")?,
                new_string: args.opt_string("new_str")?.unwrap_or_default(),
                replace_all: false,
            }],
            encoding: None,
            expect: args.opt_string("expect")?,
        }),
        "insert" => {
            let line = args
                .opt_int("insert_line")?
                .ok_or_else(|| args.error("insert_line is required"))?;
            let line = u64::try_from(line)
                .map_err(|_| args.error(format!("insert_line must be 0 or more, got {line}")))?;
            let text = match (args.opt_string("insert_text")?, args.opt_string("new_str")?) {
                (Some(text), None) | (None, Some(text)) => text,
                (Some(a), Some(b)) if a == b => a,
                (Some(_), Some(_)) => {
                    return Err(args.error("insert_text and new_str differ; send the text once"));
                }
                (None, None) => return Err(args.error("insert_text is required")),
            };
            Command::Insert {
                path,
                line,
                text,
                expect: args.opt_string("expect")?,
            }
        }
        "undo_edit" => Command::Undo(UndoArgs {
            file_path: path,
            expect: args.opt_string("expect")?,
        }),
        other => {
            return Err(args.error(format!(
                "command {other:?} is not one of view, create, str_replace, insert, undo_edit"
            )));
        }
    })
}

/// The offset and limit a `view_range` asks for.
fn view_range(args: &Args) -> Result<(Option<u64>, Option<u64>), ToolError> {
    let Some(range) = args.value("view_range") else {
        return Ok((None, None));
    };
    let parsed;
    let range = match range {
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
            &parsed
        }
        other => other,
    };
    let bad = || {
        args.error(format!(
            "view_range must be [start, end] with 1 <= start <= end, or end -1 for the end of the file; got {}",
            short_json(range)
        ))
    };
    let Some([start, end]) = range.as_array().map(Vec::as_slice).and_then(|items| {
        let numbers: Option<Vec<i64>> = items.iter().map(int_of).collect();
        numbers.and_then(|n| <[i64; 2]>::try_from(n).ok())
    }) else {
        return Err(bad());
    };
    let start = u64::try_from(start)
        .ok()
        .filter(|&s| s >= 1)
        .ok_or_else(bad)?;
    match end {
        -1 => Ok((Some(start), None)),
        end => {
            let end = u64::try_from(end)
                .ok()
                .filter(|&e| e >= start)
                .ok_or_else(bad)?;
            Ok((Some(start), Some(end - start + 1)))
        }
    }
}

fn run<F: HostFs>(session: &mut Session<F>, command: Command) -> ToolResult {
    match command {
        Command::View(args) => {
            let budget = session.config().max_characters;
            session.read_within(&args, budget)
        }
        Command::Create(args) => session.write(&args),
        Command::Replace(args) => session.edit(&args),
        Command::Insert {
            path,
            line,
            text,
            expect,
        } => session.change((&path, Lookup::Existing), |ctx, target| {
            insert::run(ctx, target, &path, (line, &text), expect.as_deref())
        }),
        Command::Undo(args) => session.undo(&args),
    }
}

/// The metadata of a view (a read's) or of a change.
fn view_or_change() -> Value {
    let mut both = read_output();
    let change = change_output();
    for (name, property) in change["properties"].as_object().into_iter().flatten() {
        both["properties"][name] = property.clone();
    }
    answers(&both, &[&["kind"], &["action", "path"]])
}

/// The tool's definition: Anthropic's built-in type for the Messages API,
/// a full schema for every other format. In a read-only workspace, the
/// `view` command alone, as a full schema in every format: the built-in
/// type would announce commands that cannot succeed.
pub fn definition(config: &Config) -> Definition {
    if config.read_only {
        return view_only();
    }
    let mut builtin = json!({"type": TYPE, "name": NAME});
    if config.max_characters > 0 {
        builtin["max_characters"] = json!(config.max_characters);
    }
    Definition {
        name: NAME,
        description: "View, create and edit text files. view: a file's lines, numbered (view_range [start, end] for part of it, end -1 for the rest), or a directory's entries. create: a new file with file_text (replacing an existing file needs a full view of it first). str_replace: replace old_str, which must match exactly one place, by new_str (view the file first). insert: insert insert_text after line insert_line (0 for the start). undo_edit: take back the last change of the file. Files keep their encoding and line endings."
            .to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": {
                "command": {"type": "string", "enum": ["view", "create", "str_replace", "insert", "undo_edit"], "description": "What to do."},
                "path": {"type": "string", "description": "Path of the file or directory, absolute inside the workspace or relative to it."},
                "view_range": {"type": "array", "items": {"type": "integer"}, "description": "view: [start, end] lines, 1-based; end -1 for the end of the file."},
                "file_text": {"type": "string", "description": "create: the file's whole text."},
                "old_str": {"type": "string", "description": "str_replace: the exact text to replace."},
                "new_str": {"type": "string", "description": "str_replace: the text to put in its place (empty to delete)."},
                "insert_line": {"type": "integer", "minimum": 0, "description": "insert: the line after which to insert; 0 for the start."},
                "insert_text": {"type": "string", "description": "insert: the text to insert."},
                "expect": expect_property()
            },
            "required": ["command", "path"],
            "additionalProperties": false
        }),
        output_schema: view_or_change(),
        annotations: Annotations {
            title: "Text editor",
            read_only: false,
            destructive: true,
            idempotent: false,
        },
        builtin: Some((Format::Anthropic, builtin)),
    }
}

/// The tool in a read-only workspace: `view` alone.
fn view_only() -> Definition {
    Definition {
        name: NAME,
        description: "View text files (the workspace is read-only: nothing can be created or edited). view: a file's lines, numbered (view_range [start, end] for part of it, end -1 for the rest), or a directory's entries."
            .to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": {
                "command": {"type": "string", "enum": ["view"], "description": "What to do."},
                "path": {"type": "string", "description": "Path of the file or directory, absolute inside the workspace or relative to it."},
                "view_range": {"type": "array", "items": {"type": "integer"}, "description": "[start, end] lines, 1-based; end -1 for the end of the file."}
            },
            "required": ["command", "path"],
            "additionalProperties": false
        }),
        output_schema: answers(&read_output(), &[&["kind"]]),
        annotations: Annotations {
            title: "Text viewer",
            read_only: true,
            destructive: false,
            idempotent: true,
        },
        builtin: None,
    }
}
