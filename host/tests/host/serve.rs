//! `filetools serve`: replicas sharing a real `redis-server`, driven by
//! the Python MCP SDK's clients and by bare HTTP; a replica killed mid-run;
//! eight clients racing on one session; and requests refused at the door.

use std::io::Write as _;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use filetools_tests::http::{
    Response, ServeProcess, call_at, post, read_response, send_head, tool_call,
};
use filetools_tests::redis::RedisServer;
use serde_json::{Value, json};

use crate::BIN;

const TOKEN: &str = "test-token-0123456789";

fn redis() -> RedisServer {
    RedisServer::start().expect("redis-server is missing: run `cargo xtask setup`")
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("filetools-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn replica(root: &Path, store: &str) -> ServeProcess {
    let root = root.to_str().unwrap();
    ServeProcess::start(
        Path::new(BIN),
        &["--root", root, "--store", store],
        &[("FILETOOLS_TOKEN", TOKEN)],
    )
    .unwrap()
}

const AUTH: (&str, &str) = ("authorization", "Bearer test-token-0123456789");

/// Calls `tool` on `server` with `args` and the session `handle`.
fn call(server: &ServeProcess, handle: &str, tool: &str, args: &Value) -> Value {
    let mut args = args.clone();
    args["session"] = json!(handle);
    server.call("/mcp", &[AUTH], tool, &args).unwrap()
}

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A new session on `server`: the handle its first answer gives.
fn open_session(server: &ServeProcess, file: &str) -> String {
    let first = server
        .call("/mcp", &[AUTH], "read", &json!({"file_path": file}))
        .unwrap();
    first["_meta"]["filetools/session"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn python_mcp_clients_alternating_between_two_replicas_get_one_process_answers() {
    let redis = redis();
    let root = fresh_dir("python");
    let (a, b) = (replica(&root, &redis.url()), replica(&root, &redis.url()));
    let (url_a, url_b) = (
        format!("http://{}/mcp", a.address),
        format!("http://{}/mcp", b.address),
    );
    crate::mcp::python_client_with(
        "serve_client.py",
        &[
            url_a.as_ref(),
            url_b.as_ref(),
            root.as_os_str(),
            TOKEN.as_ref(),
        ],
    );
}

#[test]
fn a_replica_killed_mid_run_loses_nothing_committed() {
    let redis = redis();
    let root = fresh_dir("kill");
    std::fs::write(root.join("log.txt"), "start\nend\n").unwrap();
    std::fs::write(root.join("other.txt"), "one\ntwo\n").unwrap();
    let (mut a, b) = (replica(&root, &redis.url()), replica(&root, &redis.url()));
    let handle = open_session(&a, "log.txt");
    // Read on A only: B must know it from the store.
    call(&a, &handle, "read", &json!({"file_path": "other.txt"}));
    let mut committed = Vec::new();
    for i in 0..10 {
        let line = format!("line {i}");
        let args = json!({"file_path": "log.txt", "old_string": "end", "new_string": format!("{line}\nend")});
        let answer = call(&a, &handle, "edit", &args);
        assert_eq!(answer["isError"], false, "{answer}");
        committed.push(line);
    }
    // One more edit in flight when A dies.
    let in_flight = {
        let (address, handle) = (a.address.clone(), handle.clone());
        std::thread::spawn(move || {
            let args = json!({"file_path": "log.txt", "old_string": "end", "new_string": "in flight\nend", "session": handle});
            call_at(&address, "/mcp", &[AUTH], "edit", &args)
        })
    };
    std::thread::sleep(Duration::from_millis(2));
    a.kill();
    let _ = in_flight.join();

    // B goes on with the session: the file read on A alone is known.
    let edited = call(
        &b,
        &handle,
        "edit",
        &json!({"file_path": "other.txt", "old_string": "two", "new_string": "TWO"}),
    );
    assert_eq!(edited["isError"], false, "{edited}");
    let mut args = json!({"file_path": "log.txt", "old_string": "end", "new_string": "after\nend"});
    let mut answer = call(&b, &handle, "edit", &args);
    if answer["isError"] == true {
        // The edit in flight landed but was never answered: B says what
        // changed; after a read the edit goes in.
        assert_eq!(answer["structuredContent"]["error"], "stale", "{answer}");
        call(&b, &handle, "read", &json!({"file_path": "log.txt"}));
        args["session"] = json!(handle);
        answer = call(&b, &handle, "edit", &args);
    }
    assert_eq!(answer["isError"], false, "{answer}");
    let text = std::fs::read_to_string(root.join("log.txt")).unwrap();
    for line in &committed {
        assert!(text.contains(line), "{line} was lost: {text}");
    }
    // B's own changes, and A's record of other.txt, undo on B.
    for file in ["log.txt", "other.txt"] {
        let undone = call(&b, &handle, "undo", &json!({"file_path": file}));
        assert_eq!(undone["isError"], false, "{undone}");
    }
    assert_eq!(
        std::fs::read_to_string(root.join("other.txt")).unwrap(),
        "one\ntwo\n"
    );
    assert!(
        !std::fs::read_to_string(root.join("log.txt"))
            .unwrap()
            .contains("after")
    );
}

#[test]
fn eight_clients_racing_on_one_handle_lose_no_record() {
    const CLIENTS: usize = 8;
    const ROUNDS: usize = 5;
    let redis = redis();
    let root = fresh_dir("race");
    for c in 0..CLIENTS {
        std::fs::write(root.join(format!("f{c}.txt")), "x\n").unwrap();
    }
    let replicas = [replica(&root, &redis.url()), replica(&root, &redis.url())];
    let handle = open_session(&replicas[0], "f0.txt");
    let (landed, undone) = (AtomicUsize::new(0), AtomicUsize::new(0));
    std::thread::scope(|scope| {
        for c in 0..CLIENTS {
            let (replicas, handle, landed) = (&replicas, &handle, &landed);
            scope.spawn(move || {
                let file = format!("f{c}.txt");
                call(&replicas[c % 2], handle, "read", &json!({"file_path": file}));
                for r in 0..ROUNDS {
                    // Every edit leans on the record the last one left,
                    // saved by whichever replica ran it.
                    let old = if r == 0 { "x".to_owned() } else { format!("{c}-{}", r - 1) };
                    let args = json!({"file_path": file, "old_string": old, "new_string": format!("{c}-{r}")});
                    let answer = call(&replicas[(c + r) % 2], handle, "edit", &args);
                    assert_eq!(answer["isError"], false, "client {c} round {r}: {answer}");
                    landed.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    std::thread::scope(|scope| {
        for c in 0..CLIENTS {
            let (replicas, handle, undone) = (&replicas, &handle, &undone);
            scope.spawn(move || {
                for r in 0..ROUNDS {
                    let answer = call(
                        &replicas[(c + r + 1) % 2],
                        handle,
                        "undo",
                        &json!({"file_path": format!("f{c}.txt")}),
                    );
                    assert_eq!(answer["isError"], false, "client {c} undo {r}: {answer}");
                    undone.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    assert_eq!(landed.into_inner(), CLIENTS * ROUNDS);
    assert_eq!(undone.into_inner(), CLIENTS * ROUNDS);
    for c in 0..CLIENTS {
        assert_eq!(
            std::fs::read_to_string(root.join(format!("f{c}.txt"))).unwrap(),
            "x\n"
        );
    }
}

/// A server of workspaces alpha and beta, each with its own token.
fn gate_server(name: &str) -> (PathBuf, ServeProcess) {
    let dir = fresh_dir(name);
    for name in ["alpha", "beta"] {
        std::fs::create_dir_all(dir.join("ws").join(name)).unwrap();
    }
    std::fs::write(
        dir.join("tokens"),
        "alpha alpha-token-0123456789\nbeta beta-token-0123456789\n",
    )
    .unwrap();
    let ws = dir.join("ws");
    let tokens = dir.join("tokens");
    let args = [
        "--workspaces",
        ws.to_str().unwrap(),
        "--token-file",
        tokens.to_str().unwrap(),
    ];
    let server = ServeProcess::start(Path::new(BIN), &args, &[]).unwrap();
    (dir, server)
}

fn write_call() -> Vec<u8> {
    tool_call(
        1,
        "write",
        &json!({"file_path": "x.txt", "content": "hi\n"}),
    )
}

#[test]
fn requests_without_their_workspaces_token_or_from_a_rebinding_host_change_nothing() {
    let (dir, server) = gate_server("gate");
    let refused: [(&[(&str, &str)], u16); 4] = [
        (&[], 401),
        (&[("authorization", "Bearer beta-token-0123456789")], 401),
        (
            &[
                ("authorization", "Bearer alpha-token-0123456789"),
                ("host", "evil.example:80"),
            ],
            403,
        ),
        (
            &[
                ("authorization", "Bearer alpha-token-0123456789"),
                ("origin", "http://evil.example"),
            ],
            403,
        ),
    ];
    for (headers, status) in refused {
        let response = post(&server.address, "/mcp/alpha", headers, &write_call()).unwrap();
        assert_eq!(response.status, status, "{headers:?}: {}", response.body);
        assert!(
            response.message().unwrap()["error"]["message"].is_string(),
            "{}",
            response.body
        );
    }
    let response = post(
        &server.address,
        "/mcp/alpha",
        &[("authorization", "Bearer alpha-token-0123456789")],
        b"{not json",
    )
    .unwrap();
    assert!(response.status >= 400, "{}", response.body);
    assert!(
        !dir.join("ws/alpha/x.txt").exists(),
        "a refused request wrote"
    );

    // With its token the write lands; its session is alpha's alone.
    let alpha = [("authorization", "Bearer alpha-token-0123456789")];
    let landed = server
        .call(
            "/mcp/alpha",
            &alpha,
            "write",
            &json!({"file_path": "x.txt", "content": "hi\n"}),
        )
        .unwrap();
    assert_eq!(landed["isError"], false, "{landed}");
    let handle = landed["_meta"]["filetools/session"].as_str().unwrap();
    let beta = [("authorization", "Bearer beta-token-0123456789")];
    let elsewhere = server
        .call(
            "/mcp/beta",
            &beta,
            "read",
            &json!({"file_path": "x.txt", "session": handle}),
        )
        .unwrap();
    assert_eq!(
        elsewhere["structuredContent"]["error"], "unknown_session",
        "{elsewhere}"
    );
    assert!(!dir.join("ws/beta/x.txt").exists());
    // No token names it: whether it exists is not told.
    let missing = post(&server.address, "/mcp/gamma", &alpha, &write_call()).unwrap();
    assert_eq!(missing.status, 401);
}

#[test]
fn a_100_mb_body_is_refused_unread_and_changes_nothing() {
    let (dir, server) = gate_server("body");
    let alpha = ("authorization", "Bearer alpha-token-0123456789");
    // Refused from its declared length.
    let mut stream = TcpStream::connect(&server.address).unwrap();
    send_head(
        &mut stream,
        &server.address,
        "/mcp/alpha",
        &[alpha],
        "104857600",
    )
    .unwrap();
    let _ = stream.write_all(&write_call());
    let response = read_response(stream).unwrap();
    assert_eq!(response.status, 413, "{}", response.body);
    assert!(response.message().unwrap()["error"]["message"].is_string());
    // Streamed without a length: cut off at the cap.
    let mut stream = TcpStream::connect(&server.address).unwrap();
    send_head(
        &mut stream,
        &server.address,
        "/mcp/alpha",
        &[alpha, ("transfer-encoding", "chunked")],
        "",
    )
    .unwrap();
    let chunk = format!("{:x}\r\n{}\r\n", 1 << 20, " ".repeat(1 << 20));
    let reader = stream.try_clone().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..100 {
            if stream.write_all(chunk.as_bytes()).is_err() {
                break;
            }
        }
    });
    if let Ok(response) = read_response(reader) {
        assert_eq!(response.status, 413, "{}", response.body);
    }
    writer.join().unwrap();
    assert!(
        !dir.join("ws/alpha/x.txt").exists(),
        "a refused request wrote"
    );
}

#[test]
fn an_unknown_handle_is_an_answer_the_model_can_recover_from() {
    let root = fresh_dir("unknown");
    std::fs::write(root.join("a.txt"), "a\n").unwrap();
    let server = replica(&root, "memory");
    for handle in ["ft_00000000000000000000000000000000", "../../etc", ""] {
        let answer = call(&server, handle, "read", &json!({"file_path": "a.txt"}));
        assert_eq!(answer["isError"], true, "{answer}");
        assert_eq!(
            answer["structuredContent"]["error"], "unknown_session",
            "{answer}"
        );
        assert!(text(&answer).contains("without `session`"), "{answer}");
    }
}

#[test]
fn serving_beyond_loopback_needs_a_token() {
    let root = fresh_dir("open");
    let out = Command::new(BIN)
        .args([
            "serve",
            "--root",
            root.to_str().unwrap(),
            "--listen",
            "0.0.0.0:0",
        ])
        .env_remove("FILETOOLS_TOKEN")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--token-file"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn connections_that_send_nothing_are_cut_off_and_a_full_server_says_when_to_come_back() {
    let root = fresh_dir("slow");
    std::fs::write(root.join("a.txt"), "a\n").unwrap();
    let server = ServeProcess::start(
        Path::new(BIN),
        &["--root", root.to_str().unwrap(), "--max-connections", "2"],
        &[("FILETOOLS_TOKEN", TOKEN)],
    )
    .unwrap();
    let silent: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(&server.address).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let full = post(&server.address, "/mcp", &[AUTH], &write_call()).unwrap();
    assert_eq!(full.status, 503, "{}", full.body);
    assert_eq!(full.header("connection"), Some("close"));
    assert!(full.header("retry-after").is_some());
    // The silent ones are cut off once their heads are overdue.
    std::thread::sleep(Duration::from_secs(11));
    let answer = server
        .call("/mcp", &[AUTH], "read", &json!({"file_path": "a.txt"}))
        .unwrap();
    assert_eq!(answer["isError"], false, "{answer}");
    drop(silent);
}

#[test]
fn a_session_whose_stored_log_cannot_be_read_starts_anew_and_saves_again() {
    let redis = redis();
    let root = fresh_dir("garbled");
    std::fs::write(root.join("a.txt"), "one\n").unwrap();
    let server = replica(&root, &redis.url());
    let handle = open_session(&server, "a.txt");
    let mut raw = TcpStream::connect(redis.url().trim_start_matches("redis://")).unwrap();
    raw.write_all(format!("SET filetools:log:{{/{handle}}} garbage\r\n").as_bytes())
        .unwrap();
    let mut reply = [0; 5];
    std::io::Read::read_exact(&mut raw, &mut reply).unwrap();
    assert_eq!(&reply, b"+OK\r\n");
    // Another replica brings the session in from the garbled log.
    let other = replica(&root, &redis.url());
    let edit = json!({"file_path": "a.txt", "old_string": "one", "new_string": "two"});
    let refused = call(&other, &handle, "edit", &edit);
    assert_eq!(
        refused["structuredContent"]["error"], "not_read",
        "{refused}"
    );
    assert!(!text(&refused).contains("not kept"), "{refused}");
    call(&other, &handle, "read", &json!({"file_path": "a.txt"}));
    let landed = call(&server, &handle, "edit", &edit);
    assert_eq!(landed["isError"], false, "{landed}");
    assert!(!text(&landed).contains("not kept"), "{landed}");
}

#[test]
fn sessions_over_the_memory_budget_leave_memory_and_come_back_whole() {
    let root = fresh_dir("budget");
    let big = "line of a large file, the same each time\n".repeat(60_000);
    std::fs::write(root.join("big.txt"), big).unwrap();
    std::fs::write(root.join("a.txt"), "one\n").unwrap();
    let server = ServeProcess::start(
        Path::new(BIN),
        &["--root", root.to_str().unwrap(), "--resident-mib", "1"],
        &[("FILETOOLS_TOKEN", TOKEN)],
    )
    .unwrap();
    // Each session's read of the large file grows it past the budget, so
    // the one before leaves memory.
    let handles: Vec<String> = (0..3).map(|_| open_session(&server, "big.txt")).collect();
    for handle in &handles {
        let args = json!({"file_path": "big.txt", "offset": 1, "limit": 50});
        call(&server, handle, "read", &args);
        let again = call(&server, handle, "read", &args);
        assert!(text(&again).contains("unchanged"), "{again}");
        call(&server, handle, "read", &json!({"file_path": "a.txt"}));
        let edit = json!({"file_path": "a.txt", "old_string": "one", "new_string": "ONE"});
        let edited = call(&server, handle, "edit", &edit);
        assert_eq!(edited["isError"], false, "{edited}");
        let undone = call(&server, handle, "undo", &json!({"file_path": "a.txt"}));
        assert_eq!(undone["isError"], false, "{undone}");
    }
}

#[test]
fn the_printed_url_answers_and_a_session_the_client_ends_is_answered_200() {
    let dir = fresh_dir("printed-url");
    // Loopback, so no token is needed, but not among the host names a
    // server answers to by default: only the printed address makes it so.
    let server = ServeProcess::start_on(
        Path::new(BIN),
        "127.0.0.2:0",
        &["--root", dir.to_str().unwrap()],
        &[],
    )
    .unwrap();
    assert!(
        server.address.starts_with("127.0.0.2:"),
        "{}",
        server.address
    );
    let opened = post(&server.address, "/mcp", &[], &initialize()).unwrap();
    assert_eq!(opened.status, 200, "{}", opened.body);
    let session = opened.header("mcp-session-id").unwrap().to_owned();
    // The Python SDK takes 200 or 204 as the session ended, and logs a
    // failed termination for anything else.
    let ended = end_handshake(&server.address, &session, None);
    assert_eq!(ended.status, 200, "{}", ended.body);
}

/// A 2025 handshake's `initialize` request.
fn initialize() -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "serve-test", "version": "1"}}})
    .to_string()
    .into_bytes()
}

/// The client ends its handshake `session` at `address` with a `DELETE`.
fn end_handshake(address: &str, session: &str, token: Option<&str>) -> Response {
    let mut stream = TcpStream::connect(address).unwrap();
    let authorization = token
        .map(|t| format!("authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "DELETE /mcp HTTP/1.1\r\nhost: {address}\r\n{authorization}mcp-session-id: {session}\r\nmcp-protocol-version: 2025-06-18\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
    )
    .unwrap();
    read_response(stream).unwrap()
}

#[test]
fn a_handshake_ended_on_one_replica_is_let_go_by_the_other_within_seconds() {
    let redis = redis();
    let dir_store = fresh_dir("ends-store");
    for store in [redis.url(), format!("dir:{}", dir_store.display())] {
        let root = fresh_dir("ends");
        std::fs::write(root.join("a.txt"), "one\n").unwrap();
        let (a, b) = (replica(&root, &store), replica(&root, &store));
        let opened = post(&a.address, "/mcp", &[AUTH], &initialize()).unwrap();
        assert_eq!(opened.status, 200, "{}", opened.body);
        let session = opened.header("mcp-session-id").unwrap().to_owned();
        let headers = [
            AUTH,
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", "2025-06-18"),
        ];
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        post(
            &a.address,
            "/mcp",
            &headers,
            initialized.to_string().as_bytes(),
        )
        .unwrap();
        let read = || {
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "read", "arguments": {"file_path": "a.txt"}}})
            .to_string()
            .into_bytes()
        };
        // B takes the handshake up from the store, and holds it.
        let on_b = post(&b.address, "/mcp", &headers, &read()).unwrap();
        assert_eq!(on_b.status, 200, "{store}: {}", on_b.body);
        assert!(on_b.body.contains("1\\tone"), "{store}: {}", on_b.body);
        let ended = end_handshake(&a.address, &session, Some(TOKEN));
        assert_eq!(ended.status, 200, "{}", ended.body);
        let started = std::time::Instant::now();
        let status = loop {
            let answer = post(&b.address, "/mcp", &headers, &read()).unwrap();
            if answer.status != 200 || started.elapsed() > Duration::from_secs(10) {
                break answer.status;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        println!(
            "{}: the other replica let the ended handshake go after {} ms",
            store.split(':').next().unwrap_or_default(),
            started.elapsed().as_millis()
        );
        assert_eq!(status, 404, "{store}: B still answers the ended handshake");
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{store}: {:?}",
            started.elapsed()
        );
    }
}

/// The value of `key` in the Redis server at `url`, by a bare GET.
fn redis_get(url: &str, key: &str) -> String {
    let mut raw = TcpStream::connect(url.trim_start_matches("redis://")).unwrap();
    raw.write_all(format!("GET {key}\r\n").as_bytes()).unwrap();
    let mut reader = std::io::BufReader::new(raw);
    let mut head = String::new();
    std::io::BufRead::read_line(&mut reader, &mut head).unwrap();
    let len: usize = head.trim_start_matches('$').trim().parse().unwrap();
    let mut body = vec![0; len];
    std::io::Read::read_exact(&mut reader, &mut body).unwrap();
    String::from_utf8(body).unwrap()
}

/// The bytes of the stored log of `handle`, and of the memory it holds
/// saved whole.
fn stored_and_whole(url: &str, root: &Path, handle: &str) -> (usize, usize) {
    let log = redis_get(url, &format!("filetools:log:{{/{handle}}}"));
    let tools = filetools::Tools::builder().root(root).build().unwrap();
    let mut session = tools.session().unwrap();
    session.restore_log(&log).unwrap();
    (log.len(), session.save_log().unwrap().len())
}

#[test]
fn a_stored_log_stays_within_twice_what_its_session_holds() {
    let redis = redis();
    let root = fresh_dir("log-size");
    std::fs::write(root.join("a.txt"), "0\n").unwrap();
    for n in 0..300 {
        std::fs::write(root.join(format!("f{n}.txt")), format!("line {n}\n")).unwrap();
    }
    let server = replica(&root, &redis.url());
    // Just short of the 1,000 lines at which a log is written whole anyway.
    let one = open_session(&server, "a.txt");
    for n in 0..998 {
        let edit = json!({"file_path": "a.txt", "old_string": format!("{n}\n"), "new_string": format!("{}\n", n + 1)});
        let landed = call(&server, &one, "edit", &edit);
        assert_eq!(landed["isError"], false, "{landed}");
    }
    let (stored, whole) = stored_and_whole(&redis.url(), &root, &one);
    println!(
        "998 edits of one file: stored log {stored} bytes, the session saved whole {whole} bytes"
    );
    assert!(stored <= 2 * whole, "{stored} > 2 x {whole}");
    let many = open_session(&server, "f0.txt");
    for n in 0..499 {
        let file = format!("f{}.txt", n % 300);
        call(&server, &many, "read", &json!({"file_path": file}));
        let edit =
            json!({"file_path": file, "old_string": "line", "new_string": format!("line {n}")});
        let landed = call(&server, &many, "edit", &edit);
        assert_eq!(landed["isError"], false, "{landed}");
    }
    let (stored, whole) = stored_and_whole(&redis.url(), &root, &many);
    println!(
        "998 calls over 300 files: stored log {stored} bytes, the session saved whole {whole} bytes"
    );
    assert!(stored <= 2 * whole, "{stored} > 2 x {whole}");
    // A session whose calls go to two replicas by turns: each loads the
    // log the other grew, and must not take it as what the session holds.
    std::fs::write(root.join("b.txt"), "0\n").unwrap();
    let other = replica(&root, &redis.url());
    let both = open_session(&server, "b.txt");
    for n in 0..600 {
        let on = if n % 2 == 0 { &server } else { &other };
        let edit = json!({"file_path": "b.txt", "old_string": format!("{n}\n"), "new_string": format!("{}\n", n + 1)});
        let landed = call(on, &both, "edit", &edit);
        assert_eq!(landed["isError"], false, "{landed}");
    }
    let (stored, whole) = stored_and_whole(&redis.url(), &root, &both);
    println!(
        "600 edits on two replicas by turns: stored log {stored} bytes, the session saved whole {whole} bytes"
    );
    assert!(stored <= 2 * whole, "{stored} > 2 x {whole}");
}
