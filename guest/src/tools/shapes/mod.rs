//! The vendors' tool shapes, each a thin translation onto the core's
//! guarded operations: [`text_editor`] (Anthropic's
//! `str_replace_based_edit_tool`), [`apply_patch`] (OpenAI's `apply_patch`
//! and the Codex envelope), [`mcp_filesystem`] (the MCP reference
//! filesystem server's tools) and [`notebook`] (Claude Code's notebook cell
//! edits). None of them matches, guards or writes on its own; `dialect`
//! puts the core's answers in the words of the shape that asked.

pub mod apply_patch;
mod args;
mod dialect;
pub mod mcp_filesystem;
pub mod notebook;
pub mod text_editor;
