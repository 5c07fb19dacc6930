use std::cell::Cell;

use serde_json::json;

use crate::fs::{DirEntry, FsError, HostFs, Metadata, Precondition};
use crate::{MemFs, Session};

/// Files where another writer changes `victim` just before a write to it
/// lands: the second step of a patch fails on the host after the first
/// step was written.
struct Interfering {
    files: MemFs,
    victim: &'static str,
    armed: Cell<bool>,
}

impl HostFs for Interfering {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        self.files.stat(path)
    }
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.files.read(path, offset, len)
    }
    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.files.list_dir(path)
    }
    fn write_file(&self, path: &str, data: &[u8], pre: &Precondition) -> Result<Metadata, FsError> {
        if path == self.victim && self.armed.replace(false) {
            self.files.add_file(path, b"someone else\n");
        }
        self.files.write_file(path, data, pre)
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
        result.text().contains("changed on disk since you read it"),
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
