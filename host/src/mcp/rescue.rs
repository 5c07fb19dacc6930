//! The id of a request whose line could not be parsed, found where
//! clients put it, so that the parse error still answers that request.

use std::borrow::Cow;

use serde_json::Value;

use crate::protocol::{Line, Taken};

/// The id of the request a refused line was, when it can be found: from
/// the whole line when it parses as JSON (once bad bytes are replaced, and
/// taking the last of repeated keys), else from a top-level `"id"` at its
/// start or its end; `null` otherwise.
pub(super) fn request_id(taken: &Taken) -> Value {
    let whole = match (&taken.line, &taken.raw) {
        (_, Some(raw)) => Some(String::from_utf8_lossy(raw)),
        (Line::Text(text), None) => Some(Cow::Borrowed(text.as_str())),
        _ => None,
    };
    if let Some(text) = whole
        && let Ok(Value::Object(message)) = serde_json::from_str(&text)
    {
        return message.get("id").cloned().unwrap_or(Value::Null);
    }
    leading_id(&taken.head)
        .or_else(|| trailing_id(&taken.tail))
        .unwrap_or(Value::Null)
}

/// An `"id"` key of the outermost object, found before `head` ends.
fn leading_id(head: &[u8]) -> Option<Value> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (at, &byte) in head.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' if depth == 1 && head[at..].starts_with(b"\"id\"") => {
                let rest = trim_start(&head[at + 4..]);
                return value_at_start(rest.strip_prefix(b":")?);
            }
            b'"' => in_string = true,
            _ => {}
        }
    }
    None
}

/// An `"id"` key that is the last member of the outermost object, as some
/// clients write it.
fn trailing_id(tail: &[u8]) -> Option<Value> {
    let body = trim_end(trim_end(tail).strip_suffix(b"}")?);
    let value_start = if body.ends_with(b"\"") {
        body[..body.len() - 1].iter().rposition(|&b| b == b'"')?
    } else {
        body.iter()
            .rposition(|b| !(b.is_ascii_digit() || *b == b'-'))?
            + 1
    };
    let before = trim_end(trim_end(&body[..value_start]).strip_suffix(b":")?);
    let key = before.strip_suffix(b"\"id\"")?;
    if !matches!(trim_end(key).last(), Some(b',' | b'{')) {
        return None;
    }
    value_at_start(&body[value_start..])
}

/// The number or string `bytes` starts with (after blanks).
fn value_at_start(bytes: &[u8]) -> Option<Value> {
    let bytes = trim_start(bytes);
    let end = if bytes.first() == Some(&b'"') {
        1 + bytes[1..].iter().position(|&b| b == b'"' || b == b'\\')? + 1
    } else {
        bytes
            .iter()
            .position(|b| !(b.is_ascii_digit() || *b == b'-'))
            .unwrap_or(bytes.len())
    };
    match serde_json::from_slice(&bytes[..end]).ok()? {
        value @ (Value::Number(_) | Value::String(_)) => Some(value),
        _ => None,
    }
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let blank = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &bytes[blank..]
}

fn trim_end(bytes: &[u8]) -> &[u8] {
    let blank = bytes
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    &bytes[..bytes.len() - blank]
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::protocol::Splitter;

    fn taken(line: &[u8], cap: u64) -> Taken {
        let mut splitter = Splitter::new(cap);
        let (_, ended) = splitter.feed(line);
        assert!(ended);
        splitter.take()
    }

    #[test]
    fn the_id_is_found_where_clients_put_it() {
        let long = "x".repeat(1000);
        let cases: [(String, Value); 5] = [
            (
                format!(
                    r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"a":"{long}"}}}}"#
                ),
                json!(7),
            ),
            (
                format!(
                    r#"{{"method":"tools/call","params":{{"a":"{long}"}},"jsonrpc":"2.0","id":"r-9"}}"#
                ),
                json!("r-9"),
            ),
            (
                format!(r#"{{"params":{{"id":3,"a":"{long}"}},"method":"x"}}"#),
                Value::Null,
            ),
            (
                format!(r#"{{"params":{{"a":"{long}\",\"id\":4"}},"method":"x"}}"#),
                Value::Null,
            ),
            (format!(r#"{{ "id" : 12 , "params":"{long}"}}"#), json!(12)),
        ];
        for (line, id) in cases {
            let over = taken(format!("{line}\n").as_bytes(), 100);
            assert!(matches!(over.line, Line::TooLong { .. }));
            assert_eq!(request_id(&over), id, "{line}");
        }
        let latin1 = taken(
            b"{\"id\":5,\"params\":{\"file_path\":\"caf\xe9.txt\"}}\n",
            1000,
        );
        assert_eq!(request_id(&latin1), json!(5));
    }
}
