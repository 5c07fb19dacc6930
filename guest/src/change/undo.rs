//! The `undo` tool (SPEC E10, W5): restores the version of a file from before
//! this session's last write or edit of it — or removes the file when that
//! change created it — provided the file still holds exactly what the change
//! wrote. Repeated undos walk further back. The ledger returns to what the
//! session knew of the restored version.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let mut session = Session::open("{}", MemFs::new()).unwrap();
//! session.call("write", r#"{"file_path": "n.txt", "content": "x\n"}"#);
//! let result = session.call("undo", r#"{"file_path": "n.txt"}"#);
//! assert_eq!(result.text(), "Undid the creation of n.txt: the file was removed.");
//! assert!(session.fs().contents("n.txt").is_none());
//! ```

use crate::answers::error::ToolError;
use crate::answers::refusal::{Change, Refusal};
use crate::answers::report::Report;
use crate::answers::report::Undone;
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::args::{UndoArgs, checked_version};
use crate::change::basis::version_of;
use crate::change::batch::{self, After, Step};
use crate::change::context::Ctx;
use crate::change::guard;
use crate::change::write::answer;
use crate::fs::host::{FileKind, FsError, Precondition};
use crate::fs::host::{HostFs, Metadata};
use crate::memory::fingerprint::Fingerprint;
use crate::memory::history::{Before, Entry};
use crate::memory::version::Version;
use crate::paths::repair::Target;
use crate::text::textfile::{TextFile, line_count};

/// The refusal of an undo of `path`, which changed since: `change` says how.
/// Refuses unless `target` is at version `expected` (SPEC V2).
fn expect<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    target: &Target,
    path: &str,
    expected: Version,
) -> Result<(), ToolError> {
    // A directory (moved, to be moved back) has no version to check.
    if matches!(&target.stat, Ok(meta) if meta.kind == FileKind::Directory) {
        return Ok(());
    }
    let Some(meta) = guard::target_kind(&target.stat, path)? else {
        return Err(Refusal::absent(path, Tool::Undo, expected).into());
    };
    let current = guard::load(ctx.fs, &target.rel, path, meta, ctx.config.chunk_bytes, 0)?;
    let now = version_of(&current);
    if now == expected {
        return Ok(());
    }
    Err(Refusal::Unexpected {
        path: path.to_owned(),
        tool: Tool::Undo,
        expected,
        now: Some(now),
    }
    .into())
}

fn stale(path: &str, change: Change) -> ToolError {
    Refusal::Stale {
        path: path.to_owned(),
        tool: Tool::Undo,
        change,
    }
    .into()
}

/// Runs `undo` on `target`, the repaired path.
pub(crate) fn run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    args: &UndoArgs,
    target: &Target,
) -> Result<ToolResult, ToolError> {
    let path = args.file_path.as_str();
    let rel = target.rel.clone();
    let Some(entry) = ctx.state.history.last(&rel).cloned() else {
        return Err(Refusal::NothingToUndo { path: path.into() }.into());
    };
    if let Some(expected) = checked_version(Tool::Undo, args.expect.as_deref())? {
        expect(ctx, target, path, expected)?;
    }
    if let Before::MovedFrom { path: from } = &entry.before {
        return moved_back(ctx, path, &rel, from, &entry);
    }
    if entry.group.is_some() || entry.removed {
        return together(ctx, path, &rel, &entry);
    }
    if let Before::Lost { size } = entry.before {
        return Err(Refusal::UndoNotKept {
            path: path.into(),
            size,
        }
        .into());
    }
    let stale = |change| stale(path, change);
    let Some(meta) = guard::target_kind(&target.stat, path)? else {
        return Err(stale(Change::Deleted));
    };
    let current = guard::load(ctx.fs, &rel, path, meta, ctx.config.chunk_bytes, 0)?;
    if current.fingerprint != entry.after {
        return Err(stale(if current.len == entry.after_size {
            Change::Content
        } else {
            Change::Size {
                was: entry.after_size,
                now: current.len,
            }
        }));
    }
    let precondition = current.precondition();
    // The entry goes only once its version is back: an undo the host
    // refuses can be made again.
    let data = ctx.state.history.kept(&entry).map(<[u8]>::to_vec);
    let remaining = ctx.state.history.depth(&rel).saturating_sub(1);
    if entry.before == Before::Absent {
        ctx.fs
            .remove_file(&rel, &precondition)
            .map_err(|err| ToolError::from_write(path, Tool::Undo, err))?;
        ctx.state.history.pop(&rel);
        ctx.state.ledger.remove(&rel);
        let report = Report::Removed {
            path: path.to_owned(),
            remaining,
        };
        return Ok(answer(ctx.config, &report, &rel, "removed", 0, 0));
    }
    let Some(data) = data else {
        return Err(Refusal::UndoNotKept {
            path: path.into(),
            size: 0,
        }
        .into());
    };
    let meta = ctx
        .fs
        .write_file(&rel, &data, &precondition)
        .map_err(|err| ToolError::from_write(path, Tool::Undo, err))?;
    ctx.state.history.pop(&rel);
    match entry.record {
        Some(mut record) => {
            record.size = meta.size;
            record.mtime_ns = meta.mtime_ns;
            record.fingerprint = Some(Fingerprint::of(&data));
            record.call = ctx.state.calls;
            record.dedup = None;
            ctx.state.ledger.insert(&rel, record);
        }
        None => {
            ctx.state.ledger.remove(&rel);
        }
    }
    let lines = TextFile::decode(&data).map_or(0, |f| line_count(&f.text));
    let report = Report::Restored {
        path: path.to_owned(),
        lines,
        bytes: meta.size,
        remaining,
    };
    Ok(answer(
        ctx.config, &report, &rel, "restored", lines, meta.size,
    ))
}

/// Moves what a move left at `rel` back to `from`: a directory as it is
/// now, a file only while it holds what was moved.
fn moved_back<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    path: &str,
    rel: &str,
    from: &str,
    entry: &Entry,
) -> Result<ToolResult, ToolError> {
    let stale = |change| stale(path, change);
    let (precondition, directory) = match ctx.fs.stat(rel) {
        Err(FsError::NotFound) => return Err(stale(Change::Deleted)),
        Err(err) => return Err(ToolError::from_fs(path, err)),
        Ok(meta) if meta.kind == FileKind::Directory => (Precondition::Any, true),
        Ok(meta) => {
            let chunk = ctx.config.chunk_bytes;
            let current = guard::load(ctx.fs, rel, path, meta, chunk, 0)?;
            if current.fingerprint != entry.after || current.len != entry.after_size {
                return Err(stale(Change::Content));
            }
            (current.precondition(), false)
        }
    };
    ctx.fs
        .rename(rel, from, &precondition)
        .map_err(|err| ToolError::from_write(path, Tool::Undo, err))?;
    ctx.state.history.pop(rel);
    for known in ctx.state.ledger.paths_under(rel) {
        ctx.state.ledger.remove(&known);
    }
    ctx.state.ledger.remove(rel);
    // The old place, spelled as the model spelled the new one.
    let prefix = path.strip_suffix(rel).unwrap_or("");
    let report = Report::MovedBack {
        path: path.to_owned(),
        from: format!("{prefix}{from}"),
        directory,
    };
    let text = report.to_string();
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    Ok(ToolResult::from_text(
        text,
        serde_json::json!({"path": rel, "action": "moved_back", "to": from, "estimated_tokens": tokens}),
    ))
}

/// Undoes a change made together over several files (all its files, or
/// none), or the removal of one file: each file must still be exactly as
/// the change left it.
fn together<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    path: &str,
    rel: &str,
    entry: &Entry,
) -> Result<ToolResult, ToolError> {
    let members = match entry.group {
        Some(group) => {
            let members = ctx.state.history.members(group);
            if let Some((later, _)) = members.iter().find(|(_, newest)| !newest) {
                return Err(Refusal::UndoLater {
                    path: path.to_owned(),
                    later: later.clone(),
                }
                .into());
            }
            members.into_iter().map(|(member, _)| member).collect()
        }
        None => vec![rel.to_owned()],
    };
    let mut steps = Vec::new();
    let mut undone = Vec::new();
    for member in &members {
        let Some(entry) = ctx.state.history.last(member).cloned() else {
            continue;
        };
        let (step, what) = step_back(ctx, member, &entry)?;
        steps.push(step);
        undone.push((member.clone(), what));
    }
    batch::land(ctx, &steps, Tool::Undo, |ctx, metas| {
        forget_undone(ctx, &members, metas);
    })?;
    let report = Report::UndidTogether { files: undone };
    let text = report.to_string();
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    Ok(ToolResult::from_text(
        text,
        serde_json::json!({"path": rel, "action": "undone", "files": members, "estimated_tokens": tokens}),
    ))
}

/// Takes the undone changes of `members` out of the history; the ledger
/// counts each restored content as the one the model saw before.
fn forget_undone<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    members: &[String],
    metas: Vec<Option<Metadata>>,
) {
    for (member, meta) in members.iter().zip(metas) {
        let Some((entry, data)) = ctx.state.history.pop(member) else {
            continue;
        };
        match (entry.record, meta, data) {
            (Some(mut record), Some(meta), Some(data)) => {
                record.size = meta.size;
                record.mtime_ns = meta.mtime_ns;
                record.fingerprint = Some(Fingerprint::of(&data));
                record.call = ctx.state.calls;
                record.dedup = None;
                ctx.state.ledger.insert(member, record);
            }
            _ => {
                ctx.state.ledger.remove(member);
            }
        }
    }
}

/// The step that takes `entry`, the newest change of `rel`, back, and what
/// it does; refused when the file is no longer as the change left it.
fn step_back<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    rel: &str,
    entry: &Entry,
) -> Result<(Step, Undone), ToolError> {
    let stale = |change| stale(rel, change);
    let kept = ctx.state.history.kept(entry).map(<[u8]>::to_vec);
    let not_kept = |size| -> ToolError {
        Refusal::UndoNotKept {
            path: rel.to_owned(),
            size,
        }
        .into()
    };
    let lost = match entry.before {
        Before::Lost { size } => size,
        _ => 0,
    };
    if entry.removed {
        match ctx.fs.stat(rel) {
            Err(FsError::NotFound) => {}
            Ok(_) => return Err(stale(Change::Recreated)),
            Err(err) => return Err(ToolError::from_fs(rel, err)),
        }
        let data = kept.ok_or_else(|| not_kept(lost))?;
        let step = Step {
            rel: rel.to_owned(),
            path: rel.to_owned(),
            before: None,
            precondition: Precondition::Absent,
            after: After::plain(data),
        };
        return Ok((step, Undone::PutBack));
    }
    let Some(meta) = guard::target_kind(&ctx.fs.stat(rel), rel)? else {
        return Err(stale(Change::Deleted));
    };
    let current = guard::load(
        ctx.fs,
        rel,
        rel,
        meta,
        ctx.config.chunk_bytes,
        ctx.config.max_edit_bytes,
    )?;
    if current.fingerprint != entry.after || current.len != entry.after_size {
        return Err(stale(Change::Content));
    }
    let (after, what) = match entry.before {
        Before::Absent => (After::Nothing, Undone::Removed),
        Before::Kept { .. } => (
            After::plain(kept.ok_or_else(|| not_kept(0))?),
            Undone::Restored,
        ),
        Before::Lost { size } => return Err(not_kept(size)),
        // A move back is never part of a group.
        Before::MovedFrom { .. } => return Err(not_kept(0)),
    };
    let step = Step {
        rel: rel.to_owned(),
        path: rel.to_owned(),
        before: current.bytes.clone(),
        precondition: current.precondition(),
        after,
    };
    Ok((step, what))
}
