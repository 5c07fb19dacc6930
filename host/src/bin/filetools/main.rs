//! `filetools`: the tools from a shell, over JSON lines, or to an MCP
//! client. `filetools --help` lists the commands, `filetools COMMAND --help`
//! every flag of one.

mod cache;
mod cli;
mod edit;
mod imports;
mod mcp;
mod oneshot;
mod read;
mod schema;
mod serve;
mod session;
mod state;
mod undo;
mod write;

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser as _;
use filetools::{Builder, Tools};

use cli::{Cli, Command, Limits};

#[expect(clippy::print_stderr, reason = "the CLI reports to its user on stderr")]
fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Session(args) => session::run(&args),
        Command::Mcp(args) => mcp::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Schema(args) => schema::run(&args),
        Command::Read(args) => read::run(&args),
        Command::Write(args) => write::run(&args),
        Command::Edit(args) => edit::run(&args),
        Command::Undo(args) => undo::run(&args),
        Command::Imports => imports::run(),
        Command::Cache(args) => cache::run(&args),
    };
    match outcome {
        Ok(code) => code,
        Err(err) => {
            eprintln!("filetools: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Set to `0` to turn the dedup stub off for every session the CLI opens
/// (the emergency switch every cache should have).
const DEDUP_ENV: &str = "FILETOOLS_DEDUP";

/// Builds the tools, saying on stderr why the precompiled-component cache,
/// or the state directory of changes under way, is not used when it was
/// refused.
#[expect(clippy::print_stderr, reason = "the CLI reports to its user on stderr")]
pub fn build(builder: Builder) -> Result<Tools> {
    let tools = builder.build()?;
    for why in [tools.cache_refusal(), tools.state_refusal()]
        .into_iter()
        .flatten()
    {
        eprintln!("filetools: warning: {why}.");
    }
    Ok(tools)
}

/// A builder rooted at `root`, with the environment's switches and the
/// memory flag applied.
pub fn builder(root: &Path, limits: &Limits) -> Result<Builder> {
    let root = existing_root(root)?;
    let bytes = usize::try_from(limits.memory_mib)
        .ok()
        .and_then(|mib| mib.checked_mul(1 << 20))
        .ok_or_else(|| anyhow::anyhow!("--memory-mib {} is too large", limits.memory_mib))?;
    let mut builder = Tools::builder().root(root).memory_limit(bytes);
    if std::env::var(DEDUP_ENV).is_ok_and(|v| v == "0") {
        builder = builder.config_json(r#"{"dedup": false}"#)?;
    }
    Ok(builder)
}

/// `builder` with the `--config` keys, which win over any set before, and
/// the `--tools` sets, which win over the config's.
pub fn configured(builder: Builder, limits: &Limits) -> Result<Builder> {
    let builder = match &limits.config {
        Some(config) => builder.config_json(config)?,
        None => builder,
    };
    if limits.tools.is_empty() {
        return Ok(builder);
    }
    builder.config_json(&serde_json::json!({ "tools": limits.tools }).to_string())
}

/// With `--read-only`, the sets `limits` names must keep a tool that can
/// succeed: a server that lists none would look broken to its client.
pub fn readable(limits: &Limits) -> Result<()> {
    let config = session_config(limits.config.as_deref(), &limits.tools, true)?;
    if filetools_core::tools::definitions::definitions(&config).is_empty() {
        anyhow::bail!(filetools::mcp::NO_READING_TOOL);
    }
    Ok(())
}

/// The session config of `--config`, with the `--tools` sets (which win
/// over its `tools`) and, with `read_only`, the read-only key.
pub fn session_config(
    config: Option<&str>,
    tools: &[String],
    read_only: bool,
) -> Result<filetools_core::Config> {
    let mut config: serde_json::Value = serde_json::from_str(config.unwrap_or("{}"))
        .map_err(|e| anyhow::anyhow!("--config is not JSON: {e}"))?;
    let Some(map) = config.as_object_mut() else {
        anyhow::bail!("--config must be a JSON object");
    };
    if !tools.is_empty() {
        map.insert("tools".to_owned(), serde_json::json!(tools));
    }
    if read_only {
        map.insert("read_only".to_owned(), serde_json::Value::Bool(true));
    }
    filetools_core::Config::from_json(&config.to_string()).map_err(anyhow::Error::msg)
}

/// `root`, when it is a directory; else an error naming it and the fix.
fn existing_root(root: &Path) -> Result<&Path> {
    match std::fs::metadata(root) {
        Ok(meta) if meta.is_dir() => Ok(root),
        Ok(_) => anyhow::bail!(
            "--root {} is not a directory; give the directory the tools may see",
            root.display()
        ),
        Err(err) => anyhow::bail!(
            "--root {}: {err}; give an existing directory",
            root.display()
        ),
    }
}
