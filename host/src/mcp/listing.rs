//! The tools a server offers and how a call's result becomes an MCP
//! result: shared by the stdio server and `filetools serve`, so both answer
//! the same call with the same bytes.

use std::collections::HashSet;

use anyhow::{Context as _, Result};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ResultType, Tool};

use crate::{Format, Session, ToolResult};

/// Why a read-only server of sets that only change files is refused.
pub const NO_READING_TOOL: &str = "every tool of these sets changes files, so a read-only server would list none: add a set that reads (filetools, text-editor or mcp-filesystem) to --tools";

/// The tools listed, and which of them answer in text only.
#[derive(Debug, Clone)]
pub(crate) struct Listing {
    pub tools: Vec<Tool>,
    /// The tools whose output schema has no `error`: the MCP filesystem
    /// set's, which follow the reference server and describe the text
    /// only; an error of theirs (a fault too) goes without
    /// `structuredContent`, as the reference sends it.
    text_only: HashSet<String>,
    /// The tools that change nothing (`readOnlyHint`).
    read_only: HashSet<String>,
}

impl Listing {
    /// The tools of `session`'s config; with `read_only`, only those that
    /// change nothing.
    pub fn new(session: &mut Session, read_only: bool) -> Result<Self> {
        let tools = session
            .schema(Format::Mcp)?
            .into_iter()
            .filter(|tool| !read_only || tool["annotations"]["readOnlyHint"] == true)
            .map(serde_json::from_value)
            .collect::<Result<Vec<Tool>, _>>()
            .context("the MCP tool definitions do not parse")?;
        if read_only && tools.is_empty() {
            // A server that lists nothing would look broken to its client.
            anyhow::bail!(NO_READING_TOOL);
        }
        let text_only = tools
            .iter()
            .filter(|tool| {
                tool.output_schema.as_ref().is_some_and(|schema| {
                    schema
                        .get("properties")
                        .and_then(|p| p.get("error"))
                        .is_none()
                })
            })
            .map(|tool| tool.name.to_string())
            .collect();
        let read_only = tools
            .iter()
            .filter(|tool| {
                tool.annotations
                    .as_ref()
                    .is_some_and(|a| a.read_only_hint == Some(true))
            })
            .map(|tool| tool.name.to_string())
            .collect();
        Ok(Self {
            tools,
            text_only,
            read_only,
        })
    }

    /// Whether `tool` changes nothing.
    pub fn is_read_only(&self, tool: &str) -> bool {
        self.read_only.contains(tool)
    }

    /// `result` of `tool` as the MCP result, with `meta` as its `_meta`.
    pub fn answer(
        &self,
        tool: &str,
        result: &ToolResult,
        meta: Option<serde_json::Value>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut json = result.to_json();
        if let Some(meta) = meta {
            json["_meta"] = meta;
        }
        let mut answer: CallToolResult = serde_json::from_value(json).map_err(|err| {
            ErrorData::internal_error(format!("result does not parse: {err}"), None)
        })?;
        // Required by 2026-07-28 clients; rmcp drops it for older ones.
        answer.result_type = Some(ResultType::COMPLETE);
        // Also a fault (a trap, a cancel), which the core did not shape.
        if answer.is_error == Some(true) && self.text_only.contains(tool) {
            answer.structured_content = None;
        }
        Ok(answer)
    }
}
