use std::cell::Cell;

use serde_json::json;

use crate::fs::host::{DirEntry, FsError, HostFs, Metadata, Precondition};
use crate::fs::memory::MemFs;
use crate::tools::session::Session;

/// The methods of a test file system that hands every call but
/// `write_file` to its `files` as they are.
macro_rules! files_but_writes {
    () => {
        fn stat(&self, path: &str) -> Result<Metadata, FsError> {
            self.files.stat(path)
        }
        fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
            self.files.read(path, offset, len)
        }
        fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
            self.files.list_dir(path)
        }
        fn remove_file(&self, path: &str, pre: &Precondition) -> Result<(), FsError> {
            self.files.remove_file(path, pre)
        }
        fn create_dir(&self, path: &str) -> Result<(), FsError> {
            self.files.create_dir(path)
        }
        fn rename(
            &self,
            source: &str,
            destination: &str,
            pre: &Precondition,
        ) -> Result<Metadata, FsError> {
            self.files.rename(source, destination, pre)
        }
    };
}

/// Files where another writer changes `victim` just before a write to it
/// lands: the second step of a patch fails on the host after the first
/// step was written.
struct Interfering {
    files: MemFs,
    victim: &'static str,
    armed: Cell<bool>,
}

impl HostFs for Interfering {
    files_but_writes!();
    fn write_file(&self, path: &str, data: &[u8], pre: &Precondition) -> Result<Metadata, FsError> {
        if path == self.victim && self.armed.replace(false) {
            self.files.add_file(path, b"someone else\n");
        }
        self.files.write_file(path, data, pre)
    }
}

fn patch(body: &str) -> String {
    json!({"input": format!("*** Begin Patch\n{body}\n*** End Patch")}).to_string()
}

#[test]
fn a_patch_that_fails_on_the_host_halfway_puts_back_what_it_wrote() {
    let files = MemFs::new();
    files.add_file("a.txt", b"alpha\n");
    files.add_file("b.txt", b"beta\n");
    let fs = Interfering {
        files,
        victim: "b.txt",
        armed: Cell::new(true),
    };
    let mut session = Session::open(r#"{"tools": ["apply-patch", "filetools"]}"#, fs).unwrap();
    let result = session.call(
        "apply_patch",
        &patch("*** Add File: n.txt\n+new\n*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: b.txt\n-beta\n+BETA"),
    );
    assert!(result.is_error, "{}", result.text());
    assert!(result.text().contains("b.txt changed"), "{}", result.text());
    let fs = &session.fs().files;
    assert_eq!(fs.contents("a.txt").unwrap(), b"alpha\n");
    assert!(fs.contents("n.txt").is_none());
    assert_eq!(fs.contents("b.txt").unwrap(), b"someone else\n");
    let undo = session.call("undo", r#"{"file_path": "a.txt"}"#);
    assert!(undo.text().contains("nothing to undo"), "{}", undo.text());
}

#[test]
fn undo_of_a_patch_waits_for_a_later_change_of_one_of_its_files() {
    let fs = MemFs::new();
    fs.add_file("a.txt", b"alpha\n");
    fs.add_file("b.txt", b"beta\n");
    let mut session = Session::open(r#"{"tools": ["apply-patch", "filetools"]}"#, fs).unwrap();
    let done = session.call(
        "apply_patch",
        &patch("*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: b.txt\n-beta\n+BETA"),
    );
    assert!(!done.is_error, "{}", done.text());
    session.call("read", r#"{"file_path": "b.txt"}"#);
    let edit = session.call(
        "edit",
        r#"{"file_path": "b.txt", "old_string": "BETA", "new_string": "Beta"}"#,
    );
    assert!(!edit.is_error, "{}", edit.text());
    let refused = session.call("undo", r#"{"file_path": "a.txt"}"#);
    assert!(
        refused.text().contains("Undo b.txt first"),
        "{}",
        refused.text()
    );
    session.call("undo", r#"{"file_path": "b.txt"}"#);
    let undone = session.call("undo", r#"{"file_path": "a.txt"}"#);
    assert!(!undone.is_error, "{}", undone.text());
    assert_eq!(session.fs().contents("a.txt").unwrap(), b"alpha\n");
    assert_eq!(session.fs().contents("b.txt").unwrap(), b"beta\n");
}

#[test]
fn a_file_read_and_changed_since_is_stale_for_a_patch() {
    let fs = MemFs::new();
    fs.add_file("a.txt", b"alpha\n");
    let mut session = Session::open(r#"{"tools": ["apply-patch", "filetools"]}"#, fs).unwrap();
    session.call("read", r#"{"file_path": "a.txt"}"#);
    session.fs().add_file("a.txt", b"alpha\nmore\n");
    let result = session.call(
        "apply_patch",
        &patch("*** Update File: a.txt\n-alpha\n+ALPHA"),
    );
    assert!(
        result
            .text()
            .contains("changed since your view (or next to them)"),
        "{}",
        result.text()
    );
    assert_eq!(session.fs().contents("a.txt").unwrap(), b"alpha\nmore\n");
}

#[test]
fn a_moved_file_moves_back_with_one_undo() {
    let fs = MemFs::new();
    fs.add_file("src/a.txt", b"keep me\n");
    let mut session = Session::open(r#"{"tools": ["mcp-filesystem", "filetools"]}"#, fs).unwrap();
    let moved = session.call(
        "move_file",
        r#"{"source": "src/a.txt", "destination": "lib/a.txt"}"#,
    );
    assert!(!moved.is_error, "{}", moved.text());
    assert!(session.fs().contents("src/a.txt").is_none());
    let undone = session.call("undo", r#"{"file_path": "lib/a.txt"}"#);
    assert!(!undone.is_error, "{}", undone.text());
    assert_eq!(session.fs().contents("src/a.txt").unwrap(), b"keep me\n");
    assert!(session.fs().contents("lib/a.txt").is_none());
}

#[test]
fn a_dry_run_writes_nothing_and_leaves_the_memory_as_it_was() {
    let fs = MemFs::new();
    fs.add_file("a.txt", b"x = 1\n");
    let mut session = Session::open(r#"{"tools": ["mcp-filesystem", "filetools"]}"#, fs).unwrap();
    session.call("read_text_file", r#"{"path": "a.txt"}"#);
    let saved = session.save();
    let dry = session.call(
        "edit_file",
        r#"{"path": "a.txt", "edits": [{"oldText": "x = 1", "newText": "x = 2"}], "dryRun": true}"#,
    );
    assert!(dry.text().contains("-x = 1\n+x = 2"), "{}", dry.text());
    assert_eq!(session.fs().contents("a.txt").unwrap(), b"x = 1\n");
    let after: serde_json::Value = serde_json::from_str(&session.save()).unwrap();
    let before: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(after["history"], before["history"]);
    let undo = session.call("undo", r#"{"file_path": "a.txt"}"#);
    assert!(undo.text().contains("nothing to undo"), "{}", undo.text());
}

#[test]
fn file_info_names_what_the_host_knows() {
    let fs = MemFs::new();
    fs.add_file("a.txt", b"abc");
    let mut session = Session::open(r#"{"tools": "mcp-filesystem"}"#, fs).unwrap();
    let info = session.call("get_file_info", r#"{"path": "a.txt"}"#);
    assert_eq!(
        info.text(),
        "size: 3\ncreated: 1970-01-01T00:00:01.000Z\nmodified: 1970-01-01T00:00:01.000Z\n\
         accessed: 1970-01-01T00:00:01.000Z\nisDirectory: false\nisFile: true\npermissions: 644"
    );
}

#[test]
fn a_tool_of_a_set_the_session_does_not_offer_is_unknown() {
    let mut session = Session::open(r#"{"tools": "text-editor"}"#, MemFs::new()).unwrap();
    let result = session.call("read", r#"{"file_path": "a"}"#);
    assert_eq!(
        result.text(),
        "Error: unknown tool \"read\"; the tools are: str_replace_based_edit_tool."
    );
}

/// A session over one file `name` holding `text`, with the patch tool.
fn patched(
    name: &str,
    text: &[u8],
    call: &str,
) -> (Session<MemFs>, crate::answers::result::ToolResult) {
    let fs = MemFs::new();
    fs.add_file(name, text);
    let mut session = Session::open(r#"{"tools": ["apply-patch", "filetools"]}"#, fs).unwrap();
    let result = session.call("apply_patch", call);
    (session, result)
}

fn operation(kind: &str, path: &str, diff: &str) -> String {
    json!({"operation": {"type": kind, "path": path, "diff": diff}}).to_string()
}

#[test]
fn a_blank_line_ending_a_hunk_is_sought_and_written_as_the_final_newline_only() {
    let (s, result) = patched(
        "first.txt",
        b"foo\nbar\nbaz\n",
        &patch("*** Update File: first.txt\n@@\n-foo\n+FOO\n bar\n"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(s.fs().contents("first.txt").unwrap(), b"FOO\nbar\nbaz\n");
}

#[test]
fn a_hunk_of_added_lines_before_another_hunk_goes_to_the_end() {
    let (s, result) = patched(
        "panic.txt",
        b"line1\nline2\nline3\n",
        &patch(
            "*** Update File: panic.txt\n@@\n+after-context\n+second-line\n@@\n line1\n-line2\n-line3\n+line2-replacement",
        ),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        s.fs().contents("panic.txt").unwrap(),
        b"line1\nline2-replacement\nafter-context\nsecond-line\n"
    );
    let (s, result) = patched(
        "t.txt",
        b"a\nb\n",
        &patch("*** Update File: t.txt\n@@\n+x\n@@\n a"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(s.fs().contents("t.txt").unwrap(), b"a\nb\nx\n");
}

const CLASSES: &[u8] = b"class BaseClass:\n    def search():\n        pass\n\nclass Subclass(BaseClass):\n    def search():\n        pass\n";

#[test]
fn stacked_anchors_narrow_outer_then_inner() {
    let (s, result) = patched(
        "c.py",
        CLASSES,
        &patch(
            "*** Update File: c.py\n@@ class BaseClass:\n@@     def search():\n-        pass\n+        raise NotImplementedError()\n@@ class Subclass(BaseClass):\n@@     def search():\n-        pass\n+        return []",
        ),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        String::from_utf8(s.fs().contents("c.py").unwrap()).unwrap(),
        "class BaseClass:\n    def search():\n        raise NotImplementedError()\n\nclass Subclass(BaseClass):\n    def search():\n        return []\n"
    );
}

#[test]
fn a_later_hunk_may_name_the_class_an_earlier_one_was_in() {
    let (s, result) = patched(
        "t.py",
        b"class Target:\n    def first():\n        pass\n\n    def second():\n        pass\n",
        &patch(
            "*** Update File: t.py\n@@ class Target:\n@@     def first():\n-        pass\n+        return 1\n@@ class Target:\n@@     def second():\n-        pass\n+        return 2",
        ),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        String::from_utf8(s.fs().contents("t.py").unwrap()).unwrap(),
        "class Target:\n    def first():\n        return 1\n\n    def second():\n        return 2\n"
    );
}

#[test]
fn a_hunk_of_anchors_alone_is_refused_and_changes_nothing() {
    for body in [
        "*** Update File: a.txt\n@@\n*** End of File",
        "*** Update File: a.txt\n@@ alpha",
        "*** Update File: a.txt\n@@ alpha\n@@ beta\n-gamma\n+G\n@@ gamma",
    ] {
        let (mut s, result) = patched("a.txt", b"alpha\nbeta\ngamma\n", &patch(body));
        assert!(result.is_error, "{body}: {}", result.text());
        assert!(result.text().contains("has no lines"), "{}", result.text());
        assert_eq!(s.fs().contents("a.txt").unwrap(), b"alpha\nbeta\ngamma\n");
        let undo = s.call("undo", r#"{"file_path": "a.txt"}"#);
        assert!(undo.text().contains("nothing to undo"), "{}", undo.text());
    }
}

#[test]
fn a_patch_of_context_alone_writes_nothing_and_says_so() {
    let (mut s, result) = patched(
        "a.txt",
        b"alpha\nbeta\n",
        &patch("*** Update File: a.txt\n@@\n alpha\n beta"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        result.text(),
        "Nothing changed: the patch leaves its files as they are.\n= a.txt: 2 lines, unchanged: its hunks change nothing"
    );
    let undo = s.call("undo", r#"{"file_path": "a.txt"}"#);
    assert!(undo.text().contains("nothing to undo"), "{}", undo.text());
}

#[test]
fn a_created_file_is_the_plus_lines_joined_and_a_last_bare_plus_is_the_newline() {
    for (diff, text) in [
        ("+hello\n+world\n+", &b"hello\nworld\n"[..]),
        ("+hello\n+world\n", b"hello\nworld"),
        ("+hello\r\n+world\r\n+", b"hello\r\nworld\r\n"),
        ("", b""),
    ] {
        let (s, result) = patched("other.txt", b"", &operation("create_file", "n.txt", diff));
        assert!(!result.is_error, "{diff:?}: {}", result.text());
        assert_eq!(s.fs().contents("n.txt").unwrap(), text, "{diff:?}");
    }
}

#[test]
fn an_update_diff_in_crlf_gives_crlf_to_a_file_with_no_line_end_yet() {
    let (s, result) = patched(
        "e.txt",
        b"",
        &operation("update_file", "e.txt", "@@\r\n+hello\r\n+world"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(s.fs().contents("e.txt").unwrap(), b"hello\r\nworld\r\n");
    let (s, result) = patched(
        "l.txt",
        b"one\ntwo\n",
        &operation("update_file", "l.txt", "@@\r\n one\r\n-two\r\n+2"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(s.fs().contents("l.txt").unwrap(), b"one\n2\n");
}

#[test]
fn headers_may_be_indented_and_blank_lines_may_separate_hunks() {
    let (s2, result) = patched(
        "foo.txt",
        b"a\nb\nc\nd\n",
        &patch("  *** Update File: foo.txt\n\n@@\n-a\n+A\n\n@@\n-d\n+D\n*** End of File\n\n"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(s2.fs().contents("foo.txt").unwrap(), b"A\nb\nc\nD\n");
}

#[test]
fn a_replaced_line_keeps_its_own_line_end_in_a_mixed_file() {
    let (s, result) = patched(
        "m.txt",
        b"one\r\ntwo\nthree\r\n",
        &patch("*** Update File: m.txt\n-two\n+TWO"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(s.fs().contents("m.txt").unwrap(), b"one\r\nTWO\nthree\r\n");
}

#[test]
fn an_anchor_above_the_cursor_counts_only_while_its_block_holds_the_cursor() {
    let text = b"class A:\n    x = 1\n\nclass B:\n    y = 1\n    x = 1\n";
    let (s, result) = patched(
        "ab.py",
        text,
        &patch(
            "*** Update File: ab.py\n@@ class B:\n-    y = 1\n+    y = 2\n@@ class A:\n-    x = 1\n+    x = 3",
        ),
    );
    assert!(result.is_error, "{}", result.text());
    assert!(
        result.text().contains("its @@ line was not found"),
        "{}",
        result.text()
    );
    assert_eq!(s.fs().contents("ab.py").unwrap(), text);
}

#[test]
fn an_indented_header_inside_a_hunk_is_a_context_line() {
    let fs = MemFs::new();
    fs.add_file("guide.md", b"Old intro\n *** Delete File: old.txt\n");
    fs.add_file("old.txt", b"keep\n");
    let mut session = Session::open(r#"{"tools": "apply-patch"}"#, fs).unwrap();
    let result = session.call(
        "apply_patch",
        &patch("*** Update File: guide.md\n@@\n-Old intro\n+New intro\n  *** Delete File: old.txt"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(session.fs().contents("old.txt").unwrap(), b"keep\n");
    assert_eq!(
        session.fs().contents("guide.md").unwrap(),
        b"New intro\n *** Delete File: old.txt\n"
    );
}

#[test]
fn end_of_file_is_the_file_s_end_even_inside_an_anchor_s_block() {
    let text = b"class A:\n    x = 1\n    x = 1\nclass B:\n    y = 2\n";
    let (s, result) = patched(
        "e.py",
        text,
        &patch("*** Update File: e.py\n@@ class A:\n-    x = 1\n+    x = 9\n*** End of File"),
    );
    assert!(result.is_error, "{}", result.text());
    assert!(
        result.text().contains("match 2 places"),
        "{}",
        result.text()
    );
    assert_eq!(s.fs().contents("e.py").unwrap(), text);
}

#[test]
fn a_blank_line_between_hunks_separates_them() {
    let (s, result) = patched(
        "c.ini",
        b"[a]\nx = 1\n\n[b]\ny = 2\n\n[c]\n",
        &patch("*** Update File: c.ini\n@@ [a]\n+x0 = 0\n\n@@ [b]\n-y = 2\n+y = 3"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        s.fs().contents("c.ini").unwrap(),
        b"[a]\nx0 = 0\nx = 1\n\n[b]\ny = 3\n\n[c]\n"
    );
}

#[test]
fn an_update_without_hunks_is_refused() {
    for diff in ["", "\n"] {
        let (s, result) = patched("a.txt", b"a\n", &operation("update_file", "a.txt", diff));
        assert!(result.is_error, "{diff:?}: {}", result.text());
        assert!(result.text().contains("has no lines"), "{}", result.text());
        assert_eq!(s.fs().contents("a.txt").unwrap(), b"a\n");
    }
}

#[test]
fn lines_not_found_name_the_first_one_that_does_not_follow() {
    let (_, result) = patched(
        "n.txt",
        b"one\ntwo\nthree\n",
        &patch("*** Update File: n.txt\n@@\n one\n two\n-four\n+FOUR"),
    );
    assert!(result.is_error);
    assert!(
        result.text().contains(
            "its first 2 match at line 1, but its line 3, \"four\", does not follow there"
        ),
        "{}",
        result.text()
    );
    let (_, result) = patched(
        "n.txt",
        b"one\n",
        &patch("*** Update File: n.txt\n@@\n-zero\n+ZERO"),
    );
    assert!(
        result
            .text()
            .contains("(its first line, \"zero\", is not there)"),
        "{}",
        result.text()
    );
}

#[test]
fn an_image_seen_and_replaced_since_is_stale_for_a_delete() {
    let fs = MemFs::new();
    let png = crate::view::image::tests::png(4, 4);
    fs.add_file("logo.png", &png);
    let mut session = Session::open(r#"{"tools": ["apply-patch", "filetools"]}"#, fs).unwrap();
    let seen = session.call("read", r#"{"file_path": "logo.png"}"#);
    assert!(!seen.is_error, "{}", seen.text());
    let mut other = png.clone();
    other.extend_from_slice(b"more");
    session.fs().add_file("logo.png", &other);
    let result = session.call("apply_patch", &patch("*** Delete File: logo.png"));
    assert!(result.is_error, "{}", result.text());
    assert!(result.text().contains("changed"), "{}", result.text());
    assert_eq!(session.fs().contents("logo.png").unwrap(), other);
}

#[test]
fn deleting_a_missing_file_is_not_answered_with_advice_to_create_it() {
    let (_, result) = patched("a.txt", b"a\n", &patch("*** Delete File: gone.txt"));
    assert!(result.is_error);
    assert!(
        result
            .text()
            .contains("gone.txt does not exist, so there is nothing to delete"),
        "{}",
        result.text()
    );
}

/// A write held for a batch's commit: its path, data and precondition.
type Held = (String, Vec<u8>, Precondition);

/// Files whose host lands writes in batches: writes made in a batch are
/// held until its commit, which lands them all or, with `refuse` set,
/// fails at that write and lands none.
struct Batching {
    files: MemFs,
    held: std::cell::RefCell<Option<Vec<Held>>>,
    refuse: Option<usize>,
    /// Refuse every write made in a batch with this error.
    refuse_writes: Option<FsError>,
    batches: Cell<u32>,
}

impl Batching {
    fn over(files: MemFs, refuse: Option<usize>) -> Self {
        Self {
            files,
            held: std::cell::RefCell::new(None),
            refuse,
            refuse_writes: None,
            batches: Cell::new(0),
        }
    }
}

impl HostFs for Batching {
    files_but_writes!();
    fn write_file(&self, path: &str, data: &[u8], pre: &Precondition) -> Result<Metadata, FsError> {
        if let Some(held) = self.held.borrow_mut().as_mut() {
            if let Some(error) = &self.refuse_writes {
                return Err(error.clone());
            }
            held.push((path.to_owned(), data.to_vec(), pre.clone()));
            return Ok(Metadata {
                size: data.len() as u64,
                ..self.files.stat(".")?
            });
        }
        self.files.write_file(path, data, pre)
    }
    fn batch_begin(&self) -> bool {
        self.batches.set(self.batches.get() + 1);
        *self.held.borrow_mut() = Some(Vec::new());
        true
    }
    fn batch_end(&self, commit: bool) -> Result<(), crate::fs::host::BatchFailure> {
        let held = self.held.borrow_mut().take().unwrap_or_default();
        if !commit {
            return Ok(());
        }
        if let Some(index) = self.refuse {
            return Err(crate::fs::host::BatchFailure {
                index,
                error: FsError::Conflict,
                stuck: Vec::new(),
            });
        }
        for (path, data, pre) in held {
            self.files.write_file(&path, &data, &pre).map_err(|error| {
                crate::fs::host::BatchFailure {
                    index: 0,
                    error,
                    stuck: Vec::new(),
                }
            })?;
        }
        Ok(())
    }
}

#[test]
fn a_patch_of_several_files_lands_in_one_batch_where_the_host_has_one() {
    let files = MemFs::new();
    files.add_file("a.txt", b"alpha\n");
    files.add_file("b.txt", b"beta\n");
    let fs = Batching::over(files, None);
    let mut session = Session::open(r#"{"tools": ["apply-patch", "filetools"]}"#, fs).unwrap();
    let result = session.call(
        "apply_patch",
        &patch("*** Add File: n.txt\n+new\n*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: b.txt\n-beta\n+BETA"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(session.fs().batches.get(), 1);
    let fs = &session.fs().files;
    assert_eq!(fs.contents("a.txt").unwrap(), b"ALPHA\n");
    assert_eq!(fs.contents("b.txt").unwrap(), b"BETA\n");
    assert_eq!(fs.contents("n.txt").unwrap(), b"new\n");
    let undo = session.call("undo", r#"{"file_path": "a.txt"}"#);
    assert!(!undo.is_error, "{}", undo.text());
    let fs = &session.fs().files;
    assert_eq!(fs.contents("a.txt").unwrap(), b"alpha\n");
    assert!(fs.contents("n.txt").is_none());
}

#[test]
fn a_batch_the_host_refuses_at_its_commit_names_that_file_and_changes_nothing() {
    let files = MemFs::new();
    files.add_file("a.txt", b"alpha\n");
    files.add_file("b.txt", b"beta\n");
    let fs = Batching::over(files, Some(1));
    let mut session = Session::open(r#"{"tools": ["apply-patch", "filetools"]}"#, fs).unwrap();
    let result = session.call(
        "apply_patch",
        &patch("*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: b.txt\n-beta\n+BETA"),
    );
    assert!(result.is_error, "{}", result.text());
    assert!(result.text().contains("b.txt changed"), "{}", result.text());
    let fs = &session.fs().files;
    assert_eq!(fs.contents("a.txt").unwrap(), b"alpha\n");
    assert_eq!(fs.contents("b.txt").unwrap(), b"beta\n");
    let undo = session.call("undo", r#"{"file_path": "a.txt"}"#);
    assert!(undo.text().contains("nothing to undo"), "{}", undo.text());
}

#[test]
fn a_write_the_batch_refuses_lands_the_change_one_file_at_a_time() {
    let files = MemFs::new();
    files.add_file("a.txt", b"alpha\n");
    files.add_file("b.txt", b"beta\n");
    let fs = Batching {
        refuse_writes: Some(FsError::Io(
            "this file system cannot swap two names".to_owned(),
        )),
        ..Batching::over(files, None)
    };
    let mut session = Session::open(r#"{"tools": ["apply-patch", "filetools"]}"#, fs).unwrap();
    let result = session.call(
        "apply_patch",
        &patch("*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: b.txt\n-beta\n+BETA"),
    );
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(session.fs().batches.get(), 1);
    let fs = &session.fs().files;
    assert_eq!(fs.contents("a.txt").unwrap(), b"ALPHA\n");
    assert_eq!(fs.contents("b.txt").unwrap(), b"BETA\n");
}

#[test]
fn a_conflict_the_batch_finds_is_the_answer_and_no_file_is_written() {
    let files = MemFs::new();
    files.add_file("a.txt", b"alpha\n");
    files.add_file("b.txt", b"beta\n");
    let fs = Batching {
        refuse_writes: Some(FsError::Conflict),
        ..Batching::over(files, None)
    };
    let mut session = Session::open(r#"{"tools": ["apply-patch", "filetools"]}"#, fs).unwrap();
    let result = session.call(
        "apply_patch",
        &patch("*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: b.txt\n-beta\n+BETA"),
    );
    assert!(result.is_error, "{}", result.text());
    assert!(result.text().contains("a.txt changed"), "{}", result.text());
    let fs = &session.fs().files;
    assert_eq!(fs.contents("a.txt").unwrap(), b"alpha\n");
    assert_eq!(fs.contents("b.txt").unwrap(), b"beta\n");
    assert!(session.fs().held.borrow().is_none());
}
