//! [`Session::call`]: a model's raw call, routed to the tool set of the
//! session's config that offers the tool — the core's `read`, `write`,
//! `edit` and `undo` with their arguments checked, or a vendor's shape,
//! which translates it onto the same operations.

use crate::answers::error::ToolError;
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::args::{MarkArgs, ReplaceArgs, RewindArgs, UndoArgs, WriteArgs};
use crate::config::ToolSet;
use crate::fs::host::HostFs;
use crate::tools::args::change::EditCall;
use crate::tools::args::read::ReadCall;
use crate::tools::session::Session;
use crate::tools::shapes::{apply_patch, mcp_filesystem, notebook, text_editor};
use crate::view::search::args::{FindArgs, GrepArgs};

/// The call by which a host asks for the notice of seen files that
/// changed on disk ([`Session::changes`]); no tool set offers it to the
/// model.
pub const CHANGES: &str = "changes";

/// Refuses arguments to a call that takes none.
fn no_arguments(arguments: &str) -> Result<(), ToolError> {
    let given: serde_json::Value =
        serde_json::from_str(arguments).unwrap_or(serde_json::Value::Null);
    match given {
        serde_json::Value::Object(map) if map.is_empty() => Ok(()),
        serde_json::Value::Null if arguments.trim().is_empty() => Ok(()),
        _ => Err(ToolError::Arguments {
            tool: CHANGES,
            problem: format!(
                "it takes no arguments, got {}",
                crate::answers::quote::short_json(&given)
            ),
            takes: "{}",
        }),
    }
}

impl<F: HostFs> Session<F> {
    /// Runs `tool` with the model's raw JSON arguments: a tool of one of
    /// the sets the config names.
    pub fn call(&mut self, tool: &str, arguments: &str) -> ToolResult {
        self.entered(|session| session.dispatch(tool, arguments))
    }

    /// [`Session::call`] within the call.
    fn dispatch(&mut self, tool: &str, arguments: &str) -> ToolResult {
        if tool == CHANGES {
            return match no_arguments(arguments) {
                Ok(()) => self.changes(),
                Err(err) => self.refused(&err),
            };
        }
        let turn_call = [Tool::Mark, Tool::Rewind]
            .into_iter()
            .find(|call| call.name() == tool);
        let owner = ToolSet::owning(self.config(), tool);
        self.shaped = !matches!(owner, Some(ToolSet::Filetools) | None);
        let known = match owner {
            _ if turn_call.is_some() => turn_call,
            Some(ToolSet::TextEditor) => return text_editor::call(self, arguments),
            Some(ToolSet::ApplyPatch) => return apply_patch::call(self, arguments),
            Some(ToolSet::McpFilesystem) => return mcp_filesystem::call(self, tool, arguments),
            Some(ToolSet::Notebook) => return notebook::call(self, arguments),
            Some(ToolSet::Filetools) => Tool::from_name(tool),
            None => None,
        };
        let Some(known) = known else {
            let unknown = ToolError::UnknownTool {
                name: tool.to_owned(),
                known: ToolSet::names(self.config()),
            };
            return self.refused(&unknown);
        };
        let parsed = match known {
            Tool::Read => ReadCall::from_json(arguments).map(|call| match call {
                ReadCall::One(args) => self.read(&args),
                ReadCall::Many(paths) => self.read_many(&paths),
            }),
            Tool::Write => WriteArgs::from_json(arguments).map(|a| self.write(&a)),
            Tool::Edit => EditCall::from_json(arguments).map(|call| match call {
                EditCall::Text(args) => self.edit(&args),
                EditCall::Symbol(args) => self.edit_symbol(&args),
            }),
            Tool::Undo => UndoArgs::from_json(arguments).map(|a| self.undo(&a)),
            Tool::Grep => GrepArgs::from_json(arguments).map(|a| self.grep(&a)),
            Tool::Find => FindArgs::from_json(arguments).map(|a| self.find(&a)),
            Tool::Replace => ReplaceArgs::from_json(arguments).map(|a| self.replace(&a)),
            Tool::Mark => MarkArgs::from_json(arguments).map(|a| self.mark(&a)),
            Tool::Rewind => RewindArgs::from_json(arguments).map(|a| self.rewind(&a)),
        };
        parsed.unwrap_or_else(|err| self.refused(&err))
    }
}
