//! `cargo xtask fuzz`: the coverage-guided fuzz targets of `tests/fuzz`
//! (argument parser, text pager, edit matcher, patch tool), built with
//! libFuzzer's instrumentation through flags stable rustc takes, then run
//! one after the other for a time each. The corpus grows in
//! `target/fuzz/corpus/<target>` from run to run; a failing input is
//! written to `target/fuzz/findings/<target>/` and fails the task.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context as _, Result, bail};

use crate::run;

/// The fuzz targets, in the order they run.
const TARGETS: [&str; 4] = ["args", "pager", "edit", "patch"];

/// Seconds per target when `--seconds` is not given.
const DEFAULT_SECONDS: u64 = 60;

/// The largest input libFuzzer makes.
const MAX_LEN: &str = "-max_len=65536";

/// Coverage instrumentation as `cargo fuzz` sets it, minus the sanitizer
/// (which needs nightly): edge counters, the table of their program
/// counters, and comparison tracing so libFuzzer can learn the constants
/// the parsers compare against.
const RUSTFLAGS: &str = "-Cpasses=sancov-module \
    -Cllvm-args=-sanitizer-coverage-level=4 \
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
    -Cllvm-args=-sanitizer-coverage-pc-table \
    -Cllvm-args=-sanitizer-coverage-trace-compares \
    --cfg fuzzing";

/// Inputs each target starts from: a first byte that picks the tool or the
/// options, then arguments, file contents and edits of the kinds the tests
/// use.
const SEEDS: [(&str, &[&[u8]]); 4] = [
    (
        "args",
        &[
            b"\x00{\"file_path\": \"a.txt\", \"offset\": \"10\", \"limit\": 5}",
            b"\x00{\"path\": \"a.txt\", \"start_line\": 3, \"end_line\": \"9\", \"pages\": \"2-4\"}",
            b"\x01{\"file_path\": \"a.txt\", \"content\": \"x\\n\"}",
            b"\x02{\"file_path\": \"a.txt\", \"old_string\": \"a\", \"new_string\": \"b\", \"replace_all\": \"true\"}",
            b"\x02{\"file_path\": \"a.txt\", \"edits\": [{\"old_string\": \"a\", \"new_string\": \"b\"}]}",
            b"\x03{\"file_path\": null}",
        ],
    ),
    (
        "pager",
        &[
            b"\x00\x00\x00\x00\x00one\ntwo\r\nthree\n",
            b"\x01\x02\x03\x02\xd0\xef\xbb\xbfline \xe2\x80\x94 one\n\tline two\n",
            b"\x00\x01\x00\x00\xffa very long line without an end",
        ],
    ),
    (
        "edit",
        &[
            b"\x00fn main() {\n    let x = 1;\n}\n\xfflet x = 1;\xfflet x = 2;",
            b"\x01a \xe2\x80\x9cquote\xe2\x80\x9d\r\nb\r\n\xff\"quote\"\xff'quote'",
            b"\x00\tindented\n\tlines\n\xff  indented\n  lines\xff  changed\n  lines",
        ],
    ),
    (
        // Flags (bits 0-1 the form, 2 wrap in an envelope over a.txt, 3 and
        // 4 CRLF files), then a.txt, b.txt and the patch.
        "patch",
        &[
            b"\x00class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 1\n\xffone\ntwo\n\xff*** Begin Patch\n*** Update File: a.txt\n@@ class A:\n@@     def g(self):\n-        return 1\n+        return 2\n*** End Patch",
            b"\x00a\nb\nc\n\xffx\r\ny\n\xff*** Begin Patch\n*** Update File: b.txt\n*** Move to: d/moved.txt\n@@\n x\n+z\n*** Update File: a.txt\n@@ a\n b\n-c\n+C\n*** End of File\n*** Add File: new.txt\n+hello\n+\n*** Delete File: missing.txt\n*** End Patch\n",
            b"\x00a\r\nb\r\n\xffx\ny\n\xff*** Begin Patch\n*** Update File: b.txt\n*** Move to: b2.txt\n@@\n-x\n+z\n y\n*** Delete File: a.txt\n*** End Patch",
            b"\x04first\n\nthird\n\n\xff\xff@@ first\n+added\n \n third\n \n",
            b"\x0d\xe2\x80\x9cquoted\xe2\x80\x9d\n  padded  \nlast\xff\xff \"quoted\"\n-padded\n+changed\n last\n*** End of File",
            b"\x01one\ntwo\nthree\n\xffb\n\xff@@ one\n-two\n+2\n@@\n three\n+four",
            b"\x01a\nb\n\xff\xff@@\n+appended\n+\n",
            b"\x02\xff\xff+line one\n+\n+line three",
            b"\x13\xffkeep\nme\n\xff",
            b"\x00\xff\xff<<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+exists\n*** End Patch\nEOF",
        ],
    ),
];

/// Builds the targets and runs each for `--seconds N` (or the only ones
/// `--only a,b` names).
pub fn run(args: &[String]) -> Result<()> {
    let mut seconds = DEFAULT_SECONDS;
    let mut only: Vec<String> = TARGETS.iter().map(|t| (*t).to_owned()).collect();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let value = words
            .next()
            .with_context(|| format!("{word} needs a value"))?;
        match word.as_str() {
            "--seconds" => seconds = value.parse().context("--seconds takes a number")?,
            "--only" => only = value.split(',').map(str::to_owned).collect(),
            other => bail!("unknown option {other}; fuzz takes --seconds N and --only NAMES"),
        }
    }
    if let Some(unknown) = only.iter().find(|t| !TARGETS.contains(&t.as_str())) {
        bail!(
            "no fuzz target {unknown}; the targets are {}",
            TARGETS.join(", ")
        );
    }
    let triple = host_triple()?;
    let dir = run::root().join("target/fuzz");
    run::status(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args([
                "build",
                "--release",
                "--manifest-path",
                "tests/fuzz/Cargo.toml",
            ])
            .args(["--target", &triple, "--target-dir"])
            .arg(&dir)
            .env("RUSTFLAGS", RUSTFLAGS)
            .current_dir(run::root()),
    )?;
    for target in &only {
        let bin = dir.join(&triple).join("release").join(target);
        fuzz_one(&bin, &dir, target, seconds)?;
    }
    Ok(())
}

/// The triple rustc builds for by default.
fn host_triple() -> Result<String> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .context("running rustc -vV")?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: ").map(str::to_owned))
        .context("rustc -vV names no host")
}

/// Runs one target for `seconds` and prints its executions and findings.
fn fuzz_one(bin: &Path, dir: &Path, target: &str, seconds: u64) -> Result<()> {
    let corpus = dir.join("corpus").join(target);
    let seeds = dir.join("seeds").join(target);
    let findings = dir.join("findings").join(target);
    for folder in [&corpus, &seeds, &findings] {
        std::fs::create_dir_all(folder)?;
    }
    let inputs = SEEDS
        .iter()
        .find(|(name, _)| *name == target)
        .map_or(&[][..], |(_, inputs)| *inputs);
    for (n, input) in inputs.iter().enumerate() {
        std::fs::write(seeds.join(format!("seed-{n}")), input)?;
    }
    let mut prefix = findings.clone().into_os_string();
    prefix.push("/");
    let started = std::time::Instant::now();
    let out = Command::new(bin)
        .arg(&corpus)
        .arg(&seeds)
        .arg(format!("-max_total_time={seconds}"))
        .arg(MAX_LEN)
        .arg("-print_final_stats=1")
        .arg("-timeout=10")
        .arg("-rss_limit_mb=2048")
        .arg({
            let mut flag = std::ffi::OsString::from("-artifact_prefix=");
            flag.push(&prefix);
            flag
        })
        .stdout(Stdio::null())
        .output()
        .with_context(|| format!("running {}", bin.display()))?;
    let took = started.elapsed().as_secs();
    let log = String::from_utf8_lossy(&out.stderr);
    let stat = |name: &str| {
        log.lines()
            .find_map(|line| line.strip_prefix(name))
            .map_or("?", str::trim)
            .to_owned()
    };
    let found: Vec<PathBuf> = std::fs::read_dir(&findings)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    println!(
        "fuzz {target}: {} runs in {took} s ({}/s), corpus {} inputs, {} findings",
        stat("stat::number_of_executed_units:"),
        stat("stat::average_exec_per_sec:"),
        std::fs::read_dir(&corpus)?.count(),
        found.len(),
    );
    if !out.status.success() || !found.is_empty() {
        let tail: Vec<&str> = log.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        bail!(
            "fuzz target {target} failed ({}); the inputs are in {}; replay one with {} FILE\n{}",
            out.status,
            findings.display(),
            bin.display(),
            tail.join("\n")
        );
    }
    Ok(())
}
