//! Changes of several files that land together or not at all (SPEC W4, W5
//! for a patch over many files, a move, and the undo of either): every step
//! is checked and prepared before the first byte is written; the steps then
//! run in order, each an atomic host call with its own precondition, and
//! when one fails, the steps already made are taken back — each again only
//! over exactly what it wrote — so the files stand as they were. Once all
//! succeeded, the history gets one entry per file, in one group that one
//! undo takes back, and the ledger counts the new contents as seen.

use crate::answers::error::ToolError;
use crate::answers::tool::Tool;
use crate::change::commit::{Commit, Replaced, remember};
use crate::change::context::Ctx;
use crate::change::intent::Intent;
use crate::fs::digests::Digests;
use crate::fs::host::{FileStamp, FsError, HostFs, Metadata, Precondition};
use crate::fs::sha256::sha256_hex;
use crate::memory::fingerprint::Fingerprint;
use crate::memory::ledger::Coverage;
use crate::text::textfile::Style;

/// Files a change lands in one batch of the host's at most (the Rust
/// host's cap); a change of more lands one file at a time.
pub const MAX_BATCHED_STEPS: usize = 64;

/// What a step leaves at its path.
#[derive(Debug, Clone)]
pub(crate) enum After {
    /// These bytes, in this style, with so many lines, seen as given.
    Bytes {
        /// The new content, encoded.
        bytes: Vec<u8>,
        /// Its style.
        style: Style,
        /// Its lines.
        total_lines: u64,
        /// The lines the model has seen of it.
        seen: Coverage,
    },
    /// Nothing: the file is removed.
    Nothing,
}

impl After {
    /// `bytes` as they are, their style and lines read from them.
    pub fn plain(bytes: Vec<u8>) -> Self {
        let (style, total_lines) = match crate::text::textfile::TextFile::decode(&bytes) {
            Ok(file) => (file.style, crate::text::textfile::line_count(&file.text)),
            Err(_) => (
                Style::of_text("", crate::text::encoding::Encoding::Utf8, false),
                0,
            ),
        };
        After::Bytes {
            bytes,
            style,
            total_lines,
            seen: Coverage::default(),
        }
    }
}

/// One file's part of a change.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    /// Root-relative path.
    pub rel: String,
    /// The path as the model named it, for messages.
    pub path: String,
    /// What the file holds now (`None`: it does not exist).
    pub before: Option<Vec<u8>>,
    /// What the file must still be when the step runs.
    pub precondition: Precondition,
    /// What the step leaves.
    pub after: After,
}

/// The precondition that matches exactly `bytes`.
pub(crate) fn holding(bytes: &[u8]) -> Precondition {
    let Digests { sha256, xxh3 } = Digests::of(bytes);
    Precondition::Matches(FileStamp {
        size: bytes.len() as u64,
        mtime_ns: 0,
        sha256: Some(sha256),
        xxh3,
    })
}

/// Runs one step on the files; the metadata of a written file.
fn run<F: HostFs + ?Sized>(fs: &F, step: &Step) -> Result<Option<Metadata>, FsError> {
    match &step.after {
        After::Bytes { bytes, .. } => fs
            .write_file(&step.rel, bytes, &step.precondition)
            .map(Some),
        After::Nothing => fs.remove_file(&step.rel, &step.precondition).map(|()| None),
    }
}

/// Takes a step that ran back, only over what it left.
fn take_back<F: HostFs + ?Sized>(fs: &F, step: &Step) -> Result<(), FsError> {
    match (&step.after, &step.before) {
        (After::Bytes { bytes, .. }, Some(old)) => {
            fs.write_file(&step.rel, old, &holding(bytes)).map(|_| ())
        }
        (After::Bytes { bytes, .. }, None) => fs.remove_file(&step.rel, &holding(bytes)),
        (After::Nothing, Some(old)) => fs
            .write_file(&step.rel, old, &Precondition::Absent)
            .map(|_| ()),
        (After::Nothing, None) => Ok(()),
    }
}

/// Runs `steps` in order, all or none: on a failure the steps made are
/// taken back, newest first, and the error names the file that failed and
/// any that could not be taken back.
pub(crate) fn run_all<F: HostFs + ?Sized>(
    fs: &F,
    steps: &[Step],
    tool: Tool,
) -> Result<Vec<Option<Metadata>>, ToolError> {
    let mut done = Vec::with_capacity(steps.len());
    for (n, step) in steps.iter().enumerate() {
        match run(fs, step) {
            Ok(meta) => done.push(meta),
            Err(error) => {
                let stuck: Vec<String> = steps[..n]
                    .iter()
                    .rev()
                    .filter(|made| take_back(fs, made).is_err())
                    .map(|made| made.path.clone())
                    .collect();
                return Err(failed(step, tool, error, stuck));
            }
        }
    }
    Ok(done)
}

/// Runs `steps`, every one a write, in one batch of the host's: each new
/// version is written beside its file, then all are flushed at once and
/// put in place together, or none is (see `batch-end` in
/// `wit/host-fs.wit`). A write refused with an I/O error (what the host
/// cannot batch: a file system that cannot swap names, say) ends the
/// batch with nothing put in place, and the steps run one by one, which
/// lands them or names the cause; any other refusal (a conflict) is the
/// change's answer, nothing written.
fn run_batched<F: HostFs + ?Sized>(
    fs: &F,
    steps: &[Step],
    tool: Tool,
) -> Result<Vec<Option<Metadata>>, ToolError> {
    let mut written = Vec::with_capacity(steps.len());
    for step in steps {
        match run(fs, step) {
            Ok(meta) => written.push(meta),
            // What the host cannot batch: nothing is in place yet.
            Err(FsError::Io(_)) => {
                fs.batch_end(false)
                    .map_err(|failure| failed(step, tool, failure.error, Vec::new()))?;
                return run_all(fs, steps, tool);
            }
            Err(error) => {
                let _ = fs.batch_end(false);
                return Err(failed(step, tool, error, Vec::new()));
            }
        }
    }
    fs.batch_end(true).map(|()| written).map_err(|failure| {
        let stuck = failure.stuck.iter().filter_map(|&n| steps.get(n));
        let stuck = stuck.map(|made| made.path.clone()).collect();
        let step = &steps[failure.index.min(steps.len() - 1)];
        failed(step, tool, failure.error, stuck)
    })
}

/// The error of a change whose `step` failed with `error`, naming the
/// files of steps made before it that could not be taken back.
fn failed(step: &Step, tool: Tool, error: FsError, stuck: Vec<String>) -> ToolError {
    let err = ToolError::from_write(&step.path, tool, error);
    if stuck.is_empty() {
        err
    } else {
        ToolError::PartlyWritten {
            cause: Box::new(err),
            stuck,
        }
    }
}

/// Runs `steps` all or none, then records them: one history entry per file,
/// grouped when there are several, and the new contents in the ledger.
pub(crate) fn commit_all<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    steps: &[Step],
    tool: Tool,
) -> Result<Vec<Option<Metadata>>, ToolError> {
    land(ctx, steps, tool, |ctx, metas| {
        record_all(ctx, steps, &metas, tool);
        metas
    })
}

/// Runs `steps` all or none and lets `record` note them in the session.
/// A change of several files keeps its intent with the host from before
/// the first step until it is recorded, so that one cut off by a kill or a
/// trap is finished or taken back by the next call (see `recover`).
pub(crate) fn land<F: HostFs + ?Sized, R>(
    ctx: &mut Ctx<'_, F>,
    steps: &[Step],
    tool: Tool,
    record: impl FnOnce(&mut Ctx<'_, F>, Vec<Option<Metadata>>) -> R,
) -> Result<R, ToolError> {
    let kept = steps.len() > 1;
    // Several files, each written (none removed), land in one batch where
    // the host has one: flushed together, its record with them.
    let batched = kept
        && steps.len() <= MAX_BATCHED_STEPS
        && steps
            .iter()
            .all(|step| matches!(step.after, After::Bytes { .. }))
        && ctx.fs.batch_begin();
    if kept {
        let intent = Intent::of(steps, tool == Tool::Undo).encode();
        if let Err(err) = ctx.fs.begin_change(&intent) {
            if batched {
                let _ = ctx.fs.batch_end(false);
            }
            return Err(ToolError::from_write(&steps[0].path, tool, err));
        }
    }
    let ran = if batched {
        run_batched(ctx.fs, steps, tool)
    } else {
        run_all(ctx.fs, steps, tool)
    };
    let landed = ran.map(|metas| record(ctx, metas));
    // A change some of whose steps could not be taken back keeps its
    // record, the only copy of what those files held: the next call tries
    // again. Otherwise the record goes; one left behind by a failed end is
    // claimed by the next call, which finds the change counted already.
    if kept && !matches!(landed, Err(ToolError::PartlyWritten { .. })) {
        let _ = ctx.fs.end_change();
    }
    landed
}

/// Records steps that ran, with the metadata each left: one history entry
/// per file, grouped when there are several, and the new contents in the
/// ledger.
pub(crate) fn record_all<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    steps: &[Step],
    metas: &[Option<Metadata>],
    tool: Tool,
) {
    let mut group = None;
    for (step, meta) in steps.iter().zip(metas) {
        if let (
            After::Bytes {
                bytes,
                style,
                total_lines,
                seen,
            },
            Some(meta),
        ) = (&step.after, meta)
        {
            let before_sha256 = step.before.as_deref().map(sha256_hex);
            let change = Commit {
                rel: &step.rel,
                path: &step.path,
                tool,
                bytes,
                precondition: step.precondition.clone(),
                replaced: step
                    .before
                    .as_deref()
                    .zip(before_sha256.as_deref())
                    .map_or(Replaced::Nothing, |(bytes, sha256)| {
                        Replaced::Bytes(bytes, sha256)
                    }),
                seen: seen.clone(),
                total_lines: *total_lines,
                style: *style,
            };
            remember(ctx, &change, meta);
        } else {
            let sha256 = step.before.as_deref().map(sha256_hex);
            let before = step.before.as_deref().zip(sha256.as_deref());
            let state = &mut *ctx.state;
            state
                .marks
                .first_change(&mut state.history, &step.rel, before);
            let previous = ctx.state.ledger.remove(&step.rel);
            let after = (Fingerprint::of(b""), 0);
            let cap = ctx.config.history_bytes;
            ctx.state
                .history
                .push(&step.rel, step.before.as_deref(), previous, after, cap);
        }
        let history = &mut ctx.state.history;
        if steps.len() > 1 && group.is_none() {
            group = history.last(&step.rel).map(|entry| entry.seq);
        }
        let removed = matches!(step.after, After::Nothing);
        history.mark(&step.rel, removed, group);
    }
}
