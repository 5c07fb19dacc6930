//! The performance table (docs/performance.md, "The performance table"): each figure an agent waits
//! on, measured in this run beside the reference it is held against, with
//! the ratio and the target. Tool calls are timed as an agent makes them,
//! in a running session of the wasmtime host; the shell references as an
//! agent's shell tool runs them, one process per command, its output read
//! to the end.

#![expect(
    clippy::cast_precision_loss,
    reason = "ratios of byte counts and sizes far below 2^52"
)]

use std::fmt::Write as _;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use filetools::{LoadSource, Tools};
use filetools_tests::real_files::{cargo_registry, python_stdlib};

/// The smallest Rust file the outline row accepts from the registry.
const BIG_RUST_BYTES: u64 = 1 << 20;
/// Size of the file whose first page is read.
const TEN_MB: usize = 10_000_000;
/// Lines of the first page of the 10 MB file.
const FIRST_PAGE_LINES: u64 = 2000;
/// The deep line of the 1 GiB file.
const DEEP_LINE: u64 = 10_000_000;
/// The function the last row reads whole, and its class.
const FUNCTION: (&str, &str) = ("Decimal", "__new__");

/// Timed runs of a fast row, and of a slow one.
const RUNS: usize = 31;
const SLOW_RUNS: usize = 5;

/// What a row holds its figure to.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Target {
    /// At most this many milliseconds.
    Millis(f64),
    /// At most this many MiB.
    Mib(f64),
    /// At most this times the reference.
    Ratio(f64),
    /// At most this times the reference, and at most this many MiB.
    RatioAndMib(f64, f64),
    /// A fact that must hold (the value is 1 when it does).
    Holds(&'static str),
}

/// One row of the table.
#[derive(Debug)]
pub(crate) struct Row {
    pub what: String,
    pub ours: String,
    pub reference: String,
    /// Ours over the reference.
    pub ratio: f64,
    pub target: Target,
    /// Ours, in the target's unit when it is absolute (MiB for memory).
    pub value: f64,
}

impl Row {
    fn met(&self) -> bool {
        match self.target {
            Target::Millis(most) | Target::Mib(most) => self.value <= most,
            Target::Ratio(most) => self.ratio <= most,
            Target::RatioAndMib(most, mib) => self.ratio <= most && self.value <= mib,
            Target::Holds(_) => self.value >= 1.0,
        }
    }
}

/// Timings of one thing: the median and the spread.
#[derive(Debug, Clone)]
pub(crate) struct Samples(pub Vec<Duration>);

impl Samples {
    pub fn collect(runs: usize, mut once: impl FnMut() -> Result<Duration>) -> Result<Self> {
        once()?;
        let mut times = (0..runs).map(|_| once()).collect::<Result<Vec<_>>>()?;
        times.sort();
        Ok(Self(times))
    }

    /// Already-taken times.
    pub fn of(mut times: Vec<Duration>) -> Self {
        times.sort();
        Self(times)
    }

    pub fn median(&self) -> Duration {
        self.0[self.0.len() / 2]
    }

    pub fn millis(&self) -> f64 {
        self.median().as_secs_f64() * 1e3
    }

    pub fn show(&self) -> String {
        format!(
            "{} ({}–{})",
            super::show(self.median()),
            super::show(self.0[0]),
            super::show(self.0[self.0.len() - 1])
        )
    }
}

/// Runs `command` to its end, its output read through a pipe; its time.
pub(crate) fn run_process(command: &mut Command) -> Result<Duration> {
    let started = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .context("no stdout")?
        .read_to_end(&mut out)?;
    let status = child.wait()?;
    let time = started.elapsed();
    if !status.success() && out.is_empty() {
        bail!("{command:?} failed: {status}");
    }
    Ok(time)
}

fn shell(root: &Path, program: &str, args: &[&str], runs: usize) -> Result<Samples> {
    Samples::collect(runs, || {
        run_process(Command::new(program).args(args).current_dir(root))
    })
}

/// One `read` in a session, timed; the session is new for each call when
/// `fresh` (a first read), or kept (dedup off, so every call reads).
fn reads(root: &Path, args: &str, fresh: bool, runs: usize) -> Result<(Samples, String)> {
    let config = if fresh { "{}" } else { r#"{"dedup": false}"# };
    let tools = Tools::builder().root(root).config_json(config)?.build()?;
    let mut kept = tools.session()?;
    let mut text = String::new();
    let samples = Samples::collect(runs, || {
        let mut new;
        let session = if fresh {
            new = tools.session()?;
            &mut new
        } else {
            &mut kept
        };
        let started = Instant::now();
        let result = session.call("read", args);
        let time = started.elapsed();
        if result.is_error {
            bail!("read {args}: {}", result.text());
        }
        text = result.text();
        Ok(time)
    })?;
    Ok((samples, text))
}

/// Prints the table. `dir` holds the benchmark's files, `big` the 1 GiB
/// file's folder, `wasm_ratio` the 100 KB read's wasmtime/native ratio
/// measured earlier in the run.
pub(crate) fn run(dir: &Path, big: &Path, wasm_ratio: f64) -> Result<()> {
    let root = dir.join("targets");
    fs::create_dir_all(&root)?;
    let mut rows = Vec::new();
    rows.push(outline_row(&root, &big_rust_file()?, "big.rs", "cat")?);
    let pydecimal = python_stdlib()
        .map(|lib| lib.join("_pydecimal.py"))
        .filter(|path| path.is_file())
        .context("python3's _pydecimal.py is needed")?;
    rows.push(outline_row(&root, &pydecimal, "_pydecimal.py", "head")?);
    rows.push(first_page_row(&root)?);
    rows.extend(big_file_rows(big)?);
    rows.push(first_run_row(dir)?);
    rows.push(node_row(big)?);
    rows.push(Row {
        what: "100 KB read, wasmtime host / native core".into(),
        ours: format!("{wasm_ratio:.2}x"),
        reference: "the native core, same run".into(),
        ratio: wasm_ratio,
        target: Target::Ratio(1.45),
        value: wasm_ratio,
    });
    rows.push(gutter_row(&root)?);
    rows.push(function_row(&root)?);
    rows.extend(super::edges::rows(dir)?);
    rows.extend(super::new_file::rows(dir)?);
    rows.extend(super::list_dir::rows(dir)?);
    rows.extend(super::search::rows()?);
    print(&rows);
    Ok(())
}

/// The largest Rust file of at least [`BIG_RUST_BYTES`] in the cargo
/// registry.
fn big_rust_file() -> Result<PathBuf> {
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![cargo_registry()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let size = entry.metadata().map_or(0, |m| m.len());
                if size >= BIG_RUST_BYTES && best.as_ref().is_none_or(|(s, _)| size > *s) {
                    best = Some((size, path));
                }
            }
        }
    }
    best.map(|(_, path)| path)
        .context("no Rust file of 1 MiB or more in the cargo registry")
}

/// A first read without a range of `source` (copied in as `name`), which
/// answers with an outline, against the reference shell command.
fn outline_row(root: &Path, source: &Path, name: &str, reference: &str) -> Result<Row> {
    fs::copy(source, root.join(name))?;
    let size = fs::metadata(root.join(name))?.len();
    let args = serde_json::json!({ "file_path": name }).to_string();
    let (ours, text) = reads(root, &args, true, RUNS)?;
    if !text.contains("outline") {
        bail!("{name} was not outlined: {}", &text[..text.len().min(300)]);
    }
    let (theirs, shown, target) = if reference == "cat" {
        (
            shell(root, "cat", &[name], RUNS)?,
            "`cat` (whole file)".to_owned(),
            150.0,
        )
    } else {
        (
            shell(root, "head", &["-n", "2000", name], RUNS)?,
            "`head -n 2000` (a first page)".to_owned(),
            15.0,
        )
    };
    Ok(Row {
        what: format!("outline of {name} ({}), first read", super::size(size)),
        ours: ours.show(),
        reference: format!("{shown} {}", theirs.show()),
        ratio: ours.millis() / theirs.millis(),
        target: Target::Millis(target),
        value: ours.millis(),
    })
}

/// The first 2,000 lines of a 10 MB log.
fn first_page_row(root: &Path) -> Result<Row> {
    let mut text = String::with_capacity(TEN_MB + 100);
    let mut n = 0;
    while text.len() < TEN_MB {
        n += 1;
        let _ = writeln!(
            text,
            "2026-11-29T10:00:00Z worker-{} request {n} finished with status 200 in 12ms",
            n % 16
        );
    }
    text.truncate(TEN_MB);
    fs::write(root.join("ten.log"), text)?;
    let args = format!(r#"{{"file_path": "ten.log", "limit": {FIRST_PAGE_LINES}}}"#);
    let (ours, _) = reads(root, &args, false, RUNS)?;
    let head = shell(
        root,
        "head",
        &["-n", &FIRST_PAGE_LINES.to_string(), "ten.log"],
        RUNS,
    )?;
    Ok(ratio_row(
        "first 2,000 lines of a 10 MB log",
        &ours,
        "`head -n 2000`",
        &head,
        2.0,
    ))
}

pub(crate) fn ratio_row(
    what: &str,
    ours: &Samples,
    name: &str,
    theirs: &Samples,
    most: f64,
) -> Row {
    let ratio = ours.millis() / theirs.millis();
    Row {
        what: what.to_owned(),
        ours: ours.show(),
        reference: format!("{name} {}", theirs.show()),
        ratio,
        target: Target::Ratio(most),
        value: ratio,
    }
}

/// The first page and a deep page of the 1 GiB log in `big`.
fn big_file_rows(big: &Path) -> Result<Vec<Row>> {
    let (first, _) = reads(
        big,
        r#"{"file_path": "huge.log", "limit": 50}"#,
        false,
        RUNS,
    )?;
    let head = shell(big, "head", &["-n", "50", "huge.log"], RUNS)?;
    let deep_args = format!(r#"{{"file_path": "huge.log", "offset": {DEEP_LINE}, "limit": 50}}"#);
    let (deep, _) = reads(big, &deep_args, false, SLOW_RUNS)?;
    let pipeline = format!("tail -n +{DEEP_LINE} huge.log | head -n 50");
    let tail = shell(big, "sh", &["-c", &pipeline], SLOW_RUNS)?;
    Ok(vec![
        ratio_row(
            "first 50 lines of a 1 GiB log",
            &first,
            "`head -n 50`",
            &head,
            2.0,
        ),
        ratio_row(
            "50 lines at line 10,000,000 of the 1 GiB log",
            &deep,
            "`tail -n +N \\| head -n 50`",
            &tail,
            1.2,
        ),
    ])
}

/// Whether the first start after an install compiles the component: a
/// build with an empty cache, against one that finds it.
fn first_run_row(dir: &Path) -> Result<Row> {
    let root = dir.join("build-root");
    let cache = dir.join("first-run-cache");
    fs::create_dir_all(&root)?;
    let _ = fs::remove_dir_all(&cache);
    let started = Instant::now();
    let tools = Tools::builder().root(&root).cache_dir(&cache).build()?;
    let first = started.elapsed();
    let source = tools.load_source();
    drop(tools);
    let later = Samples::collect(5, || {
        let started = Instant::now();
        Tools::builder().root(&root).cache_dir(&cache).build()?;
        Ok(started.elapsed())
    })?;
    let ratio = first.as_secs_f64() / later.median().as_secs_f64();
    Ok(Row {
        what: "first start after install (empty cache)".into(),
        ours: format!(
            "{} ({})",
            super::show(first),
            match source {
                LoadSource::Compiled => "compiled",
                LoadSource::Precompiled => "build-time machine code, no compile",
                LoadSource::Cached => "cached",
            }
        ),
        reference: format!("later starts {}", later.show()),
        ratio,
        target: Target::Holds("no compile"),
        value: f64::from(u8::from(source != LoadSource::Compiled)),
    })
}

/// The npm package over `nodeFs`, in a fresh Node process: peak memory
/// above an idle Node, and the time of the 1 GiB file's first page, against
/// the wasmtime host in a fresh process.
fn node_row(big: &Path) -> Result<Row> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../js/scripts/first-page.mjs");
    let node = |args: &[&str]| -> Result<serde_json::Value> {
        let output = Command::new("node").arg(&script).args(args).output()?;
        if !output.status.success() {
            bail!("{}", String::from_utf8_lossy(&output.stderr));
        }
        Ok(serde_json::from_slice(&output.stdout)?)
    };
    let exe = std::env::current_exe()?;
    let kib = |value: &serde_json::Value| value["peak_kib"].as_f64().unwrap_or(f64::NAN);
    let (mut idle, mut peak, mut node_ms, mut rust_peak, mut rust_ms) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..3 {
        idle.push(kib(&node(&["--idle"])?) / 1024.0);
        let read = node(&[&big.to_string_lossy(), "huge.log"])?;
        peak.push(kib(&read) / 1024.0);
        node_ms.push(read["read_ms"].as_f64().unwrap_or(f64::NAN));
        let output = Command::new(&exe)
            .arg("--child-first-page")
            .arg(big)
            .output()?;
        let cli: serde_json::Value = serde_json::from_slice(&output.stdout)?;
        rust_peak.push(kib(&cli) / 1024.0);
        rust_ms.push(cli["read_ms"].as_f64().unwrap_or(f64::NAN));
    }
    let mid = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let (idle, peak, node_ms) = (mid(idle), mid(peak), mid(node_ms));
    let (rust_peak, rust_ms) = (mid(rust_peak), mid(rust_ms));
    Ok(Row {
        what: "npm package in a fresh Node: peak memory above an idle Node; 1 GiB log's first page"
            .into(),
        ours: format!(
            "{:.0} MiB ({peak:.0} − {idle:.0}); {node_ms:.2} ms",
            peak - idle
        ),
        reference: format!("wasmtime host in a fresh process: {rust_peak:.0} MiB; {rust_ms:.2} ms"),
        ratio: node_ms / rust_ms,
        target: Target::RatioAndMib(2.0, 30.0),
        value: peak - idle,
    })
}

/// What the gutter and footer add to a 2,000-line page, against the same
/// lines numbered `N<TAB>` with nothing else.
fn gutter_row(root: &Path) -> Result<Row> {
    let args = r#"{"file_path": "_pydecimal.py", "offset": 1, "limit": 2000}"#;
    let (_, text) = reads(root, args, false, 1)?;
    let source = fs::read_to_string(root.join("_pydecimal.py"))?;
    let compact: usize = source
        .lines()
        .take(2000)
        .enumerate()
        .map(|(n, line)| (n + 1).to_string().len() + 1 + line.len() + 1)
        .sum();
    let raw: usize = source.lines().take(2000).map(|l| l.len() + 1).sum();
    let ratio = text.len() as f64 / compact as f64;
    Ok(Row {
        what: "bytes of a 2,000-line page (_pydecimal.py)".into(),
        ours: format!(
            "{} bytes (+{:.1}% over the raw lines)",
            text.len(),
            pct(text.len(), raw)
        ),
        reference: format!(
            "compact `N<TAB>` {compact} bytes (+{:.1}%)",
            pct(compact, raw)
        ),
        ratio,
        target: Target::Ratio(1.08),
        value: ratio,
    })
}

fn pct(bytes: usize, raw: usize) -> f64 {
    (bytes as f64 / raw as f64 - 1.0) * 100.0
}

/// Bytes an agent takes in to see one named function whole: a read by
/// symbol, against `grep -n` for its line and `sed -n` for its lines (the
/// range known exactly, which favours the shell). The outline-then-range
/// way is shown beside it.
fn function_row(root: &Path) -> Result<Row> {
    let (class, method) = FUNCTION;
    let (_, outline) = reads(root, r#"{"file_path": "_pydecimal.py"}"#, true, 1)?;
    let range = outline
        .lines()
        .skip_while(|l| !l.contains(&format!("class {class} ")))
        .find(|l| l.contains(&format!("def {method} ")))
        .and_then(|l| {
            l.rsplit_once('[')?
                .1
                .strip_suffix(']')?
                .split_once(':')
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
        })
        .context("the method is not in the outline")?;
    let (first, last): (u64, u64) = (range.0.parse()?, range.1.parse()?);
    let args = format!(
        r#"{{"file_path": "_pydecimal.py", "offset": {first}, "limit": {}}}"#,
        last - first + 1
    );
    let (_, body) = reads(root, &args, false, 1)?;
    let by_symbol = format!(r#"{{"file_path": "_pydecimal.py", "symbol": "{class}.{method}"}}"#);
    let (_, symbol) = reads(root, &by_symbol, false, 1)?;
    if !symbol.starts_with(&format!("[{class}.{method}: lines {first}-{last} of ")) {
        bail!(
            "the read by symbol did not give lines {first}-{last}: {}",
            &symbol[..symbol.len().min(200)]
        );
    }
    let ours = symbol.len();
    let grep = Command::new("grep")
        .args(["-n", &format!("def {method}("), "_pydecimal.py"])
        .current_dir(root)
        .output()?
        .stdout
        .len();
    let sed = Command::new("sed")
        .args(["-n", &format!("{first},{last}p"), "_pydecimal.py"])
        .current_dir(root)
        .output()?
        .stdout
        .len();
    let ratio = ours as f64 / (grep + sed) as f64;
    Ok(Row {
        what: format!("bytes to see {class}.{method} whole (_pydecimal.py)"),
        ours: format!(
            "symbol read {ours} bytes (outline + range: {} + {} bytes)",
            outline.len(),
            body.len()
        ),
        reference: format!("`grep -n` {grep} + `sed -n` {sed} = {} bytes", grep + sed),
        ratio,
        target: Target::Ratio(1.0),
        value: ratio,
    })
}

pub(crate) fn print(rows: &[Row]) {
    println!(
        "performance targets (docs/performance.md): tool calls in a running wasmtime session, shell commands as processes; median (min–max)\n"
    );
    println!("| what | filetools | reference | ratio | target | met |");
    println!("|---|---|---|---|---|---|");
    for row in rows {
        let target = match row.target {
            Target::Millis(most) => format!("≤ {most} ms"),
            Target::Mib(most) => format!("≤ {most} MiB"),
            Target::Ratio(most) => format!("≤ {most}x"),
            Target::RatioAndMib(most, mib) => format!("≤ {mib} MiB, ≤ {most}x"),
            Target::Holds(what) => what.to_owned(),
        };
        println!(
            "| {} | {} | {} | {:.2}x | {target} | {} |",
            row.what,
            row.ours,
            row.reference,
            row.ratio,
            if row.met() { "yes" } else { "no" }
        );
    }
    println!();
}
