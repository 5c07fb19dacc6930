//! The tools as an MCP server over stdio, on `rmcp`: one [`Session`] for
//! the connection, every protocol version the SDK knows (the client's is
//! chosen when the server has it).
//!
//! A call's result is exactly the session's [`ToolResult`] as JSON
//! (`content` with text and image blocks, `isError`, `structuredContent`),
//! so a client sees what `filetools session` prints for the same call; the
//! core, not the server, judges the arguments. Calls run one at a time in
//! the order they arrived, and every request gets one answer with its id
//! (see the transport, [`MAX_OPEN`]). A `read` stops when the
//! client cancels it; a change runs to its end (see
//! [`Session::call_cancellable`]). While a call runs past the progress
//! interval ([`DEFAULT_PROGRESS_INTERVAL`]), a client that asked for
//! progress gets a notification each interval with the seconds spent so
//! far.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context as _, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, InitializeResult, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt as _};
use serde_json::Value;

use crate::protocol::DEFAULT_MAX_LINE_BYTES;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::{Session, ToolResult, Tools};

mod drive;
mod envelope;
mod listing;
mod open;
mod rescue;
mod stdio;
mod worker;

pub(crate) use drive::drive;
pub(crate) use listing::Listing;
pub use listing::NO_READING_TOOL;
pub use open::MAX_OPEN;
pub use worker::AfterCall;

/// How often a running call reports progress to a client that asked.
pub const DEFAULT_PROGRESS_INTERVAL: Duration = Duration::from_millis(500);

/// What the server tells the client about itself.
const INSTRUCTIONS: &str = "Files of one directory. Read a file before changing it: a change \
    over a file not read, or changed on disk since, is refused and nothing is written; every \
    change keeps the file's encoding and line endings and lands whole or not at all.";

/// An MCP server over one session of `tools`.
#[derive(Debug, Clone)]
pub struct Server {
    calls: Arc<worker::Worker>,
    /// The requests open now (see [`MAX_OPEN`]).
    open: open::Open,
    listing: Arc<Listing>,
    progress_interval: Duration,
    max_line_bytes: u64,
}

impl Server {
    /// A server with a new session of `tools`; with `read_only`, only
    /// `read` is offered (the tools should refuse changes too, see
    /// [`crate::Builder::read_only`]).
    pub fn new(tools: &Tools, read_only: bool) -> Result<Self> {
        Self::with_session(tools.session()?, read_only, Box::new(|_| {}))
    }

    /// A server over `session` (e.g. one restored from a saved state) that
    /// runs `after_call` after every call, e.g. to save it.
    pub fn with_session(
        mut session: Session,
        read_only: bool,
        after_call: AfterCall,
    ) -> Result<Self> {
        let listing = Listing::new(&mut session, read_only)?;
        Ok(Self {
            calls: Arc::new(worker::Worker::start(session, after_call)?),
            open: open::Open::default(),
            listing: Arc::new(listing),
            progress_interval: DEFAULT_PROGRESS_INTERVAL,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
        })
    }

    /// Reports progress every `interval` (at least 1 ms) while a call runs.
    #[must_use]
    pub fn progress_interval(mut self, interval: Duration) -> Self {
        self.progress_interval = interval.max(Duration::from_millis(1));
        self
    }

    /// Refuses a message longer than `bytes` with a parse error, unread
    /// (default [`DEFAULT_MAX_LINE_BYTES`]).
    #[must_use]
    pub fn max_line_bytes(mut self, bytes: u64) -> Self {
        self.max_line_bytes = bytes;
        self
    }

    /// Serves the client on this process's stdin and stdout until it
    /// disconnects (see [`Server::serve_io`]). Pipes, as MCP clients give a
    /// server, are driven by the runtime's own reactor: no thread hand-off
    /// per message, which halves the server's cost per small call (docs/performance.md,
    /// "Benchmarks").
    pub fn serve_stdio(self) -> Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the MCP server's runtime")?;
        runtime.block_on(async move {
            let (input, output) = rmcp::transport::stdio_pipes();
            self.serve_io(input, output).await
        })
    }

    /// Serves the client on `input` and `output` until its input ends,
    /// then writes every answer still owed: every request gets one answer,
    /// and a line that is not UTF-8, not JSON, over the line cap or not a
    /// well-formed request a JSON-RPC error with the request's id. Runs on
    /// a current-thread runtime (calls start in the order they arrived
    /// because its tasks run in the order they were spawned).
    pub async fn serve_io(
        self,
        input: impl AsyncRead + Unpin + Send + 'static,
        output: impl AsyncWrite + Unpin + Send + 'static,
    ) -> Result<()> {
        let open = self.open.clone();
        let (transport, writer) =
            stdio::transport(input, output, self.max_line_bytes, open.clone());
        let served = match self.serve(transport).await {
            Ok(running) => running
                .waiting()
                .await
                .map(drop)
                .context("the MCP server stopped"),
            Err(err) => Err(err).context("the MCP client did not initialize"),
        };
        // Nothing more will be answered: a reader still waiting (rmcp
        // stopped before its input ended) stops too.
        open.end();
        // Everything owed is written unless the client stopped reading,
        // which is the client's choice, not a failure of the server.
        let _ = writer.await;
        served
    }

    /// Queues one call on the session, behind every call that came before
    /// it (now, not when the answer is awaited: calls run in the order
    /// their requests arrived).
    fn queue(
        &self,
        tool: String,
        arguments: String,
        cancel: Arc<AtomicBool>,
    ) -> impl Future<Output = ToolResult> + use<> {
        let answer = self.calls.queue(tool, arguments, cancel);
        async move {
            answer.await.unwrap_or_else(|_| {
                ToolResult::failure(
                    "Error: the call could not run (the session's thread stopped); start a new session."
                        .to_owned(),
                    "host_error",
                )
            })
        }
    }
}

/// What a server tells the client about itself, over any transport.
pub(crate) fn server_info() -> ServerConfig {
    InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
        .with_server_info(Implementation::new("filetools", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        server_info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.listing.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tool = request.name.into_owned();
        let arguments = Value::Object(request.arguments.unwrap_or_default()).to_string();
        // Set by the transport when the client cancels this request.
        let cancel = self.open.cancel_flag(&context.id);
        let call = self.queue(tool.clone(), arguments, Arc::clone(&cancel));
        let result = drive(call, &tool, &context, &cancel, self.progress_interval).await;
        Ok(CallToolResponse::Complete(
            self.listing.answer(&tool, &result, None)?,
        ))
    }
}
