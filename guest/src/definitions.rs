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

/// Every tool's definition.
pub fn definitions() -> Vec<Definition> {
    vec![read_definition()]
}

fn read_definition() -> Definition {
    Definition {
        name: "read",
        description: format!(
            "Read a text file. Lines come numbered `N<tab>text` (1-based); the numbers are not part \
             of the file. Shows up to {DEFAULT_MAX_LINES} lines, {DEFAULT_MAX_LINE_CHARS} characters \
             per line and about {DEFAULT_MAX_OUTPUT_TOKENS} tokens per call; the last line says what \
             was shown and gives the exact offset to continue with. A cut line ends with a marker \
             giving the offset and char_offset that show the rest of it."
        ),
        input_schema: json!({
            "type": "object",
            "properties": {
                "file_path": {
                    "type": "string",
                    "description": "Path of the file, relative to the working directory or absolute inside the workspace."
                },
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
