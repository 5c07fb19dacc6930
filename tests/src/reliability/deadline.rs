//! Deadlines swept across a change of several files.
//!
//! A patch over six files of 1.5 MB is made again and again in the Rust
//! host, each time under a shorter or longer time limit per call, from one
//! that passes before the patch's first step to one that passes after its
//! last. Whatever the limit, the files must be all old (and the answer an
//! error) or all new (and the answer a success) right after the call, and
//! the next call must find nothing left to settle.

use std::fmt::{self, Write as _};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use filetools::Tools;
use serde_json::json;

/// Files the patch changes.
const FILES: usize = 6;
/// Bytes of each file.
const FILE_BYTES: usize = 1_500_000;

/// What the sweep came to.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Patches tried.
    pub tried: u64,
    /// Stopped by the deadline before their first step: all old.
    pub stopped: u64,
    /// Landed whole.
    pub landed: u64,
    /// Left some files changed and some not.
    pub mixed: u64,
    /// Answers that said the opposite of what the files show.
    pub wrong_answers: u64,
    /// Next calls that found something to settle.
    pub left_to_settle: u64,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} patches of {FILES} files, {} stopped before the first step, {} landed whole, {} mixed, {} answers wrong, {} left for the next call",
            self.tried,
            self.stopped,
            self.landed,
            self.mixed,
            self.wrong_answers,
            self.left_to_settle
        )
    }
}

/// The files, written afresh, and the patch that changes every first line.
fn files(root: &Path) -> Result<(Vec<(String, String)>, String)> {
    let mut files = Vec::new();
    let mut patch = String::from("*** Begin Patch\n");
    for n in 0..FILES {
        let name = format!("part-{n}.txt");
        let mut old = format!("first version of {name}\n");
        while old.len() < FILE_BYTES {
            old.push_str("a line of a file that one patch changes with five others\n");
        }
        fs::write(root.join(&name), &old)?;
        let _ = write!(
            patch,
            "*** Update File: {name}\n@@\n-first version of {name}\n+final version of {name}\n"
        );
        files.push((name, old.replacen("first version", "final version", 1)));
    }
    patch.push_str("*** End Patch");
    Ok((files, patch))
}

/// The tools over `root` with each call's time limit `limit`.
fn tools(root: &Path, state: &Path, limit: Option<Duration>) -> Result<Tools> {
    let mut builder = Tools::builder()
        .root(root)
        .state_dir(state)
        .config_json(r#"{"tools": ["filetools", "apply-patch"], "history_bytes": 67108864}"#)?;
    if let Some(limit) = limit {
        builder = builder.call_timeout(limit);
    }
    builder.build()
}

/// Reads every file, then patches them all; the time the patch took.
fn patch(tools: &Tools, files: &[(String, String)], patch: &str) -> Result<(Duration, bool)> {
    let mut session = tools.session()?;
    for (name, _) in files {
        session.call("read", &json!({"file_path": name, "limit": 1}).to_string());
    }
    let started = Instant::now();
    let answer = session.call("apply_patch", &json!({"input": patch}).to_string());
    Ok((started.elapsed(), !answer.is_error))
}

/// Sweeps `runs` time limits across the patch, in `root` (records of
/// changes under way in `state`).
pub fn sweep(root: &Path, state: &Path, runs: u64) -> Result<Report> {
    let (files_now, text) = files(root)?;
    let (took, ok) = patch(&tools(root, state, None)?, &files_now, &text)?;
    if !ok {
        bail!("an unhurried patch failed");
    }
    let took = u64::try_from(took.as_micros()).unwrap_or(u64::MAX).max(1);
    let mut report = Report::default();
    for run in 0..runs {
        // From a tenth of the patch's time to a third more than all of it.
        let micros = took / 10 + took * 123 * run / (100 * runs.max(1));
        let (files_now, text) = files(root)?;
        let tools = tools(root, state, Some(Duration::from_micros(micros.max(1))))?;
        let (_, ok) = patch(&tools, &files_now, &text)?;
        report.tried += 1;
        let new = files_now
            .iter()
            .filter(|(name, new)| fs::read_to_string(root.join(name)).ok().as_ref() == Some(new))
            .count();
        match new {
            0 => report.stopped += 1,
            FILES => report.landed += 1,
            _ => report.mixed += 1,
        }
        if ok != (new == FILES) {
            report.wrong_answers += 1;
        }
        let next = tools.session()?.call(
            "read",
            &json!({"file_path": files_now[0].0, "limit": 1}).to_string(),
        );
        if next.text().starts_with("Note:") {
            report.left_to_settle += 1;
        }
    }
    Ok(report)
}
