//! `cargo xtask stress`: the reliability suite at full counts, with its
//! figures. `--bin PATH` measures another build of the CLI (an older one,
//! say); `--dir PATH` works there (default `target/stress`); `--seed N` replays a run; `--only race,swap,kill,together,node,deadline,fuzz,cache,roots,hostile`
//! picks scenarios; `--percent P` runs `P`% of every count. `node` (kills
//! of a Node agent's changes, put back by Node or the CLI, and the other
//! way round) needs `node` and the npm package built (`js/generated`); it
//! fails when a file is left mixed or torn, or a recovery goes unsaid.
//!
//! ```text
//! cargo run --release -p filetools-tests --bin stress -- --bin target/release/filetools
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use filetools_tests::cli::Runner;
use filetools_tests::hostile::Counts;
use filetools_tests::reliability::{
    Rng, cache, deadline, fresh_dir, fuzz, hostile, kill, kill_together,
    race::{self, Op, Writer},
    roots, swap,
};

/// The full counts.
const RACE_TRIALS: u64 = 2000;
const SANDBOX_RACE_TRIALS: u64 = 5000;
const SWAP_TRIALS: u64 = 300;
const KILL_TRIALS: u64 = 1000;
const KILL_MAX_BYTES: u64 = 20 * 1024 * 1024;
/// Kills per kind of change of several files (patch, undo of a patch,
/// undo of a move, move).
const KILL_TOGETHER_TRIALS: u64 = 260;
/// Kills per kind of change of several files made by a Node agent, for
/// each next host (Node, the CLI): 512 in all; and half as many per kind
/// made by the CLI and put back by Node.
const NODE_TOGETHER_TRIALS: u64 = 64;
/// Deadlines swept across a patch of six files.
const DEADLINE_RUNS: u64 = 120;
const FUZZ_LINES: u64 = 20_000;
const FUZZ_LONG_LINE: u64 = 400 * 1024 * 1024;
const CACHE_TRIALS: u64 = 10;
const IMAGE_FLIPS: u64 = 250;
const PDF_FLIPS: u64 = 1000;
const GARBAGE_BYTES: u64 = 3_900_000;

/// What the command line asks for.
struct Options {
    bin: PathBuf,
    node_session: PathBuf,
    dir: PathBuf,
    seed: u64,
    only: Option<Vec<String>>,
    percent: u64,
}

fn options(workspace: &Path) -> Result<Options> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        bin: workspace.join("target/release/filetools"),
        node_session: workspace.join("js/scripts/session.mjs"),
        dir: workspace.join("target/stress"),
        seed: Rng::seed_from_clock(),
        only: None,
        percent: 100,
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--bin" => options.bin = value()?.into(),
            "--node-session" => options.node_session = value()?.into(),
            "--dir" => options.dir = value()?.into(),
            "--seed" => options.seed = value()?.parse()?,
            "--percent" => options.percent = value()?.parse()?,
            "--only" => options.only = Some(value()?.split(',').map(str::to_owned).collect()),
            other => bail!("unknown argument {other:?}"),
        }
    }
    options.bin = options
        .bin
        .canonicalize()
        .with_context(|| format!("no filetools binary at {}", options.bin.display()))?;
    Ok(options)
}

fn main() -> Result<()> {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let Options {
        bin,
        node_session,
        dir: base,
        seed,
        only,
        percent,
    } = options(&workspace)?;
    let wanted = |name: &str| {
        only.as_ref()
            .is_none_or(|names| names.iter().any(|n| n == name))
    };
    let n = |count: u64| (count * percent / 100).max(1);
    let mut rng = Rng::new(seed);
    println!("reliability suite: {} (seed {seed})\n", bin.display());
    if wanted("race") {
        for op in Op::ALL {
            for writer in [Writer::Rename, Writer::InPlace] {
                let dir = fresh_dir(&base, "race")?;
                let report = timed(|| race::cli(&bin, &dir, op, writer, n(RACE_TRIALS), &mut rng))?;
                println!("racing {op} (CLI session), other writer {writer}: {report}");
            }
        }
        for exchange in [true, false] {
            for writer in [Writer::Rename, Writer::InPlace] {
                let dir = fresh_dir(&base, "race-sandbox")?;
                let report = timed(|| {
                    race::sandbox(&dir, exchange, writer, n(SANDBOX_RACE_TRIALS), &mut rng)
                })?;
                let mode = if exchange {
                    "exchange"
                } else {
                    "re-check before rename"
                };
                println!("racing sandbox writes ({mode}), other writer {writer}: {report}");
            }
        }
    }
    if wanted("swap") {
        let dir = fresh_dir(&base, "swap")?;
        let report = timed(|| swap::cli(&bin, &dir, n(SWAP_TRIALS), &mut rng))?;
        println!("special files swapped in during writes and undos: {report}");
    }
    if wanted("kill") {
        let dir = fresh_dir(&base, "kill")?;
        let report = timed(|| {
            kill::cli(
                &bin,
                &dir,
                n(KILL_TRIALS),
                n(KILL_MAX_BYTES).max(4096),
                &mut rng,
            )
        })?;
        println!("kill -9 during changes of 1 KB to 20 MB: {report}");
    }
    several_files(&bin, &base, &wanted, &n, &mut rng)?;
    if wanted("node") {
        across_hosts(&bin, &node_session, &base, &n, &mut rng)?;
    }
    if wanted("fuzz") {
        let dir = fresh_dir(&base, "fuzz")?;
        let report = timed(|| fuzz::cli(&bin, &dir, n(FUZZ_LINES), n(FUZZ_LONG_LINE), &mut rng))?;
        println!("protocol fuzz (one line of 400 MiB among them): {report}");
    }
    if wanted("cache") {
        let dir = fresh_dir(&base, "cache")?;
        let report = timed(|| cache::cli(&bin, &dir, n(CACHE_TRIALS), &mut rng))?;
        println!("damaged precompiled component: {report}");
    }
    if wanted("hostile") {
        let dir = fresh_dir(&base, "hostile")?;
        let counts = Counts {
            flips: n(IMAGE_FLIPS),
            pdf_flips: n(PDF_FLIPS),
            garbage_bytes: usize::try_from(n(GARBAGE_BYTES))?,
            large_images: true,
        };
        let report = timed(|| hostile::cli(&bin, &dir, counts, &mut rng))?;
        println!("hostile files, each followed by an edit of a file read before:\n{report}");
    }
    if wanted("roots") {
        let dir = fresh_dir(&base, "roots")?;
        let report = timed(|| roots::cli(&bin, &dir))?;
        println!("root and path spellings: {report}");
    }
    Ok(())
}

/// The scenarios of changes of several files: kills and deadlines.
fn several_files(
    bin: &Path,
    base: &Path,
    wanted: &impl Fn(&str) -> bool,
    n: &impl Fn(u64) -> u64,
    rng: &mut Rng,
) -> Result<()> {
    if wanted("together") {
        let dir = fresh_dir(base, "kill-together")?;
        let report = timed(|| {
            kill_together::cli(
                bin,
                &dir,
                n(KILL_TOGETHER_TRIALS),
                n(KILL_MAX_BYTES).max(4096),
                rng,
            )
        })?;
        println!("kill -9 during changes of several files of 1 KB to 20 MB:\n{report}");
    }
    if wanted("deadline") {
        let dir = fresh_dir(base, "deadline")?;
        let state = fresh_dir(base, "deadline-state")?;
        let report = timed(|| deadline::sweep(&dir, &state, n(DEADLINE_RUNS)))?;
        println!("deadlines swept across a patch: {report}");
    }
    Ok(())
}

/// Changes of several files cut off in one host and put back by another:
/// fails when any file is left mixed or torn, or a recovery goes unsaid.
fn across_hosts(
    bin: &Path,
    node_session: &Path,
    base: &Path,
    n: &impl Fn(u64) -> u64,
    rng: &mut Rng,
) -> Result<()> {
    let (cli, node) = (Runner::Cli(bin), Runner::Node(node_session));
    let pairs = [
        (node, node, n(NODE_TOGETHER_TRIALS)),
        (node, cli, n(NODE_TOGETHER_TRIALS)),
        (cli, node, n(NODE_TOGETHER_TRIALS / 2)),
    ];
    let mut failures = 0;
    for (maker, next, trials) in pairs {
        let dir = fresh_dir(base, "kill-across")?;
        let report = timed(|| {
            kill_together::across(maker, next, &dir, trials, n(KILL_MAX_BYTES).max(4096), rng)
        })?;
        println!(
            "kill -9 during changes of several files of 1 KB to 20 MB made by {maker}, next call by {next}:\n{report}"
        );
        failures += report.failures();
    }
    if failures > 0 {
        bail!("{failures} files left mixed or torn, or recoveries unsaid, across hosts");
    }
    Ok(())
}

/// Runs `scenario`, printing how long it took.
fn timed<T>(scenario: impl FnOnce() -> Result<T>) -> Result<T> {
    let started = Instant::now();
    let out = scenario();
    print!("[{:.1} s] ", started.elapsed().as_secs_f64());
    out
}
