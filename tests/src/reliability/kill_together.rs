//! `kill -9` in the middle of changes of several files.
//!
//! Each trial makes two to seven files of 1 KB up to the largest size asked
//! for, starts a session, and begins one change of all of them — a patch
//! over every file, the undo of such a patch, a `replace` across them, a
//! `rewind` to the turn before a patch of them, the undo of a move (two
//! files: the one put back and the one removed), or a move itself — then
//! kills the process
//! at a random moment of it. The disk may then hold some files changed and
//! some not; the next session's first call must leave every file all old or
//! all new, say so when it put anything back or kept a change, and leave no
//! file holding neither version.

use std::fmt::{self, Write as _};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde_json::{Value, json};

use super::Rng;
use super::kill::{MIN_BYTES, content, log_spread};
use crate::cli::{Runner, SessionProcess, succeeded, text};

/// Most files in one change.
const MAX_FILES: u64 = 7;

/// Most bytes over all files of one change (seven files of 6 MB, say).
const MAX_TOTAL_BYTES: u64 = 42 * 1024 * 1024;

/// The sessions' arguments: the tool sets, a history that keeps every old
/// version of the largest change, and the memory to hold it.
const SESSION_ARGS: [&str; 6] = [
    "--tools",
    "filetools,apply-patch,mcp-filesystem",
    "--config",
    r#"{"history_bytes": 134217728, "max_edit_bytes": 33554432}"#,
    "--memory-mib",
    "1024",
];

/// A kind of change of several files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `apply_patch` over every file.
    Patch,
    /// `undo` of such a patch.
    UndoPatch,
    /// `undo` of a `move_file`.
    UndoMove,
    /// `move_file` itself (one rename: the control).
    Move,
    /// `replace` across every file, after its dry run.
    Replace,
    /// `rewind` to a turn marked before a patch of every file.
    Rewind,
}

impl Kind {
    /// Every kind, in trial order.
    pub const ALL: [Kind; 6] = [
        Kind::Patch,
        Kind::UndoPatch,
        Kind::Replace,
        Kind::Rewind,
        Kind::UndoMove,
        Kind::Move,
    ];
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Patch => "patches",
            Kind::UndoPatch => "undos of patches",
            Kind::UndoMove => "undos of moves",
            Kind::Move => "moves",
            Kind::Replace => "replaces",
            Kind::Rewind => "rewinds",
        })
    }
}

/// What the trials of one kind came to.
#[derive(Debug, Default, Clone)]
pub struct Counts {
    /// Changes started.
    pub tried: u64,
    /// Killed before they answered.
    pub killed: u64,
    /// Kills that left some files changed and some not.
    pub mixed_after_kill: u64,
    /// Files mixed still after the next session's first call.
    pub mixed_after_next_call: u64,
    /// Mixed kills whose next first call did not say what it did.
    pub unsaid: u64,
    /// Kills whose next first call said it settled a change cut off.
    pub settled: u64,
    /// Of those, the ones it found landed, whole or in part (it kept the
    /// change, or put files back).
    pub recovered: u64,
    /// Files holding neither version.
    pub torn: u64,
}

/// What the trials came to, by kind.
#[derive(Debug, Default, Clone)]
pub struct Report(pub Vec<(Kind, Counts)>);

impl Report {
    /// Mixed states left, unsaid recoveries and torn files, over all kinds.
    pub fn failures(&self) -> u64 {
        self.0
            .iter()
            .map(|(_, c)| c.mixed_after_next_call + c.unsaid + c.torn)
            .sum()
    }

    /// Kills that landed between two steps, over all kinds.
    pub fn mixed_after_kill(&self) -> u64 {
        self.0.iter().map(|(_, c)| c.mixed_after_kill).sum()
    }

    /// Kills after some step of a change, its record kept, over all
    /// kinds: the next call kept the change or put files back.
    pub fn recovered(&self) -> u64 {
        self.0.iter().map(|(_, c)| c.recovered).sum()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (kind, c) in &self.0 {
            writeln!(
                f,
                "  {kind}: {} started, {} killed midway, {} settled by the next call ({} after a step), {} left mixed by the kill, {} mixed after the next call, {} put back without a word, {} torn files",
                c.tried,
                c.killed,
                c.settled,
                c.recovered,
                c.mixed_after_kill,
                c.mixed_after_next_call,
                c.unsaid,
                c.torn
            )?;
        }
        Ok(())
    }
}

/// One trial's files: name, old and new content (`None`: absent).
type Plan = Vec<(String, Option<String>, Option<String>)>;

/// Runs `trials` killed changes of each kind, files up to `max_bytes`,
/// with the CLI `bin` in `dir`.
pub fn cli(bin: &Path, dir: &Path, trials: u64, max_bytes: u64, rng: &mut Rng) -> Result<Report> {
    across(
        Runner::Cli(bin),
        Runner::Cli(bin),
        dir,
        trials,
        max_bytes,
        rng,
    )
}

/// Runs `trials` changes of each kind made by `maker` and killed, files up
/// to `max_bytes`, in `dir`, each followed by a first call of `next`: a
/// change cut off in one host is put back by the other.
pub fn across(
    maker: Runner<'_>,
    next: Runner<'_>,
    dir: &Path,
    trials: u64,
    max_bytes: u64,
    rng: &mut Rng,
) -> Result<Report> {
    let mut report = Report::default();
    for kind in Kind::ALL {
        // An unkilled change of the fewest, smallest files and of the most,
        // largest ones: a trial's window lies between, by its bytes.
        let small = calibrate(maker, dir, kind, MIN_BYTES, 2)?;
        let large = calibrate(maker, dir, kind, max_bytes, MAX_FILES)?;
        let large_bytes = large.bytes.max(1);
        let mut counts = Counts::default();
        for trial in 0..trials {
            let plan = prepare(dir, kind, trial, max_bytes, rng)?;
            let bytes: u64 = plan
                .iter()
                .filter_map(|(_, old, _)| old.as_ref())
                .map(|o| o.len() as u64)
                .sum();
            let by_bytes =
                |small: u64, large: u64| small + large.saturating_sub(small) * bytes / large_bytes;
            // Every other kill lands from a little before the first file
            // changes (so some land before any step) to the answer; the
            // rest between the first file's change and the last's (a host
            // that lands the files in one batch puts them in place in a
            // short run near its end: only there does a kill leave them
            // mixed).
            let changes = by_bytes(small.first_change, large.first_change);
            let last = by_bytes(small.last_change, large.last_change).max(changes + 1);
            let answer = by_bytes(small.end, large.end).max(changes + 1);
            let (first, end) = if trial % 2 == 0 {
                (changes, last)
            } else {
                (changes * 9 / 10, answer)
            };
            let (mut session, call) = staged(maker, dir, kind, &plan)?;
            session.send_raw(format!("{call}\n").as_bytes())?;
            let delay = first + rng.stratified(trial / 2, trials.div_ceil(2), end - first);
            let answered = session.answer_within(Duration::from_micros(delay))?;
            let _ = session.kill();
            counts.tried += 1;
            if answered.is_none() {
                counts.killed += 1;
            }
            let after_kill = sides(dir, &plan);
            counts.torn += after_kill.torn;
            let mixed = after_kill.old > 0 && after_kill.new > 0;
            counts.mixed_after_kill += u64::from(mixed);
            let mut next = SessionProcess::start_with(next, dir, &SESSION_ARGS)?;
            let first = next.call("read", &json!({"file_path": plan[0].0, "limit": 1}))?;
            next.finish()?;
            let after = sides(dir, &plan);
            counts.torn += after.torn;
            if after.old > 0 && after.new > 0 {
                counts.mixed_after_next_call += 1;
            }
            let said = text(&first);
            if mixed && !said.starts_with("Note: ") {
                counts.unsaid += 1;
            }
            let settled = said.starts_with("Note: ") && said.contains(" was cut off ");
            counts.settled += u64::from(settled);
            counts.recovered += u64::from(settled && !said.contains("before its first step"));
            clear(dir)?;
        }
        report.0.push((kind, counts));
    }
    Ok(report)
}

/// Files on one side or the other, and torn.
#[derive(Debug, Default)]
struct Sides {
    old: u64,
    new: u64,
    torn: u64,
}

/// Where the files of `plan` stand.
fn sides(dir: &Path, plan: &Plan) -> Sides {
    let mut sides = Sides::default();
    for (name, old, new) in plan {
        let now = fs::read_to_string(dir.join(name)).ok();
        if now == *old && now == *new {
            continue;
        }
        if now == *old {
            sides.old += 1;
        } else if now == *new {
            sides.new += 1;
        } else {
            sides.torn += 1;
        }
    }
    sides
}

/// Writes the trial's files: for a patch, their old and new versions; for
/// an undo, the versions before and after the undo.
fn prepare(dir: &Path, kind: Kind, trial: u64, max_bytes: u64, rng: &mut Rng) -> Result<Plan> {
    let count = if matches!(kind, Kind::UndoMove | Kind::Move) {
        1
    } else {
        rng.between(2, MAX_FILES)
    };
    let mut plan = Vec::new();
    let mut total = 0;
    for n in 0..count {
        let size =
            log_spread(rng, max_bytes).min(MAX_TOTAL_BYTES.saturating_sub(total).max(MIN_BYTES));
        total += size;
        let name = format!("f{trial}-{n}.txt");
        let old = content(size, &format!("first version of {name}"));
        fs::write(dir.join(&name), &old)?;
        let new = old.replacen("first version", "final version", 1);
        plan.push((name, Some(old), Some(new)));
    }
    Ok(for_kind(plan, kind))
}

/// `plan`, files written with their old and new versions, as `kind`
/// changes them: for a move or its undo, its one file and the name it
/// moves to (before the undo, moved there; after it, back).
fn for_kind(mut plan: Plan, kind: Kind) -> Plan {
    if matches!(kind, Kind::UndoMove | Kind::Move) {
        let (name, old, _) = plan.remove(0);
        let moved = format!("moved-{name}");
        if kind == Kind::Move {
            plan.push((name, old.clone(), None));
            plan.push((moved, None, old));
        } else {
            plan.push((name, None, old.clone()));
            plan.push((moved, old, None));
        }
    }
    plan
}

/// A session that has read the files and, for an undo, made the change;
/// and the call to kill.
fn staged(
    runner: Runner<'_>,
    dir: &Path,
    kind: Kind,
    plan: &Plan,
) -> Result<(SessionProcess, Value)> {
    let mut session = SessionProcess::start_with(runner, dir, &SESSION_ARGS)?;
    let mut call = |tool: &str, args: Value| -> Result<()> {
        let answer = session.call(tool, &args)?;
        if !succeeded(&answer) {
            bail!("setting up a {kind} trial: {tool} failed: {answer}");
        }
        Ok(())
    };
    match kind {
        Kind::Patch | Kind::UndoPatch => {
            for (name, _, _) in plan {
                call("read", json!({"file_path": name, "limit": 1}))?;
            }
            let patch = patch_of(plan);
            if kind == Kind::Patch {
                return Ok((
                    session,
                    json!({"tool": "apply_patch", "args": {"input": patch}}),
                ));
            }
            call("apply_patch", json!({"input": patch}))?;
            let undo = json!({"tool": "undo", "args": {"file_path": plan[0].0}});
            Ok((session, undo))
        }
        Kind::Replace => {
            let replace = json!({
                "pattern": "first version",
                "replacement": "final version",
                "path": ".",
                "glob": "*.txt",
            });
            call("replace", replace.clone())?;
            let mut apply = replace;
            apply["apply"] = json!(true);
            apply["expected_count"] = json!(plan.len());
            Ok((session, json!({"tool": "replace", "args": apply})))
        }
        Kind::Rewind => {
            for (name, _, _) in plan {
                call("read", json!({"file_path": name, "limit": 1}))?;
            }
            call("mark", json!({}))?;
            call("apply_patch", json!({"input": patch_of(plan)}))?;
            Ok((session, json!({"tool": "rewind", "args": {"mark": 1}})))
        }
        Kind::Move => {
            let (from, to) = (&plan[0].0, &plan[1].0);
            call("read", json!({"file_path": from, "limit": 1}))?;
            let call = json!({"tool": "move_file", "args": {"source": from, "destination": to}});
            Ok((session, call))
        }
        Kind::UndoMove => {
            let (back, moved) = (&plan[0].0, &plan[1].0);
            call("read", json!({"file_path": back, "limit": 1}))?;
            call("move_file", json!({"source": back, "destination": moved}))?;
            let undo = json!({"tool": "undo", "args": {"file_path": moved}});
            Ok((session, undo))
        }
    }
}

/// The patch that turns every file of `plan` from its first version to
/// its final one, for a patch trial; for an undo trial, the same.
fn patch_of(plan: &Plan) -> String {
    let mut patch = String::from("*** Begin Patch\n");
    for (name, old, _) in plan {
        let first = old.as_deref().and_then(|o| o.lines().next()).unwrap_or("");
        let _ = write!(
            patch,
            "*** Update File: {name}\n@@\n-{first}\n+{}\n",
            first.replacen("first version", "final version", 1)
        );
    }
    patch.push_str("*** End Patch");
    patch
}

/// Removes every file of the trials.
fn clear(dir: &Path) -> Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_file() {
            fs::remove_file(path)?;
        }
    }
    Ok(())
}

/// How long an unkilled change took, in microseconds from its call.
#[derive(Debug, Clone, Copy)]
struct Calibration {
    /// Until the first of its files changed on disk: the steps begin.
    first_change: u64,
    /// Until every one of its files had changed: the steps are over.
    last_change: u64,
    /// Until its answer.
    end: u64,
    /// The bytes it changed.
    bytes: u64,
}

/// Pause between two looks at the files while a calibration runs.
const POLL: Duration = Duration::from_micros(50);

/// The files of `plan` as `stat` sees them: any step changes one.
fn stamps(dir: &Path, plan: &Plan) -> Vec<Option<(u64, u64, i64, i64)>> {
    use std::os::unix::fs::MetadataExt as _;
    plan.iter()
        .map(|(name, _, _)| {
            fs::metadata(dir.join(name))
                .ok()
                .map(|m| (m.ino(), m.len(), m.mtime(), m.mtime_nsec()))
        })
        .collect()
}

/// How long an unkilled change of `files` files of `size` takes (as far
/// as the change allows: one for a move), and when its steps begin.
fn calibrate(
    runner: Runner<'_>,
    dir: &Path,
    kind: Kind,
    size: u64,
    files: u64,
) -> Result<Calibration> {
    let mut plan = Vec::new();
    let files = if matches!(kind, Kind::UndoMove | Kind::Move) {
        1
    } else {
        files
    };
    let size = size.min(MAX_TOTAL_BYTES / files);
    for n in 0..files {
        let name = format!("calibration-{n}.txt");
        let old = content(size, &format!("first version of {name}"));
        fs::write(dir.join(&name), &old)?;
        let new = old.replacen("first version", "final version", 1);
        plan.push((name, Some(old), Some(new)));
    }
    let plan = for_kind(plan, kind);
    let (mut session, call) = staged(runner, dir, kind, &plan)?;
    let before = stamps(dir, &plan);
    let started = Instant::now();
    session.send_raw(format!("{call}\n").as_bytes())?;
    let (mut first_change, mut last_change) = (None, None);
    let answer = loop {
        if last_change.is_none() {
            let now = stamps(dir, &plan);
            if first_change.is_none() && now != before {
                first_change = Some(started.elapsed());
            }
            if now.iter().zip(&before).all(|(now, was)| now != was) {
                last_change = Some(started.elapsed());
            }
        }
        if let Some(answer) = session.answer_within(POLL)? {
            break answer;
        }
        if started.elapsed() > crate::cli::ANSWER_TIMEOUT {
            bail!("an unkilled {kind} did not answer");
        }
    };
    let took = started.elapsed();
    if !succeeded(&answer) {
        bail!("an unkilled {kind} failed: {answer:?}");
    }
    session.finish()?;
    clear(dir)?;
    let micros = |time: Duration| u64::try_from(time.as_micros()).unwrap_or(u64::MAX);
    Ok(Calibration {
        first_change: micros(first_change.unwrap_or(took)),
        last_change: micros(last_change.unwrap_or(took)),
        end: micros(took).max(1),
        bytes: size * files,
    })
}
