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

use crate::args::{Tool, UndoArgs};
use crate::error::ToolError;
use crate::fingerprint::Fingerprint;
use crate::fs::HostFs;
use crate::guard;
use crate::history::Before;
use crate::refusal::{Change, Refusal};
use crate::repair::Target;
use crate::report::Report;
use crate::result::ToolResult;
use crate::session::Ctx;
use crate::textfile::{TextFile, line_count};
use crate::write::answer;

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
    if let Before::Lost { size } = entry.before {
        return Err(Refusal::UndoNotKept {
            path: path.into(),
            size,
        }
        .into());
    }
    let stale = |change| -> ToolError {
        Refusal::Stale {
            path: path.to_owned(),
            tool: Tool::Undo,
            change,
        }
        .into()
    };
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
    let Some((entry, data)) = ctx.state.history.pop(&rel) else {
        return Err(Refusal::NothingToUndo { path: path.into() }.into());
    };
    let remaining = ctx.state.history.depth(&rel);
    if entry.before == Before::Absent {
        ctx.fs
            .remove_file(&rel, &precondition)
            .map_err(|err| ToolError::from_write(path, Tool::Undo, err))?;
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
