//! A call awaited on behalf of an MCP request: a cancel from the client
//! sets the call's cancel flag, and a client that asked for progress gets
//! a notification each interval while it runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rmcp::RoleServer;
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;

use crate::ToolResult;

/// Awaits `call` of `tool`, reporting progress every `every`.
pub(crate) async fn drive(
    call: impl Future<Output = ToolResult>,
    tool: &str,
    context: &RequestContext<RoleServer>,
    cancel: &Arc<AtomicBool>,
    every: Duration,
) -> ToolResult {
    tokio::pin!(call);
    let started = Instant::now();
    let token = context.meta.get_progress_token();
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    loop {
        tokio::select! {
            result = &mut call => return result,
            () = context.ct.cancelled(), if !cancel.load(Ordering::Relaxed) => {
                cancel.store(true, Ordering::Relaxed);
            }
            _ = ticks.tick(), if token.is_some() => {
                if let Some(token) = &token {
                    let seconds = started.elapsed().as_secs_f64();
                    let note = ProgressNotificationParam::new(token.clone(), seconds)
                        .with_message(format!("{tool}: {seconds:.1} s so far"));
                    // A client gone away gets its answer dropped anyway.
                    let _ = context.peer.notify_progress(note).await;
                }
            }
        }
    }
}
