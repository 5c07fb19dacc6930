//! A file that changed since the model's view, through every tool (SPEC
//! V1–V5): versions in answers, `expect`, what-changed refusals and
//! three-way edits.

use serde_json::{Value, json};

use crate::answers::result::ToolResult;
use crate::fs::host::HostFs;
use crate::fs::memory::MemFs;
use crate::memory::version::Version;
use crate::tools::session::Session;

const TEN: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";

fn session(config: &str, path: &str, text: &str) -> Session<MemFs> {
    let fs = MemFs::new();
    fs.add_file(path, text.as_bytes());
    Session::open(config, fs).unwrap()
}

fn call<F: HostFs>(s: &mut Session<F>, tool: &str, args: &Value) -> ToolResult {
    s.call(tool, &args.to_string())
}

fn read(s: &mut Session<MemFs>, path: &str) -> ToolResult {
    call(s, "read", &json!({"file_path": path}))
}

fn edit<F: HostFs>(s: &mut Session<F>, path: &str, old: &str, new: &str) -> ToolResult {
    call(
        s,
        "edit",
        &json!({"file_path": path, "old_string": old, "new_string": new}),
    )
}

fn text_of(fs: &MemFs, path: &str) -> String {
    String::from_utf8(fs.contents(path).unwrap()).unwrap()
}

#[test]
fn a_read_and_a_change_name_the_version_they_leave() {
    let mut s = session("{}", "a.txt", TEN);
    let shown = read(&mut s, "a.txt");
    let version = Version::of(TEN.as_bytes()).to_string();
    assert_eq!(shown.metadata["version"], version.as_str());
    assert!(shown.text().ends_with(&format!("[version {version}]")));
    let edited = edit(&mut s, "a.txt", "two", "TWO");
    let now = Version::of(text_of(s.fs(), "a.txt").as_bytes()).to_string();
    assert_eq!(edited.metadata["version"], now.as_str());
    assert!(edited.text().ends_with(&format!("[version {now}]")));
}

#[test]
fn an_edit_away_from_another_writers_change_lands_beside_it() {
    let mut s = session("{}", "a.txt", TEN);
    read(&mut s, "a.txt");
    s.fs()
        .add_file("a.txt", TEN.replace("eight", "EIGHT").as_bytes());
    let result = edit(&mut s, "a.txt", "two", "TWO");
    assert!(!result.is_error, "{}", result.text());
    assert!(
        result.text().starts_with(
            "Note: a.txt changed since your view; your change was made beside those lines, which stay. Lines changed, as they are now:\n8\tEIGHT\nEdited a.txt: 1 replacement"
        ),
        "{}",
        result.text()
    );
    assert_eq!(
        text_of(s.fs(), "a.txt"),
        TEN.replace("eight", "EIGHT").replace("two", "TWO")
    );
    // Both changes are now the model's view: the next edit needs nothing.
    let next = edit(&mut s, "a.txt", "EIGHT", "8");
    assert!(
        !next.is_error && !next.text().starts_with("Note"),
        "{}",
        next.text()
    );
}

#[test]
fn an_edit_next_to_another_writers_change_is_shown_it_and_lands_when_redone() {
    let mut s = session("{}", "a.txt", TEN);
    read(&mut s, "a.txt");
    s.fs()
        .add_file("a.txt", TEN.replace("three", "THREE").as_bytes());
    let refused = edit(&mut s, "a.txt", "two", "TWO");
    assert_eq!(refused.metadata["error"], "stale");
    assert!(refused.metadata["next_call"].is_null(), "no read is needed");
    assert!(
        refused.text().contains(
            "(or next to them); nothing was written. Lines changed, as they are now (version "
        ),
        "{}",
        refused.text()
    );
    assert!(
        refused
            .text()
            .ends_with(":\n3\tTHREE\nRedo the edit against them.")
    );
    assert_eq!(text_of(s.fs(), "a.txt"), TEN.replace("three", "THREE"));
    let redone = edit(&mut s, "a.txt", "two\nTHREE", "TWO\nTHREE");
    assert!(!redone.is_error, "{}", redone.text());
}

#[test]
fn text_that_no_longer_matches_one_place_is_shown_what_changed() {
    let mut s = session("{}", "a.txt", TEN);
    read(&mut s, "a.txt");
    s.fs()
        .add_file("a.txt", TEN.replace("nine", "two").as_bytes());
    let refused = edit(&mut s, "a.txt", "two", "TWO");
    assert_eq!(refused.metadata["error"], "stale");
    assert!(
        refused.text().starts_with(
            "Error: a.txt changed since your view, and your edit's text no longer matches one place"
        ),
        "{}",
        refused.text()
    );
    assert!(refused.text().contains("\n9\ttwo\n"));
}

#[test]
fn write_never_merges_and_a_refusal_counts_what_it_showed_as_read() {
    let mut s = session("{}", "a.txt", TEN);
    read(&mut s, "a.txt");
    s.fs()
        .add_file("a.txt", TEN.replace("ten", "TEN").as_bytes());
    let refused = call(
        &mut s,
        "write",
        &json!({"file_path": "a.txt", "content": "x\n"}),
    );
    assert_eq!(refused.metadata["error"], "stale");
    assert!(
        refused
            .text()
            .contains("write replaces the whole file and does not merge")
    );
    assert!(
        refused
            .text()
            .ends_with("Write it again with them in, or use edit.")
    );
    assert_eq!(text_of(s.fs(), "a.txt"), TEN.replace("ten", "TEN"));
    let again = call(
        &mut s,
        "write",
        &json!({"file_path": "a.txt", "content": "x\n"}),
    );
    assert!(!again.is_error, "{}", again.text());
}

#[test]
fn merging_off_shows_what_changed_instead() {
    let mut s = session(r#"{"merge": false}"#, "a.txt", TEN);
    read(&mut s, "a.txt");
    s.fs()
        .add_file("a.txt", TEN.replace("eight", "EIGHT").as_bytes());
    let refused = edit(&mut s, "a.txt", "two", "TWO");
    assert!(
        refused
            .text()
            .starts_with("Error: a.txt changed since your view; nothing was written.")
    );
    assert_eq!(text_of(s.fs(), "a.txt"), TEN.replace("eight", "EIGHT"));
}

#[test]
fn expect_lets_a_session_that_never_read_the_file_change_it_and_only_at_that_version() {
    let mut reader = session("{}", "a.txt", TEN);
    let version = read(&mut reader, "a.txt").metadata["version"].clone();
    let mut other = Session::open("{}", reader.fs()).unwrap();
    let args =
        json!({"file_path": "a.txt", "old_string": "two", "new_string": "2", "expect": version});
    let landed = call(&mut other, "edit", &args);
    assert!(!landed.is_error, "{}", landed.text());
    let stale = call(
        &mut other,
        "edit",
        &json!({"file_path": "a.txt", "old_string": "one", "new_string": "1", "expect": version}),
    );
    assert_eq!(stale.metadata["error"], "conflict");
    assert_eq!(stale.metadata["expected"], version);
    assert_eq!(stale.metadata["version"], landed.metadata["version"]);
    assert!(stale.text().contains("not"), "{}", stale.text());
    assert_eq!(text_of(other.fs(), "a.txt"), TEN.replace("two", "2"));
    let write = call(
        &mut other,
        "write",
        &json!({"file_path": "b.txt", "content": "x", "expect": version}),
    );
    assert_eq!(write.metadata["error"], "conflict");
    assert!(
        write.text().starts_with("Error: b.txt does not exist"),
        "{}",
        write.text()
    );
    let bad = call(
        &mut other,
        "undo",
        &json!({"file_path": "a.txt", "expect": "v1"}),
    );
    assert_eq!(bad.metadata["error"], "invalid_arguments");
}

#[test]
fn expect_of_the_version_seen_shows_what_changed_and_never_merges() {
    let mut s = session("{}", "a.txt", TEN);
    let version = read(&mut s, "a.txt").metadata["version"].clone();
    s.fs()
        .add_file("a.txt", TEN.replace("eight", "EIGHT").as_bytes());
    let args =
        json!({"file_path": "a.txt", "old_string": "two", "new_string": "TWO", "expect": version});
    let refused = call(&mut s, "edit", &args);
    assert_eq!(refused.metadata["error"], "conflict");
    assert!(
        refused.text().contains("\n8\tEIGHT\n"),
        "{}",
        refused.text()
    );
    assert_eq!(text_of(s.fs(), "a.txt"), TEN.replace("eight", "EIGHT"));
}

#[test]
fn an_insertion_moves_with_the_lines_added_above_it() {
    let mut s = session(r#"{"tools": "text-editor"}"#, "a.txt", TEN);
    let tool = crate::tools::shapes::text_editor::NAME;
    call(&mut s, tool, &json!({"command": "view", "path": "a.txt"}));
    s.fs()
        .add_file("a.txt", format!("new1\nnew2\n{TEN}").as_bytes());
    let args = json!({"command": "insert", "path": "a.txt", "insert_line": 5, "insert_text": "after five\n"});
    let result = call(&mut s, tool, &args);
    assert!(!result.is_error, "{}", result.text());
    assert!(text_of(s.fs(), "a.txt").contains("five\nafter five\nsix\n"));
    s.fs().add_file("a.txt", TEN.as_bytes());
    let args =
        json!({"command": "insert", "path": "a.txt", "insert_line": 1, "insert_text": "x\n"});
    let refused = call(&mut s, tool, &args);
    assert_eq!(refused.metadata["error"], "stale", "{}", refused.text());
}

#[test]
fn a_notebook_someone_changed_is_shown_never_merged_into() {
    let book = r#"{"cells": [{"cell_type": "code", "id": "a", "metadata": {}, "source": "x = 1", "outputs": [], "execution_count": null}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#;
    let mut s = session(r#"{"tools": ["filetools", "notebook"]}"#, "n.ipynb", book);
    read(&mut s, "n.ipynb");
    s.fs()
        .add_file("n.ipynb", book.replace("x = 1", "x = 2").as_bytes());
    let args = json!({"notebook_path": "n.ipynb", "cell_id": "a", "new_source": "y"});
    let refused = call(&mut s, "notebook_edit", &args);
    assert_eq!(refused.metadata["error"], "stale", "{}", refused.text());
    assert!(text_of(s.fs(), "n.ipynb").contains("x = 2"));
}

#[test]
fn a_saved_session_keeps_what_a_merge_needs() {
    let mut s = session("{}", "a.txt", TEN);
    read(&mut s, "a.txt");
    let saved = s.save();
    let mut later = Session::open("{}", s.fs()).unwrap();
    later.restore(&saved).unwrap();
    later
        .fs()
        .add_file("a.txt", TEN.replace("eight", "EIGHT").as_bytes());
    let result = edit(&mut later, "a.txt", "two", "TWO");
    assert!(
        result
            .text()
            .starts_with("Note: a.txt changed since your view"),
        "{}",
        result.text()
    );
}

#[test]
fn after_the_harness_drops_earlier_outputs_no_read_is_a_stub() {
    let long = "a line long enough that repeating it costs more than a stub does\n".repeat(8);
    let mut s = session("{}", "a.txt", &long);
    read(&mut s, "a.txt");
    assert_eq!(read(&mut s, "a.txt").metadata["kind"], "unchanged");
    read(&mut s, "a.txt");
    s.forget_outputs();
    let again = read(&mut s, "a.txt");
    assert_eq!(again.metadata["kind"], "text");
}

#[test]
fn a_patch_expect_naming_a_file_it_does_not_change_is_refused() {
    let mut s = session(r#"{"tools": ["apply-patch"]}"#, "a.txt", TEN);
    let version = Version::of(TEN.as_bytes()).to_string();
    let input = "*** Begin Patch\n*** Update File: a.txt\n-two\n+TWO\n*** End Patch";
    let args = json!({"input": input, "expect": [{"path": "./a.txt", "version": version}]});
    let refused = call(&mut s, "apply_patch", &args);
    assert_eq!(
        refused.metadata["error"],
        "invalid_arguments",
        "{}",
        refused.text()
    );
    assert_eq!(text_of(s.fs(), "a.txt"), TEN);
    let args = json!({"input": input, "expect": [{"path": "a.txt", "version": version}]});
    let landed = call(&mut s, "apply_patch", &args);
    assert!(!landed.is_error, "{}", landed.text());
}
