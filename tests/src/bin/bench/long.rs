//! A long session in the wasmtime host: [`CALLS`] calls, [`FILES`] of them
//! creating a file, the rest reading and editing recent files, as an agent
//! working through a large tree would. What a call costs must not grow with
//! what the session did before it: the per-call median of the first tenth
//! of the calls is set beside that of the last tenth, and the process's
//! resident memory at each tenth is reported.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use filetools::Tools;
use serde_json::json;

use super::{median, show};

/// Calls in the session.
pub const CALLS: usize = 100_000;
/// Files it creates.
pub const FILES: usize = 30_000;
/// Files per directory.
const PER_DIR: usize = 1000;
/// Recent files a read picks from.
const RECENT: usize = 50;

/// The path of the `n`th file created.
fn file(n: usize) -> String {
    format!("d{:03}/f{n:05}.txt", n / PER_DIR)
}

/// Runs the session in `dir/long` and prints its figures; `calls` and
/// `files` scale it down for a quick look.
pub fn run(dir: &Path, calls: usize, files: usize) -> Result<()> {
    let root = dir.join("long");
    if root.exists() {
        fs::remove_dir_all(&root)?;
    }
    fs::create_dir_all(&root)?;
    let tools = Tools::builder().root(&root).build()?;
    let mut session = tools.session()?;
    let mut times = Vec::with_capacity(calls);
    let mut resident = Vec::new();
    let (mut created, mut edited) = (0usize, 0usize);
    for n in 0..calls {
        // Creations spread evenly over the session; of the other calls,
        // every second an edit of the oldest file not yet edited.
        let create = created < (n + 1) * files / calls.max(1);
        let (tool, args) = if create || created == 0 {
            let args = json!({"file_path": file(created), "content": format!("file {created}\nline two\n")});
            created += 1;
            ("write", args)
        } else if n % 2 == 1 && edited < created {
            let args = json!({"file_path": file(edited), "old_string": "line two", "new_string": "line 2"});
            edited += 1;
            ("edit", args)
        } else {
            let recent = created - 1 - (n % RECENT.min(created));
            ("read", json!({"file_path": file(recent)}))
        };
        let started = Instant::now();
        let answer = session.call(tool, &args.to_string());
        times.push(started.elapsed());
        if answer.is_error {
            bail!("call {n} ({tool} {args}) failed: {}", answer.text());
        }
        if (n + 1) % (calls / 10).max(1) == 0 {
            resident.push(resident_kib().unwrap_or(0));
        }
    }
    let tenth = (calls / 10).max(1);
    let first = median(times[..tenth].to_vec());
    let last = median(times[calls - tenth..].to_vec());
    let total: Duration = times.iter().sum();
    println!(
        "long session: {calls} calls, {created} files created, {edited} edited, in {:.1} s",
        total.as_secs_f64()
    );
    println!(
        "  per-call median, first tenth {}, last tenth {}: ratio {:.2} (target at most 1.5)",
        show(first),
        show(last),
        last.as_secs_f64() / first.as_secs_f64()
    );
    let mib: Vec<String> = resident
        .iter()
        .map(|kib| (kib / 1024).to_string())
        .collect();
    println!("  resident memory at each tenth, MiB: {}\n", mib.join(", "));
    Ok(())
}

/// The process's resident memory now (VmRSS), in KiB.
fn resident_kib() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
