//! `filetools serve` beside `filetools mcp` (both the release CLI next to
//! this binary), in one run:
//!
//! - the latency of a read and of an edit over HTTP, sessions in a real
//!   `redis-server`, against the same calls over stdio, alternately, with
//!   p50 and p99 of each;
//! - the server's resident memory with 1, 100 and 1,000 sessions in
//!   memory, and with as many let go (idle past `--idle`), per session;
//! - the stored state log's size after 10, 100 and 1,000 calls.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use filetools::serve::SessionStore as _;
use filetools::serve::store::RedisStore;
use filetools_tests::cli::McpClient;
use filetools_tests::http::{Connection, ServeProcess};
use filetools_tests::redis::RedisServer;
use serde_json::{Value, json};

/// Calls timed per kind and transport.
const LATENCY_CALLS: usize = 400;
/// Session counts whose memory is measured.
const SESSION_COUNTS: [usize; 3] = [1, 100, 1000];
/// Call counts after which the stored log is measured.
const LOG_CALLS: [usize; 3] = [10, 100, 1000];
/// Files the calls spread over.
const FILES: usize = 20;
/// Lines per file.
const FILE_LINES: usize = 100;
/// `--idle` when sessions are to be let go, in seconds.
const IDLE_SECONDS: u64 = 1;
/// Long enough for every idle session to be let go.
const EVICTION_WAIT: Duration = Duration::from_secs(3);

const TOKEN: &str = "bench-token-0123456789";

pub fn run(dir: &Path) -> Result<()> {
    let bin = std::env::current_exe()?.with_file_name("filetools");
    if !bin.is_file() {
        bail!(
            "{} is missing: build it with `cargo build --release -p agent-filetools`",
            bin.display()
        );
    }
    let Some(redis) = RedisServer::start() else {
        bail!("redis-server is missing: run `cargo xtask setup`");
    };
    let root = files(&dir.join("serve"))?;
    println!(
        "filetools serve (Streamable HTTP, sessions in redis-server) vs filetools mcp (stdio)"
    );
    // Redis, then the store in the server's own memory: the share of the
    // store's round trips.
    for (label, store) in [
        ("HTTP + Redis", redis.url()),
        ("HTTP + memory", "memory".to_owned()),
    ] {
        latency(
            &bin,
            &files(&root)?,
            &files(&dir.join("serve-stdio"))?,
            label,
            &store,
        )?;
    }
    memory(&bin, &root, &redis)?;
    workspaces(&bin, dir)?;
    log_sizes(&bin, &root, &redis)?;
    println!();
    Ok(())
}

/// [`FILES`] files of [`FILE_LINES`] lines in `root`, made anew.
fn files(root: &Path) -> Result<std::path::PathBuf> {
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(root)?;
    for f in 0..FILES {
        let mut text = String::new();
        for i in 0..FILE_LINES {
            let _ = writeln!(text, "line {i} of file {f}: some words to read");
        }
        std::fs::write(root.join(format!("f{f}.txt")), text)?;
    }
    Ok(root.to_owned())
}

fn replica(bin: &Path, root: &Path, store: &str, extra: &[&str]) -> Result<ServeProcess> {
    let root = root.to_str().context("a UTF-8 path")?;
    let mut args = vec!["--root", root, "--store", store];
    args.extend_from_slice(extra);
    ServeProcess::start(bin, &args, &[("FILETOOLS_TOKEN", TOKEN)])
}

const AUTH: (&str, &str) = ("authorization", "Bearer bench-token-0123456789");

/// The `i`th call of a kind: reads over every file and range, and edits
/// that flip one line back and forth (file `FILES - 1`, read first).
fn call_args(kind: &str, i: usize) -> Value {
    if kind == "read" {
        return json!({"file_path": format!("f{}.txt", i % (FILES - 1)), "offset": 1 + i % 60, "limit": 20});
    }
    let (old, new) = if i.is_multiple_of(2) {
        ("line 7 of", "LINE 7 of")
    } else {
        ("LINE 7 of", "line 7 of")
    };
    json!({"file_path": format!("f{}.txt", FILES - 1), "old_string": old, "new_string": new})
}

/// A new session on `http`, by a read of the file the edits change: its
/// handle.
fn open_session(http: &mut Connection) -> Result<String> {
    let args = json!({"file_path": format!("f{}.txt", FILES - 1)});
    let first = http.call("/mcp", &[AUTH], "read", &args)?;
    Ok(first["_meta"]["filetools/session"]
        .as_str()
        .context("no handle")?
        .to_owned())
}

/// The `per_mille`th of a thousand of `samples`, sorted.
fn percentile(samples: &mut [Duration], per_mille: usize) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) * per_mille / 1000).min(samples.len() - 1)]
}

/// The same calls over HTTP (files in `root`) and over stdio (a copy in
/// `stdio_root`), one after the other.
fn latency(bin: &Path, root: &Path, stdio_root: &Path, label: &str, store: &str) -> Result<()> {
    let server = replica(bin, root, store, &[])?;
    let mut http = Connection::open(&server.address)?;
    let (mut stdio, _) = McpClient::start(bin, stdio_root, &[], "2025-06-18")?;
    let handle = open_session(&mut http)?;
    stdio.call("read", &json!({"file_path": format!("f{}.txt", FILES - 1)}))?;
    for kind in ["read", "edit"] {
        let (mut over_http, mut over_stdio) = (Vec::new(), Vec::new());
        for i in 0..LATENCY_CALLS {
            let mut args = call_args(kind, i);
            let started = Instant::now();
            let answer = stdio.call(kind, &args)?;
            over_stdio.push(started.elapsed());
            args["session"] = json!(handle);
            let started = Instant::now();
            let served = http.call("/mcp", &[AUTH], kind, &args)?;
            over_http.push(started.elapsed());
            if answer["isError"] == true || served["isError"] == true {
                bail!("a {kind} failed: {answer} / {served}");
            }
        }
        let (h50, s50) = (
            percentile(&mut over_http, 500),
            percentile(&mut over_stdio, 500),
        );
        let (h99, s99) = (
            percentile(&mut over_http, 990),
            percentile(&mut over_stdio, 990),
        );
        println!(
            "  {kind}: {label} p50 {:>6.0} µs p99 {:>6.0} µs | stdio p50 {:>6.0} µs p99 {:>6.0} µs | p50 ratio {:.2}x (target ≤ 1.5x)",
            micros(h50),
            micros(h99),
            micros(s50),
            micros(s99),
            h50.as_secs_f64() / s50.as_secs_f64()
        );
    }
    Ok(())
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// The resident memory of `pid`, in bytes.
fn rss(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .context("no VmRSS")?;
    Ok(kib * 1024)
}

/// Opens `count` sessions on `server` (one read each); the server's RSS.
fn open_sessions(server: &ServeProcess, count: usize) -> Result<u64> {
    let mut http = Connection::open(&server.address)?;
    for i in 0..count {
        let answer = http.call("/mcp", &[AUTH], "read", &call_args("read", i))?;
        if answer["isError"] == true {
            bail!("a read failed: {answer}");
        }
    }
    rss(server.child.id())
}

fn mib(bytes: f64) -> f64 {
    bytes / f64::from(1 << 20)
}

#[expect(clippy::cast_precision_loss, reason = "memory sizes far below 2^52")]
fn memory(bin: &Path, root: &Path, redis: &RedisServer) -> Result<()> {
    let url = redis.url();
    let mut resident = Vec::new();
    let mut evicted = Vec::new();
    for count in SESSION_COUNTS {
        let server = replica(bin, root, &url, &["--idle", "3600", "--resident", "100000"])?;
        resident.push(open_sessions(&server, count)?);
        let server = replica(bin, root, &url, &["--idle", &IDLE_SECONDS.to_string()])?;
        open_sessions(&server, count)?;
        std::thread::sleep(EVICTION_WAIT);
        evicted.push(rss(server.child.id())?);
    }
    let per =
        |rss: &[u64], i: usize| (rss[i] as f64 - rss[0] as f64) / (SESSION_COUNTS[i] - 1) as f64;
    for (i, count) in SESSION_COUNTS.iter().enumerate() {
        let (r, e) = (mib(resident[i] as f64), mib(evicted[i] as f64));
        if i == 0 {
            println!("  memory, {count} session: resident {r:.1} MiB | let go {e:.1} MiB");
        } else {
            println!(
                "  memory, {count} sessions: resident {r:.1} MiB ({:.2} MiB each beyond the first; target ≤ 2) | let go {e:.1} MiB ({:.1} KiB each; target ≤ 64)",
                mib(per(&resident, i)),
                per(&evicted, i) / 1024.0
            );
        }
    }
    Ok(())
}

/// Workspaces served by one process in [`workspaces`].
const WORKSPACES: usize = 20;

/// The server's memory with one workspace in use, and with
/// [`WORKSPACES`]: what each more costs.
#[expect(clippy::cast_precision_loss, reason = "memory sizes far below 2^52")]
fn workspaces(bin: &Path, dir: &Path) -> Result<()> {
    let parent = dir.join("serve-workspaces");
    for w in 0..WORKSPACES {
        files(&parent.join(format!("w{w}")))?;
    }
    let parent_arg = parent.to_str().context("a UTF-8 path")?;
    let server = ServeProcess::start(
        bin,
        &["--workspaces", parent_arg, "--store", "memory"],
        &[("FILETOOLS_TOKEN", TOKEN)],
    )?;
    let mut http = Connection::open(&server.address)?;
    let mut rss_at = Vec::new();
    for w in 0..WORKSPACES {
        let answer = http.call(
            &format!("/mcp/w{w}"),
            &[AUTH],
            "read",
            &call_args("read", w),
        )?;
        if answer["isError"] == true {
            bail!("a read failed: {answer}");
        }
        rss_at.push(rss(server.child.id())?);
    }
    let each = (rss_at[WORKSPACES - 1] as f64 - rss_at[0] as f64) / (WORKSPACES - 1) as f64;
    println!(
        "  memory, workspaces: 1 in use {:.1} MiB, {WORKSPACES} in use {:.1} MiB ({:.2} MiB each more)",
        mib(rss_at[0] as f64),
        mib(rss_at[WORKSPACES - 1] as f64),
        mib(each)
    );
    Ok(())
}

#[expect(clippy::cast_precision_loss, reason = "log sizes far below 2^52")]
fn log_sizes(bin: &Path, root: &Path, redis: &RedisServer) -> Result<()> {
    let server = replica(bin, root, &redis.url(), &[])?;
    let store = RedisStore::open(
        &redis.url(),
        Duration::from_hours(1),
        filetools::serve::store::Durability::default(),
    )?;
    let mut http = Connection::open(&server.address)?;
    let handle = open_session(&mut http)?;
    let mut sizes = Vec::new();
    let mut made = 1;
    for target in LOG_CALLS {
        while made < target {
            // Four reads to an edit, as agents go.
            let kind = if made % 5 == 4 { "edit" } else { "read" };
            let mut args = call_args(kind, made);
            args["session"] = json!(handle);
            http.call("/mcp", &[AUTH], kind, &args)?;
            made += 1;
        }
        let stored = store
            .load(&format!("/{handle}"))?
            .context("the session is not stored")?;
        sizes.push(format!(
            "{target} calls {:.1} KiB",
            stored.log.len() as f64 / 1024.0
        ));
    }
    println!("  stored state log: {}", sizes.join(", "));
    Ok(())
}
