//! Turn marks and `rewind` (SPEC K1). The harness marks each turn; a mark
//! records what every file the session knows of holds then (see
//! [`crate::memory::marks`]). `rewind` brings those files back to a mark
//! three-way ([`plan`]): a file that still holds a version the session
//! knows — its own change, what it read, what a later mark recorded, or
//! what the host names as changed by the turns rewound — is restored; one
//! someone changed since is merged with that change ([`merge`]) or left as
//! found and listed. The files change together, all or none, through the
//! change of several files, so one `undo` takes the rewind back; a dry run
//! says what it would do and writes nothing.

mod merge;
mod plan;

use std::collections::BTreeSet;

use serde_json::json;

use crate::answers::error::ToolError;
use crate::answers::result::ToolResult;
use crate::answers::rewind::{Fate, MarkTaken, Rewind};
use crate::answers::tool::Tool;
use crate::change::args::{MarkArgs, RewindArgs};
use crate::change::batch;
use crate::change::context::Ctx;
use crate::change::guard;
use crate::fs::host::{FileKind, FsError, HostFs};
use crate::memory::marks::{Found, Marked};
use crate::paths::repair;

/// Files a mark records at most; the rest (the least in path order) are
/// left out and counted.
pub const MAX_MARKED_FILES: usize = 2000;

/// The root-relative paths the host named.
fn named<F: HostFs + ?Sized>(ctx: &Ctx<'_, F>, paths: &[String]) -> Result<Vec<String>, ToolError> {
    paths
        .iter()
        .map(|raw| repair::locate(ctx.config, ctx.fs, raw, &ctx.state.repairs).map(|t| t.rel))
        .collect()
}

/// What `rel` holds now, for a mark; `None` when it is not a file.
fn found<F: HostFs + ?Sized>(ctx: &Ctx<'_, F>, rel: &str) -> Option<Found> {
    let meta = match ctx.fs.stat(rel) {
        Err(FsError::NotFound) => return Some(Found::Absent),
        Ok(meta) if meta.kind == FileKind::File => meta,
        _ => return None,
    };
    let (chunk, keep) = (ctx.config.chunk_bytes, ctx.config.max_edit_bytes);
    let current = guard::load(ctx.fs, rel, rel, meta, chunk, keep).ok()?;
    Some(match current.bytes {
        Some(bytes) => Found::Content(bytes),
        None => Found::TooLarge {
            size: current.len,
            fingerprint: current.fingerprint,
        },
    })
}

/// Marks a turn: records what each file the session knows of holds now.
pub(crate) fn mark<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    args: &MarkArgs,
) -> Result<ToolResult, ToolError> {
    let named = named(ctx, &args.changed)?;
    let new_names = named
        .iter()
        .filter(|rel| !ctx.state.marks.named().contains(*rel))
        .collect::<BTreeSet<_>>()
        .len();
    for rel in &named {
        ctx.state.marks.follow(rel);
    }
    let state = &*ctx.state;
    let known: BTreeSet<String> = state
        .ledger
        .paths()
        .into_iter()
        .chain(state.history.paths().cloned())
        .chain(state.marks.named().iter().cloned())
        .collect();
    let left_out = known.len().saturating_sub(MAX_MARKED_FILES);
    let files: Vec<(String, Found)> = known
        .into_iter()
        .take(MAX_MARKED_FILES)
        .filter_map(|rel| found(ctx, &rel).map(|found| (rel, found)))
        .collect();
    let (call, budget) = (ctx.state.calls, ctx.config.history_bytes);
    let state = &mut *ctx.state;
    let at = (call, named.into_iter().collect());
    let id = state.marks.push(&mut state.history, at, files, budget);
    let mark = state.marks.files_at(id).unwrap_or_default();
    let unkept = mark
        .iter()
        .filter_map(|(path, marked)| match marked {
            Marked::Unkept { size, .. } => Some((path.clone(), *size)),
            _ => None,
        })
        .collect();
    let taken = MarkTaken {
        id,
        files: mark.len(),
        named: new_names,
        unkept,
        oldest: state.marks.all().first().map_or(id, |m| m.id),
        left_out,
    };
    let text = taken.to_string();
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    Ok(ToolResult::from_text(
        text,
        json!({"mark": id, "files": taken.files, "estimated_tokens": tokens}),
    ))
}

/// Rewinds to a marked turn, or says what that would do.
pub(crate) fn rewind<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    args: &RewindArgs,
) -> Result<ToolResult, ToolError> {
    if ctx.config.read_only && !args.dry_run {
        return Err(ToolError::read_only(format!(
            "the files of turn {}",
            args.mark
        )));
    }
    let named: BTreeSet<String> = named(ctx, &args.changed)?.into_iter().collect();
    let plan = plan::plan(ctx, args.mark, args.dry_run, &named)?;
    if !args.dry_run && !plan.steps.is_empty() {
        batch::commit_all(ctx, &plan.steps, Tool::Rewind)?;
        // A later rewind takes back only what came after this one.
        for step in &plan.steps {
            if let Some(seq) = ctx.state.history.last(&step.rel).map(|e| e.seq) {
                ctx.state.marks.rewound(seq, args.mark);
            }
        }
    }
    Ok(answer(ctx, &plan.rewind))
}

/// The answer for `rewind`.
fn answer<F: HostFs + ?Sized>(ctx: &Ctx<'_, F>, rewind: &Rewind) -> ToolResult {
    let text = rewind.to_string();
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    let files: Vec<_> = rewind
        .files
        .iter()
        .map(|(path, fate)| {
            let action = match fate {
                Fate::Restored { .. } => "restored",
                Fate::Removed => "removed",
                Fate::PutBack { .. } => "put_back",
                Fate::Merged { .. } => "merged",
                Fate::LeftAsFound(_) => "left_as_found",
            };
            json!({"path": path, "action": action})
        })
        .collect();
    ToolResult::from_text(
        text,
        json!({
            "mark": rewind.mark,
            "dry_run": rewind.dry_run,
            "files": files,
            "unchanged": rewind.unchanged,
            "estimated_tokens": tokens,
        }),
    )
}
