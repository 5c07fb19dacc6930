//! Special files swapped in for a regular one while a change runs.
//!
//! The session has seen an empty file; a write (or an undo of the write that
//! emptied it) starts, and at a random moment a FIFO or a character device with
//! `/dev/zero`'s numbers is renamed over the file. Whenever it lands, it
//! must still be there afterwards (a change never replaces a node that is
//! not a regular file), and the call must answer at once: a host that opens
//! the node to hash it waits forever on the FIFO or reads zeros forever.

use std::fmt;
use std::fs;
use std::path::Path;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde_json::json;

use super::{Rng, Special, spin};
use crate::cli::{SessionProcess, succeeded};

/// A call unanswered for this long is taken to hang.
pub const HANG_AFTER: Duration = Duration::from_secs(10);

/// What the trials came to.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Trials run, per special kind.
    pub tried: Vec<(Special, u64)>,
    /// Calls that did not answer within [`HANG_AFTER`].
    pub hangs: u64,
    /// Special files found replaced by a regular file afterwards.
    pub replaced: u64,
    /// Whether devices could be made here (it takes `CAP_MKNOD`).
    pub devices: bool,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tried: Vec<String> = self
            .tried
            .iter()
            .map(|(kind, n)| format!("{n} {kind}"))
            .collect();
        write!(
            f,
            "{} swapped in, {} hangs, {} replaced{}",
            tried.join(" and "),
            self.hangs,
            self.replaced,
            if self.devices {
                ""
            } else {
                " (devices not permitted here)"
            }
        )
    }
}

/// Runs `trials` swaps per special kind (and per change: write, undo)
/// against the CLI session `bin`.
pub fn cli(bin: &Path, dir: &Path, trials: u64, rng: &mut Rng) -> Result<Report> {
    let devices = Special::devices_allowed(dir);
    let kinds: &[Special] = if devices {
        &[Special::Fifo, Special::Zero]
    } else {
        &[Special::Fifo]
    };
    let mut report = Report {
        devices,
        ..Report::default()
    };
    let path = dir.join("swapped.txt");
    let staged = dir.join(".staged-node");
    let mut session = SessionProcess::start(bin, dir, &[])?;
    let window = calibrate(&mut session, &path)?;
    for &kind in kinds {
        for trial in 0..trials {
            let undo = trial % 2 == 1;
            prepare(&mut session, &path, undo)?;
            let _ = fs::remove_file(&staged);
            kind.make(&staged)?;
            let barrier = Arc::new(Barrier::new(2));
            let go = Arc::clone(&barrier);
            let delay = rng.stratified(trial / 2, trials.div_ceil(2), window);
            let (from, to) = (staged.clone(), path.clone());
            let swapper = thread::spawn(move || {
                go.wait();
                spin(delay);
                fs::rename(&from, &to)
            });
            let call = if undo {
                json!({"tool": "undo", "args": {"file_path": "swapped.txt"}})
            } else {
                json!({"tool": "write", "args": {"file_path": "swapped.txt", "content": "new\n"}})
            };
            session.send_raw(format!("{call}\n").as_bytes())?;
            barrier.wait();
            let answered = session.answer_within(HANG_AFTER)?.is_some();
            swapper
                .join()
                .map_err(|_| anyhow::anyhow!("the swapper panicked"))??;
            if !answered {
                report.hangs += 1;
                let _ = session.kill();
                session = SessionProcess::start(bin, dir, &[])?;
            }
            if !kind.is_at(&path) {
                report.replaced += 1;
            }
            fs::remove_file(&path)?;
        }
        report.tried.push((kind, trials));
    }
    session.finish()?;
    Ok(report)
}

/// An empty `path` the session has seen, about to be written; for an
/// undo, a file the session has just emptied, about to be restored.
fn prepare(session: &mut SessionProcess, path: &Path, undo: bool) -> Result<()> {
    fs::write(path, if undo { "before\n" } else { "" })?;
    let steps = if undo {
        vec![
            json!({"tool": "read", "args": {"file_path": "swapped.txt"}}),
            json!({"tool": "write", "args": {"file_path": "swapped.txt", "content": ""}}),
        ]
    } else {
        vec![json!({"tool": "read", "args": {"file_path": "swapped.txt"}})]
    };
    for step in steps {
        let answer = session.send(&step.to_string())?;
        if !succeeded(&answer) {
            bail!("setting up a swap failed: {answer}");
        }
    }
    Ok(())
}

/// The window, in microseconds, of a write's round trip, measured unraced.
fn calibrate(session: &mut SessionProcess, path: &Path) -> Result<u64> {
    let mut times = Vec::new();
    for _ in 0..5 {
        prepare(session, path, false)?;
        let started = Instant::now();
        let call =
            json!({"tool": "write", "args": {"file_path": "swapped.txt", "content": "new\n"}});
        session.send(&call.to_string())?;
        times.push(started.elapsed());
    }
    Ok(super::race::window_of(times))
}
