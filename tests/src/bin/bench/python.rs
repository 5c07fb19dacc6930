//! The Python package beside the Rust host, in one run:
//!
//! - a 100 KB read through `filetools` in Python against the same read in
//!   the Rust host (this process), in alternating rounds: one Python process
//!   stays up and runs a round of calls each time it is told to;
//! - `import filetools` and a first read in a fresh interpreter, with the
//!   machine-code cache empty (the wheel's precompiled component is loaded)
//!   and warm, beside an interpreter that does nothing.
//!
//! The interpreter is `$FILETOOLS_PYTHON`, one with the wheel installed
//! (`cargo xtask bench` builds a release wheel and sets it).

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};

use crate::{BENCH_CONFIG, CALLS, call_file, median, show, wasm_session};

/// Rounds of [`CALLS`] reads per side.
const ROUNDS: usize = 5;
/// Fresh interpreters timed per start-up figure.
const STARTS: usize = 10;

/// Runs rounds of reads on request: a line `round` on stdin runs [`CALLS`]
/// reads and prints their median in nanoseconds.
const ROUND_SCRIPT: &str = r#"
import json, sys, time
from filetools import Tools
session = Tools(sys.argv[1], config=json.loads(sys.argv[2])).session()
calls = int(sys.argv[3])
args = {"file_path": "file.txt"}
first = session.call("read", args).text
print(len(first), flush=True)
for _ in range(calls // 10):
    session.call("read", args)
for line in sys.stdin:
    times = []
    for _ in range(calls):
        started = time.perf_counter_ns()
        session.call("read", args)
        times.append(time.perf_counter_ns() - started)
    times.sort()
    print(times[len(times) // 2], flush=True)
"#;

/// `import filetools` and a first read, timed inside the interpreter.
const START_SCRIPT: &str = r#"
import sys, time
started = time.perf_counter_ns()
from filetools import Tools
session = Tools(sys.argv[1]).session()
assert not session.call("read", {"file_path": "file.txt", "limit": 50}).is_error
print(time.perf_counter_ns() - started)
"#;

pub fn run(dir: &Path) -> Result<()> {
    let Some(python) = std::env::var_os("FILETOOLS_PYTHON") else {
        println!(
            "Python package: skipped (FILETOOLS_PYTHON names no interpreter with the wheel; `cargo xtask bench` sets it)\n"
        );
        return Ok(());
    };
    let python = Path::new(&python);
    let root = call_file(dir)?;
    read_ratio(python, &root)?;
    start_up(python, &root, &dir.join("python-cache"))
}

fn read_ratio(python: &Path, root: &Path) -> Result<()> {
    let mut child = Command::new(python)
        .args(["-c", ROUND_SCRIPT])
        .arg(root)
        .arg(BENCH_CONFIG)
        .arg(CALLS.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("starting the Python interpreter")?;
    let mut to_python = child.stdin.take().context("no stdin")?;
    let mut from_python = BufReader::new(child.stdout.take().context("no stdout")?);
    let mut line = String::new();
    from_python.read_line(&mut line)?;
    let mut rust = wasm_session(root)?;
    let args = r#"{"file_path": "file.txt"}"#;
    if line.trim() != rust.call("read", args).text().len().to_string() {
        bail!("Python and the Rust host disagree on the benchmark read: {line:?}");
    }
    for _ in 0..CALLS / 10 {
        rust.call("read", args);
    }
    let (mut rust_rounds, mut python_rounds) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let times: Vec<Duration> = (0..CALLS)
            .map(|_| {
                let started = Instant::now();
                std::hint::black_box(rust.call("read", args));
                started.elapsed()
            })
            .collect();
        rust_rounds.push(median(times));
        writeln!(to_python, "round")?;
        line.clear();
        from_python.read_line(&mut line)?;
        let nanos: u64 = line.trim().parse().context("the Python round's median")?;
        python_rounds.push(Duration::from_nanos(nanos));
    }
    drop(to_python);
    child.wait()?;
    let ratios: Vec<f64> = rust_rounds
        .iter()
        .zip(&python_rounds)
        .map(|(rust, python)| python.as_secs_f64() / rust.as_secs_f64())
        .collect();
    println!(
        "read of a 100 KB file through Python vs the Rust host ({ROUNDS} alternating rounds of {CALLS} calls; medians)"
    );
    println!("  Rust host          {}", range(&rust_rounds));
    println!("  Python             {}", range(&python_rounds));
    let (low, high) = ratios
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), r| (l.min(*r), h.max(*r)));
    let mut sorted = ratios.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "  ratio              {:.2}x median, {low:.2}-{high:.2}x over rounds  (target: within 1.2x)\n",
        sorted[sorted.len() / 2]
    );
    Ok(())
}

fn start_up(python: &Path, root: &Path, cache: &Path) -> Result<()> {
    // One run of `python ARGS ROOT` with `cache` as the machine-code cache:
    // its whole time, and the time it printed, if any.
    let time_process = |args: &[&str], cache: &Path| -> Result<(Duration, Option<Duration>)> {
        let started = Instant::now();
        let out = Command::new(python)
            .args(args)
            .arg(root)
            .env("FILETOOLS_CACHE_DIR", cache)
            .output()?;
        let wall = started.elapsed();
        if !out.status.success() {
            bail!("{}", String::from_utf8_lossy(&out.stderr));
        }
        let inside = String::from_utf8_lossy(&out.stdout).trim().parse().ok();
        Ok((wall, inside.map(Duration::from_nanos)))
    };
    let start = ["-c", START_SCRIPT];
    let (mut empty, mut warm, mut bare) = (
        (Vec::new(), Vec::new()),
        (Vec::new(), Vec::new()),
        Vec::new(),
    );
    // Fills the warm cache (and the page cache with the interpreter's files).
    let warm_cache = cache.with_extension("warm");
    time_process(&start, &warm_cache)?;
    for _ in 0..STARTS {
        let _ = std::fs::remove_dir_all(cache);
        let (wall, inside) = time_process(&start, cache)?;
        empty.0.push(wall);
        empty.1.push(inside.context("no time printed")?);
        let (wall, inside) = time_process(&start, &warm_cache)?;
        warm.0.push(wall);
        warm.1.push(inside.context("no time printed")?);
        bare.push(time_process(&["-c", "pass"], &warm_cache)?.0);
    }
    println!(
        "import filetools + first read in a fresh interpreter ({STARTS} starts; median, min-max)"
    );
    println!(
        "  cache empty (the wheel's precompiled code)  {} inside, {} whole process",
        range(&empty.1),
        range(&empty.0)
    );
    println!(
        "  cache warm                                  {} inside, {} whole process",
        range(&warm.1),
        range(&warm.0)
    );
    println!(
        "  python -c pass                              {} whole process",
        range(&bare)
    );
    println!("  target: within 150 ms (inside)\n");
    Ok(())
}

/// `median (min-max)` of `samples`.
fn range(samples: &[Duration]) -> String {
    let mut sorted = samples.to_vec();
    sorted.sort();
    format!(
        "{} ({}-{})",
        show(sorted[sorted.len() / 2]),
        show(sorted[0]),
        show(sorted[sorted.len() - 1])
    )
}
