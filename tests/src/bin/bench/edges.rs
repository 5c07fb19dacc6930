//! What an agent pays around a read, each beside its reference in the same
//! run: a Node process holding many sessions, edits of 100 KB to 10 MB
//! against Python's read + replace + write + fsync + rename, a 20-file
//! patch against `git apply`, a one-shot CLI read against `cat`, and the
//! levers of the wasmtime/native ratio — Cranelift's inlining, the
//! component's SIMD and hashing in the host — each on and off.

use std::fmt::Write as _;
use std::fs;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use filetools::Tools;

use super::targets::{Row, Samples, Target, ratio_row, run_process};

/// Sessions opened in one Node process, per measurement.
const NODE_SESSIONS: [u32; 4] = [1, 10, 100, 1000];
/// The most one extra Node session may cost.
const NODE_SESSION_MIB: f64 = 1.0;
const NODE_SESSION_MS: f64 = 5.0;
/// The most a Node process with 1,000 sessions may hold.
const NODE_THOUSAND_MIB: f64 = 1536.0;

/// Edited file sizes, with the edits timed per round for each.
const EDITS: [(usize, usize); 3] = [(100_000, 40), (1_000_000, 20), (10_000_000, 6)];
/// Rounds of edits; each round times ours, then the reference.
const EDIT_ROUNDS: usize = 3;

/// Files of the patch, lines in each, and patches timed.
const PATCH_FILES: usize = 20;
const PATCH_LINES: usize = 200;
const PATCHES: usize = 20;

/// One-shot reads timed, each beside a `cat`.
const ONE_SHOTS: usize = 31;

/// 100 KB reads timed per host for the inlining lever.
const LEVER_READS: usize = 500;

/// Every row.
pub(crate) fn rows(dir: &Path) -> Result<Vec<Row>> {
    let root = root_in(dir)?;
    let mut rows = node_session_rows()?;
    rows.extend(edit_rows(&root)?);
    rows.push(patch_row(&root)?);
    rows.push(one_shot_row(&root)?);
    rows.push(simd_row()?);
    rows.push(inlining_row(dir)?);
    Ok(rows)
}

/// The edit rows and the patch row, on their own.
pub(crate) fn change_rows(dir: &Path) -> Result<Vec<Row>> {
    let root = root_in(dir)?;
    let mut rows = edit_rows(&root)?;
    rows.push(patch_row(&root)?);
    Ok(rows)
}

/// The one-shot read's row, on its own.
pub(crate) fn one_shot_alone(dir: &Path) -> Result<Vec<Row>> {
    Ok(vec![one_shot_row(&root_in(dir)?)?])
}

/// The directory of these rows' files, under the benchmark's `dir`.
fn root_in(dir: &Path) -> Result<PathBuf> {
    let root = dir.join("edges");
    fs::create_dir_all(&root)?;
    Ok(root)
}

/// MB hashed per timing of [`digest_costs`], and timings.
const DIGEST_MB: usize = 64;
const DIGEST_ROUNDS: usize = 7;

/// Prints what SHA-256 and XXH3-128 cost per MB natively (the host's
/// hashes), median of [`DIGEST_ROUNDS`] with the range.
pub(crate) fn digest_costs() -> Result<()> {
    let data: Vec<u8> = (0..DIGEST_MB << 20).map(|i| (i * 31 % 251) as u8).collect();
    let per_mb = |hash: &dyn Fn(&[u8]) -> String| {
        Samples::collect(DIGEST_ROUNDS, || {
            let start = Instant::now();
            black_box(hash(black_box(&data)));
            Ok(start.elapsed() / DIGEST_MB as u32)
        })
    };
    let sha256 = per_mb(&|d| filetools_core::sha256_hex(d))?;
    let xxh3 = per_mb(&|d| filetools_core::xxh3_hex(d))?;
    println!(
        "per MB: SHA-256 {}, XXH3-128 {}",
        sha256.show(),
        xxh3.show()
    );
    Ok(())
}

/// Sessions of one `loadTools` in one Node process.
fn node_session_rows() -> Result<Vec<Row>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../js/scripts/sessions.mjs");
    let (mut mib, mut ms, mut shown_mib, mut shown_ms) = (0f64, 0f64, String::new(), String::new());
    let mut thousand = f64::NAN;
    for sessions in NODE_SESSIONS {
        let output = Command::new("node")
            .arg("--expose-gc")
            .arg(&script)
            .arg(sessions.to_string())
            .output()?;
        if !output.status.success() {
            bail!("{}", String::from_utf8_lossy(&output.stderr));
        }
        let value: serde_json::Value = serde_json::from_slice(&output.stdout)?;
        let field = |name: &str| value[name].as_f64().unwrap_or(f64::NAN);
        let (each_mib, each_ms) = (field("per_session_mib"), field("per_session_ms"));
        mib = mib.max(each_mib);
        ms = ms.max(each_ms);
        let sep = if shown_mib.is_empty() { "" } else { " / " };
        let _ = write!(shown_mib, "{sep}{each_mib:.3}");
        let _ = write!(shown_ms, "{sep}{each_ms:.2}");
        if sessions == 1000 {
            thousand = field("rss_mib");
        }
    }
    Ok(vec![
        Row {
            what: "Node: memory per extra session, at 1 / 10 / 100 / 1,000 sessions".into(),
            ours: format!("{shown_mib} MiB"),
            reference: "the target".into(),
            ratio: mib / NODE_SESSION_MIB,
            target: Target::Mib(NODE_SESSION_MIB),
            value: mib,
        },
        Row {
            what: "Node: time per extra session (open + first read), at 1 / 10 / 100 / 1,000"
                .into(),
            ours: format!("{shown_ms} ms"),
            reference: "the target".into(),
            ratio: ms / NODE_SESSION_MS,
            target: Target::Millis(NODE_SESSION_MS),
            value: ms,
        },
        Row {
            what: "Node: one process holding 1,000 sessions".into(),
            ours: format!("{thousand:.0} MiB resident"),
            reference: "the target".into(),
            ratio: thousand / NODE_THOUSAND_MIB,
            target: Target::Mib(NODE_THOUSAND_MIB),
            value: thousand,
        },
    ])
}

/// A text of about `bytes` bytes in numbered lines; the middle line's
/// number is returned, for the edit to toggle.
fn lines_of(bytes: usize) -> (String, usize) {
    let mut text = String::with_capacity(bytes + 64);
    let mut n = 0;
    while text.len() < bytes {
        n += 1;
        let _ = writeln!(
            text,
            "line {n:08} the quick brown fox jumps over the lazy dog"
        );
    }
    (text, n / 2)
}

/// What Python does for an edit, in a loop, printing each one's seconds:
/// read, replace once, write a temporary file, fsync, rename over.
const PYTHON_EDIT: &str = r#"
import json, os, sys, time
path, a, b, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
times = []
for i in range(n):
    old, new = (a, b) if i % 2 == 0 else (b, a)
    started = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if old not in text:
        sys.exit("not found: " + old)
    text = text.replace(old, new, 1)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tmp, path)
    times.append(time.perf_counter() - started)
print(json.dumps(times))
"#;

/// Python's edits of `path`, timed.
fn python_edits(path: &Path, a: &str, b: &str, n: usize) -> Result<Vec<Duration>> {
    let output = Command::new("python3")
        .args(["-c", PYTHON_EDIT])
        .arg(path)
        .args([a, b, &n.to_string()])
        .output()
        .context("python3 is needed for the edit rows")?;
    if !output.status.success() {
        bail!("python3: {}", String::from_utf8_lossy(&output.stderr));
    }
    let seconds: Vec<f64> = serde_json::from_slice(&output.stdout)?;
    Ok(seconds.into_iter().map(Duration::from_secs_f64).collect())
}

/// A warm session over a copy of `text` in `dir`, the file read once.
fn edit_session(dir: &Path, text: &str, host_sha256: bool) -> Result<filetools::Session> {
    fs::create_dir_all(dir)?;
    fs::write(dir.join("file.txt"), text)?;
    let tools = Tools::builder()
        .root(dir)
        .host_sha256(host_sha256)
        .config_json(r#"{"max_edit_bytes": 100000000}"#)?
        .build()?;
    let mut session = tools.session()?;
    let read = session.call("read", r#"{"file_path": "file.txt", "limit": 1}"#);
    if read.is_error {
        bail!("{}", read.text());
    }
    Ok(session)
}

/// Edits of each size: ours (with and without hashing in the host, call
/// by call) against Python's, round by round.
fn edit_rows(root: &Path) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for (bytes, n) in EDITS {
        let (text, middle) = lines_of(bytes);
        let a = format!("line {middle:08} the quick");
        let b = format!("line {middle:08} the QUICK");
        let dir = root.join(format!("edit-{bytes}"));
        let mut hashed = edit_session(&dir.join("host"), &text, true)?;
        let mut unhashed = edit_session(&dir.join("guest"), &text, false)?;
        let python = dir.join("python");
        fs::create_dir_all(&python)?;
        fs::write(python.join("file.txt"), &text)?;
        let (mut ours, mut guest, mut theirs) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..EDIT_ROUNDS {
            for i in 0..n {
                let (old, new) = if i % 2 == 0 { (&a, &b) } else { (&b, &a) };
                let args = serde_json::json!({"file_path": "file.txt", "old_string": old, "new_string": new})
                    .to_string();
                for (session, times) in [(&mut hashed, &mut ours), (&mut unhashed, &mut guest)] {
                    let started = Instant::now();
                    let result = session.call("edit", &args);
                    times.push(started.elapsed());
                    if result.is_error {
                        bail!("edit of {bytes} bytes: {}", result.text());
                    }
                }
            }
            theirs.extend(python_edits(&python.join("file.txt"), &a, &b, n)?);
        }
        let (ours, guest, theirs) = (Samples::of(ours), Samples::of(guest), Samples::of(theirs));
        let size = if bytes >= 1_000_000 {
            format!("{} MB", bytes / 1_000_000)
        } else {
            format!("{} KB", bytes / 1000)
        };
        let mut row = ratio_row(
            &format!("edit of a {size} file (session warm)"),
            &ours,
            "Python read + replace + write + fsync + rename",
            &theirs,
            2.0,
        );
        let _ = write!(
            row.ours,
            "; hashing in the component instead: {} ({:.2}x)",
            guest.show(),
            guest.millis() / ours.millis()
        );
        rows.push(row);
    }
    Ok(rows)
}

/// A profiling aid: the 1 MB edit, `calls` times in one warm session.
pub(crate) fn edit_loop(root: &Path, calls: usize) -> Result<()> {
    let (text, middle) = lines_of(1_000_000);
    let mut session = edit_session(&root.join("edit-loop"), &text, true)?;
    let pair = [
        format!("line {middle:08} the quick"),
        format!("line {middle:08} the QUICK"),
    ];
    for i in 0..calls {
        let (old, new) = (&pair[i % 2], &pair[(i + 1) % 2]);
        let args =
            serde_json::json!({"file_path": "file.txt", "old_string": old, "new_string": new});
        let result = session.call("edit", &args.to_string());
        if result.is_error {
            bail!("edit: {}", result.text());
        }
    }
    Ok(())
}

/// A profiling aid: the 20-file patch, `calls` times in one warm session.
pub(crate) fn patch_loop(root: &Path, calls: usize) -> Result<()> {
    let dir = root.join("patch-loop");
    patch_files(&dir)?;
    let tools = Tools::builder()
        .root(&dir)
        .config_json(r#"{"tools": ["filetools", "apply-patch"]}"#)?
        .build()?;
    let args =
        [true, false].map(|forward| serde_json::json!({"input": envelope(forward)}).to_string());
    let mut session = tools.session()?;
    for i in 0..calls {
        // A fresh session as often as the row takes one, so that the
        // history grows as far as there and no further.
        if i % (PATCHES + 1) == 0 {
            session = tools.session()?;
        }
        let result = session.call("apply_patch", &args[i % 2]);
        if result.is_error {
            bail!("apply_patch: {}", result.text());
        }
    }
    Ok(())
}

/// The unified diff that changes line [`PATCH_LINES`] / 2 of every file.
fn unified_patch(forward: bool) -> String {
    let line = PATCH_LINES / 2;
    let mut patch = String::new();
    for f in 0..PATCH_FILES {
        let (old, new) = (
            format!("file {f} line {line}"),
            format!("file {f} line {line} changed"),
        );
        let (old, new) = if forward { (old, new) } else { (new, old) };
        let (before, after) = (line - 1, line + 1);
        let _ = write!(
            patch,
            "diff --git a/f{f:02}.txt b/f{f:02}.txt\n--- a/f{f:02}.txt\n+++ b/f{f:02}.txt\n@@ -{before},3 +{before},3 @@\n file {f} line {before}\n-{old}\n+{new}\n file {f} line {after}\n",
        );
    }
    patch
}

/// The same change as an `apply_patch` envelope.
fn envelope(forward: bool) -> String {
    let line = PATCH_LINES / 2;
    let mut patch = String::from("*** Begin Patch\n");
    for f in 0..PATCH_FILES {
        let (old, new) = (
            format!("file {f} line {line}"),
            format!("file {f} line {line} changed"),
        );
        let (old, new) = if forward { (old, new) } else { (new, old) };
        let _ = write!(
            patch,
            "*** Update File: f{f:02}.txt\n@@\n file {f} line {}\n-{old}\n+{new}\n file {f} line {}\n",
            line - 1,
            line + 1
        );
    }
    patch.push_str("*** End Patch");
    patch
}

/// Writes the patch's files into `dir`.
fn patch_files(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir)?;
    for f in 0..PATCH_FILES {
        let mut text = String::new();
        for n in 1..=PATCH_LINES {
            let _ = writeln!(text, "file {f} line {n}");
        }
        fs::write(dir.join(format!("f{f:02}.txt")), text)?;
    }
    Ok(())
}

/// A 20-file `apply_patch` in a warm session against `git apply`, each
/// applying the change and taking it back in turn; `git apply` followed
/// by `sync -f` on its directory gives the like-for-like durable figure.
///
/// The `sync -f` also leaves both tools patching files already on the
/// disk, as a repository's are, rather than pages written a moment before
/// and never allocated, whose replacement costs the file system less.
fn patch_row(root: &Path) -> Result<Row> {
    let ours_dir = root.join("patch-ours");
    let git_dir = root.join("patch-git");
    patch_files(&ours_dir)?;
    patch_files(&git_dir)?;
    fs::write(root.join("forward.diff"), unified_patch(true))?;
    fs::write(root.join("back.diff"), unified_patch(false))?;
    let tools = Tools::builder()
        .root(&ours_dir)
        .config_json(r#"{"tools": ["filetools", "apply-patch"]}"#)?
        .build()?;
    let mut session = tools.session()?;
    let calls =
        [true, false].map(|forward| serde_json::json!({"input": envelope(forward)}).to_string());
    let diffs = ["forward.diff", "back.diff"].map(|name| root.join(name));
    let (mut ours, mut theirs, mut durable) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..=PATCHES {
        let started = Instant::now();
        let result = session.call("apply_patch", &calls[i % 2]);
        let took = started.elapsed();
        if result.is_error {
            bail!("apply_patch: {}", result.text());
        }
        let git = run_process(
            Command::new("git")
                .arg("apply")
                .arg(&diffs[i % 2])
                .current_dir(&git_dir)
                // Outside any repository, as a patch tool: inside one,
                // paths are taken from its top, and these would be skipped.
                .env("GIT_CEILING_DIRECTORIES", root),
        )
        .context("git is needed for the patch row")?;
        let sync = run_process(Command::new("sync").arg("-f").arg(&git_dir))?;
        // The first of each is a warm-up.
        if i > 0 {
            ours.push(took);
            theirs.push(git);
            durable.push(git + sync);
        }
    }
    let check = fs::read_to_string(git_dir.join("f00.txt"))?;
    if check != fs::read_to_string(ours_dir.join("f00.txt"))? {
        bail!("git apply and apply_patch left different files");
    }
    let mut row = ratio_row(
        &format!("{PATCH_FILES}-file `apply_patch` (session warm)"),
        &Samples::of(ours),
        "`git apply`",
        &Samples::of(theirs),
        2.0,
    );
    let durable = Samples::of(durable);
    let _ = write!(row.reference, "; followed by `sync -f` {}", durable.show());
    Ok(row)
}

/// The release CLI beside this binary.
pub(crate) fn cli() -> Result<PathBuf> {
    let bin = std::env::current_exe()?.with_file_name("filetools");
    if !bin.is_file() {
        bail!(
            "{} is missing: build it with `cargo build --release -p agent-filetools`",
            bin.display()
        );
    }
    Ok(bin)
}

/// `filetools read` of a 200-line file in a fresh process against `cat`.
fn one_shot_row(root: &Path) -> Result<Row> {
    let dir = root.join("one-shot");
    patch_files(&dir)?;
    let bin = cli()?;
    // The first start stores the machine code in the cache; later ones map it.
    run_process(
        Command::new(&bin)
            .args(["read", "f00.txt"])
            .current_dir(&dir),
    )?;
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..ONE_SHOTS {
        ours.push(run_process(
            Command::new(&bin)
                .args(["read", "f00.txt"])
                .current_dir(&dir),
        )?);
        theirs.push(run_process(
            Command::new("cat").arg("f00.txt").current_dir(&dir),
        )?);
    }
    Ok(ratio_row(
        "one-shot `filetools read` of a 200-line file (fresh process)",
        &Samples::of(ours),
        "`cat`",
        &Samples::of(theirs),
        3.0,
    ))
}

/// Whether the shipped component's code uses wasm SIMD, and how much.
fn simd_row() -> Result<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/guest/wasm32-wasip2/guest/filetools_core.wasm");
    let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let (mut simd, mut total, mut feature) = (0u64, 0u64, false);
    for payload in wasmparser::Parser::new(0).parse_all(&bytes) {
        match payload? {
            wasmparser::Payload::CustomSection(section) if section.name() == "target_features" => {
                feature |= section
                    .data()
                    .windows(b"simd128".len())
                    .any(|w| w == b"simd128");
            }
            wasmparser::Payload::CodeSectionEntry(body) => {
                let mut reader = body.get_operators_reader()?;
                while !reader.eof() {
                    let offset = usize::try_from(reader.original_position()).unwrap_or(usize::MAX);
                    reader.read()?;
                    total += 1;
                    simd += u64::from(bytes.get(offset) == Some(&0xfd));
                }
            }
            _ => {}
        }
    }
    Ok(Row {
        what: "wasm SIMD in the shipped component (memchr, UTF-8 checks)".into(),
        ours: format!(
            "simd128 {}; {simd} SIMD instructions of {total}",
            if feature { "enabled" } else { "not enabled" }
        ),
        reference: "the component's code".into(),
        ratio: 1.0,
        target: Target::Holds("uses SIMD"),
        value: f64::from(u8::from(feature && simd > 0)),
    })
}

/// The 100 KB read, wasmtime/native, with the component compiled with
/// and without Cranelift's inlining, call by call.
fn inlining_row(dir: &Path) -> Result<Row> {
    let root = super::call_file(dir)?;
    let args = r#"{"file_path": "file.txt"}"#;
    let mut native = super::native_session(&root)?;
    let config = r#"{"dedup": false, "outline": false}"#;
    let mut plain = Tools::builder()
        .root(&root)
        .config_json(config)?
        .build()?
        .session()?;
    let compiling = Instant::now();
    let mut inlined = Tools::builder()
        .root(&root)
        .config_json(config)?
        .compiler_inlining(true)
        .no_cache()
        .build()?
        .session()?;
    let compile = compiling.elapsed();
    let (mut n, mut p, mut i) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..=LEVER_READS {
        let time = |call: &mut dyn FnMut() -> filetools::ToolResult| {
            let started = Instant::now();
            black_box(call());
            started.elapsed()
        };
        let times = [
            time(&mut || native.call("read", args)),
            time(&mut || plain.call("read", args)),
            time(&mut || inlined.call("read", args)),
        ];
        if round > 0 {
            n.push(times[0]);
            p.push(times[1]);
            i.push(times[2]);
        }
    }
    let (n, p, i) = (Samples::of(n), Samples::of(p), Samples::of(i));
    let (plain_ratio, inlined_ratio) = (p.millis() / n.millis(), i.millis() / n.millis());
    Ok(Row {
        what: "100 KB read, wasmtime / native: Cranelift inlining off (shipped) and on".into(),
        ours: format!(
            "off {plain_ratio:.2}x ({}), on {inlined_ratio:.2}x ({}; compiled in {:.1} s)",
            p.show(),
            i.show(),
            compile.as_secs_f64()
        ),
        reference: format!("native core {}", n.show()),
        ratio: plain_ratio.min(inlined_ratio),
        target: Target::Ratio(1.45),
        value: plain_ratio.min(inlined_ratio),
    })
}
