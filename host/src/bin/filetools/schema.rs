//! `filetools schema [--format F] [--config JSON]`: the tool definitions as
//! one JSON array, rendered from the config by the same core the
//! component runs.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use filetools_core::Config;
use filetools_core::schema::render;
use serde_json::Value;

use crate::cli::SchemaArgs;

pub fn run(args: &SchemaArgs) -> Result<ExitCode> {
    let config =
        Config::from_json(args.config.as_deref().unwrap_or("{}")).map_err(|e| anyhow!(e))?;
    let tools = Value::Array(render(&config, args.format.into()));
    println!("{}", serde_json::to_string_pretty(&tools)?);
    Ok(ExitCode::SUCCESS)
}
