//! `filetools`: the tools from a shell (SPEC H2).
//!
//! ```text
//! filetools session --root DIR [--read-only] [--config JSON]
//! filetools read PATH [--offset N] [--limit N] [--char-offset N] [--root DIR] [--json] [--config JSON]
//! filetools imports
//! ```

mod args;
mod imports;
mod read;
mod session;

use std::process::ExitCode;

const USAGE: &str = "\
usage:
  filetools session --root DIR [--read-only] [--config JSON]
      one JSON call per stdin line: {\"tool\": \"read\", \"args\": {...}}
      one JSON result per stdout line: {\"content\": [...], \"isError\": false, \"structuredContent\": {...}}
  filetools read PATH [--offset N] [--limit N] [--char-offset N] [--root DIR] [--json] [--config JSON]
      reads a file once; --root defaults to the current directory
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
