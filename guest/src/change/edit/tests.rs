//! `edit` through a session: each test names the rule it pins down.

use crate::answers::result::ToolResult;
use crate::fs::memory::MemFs;
use crate::tools::session::Session;

fn session_with(path: &str, content: &[u8]) -> Session<MemFs> {
    let fs = MemFs::new();
    fs.add_file(path, content);
    Session::open("{}", fs).unwrap()
}

fn read(session: &mut Session<MemFs>, path: &str) -> ToolResult {
    session.call(
        "read",
        &serde_json::json!({ "file_path": path }).to_string(),
    )
}

fn edit(session: &mut Session<MemFs>, path: &str, old: &str, new: &str) -> ToolResult {
    let args = serde_json::json!({ "file_path": path, "old_string": old, "new_string": new });
    session.call("edit", &args.to_string())
}

fn contents(session: &Session<MemFs>, path: &str) -> Vec<u8> {
    session.fs().contents(path).unwrap()
}

#[test]
fn an_unread_file_is_refused_and_left_alone() {
    let mut s = session_with("a.txt", b"one\n");
    let result = edit(&mut s, "a.txt", "one", "two");
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "Error: you have not read a.txt; read it (any part) first, then edit."
    );
    assert_eq!(result.metadata["next_call"]["tool"], "read");
    assert_eq!(contents(&s, "a.txt"), b"one\n");
}

#[test]
fn any_part_read_is_enough_and_edits_follow_edits() {
    let text: String = (1..=50).map(|n| format!("line {n}\n")).collect();
    let mut s = session_with("a.txt", text.as_bytes());
    s.call(
        "read",
        r#"{"file_path": "a.txt", "offset": 10, "limit": 2}"#,
    );
    assert!(!edit(&mut s, "a.txt", "line 40\n", "forty\n").is_error);
    let again = edit(&mut s, "a.txt", "forty\n", "FORTY\n");
    assert!(!again.is_error, "{}", again.text());
    assert!(
        String::from_utf8(contents(&s, "a.txt"))
            .unwrap()
            .contains("\nFORTY\n")
    );
}

#[test]
fn crlf_and_bom_survive_an_edit() {
    let mut s = session_with("w.txt", b"\xEF\xBB\xBFa\r\nb\r\nc\r\n");
    read(&mut s, "w.txt");
    let result = edit(&mut s, "w.txt", "b\nc", "B\nB2\nc");
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(contents(&s, "w.txt"), b"\xEF\xBB\xBFa\r\nB\r\nB2\r\nc\r\n");
}

#[test]
fn a_mixed_file_keeps_every_ending_outside_the_match() {
    let mut s = session_with("m.txt", b"a\r\nb\nc\r\nd\n");
    read(&mut s, "m.txt");
    assert!(!edit(&mut s, "m.txt", "d", "D").is_error);
    assert_eq!(contents(&s, "m.txt"), b"a\r\nb\nc\r\nD\n");
}

#[test]
fn curly_quotes_survive_an_edit_made_with_straight_ones() {
    let mut s = session_with("q.md", "He said “don’t go” twice.\n".as_bytes());
    read(&mut s, "q.md");
    let result = edit(&mut s, "q.md", "\"don't go\"", "\"don't stop\"");
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        String::from_utf8(contents(&s, "q.md")).unwrap(),
        "He said “don’t stop” twice.\n"
    );
    assert!(result.text().contains("quote style"), "{}", result.text());
}

#[test]
fn an_ambiguous_match_is_refused_with_the_count_and_lines() {
    let mut s = session_with("d.rs", b"x = 1;\ny = 2;\nx = 1;\n");
    read(&mut s, "d.rs");
    let result = edit(&mut s, "d.rs", "x = 1;", "x = 3;");
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "Error: old_string occurs 2 times in d.rs (lines 1, 3); add surrounding lines so it matches one place, or set replace_all to change all 2."
    );
    assert_eq!(result.metadata["error"], "ambiguous");
    assert_eq!(contents(&s, "d.rs"), b"x = 1;\ny = 2;\nx = 1;\n");
    let all = s.call(
        "edit",
        r#"{"file_path": "d.rs", "old_string": "x = 1;", "new_string": "x = 3;", "replace_all": true}"#,
    );
    assert!(!all.is_error);
    assert_eq!(contents(&s, "d.rs"), b"x = 3;\ny = 2;\nx = 3;\n");
}

#[test]
fn no_match_names_the_nearest_lines_and_why() {
    let mut s = session_with("n.py", b"def f():\n    total = 1\n    return total\n");
    read(&mut s, "n.py");
    let result = edit(&mut s, "n.py", "    total = 2\n    return total", "x");
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "Error: old_string was not found in n.py. Nearest: lines 2-3, where line 2 differs (different text): the file has \"    total = 1\", old_string has \"    total = 2\". Copy the exact text from read offset=2, limit=2."
    );
    assert_eq!(result.metadata["next_call"]["args"]["offset"], 2);
}

#[test]
fn gutter_prefixes_pasted_from_read_are_recognised() {
    let mut s = session_with("g.rs", b"fn a() {}\nfn b() {}\n");
    read(&mut s, "g.rs");
    let result = edit(&mut s, "g.rs", "2\tfn b() {}", "2\tfn c() {}");
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(contents(&s, "g.rs"), b"fn a() {}\nfn c() {}\n");
}

#[test]
fn tolerant_matching_changes_only_the_matched_span() {
    let original = "keep\t  \nfn a() {\n        let x = 1;   \n        let y = 2;\n}\ntail  \n";
    let mut s = session_with("t.rs", original.as_bytes());
    read(&mut s, "t.rs");
    let result = edit(
        &mut s,
        "t.rs",
        "    let x = 1;\n    let y = 2;",
        "    let x = 10;\n    let y = 20;",
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        String::from_utf8(contents(&s, "t.rs")).unwrap(),
        "keep\t  \nfn a() {\n        let x = 10;\n        let y = 20;\n}\ntail  \n"
    );
    assert!(result.text().contains("re-indented"), "{}", result.text());
}

#[test]
fn tolerant_matches_must_be_unique() {
    let mut s = session_with("u.rs", b"  a();\n  b();\n\n    a();\n    b();\n");
    read(&mut s, "u.rs");
    let result = edit(&mut s, "u.rs", "a();\nb();", "c();");
    assert!(result.is_error);
    assert!(
        result.text().contains("matches 2 places (lines 1, 4)"),
        "{}",
        result.text()
    );
}

#[test]
fn an_applied_edit_is_reported_not_repeated() {
    let mut s = session_with("p.txt", b"alpha beta\n");
    read(&mut s, "p.txt");
    assert!(!edit(&mut s, "p.txt", "beta", "gamma").is_error);
    let again = edit(&mut s, "p.txt", "beta", "gamma");
    assert!(!again.is_error);
    assert_eq!(
        again.text(),
        "Already applied: p.txt has new_string at line 1 and no old_string; nothing was written."
    );
}

#[test]
fn a_list_of_edits_is_all_or_nothing() {
    let mut s = session_with("l.txt", b"one\ntwo\nthree\n");
    read(&mut s, "l.txt");
    let bad = s.call(
        "edit",
        r#"{"file_path": "l.txt", "edits": [{"old_string": "one", "new_string": "1"}, {"old_string": "four", "new_string": "4"}]}"#,
    );
    assert!(bad.is_error);
    assert!(
        bad.text()
            .starts_with("Error: edit 2 of 2: old_string was not found"),
        "{}",
        bad.text()
    );
    assert!(
        bad.text().ends_with("No edit was applied."),
        "{}",
        bad.text()
    );
    assert_eq!(contents(&s, "l.txt"), b"one\ntwo\nthree\n");
    let good = s.call(
        "edit",
        r#"{"file_path": "l.txt", "edits": [{"old_string": "one", "new_string": "1"}, {"old_string": "three", "new_string": "3"}]}"#,
    );
    assert!(!good.is_error, "{}", good.text());
    assert_eq!(contents(&s, "l.txt"), b"1\ntwo\n3\n");
    assert_eq!(
        good.text(),
        "Edited l.txt: 2 replacements; the file has 3 lines.\n1\t1\n2\ttwo\n3\t3\n[version 7efd092a903b322c-8]"
    );
}

#[test]
fn an_empty_old_string_creates_a_missing_file_only() {
    let mut s = Session::open("{}", MemFs::new()).unwrap();
    let created = edit(&mut s, "new/f.txt", "", "hello\n");
    assert_eq!(
        created.text(),
        "Created new/f.txt: 1 line, 6 bytes.\n[version 04f610ad0a9e2fb2-6]"
    );
    let refused = edit(&mut s, "new/f.txt", "", "again\n");
    assert_eq!(
        refused.text(),
        "Error: old_string is empty but new/f.txt already has content (6 bytes); give the text to replace, or use write to replace the whole file."
    );
    let missing = edit(&mut s, "nope.txt", "x", "y");
    assert_eq!(missing.metadata["error"], "not_found");
}

#[test]
fn identical_strings_are_refused_before_any_io() {
    let mut s = Session::open("{}", MemFs::new()).unwrap();
    let result = edit(&mut s, "a.txt", "same", "same");
    assert_eq!(
        result.text(),
        "Error: old_string and new_string are identical, so the edit would change nothing; send the new text as new_string."
    );
}

#[test]
fn invalid_utf8_is_not_edited() {
    let mut s = session_with("b.bin", b"ok\n\xFF\n");
    read(&mut s, "b.bin");
    let result = edit(&mut s, "b.bin", "ok", "OK");
    assert_eq!(result.metadata["error"], "encoding_unsure");
    assert_eq!(contents(&s, "b.bin"), b"ok\n\xFF\n");
}

#[test]
fn a_file_changed_since_the_read_is_not_edited() {
    let mut s = session_with("c.txt", b"abc\n");
    read(&mut s, "c.txt");
    s.fs().replace_keeping_mtime("c.txt", b"abd\n");
    let result = edit(&mut s, "c.txt", "abd", "xyz");
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "Error: your edit touches lines of c.txt changed since your view (or next to them); nothing was written. Lines changed, as they are now (version 90e161b73349a0b1-4):\n1\tabd\nRedo the edit against them."
    );
    assert_eq!(contents(&s, "c.txt"), b"abd\n");
    // What the refusal showed is the model's view now: the edit goes through.
    let again = edit(&mut s, "c.txt", "abd", "xyz");
    assert!(!again.is_error, "{}", again.text());
    assert_eq!(contents(&s, "c.txt"), b"xyz\n");
}

#[test]
fn utf16_files_are_edited_in_their_encoding() {
    let mut bytes = vec![0xFF, 0xFE];
    for unit in "héllo\r\n".encode_utf16() {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
    let mut s = session_with("u16.txt", &bytes);
    read(&mut s, "u16.txt");
    assert!(!edit(&mut s, "u16.txt", "héllo", "hallo").is_error);
    let mut expected = vec![0xFF, 0xFE];
    for unit in "hallo\r\n".encode_utf16() {
        expected.extend_from_slice(&unit.to_le_bytes());
    }
    assert_eq!(contents(&s, "u16.txt"), expected);
}

#[test]
fn lines_added_in_the_crlf_part_of_a_mixed_file_take_its_dominant_ending_after_a_partial_read() {
    // LF in the first 100 lines, CRLF in the 200 after: CRLF dominates.
    let text: String = (1..=100)
        .map(|n| format!("lf {n}\n"))
        .chain((1..=200).map(|n| format!("crlf {n}\r\n")))
        .collect();
    let mut s = session_with("m.txt", text.as_bytes());
    assert!(!read(&mut s, "m.txt").is_error);
    // A window of one line, which counts only the endings it saw.
    let window = s.call(
        "read",
        r#"{"file_path": "m.txt", "offset": 50, "limit": 1, "char_offset": 1}"#,
    );
    assert!(!window.is_error, "{}", window.text());
    let edited = edit(&mut s, "m.txt", "crlf 150\n", "crlf 150\nadded\n");
    assert!(!edited.is_error, "{}", edited.text());
    let after = String::from_utf8(contents(&s, "m.txt")).unwrap();
    assert!(
        after.contains("crlf 150\r\nadded\r\ncrlf 151\r\n"),
        "{after:?}"
    );
}
