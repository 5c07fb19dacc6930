//! [`ToolResult`]: a tool call's answer on the host side, and its one JSON
//! line in the CLI protocol (SPEC H2): `{"content": [...], "isError": ...,
//! "structuredContent": {...}}` — the shape of an MCP `CallToolResult`.

use serde_json::{Value, json};

use crate::bindings::wit;

/// One content block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Text for the model.
    Text(String),
    /// An image for the model.
    Image {
        /// MIME type.
        mime_type: String,
        /// Encoded bytes.
        data: Vec<u8>,
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
}

/// The answer to one tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// Blocks in reading order.
    pub content: Vec<Content>,
    /// Whether the call failed.
    pub is_error: bool,
    /// Machine-readable facts (a JSON object).
    pub metadata: Value,
}

impl ToolResult {
    /// An error result from the host itself (e.g. a trapped guest).
    pub fn host_error(message: String, code: &str) -> Self {
        Self {
            content: vec![Content::Text(message)],
            is_error: true,
            metadata: json!({ "error": code }),
        }
    }

    /// All text blocks joined by newlines.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter_map(|c| match c {
                Content::Text(t) => Some(t.as_str()),
                Content::Image { .. } => None,
            })
            .collect();
        texts.join("\n")
    }

    /// The result as one JSON value in the CLI/MCP shape.
    pub fn to_json(&self) -> Value {
        let content: Vec<Value> = self
            .content
            .iter()
            .map(|c| match c {
                Content::Text(text) => json!({ "type": "text", "text": text }),
                Content::Image {
                    mime_type, data, ..
                } => {
                    json!({ "type": "image", "data": base64(data), "mimeType": mime_type })
                }
            })
            .collect();
        json!({
            "content": content,
            "isError": self.is_error,
            "structuredContent": self.metadata,
        })
    }
}

impl From<wit::ToolResult> for ToolResult {
    fn from(result: wit::ToolResult) -> Self {
        Self {
            content: result
                .content
                .into_iter()
                .map(|block| match block {
                    wit::ContentBlock::Text(text) => Content::Text(text),
                    wit::ContentBlock::Image(image) => Content::Image {
                        mime_type: image.mime_type,
                        data: image.data,
                        width: image.width,
                        height: image.height,
                    },
                })
                .collect(),
            is_error: result.is_error,
            metadata: serde_json::from_str(&result.metadata).unwrap_or(Value::Null),
        }
    }
}

/// Standard base64 with padding, as MCP image blocks carry it.
pub fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_alphabet() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(&[0xFB, 0xFF]), "+/8=");
    }

    #[test]
    fn json_line_has_the_protocol_shape() {
        let result = ToolResult {
            content: vec![Content::Text("hi".into())],
            is_error: false,
            metadata: json!({"lines_shown": 1}),
        };
        assert_eq!(
            result.to_json().to_string(),
            r#"{"content":[{"text":"hi","type":"text"}],"isError":false,"structuredContent":{"lines_shown":1}}"#
        );
    }
}
