//! The MCP side of `filetools serve`: the same tools and answers as
//! `filetools mcp`, each call on the session its handle names — the
//! `session` argument, else a `Filetools-Session` header, else the
//! client's `Mcp-Session-Id`; a call with none starts a new session and
//! its answer ends with the new handle.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

use super::session_handle;
use super::sessions::{Call, Known, Sessions};
use super::workspaces::Workspace;
use crate::{Block, ToolResult};

/// The header a client may name a session handle in.
pub const SESSION_HEADER: &str = "filetools-session";

/// Where a result's `_meta` gives the session handle.
pub const META_KEY: &str = "filetools/session";

/// The longest `Mcp-Session-Id` taken as a session's name.
const MAX_MCP_SESSION_ID_BYTES: usize = 128;

/// What every request's handler shares.
#[derive(Debug)]
pub(super) struct Shared {
    pub sessions: Sessions,
    pub progress_interval: Duration,
}

/// The handler rmcp builds per MCP session (or per stateless request).
#[derive(Debug, Clone)]
pub(super) struct Handler {
    pub shared: Arc<Shared>,
}

/// The workspace the gate let this request into.
fn workspace(context: &RequestContext<RoleServer>) -> Result<Arc<Workspace>, ErrorData> {
    context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Arc<Workspace>>())
        .cloned()
        .ok_or_else(|| ErrorData::invalid_request("the request names no workspace", None))
}

/// Whether the request comes over a protocol session (the 2025 revisions'
/// handshake), not the stateless 2026-07-28 revision.
fn handshaken(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version < ProtocolVersion::V_2026_07_28)
}

fn header(context: &RequestContext<RoleServer>, name: &str) -> Option<String> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    Some(parts.headers.get(name)?.to_str().ok()?.trim().to_owned())
}

/// A handle a client named: minted here, or bound to an MCP session.
fn named_well(handle: &str) -> bool {
    session_handle::well_formed(handle)
        || handle.strip_prefix("mcp-").is_some_and(|id| {
            !id.is_empty()
                && id.len() <= MAX_MCP_SESSION_ID_BYTES
                && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        crate::mcp::server_info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            workspace(&context)?.listing.tools.clone(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let workspace = workspace(&context)?;
        let tool = request.name.into_owned();
        let mut arguments = request.arguments.unwrap_or_default();
        let (handle, known) = match arguments.remove("session") {
            Some(Value::String(handle)) => (handle, Known::Named),
            Some(_) => {
                let refused = ToolResult::failure(
                    "Error: `session` must be a string: the handle an earlier answer gave."
                        .to_owned(),
                    "invalid_arguments",
                );
                return Ok(CallToolResponse::Complete(
                    workspace.listing.answer(&tool, &refused, None)?,
                ));
            }
            None => match header(&context, SESSION_HEADER) {
                Some(handle) => (handle, Known::Named),
                // Only a handshake's session id names a session: one sent
                // beside the stateless revision's requests is the client's
                // own word.
                None => match header(&context, "mcp-session-id").filter(|_| handshaken(&context)) {
                    Some(id) => (format!("mcp-{id}"), Known::Fresh),
                    None => (
                        session_handle::mint()
                            .map_err(|e| ErrorData::internal_error(format!("{e:#}"), None))?,
                        Known::Fresh,
                    ),
                },
            },
        };
        let minted = known == Known::Fresh && handle.starts_with(session_handle::PREFIX);
        let arguments = Value::Object(arguments).to_string();
        let cancel = Arc::new(AtomicBool::new(false));
        let call = {
            let (shared, workspace, cancel) = (
                Arc::clone(&self.shared),
                Arc::clone(&workspace),
                Arc::clone(&cancel),
            );
            let (tool, handle) = (tool.clone(), handle.clone());
            async move {
                let ran = tokio::task::spawn_blocking(move || {
                    if !named_well(&handle) {
                        return ToolResult::failure(
                            format!("Error: session {:?} is not a handle this server gave; nothing was run. Call again without `session` to start a new one.", super::sessions::shown(&handle)),
                            "unknown_session",
                        );
                    }
                    let key = format!("{}/{handle}", workspace.name);
                    shared.sessions.run(
                        &workspace,
                        &Call {
                            key: &key,
                            handle: &handle,
                            known,
                            tool: &tool,
                            arguments: &arguments,
                            cancel: &cancel,
                        },
                    )
                })
                .await;
                ran.unwrap_or_else(|_| {
                    ToolResult::failure(
                        "Error: the call stopped before it answered; start a new session."
                            .to_owned(),
                        "host_error",
                    )
                })
            }
        };
        let mut result = crate::mcp::drive(
            call,
            &tool,
            &context,
            &cancel,
            self.shared.progress_interval,
        )
        .await;
        // A handle nothing was kept under is not worth the model's note.
        let kept = !matches!(
            result.metadata.get("error").and_then(|e| e.as_str()),
            Some("store_error" | "busy" | "host_error")
        );
        if minted && kept {
            result.content.push(Block::Text(format!(
                "[session {handle}: pass \"session\": \"{handle}\" in later calls so they keep what this one read]"
            )));
        }
        let meta = json!({ META_KEY: handle });
        Ok(CallToolResponse::Complete(workspace.listing.answer(
            &tool,
            &result,
            Some(meta),
        )?))
    }
}
