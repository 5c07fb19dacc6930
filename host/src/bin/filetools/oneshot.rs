//! What every one-shot command shares: a session rooted at `--root` (or the
//! current directory), relative paths taken from the current directory when
//! it lies inside the root, and with `--state FILE` the session's memory —
//! ledger, dedup records, history — loaded before the call and saved after
//! it, so a shell-only agent keeps one session across invocations (SPEC H2).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use filetools::{Session, ToolResult};
use serde_json::json;

use crate::args::Args;

/// Flags every one-shot command takes with a value.
pub const VALUE_FLAGS: [&str; 3] = ["root", "config", "state"];
/// Switches every one-shot command takes.
pub const SWITCHES: [&str; 1] = ["json"];

/// A session for one call, and where its state lives.
pub struct OneShot {
    pub session: Session,
    state: Option<PathBuf>,
    json: bool,
}

impl OneShot {
    /// Opens the session `args` describe, restoring `--state` when the file
    /// exists and is not empty.
    pub fn open(args: &Args) -> Result<Self> {
        let cwd = std::env::current_dir().context("no current directory")?;
        let root = args.value("root").map_or_else(|| cwd.clone(), Into::into);
        let mut builder = crate::builder(&root)?;
        if let Ok(inside) = cwd.canonicalize()?.strip_prefix(root.canonicalize()?) {
            let rel = inside.to_string_lossy();
            let rel = if rel.is_empty() { ".".into() } else { rel };
            builder = builder.config_json(&json!({ "cwd": rel }).to_string())?;
        }
        if let Some(config) = args.value("config") {
            builder = builder.config_json(config)?;
        }
        let mut session = builder.build()?.session()?;
        let state = args.value("state").map(PathBuf::from);
        if let Some(path) = &state {
            match std::fs::read_to_string(path) {
                Ok(saved) if !saved.trim().is_empty() => session
                    .restore(&saved)
                    .with_context(|| format!("restoring {}", path.display()))?,
                Ok(_) => {}
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => {
                    return Err(err).with_context(|| format!("reading {}", path.display()));
                }
            }
        }
        Ok(Self {
            session,
            state,
            json: args.switch("json"),
        })
    }

    /// Saves the state, prints `result` (the model's text, or with `--json`
    /// the protocol line) and exits 1 when it is an error.
    pub fn finish(mut self, result: &ToolResult) -> Result<ExitCode> {
        if let Some(path) = &self.state {
            save(path, &self.session.save()?)?;
        }
        if self.json {
            println!("{}", result.to_json());
        } else {
            println!("{}", result.text());
        }
        Ok(if result.is_error {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        })
    }
}

/// Writes `text` to `path` through a temporary file and a rename, so an
/// interrupted save never leaves half a state.
fn save(path: &Path, text: &str) -> Result<()> {
    let mut temp = path.as_os_str().to_owned();
    temp.push(format!(".{}.tmp", std::process::id()));
    let temp = PathBuf::from(temp);
    std::fs::write(&temp, text).with_context(|| format!("writing {}", temp.display()))?;
    std::fs::rename(&temp, path).with_context(|| format!("saving {}", path.display()))
}

/// `VALUE_FLAGS` plus the command's own.
pub fn value_flags<'a>(own: &[&'a str]) -> Vec<&'a str> {
    VALUE_FLAGS
        .iter()
        .copied()
        .chain(own.iter().copied())
        .collect()
}

/// `SWITCHES` plus the command's own.
pub fn switches<'a>(own: &[&'a str]) -> Vec<&'a str> {
    SWITCHES
        .iter()
        .copied()
        .chain(own.iter().copied())
        .collect()
}
