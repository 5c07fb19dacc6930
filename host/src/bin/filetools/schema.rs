//! `filetools schema [--format F] [--config JSON] [--tools SETS] [--read-only]`: the tool
//! definitions as one JSON array, rendered from the config by the same core
//! the component runs.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use filetools_core::Config;
use filetools_core::render_schema as render;
use serde_json::Value;

use crate::cli::SchemaArgs;

pub fn run(args: &SchemaArgs) -> Result<ExitCode> {
    let mut config: Value = serde_json::from_str(args.config.as_deref().unwrap_or("{}"))
        .map_err(|e| anyhow!("--config is not JSON: {e}"))?;
    let Some(map) = config.as_object_mut() else {
        return Err(anyhow!("--config must be a JSON object"));
    };
    if !args.tools.is_empty() {
        map.insert("tools".to_owned(), serde_json::json!(args.tools));
    }
    if args.read_only {
        map.insert("read_only".to_owned(), Value::Bool(true));
    }
    let config = Config::from_json(&config.to_string()).map_err(|e| anyhow!(e))?;
    let tools = Value::Array(render(&config, args.format.into()));
    println!("{}", serde_json::to_string_pretty(&tools)?);
    Ok(ExitCode::SUCCESS)
}
