//! OpenAI's `apply_patch`, in both forms models send it: the Codex envelope
//! (`{"input": "*** Begin Patch\n…\n*** End Patch"}`) and a Responses API
//! operation (`{"operation": {"type": "update_file", "path": …, "diff":
//! …}}`, or the operation itself). Either becomes file operations for
//! [`crate::change::patch`]; the answer carries `status` (`completed` or `failed`)
//! and the text is the `output` of an `apply_patch_call_output`.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let mut session = Session::open(r#"{"tools": "apply-patch"}"#, MemFs::new()).unwrap();
//! let call = r#"{"operation": {"type": "create_file", "path": "n.txt", "diff": "+hello"}}"#;
//! let result = session.call("apply_patch", call);
//! assert_eq!(result.text(), "Done: 1 file changed.\nA n.txt: 1 line; version 83ecb62604ae543c-5");
//! assert_eq!(result.metadata["status"], "completed");
//! ```

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::args::Args;
use crate::answers::error::ToolError;
use crate::answers::quote::short_json;
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::args::checked_version;
use crate::change::patch as patches;
use crate::change::patch::parse::{self, FileOp};
use crate::fs::host::HostFs;
use crate::memory::version::Version;
use crate::tools::definitions::{Annotations, Definition, answers, change_output};
use crate::tools::schema::Format;
use crate::tools::session::Session;

/// The tool's name.
pub const NAME: &str = "apply_patch";

const TAKES: &str = "{input: string holding \"*** Begin Patch\" ... \"*** End Patch\", expect?: [{path, version}]} or {operation: {type: \"create_file\" | \"update_file\" | \"delete_file\", path: string, diff?: string, expect?: string}}";

/// Runs one `apply_patch` call.
pub fn call<F: HostFs>(session: &mut Session<F>, arguments: &str) -> ToolResult {
    let ops = Args::parse(NAME, TAKES, arguments).and_then(operations);
    let mut result = match ops {
        Ok((ops, _)) if session.config().read_only => {
            let first = ops.first().map_or(".", FileOp::path).to_owned();
            session.run(|_| Err(ToolError::read_only(first)))
        }
        Ok((ops, expect)) => session.run(|ctx| patches::run(ctx, &ops, &expect)),
        Err(err) => session.run(|_| Err(err)),
    };
    let status = if result.is_error {
        "failed"
    } else {
        "completed"
    };
    result.metadata["status"] = json!(status);
    result
}

/// The versions a call expects, by path as its patch names them.
type Expected = BTreeMap<String, Version>;

/// The versions an envelope's `expect` names: `[{path, version}, ...]`, or
/// `{path: version, ...}`.
fn expected(args: &Args) -> Result<Expected, ToolError> {
    let pairs: Vec<(String, &Value)> = match args.value("expect") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(map)) => map.iter().map(|(path, v)| (path.clone(), v)).collect(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                let path = item.get("path").and_then(Value::as_str).map(str::to_owned);
                match (path, item.get("version")) {
                    (Some(path), Some(version)) => Ok((path, version)),
                    _ => Err(args.error(format!(
                        "each item of expect is {{path, version}}, got {}",
                        short_json(item)
                    ))),
                }
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(args.error(format!(
                "expect must be a list of {{path, version}}, got {}",
                short_json(other)
            )));
        }
    };
    let mut expected = Expected::new();
    for (path, version) in pairs {
        let parsed = version.as_str().and_then(|v| v.parse().ok()).ok_or_else(|| {
            args.error(format!(
                "the version expected of {path} must be one as an answer gives it, e.g. \"3f9a0c2d41b7e865-1024\"; got {}",
                short_json(version)
            ))
        })?;
        expected.insert(path, parsed);
    }
    Ok(expected)
}

/// The file operations a call asks for, and the versions it expects.
fn operations(args: Args) -> Result<(Vec<FileOp>, Expected), ToolError> {
    if let Some(text) = args.opt_string("input")?.or(args.opt_string("patch")?) {
        args.only(&["input", "patch", "expect"])?;
        let expected = expected(&args)?;
        return Ok((parse::parse_envelope(&text)?, expected));
    }
    let op = match args.value("operation") {
        Some(Value::Object(map)) => {
            args.only(&["operation"])?;
            Args::parse(NAME, TAKES, &Value::Object(map.clone()).to_string())?
        }
        Some(other) => {
            return Err(args.error(format!(
                "operation must be an object, got {}",
                short_json(other)
            )));
        }
        // The operation's fields sent at the top level.
        None if args.value("type").is_some() => args,
        None => return Err(args.error("give input (a patch) or operation")),
    };
    op.only(&["type", "path", "diff", "expect"])?;
    let path = op.string("path")?;
    let mut expected = Expected::new();
    if let Some(version) = checked_version(Tool::Edit, op.opt_string("expect")?.as_deref())? {
        expected.insert(path.clone(), version);
    }
    let diff = op.opt_string("diff")?.unwrap_or_default();
    let one = match op.string("type")?.as_str() {
        "create_file" => FileOp::Add {
            path,
            text: parse::parse_created(&diff)?,
        },
        "update_file" => {
            let hunks = parse::parse_diff(&diff)?;
            if hunks.is_empty() {
                return Err(crate::answers::error::patch::ParseError::EmptyUpdate { path }.into());
            }
            FileOp::Update {
                path,
                move_to: None,
                hunks,
                crlf: diff.contains("\r\n"),
            }
        }
        "delete_file" => FileOp::Delete { path },
        other => {
            return Err(op.error(format!(
                "operation type {other:?} is not one of create_file, update_file, delete_file"
            )));
        }
    };
    Ok((vec![one], expected))
}

/// The tool's definition: a function taking the envelope, or, in the
/// Responses API, its built-in `apply_patch`.
pub fn definition() -> Definition {
    Definition {
        name: NAME,
        description: "Create, change, move and delete files with a patch. The input starts with \
             \"*** Begin Patch\" and ends with \"*** End Patch\"; between them, one section per \
             file: \"*** Add File: <path>\" followed by the new file's lines, each prefixed with \
             '+'; \"*** Delete File: <path>\"; or \"*** Update File: <path>\" (optionally \
             followed by \"*** Move to: <new path>\") and hunks. A hunk may start with \"@@ \" \
             and a line to find first (such as the enclosing class or function); then context \
             lines prefixed with ' ', removed lines with '-', added lines with '+'. Give about \
             three lines of context around each change, enough to match one place; \
             \"*** End of File\" ends a hunk that ends the file. The patch applies to all its \
             files or to none; undo takes all of it back."
            .to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": {
                "input": {"type": "string", "description": "The whole patch, from \"*** Begin Patch\" to \"*** End Patch\"."},
                "expect": {
                    "type": "array",
                    "description": "Optional: files the patch changes that must be at a version (as an answer showed it), each by its path in the patch.",
                    "items": {
                        "type": "object",
                        "properties": {"path": {"type": "string"}, "version": {"type": "string"}},
                        "required": ["path", "version"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["input"],
            "additionalProperties": false
        }),
        output_schema: answers(
            &json!({
                "type": "object",
                "properties": {
                    "status": {"type": "string", "description": "completed or failed"},
                    "files": {"type": "array", "items": change_output()}
                },
                "required": ["status"]
            }),
            &[&["status"]],
        ),
        annotations: Annotations {
            title: "Apply a patch",
            read_only: false,
            destructive: true,
            idempotent: false,
        },
        builtin: Some((Format::OpenaiResponses, json!({"type": "apply_patch"}))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    #[test]
    fn a_move_onto_an_existing_file_is_refused_as_a_move() {
        let fs = MemFs::new();
        fs.add_file("a.txt", b"one\n");
        fs.add_file("b.txt", b"two\n");
        let mut s = Session::open(r#"{"tools": "apply-patch"}"#, fs).unwrap();
        let input = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-one\n+uno\n*** End Patch";
        let result = s.call(super::NAME, &json!({ "input": input }).to_string());
        assert!(result.is_error);
        assert_eq!(
            result.text(),
            "Error: the patch was not applied and no file changed: a.txt cannot be moved to b.txt, which already exists; a move never replaces a file. Move it to a path that does not exist."
        );
        assert_eq!(s.fs().contents("a.txt").unwrap(), b"one\n");
        assert_eq!(s.fs().contents("b.txt").unwrap(), b"two\n");
    }

    #[test]
    fn a_binary_file_may_still_be_deleted() {
        let fs = MemFs::new();
        fs.add_file("app.db", b"SQLite format 3\x00rows");
        let mut s = Session::open(r#"{"tools": "apply-patch"}"#, fs).unwrap();
        let input = "*** Begin Patch\n*** Delete File: app.db\n*** End Patch";
        let result = s.call(super::NAME, &json!({ "input": input }).to_string());
        assert!(!result.is_error, "{}", result.text());
        assert!(s.fs().contents("app.db").is_none());
    }
}
