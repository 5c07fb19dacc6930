//! `filetools mcp --root DIR`: the tools to an MCP client over stdio (see
//! the README's "MCP" section for the client configuration).

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use filetools::mcp::Server;

use crate::cli::McpArgs;

pub fn run(args: &McpArgs) -> Result<ExitCode> {
    let builder = crate::builder(&args.root, &args.limits)?.read_only(args.read_only);
    let tools = crate::build(crate::configured(builder, &args.limits)?)?;
    Server::new(&tools, args.read_only)?
        .progress_interval(Duration::from_millis(args.progress_ms))
        .max_line_bytes(args.max_line_bytes)
        .serve_stdio()?;
    Ok(ExitCode::SUCCESS)
}
