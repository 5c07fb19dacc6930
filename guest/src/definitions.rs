//! The tool definitions a host gives the model: name, description and JSON
//! Schema of the arguments (SPEC §2). The description states the caps and the
//! paging contract, so the model knows how to continue before it has to.

use serde_json::{Value, json};

use crate::config::{DEFAULT_MAX_LINE_CHARS, DEFAULT_MAX_LINES, DEFAULT_MAX_OUTPUT_TOKENS};

/// One tool as the model sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// The name the model calls.
    pub name: &'static str,
    /// What the model is told.
    pub description: String,
    /// JSON Schema of the arguments.
    pub input_schema: Value,
}

/// Every tool's definition, in the order of [`crate::args::Tool::ALL`].
pub fn definitions() -> Vec<Definition> {
    vec![
        read_definition(),
        write_definition(),
        edit_definition(),
        undo_definition(),
    ]
}

fn path_property() -> Value {
    json!({
        "type": "string",
        "description": "Path of the file, relative to the working directory or absolute inside the workspace."
    })
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
                "content": {"type": "string", "description": "The complete new content of the file."}
            },
            "required": ["file_path", "content"],
            "additionalProperties": false
        }),
    }
}

fn edit_definition() -> Definition {
    let pair = json!({
        "old_string": {"type": "string", "description": "Exact text to replace, copied from read output without the line numbers; include enough surrounding lines to match one place. Empty only to create a new file."},
        "new_string": {"type": "string", "description": "The text to put in its place."},
        "replace_all": {"type": "boolean", "description": "Replace every occurrence instead of requiring exactly one. Default false."}
    });
    let mut properties = pair.as_object().cloned().unwrap_or_default();
    properties.insert("file_path".to_owned(), path_property());
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
    }
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
            "properties": {"file_path": path_property()},
            "required": ["file_path"],
            "additionalProperties": false
        }),
    }
}

fn read_definition() -> Definition {
    Definition {
        name: "read",
        description: format!(
            "Read a text file. Lines come numbered `N<tab>text` (1-based); the numbers are not part \
             of the file. Shows up to {DEFAULT_MAX_LINES} lines, {DEFAULT_MAX_LINE_CHARS} characters \
             per line and about {DEFAULT_MAX_OUTPUT_TOKENS} tokens per call; the last line says what \
             was shown and gives the exact offset to continue with. A cut line ends with a marker \
             giving the offset and char_offset that show the rest of it. Reading the same range of \
             an unchanged file again answers with a short \"unchanged\" notice once."
        ),
        input_schema: json!({
            "type": "object",
            "properties": {
                "file_path": path_property(),
                "offset": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "First line to show (1-based). Default 1."
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "description": format!("Maximum number of lines to show. Default {DEFAULT_MAX_LINES}.")
                },
                "pages": {
                    "type": "string",
                    "description": "PDF only: a page or range, e.g. \"3\" or \"3-7\"; required past 10 pages, at most 20 pages per call."
                },
                "char_offset": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Show part of one long line: start at this character (1-based) of line `offset`."
                }
            },
            "required": ["file_path"],
            "additionalProperties": false
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Tool;
    use crate::{MemFs, Session};

    #[test]
    fn every_tool_is_defined_and_every_schema_property_is_accepted() {
        let defs = definitions();
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
}
