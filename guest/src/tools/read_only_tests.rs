//! A read-only workspace told to the model: the definitions list only the
//! tools (and the text editor's commands) that can succeed, and a change
//! is refused as read-only before anything else, a file not yet read
//! included, so the model never reads first only to be refused again.

use serde_json::{Value, json};

use crate::config::Config;
use crate::fs::memory::MemFs;
use crate::tools::definitions::definitions;
use crate::tools::schema::{Format, render};
use crate::tools::session::Session;

fn config(tools: &str) -> Config {
    Config::from_json(&format!(r#"{{"tools": {tools}, "read_only": true}}"#)).unwrap()
}

fn names(tools: &str) -> Vec<&'static str> {
    definitions(&config(tools)).iter().map(|d| d.name).collect()
}

#[test]
fn only_the_tools_that_change_nothing_are_listed() {
    assert_eq!(names(r#"["filetools"]"#), ["read", "grep", "find"]);
    assert_eq!(
        names(r#"["mcp-filesystem"]"#),
        [
            "read_text_file",
            "read_media_file",
            "read_multiple_files",
            "list_directory",
            "list_directory_with_sizes",
            "directory_tree",
            "search_files",
            "get_file_info",
            "list_allowed_directories"
        ]
    );
    assert!(names(r#"["apply-patch"]"#).is_empty());
    assert!(names(r#"["notebook"]"#).is_empty());
    for def in definitions(&config(r#"["filetools", "text-editor", "mcp-filesystem"]"#)) {
        assert!(def.annotations.read_only, "{} is listed", def.name);
    }
}

#[test]
fn the_text_editor_keeps_its_view_command_in_every_format() {
    for format in Format::ALL {
        let tools = render(&config(r#"["text-editor"]"#), format);
        assert_eq!(tools.len(), 1);
        let text = tools[0].to_string();
        assert!(text.contains(r#"["view"]"#), "{format:?}: {text}");
        assert!(!text.contains("str_replace\""), "{format:?}: {text}");
    }
    let mcp = &render(&config(r#"["text-editor"]"#), Format::Mcp)[0];
    assert_eq!(mcp["annotations"]["readOnlyHint"], true);
}

/// Each change a model can ask for, as `(tool, arguments)`, of a file it
/// has not read.
fn changes() -> Vec<(&'static str, Value)> {
    vec![
        ("write", json!({"file_path": "a.txt", "content": "x"})),
        (
            "edit",
            json!({"file_path": "a.txt", "old_string": "a", "new_string": "b"}),
        ),
        ("undo", json!({"file_path": "a.txt"})),
        (
            "str_replace_based_edit_tool",
            json!({"command": "str_replace", "path": "a.txt", "old_str": "a", "new_str": "b"}),
        ),
        (
            "str_replace_based_edit_tool",
            json!({"command": "insert", "path": "a.txt", "insert_line": 0, "insert_text": "b"}),
        ),
        (
            "apply_patch",
            json!({"input": "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch"}),
        ),
        (
            "notebook_edit",
            json!({"notebook_path": "a.txt", "new_source": "b"}),
        ),
        (
            "edit_file",
            json!({"path": "a.txt", "edits": [{"oldText": "a", "newText": "b"}]}),
        ),
        ("create_directory", json!({"path": "made"})),
        (
            "move_file",
            json!({"source": "a.txt", "destination": "b.txt"}),
        ),
    ]
}

#[test]
fn a_change_is_refused_as_read_only_before_it_is_refused_as_not_read() {
    let fs = MemFs::new();
    fs.add_file("a.txt", b"a\n");
    let all = r#"{"tools": ["filetools", "text-editor", "apply-patch", "notebook", "mcp-filesystem"], "read_only": true}"#;
    let mut session = Session::open(all, fs).unwrap();
    for (tool, args) in changes() {
        let result = session.call(tool, &args.to_string());
        assert!(result.is_error, "{tool}: {}", result.text());
        // The MCP filesystem set's errors carry no metadata, as the
        // reference server's.
        if !["edit_file", "create_directory", "move_file"].contains(&tool) {
            assert_eq!(
                result.metadata["error"],
                "read_only",
                "{tool}: {}",
                result.text()
            );
        }
        assert!(
            result.text().contains("read-only"),
            "{tool}: {}",
            result.text()
        );
    }
    assert_eq!(session.fs().contents("a.txt").unwrap(), b"a\n");
    assert!(session.fs().contents("b.txt").is_none());
}
