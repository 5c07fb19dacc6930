//! `filetools mcp`: the Python MCP SDK's client against the binary (the
//! core tools, every answer of every tool set, and the MCP filesystem tool
//! set against the reference server's documented behaviours), every schema
//! format against the Python SDKs' types and strict helpers, the protocol
//! versions clients still speak, progress on a long read, and a cancelled
//! read.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use filetools_tests::cli::McpClient;
use serde_json::{Value, json};

use crate::{BIN, root_and_outside, tools};

/// The Python the setup installs the `mcp`, `openai` and `anthropic`
/// packages into.
fn python() -> std::path::PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/py/bin/python");
    assert!(
        python.is_file(),
        "{} is missing: run `cargo xtask setup` to install the Python MCP client",
        python.display()
    );
    python
}

/// Runs the Python MCP client script `name` (in `tests/mcp/`, run from
/// there) against the binary, with `args` after it; it exits 0 when every
/// check holds.
pub fn python_client_with(name: &str, args: &[&std::ffi::OsStr]) {
    let out = Command::new(python())
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp"))
        .arg(name)
        .arg(BIN)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// [`python_client_with`] and nothing after the binary.
fn python_client(name: &str) {
    python_client_with(name, &[]);
}

#[test]
fn the_python_mcp_client_gets_the_session_answers() {
    python_client("client.py");
}

#[test]
fn the_python_mcp_client_gets_every_answer_of_every_tool_set_as_a_tool_result() {
    python_client("every_answer.py");
}

#[test]
fn every_schema_format_of_every_tool_set_fits_the_python_sdks_types_and_strict_helpers() {
    python_client("definitions.py");
}

#[test]
fn the_mcp_filesystem_tool_set_keeps_the_reference_servers_documented_behaviours() {
    python_client("filesystem.py");
}

#[test]
fn the_current_and_older_protocol_versions_are_spoken() {
    let (root, _) = root_and_outside("mcp-versions");
    std::fs::write(root.join("a.txt"), "one\n").unwrap();
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let (mut client, init) = McpClient::start(Path::new(BIN), &root, &[], version).unwrap();
        assert_eq!(init["protocolVersion"], version, "{init}");
        let read = client.call("read", &json!({"file_path": "a.txt"})).unwrap();
        assert_eq!(
            read["content"][0]["text"],
            "1\tone\n[lines 1-1 of 1; end of file]\n[version efeae4893381a45b-4]",
            "{version}: {read}"
        );
    }
}

#[test]
fn a_message_not_utf8_not_json_or_too_long_gets_a_parse_error_with_its_id() {
    let (root, _) = root_and_outside("mcp-bad-lines");
    std::fs::write(root.join("a.txt"), "one\n").unwrap();
    let (mut client, _) = McpClient::start(
        Path::new(BIN),
        &root,
        &["--max-line-bytes", "1000"],
        "2025-06-18",
    )
    .unwrap();
    let latin1 = client
        .send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"tools/call\",\"params\":{\"name\":\"read\",\"arguments\":{\"file_path\":\"caf\xe9.txt\"}}}\n")
        .unwrap();
    assert_eq!(latin1["id"], 41);
    assert_eq!(latin1["error"]["code"], -32700);
    assert!(
        latin1["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("the message is not UTF-8 (byte 0xE9 at offset"),
        "{latin1}"
    );
    let garbage = client.send_raw(b"not json at all\n").unwrap();
    assert_eq!(garbage["id"], Value::Null);
    assert_eq!(garbage["error"]["code"], -32700);
    let content = "x".repeat(5000);
    let long = json!({"method": "tools/call", "params": {"name": "write",
        "arguments": {"file_path": "big.txt", "content": content}}, "jsonrpc": "2.0", "id": 42});
    let over = client.send_raw(format!("{long}\n").as_bytes()).unwrap();
    assert_eq!(over["id"], 42);
    assert!(
        over["error"]["message"]
            .as_str()
            .unwrap()
            .contains("over the limit of 1000"),
        "{over}"
    );
    assert!(!root.join("big.txt").exists());
    // The session goes on.
    let read = client.call("read", &json!({"file_path": "a.txt"})).unwrap();
    assert_eq!(
        read["content"][0]["text"],
        "1\tone\n[lines 1-1 of 1; end of file]\n[version efeae4893381a45b-4]"
    );
}

/// A file whose last lines take the component a while to reach.
fn long_file(root: &Path) {
    let filler = "x".repeat(48);
    let mut text = String::with_capacity(90 << 20);
    for i in 0..1_500_000 {
        writeln!(text, "line {i} {filler}").unwrap();
    }
    std::fs::write(root.join("long.txt"), text).unwrap();
}

#[test]
fn a_long_read_reports_progress_to_a_client_that_asked() {
    let (root, _) = root_and_outside("mcp-progress");
    long_file(&root);
    let (mut client, _) =
        McpClient::start(Path::new(BIN), &root, &["--progress-ms", "5"], "2025-06-18").unwrap();
    let answer = client
        .request(
            "tools/call",
            &json!({"name": "read", "arguments": {"file_path": "long.txt", "offset": 1_499_990},
                "_meta": {"progressToken": "p1"}}),
        )
        .unwrap();
    let progress: Vec<f64> = client
        .progress
        .iter()
        .map(|p| p["progress"].as_f64().unwrap())
        .collect();
    assert!(
        answer["content"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("[lines 1499990-1500000 of 1500000; end of file]"),
        "{answer}"
    );
    assert!(!progress.is_empty(), "no progress notification");
    assert!(progress.windows(2).all(|w| w[0] < w[1]), "{progress:?}");
}

#[test]
fn a_cancelled_read_stops_and_the_session_goes_on() {
    let (root, _) = root_and_outside("mcp-cancel");
    long_file(&root);
    let mut session = tools(&root).session().unwrap();
    let call = r#"{"file_path": "long.txt", "offset": 1499990}"#;
    let cancelled = session.call_cancellable("read", call, &Arc::new(AtomicBool::new(true)));
    assert!(cancelled.is_error);
    assert!(
        cancelled
            .text()
            .starts_with("Cancelled: the read call was stopped"),
        "{}",
        cancelled.text()
    );
    let read = session.call_cancellable("read", call, &Arc::new(AtomicBool::new(false)));
    assert!(!read.is_error, "{}", read.text());
    // A change is never stopped halfway.
    let write = session.call_cancellable(
        "write",
        r#"{"file_path": "new.txt", "content": "x\n"}"#,
        &Arc::new(AtomicBool::new(true)),
    );
    assert!(!write.is_error, "{}", write.text());
    assert_eq!(
        std::fs::read_to_string(root.join("new.txt")).unwrap(),
        "x\n"
    );
}

#[test]
fn a_servers_state_file_stays_locked_across_its_saves_and_a_waiter_is_told_and_bounded() {
    let (root, _) = root_and_outside("mcp-state-lock");
    std::fs::write(root.join("a.txt"), "one\n").unwrap();
    let state = root.with_extension("state.json");
    let _ = std::fs::remove_file(&state);
    let state_arg = state.to_str().unwrap();
    let (mut server, _) =
        McpClient::start(Path::new(BIN), &root, &["--state", state_arg], "2025-06-18").unwrap();
    // The call saves the state: a new file takes the path's place.
    server.call("read", &json!({"file_path": "a.txt"})).unwrap();
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("a.txt"), "{saved}");
    let one_shot = |wait: &str| {
        Command::new(BIN)
            .args(["read", "a.txt", "--root"])
            .arg(&root)
            .args(["--state", state_arg, "--lock-wait", wait])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    // A wait past its limit fails, naming the file and the way out.
    let started = std::time::Instant::now();
    let bounded = one_shot("1").wait_with_output().unwrap();
    assert!(!bounded.status.success());
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let said = String::from_utf8_lossy(&bounded.stderr);
    assert!(
        said.contains("still held by another filetools process after 1 s"),
        "{said}"
    );
    assert!(said.contains("--lock-wait"), "{said}");
    // A longer wait is told after a second, and goes on when the server ends.
    let mut other = one_shot("60");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(
        other.try_wait().unwrap().is_none(),
        "the one-shot read ran while the server held the state"
    );
    drop(server);
    let out = other.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("waiting up to 60 s for it"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
