//! `cargo xtask bench`: the numbers the foundation promises (docs/performance.md,
//! "Benchmarks"), measured in one run and printed as a table.
//!
//! - per-call time of a 100 KB read, wasmtime host vs native core (ratio);
//! - per-call time of an edit of that file (load, hash, match, atomic write);
//! - session creation time;
//! - a long session ([`long`]): 100,000 calls creating 30,000 files, the
//!   per-call median of its first and last tenth, and its memory;
//! - `Tools::build` when compiling vs when loading the precompiled component;
//! - round trip of one read through `filetools mcp` vs `filetools session`
//!   (the release CLI beside this binary);
//! - time and peak memory (VmHWM) to read 50 lines of a generated 1 GiB file,
//!   measured in a child process so nothing else counts towards its peak;
//! - the performance table ([`targets`]): every figure an agent waits on,
//!   beside its reference, with the ratio and the target;
//! - a moving world ([`moving`]): files changed between read and edit by a
//!   formatter or by other agents, now and as answered before;
//! - `filetools serve` ([`serve`]): HTTP with sessions in Redis against
//!   stdio, memory per session, the stored log's size;
//! - the Python package ([`python`]): a read through Python vs the Rust
//!   host, and `import filetools` plus a first read in a fresh interpreter.

mod edges;
mod list_dir;
mod long;
mod moving;
mod new_file;
mod python;
mod search;
mod serve;
mod targets;

use std::fmt::Write as _;
use std::fs;
use std::hint::black_box;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use filetools::{Sandbox, Tools};
use filetools_core::{Config, Session};
use filetools_tests::cli::{McpClient, SessionProcess};

/// Calls per timed loop.
const CALLS: u32 = 1000;
/// Size of the per-call file.
const CALL_FILE_BYTES: usize = 100 * 1024;
/// Size of the big file.
const BIG_FILE_BYTES: u64 = 1 << 30;

/// glibc settings for this process: no heap trimming after every call, and
/// no mapping of its own for each large block. The component's linear memory
/// is kept from call to call; without these the native core alone would give
/// its memory back after every read and fault it in again (about 60 page
/// faults per 100 KB read), and the ratio would measure that, not the hosts.
const GLIBC_TUNABLES: &str =
    "glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=268435456";

/// A part of the benchmark run alone by its flag; none for another flag.
fn part_alone(flag: &str) -> Option<Result<()>> {
    let in_dir = |run: fn(&Path) -> Result<()>| {
        let dir = bench_dir();
        fs::create_dir_all(&dir)?;
        run(&dir)
    };
    Some(match flag {
        // The moving-world runs.
        "--moving" => in_dir(moving::run),
        // `filetools serve`.
        "--serve" => in_dir(serve::run),
        // The rows around a read (see `edges`).
        "--edges" => in_dir(|dir| {
            targets::print(&edges::rows(dir)?);
            Ok(())
        }),
        // The edit and patch rows alone.
        "--changes" => in_dir(|dir| {
            targets::print(&edges::change_rows(dir)?);
            Ok(())
        }),
        // The one-shot read's row alone.
        "--one-shot" => in_dir(|dir| {
            targets::print(&edges::one_shot_alone(dir)?);
            Ok(())
        }),
        // The new-file row.
        "--new-file" => in_dir(|dir| {
            targets::print(&new_file::rows(dir)?);
            Ok(())
        }),
        // The `list_directory` row.
        "--list-dir" => in_dir(|dir| {
            targets::print(&list_dir::rows(dir)?);
            Ok(())
        }),
        // The search rows.
        "--search" => search::rows().map(|rows| targets::print(&rows)),
        // The Python package.
        "--python" => in_dir(python::run),
        // What the two precondition digests cost per MB.
        "--digests" => edges::digest_costs(),
        _ => return None,
    })
}

fn main() -> Result<()> {
    if std::env::var_os("GLIBC_TUNABLES").is_none() {
        // glibc reads its tunables at start-up: run again with them.
        let status = Command::new(std::env::current_exe()?)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", GLIBC_TUNABLES)
            .status()?;
        if !status.success() {
            bail!("the benchmark failed: {status}");
        }
        return Ok(());
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, root] = args.as_slice()
        && flag == "--child-read"
    {
        return child_read(Path::new(root));
    }
    if let [flag, root] = args.as_slice()
        && flag == "--child-first-page"
    {
        return child_first_page(Path::new(root));
    }
    if let [flag, calls, files] = args.as_slice()
        && flag == "--long"
    {
        // The long session alone, at a chosen length.
        let dir = bench_dir();
        fs::create_dir_all(&dir)?;
        return long::run(&dir, calls.parse()?, files.parse()?);
    }
    if let [flag] = args.as_slice()
        && let Some(done) = part_alone(flag)
    {
        return done;
    }
    if let [flag, calls] = args.as_slice()
        && (flag == "--edit-loop" || flag == "--patch-loop")
    {
        // Profiling aids: the 1 MB edit or the 20-file patch, `calls` times.
        let dir = bench_dir();
        fs::create_dir_all(&dir)?;
        return if flag == "--edit-loop" {
            edges::edit_loop(&dir, calls.parse()?)
        } else {
            edges::patch_loop(&dir, calls.parse()?)
        };
    }
    if let [flag, calls] = args.as_slice()
        && flag == "--native-loop"
    {
        // A profiling aid: only the native 100 KB read, `calls` times.
        return read_loop(&bench_dir(), calls.parse()?, false);
    }
    if let [flag, calls] = args.as_slice()
        && flag == "--wasm-loop"
    {
        // The same read in the wasmtime host, for profiling the component.
        return read_loop(&bench_dir(), calls.parse()?, true);
    }
    let dir = bench_dir();
    fs::create_dir_all(&dir)?;
    println!("filetools benchmark (best median of {ROUNDS} rounds of {CALLS} calls per host)");
    println!(
        "GLIBC_TUNABLES={}\n",
        std::env::var("GLIBC_TUNABLES").unwrap_or_default()
    );
    let wasm_ratio = per_call(&dir)?;
    if args.first().is_some_and(|a| a == "--targets") {
        big_file(&dir)?;
        return targets::run(&dir, &dir.join("big"), wasm_ratio);
    }
    edits(&dir)?;
    session_memory(&dir)?;
    image(&dir)?;
    sessions(&dir)?;
    long::run(&dir, long::CALLS, long::FILES)?;
    build_times(&dir)?;
    protocols(&dir)?;
    big_file(&dir)?;
    moving::run(&dir)?;
    serve::run(&dir)?;
    python::run(&dir)?;
    targets::run(&dir, &dir.join("big"), wasm_ratio)
}

fn bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench")
}

/// The 100 KB read `calls` times in one host, for a profiler.
fn read_loop(dir: &Path, calls: u32, wasm: bool) -> Result<()> {
    let root = call_file(dir)?;
    let args = r#"{"file_path": "file.txt"}"#;
    if wasm {
        let mut session = wasm_session(&root)?;
        (0..calls).for_each(|_| drop(black_box(session.call("read", args))));
    } else {
        let mut session = native_session(&root)?;
        (0..calls).for_each(|_| drop(black_box(session.call("read", args))));
    }
    Ok(())
}

/// The session config of the per-call benchmarks: dedup off, so every read
/// of the same file shows it again.
const BENCH_CONFIG: &str = r#"{"dedup": false, "outline": false}"#;

fn bench_config(root: &Path) -> Result<Config> {
    Ok(Config {
        root: root.canonicalize()?.to_string_lossy().into_owned(),
        ..Config::from_json(BENCH_CONFIG).map_err(anyhow::Error::msg)?
    })
}

/// The native core over the sandbox of `root`, dedup off.
fn native_session(root: &Path) -> Result<Session<Sandbox>> {
    Ok(Session::new(
        bench_config(root)?,
        Sandbox::open(root, false)?,
    ))
}

/// A wasmtime session over `root`, dedup off.
fn wasm_session(root: &Path) -> Result<filetools::Session> {
    Tools::builder()
        .root(root)
        .config_json(BENCH_CONFIG)?
        .build()?
        .session()
}

/// Writes the 100 KB file of the per-call benchmark; returns its folder.
fn call_file(dir: &Path) -> Result<PathBuf> {
    call_file_in(&dir.join("per-call"))
}

fn call_file_in(root: &Path) -> Result<PathBuf> {
    let root = root.to_path_buf();
    fs::create_dir_all(&root)?;
    let mut text = String::new();
    let mut n = 0;
    while text.len() < CALL_FILE_BYTES {
        n += 1;
        let _ = writeln!(
            text,
            "{n:>6}: the quick brown fox jumps over the lazy dog, again and again"
        );
    }
    text.truncate(CALL_FILE_BYTES);
    fs::write(root.join("file.txt"), &text)?;
    Ok(root)
}

/// The 100 KB read in both hosts; returns the wasmtime/native ratio.
fn per_call(dir: &Path) -> Result<f64> {
    let root = call_file(dir)?;
    let args = r#"{"file_path": "file.txt"}"#;

    let mut native = native_session(&root)?;
    let mut wasm = wasm_session(&root)?;
    let native_out = native.call("read", args);
    let wasm_out = wasm.call("read", args);
    if wasm_out.text() != native_out.text() {
        bail!("the wasmtime host and the native core disagree on the benchmark read");
    }
    // Alternate the two so that drift in the machine's speed hits both alike.
    let (native_time, wasm_time) = time_pair(
        || {
            black_box(native.call("read", args));
        },
        || {
            black_box(wasm.call("read", args));
        },
    );
    println!(
        "read of a {} KB file ({} bytes of output)",
        CALL_FILE_BYTES / 1024,
        wasm_out.text().len()
    );
    println!("  native core        {:>10}", show(native_time));
    println!("  wasmtime host      {:>10}", show(wasm_time));
    let ratio = wasm_time.as_secs_f64() / native_time.as_secs_f64();
    println!("  ratio              {ratio:>9.2}x  (target: within 1.3x)\n");
    Ok(ratio)
}

/// An edit that toggles one line of the 100 KB file back and forth, each
/// host on its own copy; every call loads, hashes and matches the file and
/// writes it atomically (temp file, fsync, rename).
fn edits(dir: &Path) -> Result<()> {
    let forth = r#"{"file_path": "file.txt", "old_string": "   500: the quick", "new_string": "   500: the QUICK"}"#;
    let back = r#"{"file_path": "file.txt", "old_string": "   500: the QUICK", "new_string": "   500: the quick"}"#;
    let native_root = call_file_in(&dir.join("edit-native"))?;
    let wasm_root = call_file_in(&dir.join("edit-wasm"))?;
    let mut native = native_session(&native_root)?;
    let mut wasm = wasm_session(&wasm_root)?;
    native.call("read", r#"{"file_path": "file.txt", "limit": 1}"#);
    wasm.call("read", r#"{"file_path": "file.txt", "limit": 1}"#);
    let toggle = |session: &mut dyn FnMut(&str) -> filetools::ToolResult, flip: &mut bool| {
        *flip = !*flip;
        let result = session(if *flip { forth } else { back });
        assert!(!result.is_error, "{}", result.text());
        black_box(result);
    };
    let (mut native_flip, mut wasm_flip) = (false, false);
    let (native_time, wasm_time) = time_pair(
        || toggle(&mut |args| native.call("edit", args), &mut native_flip),
        || toggle(&mut |args| wasm.call("edit", args), &mut wasm_flip),
    );
    println!("edit of one line of the {} KB file", CALL_FILE_BYTES / 1024);
    println!("  native core        {:>10}", show(native_time));
    println!("  wasmtime host      {:>10}", show(wasm_time));
    println!(
        "  ratio              {:>9.2}x\n",
        wasm_time.as_secs_f64() / native_time.as_secs_f64()
    );
    Ok(())
}

/// Files read before the large-ledger case of [`session_memory`].
const LEDGER_FILES: usize = 1000;
/// 100 KB files edited twice each before the full-history case: more than
/// the history's default 8 MiB of versions.
const HISTORY_FILES: usize = 48;

/// What keeping the session's memory after each call costs in the wasmtime
/// host: the checkpoint's share of a 100 KB read, of the same read after
/// 1,000 other files were read, and of a one-line edit once the history
/// holds its default maximum of versions. Each figure is the median of
/// [`CALLS`] calls; the spread is the range of [`ROUNDS`] rounds' medians.
fn session_memory(dir: &Path) -> Result<()> {
    let root = call_file_in(&dir.join("memory"))?;
    let text = fs::read_to_string(root.join("file.txt"))?;
    for i in 0..LEDGER_FILES {
        fs::write(
            root.join(format!("small-{i:04}.txt")),
            format!("file {i}\n"),
        )?;
    }
    for i in 0..HISTORY_FILES {
        fs::write(root.join(format!("large-{i:02}.txt")), &text)?;
    }
    let read = r#"{"file_path": "file.txt"}"#;
    let forth = r#"{"file_path": "file.txt", "old_string": "   500: the quick", "new_string": "   500: the QUICK"}"#;
    let back = r#"{"file_path": "file.txt", "old_string": "   500: the QUICK", "new_string": "   500: the quick"}"#;
    println!(
        "keeping the session's memory after each call (wasmtime host; median of {CALLS} calls, range of {ROUNDS} rounds)"
    );
    println!(
        "  {:<34} {:>10} {:>22} {:>10}",
        "", "call", "checkpoint", "carried"
    );

    let mut session = wasm_session(&root)?;
    checkpoint_costs("100 KB read, new session", &mut session, |s| {
        s.call("read", read)
    })?;
    for i in 0..LEDGER_FILES {
        session.call("read", &format!(r#"{{"file_path": "small-{i:04}.txt"}}"#));
    }
    checkpoint_costs("same, 1,000 files read", &mut session, |s| {
        s.call("read", read)
    })?;
    for i in 0..HISTORY_FILES {
        let file = format!("large-{i:02}.txt");
        session.call("read", &format!(r#"{{"file_path": "{file}", "limit": 1}}"#));
        for (old, new) in [("the quick", "the QUICK"), ("the QUICK", "the quick")] {
            let edit = serde_json::json!({
                "file_path": file, "old_string": format!("   500: {old}"),
                "new_string": format!("   500: {new}"),
            });
            let result = session.call("edit", &edit.to_string());
            if result.is_error {
                bail!("filling the history: {}", result.text());
            }
        }
    }
    let mut flip = false;
    checkpoint_costs("one-line edit, full history", &mut session, |s| {
        flip = !flip;
        s.call("edit", if flip { forth } else { back })
    })?;
    println!();
    Ok(())
}

/// Prints the median call time, checkpoint time and bytes carried of
/// `call` on `session`, with the range of the rounds' medians.
fn checkpoint_costs(
    label: &str,
    session: &mut filetools::Session,
    mut call: impl FnMut(&mut filetools::Session) -> filetools::ToolResult,
) -> Result<()> {
    let mut rounds = Vec::new();
    for _ in 0..ROUNDS {
        let (mut calls, mut kept, mut carried) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..CALLS {
            let started = Instant::now();
            let result = call(session);
            calls.push(started.elapsed());
            if result.is_error {
                bail!("{label}: {}", result.text());
            }
            let cost = session
                .last_checkpoint()
                .context("no checkpoint was taken")?;
            kept.push(cost.time);
            carried.push(cost.bytes);
        }
        carried.sort_unstable();
        rounds.push((median(calls), median(kept), carried[carried.len() / 2]));
    }
    let range = |pick: fn(&(Duration, Duration, usize)) -> Duration| {
        let values: Vec<Duration> = rounds.iter().map(pick).collect();
        let (low, high) = (values.iter().min().copied(), values.iter().max().copied());
        (low.unwrap_or_default(), high.unwrap_or_default())
    };
    let (call_low, call_high) = range(|r| r.0);
    let (kept_low, kept_high) = range(|r| r.1);
    let middle = median(rounds.iter().map(|r| r.1).collect());
    let share = middle.as_secs_f64() / median(rounds.iter().map(|r| r.0).collect()).as_secs_f64();
    println!(
        "  {label:<34} {:>10} {:>10} ({:>4.1}%) {:>8} B   call {}–{}, checkpoint {}–{}",
        show(median(rounds.iter().map(|r| r.0).collect())),
        show(middle),
        share * 100.0,
        rounds[0].2,
        show(call_low),
        show(call_high),
        show(kept_low),
        show(kept_high),
    );
    Ok(())
}

/// Calls per host when timing the image.
const IMAGE_CALLS: usize = 5;

/// A 4000x3000 PNG turned into the image the model gets (decode, downscale,
/// JPEG encode), native core vs wasmtime host.
fn image(dir: &Path) -> Result<()> {
    let root = dir.join("image");
    fs::create_dir_all(&root)?;
    let spec = filetools_tests::images::ImageSpec {
        format: "png".into(),
        width: 4000,
        height: 3000,
        orientation: None,
    };
    fs::write(root.join("photo.png"), spec.draw()?)?;
    let args = r#"{"file_path": "photo.png"}"#;
    let mut native = native_session(&root)?;
    let mut wasm = wasm_session(&root)?;
    let shown = wasm.call("read", args);
    if shown.text() != native.call("read", args).text() {
        bail!("the hosts disagree on the image");
    }
    let mut native_times = Vec::new();
    let mut wasm_times = Vec::new();
    for _ in 0..IMAGE_CALLS {
        let started = Instant::now();
        black_box(native.call("read", args));
        native_times.push(started.elapsed());
        let started = Instant::now();
        black_box(wasm.call("read", args));
        wasm_times.push(started.elapsed());
    }
    let (native_time, wasm_time) = (median(native_times), median(wasm_times));
    println!("4000x3000 PNG to the model's image (median of {IMAGE_CALLS})");
    println!("  {}", shown.text());
    println!("  native core        {:>10}", show(native_time));
    println!("  wasmtime host      {:>10}", show(wasm_time));
    println!(
        "  ratio              {:>9.2}x\n",
        wasm_time.as_secs_f64() / native_time.as_secs_f64()
    );
    Ok(())
}

/// Rounds of [`time_pair`]: the machine's noise only ever slows a round
/// down, so each side's best round is taken.
const ROUNDS: usize = 3;

/// Medians of `a` and `b`, timed alternately after a warm-up; the best of
/// [`ROUNDS`] rounds of [`CALLS`] each.
fn time_pair(mut a: impl FnMut(), mut b: impl FnMut()) -> (Duration, Duration) {
    for _ in 0..CALLS / 10 {
        a();
        b();
    }
    let mut best = (Duration::MAX, Duration::MAX);
    for _ in 0..ROUNDS {
        let mut times_a = Vec::new();
        let mut times_b = Vec::new();
        for _ in 0..CALLS {
            let started = Instant::now();
            a();
            times_a.push(started.elapsed());
            let started = Instant::now();
            b();
            times_b.push(started.elapsed());
        }
        best.0 = best.0.min(median(times_a));
        best.1 = best.1.min(median(times_b));
    }
    best
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time_calls(mut call: impl FnMut()) -> Duration {
    for _ in 0..CALLS / 10 {
        call();
    }
    let samples: Vec<Duration> = (0..CALLS)
        .map(|_| {
            let started = Instant::now();
            call();
            started.elapsed()
        })
        .collect();
    median(samples)
}

fn sessions(dir: &Path) -> Result<()> {
    let tools = Tools::builder().root(dir).build()?;
    let time = time_calls(|| {
        black_box(tools.session().expect("session"));
    });
    println!("session creation (median)  {:>10}\n", show(time));
    Ok(())
}

fn build_times(dir: &Path) -> Result<()> {
    // The cache may not lie inside the root: the model could write it.
    let root = dir.join("build-root");
    let cache = dir.join("cache");
    fs::create_dir_all(&root)?;
    let _ = fs::remove_dir_all(&cache);
    let started = Instant::now();
    let compiled = Tools::builder().root(&root).no_cache().build()?;
    let compile = started.elapsed();
    drop(compiled);
    Tools::builder().root(&root).cache_dir(&cache).build()?;
    let mut loads = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let tools = Tools::builder().root(&root).cache_dir(&cache).build()?;
        loads.push(started.elapsed());
        if tools.load_source() != filetools::LoadSource::Cached {
            bail!("the precompiled component was not loaded from the cache");
        }
    }
    let load = median(loads);
    println!("Tools::build, including one session");
    println!("  compiling the component  {:>10}", show(compile));
    println!("  precompiled (median)     {:>10}", show(load));
    println!(
        "  ratio                    {:>9.0}x\n",
        compile.as_secs_f64() / load.as_secs_f64()
    );
    Ok(())
}

fn big_file(dir: &Path) -> Result<()> {
    let root = dir.join("big");
    fs::create_dir_all(&root)?;
    let path = root.join("huge.log");
    if fs::metadata(&path).map_or(0, |m| m.len()) != BIG_FILE_BYTES {
        let started = Instant::now();
        write_big_file(&path)?;
        println!("(generated a 1 GiB file in {})", show(started.elapsed()));
    }
    let exe = std::env::current_exe()?;
    let output = Command::new(exe).arg("--child-read").arg(&root).output()?;
    if !output.status.success() {
        bail!(
            "child read failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    print!("{}", String::from_utf8_lossy(&output.stdout));
    Ok(())
}

fn write_big_file(path: &Path) -> Result<()> {
    let mut out = BufWriter::with_capacity(1 << 20, fs::File::create(path)?);
    let mut written: u64 = 0;
    let mut n: u64 = 0;
    while written < BIG_FILE_BYTES {
        n += 1;
        let mut line = format!(
            "2026-11-29T10:00:00Z worker-{} request {n} finished with status 200 in 12ms\n",
            n % 16
        );
        let left = usize::try_from(BIG_FILE_BYTES - written).unwrap_or(usize::MAX);
        line.truncate(left);
        out.write_all(line.as_bytes())?;
        written += line.len() as u64;
    }
    out.flush()?;
    Ok(())
}

/// Round trip of one read, small and 100 KB, through `filetools mcp`
/// (JSON-RPC over stdio) against `filetools session` (JSON lines), both
/// the release CLI next to this binary, timed alternately.
fn protocols(dir: &Path) -> Result<()> {
    let bin = std::env::current_exe()?.with_file_name("filetools");
    if !bin.is_file() {
        bail!(
            "{} is missing: build it with `cargo build --release -p agent-filetools`",
            bin.display()
        );
    }
    let root = call_file(dir)?;
    fs::write(root.join("small.txt"), "one\ntwo\nthree\n")?;
    let config = ["--config", BENCH_CONFIG];
    let mut session = SessionProcess::start(&bin, &root, &config)?;
    let (mut mcp, _) = McpClient::start(&bin, &root, &config, "2025-06-18")?;
    println!("round trip of one read over stdio (release CLI)");
    for (label, file) in [("3-line file", "small.txt"), ("100 KB file", "file.txt")] {
        let args = serde_json::json!({ "file_path": file });
        let lines = session.call("read", &args)?;
        let rpc = mcp.call("read", &args)?;
        if lines["content"] != rpc["content"] {
            bail!("filetools mcp and filetools session disagree on {file}");
        }
        let (lines_time, rpc_time) = time_pair(
            || {
                black_box(session.call("read", &args).expect("session read"));
            },
            || {
                black_box(mcp.call("read", &args).expect("mcp read"));
            },
        );
        println!(
            "  {label}: session {:>10}   mcp {:>10}   ratio {:.2}x",
            show(lines_time),
            show(rpc_time),
            rpc_time.as_secs_f64() / lines_time.as_secs_f64()
        );
    }
    println!();
    Ok(())
}

/// Runs in a fresh process: build the tools (precompiled), read 50 lines of
/// the 1 GiB file, report the time and the process's peak resident memory.
fn child_read(root: &Path) -> Result<()> {
    let started = Instant::now();
    let tools = Tools::builder().root(root).build()?;
    let mut session = tools.session()?;
    let ready = started.elapsed();
    let started = Instant::now();
    let result = session.call("read", r#"{"file_path": "huge.log", "limit": 50}"#);
    let read = started.elapsed();
    if result.is_error || result.metadata["lines_shown"] != 50 {
        bail!("unexpected result: {}", result.text());
    }
    let footer = result.text().lines().last().unwrap_or_default().to_owned();
    let started = Instant::now();
    let deep = session.call(
        "read",
        r#"{"file_path": "huge.log", "offset": 10000000, "limit": 50}"#,
    );
    let deep_time = started.elapsed();
    let deep_footer = deep.text().lines().last().unwrap_or_default().to_owned();
    let peak_read = peak_rss_kib().context("reading /proc/self/status")?;
    // The whole file searched, streamed through the component a chunk at a
    // time: the peak must not move by the file's size.
    let started = Instant::now();
    let grep = session.call(
        "grep",
        r#"{"pattern": "request 99999\\b", "path": "huge.log", "output_mode": "count"}"#,
    );
    let grep_time = started.elapsed();
    if grep.is_error {
        bail!("grep of the 1 GiB file: {}", grep.text());
    }
    let grep_footer = grep.text().lines().next().unwrap_or_default().to_owned();
    let peak = peak_rss_kib().context("reading /proc/self/status")?;
    println!("50 lines of a 1 GiB file (fresh process, precompiled component)");
    println!("  tools + session ready    {:>10}", show(ready));
    println!("  read, limit 50           {:>10}   {footer}", show(read));
    println!(
        "  read at line 10,000,000  {:>10}   {deep_footer}",
        show(deep_time)
    );
    println!(
        "  peak memory (VmHWM)      {:>7} MB  (target: well under 100 MB)",
        peak_read / 1024
    );
    println!(
        "  grep count, whole file   {:>10}   {grep_footer}",
        show(grep_time)
    );
    println!(
        "  peak memory after grep   {:>7} MB  (streamed: the file is 1024 MB)",
        peak / 1024
    );
    Ok(())
}

/// Runs in a fresh process: the time of a first read of 50 lines of the
/// 1 GiB file and the process's peak memory, as JSON (the wasmtime host's
/// side of the npm row of the performance table).
fn child_first_page(root: &Path) -> Result<()> {
    let mut session = Tools::builder().root(root).build()?.session()?;
    let started = Instant::now();
    let result = session.call("read", r#"{"file_path": "huge.log", "limit": 50}"#);
    let read = started.elapsed();
    if result.is_error {
        bail!("{}", result.text());
    }
    let peak = peak_rss_kib().context("reading /proc/self/status")?;
    println!(
        "{}",
        serde_json::json!({ "read_ms": read.as_secs_f64() * 1e3, "peak_kib": peak })
    );
    Ok(())
}

fn peak_rss_kib() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn show(d: Duration) -> String {
    let micros = d.as_secs_f64() * 1e6;
    if micros < 1000.0 {
        format!("{micros:.1} µs")
    } else if micros < 1e6 {
        format!("{:.2} ms", micros / 1000.0)
    } else {
        format!("{:.2} s", micros / 1e6)
    }
}

/// A byte count: `229 KB`, `2.5 MB`.
#[expect(clippy::cast_precision_loss, reason = "file sizes far below 2^52")]
fn size(bytes: u64) -> String {
    if bytes >= 1_000_000 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else {
        format!("{} KB", bytes / 1000)
    }
}
