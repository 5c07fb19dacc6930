//! External writers racing the tools' changes.
//!
//! Each trial gives the file a fresh version A that the session has seen,
//! then starts a change (a write of B, an edit, an undo) and, after a
//! random delay spanning the call, another writer replaces the file with C
//! — by a rename, as editors and formatters save, or in place (truncate and
//! write). Every version has the same length, so only the content tells
//! them apart. The writer always finishes, so C must survive unless the
//! change came after it: a change that answers success while the file
//! holds its own result has overwritten C unseen — a **silent loss**.
//!
//! One case is told apart: an in-place writer whose `open` began before the
//! change replaced (or removed) the file and returned after it holds the
//! replaced version, and writes there, whatever any tool does — as with
//! `mv` racing `echo >`. The writer sees it (the file it opened is no
//! longer the one at the path) and the trial counts as a **stale open**.

use std::fmt;
use std::fs;
use std::io::Write as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use filetools::{HostFs as _, Sandbox};
use filetools_core::{FileStamp, FsError, Precondition};
use serde_json::{Value, json};

use super::{Rng, spin};
use crate::cli::{SessionProcess, error_code, succeeded};

/// Bytes of every version of the raced file.
const VERSION_BYTES: usize = 1024;

/// Calls timed, unraced, to size the window the other writer lands in.
const CALIBRATION_CALLS: u32 = 10;

/// How the other writer changes the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// Writes a new file and renames it over the target.
    Rename,
    /// Truncates the target and writes into it.
    InPlace,
}

impl fmt::Display for Writer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Writer::Rename => "by rename",
            Writer::InPlace => "in place",
        })
    }
}

/// The change the session makes while the other writer writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `write` over a file read whole.
    Write,
    /// `edit` of one line.
    Edit,
    /// `undo` of a write: restores the version before it.
    Undo,
    /// `undo` of a creation: removes the file.
    UndoCreate,
}

impl Op {
    /// Every change raced.
    pub const ALL: [Op; 4] = [Op::Write, Op::Edit, Op::Undo, Op::UndoCreate];
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Op::Write => "writes",
            Op::Edit => "edits",
            Op::Undo => "undos of a write",
            Op::UndoCreate => "undos of a creation",
        })
    }
}

/// What the trials came to.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Trials run.
    pub tried: u64,
    /// The change answered success and the other writer's version is gone.
    pub silent_losses: u64,
    /// Refused by the host: the other version landed between the session's
    /// check and the replacement.
    pub conflicts: u64,
    /// Refused by the session's own check: it landed before.
    pub stale: u64,
    /// The change succeeded, and the other version came after it and stands.
    pub overwritten_after: u64,
    /// The other writer's open returned a file already replaced or removed.
    pub stale_opens: u64,
    /// Anything else: a torn file, a refusal that wrote anyway, an
    /// unexpected error.
    pub anomalies: Vec<String>,
}

impl Report {
    fn judge(
        &mut self,
        outcome: Outcome,
        end: Option<&[u8]>,
        ours: Option<&[u8]>,
        theirs: &[u8],
        landed: bool,
    ) {
        self.tried += 1;
        if !landed {
            self.stale_opens += 1;
            return;
        }
        let theirs_stand = end == Some(theirs);
        match outcome {
            Outcome::Done if theirs_stand => self.overwritten_after += 1,
            Outcome::Done if end == ours => self.silent_losses += 1,
            Outcome::Conflict if theirs_stand => self.conflicts += 1,
            Outcome::Stale if theirs_stand => self.stale += 1,
            other => self.anomalies.push(format!(
                "{other:?}, and the file holds {}",
                match end {
                    None => "nothing".to_owned(),
                    Some(end) if Some(end) == ours => "the change's own result".to_owned(),
                    Some(end) => format!("{} unexpected bytes", end.len()),
                }
            )),
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} tried, {} silent losses, {} conflicts, {} stale, {} overwritten after, {} stale opens, {} anomalies",
            self.tried,
            self.silent_losses,
            self.conflicts,
            self.stale,
            self.overwritten_after,
            self.stale_opens,
            self.anomalies.len()
        )
    }
}

/// How one change ended.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Done,
    Conflict,
    Stale,
    Other(String),
}

impl Outcome {
    fn of_answer(answer: &Value) -> Self {
        if succeeded(answer) {
            return Outcome::Done;
        }
        match error_code(answer) {
            Some("conflict") => Outcome::Conflict,
            Some("stale") => Outcome::Stale,
            _ => Outcome::Other(crate::cli::text(answer).to_owned()),
        }
    }
}

/// A version of the file for `trial`, `VERSION_BYTES` long.
fn version(trial: u64, tag: &str) -> Vec<u8> {
    let mut text = format!("trial {trial}\nvalue = {tag}\n");
    while text.len() < VERSION_BYTES - 1 {
        text.push_str("pad ");
    }
    text.truncate(VERSION_BYTES - 1);
    text.push('\n');
    text.into_bytes()
}

/// The other writer, armed: it waits for the barrier, spins `delay`
/// microseconds, then puts `content` at `path`. It returns whether its
/// content went to the file at `path` (an in-place writer checks, between
/// its open and its write, that what it opened is still there).
fn arm(
    path: &Path,
    content: Vec<u8>,
    writer: Writer,
    delay: u64,
) -> Result<(Arc<Barrier>, thread::JoinHandle<std::io::Result<bool>>)> {
    let barrier = Arc::new(Barrier::new(2));
    let staged = path.with_file_name(".other-writer");
    if writer == Writer::Rename {
        fs::write(&staged, &content)?;
    }
    let path = path.to_path_buf();
    let go = Arc::clone(&barrier);
    let handle = thread::spawn(move || {
        go.wait();
        spin(delay);
        match writer {
            Writer::Rename => fs::rename(&staged, &path).map(|()| true),
            Writer::InPlace => {
                let mut file = fs::File::create(&path)?;
                let opened = file.metadata()?;
                let at_path = fs::symlink_metadata(&path)
                    .is_ok_and(|now| now.dev() == opened.dev() && now.ino() == opened.ino());
                file.write_all(&content)?;
                Ok(at_path)
            }
        }
    });
    Ok((barrier, handle))
}

/// Races `trials` changes `op` of the CLI session `bin` against `writer`.
pub fn cli(
    bin: &Path,
    dir: &Path,
    op: Op,
    writer: Writer,
    trials: u64,
    rng: &mut Rng,
) -> Result<Report> {
    let mut session = SessionProcess::start(bin, dir, &[])?;
    let path = dir.join("raced.txt");
    let window = calibrate(|trial| {
        let started = prepare(&mut session, &path, op, trial)?;
        let answer = session.call(call_of(op).0, &call_of(op).1)?;
        let took = started.elapsed();
        if !succeeded(&answer) {
            bail!("an unraced {op:?} failed: {answer}");
        }
        Ok(took)
    })?;
    let mut report = Report::default();
    for k in 0..trials {
        let trial = k + u64::from(CALIBRATION_CALLS);
        prepare(&mut session, &path, op, trial)?;
        let theirs = version(trial, "C (the other writer)");
        let delay = rng.stratified(k, trials, window);
        let (barrier, other) = arm(&path, theirs.clone(), writer, delay)?;
        let (tool, args) = call_of(op);
        session.send_raw(format!("{}\n", json!({"tool": tool, "args": args})).as_bytes())?;
        barrier.wait();
        let answer = session
            .answer_within(crate::cli::ANSWER_TIMEOUT)?
            .context("the session did not answer")?;
        let landed = other
            .join()
            .map_err(|_| anyhow::anyhow!("the other writer panicked"))??;
        let end = fs::read(&path).ok();
        let ours = ours_after(op, trial);
        report.judge(
            Outcome::of_answer(&answer),
            end.as_deref(),
            ours.as_deref(),
            &theirs,
            landed,
        );
    }
    session.finish()?;
    Ok(report)
}

/// Gives `path` the state trial `trial` of `op` starts from, as the session
/// has seen it; returns when the raced call may start.
fn prepare(session: &mut SessionProcess, path: &Path, op: Op, trial: u64) -> Result<Instant> {
    let name = "raced.txt";
    let check = |answer: Value| -> Result<()> {
        if succeeded(&answer) {
            Ok(())
        } else {
            bail!("setting up {op:?} failed: {answer}")
        }
    };
    match op {
        Op::Write | Op::Edit => {
            fs::write(path, version(trial, "A"))?;
            check(session.call("read", &json!({"file_path": name}))?)?;
        }
        Op::Undo => {
            fs::write(path, version(trial, "A"))?;
            check(session.call("read", &json!({"file_path": name}))?)?;
            let content = String::from_utf8(version(trial, "B"))?;
            check(session.call("write", &json!({"file_path": name, "content": content}))?)?;
        }
        Op::UndoCreate => {
            let _ = fs::remove_file(path);
            let content = String::from_utf8(version(trial, "B"))?;
            check(session.call("write", &json!({"file_path": name, "content": content}))?)?;
        }
    }
    Ok(Instant::now())
}

/// The raced call of `op` (for the trial `prepare` set up).
fn call_of(op: Op) -> (&'static str, Value) {
    let name = "raced.txt";
    match op {
        Op::Write => (
            "write",
            json!({"file_path": name, "content": "B\n".repeat(VERSION_BYTES / 2)}),
        ),
        Op::Edit => (
            "edit",
            json!({"file_path": name, "old_string": "value = A\n", "new_string": "value = B\n"}),
        ),
        Op::Undo | Op::UndoCreate => ("undo", json!({"file_path": name})),
    }
}

/// What the file holds when `op` of `trial` succeeded unraced.
fn ours_after(op: Op, trial: u64) -> Option<Vec<u8>> {
    match op {
        Op::Write => Some("B\n".repeat(VERSION_BYTES / 2).into_bytes()),
        Op::Edit => {
            let text = String::from_utf8(version(trial, "A")).ok()?;
            Some(text.replacen("value = A\n", "value = B\n", 1).into_bytes())
        }
        Op::Undo => Some(version(trial, "A")),
        Op::UndoCreate => None,
    }
}

/// The window, in microseconds, the other writer's delay is drawn from:
/// half again the median of a few unraced calls.
fn calibrate(mut timed: impl FnMut(u64) -> Result<Duration>) -> Result<u64> {
    let mut times = Vec::new();
    for trial in 0..u64::from(CALIBRATION_CALLS) {
        times.push(timed(trial)?);
    }
    Ok(window_of(times))
}

/// Half again the median of `times`, in microseconds.
pub(super) fn window_of(mut times: Vec<Duration>) -> u64 {
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    (median.as_micros() as u64 * 3 / 2).max(1)
}

/// Races `trials` writes through the sandbox itself (no guest, so the host's
/// own window is all there is) against `writer`; `exchange` picks the
/// replace mode.
pub fn sandbox(
    dir: &Path,
    exchange: bool,
    writer: Writer,
    trials: u64,
    rng: &mut Rng,
) -> Result<Report> {
    let sandbox = Sandbox::open(dir, false)?.exchange(exchange);
    let path = dir.join("raced.txt");
    let ours = "B\n".repeat(VERSION_BYTES / 2).into_bytes();
    let stamp = |content: &[u8]| -> Result<Precondition> {
        let meta = sandbox
            .stat("raced.txt")
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(Precondition::Matches(FileStamp {
            size: meta.size,
            mtime_ns: meta.mtime_ns,
            sha256: Some(filetools_core::sha256_hex(content)),
            xxh3: None,
        }))
    };
    let window = calibrate(|trial| {
        let before = version(trial, "A");
        fs::write(&path, &before)?;
        let precondition = stamp(&before)?;
        let started = Instant::now();
        sandbox
            .write_file("raced.txt", &ours, &precondition)
            .map_err(|e| anyhow::anyhow!("an unraced write failed: {e}"))?;
        Ok(started.elapsed())
    })?;
    let mut report = Report::default();
    for trial in 0..trials {
        let before = version(trial, "A");
        fs::write(&path, &before)?;
        let precondition = stamp(&before)?;
        let theirs = version(trial, "C (the other writer)");
        let delay = rng.stratified(trial, trials, window);
        let (barrier, other) = arm(&path, theirs.clone(), writer, delay)?;
        barrier.wait();
        let outcome = match sandbox.write_file("raced.txt", &ours, &precondition) {
            Ok(_) => Outcome::Done,
            Err(FsError::Conflict) => Outcome::Conflict,
            Err(err) => Outcome::Other(err.to_string()),
        };
        let landed = other
            .join()
            .map_err(|_| anyhow::anyhow!("the other writer panicked"))??;
        let end = fs::read(&path).ok();
        report.judge(outcome, end.as_deref(), Some(&ours), &theirs, landed);
    }
    Ok(report)
}
