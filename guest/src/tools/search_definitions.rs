//! The definitions of `grep` and `find`, with the parameters models
//! already write for Claude Code's Grep and Glob, and the caps they meet.

use serde_json::{Value, json};

use crate::change::replace::MAX_REPLACE_FILES;
use crate::config::Config;
use crate::tools::definitions::{Annotations, Definition, answers};
use crate::view::search::args::MAX_CONTEXT_LINES;
use crate::view::search::find::DEFAULT_FIND_LIMIT;

/// The `no_ignore` and `hidden` switches both searches take.
fn switches() -> [(&'static str, Value); 2] {
    [
        (
            "no_ignore",
            json!({"type": "boolean", "description": "Also search what .gitignore, .ignore, .git/info/exclude and the host's excludes leave out. Default false."}),
        ),
        (
            "hidden",
            json!({"type": "boolean", "description": "Also search names starting with a dot. Default false."}),
        ),
    ]
}

fn paging() -> [(&'static str, Value); 2] {
    [
        (
            "head_limit",
            json!({"type": "integer", "minimum": 1, "description": "Show at most this many entries (lines in content mode, files otherwise)."}),
        ),
        (
            "offset",
            json!({"type": "integer", "minimum": 0, "description": "Skip this many entries first: the answer's last line gives the offset that continues it. Default 0."}),
        ),
    ]
}

fn context(flag: &str) -> Value {
    let side = match flag {
        "-A" => "after",
        "-B" => "before",
        _ => "before and after",
    };
    json!({"type": "integer", "minimum": 0, "description": format!("Lines of context {side} each match (content mode; at most {MAX_CONTEXT_LINES}).")})
}

/// The metadata of a search.
fn output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "kind": {"type": "string", "description": "search or find."},
            "path": {"type": "string"},
            "shown": {"type": "integer", "description": "Entries shown."},
            "truncated": {"type": "boolean"},
            "next_offset": {"type": "integer", "description": "The offset that continues, when there is more."},
            "skipped": {"type": "boolean", "description": "Whether anything was left unsearched (the answer says what, by rule)."},
            "versions": {"type": "object", "description": "Each file whose lines were shown, with its version, for expect."},
            "estimated_tokens": {"type": "integer"}
        },
        "required": ["kind"]
    })
}

/// The `grep` tool.
pub(crate) fn grep(config: &Config) -> Definition {
    let mut properties = serde_json::Map::new();
    properties.insert(
        "pattern".to_owned(),
        json!({"type": "string", "description": "Regular expression (Rust regex syntax, as ripgrep): escape ( ) [ ] { } . * + ? | to match them as text."}),
    );
    properties.insert(
        "path".to_owned(),
        json!({"type": "string", "description": "File or directory to search. Default: the working directory."}),
    );
    properties.insert(
        "glob".to_owned(),
        json!({"type": "string", "description": "Only files matching this glob, e.g. \"*.js\" or \"src/**/*.{ts,tsx}\"."}),
    );
    properties.insert(
        "type".to_owned(),
        json!({"type": "string", "description": "Only files of this type, e.g. rust, py, js, ts, go, java."}),
    );
    properties.insert(
        "output_mode".to_owned(),
        json!({"type": "string", "enum": ["content", "files_with_matches", "count"], "description": "content: matching lines with numbers (they count as read, so you can edit them at once); files_with_matches: paths only (default); count: matching lines per file."}),
    );
    for flag in ["-A", "-B", "-C"] {
        properties.insert(flag.to_owned(), context(flag));
    }
    properties.insert(
        "-i".to_owned(),
        json!({"type": "boolean", "description": "Case-insensitive."}),
    );
    properties.insert(
        "-n".to_owned(),
        json!({"type": "boolean", "description": "Accepted for compatibility: content lines are always numbered."}),
    );
    properties.insert(
        "multiline".to_owned(),
        json!({"type": "boolean", "description": "Let a match span lines, with . matching newlines. Default false."}),
    );
    for (name, value) in paging().into_iter().chain(switches()) {
        properties.insert(name.to_owned(), value);
    }
    Definition {
        name: "grep",
        description: format!(
            "Search file contents with a regular expression, ignore-aware. In content mode each \
             file's lines come under its path and version as `N:text` (match) or `N-text` \
             (context); those lines count as read, so edit can change them without a read. A line \
             over {} characters shows a window around its match, with the char_offset that reads \
             the rest. About {} tokens per call; the last line says what was shown and gives the \
             offset to continue. Anything the ignore rules, hidden names or binary content left \
             out is listed by rule.",
            config.max_line_chars, config.max_output_tokens
        ),
        input_schema: json!({
            "type": "object",
            "properties": properties,
            "required": ["pattern"],
            "additionalProperties": false
        }),
        output_schema: answers(&output(), &[&["kind"]]),
        annotations: Annotations {
            title: "Search file contents",
            read_only: true,
            destructive: false,
            idempotent: true,
        },
        builtin: None,
    }
}

/// The `find` tool.
pub(crate) fn find() -> Definition {
    let mut properties = serde_json::Map::new();
    properties.insert(
        "pattern".to_owned(),
        json!({"type": "string", "description": "Glob matched against paths under path, e.g. \"**/*.rs\" or \"src/**/test_*.py\"; a glob without / matches a name at any depth."}),
    );
    properties.insert(
        "path".to_owned(),
        json!({"type": "string", "description": "Directory to search. Default: the working directory."}),
    );
    for (name, value) in paging().into_iter().chain(switches()) {
        properties.insert(name.to_owned(), value);
    }
    Definition {
        name: "find",
        description: format!(
            "Find files by name with a glob, newest first, ignore-aware. Lists up to \
             {DEFAULT_FIND_LIMIT} paths unless head_limit says otherwise; the last line gives the \
             offset to continue. Anything the ignore rules or hidden names left out is listed by \
             rule."
        ),
        input_schema: json!({
            "type": "object",
            "properties": properties,
            "required": ["pattern"],
            "additionalProperties": false
        }),
        output_schema: answers(&output(), &[&["kind"]]),
        annotations: Annotations {
            title: "Find files",
            read_only: true,
            destructive: false,
            idempotent: true,
        },
        builtin: None,
    }
}

/// The `replace` tool: a dry run, then all or chosen occurrences in one
/// change.
pub(crate) fn replace() -> Definition {
    let mut properties = serde_json::Map::new();
    for (name, value) in [
        (
            "pattern",
            json!({"type": "string", "description": "The text to replace: literal, or a regular expression (Rust regex syntax, ^ and $ at each line) with regex=true."}),
        ),
        (
            "replacement",
            json!({"type": "string", "description": "What replaces each occurrence; with regex=true, $1 or ${name} insert a group."}),
        ),
        (
            "path",
            json!({"type": "string", "description": "File or directory to change. Default: the working directory."}),
        ),
        (
            "glob",
            json!({"type": "string", "description": "Only files whose paths match this glob, e.g. \"*.rs\" or \"src/**/*.ts\"."}),
        ),
        (
            "regex",
            json!({"type": "boolean", "description": "pattern is a regular expression. Default false."}),
        ),
        (
            "apply",
            json!({"type": "boolean", "description": "Make the change. Default false: a dry run listing each occurrence, numbered, with its lines before and after."}),
        ),
        (
            "expected_count",
            json!({"type": "integer", "minimum": 1, "description": "With apply: how many occurrences the change replaces (all the dry run listed, or those in occurrences); refused if that is no longer so."}),
        ),
        (
            "occurrences",
            json!({"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1, "description": "With apply: only these occurrences, by the dry run's numbers. Default all."}),
        ),
    ] {
        properties.insert(name.to_owned(), value);
    }
    for (name, value) in switches() {
        properties.insert(name.to_owned(), value);
    }
    Definition {
        name: "replace",
        description: format!(
            "Replace text across files, ignore-aware. First call without apply: a dry run numbers \
             each occurrence with its file's version and its lines before and after (they count as \
             read). Then apply=true with expected_count (and occurrences to take only some): every \
             file is changed or none; refused if a file changed since the dry run. One undo of any \
             of the files takes the whole change back. At most {MAX_REPLACE_FILES} files."
        ),
        input_schema: json!({
            "type": "object",
            "properties": properties,
            "required": ["pattern", "replacement"],
            "additionalProperties": false
        }),
        output_schema: answers(
            &json!({
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "description": "replace."},
                    "dry_run": {"type": "boolean"},
                    "occurrences": {"type": "integer", "description": "Occurrences found (a dry run)."},
                    "replaced": {"type": "integer", "description": "Occurrences replaced (applied)."},
                    "files": {"type": "integer", "description": "Files holding the occurrences."},
                    "searched": {"type": "integer", "description": "Files searched (a dry run)."},
                    "versions": {"type": "object", "description": "Each file holding the pattern, with its version."},
                    "truncated": {"type": "boolean"},
                    "estimated_tokens": {"type": "integer"}
                },
                "required": ["kind"]
            }),
            &[&["kind"]],
        ),
        annotations: Annotations {
            title: "Replace across files",
            read_only: false,
            destructive: true,
            idempotent: false,
        },
        builtin: None,
    }
}
