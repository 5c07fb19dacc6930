//! `filetools session --root DIR`: the JSONL protocol. One call per input
//! line, `{"tool": "read", "args": {...}}`; one result per output line, written
//! and flushed as soon as the call is answered; one session for the stream.
//! A line that is not a call gets an error result, never silence.

use std::io::{BufRead as _, Write as _};
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use filetools::ToolResult;
use serde_json::Value;

use crate::args::Args;

pub fn run(argv: Vec<String>) -> Result<ExitCode> {
    let args = Args::parse(argv, &["root", "config"], &["read-only"])?;
    let root = args.value("root").context("session needs --root DIR")?;
    let mut builder = crate::builder(root.as_ref())?.read_only(args.switch("read-only"));
    if let Some(config) = args.value("config") {
        builder = builder.config_json(config)?;
    }
    let tools = builder.build()?;
    let mut session = tools.session()?;
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let result = match parse_call(&line) {
            Ok((tool, arguments)) => session.call(&tool, &arguments),
            Err(message) => ToolResult::failure(message, "bad_request"),
        };
        writeln!(stdout, "{}", result.to_json()).context("writing stdout")?;
        stdout.flush().context("flushing stdout")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `(tool, arguments-json)` from one protocol line.
fn parse_call(line: &str) -> Result<(String, String), String> {
    const SHAPE: &str = r#"each line must be {"tool": "<name>", "args": {...}}"#;
    let value: Value = serde_json::from_str(line)
        .map_err(|err| format!("Error: the line is not JSON ({err}); {SHAPE}."))?;
    let tool = value
        .get("tool")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("Error: \"tool\" is missing or not a string; {SHAPE}."))?;
    let arguments = match value.get("args").or_else(|| value.get("arguments")) {
        None | Some(Value::Null) => "{}".to_owned(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    };
    Ok((tool.to_owned(), arguments))
}
