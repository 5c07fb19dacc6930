//! What every one-shot command shares: a session rooted at `--root` (or the
//! current directory), relative paths taken from the current directory when
//! it lies inside the root, and with `--state FILE` the session's memory —
//! ledger, dedup records, history — loaded before the call and saved after
//! it, so a shell-only agent keeps one session across invocations (SPEC H2).
//!
//! The state file is locked from load to save, so two commands sharing it
//! run one after the other and neither's record is lost; it is saved whole
//! (a temporary file renamed over it) and private to its owner, since its
//! undo history holds file contents.

use std::fs::File;
use std::io::{Read as _, Write as _};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use filetools::{Session, ToolResult};
use serde_json::json;

use crate::cli::Common;

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
                let (state, saved) = StateFile::lock(path.clone())?;
                if !saved.trim().is_empty() {
                    session
                        .restore(&saved)
                        .with_context(|| format!("restoring --state {}", path.display()))?;
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
        let unsaved = match &self.state {
            Some(state) => match self.session.save() {
                Ok(text) => {
                    state.save(&text)?;
                    None
                }
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

/// The `--state` file, locked for this command.
struct StateFile {
    path: PathBuf,
    /// Holds the lock until the command ends.
    _lock: File,
}

impl StateFile {
    /// Waits for the lock on `path` (creating it empty and private when
    /// missing) and returns it with the saved state.
    fn lock(path: PathBuf) -> Result<(Self, String)> {
        loop {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .open(&path)
                .with_context(|| format!("opening {}", path.display()))?;
            rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
                .with_context(|| format!("locking {}", path.display()))?;
            // Another command may have saved (renamed a new file over the
            // path) while this one waited: the lock must be on the file
            // the path names now.
            let locked = file.metadata()?;
            let current = std::fs::metadata(&path).ok();
            if current.is_some_and(|c| c.dev() == locked.dev() && c.ino() == locked.ino()) {
                let mut saved = String::new();
                file.read_to_string(&mut saved)
                    .with_context(|| format!("reading {}", path.display()))?;
                return Ok((Self { path, _lock: file }, saved));
            }
        }
    }

    /// Saves `text` whole, private to its owner; the lock is still held.
    fn save(&self, text: &str) -> Result<()> {
        filetools::store::replace(&self.path, text.as_bytes())
            .with_context(|| format!("saving {}", self.path.display()))
    }
}
