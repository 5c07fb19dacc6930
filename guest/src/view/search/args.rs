//! [`GrepArgs`] and [`FindArgs`]: what a search is asked for, typed, with
//! the parameters models already write for Claude Code's Grep and Glob.
//! The model's raw JSON becomes one in the tools' argument checks.

use serde_json::{Map, Value};

use crate::answers::error::ToolError;
use crate::answers::tool::Tool;
use crate::paths::walk::rules::Narrowing;

/// Lines of context asked for on either side at most.
pub const MAX_CONTEXT_LINES: u64 = 100;

/// What a `grep` answer lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OutputMode {
    /// The matching lines, with numbers and context.
    Content,
    /// The files with a match (the default).
    #[default]
    FilesWithMatches,
    /// Matching lines per file.
    Count,
}

impl OutputMode {
    /// The mode's name, as the model writes it.
    pub fn name(self) -> &'static str {
        match self {
            OutputMode::Content => "content",
            OutputMode::FilesWithMatches => "files_with_matches",
            OutputMode::Count => "count",
        }
    }

    /// The mode named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "content" => Some(OutputMode::Content),
            "files_with_matches" => Some(OutputMode::FilesWithMatches),
            "count" => Some(OutputMode::Count),
            _ => None,
        }
    }
}

/// Typed arguments of `grep`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "the tool's independent switches, as the model sends them"
)]
pub struct GrepArgs {
    /// A regular expression in ripgrep's syntax.
    pub pattern: String,
    /// The file or directory to search; the working directory when absent.
    pub path: Option<String>,
    /// Only paths matching this glob.
    pub glob: Option<String>,
    /// Only files of this type (`rust`, `py`, `js`, ...).
    pub file_type: Option<String>,
    /// What the answer lists.
    pub output_mode: OutputMode,
    /// Lines of context after each match (content mode).
    pub after: Option<u64>,
    /// Lines of context before each match (content mode).
    pub before: Option<u64>,
    /// Lines of context on both sides, where `after`/`before` are absent.
    pub context: Option<u64>,
    /// Case-insensitive.
    pub case_insensitive: bool,
    /// Matches may span lines, `.` matching newlines too.
    pub multiline: bool,
    /// Entries shown at most.
    pub head_limit: Option<u64>,
    /// Entries skipped first.
    pub offset: u64,
    /// Ignore files and host excludes unapplied.
    pub no_ignore: bool,
    /// Hidden names searched too.
    pub hidden: bool,
}

impl GrepArgs {
    /// Lines of context `(before, after)`.
    pub fn context_lines(&self) -> (u64, u64) {
        let both = self.context.unwrap_or(0);
        (
            self.before.unwrap_or(both).min(MAX_CONTEXT_LINES),
            self.after.unwrap_or(both).min(MAX_CONTEXT_LINES),
        )
    }

    /// What the walk is narrowed to.
    pub fn narrowing(&self) -> Narrowing {
        Narrowing {
            glob: self.glob.clone(),
            file_type: self.file_type.clone(),
            no_ignore: self.no_ignore,
            hidden: self.hidden,
        }
    }

    /// The arguments as the model would send them.
    pub fn to_json(&self) -> String {
        let mut map = Map::new();
        map.insert("pattern".to_owned(), Value::from(self.pattern.clone()));
        let strings = [
            ("path", &self.path),
            ("glob", &self.glob),
            ("type", &self.file_type),
        ];
        for (name, value) in strings {
            if let Some(value) = value {
                map.insert(name.to_owned(), Value::from(value.clone()));
            }
        }
        map.insert(
            "output_mode".to_owned(),
            Value::from(self.output_mode.name()),
        );
        let numbers = [
            ("-A", self.after),
            ("-B", self.before),
            ("-C", self.context),
            ("head_limit", self.head_limit),
            ("offset", Some(self.offset)),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                map.insert(name.to_owned(), Value::from(value));
            }
        }
        let switches = [
            ("-i", self.case_insensitive),
            ("multiline", self.multiline),
            ("no_ignore", self.no_ignore),
            ("hidden", self.hidden),
        ];
        for (name, on) in switches {
            map.insert(name.to_owned(), Value::from(on));
        }
        Value::Object(map).to_string()
    }

    /// The same rules for typed arguments: a pattern is required.
    pub fn checked(self) -> Result<Self, ToolError> {
        if self.pattern.is_empty() {
            return Err(ToolError::MissingArgument {
                tool: Tool::Grep,
                name: "pattern",
            });
        }
        if self.head_limit == Some(0) {
            return Err(ToolError::InvalidArgument {
                tool: Tool::Grep,
                name: "head_limit",
                expected: "an integer >= 1",
                got: "0".to_owned(),
            });
        }
        Ok(self)
    }
}

/// Typed arguments of `find`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FindArgs {
    /// A glob like `**/*.rs`, matched against paths relative to `path`.
    pub pattern: String,
    /// The directory to search; the working directory when absent.
    pub path: Option<String>,
    /// Entries shown at most.
    pub head_limit: Option<u64>,
    /// Entries skipped first.
    pub offset: u64,
    /// Ignore files and host excludes unapplied.
    pub no_ignore: bool,
    /// Hidden names searched too.
    pub hidden: bool,
}

impl FindArgs {
    /// The arguments as the model would send them.
    pub fn to_json(&self) -> String {
        let mut map = Map::new();
        map.insert("pattern".to_owned(), Value::from(self.pattern.clone()));
        if let Some(path) = &self.path {
            map.insert("path".to_owned(), Value::from(path.clone()));
        }
        if let Some(limit) = self.head_limit {
            map.insert("head_limit".to_owned(), Value::from(limit));
        }
        map.insert("offset".to_owned(), Value::from(self.offset));
        map.insert("no_ignore".to_owned(), Value::from(self.no_ignore));
        map.insert("hidden".to_owned(), Value::from(self.hidden));
        Value::Object(map).to_string()
    }

    /// The same rules for typed arguments: a pattern is required.
    pub fn checked(self) -> Result<Self, ToolError> {
        if self.pattern.is_empty() {
            return Err(ToolError::MissingArgument {
                tool: Tool::Find,
                name: "pattern",
            });
        }
        if self.head_limit == Some(0) {
            return Err(ToolError::InvalidArgument {
                tool: Tool::Find,
                name: "head_limit",
                expected: "an integer >= 1",
                got: "0".to_owned(),
            });
        }
        Ok(self)
    }

    /// What the walk is narrowed to.
    pub fn narrowing(&self) -> Narrowing {
        Narrowing {
            glob: None,
            file_type: None,
            no_ignore: self.no_ignore,
            hidden: self.hidden,
        }
    }
}
