//! [`Tool`]: the tools of the `filetools` set by name, and the compact
//! schema an argument error quotes so the model can send the call again.
//!
//! ```
//! use filetools_core::answers::tool::Tool;
//! assert_eq!(Tool::from_name("edit"), Some(Tool::Edit));
//! assert!(Tool::Undo.schema().starts_with("undo takes {file_path: string"));
//! ```

/// A tool the model can call, or one of the host's calls about turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `read`.
    Read,
    /// `write`.
    Write,
    /// `edit`.
    Edit,
    /// `undo`.
    Undo,
    /// Search file contents: its hits count as read.
    Grep,
    /// Find files by a glob, newest first.
    Find,
    /// Replace text across files: a dry run, then all or chosen
    /// occurrences in one change.
    Replace,
    /// The host's mark of a turn (not offered to the model).
    Mark,
    /// The host's rewind to a marked turn (not offered to the model).
    Rewind,
}

impl Tool {
    /// Every tool the model may be offered, in the order it is shown
    /// them.
    pub const ALL: [Tool; 7] = [
        Tool::Read,
        Tool::Write,
        Tool::Edit,
        Tool::Undo,
        Tool::Grep,
        Tool::Find,
        Tool::Replace,
    ];

    /// The tool called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|tool| tool.name() == name)
    }

    /// The name the model calls.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Read => "read",
            Tool::Write => "write",
            Tool::Edit => "edit",
            Tool::Undo => "undo",
            Tool::Grep => "grep",
            Tool::Find => "find",
            Tool::Replace => "replace",
            Tool::Mark => "mark",
            Tool::Rewind => "rewind",
        }
    }

    /// The compact argument schema quoted by argument errors.
    pub fn schema(self) -> &'static str {
        match self {
            Tool::Read => {
                "read takes {file_path: string, offset?: integer >= 1, limit?: integer >= 1, char_offset?: integer >= 1, pages?: string like \"3-7\", symbol?: string like \"Decimal.__new__\", block?: boolean, encoding?: string like \"windows-1252\"} or {file_paths: [string, ...]}"
            }
            Tool::Write => {
                "write takes {file_path: string, content: string, encoding?: string like \"windows-1252\", expect?: string like \"3f9a0c2d41b7e865-1024\"}"
            }
            Tool::Edit => {
                "edit takes {file_path: string, old_string: string, new_string: string, replace_all?: boolean, encoding?: string, expect?: string} or {file_path: string, edits: [{old_string, new_string, replace_all?}, ...], encoding?: string, expect?: string} or {file_path: string, symbol: string, new_string: string, position?: \"replace\" | \"before\" | \"after\", encoding?: string, expect?: string}"
            }
            Tool::Undo => "undo takes {file_path: string, expect?: string}",
            Tool::Grep => {
                "grep takes {pattern: string, path?: string, glob?: string, type?: string, output_mode?: \"content\" | \"files_with_matches\" | \"count\", -A?: integer, -B?: integer, -C?: integer, -i?: boolean, multiline?: boolean, head_limit?: integer >= 1, offset?: integer >= 0, no_ignore?: boolean, hidden?: boolean}"
            }
            Tool::Find => {
                "find takes {pattern: string like \"**/*.rs\", path?: string, head_limit?: integer >= 1, offset?: integer >= 0, no_ignore?: boolean, hidden?: boolean}"
            }
            Tool::Replace => {
                "replace takes {pattern: string, replacement: string, path?: string, glob?: string, regex?: boolean, apply?: boolean, expected_count?: integer >= 1, occurrences?: [integer >= 1, ...], no_ignore?: boolean, hidden?: boolean}"
            }
            Tool::Mark => "mark takes {changed?: [string, ...]}",
            Tool::Rewind => {
                "rewind takes {mark: integer >= 1, dry_run?: boolean, changed?: [string, ...]}"
            }
        }
    }
}
