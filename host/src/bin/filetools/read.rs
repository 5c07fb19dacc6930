//! `filetools read PATH`: one read from a shell. Prints the text the model
//! would see (or, with `--json`, the protocol line); exits 1 when the result
//! is an error. Relative paths are taken from the current directory when it
//! lies inside the root.

use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};
use filetools::{ReadArgs, Tools};
use serde_json::json;

use crate::args::Args;

pub fn run(argv: Vec<String>) -> Result<ExitCode> {
    let args = Args::parse(
        argv,
        &["root", "offset", "limit", "char-offset", "config"],
        &["json"],
    )?;
    let [path] = args.positionals.as_slice() else {
        bail!("read takes exactly one PATH");
    };
    let cwd = std::env::current_dir().context("no current directory")?;
    let root = args.value("root").map_or_else(|| cwd.clone(), Into::into);
    let mut builder = Tools::builder().root(&root);
    if let Ok(inside) = cwd.canonicalize()?.strip_prefix(root.canonicalize()?) {
        let rel = inside.to_string_lossy();
        let rel = if rel.is_empty() { ".".into() } else { rel };
        builder = builder.config_json(&json!({ "cwd": rel }).to_string())?;
    }
    if let Some(config) = args.value("config") {
        builder = builder.config_json(config)?;
    }
    let mut session = builder.build()?.session()?;
    let result = session.read(&ReadArgs {
        file_path: path.clone(),
        offset: args.number("offset")?,
        limit: args.number("limit")?,
        char_offset: args.number("char-offset")?,
    });
    if args.switch("json") {
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
