//! What a rewind does to each file of a mark: nothing when it holds what
//! it held then; restored, removed or put back when it holds a version
//! the session knows; merged with, or left as, a change someone made since
//! the session last knew it.

use std::collections::BTreeSet;

use crate::answers::error::ToolError;
use crate::answers::rewind::{Fate, Rewind, Why};
use crate::change::batch::{After, Step};
use crate::change::context::Ctx;
use crate::change::guard::{self, Current};
use crate::change::rewind::merge::merge3;
use crate::fs::host::{FileKind, FsError, HostFs, Precondition};
use crate::memory::marks::{Mark, Marked};
use crate::memory::state::State;

/// A rewind's outcome and the steps that make it.
pub(crate) struct Plan {
    /// What it does to each file.
    pub rewind: Rewind,
    /// The change of several files that does it.
    pub steps: Vec<Step>,
}

/// What a file is now.
enum Now {
    /// It does not exist.
    Absent,
    /// A file, read.
    File(Current),
}

/// Whether `marked` is what `now` holds.
fn same(marked: &Marked, now: &Now) -> bool {
    match (marked, now) {
        (Marked::Absent, Now::Absent) => true,
        (Marked::Kept { sha256, size }, Now::File(current)) => {
            current.len == *size && current.sha256 == *sha256
        }
        (
            Marked::Unkept {
                size,
                fingerprint: Some(fingerprint),
            },
            Now::File(current),
        ) => current.len == *size && current.fingerprint == *fingerprint,
        _ => false,
    }
}

/// Whether `now` is a version of `rel` the session knows as the work of
/// the turns rewound: what it last read or wrote, what its last change
/// left or removed, or what a mark from `from` on recorded.
fn known(state: &State, from: u64, rel: &str, now: &Now) -> bool {
    let marked = state
        .marks
        .all()
        .iter()
        .filter(|mark| mark.id >= from)
        .filter_map(|mark| mark.files.get(rel))
        .any(|marked| same(marked, now));
    let last = state.history.last(rel);
    marked
        || match now {
            Now::Absent => {
                state.ledger.get(rel).is_none() && last.is_some_and(|entry| entry.removed)
            }
            Now::File(current) => {
                let read = state.ledger.get(rel).is_some_and(|record| {
                    record.size == current.len && record.fingerprint == Some(current.fingerprint)
                });
                let wrote = last.is_some_and(|entry| {
                    !entry.removed
                        && entry.after == current.fingerprint
                        && entry.after_size == current.len
                });
                read || wrote
            }
        }
}

/// The newest content of `rel` the session knows: the view of its ledger
/// record, or what the newest mark from `from` on kept, whichever is newer.
fn last_known(state: &State, from: u64, rel: &str) -> Option<Vec<u8>> {
    let view = state
        .ledger
        .get(rel)
        .and_then(|record| Some((record.call, state.view(rel)?)));
    let marked = state
        .marks
        .all()
        .iter()
        .rev()
        .filter(|mark| mark.id >= from)
        .find_map(|mark| {
            let content = state.marks.content(&state.history, mark.files.get(rel)?)?;
            Some((mark.call, content))
        });
    match (view, marked) {
        (Some(view), Some(marked)) if marked.0 > view.0 => Some(marked.1.to_vec()),
        (Some(view), _) => Some(view.1.to_vec()),
        (None, marked) => marked.map(|(_, content)| content.to_vec()),
    }
}

/// What `rel` is now; `Err` with why it is left as found when it cannot be
/// rewound (not a file, too large to hold whole).
fn now<F: HostFs + ?Sized>(ctx: &Ctx<'_, F>, rel: &str) -> Result<Result<Now, Why>, ToolError> {
    let meta = match ctx.fs.stat(rel) {
        Err(FsError::NotFound) => return Ok(Ok(Now::Absent)),
        Err(err) => return Err(ToolError::from_fs(rel, err)),
        Ok(meta) if meta.kind != FileKind::File => return Ok(Err(Why::NotAFile)),
        Ok(meta) => meta,
    };
    let (chunk, keep) = (ctx.config.chunk_bytes, ctx.config.max_edit_bytes);
    let current = guard::load(ctx.fs, rel, rel, meta, chunk, keep)?;
    if current.bytes.is_none() {
        return Ok(Err(Why::TooLarge { size: current.len }));
    }
    Ok(Ok(Now::File(current)))
}

/// The step that leaves `after` (`None`: no file) where `now` is.
fn step(rel: &str, now: &Now, after: Option<Vec<u8>>) -> Step {
    let (before, precondition) = match now {
        Now::Absent => (None, Precondition::Absent),
        Now::File(current) => (current.bytes.clone(), current.precondition()),
    };
    Step {
        rel: rel.to_owned(),
        path: rel.to_owned(),
        before,
        precondition,
        after: after.map_or(After::Nothing, After::plain),
    }
}

/// The lines a step leaves.
fn lines_of(step: &Step) -> u64 {
    match &step.after {
        After::Bytes { total_lines, .. } => *total_lines,
        After::Nothing => 0,
    }
}

/// What to do with `rel`, marked `marked` at `mark`: its fate and the step
/// that makes it, or `None` when it is as it was at the mark.
fn decide<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    mark: &Mark,
    rel: &str,
    marked: &Marked,
    named: &BTreeSet<String>,
) -> Result<Option<(Fate, Option<Step>)>, ToolError> {
    let left = |why| Ok(Some((Fate::LeftAsFound(why), None)));
    let now = match now(ctx, rel)? {
        Ok(now) => now,
        Err(why) => return left(why),
    };
    if same(marked, &now) {
        return Ok(None);
    }
    let state = &*ctx.state;
    let then = match marked {
        Marked::Absent => None,
        Marked::Kept { size, .. } => match state.marks.content(&state.history, marked) {
            Some(content) => Some(content.to_vec()),
            None => return left(Why::NotKept { size: *size }),
        },
        Marked::Unkept { size, .. } => return left(Why::NotKept { size: *size }),
    };
    if named.contains(rel) || known(state, mark.id, rel, &now) {
        let fate_of = |step: &Step| match (&now, &step.after) {
            (_, After::Nothing) => Fate::Removed,
            (Now::Absent, _) => Fate::PutBack {
                lines: lines_of(step),
            },
            (Now::File(_), _) => Fate::Restored {
                lines: lines_of(step),
            },
        };
        let step = step(rel, &now, then);
        return Ok(Some((fate_of(&step), Some(step))));
    }
    // Someone changed it since the session last knew it.
    let Some(base) = last_known(state, mark.id, rel) else {
        return left(Why::CannotMerge);
    };
    if then.as_deref() == Some(base.as_slice()) {
        return left(Why::OnlyOthersChanged);
    }
    let (Some(then), Now::File(current)) = (then, &now) else {
        return left(Why::CannotMerge);
    };
    let text = |bytes: &[u8]| String::from_utf8(bytes.to_vec()).ok();
    let current_bytes = current.bytes.as_deref().unwrap_or_default();
    let (Some(base), Some(ours), Some(theirs)) = (text(&base), text(&then), text(current_bytes))
    else {
        return left(Why::CannotMerge);
    };
    match merge3(&base, &ours, &theirs) {
        Some(merged) => {
            let step = step(rel, &now, Some(merged.into_bytes()));
            let lines = lines_of(&step);
            Ok(Some((Fate::Merged { lines }, Some(step))))
        }
        None => left(Why::Conflict),
    }
}

/// The plan of a rewind to mark `id`, with the files `named` as changed
/// by the turns rewound.
pub(crate) fn plan<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    id: u64,
    dry_run: bool,
    named: &BTreeSet<String>,
) -> Result<Plan, ToolError> {
    let marks = &ctx.state.marks;
    let Some(mark) = marks.get(id) else {
        let kept = marks.all().first().zip(marks.all().last());
        return Err(ToolError::NoMark {
            asked: id,
            kept: kept.map(|(first, last)| (first.id, last.id)),
        });
    };
    let mut rewind = Rewind {
        mark: id,
        dry_run,
        files: Vec::new(),
        unchanged: 0,
    };
    let mut steps = Vec::new();
    for (rel, marked) in &mark.files {
        match decide(ctx, mark, rel, marked, named)? {
            None => rewind.unchanged += 1,
            Some((fate, step)) => {
                rewind.files.push((rel.clone(), fate));
                steps.extend(step);
            }
        }
    }
    // Files named as changed outside only after the mark: what they held
    // then is not known.
    for rel in marks.named().union(named) {
        if !mark.files.contains_key(rel) {
            rewind
                .files
                .push((rel.clone(), Fate::LeftAsFound(Why::UnknownAtMark)));
        }
    }
    rewind.files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Plan { rewind, steps })
}
