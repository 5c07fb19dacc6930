//! A guarded text change of one existing file, for `edit` and the
//! operations the tool shapes add beside it (an insertion at a line, a
//! patch's hunks, a notebook cell): the file is loaded under the edit's
//! rules (SPEC E4, W2: a regular text file within the edit cap, unchanged
//! since the session last saw it), the change is made on its lines, and the new text
//! goes back in the file's own encoding, BOM and line endings (SPEC W3) as a
//! [`Step`] for [`crate::change::batch`].

use crate::answers::error::ToolError;
use crate::answers::refusal::{Refusal, Unmerged};
use crate::answers::tool::Tool;
use crate::change::args::checked_version;
use crate::change::basis::{self, Basis, Behind, Merged};
use crate::change::batch::{After, Step};
use crate::change::context::Ctx;
use crate::change::guard::{self, Current};
use crate::fs::host::{HostFs, Metadata};
use crate::memory::ledger::{Coverage, Record};
use crate::memory::version::Version;
use crate::paths::repair::Target;
use crate::text::textfile::{Style, TextFile, line_count};

/// Whether a change needs the session to have read the file first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    /// It must have read some of it (as `edit` does).
    Required,
    /// The change carries its own evidence (a patch's context lines); a
    /// file the session did read must still be unchanged since.
    IfRecorded,
}

/// An existing text file, loaded and checked for a change.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// Root-relative path.
    pub rel: String,
    /// The path as the model named it.
    pub path: String,
    /// The file as it is now.
    pub current: Current,
    /// Its text and style.
    pub file: TextFile,
    /// What the session knew of it, when that is this version.
    pub record: Option<Record>,
    /// The model's view, when the file changed since (SPEC V4).
    pub behind: Option<Behind>,
}

/// Loads `target`, which must exist, for a change by `tool` that needs a
/// read of it or the version `expect` names (the raw argument, checked).
pub(crate) fn load_existing<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    target: &Target,
    path: &str,
    tool: Tool,
    expect: Option<&str>,
) -> Result<Loaded, ToolError> {
    let expect = checked_version(tool, expect)?;
    let Some(meta) = guard::target_kind(&target.stat, path)? else {
        return Err(match expect {
            Some(expected) => Refusal::absent(path, tool, expected),
            None => Refusal::NoFile { path: path.into() },
        }
        .into());
    };
    load(ctx, &target.rel, path, meta, tool, (Seen::Required, expect))
}

/// Loads the regular file `rel` (metadata `meta`) for a change by `tool`,
/// which must find it at version `expect` when that is given.
pub(crate) fn load<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    rel: &str,
    path: &str,
    meta: Metadata,
    tool: Tool,
    (seen, expect): (Seen, Option<Version>),
) -> Result<Loaded, ToolError> {
    let max = ctx.config.max_edit_bytes;
    let too_large = |size| -> ToolError {
        Refusal::TooLarge {
            path: path.to_owned(),
            size,
            max,
        }
        .into()
    };
    if meta.size > max {
        return Err(too_large(meta.size));
    }
    // The session's view of the file, when it kept one, is hashed already.
    let record = ctx.state.ledger.get(rel);
    let known = record.and_then(|record| {
        let view = record.view.as_ref()?;
        Some(guard::Known {
            bytes: ctx.state.history.view(&view.sha256)?,
            view,
            fingerprint: record.fingerprint,
        })
    });
    let chunking = (ctx.config.chunk_bytes, max);
    let current = guard::load_knowing(ctx.fs, rel, path, meta, chunking, known)?;
    current.text_only(path)?;
    let bytes = current
        .bytes
        .as_deref()
        .ok_or_else(|| too_large(current.len))?;
    // Content the session knew has the lines its record gives.
    let lines = record
        .filter(|_| current.known)
        .and_then(|record| record.total_lines);
    let file = TextFile::decode_known(bytes, ctx.encoding, lines)
        .map_err(|err| Refusal::not_text(path, err))?;
    let required = seen == Seen::Required;
    let (record, behind) = match basis::basis(
        ctx,
        rel,
        path,
        &current,
        tool,
        expect,
        required,
        basis::decoder(&file),
    )? {
        Basis::Fresh(record) => (record, None),
        Basis::Changed(behind) => (None, Some(behind)),
    };
    Ok(Loaded {
        rel: rel.to_owned(),
        path: path.to_owned(),
        current,
        file,
        record,
        behind,
    })
}

impl Loaded {
    /// The file's lines without their line ends (a final line end makes no
    /// empty last line).
    pub fn lines(&self) -> Vec<&str> {
        split_lines(&self.file.text)
    }

    /// The line end new lines get: the file's dominant one.
    pub fn line_end(&self) -> &'static str {
        if self.file.style.crlf_dominant {
            "\r\n"
        } else {
            "\n"
        }
    }

    /// Lands the change of this file's text into `next` by `tool`: when
    /// the file changed since the model's view, merged with that change
    /// (what the model is told of it), or refused with what changed.
    pub fn land<F: HostFs + ?Sized>(
        &self,
        ctx: &mut Ctx<'_, F>,
        next: &str,
        tool: Tool,
    ) -> Result<Option<Merged>, ToolError> {
        let Some(behind) = &self.behind else {
            return Ok(None);
        };
        let texts = (self.file.text.as_str(), next);
        let (rel, path) = (self.rel.as_str(), self.path.as_str());
        let style = self.file.style;
        basis::merge(ctx, rel, path, tool, behind, &self.current, texts, style).map(Some)
    }

    /// The refusal of a change by `tool` that does not merge, when the
    /// file changed since the model's view.
    pub fn unmerged<F: HostFs + ?Sized>(
        &self,
        ctx: &mut Ctx<'_, F>,
        tool: Tool,
    ) -> Result<(), ToolError> {
        match self.behind {
            Some(_) => Err(self.refused(ctx, tool, Unmerged::NotMerged)),
            None => Ok(()),
        }
    }

    /// The refusal of a change by `tool` for `why`, with what changed
    /// since the model's view (only when the file changed since).
    pub fn refused<F: HostFs + ?Sized>(
        &self,
        ctx: &mut Ctx<'_, F>,
        tool: Tool,
        why: Unmerged,
    ) -> ToolError {
        let Some(behind) = &self.behind else {
            return ToolError::Refused(Refusal::Conflict {
                path: self.path.clone(),
                tool,
            });
        };
        let now = self.file.text.as_str();
        let (rel, path, style) = (self.rel.as_str(), self.path.as_str(), self.file.style);
        basis::refuse(ctx, rel, path, tool, why, behind, &self.current, now, style)
    }

    /// The step that writes `text` (already in the file's line ends) over
    /// the file, encoded in its style; the model has seen all of it when it
    /// had seen all of the old one (or what `merged` says it has). Refused
    /// when the file's encoding cannot represent the text.
    pub fn step(&self, text: &str, merged: Option<&Merged>) -> Result<Step, ToolError> {
        let style = Style::of_text(text, self.file.style.encoding, self.file.style.bom);
        let total_lines = line_count(text);
        let seen = if let Some(merged) = merged {
            merged.seen.clone()
        } else if self.record.as_ref().is_some_and(Record::full) {
            Coverage::all(total_lines)
        } else {
            Coverage::default()
        };
        let bytes = style
            .encode(text)
            .map_err(|err| Refusal::unmappable(&self.path, &err))?;
        Ok(Step {
            rel: self.rel.clone(),
            path: self.path.clone(),
            before: self.current.bytes.clone(),
            precondition: self.current.precondition(),
            after: After::Bytes {
                bytes: bytes.into_owned(),
                style,
                total_lines,
                seen,
            },
        })
    }
}

/// `text` split into lines, each without its `\n` (a `\r` before it stays);
/// a final `\n` ends the last line rather than starting an empty one.
pub(crate) fn split_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n').collect()
}

/// The step that creates `rel` with `text`, UTF-8 as given.
pub(crate) fn creation(rel: &str, path: &str, text: &str) -> Step {
    let style = Style::of_text(text, crate::text::encoding::Encoding::Utf8, false);
    let total_lines = line_count(text);
    Step {
        rel: rel.to_owned(),
        path: path.to_owned(),
        before: None,
        precondition: crate::fs::host::Precondition::Absent,
        after: After::Bytes {
            bytes: text.as_bytes().to_vec(),
            style,
            total_lines,
            seen: Coverage::all(total_lines),
        },
    }
}

/// The step that removes the file `loaded`.
pub(crate) fn removal(loaded: &Loaded) -> Step {
    Step {
        rel: loaded.rel.clone(),
        path: loaded.path.clone(),
        before: loaded.current.bytes.clone(),
        precondition: loaded.current.precondition(),
        after: After::Nothing,
    }
}
