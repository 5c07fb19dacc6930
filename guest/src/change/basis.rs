//! What a change of an existing file builds on (SPEC W2, V2–V4): the file
//! as the session last saw it, the version `expect` names, or — when the
//! file changed since the model's view and the session keeps that view — the
//! view, so the change is either merged with the other writer's (a change
//! of text away from theirs) or refused with what changed. A refusal
//! catches the session up: its record and view become the file as it is
//! now, the lines shown counting as seen, so the model can redo the change
//! at once.

use crate::answers::error::ToolError;
use crate::answers::refusal::{Refusal, Unmerged};
use crate::answers::tool::Tool;
use crate::change::context::Ctx;
use crate::change::guard::Current;
use crate::change::hunks::hunks;
use crate::change::since::{ShownDiff, Since, lines};
use crate::fs::host::HostFs;
use crate::memory::ledger::{Coverage, Record};
use crate::memory::version::Version;
use crate::text::textfile::{Style, TextFile, line_count};

/// What a change builds on.
#[derive(Debug, Clone)]
pub(crate) enum Basis {
    /// The file is as the session last saw it (its record, when it has
    /// one of this version) or as `expect` named.
    Fresh(Option<Record>),
    /// The file changed since the model's view.
    Changed(Behind),
}

/// The model's view of a file that changed since.
#[derive(Debug, Clone)]
pub(crate) struct Behind {
    /// The text the model saw.
    pub view: String,
    /// The session's record of that text.
    pub record: Record,
    /// The version `expect` named, when it did: such a change never
    /// merges.
    pub expected: Option<Version>,
}

/// The version of `current`.
pub(crate) fn version_of(current: &Current) -> Version {
    Version {
        hash: current.fingerprint,
        size: current.len,
    }
}

/// What a change of `rel` (now `current`) by `tool` builds on. `required`:
/// the session must have seen the file, unless `expect` names its version.
/// `decode` turns the view's bytes into text as the file is decoded.
#[expect(clippy::too_many_arguments, reason = "one decision over all it weighs")]
pub(crate) fn basis<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    rel: &str,
    path: &str,
    current: &Current,
    tool: Tool,
    expect: Option<Version>,
    required: bool,
    decode: impl Fn(&[u8]) -> Option<String>,
) -> Result<Basis, ToolError> {
    let record = ctx.state.ledger.get(rel);
    let view = || ctx.state.view(rel).and_then(&decode);
    if let Some(expected) = expect {
        if expected == version_of(current) {
            let record = record.filter(|r| current.change_since(r).is_none());
            return Ok(Basis::Fresh(record.cloned()));
        }
        let at_expected =
            record.filter(|r| r.fingerprint == Some(expected.hash) && r.size == expected.size);
        if let Some(record) = at_expected
            && let Some(view) = view()
        {
            return Ok(Basis::Changed(Behind {
                view,
                record: record.clone(),
                expected: Some(expected),
            }));
        }
        return Err(Refusal::Unexpected {
            path: path.to_owned(),
            tool,
            expected,
            now: Some(version_of(current)),
        }
        .into());
    }
    let Some(record) = record else {
        if required {
            return Err(Refusal::NotRead {
                path: path.to_owned(),
                tool,
            }
            .into());
        }
        return Ok(Basis::Fresh(None));
    };
    let Some(change) = current.change_since(record) else {
        return Ok(Basis::Fresh(Some(record.clone())));
    };
    match view() {
        Some(view) => Ok(Basis::Changed(Behind {
            view,
            record: record.clone(),
            expected: None,
        })),
        None => Err(Refusal::Stale {
            path: path.to_owned(),
            tool,
            change,
        }
        .into()),
    }
}

/// The refusal of a change of `rel` (now `current`, text `now` in
/// `style`) for `why`: what changed since `behind.view`; the session's
/// record and view become the file now.
#[expect(
    clippy::too_many_arguments,
    reason = "the refusal and the catch-up it makes"
)]
pub(crate) fn refuse<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    rel: &str,
    path: &str,
    tool: Tool,
    why: Unmerged,
    behind: &Behind,
    current: &Current,
    now: &str,
    style: Style,
) -> ToolError {
    let shown = catch_up(
        ctx,
        rel,
        (&behind.view, &behind.record),
        current,
        now,
        style,
    );
    let diff = if shown.text.is_empty() {
        "[no line differs: only bytes outside the lines changed (a byte-order mark)]".to_owned()
    } else {
        shown.text
    };
    let why = match behind.expected {
        Some(expected) => Unmerged::Expected(expected),
        None => why,
    };
    Refusal::ChangedSinceView {
        path: path.to_owned(),
        tool,
        why,
        diff,
        version: version_of(current),
    }
    .into()
}

/// What changed in `rel` from the model's `view` (described by `record`)
/// to `current` (text `now` in `style`), rendered for the model; the
/// session's record and view become the file now, the lines shown counting
/// as seen.
pub(crate) fn catch_up<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    rel: &str,
    (view, record): (&str, &Record),
    current: &Current,
    now: &str,
    style: Style,
) -> ShownDiff {
    let since = Since::new(view, now);
    let shown = since.render(now, ctx.config);
    caught_up(ctx, rel, (&since, &shown, record), current, now, style);
    shown
}

/// The session's record and view of `rel` become `current` (text `now` in
/// `style`), once the model was shown `shown` of `since` from its view
/// (described by `record`).
pub(crate) fn caught_up<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    rel: &str,
    (since, shown, record): (&Since, &ShownDiff, &Record),
    current: &Current,
    now: &str,
    style: Style,
) {
    let seen = seen_after(since, record, &shown.places, now);
    ctx.state.ledger.insert(
        rel,
        Record {
            size: current.len,
            mtime_ns: current.meta.mtime_ns,
            fingerprint: Some(current.fingerprint),
            seen,
            total_lines: Some(line_count(now)),
            style,
            call: ctx.state.calls,
            dedup: None,
            view: None,
        },
    );
    if let Some(bytes) = &current.bytes {
        ctx.state.keep_view(rel, bytes, ctx.config);
    }
}

/// What the model has seen of `text` after being shown `shown` of `since`
/// (from its view, described by `record`).
fn seen_after(since: &Since, record: &Record, shown: &[bool], text: &str) -> Coverage {
    if record.full() && shown.iter().all(|&s| s) {
        Coverage::all(line_count(text))
    } else {
        since.seen(&record.seen, shown)
    }
}

/// A change merged with another writer's: what to tell the model, and
/// what it has seen of the result.
#[derive(Debug, Clone)]
pub(crate) struct Merged {
    /// The other writer's changes, as a diff of the view against the new
    /// text (line numbers of the new text), the model's own left out.
    pub diff: String,
    /// Lines of the new text the model has seen.
    pub seen: Coverage,
}

impl Merged {
    /// The note that heads the answer of a merged change of `path`.
    pub fn note(&self, path: &str) -> String {
        format!(
            "Note: {path} changed since your view; your change was made beside those lines, which stay. Lines changed, as they are now:\n{}\n",
            self.diff
        )
    }
}

/// Lands a change from `now` to `next` of a file that changed since
/// `behind.view` when it touches none of the places that changed and merging
/// is on; otherwise the refusal with what changed.
#[expect(
    clippy::too_many_arguments,
    reason = "the merge and the refusal it may give"
)]
pub(crate) fn merge<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    rel: &str,
    path: &str,
    tool: Tool,
    behind: &Behind,
    current: &Current,
    (now, next): (&str, &str),
    style: Style,
) -> Result<Merged, ToolError> {
    // The change's own places, found once for the check and the answer.
    let mine = hunks(&lines(now), &lines(next));
    let clash = Since::new(&behind.view, now).overlaps(&mine);
    if !ctx.config.merge || behind.expected.is_some() || clash {
        let why = if ctx.config.merge && clash {
            Unmerged::Overlap
        } else {
            Unmerged::NotMerged
        };
        return Err(refuse(
            ctx, rel, path, tool, why, behind, current, now, style,
        ));
    }
    let since = Since::new(&behind.view, next);
    let ours = since.ours(&mine);
    let shown = since.render_theirs(next, ctx.config, &ours);
    Ok(Merged {
        seen: seen_after(&since, &behind.record, &shown.places, next),
        diff: shown.text,
    })
}

/// The view's bytes as text the way `file` was decoded.
pub(crate) fn decoder(file: &TextFile) -> impl Fn(&[u8]) -> Option<String> + '_ {
    move |bytes| {
        TextFile::decode_as(bytes, Some(file.style.encoding))
            .ok()
            .map(|f| f.text)
    }
}
