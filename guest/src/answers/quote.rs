//! How an answer quotes what the model sent: cut after
//! [`MAX_ECHO_CHARS`] characters, with the length given instead of the rest,
//! so an error never echoes a whole file back.
//!
//! ```
//! use filetools_core::answers::quote::{MAX_ECHO_CHARS, cut, quoted};
//! assert_eq!(quoted("a\"b"), r#""a\"b""#);
//! let long = "x".repeat(MAX_ECHO_CHARS + 20);
//! assert!(cut(&long).ends_with("… (100 chars)"));
//! ```

use serde_json::Value;

/// Characters of an argument echoed back in an error; longer ones are cut
/// and their length is given instead of the rest.
pub const MAX_ECHO_CHARS: usize = 80;

/// `text` for an error message, cut after [`MAX_ECHO_CHARS`] characters:
/// `xxxx… (10000000 chars)`. An error never echoes a whole file.
pub fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_ECHO_CHARS) {
        Some((at, _)) => format!("{}… ({} chars)", &text[..at], text.chars().count()),
        None => text.to_owned(),
    }
}

/// `text` quoted as a JSON string, then [`cut`].
pub fn quoted(text: &str) -> String {
    cut(&Value::String(text.to_owned()).to_string())
}

/// `value` as JSON, [`cut`].
pub fn short_json(value: &Value) -> String {
    cut(&value.to_string())
}
