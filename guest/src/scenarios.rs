//! Cross-tool scenarios through a session: the ledger, dedup, write, undo
//! and saved state working together, and the properties that must hold
//! whatever the model sends (SPEC R7, W1–W7, E10, §8).

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::answers::result::ToolResult;
use crate::fs::host::{DirEntry, FsError, HostFs, Metadata, Precondition};
use crate::fs::memory::MemFs;
use crate::tools::session::Session;

fn session() -> Session<MemFs> {
    Session::open("{}", MemFs::new()).unwrap()
}

fn call(s: &mut Session<MemFs>, tool: &str, args: &Value) -> ToolResult {
    s.call(tool, &args.to_string())
}

fn write(s: &mut Session<MemFs>, path: &str, content: &str) -> ToolResult {
    call(s, "write", &json!({"file_path": path, "content": content}))
}

fn read(s: &mut Session<MemFs>, path: &str) -> ToolResult {
    call(s, "read", &json!({"file_path": path}))
}

#[test]
fn write_creates_parents_and_then_overwrites_what_it_wrote() {
    let mut s = session();
    assert_eq!(
        write(&mut s, "a/b/c.txt", "x\n").text(),
        "Created a/b/c.txt: 1 line, 2 bytes.\n[version 5c86dd76b239dbde-2]"
    );
    let second = write(&mut s, "a/b/c.txt", "x\ny\n");
    assert_eq!(
        second.text(),
        "Updated a/b/c.txt: 2 lines, 4 bytes (was 1 line). Inserted line 2.\n[version 2612ae4252ac4586-4]"
    );
}

#[test]
fn an_existing_file_must_be_read_whole_and_unchanged() {
    let mut s = session();
    s.fs().add_file("f.txt", b"one\ntwo\nthree\n");
    let unread = write(&mut s, "f.txt", "new\n");
    assert_eq!(
        unread.text(),
        "Error: f.txt exists and you have not read it; read it first, so nothing you have not seen is overwritten."
    );
    call(&mut s, "read", &json!({"file_path": "f.txt", "limit": 1}));
    let partial = write(&mut s, "f.txt", "new\n");
    assert_eq!(
        partial.text(),
        "Error: you have seen line 1 of f.txt (3 lines), not all of it; replacing it would drop lines you have not seen. Read the rest first (continue with offset=2), or change parts of it with edit."
    );
    assert_eq!(partial.metadata["next_call"]["args"]["offset"], 2);
    call(&mut s, "read", &json!({"file_path": "f.txt", "offset": 2}));
    let ok = write(&mut s, "f.txt", "one\nTWO\nthree\n");
    assert_eq!(
        ok.text(),
        "Updated f.txt: 3 lines, 14 bytes (was 3 lines). Changed line 2 (were line 2); the rest is unchanged.\n[version b419833a713e461c-14]"
    );
    assert_eq!(s.fs().contents("f.txt").unwrap(), b"one\nTWO\nthree\n");
}

#[test]
fn a_touched_file_may_be_written_but_a_same_size_change_may_not() {
    let mut s = session();
    s.fs().add_file("t.txt", b"abc\n");
    read(&mut s, "t.txt");
    s.fs().touch("t.txt");
    assert!(!write(&mut s, "t.txt", "xyz\n").is_error);
    read(&mut s, "t.txt");
    s.fs().replace_keeping_mtime("t.txt", b"ABC\n");
    let refused = write(&mut s, "t.txt", "123\n");
    assert_eq!(refused.metadata["error"], "stale");
    assert_eq!(s.fs().contents("t.txt").unwrap(), b"ABC\n");
}

#[test]
fn read_output_and_stubs_are_not_content() {
    let mut s = session();
    let gutter = write(&mut s, "g.txt", "1\tfn main() {\n2\t}\n");
    assert_eq!(gutter.metadata["error"], "display_text");
    let stub = write(
        &mut s,
        "g.txt",
        "[unchanged since your read 2 calls ago; use that output, or read again to see it anew]",
    );
    assert_eq!(stub.metadata["error"], "display_text");
    assert!(s.fs().contents("g.txt").is_none());
    // The way out the refusal names, for a table whose rows really are numbered.
    let table = "1\tapple\n2\tbanana\n";
    let edit = call(
        &mut s,
        "edit",
        &json!({"file_path": "t.tsv", "old_string": "", "new_string": table}),
    );
    assert!(!edit.is_error, "{}", edit.text());
    assert_eq!(s.fs().contents("t.tsv").unwrap(), table.as_bytes());
}

#[test]
fn crlf_bom_files_keep_both_through_write() {
    let mut s = session();
    s.fs().add_file("w.txt", b"\xEF\xBB\xBFa\r\nb\r\n");
    read(&mut s, "w.txt");
    let result = write(&mut s, "w.txt", "x\ny\nz\n");
    assert!(
        result
            .text()
            .ends_with("Kept its CRLF line endings and BOM.\n[version aa9ee5cf50fc7935-12]"),
        "{}",
        result.text()
    );
    assert_eq!(
        s.fs().contents("w.txt").unwrap(),
        b"\xEF\xBB\xBFx\r\ny\r\nz\r\n"
    );
}

/// A file whose read output is long enough to be worth a stub.
const LONG: &str = "a line long enough that repeating it costs more than a stub does, once more\n\
    a line long enough that repeating it costs more than a stub does, twice more\n\
    a line long enough that repeating it costs more than a stub does, three times\n\
    a line long enough that repeating it costs more than a stub does, four times\n";

#[test]
fn an_unchanged_repeat_read_is_a_stub_once() {
    let mut s = session();
    s.fs().add_file("d.txt", LONG.as_bytes());
    let first = read(&mut s, "d.txt");
    assert!(
        first
            .text()
            .contains("[lines 1-4 of 4; end of file]\n[version ")
    );
    let second = read(&mut s, "d.txt");
    assert_eq!(
        second.text(),
        "[unchanged since your read 1 call ago; use that output, or read again to see it anew]"
    );
    assert_eq!(read(&mut s, "d.txt").text(), first.text());
    let other_range = call(&mut s, "read", &json!({"file_path": "d.txt", "limit": 5}));
    assert_eq!(other_range.text(), first.text());
}

#[test]
fn short_outputs_are_repeated_rather_than_stubbed() {
    let mut s = session();
    s.fs().add_file("d.txt", b"hello\n");
    let first = read(&mut s, "d.txt");
    assert_eq!(read(&mut s, "d.txt").text(), first.text());
}

#[test]
fn a_change_or_a_write_defeats_dedup() {
    let mut s = session();
    s.fs().add_file("d.txt", LONG.as_bytes());
    read(&mut s, "d.txt");
    s.fs()
        .add_file("d.txt", format!("{LONG}hello world\n").as_bytes());
    assert!(read(&mut s, "d.txt").text().contains("hello world"));
    write(&mut s, "d.txt", &format!("{LONG}bye\n"));
    assert!(read(&mut s, "d.txt").text().contains("bye"));
}

#[test]
fn a_same_size_change_with_its_mtime_put_back_is_not_stubbed() {
    let mut s = session();
    s.fs().add_file("d.txt", LONG.as_bytes());
    read(&mut s, "d.txt");
    let changed = LONG.replacen('a', "b", 1);
    assert_eq!(changed.len(), LONG.len());
    s.fs().replace_keeping_mtime("d.txt", changed.as_bytes());
    let again = read(&mut s, "d.txt");
    assert!(!again.text().starts_with("[unchanged"), "{}", again.text());
    // A touch alone leaves the content, so the repeat is stubbed.
    s.fs().touch("d.txt");
    assert!(read(&mut s, "d.txt").text().starts_with("[unchanged"));
}

#[test]
fn dedup_can_be_switched_off() {
    let mut s = Session::open(r#"{"dedup": false}"#, MemFs::new()).unwrap();
    s.fs().add_file("d.txt", LONG.as_bytes());
    let first = read(&mut s, "d.txt");
    assert_eq!(read(&mut s, "d.txt").text(), first.text());
}

#[test]
fn undo_walks_back_and_refuses_over_outside_changes() {
    let mut s = session();
    s.fs().add_file("u.txt", b"v1\n");
    read(&mut s, "u.txt");
    write(&mut s, "u.txt", "v2\n");
    write(&mut s, "u.txt", "v3\n");
    let undo = call(&mut s, "undo", &json!({"file_path": "u.txt"}));
    assert_eq!(
        undo.text(),
        "Undid the last change to u.txt: restored the version before it (1 line, 3 bytes). 1 earlier change can still be undone.\n[version b05ff8ae5364db67-3]"
    );
    assert_eq!(s.fs().contents("u.txt").unwrap(), b"v2\n");
    s.fs().add_file("u.txt", b"outside\n");
    let refused = call(&mut s, "undo", &json!({"file_path": "u.txt"}));
    assert_eq!(refused.metadata["error"], "stale");
    assert_eq!(s.fs().contents("u.txt").unwrap(), b"outside\n");
    let nothing = call(&mut s, "undo", &json!({"file_path": "other.txt"}));
    assert_eq!(nothing.metadata["error"], "nothing_to_undo");
    write(&mut s, "gone.txt", "x\n");
    s.fs().remove_file("gone.txt", &Precondition::Any).unwrap();
    let gone = call(&mut s, "undo", &json!({"file_path": "gone.txt"}));
    assert_eq!(
        gone.text(),
        "Error: gone.txt was deleted after your last change to it; undo does not bring it back. Write it again if it is still needed."
    );
    assert!(s.fs().contents("gone.txt").is_none());
}

#[test]
fn after_undo_the_restored_version_can_be_edited() {
    let mut s = session();
    s.fs().add_file("e.txt", b"a\nb\n");
    read(&mut s, "e.txt");
    call(
        &mut s,
        "edit",
        &json!({"file_path": "e.txt", "old_string": "a", "new_string": "A"}),
    );
    call(&mut s, "undo", &json!({"file_path": "e.txt"}));
    let again = call(
        &mut s,
        "edit",
        &json!({"file_path": "e.txt", "old_string": "b", "new_string": "B"}),
    );
    assert!(!again.is_error, "{}", again.text());
    assert_eq!(s.fs().contents("e.txt").unwrap(), b"a\nB\n");
}

#[test]
fn saved_state_carries_the_ledger_and_history_to_a_new_session() {
    let fs = MemFs::new();
    fs.add_file("s.txt", b"one\n");
    let mut first = Session::open("{}", &fs).unwrap();
    first.call("read", r#"{"file_path": "s.txt"}"#);
    first.call("write", r#"{"file_path": "s.txt", "content": "two\n"}"#);
    let saved = first.save();
    let mut second = Session::open("{}", &fs).unwrap();
    second.restore(&saved).unwrap();
    let edit = second.call(
        "edit",
        r#"{"file_path": "s.txt", "old_string": "two", "new_string": "three"}"#,
    );
    assert!(!edit.is_error, "{}", edit.text());
    second.call("undo", r#"{"file_path": "s.txt"}"#);
    second.call("undo", r#"{"file_path": "s.txt"}"#);
    assert_eq!(fs.contents("s.txt").unwrap(), b"one\n");
    assert!(second.restore("not json").is_err());
}

/// A file system where another writer changes `a.txt` just before every
/// write lands: the moment between the guard's check and the host's write.
struct Racing(MemFs);

impl HostFs for Racing {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        self.0.stat(path)
    }
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.0.read(path, offset, len)
    }
    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.0.list_dir(path)
    }
    fn write_file(&self, path: &str, data: &[u8], pre: &Precondition) -> Result<Metadata, FsError> {
        self.0.replace_keeping_mtime("a.txt", b"RACE\n");
        self.0.write_file(path, data, pre)
    }
    fn remove_file(&self, path: &str, pre: &Precondition) -> Result<(), FsError> {
        self.0.remove_file(path, pre)
    }
    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        self.0.create_dir(path)
    }
    fn rename(
        &self,
        source: &str,
        destination: &str,
        pre: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.0.rename(source, destination, pre)
    }
}

#[test]
fn a_change_between_check_and_write_is_a_conflict_not_a_lost_update() {
    let fs = MemFs::new();
    fs.add_file("a.txt", b"one\n");
    let mut s = Session::open("{}", Racing(fs)).unwrap();
    s.call("read", r#"{"file_path": "a.txt"}"#);
    for (tool, args) in [
        ("write", r#"{"file_path": "a.txt", "content": "two\n"}"#),
        (
            "edit",
            r#"{"file_path": "a.txt", "old_string": "one", "new_string": "two"}"#,
        ),
    ] {
        // The change is made again on what raced in, and shows it: no
        // update is lost, and no re-read is needed.
        let result = s.call(tool, args);
        assert_eq!(result.metadata["error"], "stale", "{}", result.text());
        assert!(result.text().contains("\n1\tRACE\n"), "{}", result.text());
        assert_eq!(s.fs().0.contents("a.txt").unwrap(), b"RACE\n");
        s.fs().0.add_file("a.txt", b"one\n");
        s.call("read", r#"{"file_path": "a.txt"}"#);
    }
    let result = s.call("write", r#"{"file_path": "a.txt", "content": "two\n"}"#);
    assert!(
        result
            .text()
            .starts_with("Error: a.txt changed since your view; write replaces the whole file"),
        "{}",
        result.text()
    );
}

/// Follows a refusal's `next_call` until `change` succeeds; fails after
/// `max_steps` refusals.
fn drive(
    s: &mut Session<MemFs>,
    change: (&str, &Value),
    max_steps: usize,
) -> Result<usize, String> {
    for step in 0..max_steps {
        let result = s.call(change.0, &change.1.to_string());
        if !result.is_error {
            return Ok(step);
        }
        let next = result.metadata["next_call"].clone();
        let tool = next["tool"]
            .as_str()
            .ok_or_else(|| format!("no way forward: {}", result.text()))?;
        let args = next["args"].to_string();
        let text = result.text();
        if let Some(offset) = next["args"]["offset"].as_u64()
            && !text.contains(&format!("offset={offset}"))
        {
            return Err(format!("the message does not name the call: {text}"));
        }
        let followed = s.call(tool, &args);
        if followed.is_error {
            return Err(format!("the named call failed: {}", followed.text()));
        }
    }
    Err("still refused".into())
}

#[test]
fn files_that_never_fit_one_read_do_not_cause_refusal_loops() {
    let huge_line = format!("{{\"k\": \"{}\"}}", "x".repeat(600_000));
    let many_lines: String = (0..30_000)
        .map(|n| format!("line number {n} of a long file\n"))
        .collect();
    let long_lines: String = std::iter::once("header\n".to_owned())
        .chain((0..500).map(|n| format!("{n} {}\n", "y".repeat(3000))))
        .collect();
    for (name, content) in [
        ("one-line.json", huge_line),
        ("big.log", many_lines),
        ("wide.txt", long_lines),
    ] {
        let mut s = session();
        s.fs().add_file(name, content.as_bytes());
        read(&mut s, name);
        read(&mut s, name);
        let steps = drive(
            &mut s,
            (
                "write",
                &json!({"file_path": name, "content": "replaced\n"}),
            ),
            200,
        )
        .unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(
            s.fs().contents(name).unwrap(),
            b"replaced\n",
            "{name} after {steps} steps"
        );
        let mut s = session();
        s.fs().add_file(name, content.as_bytes());
        read(&mut s, name);
        let edit = json!({"file_path": name, "old_string": &content[..20], "new_string": "EDITED"});
        drive(&mut s, ("edit", &edit), 3).unwrap_or_else(|err| panic!("{name} edit: {err}"));
    }
}

#[derive(Debug, Clone)]
enum Op {
    Read(u64, u64),
    Write(String),
    Edit(String, String, bool),
    Undo,
    Outside(String),
    Touch,
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let text = "[ab\n]{0,12}";
    prop_oneof![
        (1u64..6, 1u64..6).prop_map(|(o, l)| Op::Read(o, l)),
        text.prop_map(Op::Write),
        ("[ab\n]{0,3}", "[ab\n]{0,3}", any::<bool>()).prop_map(|(a, b, all)| Op::Edit(a, b, all)),
        Just(Op::Undo),
        text.prop_map(Op::Outside),
        Just(Op::Touch),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_refused_or_failed_change_leaves_the_file_as_it_was(
        start in "[ab\n]{0,12}",
        ops in proptest::collection::vec(op_strategy(), 1..12),
    ) {
        let mut s = session();
        s.fs().add_file("f.txt", start.as_bytes());
        for op in ops {
            let before = s.fs().contents("f.txt");
            let result = match &op {
                Op::Read(offset, limit) => call(&mut s, "read", &json!({"file_path": "f.txt", "offset": offset, "limit": limit})),
                Op::Write(text) => write(&mut s, "f.txt", text),
                Op::Edit(old, new, all) => call(&mut s, "edit", &json!({"file_path": "f.txt", "old_string": old, "new_string": new, "replace_all": all})),
                Op::Undo => call(&mut s, "undo", &json!({"file_path": "f.txt"})),
                Op::Outside(text) => { s.fs().add_file("f.txt", text.as_bytes()); continue; }
                Op::Touch => { s.fs().touch("f.txt"); continue; }
            };
            if result.is_error {
                prop_assert_eq!(s.fs().contents("f.txt"), before, "{:?}: {}", op, result.text());
            }
        }
    }

    #[test]
    fn an_edit_and_its_reverse_give_back_the_original_bytes(
        lines in proptest::collection::vec("[a-z ]{0,8}", 1..8),
        pick in any::<prop::sample::Index>(),
        replacement in "[A-Z]{1,6}",
        crlf in any::<bool>(),
    ) {
        let ending = if crlf { "\r\n" } else { "\n" };
        let original: String = lines.iter().map(|l| format!("{l}{ending}")).collect();
        let target = format!("{}\n", lines[pick.index(lines.len())]);
        let unique = original.replace("\r\n", "\n").matches(&target).count() == 1 && !target.trim().is_empty();
        prop_assume!(unique);
        let mut s = session();
        s.fs().add_file("r.txt", original.as_bytes());
        read(&mut s, "r.txt");
        let new = format!("{replacement}\n");
        let forward = call(&mut s, "edit", &json!({"file_path": "r.txt", "old_string": target, "new_string": new}));
        prop_assert!(!forward.is_error, "{}", forward.text());
        prop_assume!(String::from_utf8(s.fs().contents("r.txt").unwrap()).unwrap().replace("\r\n", "\n").matches(&new).count() == 1);
        let back = call(&mut s, "edit", &json!({"file_path": "r.txt", "old_string": new, "new_string": target}));
        prop_assert!(!back.is_error, "{}", back.text());
        prop_assert_eq!(s.fs().contents("r.txt").unwrap(), original.into_bytes());
    }
}
