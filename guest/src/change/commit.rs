//! The last step of every change (SPEC W4, W5, E4): one atomic `write-file`
//! whose precondition is the state the guard checked, then — only when it
//! succeeded — the replaced version goes into the history and the ledger
//! counts the new content as seen. A failed write leaves session and disk as
//! they were.

use crate::answers::error::ToolError;
use crate::answers::tool::Tool;
use crate::change::context::Ctx;
use crate::fs::host::{HostFs, Metadata, Precondition};
use crate::memory::fingerprint::Fingerprint;
use crate::memory::ledger::{Coverage, Record};
use crate::text::textfile::Style;

/// The version a change replaces.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Replaced<'a> {
    /// Nothing: the file is new.
    Nothing,
    /// These bytes, whose SHA-256 is this.
    Bytes(&'a [u8], &'a str),
    /// A version of this size that was not kept in memory.
    Unkept(u64),
}

/// A change ready to be written.
#[derive(Debug)]
pub(crate) struct Commit<'a> {
    /// Root-relative path.
    pub rel: &'a str,
    /// The path as the model sent it.
    pub path: &'a str,
    /// The tool making the change.
    pub tool: Tool,
    /// The new content, encoded.
    pub bytes: &'a [u8],
    /// What the file must still be.
    pub precondition: Precondition,
    /// The version replaced.
    pub replaced: Replaced<'a>,
    /// Lines the model has seen of the new content.
    pub seen: Coverage,
    /// Lines of the new content.
    pub total_lines: u64,
    /// Its style.
    pub style: Style,
}

/// Writes `change` and records it; returns the new metadata.
pub(crate) fn commit<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    change: &Commit<'_>,
) -> Result<Metadata, ToolError> {
    let meta = ctx
        .fs
        .write_file(change.rel, change.bytes, &change.precondition)
        .map_err(|err| ToolError::from_write(change.path, change.tool, err))?;
    remember(ctx, change, &meta);
    Ok(meta)
}

/// Records a change that landed as `meta`: the version it replaced goes
/// into the history, and the ledger counts the new content as seen.
pub(crate) fn remember<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    change: &Commit<'_>,
    meta: &Metadata,
) {
    let previous = ctx.state.ledger.get(change.rel).cloned();
    let cap = ctx.config.history_bytes;
    let fingerprint = Fingerprint::of(change.bytes);
    let after = (fingerprint, change.bytes.len() as u64);
    let history = &mut ctx.state.history;
    let marks = &mut ctx.state.marks;
    match change.replaced {
        Replaced::Nothing => marks.first_change(history, change.rel, None),
        Replaced::Bytes(bytes, sha256) => {
            marks.first_change(history, change.rel, Some((bytes, sha256)));
        }
        Replaced::Unkept(size) => marks.first_change_unkept(change.rel, size),
    }
    match change.replaced {
        Replaced::Nothing => history.push(change.rel, None, previous, after, cap),
        Replaced::Bytes(bytes, sha256) => {
            history.push_hashed(change.rel, Some((bytes, sha256)), previous, after, cap);
        }
        Replaced::Unkept(size) => history.push_lost(change.rel, size, previous, after, cap),
    }
    ctx.state.ledger.insert(
        change.rel,
        Record {
            size: meta.size,
            mtime_ns: meta.mtime_ns,
            fingerprint: Some(fingerprint),
            seen: change.seen.clone(),
            total_lines: Some(change.total_lines),
            style: change.style,
            call: ctx.state.calls,
            dedup: None,
            view: None,
        },
    );
    ctx.state.keep_view(change.rel, change.bytes, ctx.config);
}
