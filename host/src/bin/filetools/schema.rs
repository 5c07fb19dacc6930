//! `filetools schema [--format F] [--config JSON] [--tools SETS] [--read-only]`: the tool
//! definitions as one JSON array, rendered from the config by the same core
//! the component runs.

use std::process::ExitCode;

use anyhow::Result;
use filetools_core::render_schema as render;
use serde_json::Value;

use crate::cli::SchemaArgs;

pub fn run(args: &SchemaArgs) -> Result<ExitCode> {
    let config = crate::session_config(args.config.as_deref(), &args.tools, args.read_only)?;
    let tools = Value::Array(render(&config, args.format.into()));
    println!("{}", serde_json::to_string_pretty(&tools)?);
    Ok(ExitCode::SUCCESS)
}
