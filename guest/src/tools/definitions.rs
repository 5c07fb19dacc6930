//! The tool definitions a host gives the model: name, description, JSON
//! Schema of the arguments, annotations and the shape of the metadata. The
//! descriptions are rendered from the session's [`Config`], so the caps the
//! model is told are the caps it meets; [`crate::tools::schema`] puts them in the
//! form each API expects.
//!
//! ```
//! use filetools_core::Config;
//! let config = Config::from_json(r#"{"max_lines": 1000}"#).unwrap();
//! let read = &filetools_core::tools::definitions::definitions(&config)[0];
//! assert!(read.description.contains("up to 1000 lines"));
//! ```

use serde_json::{Map, Value, json};

use crate::config::Config;
use crate::tools::search_definitions;
use crate::view::pdf::{MAX_PAGES_PER_CALL, MAX_PAGES_WITHOUT_RANGE};
use crate::view::read::args::MAX_READ_FILES;

/// One tool as the model sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// The name the model calls.
    pub name: &'static str,
    /// What the model is told.
    pub description: String,
    /// JSON Schema of the arguments, in its exact form: every required
    /// property listed, no other property allowed. [`crate::tools::schema`]
    /// loosens or tightens it per API.
    pub input_schema: Value,
    /// JSON Schema of the result's metadata (`structuredContent`): one
    /// that every answer fits, success, refusal and fault alike.
    pub output_schema: Value,
    /// What calling the tool does to the files.
    pub annotations: Annotations,
    /// The tool as a vendor's built-in definition, where the API has one:
    /// `(format, definition)`, e.g. Anthropic's text editor type.
    pub builtin: Option<(crate::tools::schema::Format, Value)>,
}

/// What a tool does to the files, as MCP tool annotations state it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    /// A short title for people.
    pub title: &'static str,
    /// Never changes a file.
    pub read_only: bool,
    /// May replace or remove what a file held.
    pub destructive: bool,
    /// Calling it twice with the same arguments does no more than once.
    pub idempotent: bool,
}

/// Every tool's definition for a session with `config`: the tools of each
/// set it names, in order.
pub fn definitions(config: &Config) -> Vec<Definition> {
    config
        .tools
        .iter()
        .flat_map(|set| set.definitions(config))
        .collect()
}

/// The core tools' definitions, in the order of [`crate::answers::tool::Tool::ALL`].
pub fn core(config: &Config) -> Vec<Definition> {
    vec![
        read_definition(config),
        write_definition(),
        edit_definition(),
        undo_definition(),
        search_definitions::grep(config),
        search_definitions::find(),
        search_definitions::replace(),
    ]
}

pub(crate) fn path_property() -> Value {
    json!({
        "type": "string",
        "description": "Path of the file, relative to the working directory or absolute inside the workspace."
    })
}

/// The metadata a change that did its work answers with.
pub(crate) fn change_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "action": {"type": "string", "description": "What happened: created, replaced, edited, restored or removed."},
            "path": {"type": "string"},
            "bytes": {"type": "integer", "description": "Size of the file afterwards."},
            "lines": {"type": "integer", "description": "Lines of the file afterwards."},
            "version": {"type": "string", "description": "The file's version afterwards, for expect."},
            "estimated_tokens": {"type": "integer"}
        },
        "required": ["action", "path"]
    })
}

/// The output schema of a tool that changes one file: [`change_output`],
/// a refusal or a fault.
pub(crate) fn change_answers() -> Value {
    answers(&change_output(), &[&["action", "path"]])
}

/// An output schema every answer of a tool fits: the metadata of a call
/// that did its work (the properties of `success`; each kind of success
/// named by the keys it always has, in `kinds`), of a refusal or of a
/// fault (`error`, with `path` and `next_call` where they help). MCP
/// clients check even an error's `structuredContent` against the schema:
/// one of successes alone would turn every refusal into a protocol error,
/// and the model would never read why nothing was done.
pub(crate) fn answers(success: &Value, kinds: &[&[&str]]) -> Value {
    let mut properties = success["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    properties
        .entry("path")
        .or_insert_with(|| json!({"type": "string"}));
    properties.insert(
        "error".to_owned(),
        json!({"type": "string", "description": "Only when nothing was done: why, as a code; a refusal such as not_read, stale or ambiguous, or a fault such as guest_trap or cancelled."}),
    );
    properties.insert(
        "next_call".to_owned(),
        json!({
            "type": "object",
            "description": "With a refusal a call can mend: that call.",
            "properties": {"tool": {"type": "string"}, "args": {"type": "object"}},
            "required": ["tool", "args"]
        }),
    );
    let mut any: Vec<Value> = kinds
        .iter()
        .map(|keys| json!({ "required": keys }))
        .collect();
    any.push(json!({"required": ["error"]}));
    json!({"type": "object", "properties": properties, "anyOf": any})
}

fn write_definition() -> Definition {
    Definition {
        name: "write",
        description: "Create a file (with its parent directories) or replace its whole content. \
            Replacing an existing file requires that you have read all of it in this session and \
            that it has not changed since; prefer edit for changing part of a file. The file keeps \
            its encoding, BOM and line endings. Send the file's text only, without the line numbers \
            read shows."
            .to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": {
                "file_path": path_property(),
                "content": {"type": "string", "description": "The complete new content of the file."},
                "encoding": encoding_property("The encoding to write in, e.g. \"windows-1252\"; by default a replaced file keeps its own and a new file is UTF-8."),
                "expect": expect_property()
            },
            "required": ["file_path", "content"],
            "additionalProperties": false
        }),
        output_schema: change_answers(),
        annotations: Annotations {
            title: "Write a file",
            read_only: false,
            destructive: true,
            idempotent: true,
        },
        builtin: None,
    }
}

fn edit_definition() -> Definition {
    let pair = json!({
        "old_string": {"type": "string", "description": "Exact text to replace, copied from read output without the line numbers; include enough surrounding lines to match one place. Empty only to create a new file."},
        "new_string": {"type": "string", "description": "The text to put in its place."},
        "replace_all": {"type": "boolean", "description": "Replace every occurrence instead of requiring exactly one. Default false."}
    });
    // In the order a model writes them: the file, then what to change.
    let mut properties = Map::new();
    properties.insert("file_path".to_owned(), path_property());
    properties.extend(pair.as_object().cloned().unwrap_or_default());
    properties.insert(
        "edits".to_owned(),
        json!({
            "type": "array",
            "description": "Several replacements, applied in order, all or nothing; instead of old_string/new_string.",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": pair,
                "required": ["old_string", "new_string"],
                "additionalProperties": false
            }
        }),
    );
    properties.insert(
        "symbol".to_owned(),
        json!({"type": "string", "description": "Instead of old_string: an outline entry named as read names it (e.g. \"Decimal.__new__\"), whose lines you have read; new_string replaces the whole entry (empty deletes it), or goes before or after it by position."}),
    );
    properties.insert(
        "position".to_owned(),
        json!({"type": "string", "enum": ["replace", "before", "after"], "description": "With symbol: where new_string goes. Default replace."}),
    );
    properties.insert(
        "encoding".to_owned(),
        encoding_property("Only for a file that is not UTF-8 and whose encoding the read called a guess: the encoding to edit it in."),
    );
    properties.insert("expect".to_owned(), expect_property());
    let mut output = change_output();
    output["properties"]["replacements"] = json!({"type": "integer"});
    Definition {
        name: "edit",
        description: "Replace text in a file you have read (any part of it) in this session. \
            old_string must match exactly one place unless replace_all is set; if it matches none \
            or several, nothing changes and the error shows the nearest text or every line that \
            matched. The answer shows the changed lines with their numbers, so there is no need to \
            read the file again."
            .to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": properties,
            "required": ["file_path"],
            "additionalProperties": false
        }),
        output_schema: answers(&output, &[&["action", "path"]]),
        annotations: Annotations {
            title: "Edit a file",
            read_only: false,
            destructive: true,
            idempotent: false,
        },
        builtin: None,
    }
}

/// The `expect` argument of every tool that changes a file (SPEC V2).
pub(crate) fn expect_property() -> Value {
    json!({"type": "string", "description": "Optional: the version the file must be at, as an answer showed it (e.g. \"3f9a0c2d41b7e865-1024\"); the change is refused with what changed if the file is at another."})
}

/// The `encoding` argument of read, write and edit.
fn encoding_property(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

fn undo_definition() -> Definition {
    Definition {
        name: "undo",
        description: "Restore a file to the version before your last write or edit of it in this \
            session (remove it if that change created it). Refused if the file changed since. \
            Repeat to go further back."
            .to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": {"file_path": path_property(), "expect": expect_property()},
            "required": ["file_path"],
            "additionalProperties": false
        }),
        output_schema: change_answers(),
        annotations: Annotations {
            title: "Undo a change",
            read_only: false,
            destructive: true,
            idempotent: false,
        },
        builtin: None,
    }
}

/// What `read` says of the kinds beyond text, and of big files.
fn kinds(config: &Config) -> String {
    let big = if config.outline {
        format!(
            " A file above about {} tokens read without offset or limit shows its outline \
             (definitions with their line numbers) or its head and tail instead; read a range \
             to see the lines.",
            config.outline_budget_tokens
        )
    } else {
        String::new()
    };
    format!(
        " A directory is listed (up to {} entries). Images (PNG, JPEG, GIF, WebP) come back as \
         an image of at most {} pixels on the long edge. A PDF shows its text by page: pages is \
         required past {MAX_PAGES_WITHOUT_RANGE} pages, at most {MAX_PAGES_PER_CALL} per call. \
         A Jupyter notebook shows its cells with their outputs.{big}",
        config.max_dir_entries, config.max_image_edge
    )
}

/// The metadata of a read that showed something.
pub(crate) fn read_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "kind": {"type": "string", "description": "What was read: text, directory, image, pdf, notebook, outline, ..."},
            "path": {"type": "string"},
            "estimated_tokens": {"type": "integer"},
            "version": {"type": "string", "description": "The file's version, for expect: a hash of its content and its size."},
            "next_offset": {"type": ["integer", "null"], "description": "The offset that continues the reading, when there is more."}
        },
        "required": ["kind"]
    })
}

fn read_definition(config: &Config) -> Definition {
    let max_lines = config.max_lines;
    Definition {
        name: "read",
        description: format!(
            "Read a file or directory. Lines come numbered `N<tab>text` (1-based); the numbers are \
             not part of the file. Shows up to {max_lines} lines, {} characters per line and about \
             {} tokens per call; the last line says what was shown and gives the exact offset to \
             continue with. A cut line ends with a marker giving the offset and char_offset that \
             show the rest of it. Reading the same range of an unchanged file again answers with a \
             short \"unchanged\" notice once.{}",
            config.max_line_chars,
            config.max_output_tokens,
            kinds(config)
        ),
        input_schema: json!({
            "type": "object",
            "properties": {
                "file_path": {
                    "type": "string",
                    "description": "Required unless file_paths is given. Path of the file or directory, relative to the working directory or absolute inside the workspace."
                },
                "file_paths": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                    "description": format!("Instead of file_path: up to {MAX_READ_FILES} files read in one call under one budget, each as a read without offset shows it (whole, or paged or outlined with its continuation); the last line says what each used.")
                },
                "offset": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "First line to show (1-based). Default 1."
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "description": format!("Maximum number of lines to show. Default {max_lines}.")
                },
                "pages": {
                    "type": "string",
                    "description": format!("PDF only: a page or range, e.g. \"3\" or \"3-7\"; required past {MAX_PAGES_WITHOUT_RANGE} pages, at most {MAX_PAGES_PER_CALL} pages per call.")
                },
                "char_offset": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Show part of one long line: start at this character (1-based) of line `offset`."
                },
                "symbol": {
                    "type": "string",
                    "description": "Instead of offset and limit: the lines of one outline entry, named as the outline names it, e.g. \"Decimal.__new__\" for a method of class Decimal. They come as in the file, unnumbered, under a header with their line range."
                },
                "block": {
                    "type": "boolean",
                    "description": "With offset alone: instead of the lines from there, the innermost outline entry that holds line offset (its function, method, class or section), shown as a symbol read shows it."
                },
                "encoding": encoding_property("Only for a file that is not UTF-8: its encoding, e.g. \"windows-1252\" or \"shift_jis\", when the read says the detected one is a guess.")
            },
            "required": [],
            "additionalProperties": false
        }),
        output_schema: answers(&read_output(), &[&["kind"]]),
        annotations: Annotations {
            title: "Read a file",
            read_only: true,
            destructive: false,
            idempotent: true,
        },
        builtin: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::tool::Tool;
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    #[test]
    fn every_tool_is_defined_and_every_schema_property_is_accepted() {
        let defs = definitions(&Config::default());
        let names: Vec<&str> = defs.iter().map(|d| d.name).collect();
        let tools: Vec<&str> = Tool::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(names, tools);
        let mut session = Session::open("{}", MemFs::new()).unwrap();
        for def in &defs {
            for property in def.input_schema["properties"].as_object().unwrap().keys() {
                let result = session.call(def.name, &format!(r#"{{"{property}": null}}"#));
                assert!(
                    !result.text().contains("unknown argument"),
                    "{} rejects its own {property}: {}",
                    def.name,
                    result.text()
                );
            }
        }
    }

    #[test]
    fn read_description_follows_the_config_and_names_every_kind() {
        let config = Config::from_json(
            r#"{"max_lines": 1000, "max_output_tokens": 9000, "max_dir_entries": 50, "outline": false}"#,
        )
        .unwrap();
        let read = &definitions(&config)[0];
        for expected in [
            "up to 1000 lines",
            "about 9000 tokens",
            "up to 50 entries",
            "Images",
            "PDF",
            "notebook",
        ] {
            assert!(
                read.description.contains(expected),
                "{expected}: {}",
                read.description
            );
        }
        assert!(!read.description.contains("outline"));
        assert_eq!(
            read.input_schema["properties"]["limit"]["description"],
            "Maximum number of lines to show. Default 1000."
        );
        let default = &definitions(&Config::default())[0];
        assert!(default.description.contains("up to 2000 lines"));
        assert!(default.description.contains("outline"));
    }
}
