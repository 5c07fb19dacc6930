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
use crate::memory::fingerprint::Fingerprint;
use crate::memory::history::{Before, Entry, MAX_DEPTH};
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

/// Whether the host named `rel` as changed outside by the turns from
/// mark `from` on: at a later mark, or in the rewind itself. Such a file
/// is rewound whole: its changes are the turns' own.
fn named_since(state: &State, from: u64, rel: &str, named: &BTreeSet<String>) -> bool {
    named.contains(rel)
        || state
            .marks
            .all()
            .iter()
            .any(|mark| mark.id > from && mark.named.contains(rel))
}

/// A file's content, or its absence.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Content {
    /// No file.
    Absent,
    /// These bytes.
    Bytes(Vec<u8>),
}

impl Content {
    /// Whether this is the version `(fingerprint, size)`, or no file when
    /// `removed`.
    fn is(&self, fingerprint: u64, size: u64, removed: bool) -> bool {
        match self {
            Content::Absent => removed,
            Content::Bytes(bytes) => {
                !removed && bytes.len() as u64 == size && Fingerprint::of(bytes) == fingerprint
            }
        }
    }
}

/// The content one of the session's changes left, to take it back from:
/// the file now, the version the session last saw of it, or what the
/// next change found.
fn left_by(
    state: &State,
    rel: &str,
    entry: &Entry,
    later: Option<&Content>,
    now: &Content,
) -> Option<Content> {
    let fits = |content: &Content| content.is(entry.after, entry.after_size, entry.removed);
    if let Some(found) = later {
        return fits(found).then(|| found.clone());
    }
    if fits(now) {
        return Some(now.clone());
    }
    let seen = Content::Bytes(state.view(rel)?.to_vec());
    fits(&seen).then_some(seen)
}

/// `now` with the change from `before` to `after` taken back, three-way;
/// why not when it cannot be.
fn take_back(after: &Content, before: &Content, now: &Content) -> Result<Content, Why> {
    if now == after {
        return Ok(before.clone());
    }
    let text = |content: &Content| match content {
        Content::Bytes(bytes) => std::str::from_utf8(bytes).ok().map(str::to_owned),
        Content::Absent => None,
    };
    let (Some(base), Some(ours), Some(theirs)) = (text(after), text(before), text(now)) else {
        return Err(Why::CannotMerge);
    };
    merge3(&base, &ours, &theirs)
        .map(|merged| Content::Bytes(merged.into_bytes()))
        .ok_or(Why::Conflict)
}

/// `now` with every change the session made to `rel` since `mark` taken
/// back, newest first, each three-way, so changes someone else made in
/// between stay; `Ok(None)` when the session changed nothing since. A
/// rewind's own change ends the walk: what came before it was rewound
/// already.
fn taken_back(
    state: &State,
    mark: &Mark,
    rel: &str,
    now: &Content,
) -> Result<Option<Content>, Why> {
    let entries = state.history.entries(rel);
    let mut since: Vec<&Entry> = entries.iter().filter(|e| e.seq > mark.seq).collect();
    if let Some(at) = since
        .iter()
        .rposition(|e| state.marks.rewind_of(e.seq).is_some())
    {
        let rewind = since[at];
        if state.marks.rewind_of(rewind.seq) != Some(mark.id) {
            return Err(Why::RewoundElsewhere {
                mark: state.marks.rewind_of(rewind.seq).unwrap_or_default(),
            });
        }
        since.drain(..=at);
    }
    if since.is_empty() {
        return Ok(None);
    }
    if entries.len() >= MAX_DEPTH && entries.first().is_some_and(|e| e.seq > mark.seq) {
        // Older changes of the turn went out of the history.
        return Err(Why::HistoryGone);
    }
    let mut current = now.clone();
    let mut later: Option<Content> = None;
    for entry in since.into_iter().rev() {
        let Some(after) = left_by(state, rel, entry, later.as_ref(), now) else {
            return Err(Why::CannotMerge);
        };
        let before = match &entry.before {
            Before::Absent => Content::Absent,
            Before::Kept { .. } => match state.history.kept(entry) {
                Some(bytes) => Content::Bytes(bytes.to_vec()),
                None => return Err(Why::HistoryGone),
            },
            Before::Lost { size } => return Err(Why::NotKept { size: *size }),
            Before::MovedFrom { .. } => return Err(Why::NotAFile),
        };
        current = take_back(&after, &before, &current)?;
        later = Some(before);
    }
    Ok(Some(current))
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
        Marked::Absent => Content::Absent,
        Marked::Kept { size, .. } => match state.marks.content(&state.history, marked) {
            Some(content) => Content::Bytes(content.to_vec()),
            None => return left(Why::NotKept { size: *size }),
        },
        Marked::Unkept { size, .. } => return left(Why::NotKept { size: *size }),
        Marked::Unknown => return left(Why::UnknownAtMark),
    };
    let now_content = match &now {
        Now::Absent => Content::Absent,
        Now::File(current) => Content::Bytes(current.bytes.clone().unwrap_or_default()),
    };
    let back = if named_since(state, mark.id, rel, named) {
        then.clone()
    } else {
        match taken_back(state, mark, rel, &now_content) {
            Ok(Some(back)) => back,
            Ok(None) => return left(Why::OnlyOthersChanged),
            Err(why) => return left(why),
        }
    };
    if back == now_content {
        return Ok(None);
    }
    let after = match &back {
        Content::Absent => None,
        Content::Bytes(bytes) => Some(bytes.clone()),
    };
    let step = step(rel, &now, after);
    let lines = lines_of(&step);
    let fate = match (&now, &back) {
        (_, Content::Absent) => Fate::Removed,
        (Now::Absent, _) => Fate::PutBack { lines },
        _ if back == then => Fate::Restored { lines },
        _ => Fate::Merged { lines },
    };
    Ok(Some((fate, Some(step))))
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
    let files = marks.files_at(id).unwrap_or_default();
    for (rel, marked) in &files {
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
        if !files.contains_key(rel) {
            rewind
                .files
                .push((rel.clone(), Fate::LeftAsFound(Why::UnknownAtMark)));
        }
    }
    rewind.files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Plan { rewind, steps })
}
