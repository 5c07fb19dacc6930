//! W2–W4, E4, E10, S3 through the `filetools` binary: a file changed on disk
//! between read and write — even with the same size and mtime — is never
//! overwritten; every refusal leaves the file byte-identical; `--state`
//! carries a session across one-shot invocations.

use std::fs::{self, File};
use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::{BIN, SessionProcess, root_and_outside};

/// Replaces `path`'s content with text of the same size and puts its mtime
/// back, the change a size-and-mtime check cannot see.
fn change_keeping_size_and_mtime(path: &Path, text: &str) {
    let mtime = fs::metadata(path).unwrap().modified().unwrap();
    assert_eq!(fs::metadata(path).unwrap().len(), text.len() as u64);
    fs::write(path, text).unwrap();
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    assert_eq!(fs::metadata(path).unwrap().modified().unwrap(), mtime);
}

#[test]
fn a_same_size_same_mtime_change_is_never_overwritten() {
    let (root, _) = root_and_outside("changes-stale");
    let file = root.join("notes.txt");
    fs::write(&file, "alpha\nbeta\n").unwrap();
    let mut session = SessionProcess::start(&root);
    session.call("read", &json!({"file_path": "notes.txt"}));
    change_keeping_size_and_mtime(&file, "ALPHA\nBETA\n");
    let write = session.call(
        "write",
        &json!({"file_path": "notes.txt", "content": "mine\n"}),
    );
    assert_eq!(write["isError"], true);
    assert_eq!(write["structuredContent"]["error"], "stale");
    assert_eq!(fs::read(&file).unwrap(), b"ALPHA\nBETA\n");
    // The refusal showed the lines as they are now: an edit of them needs
    // no other read.
    let edit = session.call(
        "edit",
        &json!({"file_path": "notes.txt", "old_string": "BETA", "new_string": "gamma"}),
    );
    assert_eq!(edit["isError"], false, "{edit}");
    assert_eq!(fs::read(&file).unwrap(), b"ALPHA\ngamma\n");
    session.finish();
}

#[test]
fn every_refusal_leaves_the_file_byte_identical() {
    let (root, _) = root_and_outside("changes-refusals");
    let file = root.join("code.rs");
    let original = "\u{feff}fn a() {\r\n    x();\r\n}\r\nfn b() {\r\n    x();\r\n}\r\n";
    fs::write(&file, original).unwrap();
    let mut session = SessionProcess::start(&root);
    let edit = |old: &str, new: &str| json!({"file_path": "code.rs", "old_string": old, "new_string": new});
    let mut refusals = vec![
        session.call("write", &json!({"file_path": "code.rs", "content": "x"})),
        session.call("edit", &edit("x();", "y();")),
    ];
    session.call("read", &json!({"file_path": "code.rs", "limit": 2}));
    refusals.extend([
        session.call("write", &json!({"file_path": "code.rs", "content": "x"})),
        session.call("edit", &edit("x();", "y();")),
        session.call("edit", &edit("z();", "y();")),
        session.call("edit", &edit("same", "same")),
        session.call("edit", &edit("", "new")),
        session.call(
            "write",
            &json!({"file_path": "code.rs", "content": "1\tfn a() {\n2\t}\n"}),
        ),
        session.call("undo", &json!({"file_path": "code.rs"})),
        session.call(
            "edit",
            &json!({"file_path": "code.rs", "edits": [
                {"old_string": "fn a()", "new_string": "fn c()"},
                {"old_string": "missing", "new_string": "m"}
            ]}),
        ),
    ]);
    for refusal in &refusals {
        assert_eq!(refusal["isError"], true, "{refusal}");
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            original,
            "after {refusal}"
        );
    }
    let codes: Vec<&str> = refusals
        .iter()
        .map(|r| r["structuredContent"]["error"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            "not_read",
            "not_read",
            "partial_view",
            "ambiguous",
            "no_match",
            "no_change",
            "file_not_empty",
            "display_text",
            "nothing_to_undo",
            "no_match"
        ]
    );
    let ok = session.call("edit", &edit("fn b() {\n    x();", "fn b() {\n    y();"));
    assert_eq!(ok["isError"], false, "{ok}");
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "\u{feff}fn a() {\r\n    x();\r\n}\r\nfn b() {\r\n    y();\r\n}\r\n"
    );
    session.finish();
}

fn one_shot(root: &Path, state: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(BIN)
        .args(args)
        .arg("--root")
        .arg(root)
        .arg("--state")
        .arg(state)
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn state_files_carry_the_session_across_one_shot_commands() {
    let (root, outside) = root_and_outside("changes-state");
    let state = outside.join("session.json");
    fs::write(root.join("a.txt"), "one\ntwo\n").unwrap();
    let (ok, out) = one_shot(
        &root,
        &state,
        &["edit", "a.txt", "--old", "two", "--new", "2"],
    );
    assert!(!ok);
    assert!(out.starts_with("Error: you have not read a.txt"), "{out}");
    assert!(one_shot(&root, &state, &["read", "a.txt"]).0);
    let (ok, out) = one_shot(
        &root,
        &state,
        &["edit", "a.txt", "--old", "two", "--new", "2"],
    );
    assert!(ok, "{out}");
    assert_eq!(
        out,
        "Edited a.txt: 1 replacement; the file has 2 lines.\n1\tone\n2\t2\n[version 6763496d4b433db3-6]\n"
    );
    let (ok, out) = one_shot(&root, &state, &["write", "a.txt", "--content", "three\n"]);
    assert!(ok, "{out}");
    assert!(one_shot(&root, &state, &["undo", "a.txt"]).0);
    assert_eq!(fs::read(root.join("a.txt")).unwrap(), b"one\n2\n");
    assert!(one_shot(&root, &state, &["undo", "a.txt"]).0);
    assert_eq!(fs::read(root.join("a.txt")).unwrap(), b"one\ntwo\n");
    let (ok, out) = one_shot(&root, &state, &["undo", "a.txt"]);
    assert!(!ok);
    assert!(out.contains("nothing to undo"), "{out}");
    fs::write(&state, "{\"version\": 99}").unwrap();
    let bad = Command::new(BIN)
        .args(["read", "a.txt", "--root"])
        .arg(&root)
        .arg("--state")
        .arg(&state)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("version 99"));
}

#[test]
fn writes_never_leave_the_root() {
    let (root, outside) = root_and_outside("changes-sandbox");
    std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("link.txt")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("out")).unwrap();
    let mut session = SessionProcess::start(&root);
    for path in [
        "../outside/new.txt",
        "/etc/filetools-test",
        "out/new.txt",
        "link.txt",
    ] {
        let write = session.call("write", &json!({"file_path": path, "content": "x\n"}));
        assert_eq!(write["isError"], true, "{path}: {write}");
        let edit = session.call(
            "edit",
            &json!({"file_path": path, "old_string": "", "new_string": "x\n"}),
        );
        assert_eq!(edit["isError"], true, "{path}: {edit}");
    }
    session.finish();
    assert_eq!(
        fs::read_to_string(outside.join("secret.txt")).unwrap(),
        "secret\n"
    );
    assert!(!outside.join("new.txt").exists());
    assert!(
        fs::symlink_metadata(root.join("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_state_file_grows_by_what_each_command_changed_and_survives_a_cut_last_line() {
    let (root, outside) = root_and_outside("changes-state-log");
    let state = outside.join("session.log");
    for n in 0..50 {
        fs::write(root.join(format!("f{n}.txt")), format!("file {n}\n")).unwrap();
        assert!(one_shot(&root, &state, &["read", &format!("f{n}.txt")]).0);
    }
    let before = fs::read_to_string(&state).unwrap();
    assert!(before.starts_with(filetools::STATE_LOG_HEADER), "{before}");
    let (ok, out) = one_shot(&root, &state, &["read", "f49.txt"]);
    assert!(ok, "{out}");
    let after = fs::read_to_string(&state).unwrap();
    // A read of one file adds its record (and the call count), never the
    // other 49 records again.
    let added = &after[before.len()..];
    assert_eq!(added.lines().count(), 1, "{added}");
    assert!(
        added.contains("f49.txt") && !added.contains("f48.txt"),
        "{added}"
    );
    // A kill while a line was written leaves it cut: the next command
    // reads the lines before it and carries on.
    let mut cut = after.clone().into_bytes();
    cut.extend_from_slice(br#"{"core":"{\"vers"#);
    fs::write(&state, &cut).unwrap();
    let (ok, out) = one_shot(
        &root,
        &state,
        &["edit", "f3.txt", "--old", "file 3", "--new", "file three"],
    );
    assert!(ok, "{out}");
    let repaired = fs::read_to_string(&state).unwrap();
    assert!(repaired.starts_with(&after), "the cut line is gone");
    assert!(repaired.ends_with('\n'));
    assert!(one_shot(&root, &state, &["undo", "f3.txt"]).0);
    assert_eq!(fs::read(root.join("f3.txt")).unwrap(), b"file 3\n");
}

/// SPEC V2: two processes with no session in common, each replacing the
/// whole file with what it read from disk plus a line of its own, and the
/// version of what it read as `expect`. Whatever the interleaving, no
/// write that answered success is overwritten: the file ends holding every
/// line whose write landed, once.
#[test]
fn two_processes_with_expect_never_overwrite_each_others_change() {
    const EACH: usize = 60;
    let (root, _) = root_and_outside("changes-expect-race");
    let file = root.join("log.txt");
    fs::write(&file, "").unwrap();
    let landed: Vec<Vec<String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|k| {
                let (root, file) = (&root, &file);
                scope.spawn(move || {
                    let mut session = SessionProcess::start(root);
                    let mut mine = Vec::new();
                    let mut tries = 0;
                    while mine.len() < EACH {
                        tries += 1;
                        assert!(tries < 50 * EACH, "process {k} never landed");
                        let seen = fs::read(file).unwrap();
                        let version = filetools_core::Version::of(&seen);
                        let line = format!("process {k} line {}", mine.len());
                        let mut content = String::from_utf8(seen).unwrap();
                        content.push_str(&line);
                        content.push('\n');
                        let answer = session.call(
                            "write",
                            &json!({"file_path": "log.txt", "content": content, "expect": version.to_string()}),
                        );
                        if answer["isError"] == true {
                            let code = &answer["structuredContent"]["error"];
                            assert!(code == "conflict" || code == "stale", "{answer}");
                        } else {
                            mine.push(line);
                        }
                    }
                    session.finish();
                    mine
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let end = fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = end.lines().collect();
    assert_eq!(lines.len(), 2 * EACH, "{end}");
    for line in landed.iter().flatten() {
        assert_eq!(
            lines.iter().filter(|l| **l == line).count(),
            1,
            "{line} in {end}"
        );
    }
}
