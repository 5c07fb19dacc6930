//! Each message the client sends, judged before rmcp sees it. rmcp drops a
//! message it cannot type without a word, or answers it without its id, so
//! a client would wait for that request forever; here every such message
//! is refused with a JSON-RPC error that carries the request's id, and only
//! what rmcp types and answers goes on. Stricter than a lenient parser on
//! purpose: a key given twice, a lone surrogate or a batch could be read
//! two ways, and a file tool must not guess which call was meant.

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value, json};

use super::rescue::request_id;
use crate::protocol::{Line, Taken};

/// JSON-RPC: the message is not JSON.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the message is JSON but not a request.
const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: the request's params do not fit its method.
const INVALID_PARAMS: i64 = -32602;
/// How deep arrays and objects may nest: serde_json's recursion limit,
/// which stops the parse before the stack runs out.
const MAX_DEPTH: usize = 128;

/// What to do with one line from the client.
#[derive(Debug)]
pub(super) enum Verdict {
    /// A message rmcp types and answers.
    Pass(Box<ClientJsonRpcMessage>),
    /// Refused; the error (or, for a batch, the array of errors) to send.
    Refuse(Value),
    /// Nothing to run and nothing to answer: a blank line, a notification
    /// or a response that does not fit.
    Drop,
}

/// Judges the line `taken`, whose cap was `cap` bytes.
pub(super) fn judge(taken: &Taken, cap: u64) -> Verdict {
    let text = match &taken.line {
        Line::Text(text) if text.trim().is_empty() => return Verdict::Drop,
        Line::Text(text) => text,
        Line::NotUtf8 { at, byte } => {
            return unparsed(
                taken,
                &format!(
                    "the message is not UTF-8 (byte 0x{byte:02X} at offset {at}); nothing was done; send JSON in UTF-8"
                ),
            );
        }
        Line::TooLong { bytes } => {
            return unparsed(
                taken,
                &format!(
                    "the message has {bytes} bytes, over the limit of {cap}; nothing was done; send smaller calls (change a large file with several edits)"
                ),
            );
        }
    };
    let mut parser = serde_json::Deserializer::from_str(text);
    let parsed = Strict::deserialize(&mut parser).and_then(|Strict(value)| {
        parser.end()?;
        Ok(value)
    });
    match parsed {
        Ok(Value::Array(batch)) => batch_refused(&batch),
        Ok(Value::Object(message)) => one(message),
        Ok(_) => refuse(
            INVALID_REQUEST,
            &Value::Null,
            "a message must be a JSON object",
        ),
        Err(err) if err.classify() == serde_json::error::Category::Data => refuse(
            INVALID_REQUEST,
            &echo(Some(&request_id(taken))),
            &format!("{err}; nothing was done; give each key once"),
        ),
        Err(err) if err.to_string().contains("escape") || err.to_string().contains("surrogate") => {
            unparsed(
                taken,
                &format!(
                    "the message has a \\u escape that is no whole character ({err}): a lone surrogate or a cut escape; nothing was done; escape a character beyond U+FFFF as a surrogate pair"
                ),
            )
        }
        Err(err) if err.to_string().starts_with("recursion limit exceeded") => unparsed(
            taken,
            &format!(
                "the message nests arrays and objects more than {MAX_DEPTH} deep; nothing was done"
            ),
        ),
        Err(err) => unparsed(
            taken,
            &format!("the message is not JSON ({err}); nothing was done"),
        ),
    }
}

/// A parse error answering `taken`, with its id when it can be found.
fn unparsed(taken: &Taken, message: &str) -> Verdict {
    refuse(PARSE_ERROR, &echo(Some(&request_id(taken))), message)
}

/// One JSON-RPC error answer.
fn error(code: i64, id: &Value, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn refuse(code: i64, id: &Value, message: &str) -> Verdict {
    Verdict::Refuse(error(code, id, message))
}

/// The id an answer repeats: the request's when it is a string or a
/// number, else `null` (JSON-RPC's id for a request whose id is unknown).
fn echo(id: Option<&Value>) -> Value {
    match id {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    }
}

/// A batch: MCP took batches out of the protocol (2025-06-18), and the
/// SDKs no longer send them, so every request in one gets an error in one
/// array; notifications in it get nothing, as JSON-RPC asks.
fn batch_refused(batch: &[Value]) -> Verdict {
    const WHY: &str =
        "batches are not accepted; nothing was done; send each message on its own line";
    if batch.is_empty() {
        return refuse(INVALID_REQUEST, &Value::Null, "the batch is empty");
    }
    let answers: Vec<Value> = batch
        .iter()
        .filter(|message| !is_notification(message))
        .map(|message| error(INVALID_REQUEST, &echo(message.get("id")), WHY))
        .collect();
    if answers.is_empty() {
        Verdict::Drop
    } else {
        Verdict::Refuse(Value::Array(answers))
    }
}

fn is_notification(message: &Value) -> bool {
    message.get("method").is_some_and(Value::is_string) && message.get("id").is_none()
}

/// One message: a request, a notification or a response.
fn one(mut message: Map<String, Value>) -> Verdict {
    let id = echo(message.get("id"));
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return refuse(INVALID_REQUEST, &id, "\"jsonrpc\" must be \"2.0\"");
    }
    let method = match message.get("method") {
        Some(Value::String(method)) => method.clone(),
        Some(_) => return refuse(INVALID_REQUEST, &id, "\"method\" must be a string"),
        None if message.contains_key("result") || message.contains_key("error") => {
            // A response: rmcp matches it to a request it sent, if any.
            return typed(message).map_or(Verdict::Drop, |typed| Verdict::Pass(Box::new(typed)));
        }
        None => {
            return refuse(
                INVALID_REQUEST,
                &id,
                "the message has no \"method\"; name the method to run",
            );
        }
    };
    if message.get("params").is_some_and(Value::is_null) {
        message.remove("params");
    }
    if !message.contains_key("id") {
        // A notification is never answered, not even with an error.
        if !matches!(message.get("params"), None | Some(Value::Object(_))) {
            return Verdict::Drop;
        }
        return typed(message).map_or(Verdict::Drop, |typed| Verdict::Pass(Box::new(typed)));
    }
    if !message["id"].is_string() && !message["id"].is_i64() {
        return refuse(
            INVALID_REQUEST,
            &id,
            "\"id\" must be a string or an integer that fits in 64 signed bits",
        );
    }
    if method.starts_with("notifications/") {
        return refuse(
            INVALID_REQUEST,
            &id,
            &format!("{method} is a notification; send it without an \"id\""),
        );
    }
    if let Some(why) = params_refusal(&method, message.get("params")) {
        return refuse(INVALID_PARAMS, &id, &why);
    }
    match typed(message) {
        Some(JsonRpcMessage::Request(typed))
            if matches!(typed.request, ClientRequest::CustomRequest(_))
                && KNOWN_METHODS.contains(&method.as_str()) =>
        {
            refuse(
                INVALID_PARAMS,
                &id,
                &format!("the params do not fit {method}; nothing was done"),
            )
        }
        Some(typed) => Verdict::Pass(Box::new(typed)),
        None => refuse(
            INVALID_PARAMS,
            &id,
            &format!("the params do not fit {method}; nothing was done"),
        ),
    }
}

/// The methods rmcp types, whose requests it would take as unknown ones
/// (and answer "method not found") when their params do not fit.
const KNOWN_METHODS: [&str; 13] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "logging/setLevel",
    "completion/complete",
];

/// Why the params of a `method` request are refused, if they are: they
/// must be an object, and a tool call must name its tool and give its
/// arguments as an object.
fn params_refusal(method: &str, params: Option<&Value>) -> Option<String> {
    match params {
        None | Some(Value::Object(_)) => {}
        Some(_) => return Some("\"params\" must be an object; nothing was done".to_owned()),
    }
    if method != "tools/call" {
        return None;
    }
    let Some(params) = params else {
        return Some(
            "tools/call needs params with the tool's \"name\"; nothing was done".to_owned(),
        );
    };
    if !params.get("name").is_some_and(Value::is_string) {
        return Some(
            "tools/call needs the tool's \"name\" as a string; nothing was done".to_owned(),
        );
    }
    match params.get("arguments") {
        None | Some(Value::Null | Value::Object(_)) => None,
        Some(_) => Some(
            "a tool call's \"arguments\" must be an object of argument names and values; nothing was done"
                .to_owned(),
        ),
    }
}

/// The message as rmcp types it, if it can.
fn typed(message: Map<String, Value>) -> Option<ClientJsonRpcMessage> {
    serde_json::from_value(Value::Object(message)).ok()
}

/// A JSON value parsed strictly: a key repeated in one object is an error.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "the key {key:?} appears twice in one object"
                )));
            }
            let Strict(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Splitter;

    fn verdict(line: &str) -> Verdict {
        let mut splitter = Splitter::new(1 << 20);
        let (_, ended) = splitter.feed(format!("{line}\n").as_bytes());
        assert!(ended);
        judge(&splitter.take(), 1 << 20)
    }

    /// Checks that `line` is refused with `code`, repeating `id`, in a
    /// message that says `says`.
    fn assert_refused(line: &str, id: &Value, code: i64, says: &str) {
        let Verdict::Refuse(answer) = verdict(line) else {
            panic!("{line} was not refused");
        };
        let shown = &line[..line.len().min(80)];
        assert_eq!(&answer["id"], id, "{shown}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{shown}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{shown}: {message}");
    }

    #[test]
    fn a_message_that_parses_two_ways_or_not_at_all_is_refused_with_its_id() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let deeper = format!("{}1{}", "{\"a\":".repeat(100_000), "}".repeat(100_000));
        let call = |id: u32, params: &str| {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#)
        };
        let twice = call(8, r#"{"name":"read","name":"write"}"#);
        assert_refused(&twice, &json!(8), INVALID_REQUEST, "\"name\" appears twice");
        let surrogate = call(
            9,
            r#"{"name":"read","arguments":{"file_path":"a\ud800.txt"}}"#,
        );
        assert_refused(&surrogate, &json!(9), PARSE_ERROR, "lone surrogate");
        let cut = call(12, r#"{"name":"read","arguments":{"file_path":"a\u12"}}"#);
        assert_refused(&cut, &json!(12), PARSE_ERROR, "a cut escape");
        assert_refused(
            &call(10, &deep),
            &json!(10),
            PARSE_ERROR,
            "more than 128 deep",
        );
        assert_refused(
            &call(11, &deeper),
            &json!(11),
            PARSE_ERROR,
            "more than 128 deep",
        );
        let trailing = r#"{"jsonrpc":"2.0","id":16,"method":"ping"} trailing"#;
        assert_refused(trailing, &json!(16), PARSE_ERROR, "not JSON");
        assert_refused("17", &Value::Null, INVALID_REQUEST, "JSON object");
    }

    #[test]
    fn a_malformed_request_is_refused_with_its_id() {
        let cases = [
            (r#"{"jsonrpc":"2.0","id":3}"#, json!(3), "no \"method\""),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":5}"#,
                json!(4),
                "must be a string",
            ),
            (
                r#"{"jsonrpc":"1.0","id":"v","method":"ping"}"#,
                json!("v"),
                "\"2.0\"",
            ),
            (r#"{"id":5,"method":"ping"}"#, json!(5), "\"2.0\""),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                json!(1.5),
                "an integer",
            ),
            (
                r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
                Value::Null,
                "an integer",
            ),
            (
                r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
                Value::Null,
                "an integer",
            ),
        ];
        for (line, id, says) in cases {
            assert_refused(line, &id, INVALID_REQUEST, says);
        }
        let huge = r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#;
        assert_refused(huge, &json!(u64::MAX), INVALID_REQUEST, "64 signed bits");
        let noted = r#"{"jsonrpc":"2.0","id":7,"method":"notifications/initialized"}"#;
        assert_refused(noted, &json!(7), INVALID_REQUEST, "without an \"id\"");
        let params = [
            (r#""x""#, "must be an object"),
            ("[1]", "must be an object"),
            (
                r#"{"name":"read","arguments":"a.txt"}"#,
                "must be an object of argument",
            ),
            (r#"{"arguments":{}}"#, "\"name\" as a string"),
        ];
        for (params, says) in params {
            let line =
                format!(r#"{{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{params}}}"#);
            assert_refused(&line, &json!(6), INVALID_PARAMS, says);
        }
        let bare = r#"{"jsonrpc":"2.0","id":13,"method":"tools/call"}"#;
        assert_refused(bare, &json!(13), INVALID_PARAMS, "needs params");
        let init = r#"{"jsonrpc":"2.0","id":15,"method":"initialize","params":{"x":1}}"#;
        assert_refused(init, &json!(15), INVALID_PARAMS, "do not fit initialize");
    }

    #[test]
    fn a_batch_gets_one_error_per_request_in_one_array() {
        let Verdict::Refuse(answer) = verdict(
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"ping"},7]"#,
        ) else {
            panic!("a batch passed");
        };
        let ids: Vec<&Value> = answer
            .as_array()
            .unwrap()
            .iter()
            .map(|a| &a["id"])
            .collect();
        assert_eq!(ids, [&json!(1), &json!("b"), &Value::Null]);
        assert!(matches!(
            verdict(r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#),
            Verdict::Drop
        ));
        assert_refused("[]", &Value::Null, INVALID_REQUEST, "empty");
    }

    #[test]
    fn good_messages_pass_and_stray_ones_are_dropped() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":"x","method":"ping","params":null}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"file_path":"a.txt"}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"nosuch/method","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#,
        ] {
            assert!(matches!(verdict(line), Verdict::Pass(_)), "{line}");
        }
        for line in [
            "",
            "  ",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}"#,
        ] {
            assert!(matches!(verdict(line), Verdict::Drop), "{line}");
        }
    }
}
