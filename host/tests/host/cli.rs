//! H2: the `filetools` binary. `session` answers each call with one JSON line
//! as soon as it is read (the test waits for each answer before sending the
//! next call), and every line that is not a call with one error; `read`
//! prints what the model would see; one-shot commands sharing a state file
//! wait for each other.

use std::path::Path;
use std::process::Command;

use filetools_tests::cli::text;
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
        "2\tb\n[lines 2-2 of 3; continue with offset=3]\n[version 2dcf53623af3b0ea-6]"
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
        "3\tc\n[lines 3-3 of 3; end of file]\n[version 2dcf53623af3b0ea-6]\n"
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

#[test]
fn a_line_not_utf8_or_over_the_cap_gets_one_error_and_the_session_goes_on() {
    let (root, _) = root_and_outside("cli-bad-lines");
    std::fs::write(root.join("x.txt"), "x\n").unwrap();
    let mut session = SessionProcess::start_with(&root, &["--max-line-bytes", "1000"]);
    let mut answer = |bytes: &[u8]| {
        session.send_raw(bytes);
        session.answer()
    };
    let latin1 = answer(b"{\"tool\":\"read\",\"args\":{\"file_path\":\"caf\xe9.txt\"}}\n");
    assert_eq!(latin1["isError"], true);
    assert!(text(&latin1).starts_with("Error: the line is not UTF-8 (byte 0xE9 at offset 39)"));
    let mut long = vec![b'{'; 5000];
    long.push(b'\n');
    let over = answer(&long);
    assert!(text(&over).starts_with("Error: the line has 5000 bytes, over the limit of 1000"));
    let read = answer(b"{\"tool\":\"read\",\"args\":{\"file_path\":\"x.txt\"}}\n");
    assert_eq!(
        text(&read),
        "1\tx\n[lines 1-1 of 1; end of file]\n[version 5c86dd76b239dbde-2]"
    );
    session.finish();
}

#[test]
fn one_shot_commands_sharing_a_state_file_keep_every_record() {
    use std::os::unix::fs::PermissionsExt as _;
    let (root, outside) = root_and_outside("cli-state-lock");
    let state = outside.join("state.json");
    let files: Vec<String> = (0..8).map(|i| format!("f{i}.txt")).collect();
    for name in &files {
        std::fs::write(root.join(name), format!("{name}\n")).unwrap();
    }
    let one_shot = |args: &[&str]| one_shot_with_state(&root, &state, args);
    std::thread::scope(|scope| {
        let reads: Vec<_> = files
            .iter()
            .map(|name| scope.spawn(|| one_shot(&["read", name])))
            .collect();
        for read in reads {
            assert!(read.join().unwrap().status.success());
        }
    });
    for name in &files {
        let out = one_shot(&["write", name, "--content", "new\n"]);
        assert!(
            out.status.success(),
            "{name}: the read was forgotten: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let mode = std::fs::metadata(&state).unwrap().permissions().mode();
    assert_eq!(
        mode & 0o777,
        0o600,
        "the state holds file contents: private"
    );
    let names: Vec<_> = std::fs::read_dir(&outside)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "secret.txt")
        .collect();
    assert_eq!(names, ["state.json"], "no temporary files are left");
}

#[test]
fn a_trapped_one_shot_call_keeps_the_state_file_whole() {
    let (root, outside) = root_and_outside("cli-state-trap");
    let state = outside.join("state.json");
    std::fs::write(root.join("small.txt"), "fine\n").unwrap();
    std::fs::write(root.join("big.txt"), "m".repeat(64 << 20)).unwrap();
    let config = r#"{"max_output_tokens": 100000000, "max_line_chars": 100000000}"#;
    let limits = ["--memory-mib", "24", "--config", config];
    let one_shot = |args: &[&str]| one_shot_with_state(&root, &state, &[args, &limits].concat());
    assert!(one_shot(&["read", "small.txt"]).status.success());
    assert!(
        one_shot(&["write", "new.txt", "--content", "one\n"])
            .status
            .success()
    );
    let before = std::fs::read_to_string(&state).unwrap();

    let trapped = one_shot(&["read", "big.txt"]);
    assert_eq!(trapped.status.code(), Some(1));
    let said = String::from_utf8_lossy(&trapped.stdout);
    assert!(
        said.starts_with("Error: reading big.txt stopped: it needed more than the 24 MiB"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&state).unwrap(), before);

    let edited = one_shot(&["edit", "small.txt", "--old", "fine", "--new", "finer"]);
    assert!(
        edited.status.success(),
        "{}",
        String::from_utf8_lossy(&edited.stdout)
    );
    assert!(one_shot(&["undo", "new.txt"]).status.success());
    assert!(!root.join("new.txt").exists());
}

/// Runs the one-shot command `args` over `root` with the state file `state`.
fn one_shot_with_state(root: &Path, state: &Path, args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .args(args)
        .arg("--root")
        .arg(root)
        .arg("--state")
        .arg(state)
        .output()
        .unwrap()
}

#[test]
fn every_command_has_help_and_the_cli_follows_the_conventions() {
    let run = |args: &[&str]| Command::new(BIN).args(args).output().unwrap();
    for command in ["session", "mcp", "schema", "read", "write", "edit", "undo"] {
        let help = run(&[command, "--help"]);
        assert!(help.status.success(), "{command} --help");
        assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: filetools"));
    }
    assert!(String::from_utf8_lossy(&run(&["read", "--help"]).stdout).contains("--pages"));
    assert!(
        String::from_utf8_lossy(&run(&["undo", "-h"]).stdout).contains("Usage: filetools undo")
    );
    let version = run(&["--version"]);
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("filetools {}\n", env!("CARGO_PKG_VERSION"))
    );
    let unknown = run(&["read", "x.txt", "--offest", "2"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("--offset"),
        "a suggestion"
    );

    let (root, _) = root_and_outside("cli-conventions");
    std::fs::write(root.join("-dash.txt"), "dash\n").unwrap();
    let dash = Command::new(BIN)
        .args(["read", "--root"])
        .arg(&root)
        .args(["--", "-dash.txt"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&dash.stdout),
        "1\tdash\n[lines 1-1 of 1; end of file]\n[version 125d15183634b34f-5]\n"
    );
    let missing = root.join("no-such-dir");
    let out = Command::new(BIN)
        .args(["read", "a.txt", "--root"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&*missing.to_string_lossy())
            && stderr.contains("give an existing directory"),
        "{stderr}"
    );
}

#[test]
fn schema_prints_every_format_rendered_from_the_config() {
    for format in ["mcp", "anthropic", "openai", "openai-strict"] {
        let out = Command::new(BIN)
            .args([
                "schema",
                "--format",
                format,
                "--config",
                r#"{"max_lines": 1000}"#,
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}");
        let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(tools.as_array().unwrap().len(), 7, "{format}");
        assert!(tools.to_string().contains("up to 1000 lines"), "{format}");
    }
    let read_only = Command::new(BIN)
        .args([
            "schema",
            "--read-only",
            "--tools",
            "filetools,text-editor,apply-patch",
        ])
        .output()
        .unwrap();
    assert!(read_only.status.success());
    let tools: Value = serde_json::from_slice(&read_only.stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["read", "grep", "find", "str_replace_based_edit_tool"]
    );
    let bad = Command::new(BIN)
        .args(["schema", "--config", r#"{"max_lines": 0}"#])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("max_lines"));
}
