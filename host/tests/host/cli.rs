//! H2: the `filetools` binary. `session` answers each call with one JSON line
//! as soon as it is read (the test waits for each answer before sending the
//! next call); `read` prints what the model would see.

use std::process::Command;

use serde_json::Value;

use crate::{BIN, SessionProcess, root_and_outside};

#[test]
fn session_answers_each_line_at_once_in_the_protocol_shape() {
    let (root, _) = root_and_outside("cli-session");
    std::fs::write(root.join("x.txt"), "a\nb\nc\n").unwrap();
    let mut session = SessionProcess::start(&root);
    let answers: Vec<_> = [
        r#"{"tool":"read","args":{"file_path":"x.txt","offset":2,"limit":1}}"#,
        "this is not json",
        r#"{"tool":"read","args":{"file_path":"missing.txt"}}"#,
    ]
    .into_iter()
    .map(|line| session.send(line))
    .collect();
    session.finish();
    let first = &answers[0];
    assert_eq!(first["isError"], false);
    assert_eq!(first["content"][0]["type"], "text");
    assert_eq!(
        first["content"][0]["text"],
        "2\tb\n[lines 2-2 of 3; continue with offset=3]"
    );
    assert_eq!(first["structuredContent"]["next_offset"], 3);
    assert_eq!(answers[1]["isError"], true);
    assert_eq!(answers[2]["isError"], true);
    assert_eq!(answers[2]["structuredContent"]["error"], "not_found");
}

#[test]
fn one_shot_read_prints_the_view_and_fails_on_errors() {
    let (root, _) = root_and_outside("cli-read");
    std::fs::write(root.join("x.txt"), "a\nb\nc\n").unwrap();
    let out = Command::new(BIN)
        .args(["read", "x.txt", "--offset", "3", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "3\tc\n[lines 3-3 of 3; end of file]\n"
    );
    let missing = Command::new(BIN)
        .args(["read", "nope.txt", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stdout).starts_with("Error: nope.txt does not exist"));
}

#[test]
fn one_shot_read_resolves_paths_from_the_current_directory() {
    let (root, _) = root_and_outside("cli-cwd");
    std::fs::create_dir(root.join("sub")).unwrap();
    std::fs::write(root.join("sub/y.txt"), "why\n").unwrap();
    let out = Command::new(BIN)
        .current_dir(root.join("sub"))
        .args(["read", "y.txt", "--json", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["structuredContent"]["path"], "sub/y.txt");
}
