//! The `list_directory` row: the MCP filesystem set's listing of a
//! directory of 1,000 files over stdio, `filetools mcp` beside the
//! reference server it takes its shape from (the npm package
//! `@modelcontextprotocol/server-filesystem`, from js/node_modules), the
//! two called in turn.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use filetools_tests::cli::{McpClient, SessionProcess, text};
use serde_json::json;

use super::targets::{Row, Samples, ratio_row};

/// Files in the listed directory.
const FILES: usize = 1000;
/// Listings timed on each side, after one to warm up.
const CALLS: usize = 41;
/// The protocol revision both are spoken to in.
const PROTOCOL: &str = "2025-06-18";
/// The target: no slower than the reference.
const TARGET: f64 = 1.0;

/// The reference server's entry point in js/node_modules.
fn reference_server() -> Result<std::path::PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../js/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    if !script.is_file() {
        bail!("{} is missing: run `npm ci` in js/", script.display());
    }
    Ok(script)
}

/// One listing of `dir` by `client`, timed, and its text.
fn listing(client: &mut McpClient, dir: &Path) -> Result<(Duration, String)> {
    let args = json!({ "path": dir });
    let started = Instant::now();
    let answer = client.call("list_directory", &args)?;
    let took = started.elapsed();
    // The reference server leaves `isError` out when it is false.
    if answer["isError"] == true {
        bail!("list_directory: {}", text(&answer));
    }
    Ok((took, text(&answer).to_owned()))
}

pub(crate) fn rows(dir: &Path) -> Result<Vec<Row>> {
    let listed = dir.join("list-dir").join("files");
    fs::create_dir_all(&listed)?;
    for n in 0..FILES {
        fs::write(listed.join(format!("file-{n:04}.txt")), b"listed\n")?;
    }
    let listed = listed.canonicalize()?;
    let bin = super::edges::cli()?;
    let (mut ours, _) = McpClient::start(&bin, &listed, &["--tools", "mcp-filesystem"], PROTOCOL)?;
    let mut node = Command::new("node");
    node.arg(reference_server()?)
        .arg(&listed)
        .stderr(std::process::Stdio::null());
    let (mut theirs, _) = McpClient::over(SessionProcess::start_other(node)?, PROTOCOL)
        .context("starting the reference server (node)")?;
    let (mut our_times, mut their_times) = (Vec::new(), Vec::new());
    let (mut our_text, mut their_text) = (String::new(), String::new());
    for i in 0..=CALLS {
        let (took, shown) = listing(&mut ours, &listed)?;
        let (their_took, their_shown) = listing(&mut theirs, &listed)?;
        if i > 0 {
            our_times.push(took);
            their_times.push(their_took);
        }
        (our_text, their_text) = (shown, their_shown);
    }
    let mut row = ratio_row(
        &format!("MCP set `list_directory` of {FILES} files (stdio)"),
        &Samples::of(our_times),
        "the reference server (Node)",
        &Samples::of(their_times),
        TARGET,
    );
    let _ = write!(row.ours, " ({} bytes shown)", our_text.len());
    let _ = write!(row.reference, " ({} bytes shown)", their_text.len());
    Ok(vec![row])
}
