//! [`ToolResult`]: what a tool call returns, shaped like WIT `tool-result`
//! and an MCP `CallToolResult` — content blocks, an error flag, and a JSON
//! metadata object for programs (SPEC §2).
//!
//! ```
//! let result = filetools_core::ToolResult::from_text("hi".into(), serde_json::json!({}));
//! assert!(!result.is_error);
//! assert_eq!(result.text(), "hi");
//! ```

use serde_json::{Value, json};

use super::sorted::{Sorted, sorted};

use crate::answers::error::ToolError;
use crate::answers::quote::cut;
use crate::config::MAX_PATH_BYTES;
use crate::text::base64;

/// One block of content for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// Text.
    Text(String),
    /// An encoded image.
    Image {
        /// MIME type, e.g. `image/jpeg`.
        mime_type: String,
        /// Encoded bytes.
        data: Vec<u8>,
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
}

/// The outcome of one tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// Blocks in reading order.
    pub content: Vec<Block>,
    /// True when the call failed.
    pub is_error: bool,
    /// A JSON object with machine-readable facts.
    pub metadata: Value,
}

impl ToolResult {
    /// A successful text result.
    pub fn from_text(text: String, metadata: Value) -> Self {
        Self {
            content: vec![Block::Text(text)],
            is_error: false,
            metadata,
        }
    }

    /// A failed call: the error's sentence, and its code (and path) as
    /// metadata. A path too long to be one is cut, as in the sentence.
    pub fn error(err: &ToolError, path: Option<&str>) -> Self {
        let mut metadata = json!({ "error": err.code() });
        if let Some(path) = path {
            metadata["path"] = Value::String(if path.len() > MAX_PATH_BYTES {
                cut(path)
            } else {
                path.to_owned()
            });
        }
        if let Some(next) = err.next_call() {
            metadata["next_call"] = next;
        }
        if let Some(Value::Object(facts)) = err.facts() {
            for (key, value) in facts {
                metadata[key] = value;
            }
        }
        Self {
            content: vec![Block::Text(err.to_string())],
            is_error: true,
            metadata,
        }
    }

    /// The result with `note` before its text.
    #[must_use]
    pub fn prefixed(mut self, note: &str) -> Self {
        match self.content.first_mut() {
            Some(Block::Text(text)) => text.insert_str(0, note),
            _ => self
                .content
                .insert(0, Block::Text(note.trim_end().to_owned())),
        }
        self
    }

    /// A failure found outside the tool logic (a host that lost its guest,
    /// a malformed protocol line): `message` for the model, `code` for
    /// programs.
    pub fn failure(message: String, code: &str) -> Self {
        Self {
            content: vec![Block::Text(message)],
            is_error: true,
            metadata: json!({ "error": code }),
        }
    }

    /// The result as one JSON value in the shape of an MCP `CallToolResult`:
    /// `{"content": [...], "isError": .., "structuredContent": {..}}`, images
    /// as base64, no `structuredContent` when the metadata is `null`. This
    /// is the line the CLI protocol prints (SPEC H2).
    pub fn to_json(&self) -> Value {
        let content: Vec<Value> = self
            .content
            .iter()
            .map(|block| match block {
                Block::Text(text) => json!({ "type": "text", "text": text }),
                Block::Image {
                    mime_type, data, ..
                } => {
                    json!({ "type": "image", "data": base64::encode(data), "mimeType": mime_type })
                }
            })
            .collect();
        let mut json = json!({"content": content, "isError": self.is_error});
        if !self.metadata.is_null() {
            json["structuredContent"] = sorted(&self.metadata);
        }
        json
    }

    /// The metadata as JSON text with its keys sorted at every level: the
    /// same bytes whatever order the answer built it in.
    pub fn metadata_json(&self) -> String {
        serde_json::to_string(&Sorted(&self.metadata)).unwrap_or_else(|_| self.metadata.to_string())
    }

    /// All text blocks joined by newlines (images skipped).
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter_map(|block| match block {
                Block::Text(text) => Some(text.as_str()),
                Block::Image { .. } => None,
            })
            .collect();
        texts.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_the_protocol_shape() {
        let result = ToolResult::from_text("hi".into(), json!({"lines_shown": 1}));
        assert_eq!(
            result.to_json().to_string(),
            r#"{"content":[{"type":"text","text":"hi"}],"isError":false,"structuredContent":{"lines_shown":1}}"#
        );
    }

    #[test]
    fn images_are_base64_with_their_mime_type() {
        let result = ToolResult {
            content: vec![Block::Image {
                mime_type: "image/png".into(),
                data: b"foo".to_vec(),
                width: 1,
                height: 1,
            }],
            is_error: false,
            metadata: json!({}),
        };
        assert_eq!(result.to_json()["content"][0]["data"], "Zm9v");
        assert_eq!(result.to_json()["content"][0]["mimeType"], "image/png");
    }
}
