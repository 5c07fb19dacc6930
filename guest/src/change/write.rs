//! The `write` tool (SPEC W1–W7): creates a file with its parents, or
//! replaces one the session has seen whole and that is unchanged since. The
//! replaced file keeps its BOM, encoding and line endings unless the content
//! brings its own; the answer says what changed in one line.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let mut session = Session::open("{}", MemFs::new()).unwrap();
//! let result = session.call("write", r#"{"file_path": "src/new.txt", "content": "a\nb\n"}"#);
//! assert_eq!(result.text(), "Created src/new.txt: 2 lines, 4 bytes.\n[version b02de41d3964aa4c-4]");
//! ```

use serde_json::json;

use crate::answers::error::ToolError;
use crate::answers::refusal::{Change, Refusal, Unmerged};
use crate::answers::report::{Kept, Report};
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::args::{WriteArgs, checked_version};
use crate::change::basis::{self, Basis};
use crate::change::commit::{Commit, Replaced, commit};
use crate::change::context::Ctx;
use crate::change::echo;
use crate::change::guard;
use crate::change::syntax_check;
use crate::config::Config;
use crate::fs::host::{HostFs, Metadata, Precondition};
use crate::memory::ledger::{Coverage, Record};
use crate::memory::version::Version;
use crate::paths::repair::Target;
use crate::text::diff::line_change;
use crate::text::encoding::Encoding;
use crate::text::textfile::{NotText, Style, TextFile, line_count, to_crlf};

/// Runs `write` on `target`, the repaired path.
pub(crate) fn run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    args: &WriteArgs,
    target: &Target,
) -> Result<ToolResult, ToolError> {
    let path = args.file_path.as_str();
    let rel = target.rel.clone();
    if echo::is_stub(&args.content) {
        return Err(Refusal::StubContent { path: path.into() }.into());
    }
    if echo::is_read_output(&args.content) {
        return Err(Refusal::GutterContent { path: path.into() }.into());
    }
    let expect = checked_version(Tool::Write, args.expect.as_deref())?;
    match (guard::target_kind(&target.stat, path)?, expect) {
        (None, Some(expected)) => Err(Refusal::absent(path, Tool::Write, expected).into()),
        (None, None) => create(ctx, &rel, path, &args.content, Tool::Write),
        (Some(meta), _) => replace(ctx, &rel, path, &args.content, (meta, expect)),
    }
}

/// Creates `rel` with `text` as it is (new files get no BOM and keep the
/// content's own line endings). Shared with `edit`, which creates a file from
/// an empty `old_string`.
pub(crate) fn create<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    rel: &str,
    path: &str,
    text: &str,
    tool: Tool,
) -> Result<ToolResult, ToolError> {
    let lines = line_count(text);
    let style = Style::of_text(text, ctx.encoding.unwrap_or(Encoding::Utf8), false);
    let bytes = style
        .encode(text)
        .map_err(|err| Refusal::unmappable(path, &err))?;
    let meta = commit(
        ctx,
        &Commit {
            rel,
            path,
            tool,
            bytes: &bytes,
            precondition: Precondition::Absent,
            replaced: Replaced::Nothing,
            seen: Coverage::all(lines),
            total_lines: lines,
            style,
        },
    )?;
    let report = Report::Created {
        path: path.to_owned(),
        lines,
        bytes: meta.size,
        encoding: (style.encoding != Encoding::Utf8).then(|| style.encoding.name()),
    };
    Ok(answer(
        ctx.config, &report, rel, "created", lines, meta.size,
    ))
}

fn replace<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    rel: &str,
    path: &str,
    content: &str,
    (meta, expect): (Metadata, Option<Version>),
) -> Result<ToolResult, ToolError> {
    let current = guard::load(
        ctx.fs,
        rel,
        path,
        meta,
        ctx.config.chunk_bytes,
        ctx.config.max_edit_bytes,
    )?;
    current.text_only(path)?;
    let old = match current.bytes.as_deref().map(TextFile::decode) {
        Some(Ok(file)) => Some(file),
        // Never written in a guessed encoding: the model names one.
        Some(Err(err @ NotText::Unsure(_))) if ctx.encoding.is_none() => {
            return Err(Refusal::not_text(path, err).into());
        }
        _ => None,
    };
    let record = standing(ctx, (rel, path), &current, old.as_ref(), expect)?;
    let was_lines = old.as_ref().map_or_else(
        || record.as_ref().and_then(|r| r.total_lines).unwrap_or(0),
        |f| line_count(&f.text),
    );
    let fallback = record.as_ref().map_or_else(Style::default, |r| r.style);
    let mut old_style = old.as_ref().map_or(fallback, |f| f.style);
    let was = old_style.encoding;
    if let Some(encoding) = ctx.encoding {
        old_style.encoding = encoding;
    }
    let (text, mut style, mut kept) = restyle(content, old_style);
    if style.encoding != was {
        kept.encoding = None;
        kept.converted = Some((was.name(), style.encoding.name()));
        // A BOM is UTF-8's or UTF-16's; legacy encodings have none.
        style.bom &= !style.encoding.is_legacy();
        kept.bom &= style.bom;
    }
    let bytes = style
        .encode(&text)
        .map_err(|err| Refusal::unmappable(path, &err))?;
    if current.bytes.as_deref() == Some(&*bytes) {
        let report = Report::Unchanged {
            path: path.to_owned(),
        };
        return Ok(answer(
            ctx.config,
            &report,
            rel,
            "unchanged",
            was_lines,
            current.len,
        ));
    }
    let syntax = old
        .as_ref()
        .and_then(|old| syntax_check::check(ctx.config, rel, &old.text, &text));
    syntax_check::refuse_broken(ctx.config, path, syntax.as_ref())?;
    let lines = line_count(&text);
    let replaced = match &current.bytes {
        Some(bytes) => Replaced::Bytes(bytes, &current.sha256),
        None => Replaced::Unkept(current.len),
    };
    let meta = commit(
        ctx,
        &Commit {
            rel,
            path,
            tool: Tool::Write,
            bytes: &bytes,
            precondition: current.precondition(),
            replaced,
            seen: Coverage::all(lines),
            total_lines: lines,
            style,
        },
    )?;
    let report = Report::Updated {
        path: path.to_owned(),
        lines,
        bytes: meta.size,
        was_lines,
        change: old.as_ref().and_then(|f| line_change(&f.text, &text)),
        kept,
    };
    let result = answer(ctx.config, &report, rel, "updated", lines, meta.size);
    Ok(syntax_check::noted(result, syntax.as_ref()))
}

/// What a replacement of `rel` (now `current`, decoded as `old`) stands
/// on: the session's record of it, when that is of this version. Refused
/// when the file changed since the model's view (a whole-file replacement
/// never merges, SPEC V4: the model is shown what changed), when `expect`
/// names another version, and — without `expect`, whose version is the
/// evidence — when not every line was seen.
fn standing<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    (rel, path): (&str, &str),
    current: &guard::Current,
    old: Option<&TextFile>,
    expect: Option<Version>,
) -> Result<Option<Record>, ToolError> {
    let decode = |bytes: &[u8]| TextFile::decode(bytes).ok().map(|f| f.text);
    let basis = basis::basis(ctx, rel, path, current, Tool::Write, expect, true, decode)?;
    let record = match (basis, old) {
        (Basis::Fresh(record), _) => record,
        (Basis::Changed(behind), Some(old)) => {
            let (why, text, style) = (Unmerged::Whole, old.text.as_str(), old.style);
            let tool = Tool::Write;
            return Err(basis::refuse(
                ctx, rel, path, tool, why, &behind, current, text, style,
            ));
        }
        (Basis::Changed(_), None) => {
            let (tool, change) = (Tool::Write, Change::Content);
            return Err(Refusal::Stale {
                path: path.to_owned(),
                tool,
                change,
            }
            .into());
        }
    };
    if let Some(record) = record.as_ref().filter(|r| expect.is_none() && !r.full()) {
        let next = record
            .seen
            .first_gap(record.total_lines.unwrap_or(u64::MAX))
            .unwrap_or(1);
        return Err(Refusal::PartialView {
            path: path.to_owned(),
            seen: record.seen.clone(),
            total: record.total_lines,
            next,
        }
        .into());
    }
    Ok(record)
}

/// `content` in the old file's style (SPEC W3): its encoding, its BOM, and
/// CRLF endings when the file mostly had them and the content has no `\r`
/// of its own. A leading U+FEFF in the content asks for a BOM.
fn restyle(content: &str, old: Style) -> (String, Style, Kept) {
    let (content, own_bom) = match content.strip_prefix('\u{feff}') {
        Some(rest) => (rest, true),
        None => (content, false),
    };
    let crlf = old.crlf_dominant && !content.contains('\r') && content.contains('\n');
    let text = if crlf {
        to_crlf(content)
    } else {
        content.to_owned()
    };
    let style = Style::of_text(&text, old.encoding, old.bom || own_bom);
    let kept = Kept {
        crlf,
        bom: old.bom && !own_bom,
        encoding: (old.encoding != Encoding::Utf8).then(|| old.encoding.name()),
        converted: None,
    };
    (text, style, kept)
}

/// The result of a change: the report, and its facts for programs.
pub(crate) fn answer(
    config: &Config,
    report: &Report,
    rel: &str,
    action: &str,
    lines: u64,
    bytes: u64,
) -> ToolResult {
    let text = report.to_string();
    let tokens = config.estimate_tokens(text.len() as u64);
    ToolResult::from_text(
        text,
        json!({ "path": rel, "action": action, "lines": lines, "bytes": bytes, "estimated_tokens": tokens }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_bom_are_kept_unless_the_content_brings_its_own() {
        let old = Style::of_text("a\r\nb\r\n", Encoding::Utf8, true);
        let (text, style, kept) = restyle("x\ny\n", old);
        assert_eq!(text, "x\r\ny\r\n");
        assert!(style.bom && kept.crlf && kept.bom);
        let (text, _, kept) = restyle("x\r\ny\n", old);
        assert_eq!(text, "x\r\ny\n");
        assert!(!kept.crlf);
        let lf = Style::of_text("a\n", Encoding::Utf8, false);
        let (text, style, _) = restyle("\u{feff}x\n", lf);
        assert_eq!((text.as_str(), style.bom), ("x\n", true));
    }
}
