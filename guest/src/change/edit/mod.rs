//! The `edit` tool (SPEC E1–E9): replaces `old_string` by `new_string` in a
//! file the session has read (any part of) and that is unchanged since. A
//! list of edits is applied in order, all or nothing. Matching happens on the
//! file's LF view; the file keeps its BOM, encoding and line endings, and
//! every byte outside the matched spans stays as it was. The answer shows the
//! changed lines, numbered, so no re-read is needed — and the session counts
//! them as seen.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("a.py", b"x = 1\ny = 2\n");
//! let mut session = Session::open("{}", fs).unwrap();
//! session.call("read", r#"{"file_path": "a.py"}"#);
//! let result = session.call("edit", r#"{"file_path": "a.py", "old_string": "y = 2", "new_string": "y = 3"}"#);
//! assert_eq!(result.text(), "Edited a.py: 1 replacement; the file has 2 lines.\n1\tx = 1\n2\ty = 3\n[version 95898be7de86086d-12]");
//! ```

mod find;
mod lines;
mod nearest;
mod quotes;
pub(crate) mod snippet;
pub(crate) mod symbol;
pub(crate) mod view;

use serde_json::json;

use crate::answers::error::ToolError;
use crate::answers::refusal::{At, Refusal, Unmerged};
use crate::answers::report::{Report, Tolerance};
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::args::{EditArgs, EditOp, checked_version};
use crate::change::basis::Merged;
use crate::change::commit::{Commit, Replaced, commit};
use crate::change::context::Ctx;
use crate::change::guard::{self, Current};
use crate::change::rewrite::{self, Loaded, Seen};
use crate::change::syntax_check::{self, refuse_broken};
use crate::change::write::{answer, create};
use crate::fs::host::HostFs;
use crate::memory::fingerprint::Fingerprint;
use crate::memory::ledger::{Coverage, Record};
use crate::memory::state::RecentEdit;
use crate::memory::version::Version;
use crate::paths::repair::Target;
use crate::text::encoding::Encoding;
use crate::text::textfile::{
    Style, TextFile, count_endings, line_count, line_of, lines_after, newlines,
};
use find::Miss;
use view::{LineIndex, View};

/// Runs `edit` on `target`, the repaired path.
pub(crate) fn run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    args: &EditArgs,
    target: &Target,
) -> Result<ToolResult, ToolError> {
    let path = args.file_path.as_str();
    let rel = target.rel.clone();
    let ops = checked_ops(args)?;
    let count = ops.len();
    let expect = checked_version(Tool::Edit, args.expect.as_deref())?;
    let Some(meta) = guard::target_kind(&target.stat, path)? else {
        return create_missing(ctx, &ops, expect, &rel, path);
    };
    let loaded = rewrite::load(ctx, &rel, path, meta, Tool::Edit, (Seen::Required, expect))?;
    let Loaded {
        current,
        file,
        record,
        ..
    } = &loaded;
    // The very edit this session made, sent again: certainly applied.
    if let Some(line) = ctx
        .state
        .made_edit(&rel, current.fingerprint, &op_keys(&ops))
    {
        let lines = line_count(&file.text);
        return Ok(already_applied(
            ctx.config,
            &rel,
            path,
            line,
            lines,
            current.len,
        ));
    }
    // An empty old_string fills an empty file, then the rest apply.
    let ((start_text, newlines), ops_left, done) = match ops.split_first() {
        Some((first, rest)) if first.old_string.is_empty() => {
            if !file.text.is_empty() {
                return Err(Refusal::FileNotEmpty {
                    path: path.into(),
                    size: current.len,
                }
                .into());
            }
            ((first.new_string.as_str(), None), rest, 1)
        }
        _ => ((file.text.as_str(), Some(file.newlines)), ops.as_slice(), 0),
    };
    let done = At { index: done, count };
    let applied = apply(
        (start_text, newlines),
        file.style.crlf_dominant,
        ops_left,
        done,
        path,
        record.as_ref().map(|r| r.seen.clone()).unwrap_or_default(),
    );
    // On a file that changed since the model's view, text that no longer
    // matches one place is shown what changed (SPEC V4).
    let applied = match applied {
        Err(Refusal::NoMatch { .. } | Refusal::Ambiguous { .. }) if loaded.behind.is_some() => {
            return Err(loaded.refused(ctx, Tool::Edit, Unmerged::Unmatched));
        }
        applied => applied?,
    };
    if applied.replacements == 0 && done.index == 0 {
        let line = applied.already.first().map_or(1, |&(_, line)| line);
        let lines = line_count(&file.text);
        return Ok(already_applied(
            ctx.config,
            &rel,
            path,
            line,
            lines,
            current.len,
        ));
    }
    if let Some(&(index, line)) = applied.already.first() {
        return Err(Refusal::PartlyApplied {
            path: path.to_owned(),
            at: At { index, count },
            line,
        }
        .into());
    }
    let new_text = applied.view.file_text();
    let merged = loaded.land(ctx, &new_text, Tool::Edit)?;
    let full = record.as_ref().is_some_and(Record::full);
    let result = save(
        ctx,
        &rel,
        path,
        (current, file, &new_text),
        (full, merged.as_ref()),
        &applied,
        &ops,
        &|applied, lines, snippet| Report::Edited {
            path: path.to_owned(),
            replacements: applied.replacements,
            lines,
            tolerance: applied.notes.clone(),
            snippet,
        },
    )?;
    Ok(match merged {
        Some(merged) => result.prefixed(&merged.note(path)),
        None => result,
    })
}

/// An edit of a missing file: with an empty first `old_string` it creates
/// the file (the rest apply to what it wrote); else, and with `expect`, it
/// is refused.
fn create_missing<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    ops: &[EditOp],
    expect: Option<Version>,
    rel: &str,
    path: &str,
) -> Result<ToolResult, ToolError> {
    if let Some(expected) = expect {
        return Err(Refusal::absent(path, Tool::Edit, expected).into());
    }
    let Some((first, rest)) = ops.split_first().filter(|(f, _)| f.old_string.is_empty()) else {
        return Err(Refusal::NoFile { path: path.into() }.into());
    };
    let count = ops.len();
    let applied = apply(
        (&first.new_string, None),
        false,
        rest,
        At { index: 1, count },
        path,
        Coverage::default(),
    )?;
    create(ctx, rel, path, &applied.view.file_text(), Tool::Edit)
}

/// The answer to an edit found already made: nothing is written.
fn already_applied(
    config: &crate::config::Config,
    rel: &str,
    path: &str,
    line: u64,
    lines: u64,
    size: u64,
) -> ToolResult {
    let report = Report::AlreadyApplied {
        path: path.to_owned(),
        line,
    };
    answer(config, &report, rel, "already_applied", lines, size)
}

/// The `(old_string, new_string, replace_all)` of each edit.
fn op_keys(ops: &[EditOp]) -> Vec<(String, String, bool)> {
    ops.iter()
        .map(|op| (op.old_string.clone(), op.new_string.clone(), op.replace_all))
        .collect()
}

/// The edits of `args` with LF line ends, refusing an empty list and an
/// edit that would change nothing (SPEC E6) before any I/O.
fn checked_ops(args: &EditArgs) -> Result<Vec<EditOp>, ToolError> {
    let ops: Vec<EditOp> = args.edits.iter().map(lf_op).collect();
    if ops.is_empty() {
        return Err(ToolError::InvalidArgument {
            tool: Tool::Edit,
            name: "edits",
            expected: "a non-empty list of {old_string, new_string, replace_all?} objects",
            got: "[]".to_owned(),
        });
    }
    let count = ops.len();
    match ops.iter().position(|op| op.old_string == op.new_string) {
        Some(n) => Err(Refusal::SameStrings {
            at: At {
                index: n + 1,
                count,
            },
        }
        .into()),
        None => Ok(ops),
    }
}

/// What an edit's answer says, given what was applied, the lines the file
/// has now and the changed lines, numbered.
type Describe<'a> = &'a dyn Fn(&Applied, u64, String) -> Report;

/// Writes the edited text in the file's style and answers with the changed
/// lines, as `describe` says.
#[expect(clippy::too_many_arguments, reason = "one save of all an edit weighed")]
fn save<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    rel: &str,
    path: &str,
    (current, old, new_text): (&Current, &TextFile, &str),
    (full, merged): (bool, Option<&Merged>),
    applied: &Applied,
    ops: &[EditOp],
    describe: Describe<'_>,
) -> Result<ToolResult, ToolError> {
    let syntax = syntax_check::check(ctx.config, rel, &old.text, new_text);
    refuse_broken(ctx.config, path, syntax.as_ref())?;
    // One count of the line ends gives the style and the lines; the view
    // kept it through the edits.
    let (lf, crlf) = applied
        .view
        .endings()
        .unwrap_or_else(|| count_endings(new_text));
    let style = Style::of_counts((lf, crlf), old.style.encoding, old.style.bom);
    let new_bytes = style
        .encode(new_text)
        .map_err(|err| Refusal::unmappable(path, &err))?;
    let lines = lines_after(new_text, lf + crlf);
    let seen = match merged {
        Some(merged) => merged.seen.clone(),
        None if full => Coverage::all(lines),
        None => applied.seen.clone(),
    };
    let meta = commit(
        ctx,
        &Commit {
            rel,
            path,
            tool: Tool::Edit,
            bytes: &new_bytes,
            precondition: current.precondition(),
            replaced: Replaced::Bytes(
                current.bytes.as_deref().unwrap_or_default(),
                &current.sha256,
            ),
            seen,
            total_lines: lines,
            style,
        },
    )?;
    // The view has the new text's lines: only its CRLFs are LFs.
    let index = LineIndex::new(&applied.view.text);
    let first_line = applied
        .regions
        .first()
        .map_or(1, |&(start, _)| index.line_of(start));
    // The commit fingerprinted the new content for the ledger.
    let after = ctx
        .state
        .ledger
        .get(rel)
        .and_then(|record| record.fingerprint);
    ctx.state.remember_edit(RecentEdit {
        rel: rel.to_owned(),
        after: after.unwrap_or_else(|| Fingerprint::of(&new_bytes)),
        ops: op_keys(ops),
        line: first_line,
    });
    let snippet = snippet::render(
        (&applied.view.text, &index),
        lines,
        &applied.regions,
        ctx.config.max_line_chars,
    );
    let report = describe(applied, lines, snippet);
    let mut result = answer(ctx.config, &report, rel, "edited", lines, meta.size);
    if let Report::Edited { replacements, .. } = report {
        result.metadata["replacements"] = json!(replacements);
    }
    if style.encoding != Encoding::Utf8 {
        result.metadata["encoding"] = json!(style.encoding);
    }
    Ok(syntax_check::noted(result, syntax.as_ref()))
}

/// `op` with CRLF line ends as LF, the form the view is matched in.
fn lf_op(op: &EditOp) -> EditOp {
    EditOp {
        old_string: op.old_string.replace("\r\n", "\n"),
        new_string: op.new_string.replace("\r\n", "\n"),
        replace_all: op.replace_all,
    }
}

/// The outcome of applying a list of edits to a text.
struct Applied<'t> {
    view: View<'t>,
    regions: Vec<(usize, usize)>,
    notes: Vec<Tolerance>,
    replacements: usize,
    seen: Coverage,
    /// `(1-based index, line)` of edits found already applied.
    already: Vec<(usize, u64)>,
}

/// Line numbers of places in a text: counted up to each place when there
/// are few (a pass that needs no memory), from an index when there are
/// many.
enum Lines<'t> {
    Counted(&'t str),
    Indexed(LineIndex),
}

/// Places up to which lines are counted one by one.
const COUNTED_PLACES: usize = 4;

impl<'t> Lines<'t> {
    fn of(text: &'t str, places: usize) -> Self {
        if places * 2 <= COUNTED_PLACES {
            Self::Counted(text)
        } else {
            Self::Indexed(LineIndex::new(text))
        }
    }

    fn line_of(&self, at: usize) -> u64 {
        match self {
            Self::Counted(text) => line_of(text, at),
            Self::Indexed(index) => index.line_of(at),
        }
    }

    /// The lines from the one of `from` to the one of `to`, counted from
    /// `first`, the line of `from`.
    fn last_of(&self, first: u64, (from, to): (usize, usize)) -> u64 {
        match self {
            Self::Counted(text) => first + newlines(&text.as_bytes()[from..to]),
            Self::Indexed(index) => index.line_of(to),
        }
    }
}

/// Applies `ops` to `text` in order, numbering them after the `done.index`
/// edits of `done.count` already made; the first that cannot apply refuses
/// the whole list.
fn apply<'t>(
    (text, newlines): (&'t str, Option<u64>),
    crlf: bool,
    ops: &[EditOp],
    done: At,
    path: &str,
    seen: Coverage,
) -> Result<Applied<'t>, Refusal> {
    let mut applied = Applied {
        view: match newlines {
            Some(newlines) => View::counted(text, newlines),
            None => View::new(text),
        },
        regions: if done.index > 0 {
            vec![(0, text.len())]
        } else {
            Vec::new()
        },
        notes: Vec::new(),
        replacements: 0,
        seen,
        already: Vec::new(),
    };
    for (n, op) in ops.iter().enumerate() {
        let at = At {
            index: done.index + n + 1,
            count: done.count,
        };
        if op.old_string.is_empty() {
            return Err(Refusal::FileNotEmpty {
                path: path.to_owned(),
                size: applied.view.text.len() as u64,
            });
        }
        match find::find(&applied.view.text, op) {
            Ok(found) => {
                let lines = Lines::of(&applied.view.text, found.spans.len());
                for (span, with) in found.spans.iter().zip(&found.with).rev() {
                    let first = lines.line_of(span.0);
                    let removed = lines.last_of(first, *span) - first + 1;
                    let added = with.matches('\n').count() as u64 + 1;
                    applied.seen.replace(first, removed, added);
                }
                let placed =
                    applied
                        .view
                        .replace(&found.spans, &found.with, crlf, &mut applied.regions);
                applied.regions.extend(placed);
                applied.regions.sort_unstable();
                applied.replacements += found.spans.len();
                for note in found.notes {
                    if !applied.notes.contains(&note) {
                        applied.notes.push(note);
                    }
                }
            }
            Err(Miss::AlreadyApplied { at: offset }) => {
                let line = line_of(&applied.view.text, offset);
                applied.already.push((at.index, line));
            }
            Err(Miss::NoMatch(nearest)) => {
                return Err(Refusal::NoMatch {
                    path: path.to_owned(),
                    at,
                    nearest,
                });
            }
            Err(Miss::Ambiguous { starts, tolerant }) => {
                let index = LineIndex::new(&applied.view.text);
                return Err(Refusal::Ambiguous {
                    path: path.to_owned(),
                    at,
                    count: starts.len(),
                    lines: starts.iter().map(|&s| index.line_of(s)).collect(),
                    tolerant,
                });
            }
        }
    }
    Ok(applied)
}

#[cfg(test)]
#[expect(clippy::format_collect, reason = "test inputs; speed does not matter")]
mod tests;
