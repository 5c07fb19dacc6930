//! The search rows of the performance table: `grep` and `find` over a real
//! source tree nobody here wrote (the cargo registry's sources), each beside
//! ripgrep on the same tree with the same ignore rules, warm cache, in one
//! run. The tools run as an agent calls them, in a running session of the
//! wasmtime host; `rg` as an agent's shell runs it, one process per
//! command, its output read to the end.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use filetools::Tools;
use filetools_tests::real_files::cargo_registry;

use super::targets::{Row, Samples, ratio_row, run_process};

/// Timed runs of each search.
const RUNS: usize = 5;

/// The tree must be at least this big to stand for a real project.
const MIN_FILES: u64 = 10_000;
const MIN_BYTES: u64 = 200 << 20;

/// What the rows search for: a literal and a regex.
const LITERAL: &str = "unsafe";
const REGEX: &str = r"fn \w+_with\(";

/// The target: at most this times ripgrep.
const TARGET: f64 = 1.5;

/// Files and bytes under `dir`, as `rg --files` lists them.
fn size_of(dir: &Path) -> Result<(u64, u64)> {
    let output = Command::new("rg")
        .args(["--no-require-git", "--files", "."])
        .current_dir(dir)
        .output()
        .context("rg is needed for the search rows (cargo xtask setup)")?;
    let mut files = 0;
    let mut bytes = 0;
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        files += 1;
        bytes += std::fs::metadata(dir.join(line)).map_or(0, |m| m.len());
    }
    Ok((files, bytes))
}

/// The search rows.
pub(crate) fn rows() -> Result<Vec<Row>> {
    let tree = cargo_registry();
    let (files, bytes) = size_of(&tree)?;
    if files < MIN_FILES || bytes < MIN_BYTES {
        bail!(
            "{} holds {files} files, {} MB: the search rows need at least {MIN_FILES} files and {} MB",
            tree.display(),
            bytes >> 20,
            MIN_BYTES >> 20
        );
    }
    let tools = Tools::builder()
        .root(&tree)
        .config_json(r#"{"max_output_tokens": 100000000, "dedup": false}"#)?
        .build()?;
    let mut session = tools.session()?;
    let mut call = |tool: &str, args: serde_json::Value| -> Result<Samples> {
        let args = args.to_string();
        Samples::collect(RUNS, || {
            let started = Instant::now();
            let result = session.call(tool, &args);
            let time = started.elapsed();
            if result.is_error || result.metadata["truncated"] == true {
                bail!("{tool} {args}: {}", result.text());
            }
            Ok(time)
        })
    };
    let rg = |args: &[&str]| -> Result<Samples> {
        Samples::collect(RUNS, || {
            // The path given, so that rg never searches a piped stdin
            // instead.
            run_process(
                Command::new("rg")
                    .args(["--no-require-git", "--crlf"])
                    .args(args)
                    .arg(".")
                    .current_dir(&tree),
            )
        })
    };
    let what = format!("{files} files, {} MB", bytes >> 20);
    let mut rows = Vec::new();
    for (mode, flag) in [("count", "-c"), ("files_with_matches", "-l")] {
        for (kind, pattern) in [("literal", LITERAL), ("regex", REGEX)] {
            let ours = call(
                "grep",
                serde_json::json!({"pattern": pattern, "output_mode": mode}),
            )?;
            let theirs = rg(&[flag, "-e", pattern])?;
            rows.push(ratio_row(
                &format!("grep {mode}, a {kind}, over the cargo registry ({what})"),
                &ours,
                &format!("`rg {flag}`"),
                &theirs,
                TARGET,
            ));
        }
    }
    let ours = call(
        "find",
        serde_json::json!({"pattern": "*", "head_limit": 100_000_000}),
    )?;
    let theirs = rg(&["--files"])?;
    rows.push(ratio_row(
        &format!("find, every file of the cargo registry ({what})"),
        &ours,
        "`rg --files`",
        &theirs,
        TARGET,
    ));
    Ok(rows)
}
