//! `kill -9` in the middle of changes.
//!
//! Each trial starts a session, begins a change of 1 KB up to the largest
//! size asked for — creating a file, or editing one line of an existing
//! file, which rewrites it whole — and kills the process at a random moment
//! of it. The file must hold the old or the new version, whole (for a new
//! file: nothing, or all of it). Temporary files left at that moment are
//! counted; then another process writes to the same directory, and none
//! may remain.

use std::fmt::{self, Write as _};
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde_json::json;

use super::{Rng, debris};
use crate::cli::{SessionProcess, succeeded};

/// Smallest change tried, in bytes.
pub(super) const MIN_BYTES: u64 = 1024;

/// Largest file an edit loads (the session's default `max_edit_bytes`).
const MAX_EDIT_BYTES: u64 = 16 * 1024 * 1024;

/// What the trials came to.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Changes started.
    pub tried: u64,
    /// Killed before they answered.
    pub killed: u64,
    /// Files holding neither version whole afterwards.
    pub torn: u64,
    /// Temporary files the kills left, and their bytes.
    pub debris_after_kill: (u64, u64),
    /// Temporary files still there at the end, each kill having been
    /// followed by another process's write to the directory.
    pub debris_after_next_write: u64,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} changes, {} killed midway, {} torn files, {} temporary files ({} bytes) left by the kills, {} still there at the end",
            self.tried,
            self.killed,
            self.torn,
            self.debris_after_kill.0,
            self.debris_after_kill.1,
            self.debris_after_next_write
        )
    }
}

/// `size` bytes of numbered lines; the first line says `tag`.
pub(super) fn content(size: u64, tag: &str) -> String {
    let mut text = format!("{tag}\n");
    let mut n = 0u64;
    while (text.len() as u64) < size {
        n += 1;
        let _ = writeln!(text, "line {n:08} of the file being written");
    }
    text.truncate(size as usize - 1);
    text.push('\n');
    text
}

/// Runs `trials` killed changes of up to `max_bytes` with the CLI `bin`.
pub fn cli(bin: &Path, dir: &Path, trials: u64, max_bytes: u64, rng: &mut Rng) -> Result<Report> {
    let window = calibrate(bin, dir, max_bytes)?;
    let mut report = Report::default();
    let mut left = debris(dir)?;
    for trial in 0..trials {
        let size = log_spread(rng, max_bytes);
        let edit = trial % 2 == 1 && size <= MAX_EDIT_BYTES;
        let (name, old, new) = if edit {
            let old = content(size, "first version");
            let new = old.replacen("first version", "final version", 1);
            fs::write(dir.join("edited.txt"), &old)?;
            ("edited.txt".to_owned(), Some(old), new)
        } else {
            (
                format!("created-{trial}.txt"),
                None,
                content(size, "created"),
            )
        };
        let mut session = SessionProcess::start(bin, dir, &[])?;
        let call = if edit {
            let read = session.call("read", &json!({"file_path": name, "limit": 1}))?;
            if !succeeded(&read) {
                bail!("reading before an edit failed: {read}");
            }
            json!({"tool": "edit", "args": {"file_path": name, "old_string": "first version", "new_string": "final version"}})
        } else {
            json!({"tool": "write", "args": {"file_path": name, "content": new}})
        };
        session.send_raw(format!("{call}\n").as_bytes())?;
        let delay = rng.stratified(trial, trials, window);
        let answered = session.answer_within(Duration::from_micros(delay))?;
        let _ = session.kill();
        report.tried += 1;
        if answered.is_none() {
            report.killed += 1;
        }
        let end = fs::read_to_string(dir.join(&name)).ok();
        let whole = match (&end, &old) {
            (None, None) => true,
            (Some(end), _) if *end == new => true,
            (Some(end), Some(old)) => end == old,
            _ => false,
        };
        if !whole {
            report.torn += 1;
        }
        let (files, bytes) = debris(dir)?;
        report.debris_after_kill.0 += files.saturating_sub(left.0);
        report.debris_after_kill.1 += bytes.saturating_sub(left.1);
        next_write(bin, dir)?;
        left = debris(dir)?;
        if !edit {
            let _ = fs::remove_file(dir.join(&name));
        }
    }
    report.debris_after_next_write = left.0;
    Ok(report)
}

/// A size from 1 KB to `max`, as likely in each doubling: small and large
/// changes are tried alike.
pub(super) fn log_spread(rng: &mut Rng, max: u64) -> u64 {
    let max = max.max(MIN_BYTES);
    let doublings = (max / MIN_BYTES).ilog2();
    let low = MIN_BYTES << rng.below(u64::from(doublings) + 1);
    rng.between(low, (low * 2).min(max)).min(max)
}

/// Another process's write to the directory, as after a crash.
fn next_write(bin: &Path, dir: &Path) -> Result<()> {
    let status = Command::new(bin)
        .args(["write", "next.txt", "--content", "next\n", "--root"])
        .arg(dir)
        .stdout(std::process::Stdio::null())
        .status()?;
    if !status.success() {
        bail!("the next write failed: {status}");
    }
    fs::remove_file(dir.join("next.txt"))?;
    Ok(())
}

/// Calibration writes timed; the fastest sets the window.
const CALIBRATIONS: usize = 3;

/// The window, in microseconds, a kill lands in: a little longer than an
/// unkilled creation of the largest size.
fn calibrate(bin: &Path, dir: &Path, max_bytes: u64) -> Result<u64> {
    // The fastest of a few: one write slowed by the other tests running
    // beside it would stretch the window past every later write, and then
    // no kill would land while a change is under way.
    let mut fastest = Duration::MAX;
    for _ in 0..CALIBRATIONS {
        let mut session = SessionProcess::start(bin, dir, &[])?;
        let call = json!({"tool": "write", "args": {"file_path": "calibration.txt", "content": content(max_bytes, "calibration")}});
        let line = format!("{call}\n");
        let started = Instant::now();
        session.send_raw(line.as_bytes())?;
        let answer = session.answer_within(crate::cli::ANSWER_TIMEOUT)?;
        let took = started.elapsed();
        if !answer.as_ref().is_some_and(succeeded) {
            bail!("an unkilled write failed: {answer:?}");
        }
        session.finish()?;
        fs::remove_file(dir.join("calibration.txt"))?;
        fastest = fastest.min(took);
    }
    Ok((fastest.as_micros() as u64 * 5 / 4).max(1))
}
