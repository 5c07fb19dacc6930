//! The answer to a call that trapped (SPEC S2): the host saw the instance
//! stop — out of memory, out of time, out of stack, or a fault — brought a
//! fresh one back with the session's last checkpoint, and asks it to say
//! what happened. The sentence names the tool, the file and the limit, says
//! whether the session's memory survived, and gives the next step.
//!
//! ```
//! use filetools_core::answers::trapped::{TrapCause, Trapped};
//! let trapped = Trapped::new(
//!     "read",
//!     Some("scan.pdf".into()),
//!     TrapCause::Memory { limit_bytes: 256 << 20 },
//!     true,
//! );
//! assert_eq!(
//!     trapped.to_string(),
//!     "Error: reading scan.pdf stopped: it needed more than the 256 MiB of memory a session may use. \
//!      The session still knows the files it read and the changes it made. \
//!      Read a smaller part of it (offset and limit, or pages for a PDF)."
//! );
//! ```

use std::fmt;

use serde_json::{Value, json};

use crate::answers::quote::cut;
use crate::answers::result::{Block, ToolResult};
use crate::answers::tool::Tool;

/// Why the instance stopped, as the host saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrapCause {
    /// It asked for more memory than the host allows.
    Memory {
        /// The host's limit.
        limit_bytes: u64,
    },
    /// It ran past the host's deadline for one call.
    Time {
        /// The host's limit.
        limit_ms: u64,
    },
    /// Its stack overflowed.
    Stack,
    /// Any other trap: a fault in the guest.
    Fault {
        /// The host's description of it.
        detail: String,
    },
}

impl TrapCause {
    /// The cause's name in metadata.
    pub fn code(&self) -> &'static str {
        match self {
            TrapCause::Memory { .. } => "memory",
            TrapCause::Time { .. } => "time",
            TrapCause::Stack => "stack",
            TrapCause::Fault { .. } => "fault",
        }
    }
}

/// A call that trapped, as the model is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trapped {
    /// The tool, when it is one of ours.
    pub tool: Option<Tool>,
    /// The name the call used.
    pub name: String,
    /// The file the call named, when its arguments name one.
    pub path: Option<String>,
    /// Why it stopped.
    pub cause: TrapCause,
    /// Whether the session was brought back with its memory.
    pub memory_kept: bool,
}

impl Trapped {
    /// The call `name`, which named the file `path` (as the tools' argument
    /// checks find it in its arguments), that stopped for `cause`.
    pub fn new(name: &str, path: Option<String>, cause: TrapCause, memory_kept: bool) -> Self {
        Self {
            tool: Tool::from_name(name),
            name: name.to_owned(),
            path: path.filter(|path| !path.is_empty()),
            cause,
            memory_kept,
        }
    }

    /// The tool result: the sentence, with the cause in metadata.
    pub fn result(&self) -> ToolResult {
        let mut metadata = json!({
            "error": "guest_trap",
            "cause": self.cause.code(),
            "memory_kept": self.memory_kept,
        });
        if let Some(path) = &self.path {
            metadata["path"] = Value::String(cut(path));
        }
        ToolResult {
            content: vec![Block::Text(self.to_string())],
            is_error: true,
            metadata,
        }
    }
}

/// `bytes` as whole MiB when it is a whole number of them.
fn size(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// `ms` as whole seconds when it is a whole number of them.
fn duration(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

impl fmt::Display for Trapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Error: ")?;
        let verb = match self.tool {
            Some(Tool::Read) => "reading",
            Some(Tool::Write) => "writing",
            Some(Tool::Edit) => "editing",
            Some(Tool::Undo) => "undoing the last change to",
            Some(Tool::Grep) => "searching",
            Some(Tool::Find) => "finding files in",
            Some(Tool::Replace) => "replacing text in",
            Some(Tool::Mark | Tool::Rewind) | None => "",
        };
        match &self.path {
            Some(path) if !verb.is_empty() => write!(f, "{verb} {}", cut(path))?,
            _ => write!(f, "the {} call", cut(&self.name))?,
        }
        f.write_str(" stopped: ")?;
        match &self.cause {
            TrapCause::Memory { limit_bytes } => write!(
                f,
                "it needed more than the {} of memory a session may use.",
                size(*limit_bytes)
            )?,
            TrapCause::Time { limit_ms } => write!(
                f,
                "it ran longer than the {} a call may take.",
                duration(*limit_ms)
            )?,
            TrapCause::Stack => f.write_str("it ran out of stack.")?,
            TrapCause::Fault { detail } => {
                write!(f, "it hit a fault in filetools ({}).", cut(detail))?;
            }
        }
        if self.memory_kept {
            f.write_str(" The session still knows the files it read and the changes it made.")?;
        } else {
            f.write_str(
                " The session restarted with empty memory: read a file again before changing it.",
            )?;
        }
        match (self.tool, self.path.is_some()) {
            (Some(Tool::Read), true) => {
                f.write_str(" Read a smaller part of it (offset and limit, or pages for a PDF).")
            }
            (Some(_), true) => f.write_str(
                " Read the file to see whether the change was made before trying again.",
            ),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_limit_hit_and_the_next_step_for_a_change() {
        let trapped = Trapped::new(
            "edit",
            Some("a.rs".into()),
            TrapCause::Time { limit_ms: 30_000 },
            true,
        );
        assert_eq!(
            trapped.to_string(),
            "Error: editing a.rs stopped: it ran longer than the 30 s a call may take. \
             The session still knows the files it read and the changes it made. \
             Read the file to see whether the change was made before trying again."
        );
        assert_eq!(trapped.result().metadata["path"], "a.rs");
        assert_eq!(trapped.result().metadata["cause"], "time");
    }

    #[test]
    fn says_when_memory_was_lost_and_bounds_what_it_echoes() {
        let long = "x".repeat(10_000);
        let trapped = Trapped::new(
            "read",
            Some(long),
            TrapCause::Fault {
                detail: "wasm `unreachable` instruction executed".into(),
            },
            false,
        );
        let text = trapped.to_string();
        assert!(text.len() < 500, "{text}");
        assert!(text.contains("(10000 chars)"), "{text}");
        assert!(text.contains("restarted with empty memory"), "{text}");
        assert!(
            text.contains("(wasm `unreachable` instruction executed)"),
            "{text}"
        );
    }

    #[test]
    fn names_the_call_when_its_arguments_name_no_file() {
        let trapped = Trapped::new("read", None, TrapCause::Stack, true);
        assert_eq!(
            trapped.to_string(),
            "Error: the read call stopped: it ran out of stack. \
             The session still knows the files it read and the changes it made."
        );
    }
}
