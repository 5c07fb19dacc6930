//! What each [`ToolSet`] the config's `tools` key picks offers: its tools'
//! names and definitions. Each shape is a thin translation, in its own module under
//! [`crate::tools::shapes`], onto the same guarded operations: the ledger,
//! staleness, atomic writes, fidelity and undo are the core's.
//!
//! ```
//! use filetools_core::config::{Config, ToolSet};
//! let config = Config::from_json(r#"{"tools": ["text-editor", "notebook"]}"#).unwrap();
//! assert_eq!(ToolSet::names(&config), ["str_replace_based_edit_tool", "notebook_edit"]);
//! ```

use crate::config::{Config, ToolSet};
use crate::tools::definitions::Definition;
use crate::tools::shapes::{apply_patch, mcp_filesystem, notebook, text_editor};

impl ToolSet {
    /// The names of the tools of this set, in the order they are listed.
    pub fn tools(self) -> &'static [&'static str] {
        match self {
            ToolSet::Filetools => &["read", "write", "edit", "undo", "grep", "find", "replace"],
            ToolSet::TextEditor => &[text_editor::NAME],
            ToolSet::ApplyPatch => &[apply_patch::NAME],
            ToolSet::McpFilesystem => &mcp_filesystem::NAMES,
            ToolSet::Notebook => &[notebook::NAME],
        }
    }

    /// The definitions of this set's tools for a session with `config`.
    /// In a read-only workspace, only the tools that can succeed there:
    /// those that change nothing (the text editor keeps its `view`).
    pub fn definitions(self, config: &Config) -> Vec<Definition> {
        let all = match self {
            ToolSet::Filetools => crate::tools::definitions::core(config),
            ToolSet::TextEditor => vec![text_editor::definition(config)],
            ToolSet::ApplyPatch => vec![apply_patch::definition()],
            ToolSet::McpFilesystem => mcp_filesystem::definitions(config),
            ToolSet::Notebook => vec![notebook::definition()],
        };
        all.into_iter()
            .filter(|tool| !config.read_only || tool.annotations.read_only)
            .collect()
    }

    /// Other names this set answers to without listing them (the MCP
    /// filesystem server's deprecated `read_file`).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            ToolSet::McpFilesystem => &mcp_filesystem::ALIASES,
            _ => &[],
        }
    }

    /// Every tool name the session with `config` offers.
    pub fn names(config: &Config) -> Vec<&'static str> {
        config
            .tools
            .iter()
            .flat_map(|set| set.tools().iter().copied())
            .collect()
    }

    /// The set of `config` that offers the tool `name`.
    pub fn owning(config: &Config, name: &str) -> Option<ToolSet> {
        config
            .tools
            .iter()
            .copied()
            .find(|set| set.tools().contains(&name) || set.aliases().contains(&name))
    }
}
