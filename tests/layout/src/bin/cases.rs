//! `cases OUT`: lays every conformance case out under `OUT/<area>/<name>/`
//! for hosts that do not run Rust (the npm package's runners): `tree/` (the
//! files the case starts from, generated inputs included), `after/` (the
//! files it must leave), `config.json`, `steps.jsonl` (one call or outside
//! change per line), `expected.txt`, and `tree.json`/`after.json` listing
//! the files (for pages that fetch them); plus `OUT/index.json`, the case names.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use anyhow::{Context as _, Result};
use filetools_cases::case::{self, Step};
use serde_json::json;

fn main() -> Result<()> {
    let out = PathBuf::from(std::env::args().nth(1).context("usage: cases OUT")?);
    if out.exists() {
        fs::remove_dir_all(&out)?;
    }
    let cases = case::load_all(&case::cases_dir())?;
    let mut names = Vec::new();
    for case in &cases {
        let dir = out.join(&case.name);
        let tree = dir.join("tree");
        case.lay_out(&tree)?;
        let initial = case::snapshot(&tree)?;
        // Listings for hosts that fetch the files over HTTP (the browser page).
        let listing = |files: &case::Tree| serde_json::to_string(&files.keys().collect::<Vec<_>>());
        fs::write(dir.join("tree.json"), listing(&initial)?)?;
        let after = if case.after_dir().is_dir() {
            case::snapshot(&case.after_dir())?
        } else {
            initial
        };
        case::write_tree(&dir.join("after"), &after)?;
        fs::write(dir.join("after.json"), listing(&after)?)?;
        fs::write(dir.join("config.json"), &case.config)?;
        let mut steps = String::new();
        for step in &case.steps {
            let line = match step {
                Step::Call(call) => json!({
                    "call": { "line": call.line, "tool": call.tool, "arguments": call.arguments }
                }),
                Step::External(change) => json!({
                    "external": change.external, "path": change.path, "text": change.text
                }),
                Step::Session(what) => json!({ "session": what }),
            };
            let _ = writeln!(steps, "{line}");
        }
        fs::write(dir.join("steps.jsonl"), steps)?;
        fs::copy(case.expected_path(), dir.join("expected.txt"))
            .with_context(|| format!("{}: expected.txt", case.name))?;
        names.push(case.name.clone());
    }
    fs::write(
        out.join("index.json"),
        serde_json::to_string_pretty(&names)?,
    )?;
    println!("{} cases laid out in {}", names.len(), out.display());
    Ok(())
}
