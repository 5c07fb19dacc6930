//! `filetools`: the tools from a shell (SPEC H2).
//!
//! ```text
//! filetools session --root DIR [--read-only] [--config JSON] [--max-line-bytes N] [--memory-mib N]
//! filetools read PATH [--offset N] [--limit N] [--char-offset N] [COMMON]
//! filetools write PATH [--content TEXT | --content-file FILE] [COMMON]
//! filetools edit PATH (--old TEXT --new TEXT [--replace-all] | --edits JSON) [COMMON]
//! filetools undo PATH [COMMON]
//! filetools imports
//! COMMON: [--root DIR] [--state FILE] [--config JSON] [--memory-mib N] [--json]
//! ```

mod args;
mod edit;
mod imports;
mod oneshot;
mod read;
mod session;
mod undo;
mod write;

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use filetools::{Builder, Tools};

const USAGE: &str = "\
usage:
  filetools session --root DIR [--read-only] [--config JSON] [--max-line-bytes N] [--memory-mib N]
      one JSON call per stdin line: {\"tool\": \"read\", \"args\": {...}}
      one JSON result per stdout line: {\"content\": [...], \"isError\": false, \"structuredContent\": {...}}
  filetools read PATH [--offset N] [--limit N] [--char-offset N] [COMMON]
  filetools write PATH [--content TEXT | --content-file FILE] [COMMON]
      (without either, the content is read from stdin)
  filetools edit PATH (--old TEXT --new TEXT [--replace-all] | --edits JSON) [COMMON]
  filetools undo PATH [COMMON]
      one call each; exit status 1 when the result is an error
      COMMON: [--root DIR] [--state FILE] [--config JSON] [--memory-mib N] [--json]
      --root defaults to the current directory; --state FILE keeps the
      session (what was read, dedup, undo history) between invocations;
      --memory-mib N caps the component's memory (default 256)
  filetools imports
      lists the component's imports and checks them against the allowed set";

#[expect(clippy::print_stderr, reason = "the CLI reports to its user on stderr")]
fn main() -> ExitCode {
    let mut argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    let command = argv.remove(0);
    let outcome = match command.as_str() {
        "session" => session::run(argv),
        "read" => read::run(argv),
        "write" => write::run(argv),
        "edit" => edit::run(argv),
        "undo" => undo::run(argv),
        "imports" => imports::run(),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        "-V" | "--version" => {
            println!("filetools {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        other => Err(anyhow::anyhow!("unknown command {other:?}\n{USAGE}")),
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

/// Builds the tools, saying on stderr why the precompiled-component cache
/// is not used when it was refused.
#[expect(clippy::print_stderr, reason = "the CLI reports to its user on stderr")]
pub fn build(builder: Builder) -> Result<Tools> {
    let tools = builder.build()?;
    if let Some(why) = tools.cache_refusal() {
        eprintln!("filetools: warning: {why}.");
    }
    Ok(tools)
}

/// A builder rooted at `root`, with the environment's switches and the
/// `--memory-mib` flag applied.
pub fn builder(root: &Path, args: &args::Args) -> Result<Builder> {
    let mut builder = Tools::builder().root(root);
    if let Some(mib) = args.number("memory-mib")? {
        let bytes = usize::try_from(mib)
            .ok()
            .and_then(|mib| mib.checked_mul(1 << 20))
            .filter(|&bytes| bytes > 0)
            .ok_or_else(|| anyhow::anyhow!("--memory-mib must be at least 1, got {mib}"))?;
        builder = builder.memory_limit(bytes);
    }
    if std::env::var(DEDUP_ENV).is_ok_and(|v| v == "0") {
        return builder.config_json(r#"{"dedup": false}"#);
    }
    Ok(builder)
}
