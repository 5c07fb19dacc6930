//! H1: any file system that is `Send + Sync` serves a session — an
//! in-memory one, and an overlay whose changes stay in memory over a
//! directory — under the same rules as the sandbox; and the config can be
//! given typed.

use std::path::Path;
use std::sync::{Arc, Mutex};

use filetools::{Config, MemFs, Overlay, Sandbox, Tools};
use filetools_core::ToolSet;

use crate::root_and_outside;

fn cache() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/host-tests/cache")
}

/// Tools over the directory `root` with the typed `config`.
fn over_directory(root: &Path, config: &Config) -> Tools {
    Tools::builder()
        .root(root)
        .config(config)
        .unwrap()
        .cache_dir(cache())
        .build()
        .unwrap()
}

#[test]
fn an_in_memory_file_system_serves_a_session_with_every_rule() {
    let files = Arc::new(Mutex::new(MemFs::new()));
    files
        .lock()
        .unwrap()
        .add_file("src/a.py", b"x = 1\r\ny = 2\r\n");
    let tools = Tools::builder()
        .fs(Arc::clone(&files))
        .cache_dir(cache())
        .build()
        .unwrap();
    assert!(tools.root().is_none());
    let mut session = tools.session().unwrap();
    let refused = session.call(
        "edit",
        r#"{"file_path": "src/a.py", "old_string": "y = 2", "new_string": "y = 3"}"#,
    );
    assert!(
        refused.text().contains("you have not read"),
        "{}",
        refused.text()
    );
    session.call("read", r#"{"file_path": "src/a.py"}"#);
    let edited = session.call(
        "edit",
        r#"{"file_path": "src/a.py", "old_string": "y = 2", "new_string": "y = 3"}"#,
    );
    assert!(!edited.is_error, "{}", edited.text());
    assert_eq!(
        files.lock().unwrap().contents("src/a.py").unwrap(),
        b"x = 1\r\ny = 3\r\n"
    );
    // Another writer: the session notices.
    files.lock().unwrap().add_file("src/a.py", b"changed\n");
    let stale = session.call(
        "edit",
        r#"{"file_path": "src/a.py", "old_string": "x = 1", "new_string": "x = 0"}"#,
    );
    assert!(
        stale.text().contains("changed since your view"),
        "{}",
        stale.text()
    );
}

#[test]
fn read_only_refuses_changes_before_they_reach_a_plugged_in_file_system() {
    let files = Arc::new(Mutex::new(MemFs::new()));
    let tools = Tools::builder()
        .fs(Arc::clone(&files))
        .read_only(true)
        .cache_dir(cache())
        .build()
        .unwrap();
    let result = tools
        .session()
        .unwrap()
        .call("write", r#"{"file_path": "a.txt", "content": "x"}"#);
    assert!(result.text().contains("read-only"), "{}", result.text());
    assert!(files.lock().unwrap().files().is_empty());
}

#[test]
fn an_overlay_keeps_every_change_in_memory_and_the_directory_as_it_was() {
    let (root, _) = root_and_outside("served-overlay");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.txt"), "alpha\nbeta\n").unwrap();
    std::fs::write(root.join("old.txt"), "old\n").unwrap();
    let overlay = Overlay::new(Sandbox::open(&root, true).unwrap());
    let config = Config {
        tools: vec![
            ToolSet::Filetools,
            ToolSet::ApplyPatch,
            ToolSet::McpFilesystem,
        ],
        ..Config::default()
    };
    let tools = Tools::builder()
        .fs(overlay.clone())
        .config(&config)
        .unwrap()
        .cache_dir(cache())
        .build()
        .unwrap();
    let mut session = tools.session().unwrap();
    session.call("read", r#"{"file_path": "src/a.txt"}"#);
    let patch = serde_json::json!({"input": "*** Begin Patch\n*** Update File: src/a.txt\n-beta\n+BETA\n*** Add File: new.txt\n+fresh\n*** Delete File: old.txt\n*** End Patch"});
    let done = session.call("apply_patch", &patch.to_string());
    assert!(!done.is_error, "{}", done.text());
    let moved = session.call(
        "move_file",
        r#"{"source": "new.txt", "destination": "docs/new.txt"}"#,
    );
    assert!(!moved.is_error, "{}", moved.text());
    let listing = session.call("list_directory", r#"{"path": "."}"#);
    assert_eq!(listing.text(), "[DIR] docs\n[DIR] src");
    let read = session.call("read", r#"{"file_path": "src/a.txt", "offset": 2}"#);
    assert!(read.text().starts_with("2\tBETA"), "{}", read.text());
    let changes = overlay.changes();
    assert_eq!(changes["src/a.txt"].as_deref(), Some(&b"alpha\nBETA\n"[..]));
    assert_eq!(changes["docs/new.txt"].as_deref(), Some(&b"fresh\n"[..]));
    assert_eq!(changes["old.txt"], None);
    assert_eq!(changes["new.txt"], None);
    // The directory is untouched.
    assert_eq!(
        std::fs::read(root.join("src/a.txt")).unwrap(),
        b"alpha\nbeta\n"
    );
    assert!(root.join("old.txt").exists());
    assert!(!root.join("docs").exists() && !root.join("new.txt").exists());
    // Undo works over the overlay too.
    let undone = session.call("undo", r#"{"file_path": "docs/new.txt"}"#);
    assert!(!undone.is_error, "{}", undone.text());
    assert_eq!(
        overlay
            .changes()
            .get("new.txt")
            .cloned()
            .flatten()
            .as_deref(),
        Some(&b"fresh\n"[..])
    );
}

#[test]
fn a_typed_config_over_a_directory_keeps_the_roots_absolute_paths() {
    let (root, _) = root_and_outside("served-typed-config");
    std::fs::write(root.join("a.txt"), "one\ntwo\nthree\n").unwrap();
    let config = Config {
        max_lines: 1,
        ..Config::default()
    };
    let tools = over_directory(&root, &config);
    let absolute = root.canonicalize().unwrap().join("a.txt");
    let args = serde_json::json!({ "file_path": absolute }).to_string();
    let result = tools.session().unwrap().call("read", &args);
    assert_eq!(
        result.text(),
        "1\tone\n[lines 1-1 of 3; continue with offset=2]\n[version 6b618919d7d1719c-14]"
    );
}

#[test]
fn typed_definitions_follow_the_config_and_match_the_schema() {
    let (root, _) = root_and_outside("served-typed-definitions");
    let config = Config {
        tools: vec![ToolSet::TextEditor, ToolSet::Notebook],
        ..Config::default()
    };
    let tools = over_directory(&root, &config);
    let typed = tools.tool_definitions().unwrap();
    let names: Vec<&str> = typed.iter().map(|d| d.name).collect();
    assert_eq!(names, ["str_replace_based_edit_tool", "notebook_edit"]);
    assert!(!typed[1].annotations.read_only);
    let rendered = tools.schema(filetools::Format::Mcp).unwrap();
    assert_eq!(rendered[1]["name"], "notebook_edit");
    assert_eq!(rendered[1]["outputSchema"], typed[1].output_schema);
}
