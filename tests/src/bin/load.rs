//! `cargo xtask load`: `filetools serve` held under load. Starts a Redis
//! Cluster on loopback (three primaries with a replica each), `--replicas`
//! replicas of `filetools serve` over it (saves answered once a Redis
//! replica has them), and `--sessions` agent sessions of the MCP TypeScript
//! SDK's clients (`js/scripts/load.mjs`) reading, editing, patching,
//! undoing and searching for `--minutes` (or `--seconds`). Reports
//! throughput, p50 and p99, errors, changes lost and each replica's
//! resident memory over time; fails on any error, any change lost, or
//! memory that keeps growing.
//!
//! ```text
//! cargo run --release -p filetools-tests --bin load -- --minutes 30
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use filetools_tests::http::ServeProcess;
use filetools_tests::redis::RedisCluster;
use serde_json::Value;

const TOKEN: &str = "load-token-0123456789abcdef";

/// Samples of each replica's memory over a run.
const MEMORY_SAMPLES: u64 = 30;

/// How much a replica's memory may grow from a quarter of the way through
/// to the end: a fraction of it, and a floor for a short run.
const MEMORY_GROWTH: f64 = 0.25;
const MEMORY_GROWTH_FLOOR_MIB: f64 = 48.0;

/// What the command line asks for.
struct Options {
    bin: PathBuf,
    seconds: u64,
    replicas: usize,
    sessions: usize,
    dir: PathBuf,
}

fn options(workspace: &Path) -> Result<Options> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        bin: workspace.join("target/release/filetools"),
        seconds: 180,
        replicas: 2,
        sessions: 200,
        dir: workspace.join("target/load"),
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--bin" => options.bin = value()?.into(),
            "--minutes" => options.seconds = value()?.parse::<u64>()? * 60,
            "--seconds" => options.seconds = value()?.parse()?,
            "--replicas" => options.replicas = value()?.parse()?,
            "--sessions" => options.sessions = value()?.parse()?,
            "--dir" => options.dir = value()?.into(),
            other => bail!("unknown argument {other:?}"),
        }
    }
    if !(2..=4).contains(&options.replicas) {
        bail!("--replicas takes 2 to 4");
    }
    options.bin = options
        .bin
        .canonicalize()
        .with_context(|| format!("no filetools binary at {}", options.bin.display()))?;
    Ok(options)
}

/// The resident memory of process `pid`, in MiB.
fn resident_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kib: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}

/// The sessions' files: two lines each to begin with.
fn lay_out(root: &Path, sessions: usize) -> Result<()> {
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(root.join("load"))?;
    for index in 0..sessions {
        std::fs::write(
            root.join(format!("load/s{index}.txt")),
            format!("s{index} head\ns{index} 0\n"),
        )?;
    }
    Ok(())
}

fn main() -> Result<()> {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let options = options(&workspace)?;
    let root = options.dir.join("root");
    lay_out(&root, options.sessions)?;
    let cluster = RedisCluster::start()
        .context("redis-server or redis-cli is missing: run `cargo xtask setup`")?;
    let store = cluster.url();
    let root_arg = root.to_str().context("the root is not UTF-8")?;
    let replicas = (0..options.replicas)
        .map(|_| {
            ServeProcess::start(
                &options.bin,
                &[
                    "--root",
                    root_arg,
                    "--store",
                    &store,
                    "--store-replicas",
                    "1",
                    "--tools",
                    "filetools,apply-patch",
                    "--max-connections",
                    "2048",
                ],
                &[("FILETOOLS_TOKEN", TOKEN)],
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let urls: Vec<String> = replicas
        .iter()
        .map(|replica| format!("http://{}/mcp", replica.address))
        .collect();
    println!(
        "load: {} sessions over {} replicas of {} on a Redis Cluster (3 primaries, 3 replicas; saves wait for 1), {} s",
        options.sessions,
        options.replicas,
        options.bin.display(),
        options.seconds
    );
    let mut clients = Command::new("node")
        .arg(workspace.join("js/scripts/load.mjs"))
        .args(["--urls", &urls.join(",")])
        .args(["--token", TOKEN])
        .args(["--root", root_arg])
        .args(["--sessions", &options.sessions.to_string()])
        .args(["--seconds", &options.seconds.to_string()])
        .current_dir(workspace.join("js"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("starting node js/scripts/load.mjs")?;
    let started = Instant::now();
    let every = Duration::from_secs((options.seconds / MEMORY_SAMPLES).max(1));
    let mut memory: Vec<(f64, Vec<f64>)> = Vec::new();
    while clients.try_wait()?.is_none() {
        let sample = replicas
            .iter()
            .map(|replica| resident_mib(replica.child.id()).unwrap_or(0.0))
            .collect();
        memory.push((started.elapsed().as_secs_f64(), sample));
        std::thread::sleep(every);
    }
    let output = clients.wait_with_output()?;
    if !output.status.success() {
        bail!("the clients failed ({})", output.status);
    }
    let report: Value = serde_json::from_slice(&output.stdout)
        .with_context(|| String::from_utf8_lossy(&output.stdout).into_owned())?;
    drop(replicas);
    drop(cluster);
    judge(&report, &memory, options.seconds)
}

/// Prints the figures, and fails on an error, a change lost or memory that
/// keeps growing.
fn judge(report: &Value, memory: &[(f64, Vec<f64>)], seconds: u64) -> Result<()> {
    let number = |key: &str| report[key].as_f64().unwrap_or(f64::NAN);
    println!(
        "{:.0} calls in {:.0} s: {:.1} calls/s; p50 {:.2} ms, p99 {:.2} ms",
        number("calls"),
        number("seconds"),
        number("calls_per_second"),
        number("p50_ms"),
        number("p99_ms")
    );
    let tenths: Vec<String> = report["calls_per_second_by_tenth"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|rate| format!("{:.0}", rate.as_f64().unwrap_or(f64::NAN)))
        .collect();
    println!("calls/s in each tenth of the run: {}", tenths.join(", "));
    if let Some(kinds) = report["kinds"].as_object() {
        for (kind, figures) in kinds {
            println!(
                "  {kind:<6} {:>8} calls, p50 {:.2} ms, p99 {:.2} ms",
                figures["calls"],
                figures["p50_ms"].as_f64().unwrap_or(f64::NAN),
                figures["p99_ms"].as_f64().unwrap_or(f64::NAN)
            );
        }
    }
    println!(
        "errors {}, reads that showed what no answered change left {}, answered changes lost {}, lines no answered change explains {}",
        report["errors"],
        report["reads_diverged"],
        report["changes_lost"],
        report["lines_unexplained"]
    );
    for sample in report["error_samples"].as_array().into_iter().flatten() {
        println!("  error: {}", sample.as_str().unwrap_or_default());
    }
    let replicas = memory.first().map_or(0, |(_, sample)| sample.len());
    let quarter = memory
        .iter()
        .position(|(at, _)| *at >= Duration::from_secs(seconds).as_secs_f64() / 4.0)
        .unwrap_or(0);
    let mut grew = Vec::new();
    for replica in 0..replicas {
        let series: Vec<f64> = memory.iter().map(|(_, sample)| sample[replica]).collect();
        let shown: Vec<String> = memory
            .iter()
            .step_by((memory.len() / 10).max(1))
            .map(|(at, sample)| format!("{at:.0}s {:.0}", sample[replica]))
            .collect();
        println!("replica {replica} resident MiB: {}", shown.join(", "));
        let (then, end) = (series[quarter], series.last().copied().unwrap_or(0.0));
        let allowed = then * (1.0 + MEMORY_GROWTH) + MEMORY_GROWTH_FLOOR_MIB;
        println!("  a quarter in {then:.0} MiB, at the end {end:.0} MiB (allowed {allowed:.0})");
        if end > allowed {
            grew.push(replica);
        }
    }
    let count = |key: &str| report[key].as_u64().unwrap_or(u64::MAX);
    if count("errors") > 0
        || count("changes_lost") > 0
        || count("reads_diverged") > 0
        || count("lines_unexplained") > 0
    {
        bail!("the run had errors or lost changes");
    }
    if !grew.is_empty() {
        bail!("the memory of replicas {grew:?} kept growing");
    }
    Ok(())
}
