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

use crate::error::ToolError;

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

    /// A failed call: the error's sentence, and its code (and path) as metadata.
    pub fn error(err: &ToolError, path: Option<&str>) -> Self {
        let mut metadata = json!({ "error": err.code() });
        if let Some(path) = path {
            metadata["path"] = Value::String(path.to_owned());
        }
        Self {
            content: vec![Block::Text(err.to_string())],
            is_error: true,
            metadata,
        }
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
