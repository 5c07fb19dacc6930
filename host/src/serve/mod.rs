//! `filetools serve`: the tools as an MCP server over Streamable HTTP, for
//! many clients, workspaces and replicas (see docs/service.md).
//!
//! - Clients on the 2025 revisions get an `Mcp-Session-Id`; its handshake
//!   is kept in the session store, so any replica takes the next request,
//!   and a `DELETE` on one reaches the others within about a second.
//!   Clients on the 2026-07-28 revision are served without one.
//! - A session's memory (ledger, dedup records, undo history) lives in a
//!   [`SessionStore`] under a handle the server mints, so a
//!   session's calls may land on any replica, one at a time (a lease), and
//!   a save is a compare-and-set.
//! - Every request passes the [`Gate`]: workspace, `Host`, `Origin`, token,
//!   body size.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result};
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use tokio::sync::Semaphore;

mod gate;
mod http;
mod mcp_calls;
mod mcp_sessions;
mod session_handle;
mod sessions;
pub mod store;
mod workspaces;

pub use gate::{Gate, MIN_TOKEN_CHARS, Tokens};
pub use mcp_calls::{META_KEY, SESSION_HEADER};
pub use sessions::Limits;
pub use store::SessionStore;
pub use workspaces::{MakeTools, Roots};

/// Locks `mutex`, and goes on when a call that panicked held it: what it
/// guards is whole between calls.
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How often idle sessions are let go.
const EVICT_EVERY: Duration = Duration::from_secs(1);

/// Everything `filetools serve` is told.
pub struct Options {
    /// Where to listen (port 0: any free port).
    pub listen: SocketAddr,
    /// The workspaces.
    pub roots: Roots,
    /// Builds the tools over a workspace root.
    pub make_tools: MakeTools,
    /// Only the tools that change nothing are offered.
    pub read_only: bool,
    /// Where sessions are kept.
    pub store: Arc<dyn SessionStore>,
    /// What a request must show.
    pub gate: Gate,
    /// How long sessions stay in memory, and their leases.
    pub limits: Limits,
    /// Connections open at once, at most.
    pub max_connections: usize,
    /// Calls running at once, at most (more wait their turn).
    pub max_calls: usize,
    /// How often a long call reports progress.
    pub progress_interval: Duration,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("listen", &self.listen)
            .field("roots", &self.roots)
            .finish_non_exhaustive()
    }
}

/// Serves until the process ends; `listening` is told the address bound
/// (before the first request is taken).
pub fn run(options: Options, listening: impl FnOnce(SocketAddr)) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .with_context(|| format!("listening on {}", options.listen))?;
        listening(listener.local_addr()?);
        let shared = Arc::new(mcp_calls::Shared {
            sessions: sessions::Sessions::new(
                Arc::clone(&options.store),
                options.limits,
                options.max_calls,
            ),
            progress_interval: options.progress_interval,
        });
        let evicting = Arc::clone(&shared);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(EVICT_EVERY);
            loop {
                ticks.tick().await;
                let shared = Arc::clone(&evicting);
                let _ = tokio::task::spawn_blocking(move || shared.sessions.evict()).await;
            }
        });
        let mut config = StreamableHttpServerConfig::default()
            // The gate checks Host and Origin, with JSON-RPC errors.
            .disable_allowed_hosts()
            // A call's answer as one JSON body, unless it reports progress.
            .with_json_response(true)
            .with_max_request_body_bytes(
                usize::try_from(options.gate.max_body_bytes).unwrap_or(usize::MAX),
            );
        config.session_store = Some(Arc::new(mcp_sessions::Handshakes(Arc::clone(
            &options.store,
        ))));
        let handler = mcp_calls::Handler { shared };
        let handshakes = Arc::new(LocalSessionManager::default());
        tokio::spawn(mcp_sessions::let_go_of_ended(
            Arc::clone(&options.store),
            Arc::clone(&handshakes),
        ));
        let mcp = rmcp::transport::StreamableHttpService::new(
            move || Ok(handler.clone()),
            handshakes,
            config,
        );
        let front = Arc::new(http::Front {
            mcp,
            gate: options.gate,
            workspaces: Arc::new(workspaces::Workspaces::new(
                options.roots,
                options.make_tools,
                options.read_only,
            )),
            connections: Arc::new(Semaphore::new(options.max_connections.max(1))),
        });
        http::accept(listener, front).await;
        Ok(())
    })
}
