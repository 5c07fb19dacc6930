//! `filetools mcp --root DIR`: the tools to an MCP client over stdio (see
//! docs/mcp.md for the client configuration). With
//! `--state FILE` the session outlives the process.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use filetools::mcp::{AfterCall, Server};

use crate::cli::McpArgs;
use crate::state::StateFile;

pub fn run(args: &McpArgs) -> Result<ExitCode> {
    let builder = crate::builder(&args.root, &args.limits)?.read_only(args.read_only);
    let tools = crate::build(crate::configured(builder, &args.limits)?)?;
    let mut session = tools.session()?;
    let after_call: AfterCall = match &args.state {
        Some(path) => {
            // A client that restarts the server per call may start the next
            // while the last one ends; two servers of one state are a mistake.
            let wait = Duration::from_secs(args.lock_wait);
            let (mut state, saved) = StateFile::lock(path.clone(), wait)?;
            state.restore(&mut session, &saved)?;
            Box::new(move |session| save(&mut state, session))
        }
        None => Box::new(|_| {}),
    };
    Server::with_session(session, args.read_only, after_call)?
        .progress_interval(Duration::from_millis(args.progress_ms))
        .max_line_bytes(args.max_line_bytes)
        .serve_stdio()?;
    Ok(ExitCode::SUCCESS)
}

/// Saves the session after a call; a failure is told on stderr, and the
/// state is left as it was (the server goes on).
#[expect(
    clippy::print_stderr,
    reason = "the server reports to its user on stderr"
)]
fn save(state: &mut StateFile, session: &mut filetools::Session) {
    if let Err(err) = state.save(session) {
        eprintln!(
            "filetools: warning: {} was left as it was: {err:#}.",
            state.path.display()
        );
    }
}
