//! What every one-shot command shares: a session rooted at `--root` (or the
//! current directory), relative paths taken from the current directory when
//! it lies inside the root, and with `--state FILE` the session's memory —
//! ledger, dedup records, history — loaded before the call and saved after
//! it, so a shell-only agent keeps one session across invocations (SPEC H2).
//!
//! The state file is locked from load to save (see [`StateFile`]).

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, Result};
use filetools::{Session, ToolResult};
use serde_json::json;

use crate::cli::Common;
use crate::state::StateFile;

/// A session for one call, and where its state lives.
pub struct OneShot {
    pub session: Session,
    state: Option<StateFile>,
    json: bool,
}

impl OneShot {
    /// Opens the session `args` describe, restoring `--state` when the file
    /// exists and is not empty.
    pub fn open(args: &Common) -> Result<Self> {
        let cwd = std::env::current_dir().context("no current directory")?;
        let root = args.root.clone().unwrap_or_else(|| cwd.clone());
        let mut builder = crate::builder(&root, &args.limits)?;
        let canonical_root = root
            .canonicalize()
            .with_context(|| format!("--root {}", root.display()))?;
        if let Ok(inside) = cwd.canonicalize()?.strip_prefix(canonical_root) {
            let rel = inside.to_string_lossy();
            let rel = if rel.is_empty() { ".".into() } else { rel };
            builder = builder.config_json(&json!({ "cwd": rel }).to_string())?;
        }
        let builder = crate::configured(builder, &args.limits)?;
        let mut session = crate::build(builder)?.session()?;
        let state = match &args.state {
            Some(path) => {
                let wait = Duration::from_secs(args.lock_wait);
                let (mut state, saved) = StateFile::lock(path.clone(), wait)?;
                state.restore(&mut session, &saved)?;
                if args.forget_outputs {
                    session.forget_outputs()?;
                }
                Some(state)
            }
            None => None,
        };
        Ok(Self {
            session,
            state,
            json: args.json,
        })
    }

    #[expect(clippy::print_stderr, reason = "the CLI reports to its user on stderr")]
    /// Saves the state, prints `result` (the model's text, or with `--json`
    /// the protocol line) and exits 1 when it is an error.
    pub fn finish(mut self, result: &ToolResult) -> Result<ExitCode> {
        // A session that lost its memory in a trap is not saved over the
        // state it was restored from; the call's answer is still printed.
        let unsaved = match &mut self.state {
            Some(state) => match state.save(&mut self.session) {
                Ok(()) => None,
                Err(err) => Some(format!(
                    "{} was left as it was: {err:#}",
                    state.path.display()
                )),
            },
            None => None,
        };
        let shown = if self.json {
            result.to_json().to_string()
        } else {
            result.text()
        };
        // A reader that stopped reading (`| head`) is not an error.
        let mut stdout = std::io::stdout().lock();
        match writeln!(stdout, "{shown}").and_then(|()| stdout.flush()) {
            Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
                return Err(err).context("writing stdout");
            }
            _ => {}
        }
        if let Some(why) = unsaved {
            eprintln!("filetools: warning: {why}.");
            return Ok(ExitCode::FAILURE);
        }
        Ok(if result.is_error {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        })
    }
}
