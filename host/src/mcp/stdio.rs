//! The MCP server's stdin and stdout, guarded: every message the client
//! sends gets an answer. rmcp drops a line that is not UTF-8, not JSON or
//! over its size limit without a word, so the client would wait for that
//! request forever; here such a line is answered with a JSON-RPC parse
//! error carrying the request's id (found at either end of the line when
//! the line cannot be parsed), and the good lines go on to rmcp. Memory
//! stays bounded by the line cap, and no message crosses a thread: the
//! pipes are driven by the runtime's own reactor.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::mpsc;

use crate::protocol::{Line, Splitter, Taken};

/// Bytes between rmcp and the guards, each way.
const PIPE_BYTES: usize = 64 * 1024;

/// A JSON-RPC parse error's code.
const PARSE_ERROR: i64 = -32700;

/// Serves `input` and `output` to rmcp through the guards: returns the
/// reader and writer rmcp takes, and runs the guards on the current
/// runtime until either side closes.
pub(super) fn guarded(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
    cap: u64,
) -> (tokio::io::DuplexStream, tokio::io::DuplexStream) {
    let (to_rmcp, rmcp_in) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_out, from_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (refusals, refused) = mpsc::unbounded_channel();
    tokio::spawn(read(input, to_rmcp, refusals, cap));
    tokio::spawn(write(from_rmcp, refused, output));
    (rmcp_in, rmcp_out)
}

/// Splits the client's input into lines: good ones go to rmcp, the others
/// become parse errors for [`write`] to send.
async fn read(
    input: impl AsyncRead + Unpin,
    mut to_rmcp: tokio::io::DuplexStream,
    refusals: mpsc::UnboundedSender<String>,
    cap: u64,
) -> std::io::Result<()> {
    let mut input = BufReader::new(input);
    let mut splitter = Splitter::new(cap);
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            if splitter.started() {
                pass(splitter.take(), &mut to_rmcp, &refusals, cap).await?;
            }
            return Ok(());
        }
        let (used, ended) = splitter.feed(chunk);
        input.consume(used);
        if ended {
            pass(splitter.take(), &mut to_rmcp, &refusals, cap).await?;
        }
    }
}

/// Sends one line on to rmcp, or its refusal back to the client.
async fn pass(
    taken: Taken,
    to_rmcp: &mut tokio::io::DuplexStream,
    refusals: &mpsc::UnboundedSender<String>,
    cap: u64,
) -> std::io::Result<()> {
    let refusal = match &taken.line {
        Line::Text(text) if text.trim().is_empty() => return Ok(()),
        Line::Text(text) => match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => {
                to_rmcp.write_all(text.as_bytes()).await?;
                return to_rmcp.write_all(b"\n").await;
            }
            Err(err) => format!("the message is not JSON ({err}); nothing was done"),
        },
        Line::NotUtf8 { at, byte } => format!(
            "the message is not UTF-8 (byte 0x{byte:02X} at offset {at}); nothing was done; send JSON in UTF-8"
        ),
        Line::TooLong { bytes } => format!(
            "the message has {bytes} bytes, over the limit of {cap}; nothing was done; send smaller calls (change a large file with several edits)"
        ),
    };
    let reply = json!({
        "jsonrpc": "2.0",
        "id": request_id(&taken),
        "error": {"code": PARSE_ERROR, "message": refusal},
    });
    // The writer ends only when the client stopped reading.
    let _ = refusals.send(reply.to_string());
    Ok(())
}

/// Copies rmcp's messages to the client, with the refusals between them.
async fn write(
    from_rmcp: tokio::io::DuplexStream,
    mut refused: mpsc::UnboundedReceiver<String>,
    mut output: impl AsyncWrite + Unpin,
) -> std::io::Result<()> {
    let mut from_rmcp = BufReader::new(from_rmcp);
    let mut message = Vec::new();
    loop {
        tokio::select! {
            read = from_rmcp.read_until(b'\n', &mut message) => {
                if read? == 0 {
                    return Ok(());
                }
                output.write_all(&message).await?;
                message.clear();
            }
            Some(reply) = refused.recv() => {
                output.write_all(reply.as_bytes()).await?;
                output.write_all(b"\n").await?;
            }
        }
        output.flush().await?;
    }
}

/// The id of the request a refused line was, when it can be found: from
/// the whole line when it parses once its bad bytes are replaced, else from
/// a top-level `"id"` at its start or its end; `null` otherwise.
fn request_id(taken: &Taken) -> Value {
    if let Some(raw) = &taken.raw
        && let Ok(Value::Object(message)) = serde_json::from_str(&String::from_utf8_lossy(raw))
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
    use super::*;

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

    #[tokio::test]
    async fn every_line_gets_an_answer_and_good_ones_reach_rmcp() {
        let input: &[u8] = b"{\"id\":1,\"x\":\"caf\xe9\"}\nnot json\n\n{\"id\":2}\n{\"id\":3,\"pad\":\"0123456789012345678901234567890123456789\"}\n";
        let (client_out, mut client_in) = tokio::io::duplex(PIPE_BYTES);
        let (mut rmcp_in, mut rmcp_out) = guarded(input, client_out, 40);
        let mut passed = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut rmcp_in, &mut passed)
            .await
            .unwrap();
        assert_eq!(passed, "{\"id\":2}\n");
        rmcp_out
            .write_all(b"{\"id\":2,\"result\":{}}\n")
            .await
            .unwrap();
        drop(rmcp_out);
        let mut answers = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut client_in, &mut answers)
            .await
            .unwrap();
        let answers: Vec<Value> = answers
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
        assert_eq!(ids, [&json!(1), &Value::Null, &json!(3), &json!(2)]);
        assert!(
            answers[0]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("not UTF-8 (byte 0xE9")
        );
        assert!(
            answers[2]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("over the limit of 40")
        );
    }
}
