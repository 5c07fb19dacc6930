//! `filetools mcp` as a JSON-RPC peer, driven the way a careless or hostile
//! client drives it: malformed messages, a thousand dependent edits sent
//! at once, and a client that stops reading. Every request gets one answer
//! with its id, calls run in the order sent, and memory stays bounded.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::{BIN, root_and_outside};

/// A `filetools mcp` process whose output the test reads when it chooses.
struct Raw {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Raw {
    /// Starts the server on `root` and initializes it.
    fn start(root: &Path) -> Self {
        Self::start_with(root, &[])
    }

    /// [`Raw::start`] with more of the server's arguments.
    fn start_with(root: &Path, args: &[&str]) -> Self {
        let mut child = Command::new(BIN)
            .args(["mcp", "--root"])
            .arg(root)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut raw = Self {
            child,
            stdin,
            stdout,
        };
        raw.send(
            &json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "protocol-test", "version": "1"}}}),
        );
        assert_eq!(raw.next()["id"], "init");
        raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        raw
    }

    fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next message from the server.
    fn next(&mut self) -> Value {
        let mut line = String::new();
        assert!(
            self.stdout.read_line(&mut line).unwrap() > 0,
            "the server ended"
        );
        serde_json::from_str(&line).unwrap()
    }

    /// Every message until the server ends its output.
    fn rest(&mut self) -> Vec<Value> {
        (&mut self.stdout)
            .lines()
            .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
            .collect()
    }

    /// A line of the server's `/proc/PID/status`, as a number.
    fn status(&self, key: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
            .and_then(|value| value.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("no {key} in {status}"))
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How many times each id was answered, over single answers and batch
/// answers alike.
fn answers_per_id(messages: &[Value]) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for message in messages {
        let answers = match message {
            Value::Array(batch) => batch.iter().collect(),
            one => vec![one],
        };
        for answer in answers {
            if answer.get("result").is_some() || answer.get("error").is_some() {
                *counts.entry(answer["id"].to_string()).or_default() += 1;
            }
        }
    }
    counts
}

#[test]
fn every_malformed_request_gets_one_answer_with_its_id() {
    let (root, _) = root_and_outside("mcp-malformed");
    std::fs::write(root.join("a.txt"), "one\n").unwrap();
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let deeper = format!("{}1{}", "{\"a\":".repeat(100_000), "}".repeat(100_000));
    let lines = [
        r#"[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"no-method"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"numeric-method","method":5}"#.to_owned(),
        r#"{"jsonrpc":"1.0","id":"old-jsonrpc","method":"ping"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"string-params","method":"tools/call","params":"read"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"array-params","method":"tools/call","params":["read"]}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"twice","method":"tools/call","params":{"name":"read","arguments":{"file_path":"a.txt","file_path":"b.txt"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"surrogate","method":"tools/call","params":{"name":"read","arguments":{"file_path":"\ud800.txt"}}}"#.to_owned(),
        format!(r#"{{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{deep}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":"deeper","method":"tools/call","params":{deeper}}}"#),
        r#"{"jsonrpc":"2.0","id":"no-params","method":"tools/call"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"unknown","method":"no/such/method"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"good","method":"tools/call","params":{"name":"read","arguments":{"file_path":"a.txt"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"ping","method":"ping"}"#.to_owned(),
    ];
    let mut server = Raw::start(&root);
    for line in &lines {
        server.send_line(line);
    }
    drop(server.stdin.take());
    let messages = server.rest();
    let counts = answers_per_id(&messages);
    let ids = [
        "b1",
        "b2",
        "no-method",
        "numeric-method",
        "old-jsonrpc",
        "string-params",
        "array-params",
        "twice",
        "surrogate",
        "deep",
        "deeper",
        "no-params",
        "unknown",
        "good",
        "ping",
    ];
    for id in ids {
        assert_eq!(
            counts.get(&format!("\"{id}\"")),
            Some(&1),
            "{id}: {messages:?}"
        );
    }
    assert_eq!(counts.len(), ids.len(), "{counts:?}");
    let good = messages.iter().find(|m| m["id"] == "good").unwrap();
    assert_eq!(
        good["result"]["content"][0]["text"],
        "1\tone\n[lines 1-1 of 1; end of file]\n[version efeae4893381a45b-4]"
    );
    let twice = messages.iter().find(|m| m["id"] == "twice").unwrap();
    assert!(
        twice["error"]["message"]
            .as_str()
            .unwrap()
            .contains("\"file_path\" appears twice"),
        "{twice}"
    );
}

#[test]
fn a_thousand_pipelined_dependent_edits_run_in_the_order_sent_on_few_threads() {
    const EDITS: usize = 1000;
    let (root, _) = root_and_outside("mcp-pipelined");
    std::fs::write(root.join("counter.txt"), "n=0\n").unwrap();
    let mut server = Raw::start(&root);
    server.send(
        &json!({"jsonrpc": "2.0", "id": "read", "method": "tools/call",
        "params": {"name": "read", "arguments": {"file_path": "counter.txt"}}}),
    );
    assert_eq!(server.next()["result"]["isError"], false);
    let mut stdin = server.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for i in 0..EDITS {
            let edit = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": "edit", "arguments": {"file_path": "counter.txt",
                    "old_string": format!("n={i}\n"), "new_string": format!("n={}\n", i + 1)}}});
            writeln!(stdin, "{edit}").unwrap();
        }
        stdin
    });
    let mut threads = 0;
    let mut failed = Vec::new();
    for _ in 0..EDITS {
        let answer = server.next();
        threads = threads.max(server.status("Threads"));
        if answer["result"]["isError"] != false {
            failed.push(answer);
        }
    }
    drop(writer.join().unwrap());
    assert!(
        failed.is_empty(),
        "{} edits failed, e.g. {}",
        failed.len(),
        failed[0]
    );
    assert_eq!(
        std::fs::read_to_string(root.join("counter.txt")).unwrap(),
        format!("n={EDITS}\n")
    );
    // The runtime's thread, the calls' thread and the engine's helpers.
    assert!(threads <= 8, "{threads} threads");
}

#[test]
#[expect(clippy::print_stderr, reason = "the peak is a figure to report")]
fn a_client_that_stops_reading_holds_the_server_to_bounded_memory() {
    const MESSAGES: usize = 1_000_000;
    let (root, _) = root_and_outside("mcp-unread");
    let mut server = Raw::start(&root);
    let before = server.status("VmRSS");
    let mut stdin = server.stdin.take().unwrap();
    let sent = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&sent);
    let writer = std::thread::spawn(move || {
        let mut batch = String::new();
        for i in 0..MESSAGES {
            // Half pings rmcp answers, half messages the guard refuses.
            if i % 2 == 0 {
                writeln!(
                    batch,
                    "{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"ping\"}}"
                )
                .unwrap();
            } else {
                writeln!(batch, "{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":7}}").unwrap();
            }
            if batch.len() > 16 * 1024 {
                stdin.write_all(batch.as_bytes()).unwrap();
                counter.store(i + 1, Ordering::Relaxed);
                batch.clear();
            }
        }
        stdin.write_all(batch.as_bytes()).unwrap();
        counter.store(MESSAGES, Ordering::Relaxed);
        stdin
    });
    // Unread, the server stops reading too: the client's writes block.
    std::thread::sleep(Duration::from_secs(1));
    let stalled = sent.load(Ordering::Relaxed);
    assert!(stalled < MESSAGES / 10, "{stalled} messages went in unread");
    let mut answered = vec![false; MESSAGES];
    for _ in 0..MESSAGES {
        let answer = server.next();
        let id = usize::try_from(answer["id"].as_u64().unwrap()).unwrap();
        assert!(!answered[id], "{id} answered twice");
        answered[id] = true;
    }
    let peak = server.status("VmHWM");
    drop(writer.join().unwrap());
    assert!(server.rest().is_empty());
    eprintln!(
        "{MESSAGES} messages, {stalled} sent before the client read: RSS {before} KiB at start, peak {peak} KiB"
    );
    assert!(
        peak < before + 32 * 1024,
        "peak {peak} KiB from {before} KiB"
    );
}

#[test]
fn a_cancelled_request_is_not_answered_and_the_server_still_ends_with_its_input() {
    let (root, _) = root_and_outside("mcp-cancelled");
    let line = format!("{}\n", "x".repeat(60));
    std::fs::write(root.join("big.txt"), line.repeat(200_000)).unwrap();
    let mut server = Raw::start(&root);
    server.send(
        &json!({"jsonrpc": "2.0", "id": "long", "method": "tools/call",
        "params": {"name": "read", "arguments": {"file_path": "big.txt", "offset": 199_990}}}),
    );
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": "long", "reason": "the user moved on"}}),
    );
    server.send(&json!({"jsonrpc": "2.0", "id": "after", "method": "ping"}));
    drop(server.stdin.take());
    // The answer to "long" may have gone out before the cancel came; the
    // server must not wait for an answer it will never send.
    let messages = server.rest();
    let counts = answers_per_id(&messages);
    assert_eq!(counts.get("\"after\""), Some(&1), "{messages:?}");
    assert!(
        counts.get("\"long\"").is_none_or(|n| *n == 1),
        "{messages:?}"
    );
    assert!(server.child.wait().unwrap().success());
}

#[test]
fn a_notification_before_initialize_is_dropped_and_the_ping_still_answered() {
    let (root, _) = root_and_outside("mcp-before-init");
    let mut child = Command::new(BIN)
        .args(["mcp", "--root"])
        .arg(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in [
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":9,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    ] {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!(answers[0]["id"], 1);
    assert!(answers[0].get("result").is_some(), "{answers:?}");
}

#[test]
fn an_id_reused_after_a_cancel_never_gets_the_cancelled_calls_answer() {
    let (root, _) = root_and_outside("mcp-reused-id");
    let big = "x".repeat(8 << 20);
    let mut server = Raw::start(&root);
    server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "write", "arguments": {"file_path": "big.txt", "content": big}}}));
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1}}),
    );
    server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "write", "arguments": {"file_path": "small.txt", "content": "x\n"}}}));
    server.send(&json!({"jsonrpc": "2.0", "id": "last", "method": "ping"}));
    drop(server.stdin.take());
    let messages = server.rest();
    for answer in messages.iter().filter(|m| m["id"] == 1) {
        let text = answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(
            text.contains("small.txt"),
            "id 1 got another call's answer: {answer}"
        );
    }
    // The reuse is either refused (the first still ran) or answered.
    assert!(messages.iter().any(|m| m["id"] == "last"), "{messages:?}");
}

/// The tools a read-only server started with `sets` lists, each with the
/// commands its schema offers.
fn read_only_listing(root: &Path, sets: &str) -> Vec<(String, Value)> {
    let mut raw = Raw::start_with(root, &["--read-only", "--tools", sets]);
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let listed = raw.next();
    listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
            let commands = tool["inputSchema"]["properties"]["command"]["enum"].clone();
            (tool["name"].as_str().unwrap().to_owned(), commands)
        })
        .collect()
}

#[test]
fn a_read_only_server_lists_exactly_the_tools_that_can_succeed() {
    let (root, _) = root_and_outside("mcp-read-only-listing");
    std::fs::write(root.join("a.txt"), "a\n").unwrap();
    let names = |listing: Vec<(String, Value)>| -> Vec<String> {
        listing.into_iter().map(|(name, _)| name).collect()
    };
    assert_eq!(
        names(read_only_listing(&root, "filetools")),
        ["read", "grep", "find"]
    );
    assert_eq!(
        read_only_listing(&root, "text-editor"),
        [("str_replace_based_edit_tool".to_owned(), json!(["view"]))]
    );
    // An edit of a file not yet read is refused as read-only at once.
    let mut raw = Raw::start_with(&root, &["--read-only", "--tools", "filetools,text-editor"]);
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "str_replace_based_edit_tool",
        "arguments": {"command": "str_replace", "path": "a.txt", "old_str": "a", "new_str": "b"}}}),
    );
    let answer = raw.next();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(answer.to_string().contains("read-only"), "{answer}");
    // A set with nothing that reads leaves a server with no tools: refused
    // at start, with what to do.
    for sets in ["apply-patch", "notebook"] {
        let out = Command::new(BIN)
            .args(["mcp", "--read-only", "--tools", sets, "--root"])
            .arg(&root)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{sets}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("add a set that reads"), "{sets}: {stderr}");
    }
}

#[test]
fn a_cancel_reaches_its_call_while_every_request_permit_is_held() {
    let (root, _) = root_and_outside("mcp-cancel-when-full");
    // A search that runs for a second or more: a hundred megabytes read.
    let line = format!("{}\n", "abcdefghij klmnop ".repeat(5));
    std::fs::write(root.join("big.txt"), line.repeat(100_000_000 / line.len())).unwrap();
    std::fs::write(root.join("small.txt"), "small\n").unwrap();
    let mut server = Raw::start(&root);
    server.send(
        &json!({"jsonrpc": "2.0", "id": "long", "method": "tools/call", "params": {
        "name": "grep",
        "arguments": {"pattern": "Q", "path": "big.txt", "output_mode": "count"}}}),
    );
    // As many requests again as may be open, queued behind the search:
    // the last ones wait for a permit, and the cancel comes after them.
    let queued = filetools::mcp::MAX_OPEN + 8;
    for i in 0..queued {
        server.send(
            &json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
            "name": "read", "arguments": {"file_path": "small.txt"}}}),
        );
    }
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": "long", "reason": "the user moved on"}}),
    );
    drop(server.stdin.take());
    let messages = server.rest();
    let counts = answers_per_id(&messages);
    // Seen only once the search ended, the cancel would come after its
    // answer had gone out.
    assert_eq!(counts.get("\"long\""), None, "the search was answered");
    for i in 0..queued {
        assert_eq!(counts.get(&i.to_string()), Some(&1), "{i}: {messages:?}");
    }
    assert!(server.child.wait().unwrap().success());
}
