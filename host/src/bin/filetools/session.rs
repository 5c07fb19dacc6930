//! `filetools session --root DIR`: the JSONL protocol. One call per input
//! line, `{"tool": "read", "args": {...}}`; one result per output line, written
//! and flushed as soon as the call is answered; one session for the stream.
//! Every line gets exactly one answer — a line that is not UTF-8, not JSON,
//! not a call or over `--max-line-bytes` gets an error result — and the
//! session goes on.

use std::io::Write as _;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use filetools::protocol::{Lines, answer};

use crate::cli::SessionArgs;

pub fn run(args: &SessionArgs) -> Result<ExitCode> {
    let cap = args.max_line_bytes;
    let builder = crate::builder(&args.root, &args.limits)?.read_only(args.read_only);
    let builder = crate::configured(builder, &args.limits)?;
    let tools = crate::build(builder)?;
    let mut session = tools.session()?;
    let mut lines = Lines::new(std::io::stdin().lock(), cap);
    let mut stdout = std::io::stdout().lock();
    while let Some(line) = lines.next_line().context("reading stdin")? {
        let Some(result) = answer(&mut session, line, cap) else {
            continue;
        };
        writeln!(stdout, "{}", result.to_json()).context("writing stdout")?;
        stdout.flush().context("flushing stdout")?;
    }
    Ok(ExitCode::SUCCESS)
}
