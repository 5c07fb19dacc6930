//! The typed arguments of the changes — [`WriteArgs`], [`EditArgs`] (one
//! or more [`EditOp`]s) and [`UndoArgs`] — and [`checked_version`], the
//! `expect` each may carry (SPEC V2). The model's raw JSON becomes one in
//! the tools' argument checks.
//!
//! ```
//! use filetools_core::answers::tool::Tool;
//! use filetools_core::change::args::checked_version;
//! assert!(checked_version(Tool::Write, Some("3f9a0c2d41b7e865-1024")).unwrap().is_some());
//! assert!(checked_version(Tool::Write, Some("latest")).is_err());
//! ```

use serde_json::Value;

use crate::answers::error::ToolError;
use crate::answers::quote::short_json;
use crate::answers::tool::Tool;
use crate::memory::version::Version;

/// Typed arguments of `write`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteArgs {
    /// The path as the model sent it.
    pub file_path: String,
    /// The whole new content.
    pub content: String,
    /// The encoding to write in (a label such as `"windows-1252"`); by
    /// default a replaced file keeps its own and a new one is UTF-8.
    pub encoding: Option<String>,
    /// The version the file must be at (SPEC V2), as a read showed it.
    pub expect: Option<String>,
}

/// One replacement of an edit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EditOp {
    /// The text to find; empty only to create a file.
    pub old_string: String,
    /// The text to put in its place.
    pub new_string: String,
    /// Replace every occurrence instead of requiring exactly one.
    pub replace_all: bool,
}

/// Typed arguments of `edit`: one or more replacements, applied in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EditArgs {
    /// The path as the model sent it.
    pub file_path: String,
    /// The replacements, at least one.
    pub edits: Vec<EditOp>,
    /// The encoding the file is in, for a file whose encoding is a guess.
    pub encoding: Option<String>,
    /// The version the file must be at (SPEC V2), as a read showed it.
    pub expect: Option<String>,
}

/// Where an edit by symbol puts its text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Placement {
    /// In place of the entry's lines (deleting them when the text is empty).
    #[default]
    Replace,
    /// On lines of its own before the entry.
    Before,
    /// On lines of its own after the entry.
    After,
}

impl Placement {
    /// The word the arguments use for it.
    pub fn word(self) -> &'static str {
        match self {
            Placement::Replace => "replace",
            Placement::Before => "before",
            Placement::After => "after",
        }
    }
}

/// Typed arguments of `edit` by symbol: one outline entry, named as `read`
/// names it, replaced, deleted, or given new lines before or after it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SymbolEditArgs {
    /// The path as the model sent it.
    pub file_path: String,
    /// The entry's name, e.g. `"Decimal.__new__"`.
    pub symbol: String,
    /// The text: the whole new entry, or the lines to put beside it.
    pub new_string: String,
    /// Where the text goes.
    pub position: Placement,
    /// The encoding the file is in, for a file whose encoding is a guess.
    pub encoding: Option<String>,
    /// The version the file must be at (SPEC V2), as a read showed it.
    pub expect: Option<String>,
}

impl SymbolEditArgs {
    /// The arguments as the model would send them.
    pub fn to_json(&self) -> String {
        let mut map = serde_json::Map::new();
        map.insert("file_path".to_owned(), self.file_path.clone().into());
        map.insert("symbol".to_owned(), self.symbol.clone().into());
        map.insert("new_string".to_owned(), self.new_string.clone().into());
        map.insert("position".to_owned(), self.position.word().into());
        for (name, value) in [("encoding", &self.encoding), ("expect", &self.expect)] {
            if let Some(value) = value {
                map.insert(name.to_owned(), value.clone().into());
            }
        }
        Value::Object(map).to_string()
    }
}

/// Typed arguments of `replace`: text replaced across the files under a
/// path, a dry run first, then all or chosen occurrences in one change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "the model's own switches, each a flag of the tool"
)]
pub struct ReplaceArgs {
    /// The text to find: literal, or a regular expression with `regex`.
    pub pattern: String,
    /// What replaces each occurrence (`$1`, `${name}` expand with `regex`).
    pub replacement: String,
    /// The file or directory searched; the working directory by default.
    pub path: Option<String>,
    /// Only files whose paths match this glob.
    pub glob: Option<String>,
    /// `pattern` is a regular expression.
    pub regex: bool,
    /// Make the change (otherwise a dry run that lists the occurrences).
    pub apply: bool,
    /// With `apply`: how many occurrences the change replaces.
    pub expected_count: Option<u64>,
    /// With `apply`: the occurrences to replace, by the dry run's numbers
    /// (all when not given).
    pub occurrences: Option<Vec<u64>>,
    /// Search ignored files too.
    pub no_ignore: bool,
    /// Search hidden files too.
    pub hidden: bool,
}

impl ReplaceArgs {
    /// The arguments as the model would send them.
    pub fn to_json(&self) -> String {
        let mut map = serde_json::Map::new();
        map.insert("pattern".to_owned(), self.pattern.clone().into());
        map.insert("replacement".to_owned(), self.replacement.clone().into());
        for (name, value) in [("path", &self.path), ("glob", &self.glob)] {
            if let Some(value) = value {
                map.insert(name.to_owned(), value.clone().into());
            }
        }
        let switches = [
            ("regex", self.regex),
            ("apply", self.apply),
            ("no_ignore", self.no_ignore),
            ("hidden", self.hidden),
        ];
        for (name, on) in switches {
            if on {
                map.insert(name.to_owned(), true.into());
            }
        }
        if let Some(count) = self.expected_count {
            map.insert("expected_count".to_owned(), count.into());
        }
        if let Some(numbers) = &self.occurrences {
            map.insert("occurrences".to_owned(), numbers.clone().into());
        }
        Value::Object(map).to_string()
    }
}

/// Typed arguments of `undo`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UndoArgs {
    /// The path as the model sent it.
    pub file_path: String,
    /// The version the file must be at (SPEC V2), as a change gave it.
    pub expect: Option<String>,
}

/// `text` as a version, for `expect`; `None` when not given.
pub fn checked_version(tool: Tool, text: Option<&str>) -> Result<Option<Version>, ToolError> {
    let Some(text) = text else {
        return Ok(None);
    };
    text.parse()
        .map(Some)
        .map_err(|_| ToolError::InvalidArgument {
            tool,
            name: "expect",
            expected: "a version as an answer gives it, e.g. \"3f9a0c2d41b7e865-1024\"",
            got: short_json(&Value::String(text.to_owned())),
        })
}

/// Typed arguments of the host's `mark` of a turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarkArgs {
    /// Files changed outside the session since the last mark (a shell
    /// command's edits, a watcher's list), as the host names them: they
    /// are recorded at this mark and every later one.
    pub changed: Vec<String>,
}

/// Typed arguments of the host's `rewind` to a marked turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RewindArgs {
    /// The mark's number.
    pub mark: u64,
    /// Only say what would be done.
    pub dry_run: bool,
    /// Files changed outside the session since the last mark by the turns
    /// being rewound (a shell command's edits): rewound as the session's
    /// own changes are, not kept as someone else's.
    pub changed: Vec<String>,
}

impl MarkArgs {
    /// The arguments as a host sends them.
    pub fn to_json(&self) -> String {
        serde_json::json!({"changed": self.changed}).to_string()
    }
}

impl RewindArgs {
    /// The arguments as a host sends them.
    pub fn to_json(&self) -> String {
        serde_json::json!({"mark": self.mark, "dry_run": self.dry_run, "changed": self.changed})
            .to_string()
    }
}
