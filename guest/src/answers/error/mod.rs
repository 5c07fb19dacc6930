//! Model-facing failures: each renders as one short sentence that names the
//! cause and the next step (SPEC S4). They become a tool result with
//! `is-error` set; the conversion from host errors lives here too.
//!
//! ```
//! use filetools_core::answers::error::ToolError;
//! let err = ToolError::UnknownTool { name: "cat".into(), known: vec!["read", "write", "edit", "undo"] };
//! assert_eq!(err.to_string(), "Error: unknown tool \"cat\"; the tools are: read, write, edit, undo.");
//! ```

pub mod cells;
pub mod insert;
pub mod patch;
pub mod path;
pub mod replace;
pub mod symbol;

use std::fmt;

use serde_json::Value;

use crate::answers::error::path::Danger;
use crate::answers::error::path::PathError;
use crate::answers::quote::{cut, quoted};
use crate::answers::refusal::Refusal;
use crate::answers::tool::Tool;
use crate::config::MAX_PATH_BYTES;
use crate::fs::host::{FileKind, FsError};

/// A failed tool call, as the model sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolError {
    /// The arguments are not a JSON object.
    ArgumentsNotObject {
        /// The tool called.
        tool: Tool,
        /// What the JSON parser said, or what was sent instead.
        detail: String,
    },
    /// A required argument is missing.
    MissingArgument {
        /// The tool called.
        tool: Tool,
        /// Its name.
        name: &'static str,
    },
    /// An argument the tool does not know.
    UnknownArgument {
        /// The tool called.
        tool: Tool,
        /// The name sent.
        name: String,
    },
    /// One argument given under two names with different values.
    DuplicateArgument {
        /// The tool called.
        tool: Tool,
        /// The canonical name.
        name: &'static str,
        /// The other name it was also given as.
        alias: String,
    },
    /// An argument has the wrong type or range.
    InvalidArgument {
        /// The tool called.
        tool: Tool,
        /// Its name.
        name: &'static str,
        /// What it must be.
        expected: &'static str,
        /// What was sent, as JSON.
        got: String,
    },
    /// No such tool.
    UnknownTool {
        /// The name sent.
        name: String,
        /// The tools the session offers.
        known: Vec<&'static str>,
    },
    /// A rewind to a turn that was never marked, or whose mark is gone.
    NoMark {
        /// The mark asked for.
        asked: u64,
        /// The first and last marks kept, if any.
        kept: Option<(u64, u64)>,
    },
    /// The arguments of a tool of another shape (the text editor, a patch,
    /// the MCP filesystem tools, notebook edits) are malformed.
    Arguments {
        /// The tool called.
        tool: &'static str,
        /// What is wrong, naming the argument.
        problem: String,
        /// The compact schema of the tool's arguments.
        takes: &'static str,
    },
    /// A patch that was not applied.
    Patch(patch::PatchError),
    /// A notebook cell edit that was refused.
    Cells(cells::CellError),
    /// An insertion after a line the file does not have.
    InsertPastEnd(insert::PastTheEnd),
    /// A read by symbol found no single entry.
    Symbol(symbol::SymbolError),
    /// A `replace` that was to change files changed none.
    Replace(replace::ReplaceError),
    /// A change over several files failed on one of them after others were
    /// written, and some of those could not be put back.
    PartlyWritten {
        /// Why the change failed.
        cause: Box<ToolError>,
        /// The files left changed, because they changed again meanwhile.
        stuck: Vec<String>,
    },
    /// The path cannot be mapped into the workspace.
    BadPath {
        /// The path as sent.
        path: String,
        /// Why.
        reason: PathError,
        /// The workspace root, if the host named it.
        root: String,
    },
    /// Nothing exists at the path, under any spelling tried.
    NotFound {
        /// The path as sent.
        path: String,
        /// Close names in its directory.
        suggestions: Vec<String>,
        /// Its directory, when that does not exist either.
        missing_dir: Option<String>,
        /// The working directory relative paths start at.
        cwd: String,
    },
    /// Several files differ from the path only invisibly.
    AmbiguousPath {
        /// The path as sent.
        path: String,
        /// The files that fit, each with how it differs.
        candidates: Vec<String>,
    },
    /// A device, process or kernel file, refused by name before any I/O.
    Dangerous {
        /// The path as sent.
        path: String,
        /// The absolute path it names.
        named: String,
        /// Why it is refused.
        kind: Danger,
    },
    /// A file-system call failed.
    Fs {
        /// The path as sent.
        path: String,
        /// The host's error.
        error: FsError,
    },
    /// The path is a directory.
    IsDirectory {
        /// The path as sent.
        path: String,
    },
    /// The path is a file where a directory is wanted.
    NotDirectory {
        /// The path as sent.
        path: String,
    },
    /// A tool that shows text only was given a file that is not text.
    NotTextFile {
        /// The path as sent.
        path: String,
        /// Why it is not text, e.g. "not valid UTF-8 (first bad byte at
        /// offset 0)".
        why: String,
    },
    /// The path is a FIFO, socket or device: reading could block.
    NotRegular {
        /// The path as sent.
        path: String,
        /// What it is.
        kind: FileKind,
    },
    /// A write to the file system failed.
    WriteFailed {
        /// The path as sent.
        path: String,
        /// The host's error.
        error: FsError,
    },
    /// A write, edit or undo the session's rules refuse.
    Refused(Refusal),
}

impl From<Refusal> for ToolError {
    fn from(refusal: Refusal) -> Self {
        ToolError::Refused(refusal)
    }
}

impl ToolError {
    /// A change of `path` refused because the workspace is read-only.
    pub fn read_only(path: String) -> Self {
        ToolError::WriteFailed {
            path,
            error: FsError::ReadOnly,
        }
    }

    /// A stable machine-readable name for metadata, e.g. `not_found`.
    pub fn code(&self) -> &'static str {
        match self {
            ToolError::ArgumentsNotObject { .. }
            | ToolError::MissingArgument { .. }
            | ToolError::UnknownArgument { .. }
            | ToolError::DuplicateArgument { .. }
            | ToolError::InvalidArgument { .. }
            | ToolError::Arguments { .. } => "invalid_arguments",
            ToolError::UnknownTool { .. } => "unknown_tool",
            ToolError::NoMark { .. } => "no_such_mark",
            ToolError::PartlyWritten { .. } => "partly_written",
            ToolError::Patch(_) => "patch_not_applied",
            ToolError::InsertPastEnd(_) => "past_the_end",
            ToolError::Symbol(err) => err.code(),
            ToolError::Replace(err) => err.code(),
            ToolError::Cells(_) => "notebook_edit_refused",
            ToolError::BadPath { .. } => "bad_path",
            ToolError::IsDirectory { .. } => "is_directory",
            ToolError::NotDirectory { .. } => "not_a_directory",
            ToolError::NotTextFile { .. } => "not_text",
            ToolError::NotRegular { .. } | ToolError::Dangerous { .. } => "not_regular_file",
            ToolError::NotFound { .. } | ToolError::AmbiguousPath { .. } => "not_found",
            ToolError::Refused(refusal) => refusal.code(),
            ToolError::Fs { error, .. } | ToolError::WriteFailed { error, .. } => match error {
                FsError::NotFound => "not_found",
                FsError::PermissionDenied => "permission_denied",
                FsError::IsADirectory => "is_directory",
                FsError::NotADirectory => "not_a_directory",
                FsError::OutsideSandbox => "outside_sandbox",
                FsError::ReadOnly => "read_only",
                FsError::Conflict => "conflict",
                FsError::Io(_) => "io",
            },
        }
    }

    /// Facts for the metadata beside the code, when there are some.
    pub fn facts(&self) -> Option<Value> {
        match self {
            ToolError::Refused(refusal) => refusal.facts(),
            _ => None,
        }
    }

    /// The call that moves the model forward, as `{"tool", "args"}`, when
    /// there is one.
    pub fn next_call(&self) -> Option<Value> {
        match self {
            ToolError::Refused(refusal) => refusal.next_call(),
            _ => None,
        }
    }

    /// Wraps a failed write of `path`, turning a conflict into its refusal.
    pub fn from_write(path: &str, tool: Tool, error: FsError) -> Self {
        match error {
            FsError::Conflict => ToolError::Refused(Refusal::Conflict {
                path: path.to_owned(),
                tool,
            }),
            FsError::IsADirectory => ToolError::IsDirectory {
                path: path.to_owned(),
            },
            error => ToolError::WriteFailed {
                path: path.to_owned(),
                error,
            },
        }
    }

    /// Wraps a host error for `path`, turning kind errors into their own cases.
    pub fn from_fs(path: &str, error: FsError) -> Self {
        match error {
            FsError::IsADirectory => ToolError::IsDirectory {
                path: path.to_owned(),
            },
            error => ToolError::Fs {
                path: path.to_owned(),
                error,
            },
        }
    }
}

impl fmt::Display for ToolError {
    #[expect(
        clippy::too_many_lines,
        reason = "one arm per message, reviewed together"
    )]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::ArgumentsNotObject { tool, detail } => write!(
                f,
                "Error: the arguments must be a JSON object ({detail}); {}.",
                tool.schema()
            ),
            ToolError::MissingArgument { tool, name } => {
                write!(f, "Error: {name} is required; {}.", tool.schema())
            }
            ToolError::DuplicateArgument { tool, name, alias } => write!(
                f,
                "Error: {name} was given twice, as {name} and as {}, with different values; give it once; {}.",
                cut(alias),
                tool.schema()
            ),
            ToolError::UnknownArgument { tool, name } => write!(
                f,
                "Error: unknown argument {}; {}.",
                quoted(name),
                tool.schema()
            ),
            ToolError::InvalidArgument {
                tool,
                name,
                expected,
                got,
            } => write!(
                f,
                "Error: {name} must be {expected}, got {}; {}.",
                cut(got),
                tool.schema()
            ),
            ToolError::UnknownTool { name, known } => write!(
                f,
                "Error: unknown tool {}; the tools are: {}.",
                quoted(name),
                known.join(", ")
            ),
            ToolError::Arguments {
                tool,
                problem,
                takes,
            } => write!(f, "Error: {problem}; {tool} takes {takes}."),
            ToolError::NoMark { kept: None, .. } => f.write_str(
                "Error: no turn of this session was marked; mark turns with mark, then rewind to one.",
            ),
            ToolError::NoMark {
                asked,
                kept: Some((first, last)),
            } if first == last => write!(
                f,
                "Error: no mark of turn {asked} is kept; the only mark kept is of turn {first}."
            ),
            ToolError::NoMark {
                asked,
                kept: Some((first, last)),
            } => write!(
                f,
                "Error: no mark of turn {asked} is kept; the marks kept are of turns {first} to {last}."
            ),
            ToolError::Patch(err) => err.fmt(f),
            ToolError::InsertPastEnd(err) => err.fmt(f),
            ToolError::Symbol(err) => err.fmt(f),
            ToolError::Replace(err) => err.fmt(f),
            ToolError::Cells(err) => err.fmt(f),
            ToolError::PartlyWritten { cause, stuck } => write!(
                f,
                "{cause} The files written before it were put back, except {}, which changed again meanwhile and keeps the new content; read it before going on.",
                stuck.join(", ")
            ),
            ToolError::Refused(refusal) => refusal.fmt(f),
            ToolError::NotFound {
                path,
                suggestions,
                missing_dir,
                cwd,
            } => {
                write!(f, "Error: {path} does not exist")?;
                match (suggestions.as_slice(), missing_dir) {
                    ([], Some(dir)) => write!(f, ", nor does its directory {dir}")?,
                    ([], None) => {}
                    ([one], _) => write!(f, "; did you mean {one}?")?,
                    (many, _) => write!(f, "; did you mean one of {}?", many.join(", "))?,
                }
                if suggestions.is_empty() {
                    f.write_str(". Check the spelling")?;
                    if !path.trim_start().starts_with('/') {
                        if cwd == "." {
                            f.write_str("; relative paths start at the workspace root")?;
                        } else {
                            write!(f, "; relative paths start at {cwd}")?;
                        }
                    }
                    f.write_str(".")?;
                }
                Ok(())
            }
            ToolError::AmbiguousPath { path, candidates } => write!(
                f,
                "Error: {path} does not exist, and {} files differ from it only in invisible characters: {}. Copy the exact name of the one you mean.",
                candidates.len(),
                candidates.join("; ")
            ),
            ToolError::Dangerous { path, named, kind } => {
                if path.trim() == named {
                    write!(f, "Error: {named} is ")?;
                } else {
                    write!(f, "Error: {path} names {named}, ")?;
                }
                f.write_str(match kind {
                    Danger::Device => "a device or process file, refused without being opened (reading one can block forever). Give the path of a regular file.",
                    Danger::Kernel => "a kernel file under /proc or /sys, refused without being opened (its size is not its content, and it describes the host, not the workspace). Give the path of a file in the workspace.",
                })
            }
            ToolError::WriteFailed { path, error } => match error {
                FsError::ReadOnly => write!(
                    f,
                    "Error: {path} cannot be changed: the workspace is read-only; nothing was written, and trying again will not help."
                ),
                FsError::PermissionDenied => write!(
                    f,
                    "Error: permission denied writing {path}: the host lacks write access to it (file permissions, a read-only mount, or a runtime started without write access); nothing was written, and trying again will not help."
                ),
                FsError::OutsideSandbox => write!(
                    f,
                    "Error: {path} leads outside the workspace through a symbolic link; only files inside it can be changed."
                ),
                FsError::NotADirectory => write!(
                    f,
                    "Error: {path} cannot be created: a parent of it is a file, not a directory."
                ),
                FsError::NotFound => write!(
                    f,
                    "Error: {path} disappeared while it was being changed; nothing was written. Check that it still exists."
                ),
                other => write!(
                    f,
                    "Error: writing {path} failed ({other}); nothing was changed. Try again."
                ),
            },
            ToolError::BadPath { path, reason, root } => match reason {
                PathError::Empty => {
                    f.write_str("Error: file_path is empty; give the path of a file.")
                }
                PathError::Nul => write!(
                    f,
                    "Error: {} contains a NUL byte; no file has such a name.",
                    quoted(path)
                ),
                PathError::TooLong => write!(
                    f,
                    "Error: file_path {} is longer than a path can be ({MAX_PATH_BYTES} bytes); give the path of a file, not its content.",
                    quoted(path)
                ),
                PathError::OutsideRoot if root.is_empty() => write!(
                    f,
                    "Error: {path} is outside the workspace; use a path relative to the workspace root."
                ),
                PathError::OutsideRoot => write!(
                    f,
                    "Error: {path} is outside the workspace {root}; only files under it can be read or changed."
                ),
            },
            ToolError::NotDirectory { path } => write!(
                f,
                "Error: {path} is a file, not a directory; give the path of a directory."
            ),
            ToolError::NotTextFile { path, why } => write!(
                f,
                "Error: {path} is not text ({why}); this tool shows text only. Read an image with read_media_file."
            ),
            ToolError::IsDirectory { path } => {
                write!(
                    f,
                    "Error: {path} is a directory; give the path of a file inside it."
                )
            }
            ToolError::NotRegular { path, kind } => write!(
                f,
                "Error: {path} is {}; reading it could block forever, so it is refused.",
                kind.describe()
            ),
            ToolError::Fs { path, error } => match error {
                FsError::NotFound => write!(
                    f,
                    "Error: {path} does not exist; check the spelling and the directory."
                ),
                FsError::NotADirectory => write!(
                    f,
                    "Error: {path} does not exist: a parent of it is a file, not a directory."
                ),
                FsError::OutsideSandbox => write!(
                    f,
                    "Error: {path} leads outside the workspace (through a symlink); only files inside it can be read or changed."
                ),
                FsError::PermissionDenied => write!(
                    f,
                    "Error: permission denied for {path}: the host lacks read access to it (file permissions, or a runtime started without read access); trying again will not help."
                ),
                FsError::ReadOnly => write!(
                    f,
                    "Error: {path} cannot be changed: the workspace is read-only; nothing was written, and trying again will not help."
                ),
                FsError::Conflict => write!(
                    f,
                    "Error: {path} changed on disk since it was read; read it again first."
                ),
                FsError::IsADirectory => {
                    write!(
                        f,
                        "Error: {path} is a directory; give the path of a file inside it."
                    )
                }
                FsError::Io(message) => write!(
                    f,
                    "Error: reading {path} failed ({message}); try again, or read another file."
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_cause_and_next_step() {
        let not_found = ToolError::from_fs("src/mian.rs", FsError::NotFound);
        assert_eq!(
            not_found.to_string(),
            "Error: src/mian.rs does not exist; check the spelling and the directory."
        );
        assert_eq!(not_found.code(), "not_found");
        let fifo = ToolError::NotRegular {
            path: "pipe".into(),
            kind: FileKind::Fifo,
        };
        assert_eq!(
            fifo.to_string(),
            "Error: pipe is a FIFO (named pipe); reading it could block forever, so it is refused."
        );
        let outside = ToolError::BadPath {
            path: "/etc/passwd".into(),
            reason: PathError::OutsideRoot,
            root: "/work/p".into(),
        };
        assert_eq!(
            outside.to_string(),
            "Error: /etc/passwd is outside the workspace /work/p; only files under it can be read or changed."
        );
    }

    #[test]
    fn echoed_arguments_are_cut_with_their_length() {
        let long = "x".repeat(10_000_000);
        let errors = [
            ToolError::UnknownTool {
                name: long.clone(),
                known: vec!["read"],
            },
            ToolError::UnknownArgument {
                tool: Tool::Read,
                name: long.clone(),
            },
            ToolError::BadPath {
                path: long.clone(),
                reason: PathError::TooLong,
                root: "/r".into(),
            },
        ];
        for err in errors {
            let text = err.to_string();
            assert!(text.len() < 1000, "{} bytes", text.len());
            assert!(text.contains("… (10000002 chars)"), "{text}");
        }
    }

    #[test]
    fn argument_errors_quote_the_schema() {
        let err = ToolError::InvalidArgument {
            tool: Tool::Read,
            name: "limit",
            expected: "an integer >= 1",
            got: "0".into(),
        };
        assert_eq!(
            err.to_string(),
            format!(
                "Error: limit must be an integer >= 1, got 0; {}.",
                Tool::Read.schema()
            )
        );
    }
}
