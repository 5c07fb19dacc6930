//! Hostile files read by one session (the corpus of [`crate::hostile`]).
//!
//! The session first reads a small file; then, after each hostile read
//! (and, for the files that ask for it, a change of the hostile file), it
//! edits that first file without reading it again. Each hostile read must answer
//! — an error is fine, a trap is not — and each edit must succeed: the
//! session still remembers what it read.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde_json::json;

use super::Rng;
use crate::cli::{SessionProcess, error_code, succeeded};
use crate::hostile::{Class, Counts, corpus};

/// The tool sets offered: the notebook's too, for the edits of notebooks.
const TOOLS: [&str; 2] = ["--tools", "filetools,notebook"];

/// A hostile read unanswered for this long is taken to hang.
pub const HANG_AFTER: Duration = Duration::from_mins(2);

/// What one class came to.
#[derive(Debug, Default, Clone)]
pub struct ClassReport {
    /// Files read.
    pub tried: u64,
    /// Reads that trapped the guest (or ended the session).
    pub traps: u64,
    /// Reads after which the session had forgotten the earlier read.
    pub forgot: u64,
    /// Reads unanswered within [`HANG_AFTER`].
    pub hangs: u64,
    /// The slowest read.
    pub slowest: Duration,
    /// The first trap's file and message.
    pub first_trap: Option<String>,
}

/// What the corpus came to, by class.
#[derive(Debug, Default, Clone)]
pub struct Report(pub BTreeMap<Class, ClassReport>);

impl Report {
    /// All traps, forgetting and hangs.
    pub fn failures(&self) -> u64 {
        self.0.values().map(|c| c.traps + c.forgot + c.hangs).sum()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (class, c) in &self.0 {
            writeln!(
                f,
                "  {class}: {} read, {} traps, {} times memory lost, {} hangs, slowest {} ms{}",
                c.tried,
                c.traps,
                c.forgot,
                c.hangs,
                c.slowest.as_millis(),
                c.first_trap
                    .as_ref()
                    .map_or(String::new(), |t| format!(" (first trap: {t})"))
            )?;
        }
        Ok(())
    }
}

/// Reads the corpus made with `counts` through a session of `bin` in `dir`.
pub fn cli(bin: &Path, dir: &Path, counts: Counts, rng: &mut Rng) -> Result<Report> {
    let files = corpus(rng, counts)?;
    fs::write(dir.join("memory.txt"), "remember 0\n")?;
    let mut session = SessionProcess::start(bin, dir, &TOOLS)?;
    let first = session.call("read", &json!({"file_path": "memory.txt"}))?;
    if !succeeded(&first) {
        bail!("the first read failed: {first}");
    }
    let mut report = Report::default();
    let mut edits = 0u64;
    for file in files {
        fs::write(dir.join(&file.name), &file.bytes)?;
        let mut args = json!({"file_path": file.name});
        if let Some(pages) = &file.pages {
            args["pages"] = json!(pages);
        }
        let entry = report.0.entry(file.class).or_default();
        entry.tried += 1;
        let started = Instant::now();
        session.send_raw(format!("{}\n", json!({"tool": "read", "args": args})).as_bytes())?;
        let mut answer = session.answer_within(HANG_AFTER);
        if let (Ok(Some(read)), Some((tool, args))) = (&answer, &file.then)
            && error_code(read) != Some("guest_trap")
        {
            session.send_raw(format!("{}\n", json!({"tool": tool, "args": args})).as_bytes())?;
            answer = session.answer_within(HANG_AFTER);
        }
        entry.slowest = entry.slowest.max(started.elapsed());
        let _ = fs::remove_file(dir.join(&file.name));
        match answer {
            Ok(Some(answer)) if error_code(&answer) == Some("guest_trap") => {
                entry.traps += 1;
                entry
                    .first_trap
                    .get_or_insert_with(|| format!("{}: {}", file.name, crate::cli::text(&answer)));
            }
            Ok(Some(_)) => {}
            Ok(None) => {
                entry.hangs += 1;
                let _ = session.kill();
                session = restart(bin, dir)?;
                continue;
            }
            Err(err) => {
                entry.traps += 1;
                entry
                    .first_trap
                    .get_or_insert_with(|| format!("{}: the session ended ({err})", file.name));
                session = restart(bin, dir)?;
                continue;
            }
        }
        let edit = json!({
            "file_path": "memory.txt",
            "old_string": format!("remember {edits}"),
            "new_string": format!("remember {}", edits + 1),
        });
        let edited = session.call("edit", &edit)?;
        if succeeded(&edited) {
            edits += 1;
        } else {
            entry.forgot += 1;
            // Read it again, so later files are judged on their own.
            session.call("read", &json!({"file_path": "memory.txt"}))?;
        }
    }
    session.finish()?;
    Ok(report)
}

/// A new session that has read the memory file.
fn restart(bin: &Path, dir: &Path) -> Result<SessionProcess> {
    let mut session = SessionProcess::start(bin, dir, &TOOLS)?;
    session.call("read", &json!({"file_path": "memory.txt"}))?;
    Ok(session)
}
