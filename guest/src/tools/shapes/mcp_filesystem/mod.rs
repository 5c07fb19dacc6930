//! The tool set of the MCP reference filesystem server
//! (`@modelcontextprotocol/server-filesystem`), with its tool and argument
//! names, so `filetools mcp --tools mcp-filesystem` can stand in for it —
//! and with filetools' rules underneath: reads are bounded by the output
//! budget and count as reads (a later `write_file` of a file needs a full
//! read of it, `edit_file` any read), edits keep the file's encoding, BOM
//! and line endings and refuse ambiguous matches, writes are atomic and
//! checked against changes made meanwhile, moves never replace. Every
//! answer's `structuredContent` is the reference's, `{content: <the text>}`
//! (an image's blocks for `read_media_file`), under the reference's output
//! schemas. How each tool differs from the reference is said in docs/guide.md
//! (*Tool sets*, *MCP filesystem*), and briefly in the README's table.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("src/a.txt", b"one\ntwo\n");
//! let mut session = Session::open(r#"{"tools": "mcp-filesystem"}"#, fs).unwrap();
//! let result = session.call("read_text_file", r#"{"path": "src/a.txt", "head": 1}"#);
//! assert_eq!(result.text(), "one\n");
//! let result = session.call("list_directory", r#"{"path": "src"}"#);
//! assert_eq!(result.text(), "[FILE] a.txt");
//! ```

mod change;
mod info;
mod read;
mod tree;

use serde_json::{Value, json};

use super::args::Args;
use super::dialect::Dialect;
use crate::answers::result::{Block, ToolResult};
use crate::config::Config;
use crate::fs::host::HostFs;
use crate::text::base64;
use crate::tools::definitions::{Annotations, Definition, expect_property};
use crate::tools::session::Session;

/// The tools, in the reference server's order.
pub const NAMES: [&str; 13] = [
    "read_text_file",
    "read_media_file",
    "read_multiple_files",
    "write_file",
    "edit_file",
    "create_directory",
    "list_directory",
    "list_directory_with_sizes",
    "directory_tree",
    "move_file",
    "search_files",
    "get_file_info",
    "list_allowed_directories",
];

/// `read_file`, the reference's deprecated name of `read_text_file`:
/// answered, not listed.
pub const ALIASES: [&str; 1] = ["read_file"];

/// Runs the tool `tool` of this set.
pub fn call<F: HostFs>(session: &mut Session<F>, tool: &str, arguments: &str) -> ToolResult {
    let result = dispatch(session, tool, arguments);
    // A read's text and an edit's diff are the file's own lines, in this
    // set's words already: nothing in them is translated.
    let verbatim = !result.is_error && SHOWS_FILE_TEXT.contains(&tool);
    if verbatim {
        structured(result)
    } else {
        structured(Dialect::McpFilesystem.translate(result))
    }
}

/// The tools whose answers carry a file's text unnumbered.
const SHOWS_FILE_TEXT: [&str; 4] = [
    "read_text_file",
    "read_file",
    "read_multiple_files",
    "edit_file",
];

/// `result` with the reference's `structuredContent`: `{content: text}`,
/// or for an image the image blocks as `content` gives them, so a client
/// that prefers structured results gets what the model reads. An error
/// gets none, as the reference sends none: not the core's error code,
/// which its output schemas do not describe (the TypeScript SDK's client
/// checks even an error's `structuredContent` against them, and throws
/// when it does not fit).
fn structured(mut result: ToolResult) -> ToolResult {
    if result.is_error {
        result.metadata = Value::Null;
        return result;
    }
    let images: Vec<Value> = result
        .content
        .iter()
        .filter_map(|block| match block {
            Block::Image {
                mime_type, data, ..
            } => {
                Some(json!({"type": "image", "data": base64::encode(data), "mimeType": mime_type}))
            }
            Block::Text(_) => None,
        })
        .collect();
    result.metadata = if images.is_empty() {
        json!({ "content": result.text() })
    } else {
        json!({ "content": images })
    };
    result
}

/// The JSON Schema dialect the reference's output schemas name.
const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// The reference's output schema of every tool but `read_media_file`.
fn text_output() -> Value {
    json!({
        "$schema": DRAFT_07,
        "type": "object",
        "properties": {"content": {"type": "string"}},
        "required": ["content"],
        "additionalProperties": false
    })
}

/// The reference's output schema of `read_media_file`: its content blocks
/// (this set sends images only).
fn media_output() -> Value {
    let item = json!({
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["image", "audio"]},
            "data": {"type": "string"},
            "mimeType": {"type": "string"}
        },
        "required": ["type", "data", "mimeType"],
        "additionalProperties": false
    });
    let resource = json!({
        "type": "object",
        "properties": {
            "type": {"type": "string", "const": "resource"},
            "resource": {
                "type": "object",
                "properties": {"uri": {"type": "string"}, "mimeType": {"type": "string"}, "blob": {"type": "string"}},
                "required": ["uri", "blob"],
                "additionalProperties": false
            }
        },
        "required": ["type", "resource"],
        "additionalProperties": false
    });
    json!({
        "$schema": DRAFT_07,
        "type": "object",
        "properties": {"content": {"type": "array", "items": {"anyOf": [item, resource]}}},
        "required": ["content"],
        "additionalProperties": false
    })
}

fn dispatch<F: HostFs>(session: &mut Session<F>, tool: &str, arguments: &str) -> ToolResult {
    let Some(spec) = spec(tool) else {
        return session.run(|_| {
            Err(crate::answers::error::ToolError::UnknownTool {
                name: tool.to_owned(),
                known: NAMES.to_vec(),
            })
        });
    };
    let args = match Args::parse(spec.name, spec.takes, arguments) {
        Ok(args) => args,
        Err(err) => return session.run(|_| Err(err)),
    };
    if let Err(err) = args.only(&spec.arguments) {
        return session.run(|_| Err(err));
    }
    match spec.name {
        "read_text_file" | "read_file" => read::text(session, &args),
        "read_media_file" => read::media(session, &args),
        "read_multiple_files" => read::multiple(session, &args),
        "write_file" => change::write(session, &args),
        "edit_file" => change::edit(session, &args),
        "create_directory" => change::create_directory(session, &args),
        "move_file" => change::move_file(session, &args),
        "list_directory" => tree::list(session, &args, false),
        "list_directory_with_sizes" => tree::list(session, &args, true),
        "directory_tree" => tree::tree(session, &args),
        "search_files" => tree::search(session, &args),
        "get_file_info" => info::file_info(session, &args),
        _ => info::allowed(session),
    }
}

/// One tool's name, arguments, schema and description.
struct Spec {
    name: &'static str,
    arguments: Vec<&'static str>,
    takes: &'static str,
    description: &'static str,
    properties: Value,
    required: &'static [&'static str],
    annotations: Annotations,
}

fn annotations(title: &'static str, read_only: bool, destructive: bool) -> Annotations {
    Annotations {
        title,
        read_only,
        destructive,
        idempotent: read_only,
    }
}

fn path_arg(what: &str) -> Value {
    json!({"type": "string", "description": what})
}

#[expect(
    clippy::too_many_lines,
    reason = "one entry per tool, read side by side with the reference's list"
)]
fn spec(tool: &str) -> Option<Spec> {
    let patterns = json!({"type": "array", "items": {"type": "string"}, "description": "Glob patterns of paths to leave out, e.g. node_modules or *.log; each also matches at any depth."});
    Some(match tool {
        "read_text_file" | "read_file" => Spec {
            name: if tool == "read_file" {
                "read_file"
            } else {
                "read_text_file"
            },
            arguments: vec!["path", "head", "tail", "offset"],
            takes: "{path: string, head?: integer, tail?: integer, offset?: integer}",
            description: "Read a file as text. head: only its first N lines; tail: only its last N lines (not both); offset: start at that line (with head: N lines from it). A file past the output budget is shown up to it, with the offset that continues. Reading a file lets you write or edit it later.",
            properties: json!({
                "path": path_arg("Path of the file."),
                "head": {"type": "integer", "minimum": 1, "description": "Only the first N lines."},
                "tail": {"type": "integer", "minimum": 1, "description": "Only the last N lines."},
                "offset": {"type": "integer", "minimum": 1, "description": "Start at this 1-based line (to continue a cut read)."}
            }),
            required: &["path"],
            annotations: annotations("Read a text file", true, false),
        },
        "read_media_file" => Spec {
            name: "read_media_file",
            arguments: vec!["path"],
            takes: "{path: string}",
            description: "Read an image file (PNG, JPEG, GIF, WebP, BMP) and see it, scaled to the image limits.",
            properties: json!({"path": path_arg("Path of the image.")}),
            required: &["path"],
            annotations: annotations("Read an image", true, false),
        },
        "read_multiple_files" => Spec {
            name: "read_multiple_files",
            arguments: vec!["paths"],
            takes: "{paths: string[]}",
            description: "Read several text files at once; each is shown under its path, separated by ---. A file that cannot be read shows its error without stopping the others. The output budget is shared between them.",
            properties: json!({"paths": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "Paths of the files."}}),
            required: &["paths"],
            annotations: annotations("Read several files", true, false),
        },
        "write_file" => Spec {
            name: "write_file",
            arguments: vec!["path", "content", "expect"],
            takes: "{path: string, content: string, expect?: string}",
            description: "Create a file, or replace an existing file's whole content. Replacing needs a full read of it first, unchanged since. The file keeps its encoding, BOM and line endings.",
            properties: json!({"path": path_arg("Path of the file."), "content": {"type": "string", "description": "The complete new content."}, "expect": expect_property()}),
            required: &["path", "content"],
            annotations: Annotations {
                title: "Write a file",
                read_only: false,
                destructive: true,
                idempotent: true,
            },
        },
        "edit_file" => Spec {
            name: "edit_file",
            arguments: vec!["path", "edits", "dryRun", "expect"],
            takes: "{path: string, edits: [{oldText: string, newText: string}], dryRun?: boolean, expect?: string}",
            description: "Replace text in a file you have read: each edit's oldText must match exactly one place (whitespace and typographic quotes are tolerated when that is unambiguous). All edits apply or none. Answers with a diff of the change; dryRun shows the diff without writing.",
            properties: json!({
                "path": path_arg("Path of the file."),
                "edits": {"type": "array", "minItems": 1, "description": "The replacements, applied in order, all or none.", "items": {"type": "object", "properties": {
                    "oldText": {"type": "string", "description": "Text to find, exactly once."},
                    "newText": {"type": "string", "description": "Text to put in its place."}
                }, "required": ["oldText", "newText"], "additionalProperties": false}},
                "dryRun": {"type": "boolean", "description": "Show the diff without writing. Default false."},
                "expect": expect_property()
            }),
            required: &["path", "edits"],
            annotations: annotations("Edit a file", false, true),
        },
        "create_directory" => Spec {
            name: "create_directory",
            arguments: vec!["path"],
            takes: "{path: string}",
            description: "Create a directory and any missing parents; an existing directory is fine.",
            properties: json!({"path": path_arg("Path of the directory.")}),
            required: &["path"],
            annotations: Annotations {
                title: "Create a directory",
                read_only: false,
                destructive: false,
                idempotent: true,
            },
        },
        "list_directory" => Spec {
            name: "list_directory",
            arguments: vec!["path"],
            takes: "{path: string}",
            description: "List a directory's entries, each marked [FILE] or [DIR].",
            properties: json!({"path": path_arg("Path of the directory.")}),
            required: &["path"],
            annotations: annotations("List a directory", true, false),
        },
        "list_directory_with_sizes" => Spec {
            name: "list_directory_with_sizes",
            arguments: vec!["path", "sortBy"],
            takes: "{path: string, sortBy?: \"name\" | \"size\"}",
            description: "List a directory's entries with the size of each file, and the totals.",
            properties: json!({"path": path_arg("Path of the directory."), "sortBy": {"type": "string", "enum": ["name", "size"], "description": "Order by name (default) or by size, largest first."}}),
            required: &["path"],
            annotations: annotations("List a directory with sizes", true, false),
        },
        "directory_tree" => Spec {
            name: "directory_tree",
            arguments: vec!["path", "excludePatterns"],
            takes: "{path: string, excludePatterns?: string[]}",
            description: "A directory's whole tree as JSON: each entry {name, type: file | directory, children: [...] for directories}. Bounded by the output budget.",
            properties: json!({"path": path_arg("Path of the directory."), "excludePatterns": patterns.clone()}),
            required: &["path"],
            annotations: annotations("Directory tree", true, false),
        },
        "move_file" => Spec {
            name: "move_file",
            arguments: vec!["source", "destination"],
            takes: "{source: string, destination: string}",
            description: "Move or rename a file or directory. Fails when the destination exists; never replaces anything.",
            properties: json!({"source": path_arg("What to move."), "destination": path_arg("Where to; must not exist.")}),
            required: &["source", "destination"],
            // Nothing is replaced, but the source's path stops naming
            // anything: destructive, as the reference marks it, so a client
            // that asks before such calls asks before this one.
            annotations: Annotations {
                title: "Move a file",
                read_only: false,
                destructive: true,
                idempotent: false,
            },
        },
        "search_files" => Spec {
            name: "search_files",
            arguments: vec!["path", "pattern", "excludePatterns"],
            takes: "{path: string, pattern: string, excludePatterns?: string[]}",
            description: "Find files and directories under a directory whose path, relative to it, matches a glob pattern: *.ext for its own entries, **/*.ext at any depth.",
            properties: json!({"path": path_arg("Directory to search in."), "pattern": {"type": "string", "description": "Glob pattern of relative paths, e.g. **/*.rs."}, "excludePatterns": patterns}),
            required: &["path", "pattern"],
            annotations: annotations("Search files", true, false),
        },
        "get_file_info" => Spec {
            name: "get_file_info",
            arguments: vec!["path"],
            takes: "{path: string}",
            description: "A file's or directory's size, creation, modification and access times, whether it is a file or a directory, and its permissions (octal, e.g. 644).",
            properties: json!({"path": path_arg("Path of the file or directory.")}),
            required: &["path"],
            annotations: annotations("File information", true, false),
        },
        "list_allowed_directories" => Spec {
            name: "list_allowed_directories",
            arguments: vec![],
            takes: "{}",
            description: "The directories these tools may reach.",
            properties: json!({}),
            required: &[],
            annotations: annotations("Allowed directories", true, false),
        },
        _ => return None,
    })
}

/// The set's definitions.
pub fn definitions(_config: &Config) -> Vec<Definition> {
    NAMES
        .iter()
        .filter_map(|name| spec(name))
        .map(|spec| Definition {
            name: spec.name,
            description: spec.description.to_owned(),
            input_schema: json!({
                "type": "object",
                "properties": spec.properties,
                "required": spec.required,
                "additionalProperties": false
            }),
            output_schema: if spec.name == "read_media_file" {
                media_output()
            } else {
                text_output()
            },
            annotations: spec.annotations,
            builtin: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::config::Config;
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    fn session() -> Session<MemFs> {
        let fs = MemFs::new();
        fs.add_file("src/a.txt", b"one\ntwo\n");
        fs.add_file("logo.png", &crate::view::image::tests::png(4, 3));
        Session::open(r#"{"tools": "mcp-filesystem"}"#, fs).unwrap()
    }

    #[test]
    fn structured_content_is_the_text_as_the_reference_gives_it() {
        let mut session = session();
        for (tool, args) in [
            ("read_text_file", json!({"path": "src/a.txt", "tail": 1})),
            (
                "read_multiple_files",
                json!({"paths": ["src/a.txt", "gone"]}),
            ),
            ("list_directory", json!({"path": "src"})),
            ("list_directory_with_sizes", json!({"path": "src"})),
            ("directory_tree", json!({"path": "."})),
            ("search_files", json!({"path": ".", "pattern": "**/*.txt"})),
            ("get_file_info", json!({"path": "src/a.txt"})),
            ("create_directory", json!({"path": "made"})),
            (
                "move_file",
                json!({"source": "made", "destination": "moved"}),
            ),
            ("list_allowed_directories", json!({})),
        ] {
            let result = session.call(tool, &args.to_string());
            assert!(!result.is_error, "{tool}: {}", result.text());
            assert_eq!(result.metadata, json!({"content": result.text()}), "{tool}");
        }
    }

    #[test]
    fn streamed_reads_still_count_for_writes_and_edits() {
        let mut session = session();
        let tail = session.call("read_text_file", r#"{"path": "src/a.txt", "tail": 1}"#);
        assert_eq!(tail.text(), "two\n");
        let edit = r#"{"path": "src/a.txt", "edits": [{"oldText": "two", "newText": "2"}]}"#;
        let edited = session.call("edit_file", edit);
        assert!(!edited.is_error, "{}", edited.text());
        let partial = session.call("write_file", r#"{"path": "src/a.txt", "content": "x\n"}"#);
        assert!(partial.is_error, "{}", partial.text());
        // A tail of a file larger than a chunk has no line numbers.
        let fs = MemFs::new();
        let log: Vec<u8> = (0..100_000)
            .flat_map(|n| format!("line {n}\n").into_bytes())
            .collect();
        fs.add_file("big.log", &log);
        let mut big = Session::open(r#"{"tools": "mcp-filesystem"}"#, fs).unwrap();
        let tail = big.call("read_text_file", r#"{"path": "big.log", "tail": 1}"#);
        assert_eq!(tail.text(), "line 99999\n");
        let refused = big.call("write_file", r#"{"path": "big.log", "content": "x\n"}"#);
        assert_eq!(
            refused.text(),
            "Error: you have seen part of big.log but not which lines, not all of it; replacing it would drop lines you have not seen. \
             Read the rest first (continue with offset=1), or change parts of it with edit_file."
        );
        let whole = session.call("read_text_file", r#"{"path": "src/a.txt"}"#);
        assert_eq!(whole.text(), "one\n2\n");
        let written = session.call("write_file", r#"{"path": "src/a.txt", "content": "x\n"}"#);
        assert!(!written.is_error, "{}", written.text());
    }

    #[test]
    fn an_image_is_structured_as_its_content_blocks() {
        let result = session().call("read_media_file", r#"{"path": "logo.png"}"#);
        let items = result.metadata["content"].as_array().unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0]["type"], "image");
        assert_eq!(items[0]["mimeType"], "image/png");
        assert!(!items[0]["data"].as_str().unwrap().is_empty());
    }

    #[test]
    fn an_error_has_no_structured_content_as_the_reference_sends_none() {
        for (tool, args) in [
            ("read_text_file", r#"{"path": "gone.txt"}"#),
            ("read_media_file", r#"{"path": "gone.png"}"#),
        ] {
            let result = session().call(tool, args);
            assert!(result.is_error, "{tool}");
            assert!(result.metadata.is_null(), "{tool}");
            assert!(
                result.to_json().get("structuredContent").is_none(),
                "{tool}"
            );
        }
    }

    #[test]
    fn output_schemas_are_the_references() {
        for def in super::definitions(&Config::default()) {
            let content = &def.output_schema["properties"]["content"];
            assert_eq!(def.output_schema["required"], json!(["content"]));
            if def.name == "read_media_file" {
                assert_eq!(content["type"], "array");
            } else {
                assert_eq!(content, &json!({"type": "string"}), "{}", def.name);
            }
        }
    }
}
