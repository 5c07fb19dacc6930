//! A read without a range of a file too large to show whole (SPEC R5): its
//! outline when it has structure (code, Markdown, JSON, YAML, TOML), else
//! its first and last lines; both say the size and how to read any range.
//! An explicit range never comes here.

use serde_json::json;

use super::{given_encoding, read_target};
use crate::answers::error::ToolError;
use crate::answers::notice::{Notice, Overview};
use crate::answers::result::ToolResult;
use crate::config::Config;
use crate::fs::host::{HostFs, Metadata};
use crate::memory::fingerprint::Fingerprint;
use crate::memory::ledger::Observation;
use crate::text::decode::Decoder;
use crate::text::encoding::Encoding;
use crate::text::textfile::{Style, line_count};
use crate::view::image::read_all;
use crate::view::outline::{self, Language, Rendered, Symbol};
use crate::view::read::args::ReadArgs;
use filetools_code_types::Stopped;

/// Lines shown from the top of a file without structure.
pub const HEAD_LINES: u64 = 60;
/// Lines shown from its end.
pub const TAIL_LINES: u64 = 30;
/// Bytes of the outline budget kept for the sentences around it (at most
/// a quarter of it).
const NOTICE_BYTES: usize = 512;
/// An outline must be at most this share (1/n) of a file that would be
/// shown whole in one page, or the page is shown instead.
const WORTH_IT: u64 = 2;

/// The outline or head and tail of `rel`, when a read of it has no range
/// and the file is too large to show whole; `None` to read it as usual.
pub(crate) fn instead<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    rel: &str,
    meta: Metadata,
    head: &[u8],
) -> Result<Option<(ToolResult, Observation)>, ToolError> {
    let ranged = args.offset.is_some() || args.limit.is_some() || args.char_offset.is_some();
    if !config.outline
        || ranged
        || config.estimate_tokens(meta.size) <= config.outline_budget_tokens
    {
        return Ok(None);
    }
    let language = Language::detect(rel, head);
    if language != Language::Plain && meta.size <= config.max_outline_bytes {
        let bytes = read_all(fs, rel, &args.file_path, config.chunk_bytes)?;
        match structure(config, language, rel, meta, &bytes, given_encoding(args)) {
            Structure::Outline(found) => return Ok(Some(*found)),
            Structure::NotWorthIt => return Ok(None),
            Structure::Stopped(why) => {
                return head_and_tail(config, fs, args, rel, meta, Some((language.name(), why)));
            }
            Structure::None => {}
        }
    }
    head_and_tail(config, fs, args, rel, meta, None)
}

/// What a file's structure gives.
enum Structure {
    /// An outline answer.
    Outline(Box<(ToolResult, Observation)>),
    /// An outline not much shorter than a page showing the whole file.
    NotWorthIt,
    /// A parse that went over its budget.
    Stopped(Stopped),
    /// No structure to show.
    None,
}

/// The outline answer, unless the file has no structure to show or the
/// outline would not save much.
fn structure(
    config: &Config,
    language: Language,
    rel: &str,
    meta: Metadata,
    bytes: &[u8],
    given: Option<Encoding>,
) -> Structure {
    let (decoder, text) = Decoder::whole(bytes, given);
    let lines = line_count(&text);
    let symbols = match outline::symbols_within_budget(language, &text) {
        Ok(Some(symbols)) if !symbols.is_empty() && lines >= 2 => symbols,
        Ok(_) => return Structure::None,
        Err(why) => return Structure::Stopped(why),
    };
    let budget = usize::try_from(outline_bytes(config, meta.size)).unwrap_or(usize::MAX);
    let budget = budget - NOTICE_BYTES.min(budget / 4);
    let rendered = outline::render(&symbols, budget);
    let fits_one_page = lines <= config.max_lines && meta.size <= config.budget_bytes();
    // A file one page could show whole is shown whole unless its outline
    // is much shorter and complete at the top level.
    let not_worth_it = rendered.rest.is_some() || rendered.text.len() as u64 > meta.size / WORTH_IT;
    if fits_one_page && not_worth_it {
        return Structure::NotWorthIt;
    }
    if rendered.shown == 0 {
        return Structure::None;
    }
    let tokens = config.estimate_tokens(meta.size);
    let mut answer = Notice::TooLarge {
        lines,
        size: meta.size,
        tokens,
        shown: Overview::Outline(language.name()),
    }
    .to_string();
    answer.push('\n');
    answer.push_str(&rendered.text);
    answer.push_str(&end(&rendered, &symbols).to_string());
    let encoding = decoder.encoding().unwrap_or(Encoding::Utf8);
    let observation = Observation {
        size: meta.size,
        mtime_ns: meta.mtime_ns,
        fingerprint: Some(Fingerprint::of(bytes)),
        lines: None,
        total: Some(lines),
        style: Style::of_text(&text, encoding, decoder.had_bom()),
        content: true,
        text: None,
    };
    let metadata = json!({
        "kind": "outline",
        "path": rel,
        "size": meta.size,
        "language": language.name(),
        "total_lines": lines,
        "lines_shown": 0,
        "outlined": true,
        "truncated": true,
        "outline_depth": rendered.depth,
        "outline_max_depth": rendered.max_depth,
        "outline_entries_shown": rendered.shown,
        "outline_entries": rendered.total,
        "estimated_tokens": config.estimate_tokens(answer.len() as u64),
    });
    Structure::Outline(Box::new((
        ToolResult::from_text(answer, metadata),
        observation,
    )))
}

/// Bytes an outline of a file of `size` bytes may take: its share of the
/// file, within a quarter and the whole of the outline budget.
fn outline_bytes(config: &Config, size: u64) -> u64 {
    let room = config
        .outline_budget_tokens
        .saturating_mul(config.bytes_per_token);
    let share = size.saturating_mul(config.outline_max_percent) / 100;
    share.clamp(room / 4, room)
}

/// The sentence after the entries, with an example taken from them.
fn end(rendered: &Rendered, symbols: &[Symbol]) -> Notice {
    Notice::OutlineEnd {
        shown: rendered.shown,
        total: rendered.total,
        capped: (rendered.depth < rendered.max_depth)
            .then_some((rendered.depth, rendered.max_depth)),
        rest: rendered.rest,
        example: example(symbols, 1, rendered.depth),
    }
}

/// The first shown entry of two lines or more whose members are all shown: a
/// function or section a model would read whole; its name qualified by its
/// parents' (as `symbol` takes it), and its lines.
fn example(symbols: &[Symbol], level: usize, depth: usize) -> Option<(String, u64, u64)> {
    symbols.iter().find_map(|symbol| {
        let inner = (level < depth)
            .then(|| example(&symbol.children, level + 1, depth))
            .flatten()
            .map(|(name, start, end)| (format!("{}.{name}", symbol.name), start, end));
        inner.or_else(|| {
            let whole = symbol.children.is_empty() || level < depth;
            (whole && symbol.end > symbol.start && !symbol.name.is_empty())
                .then(|| (symbol.name.clone(), symbol.start, symbol.end))
        })
    })
}

/// The first [`HEAD_LINES`] and last [`TAIL_LINES`] lines, each part within
/// half the output budget; `None` when the file is too short for that to
/// help or too large to count its lines.
fn head_and_tail<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    rel: &str,
    meta: Metadata,
    stopped: Option<(&'static str, Stopped)>,
) -> Result<Option<(ToolResult, Observation)>, ToolError> {
    let mut part = config.clone();
    part.max_output_tokens = (config.max_output_tokens / 2)
        .max(crate::config::MIN_BUDGET_BYTES.div_ceil(config.bytes_per_token));
    let range = |offset, limit| ReadArgs {
        offset: Some(offset),
        limit: Some(limit),
        ..args.clone()
    };
    let (top, seen) = read_target(&part, fs, &range(1, HEAD_LINES), rel, meta, None)?;
    let Some(lines) = seen.total.filter(|&total| total > HEAD_LINES + TAIL_LINES) else {
        return Ok(None);
    };
    let first_tail = lines - TAIL_LINES + 1;
    let (bottom, _) = read_target(&part, fs, &range(first_tail, TAIL_LINES), rel, meta, None)?;
    let mut answer = Notice::TooLarge {
        lines,
        size: meta.size,
        tokens: config.estimate_tokens(meta.size),
        shown: Overview::HeadTail {
            head: HEAD_LINES,
            tail: TAIL_LINES,
            stopped,
        },
    }
    .to_string();
    for piece in [top.text(), bottom.text(), Notice::HeadTailEnd.to_string()] {
        answer.push('\n');
        answer.push_str(&piece);
    }
    let mut metadata = top.metadata.clone();
    metadata["kind"] = json!("head_tail");
    metadata["outlined"] = json!(true);
    metadata["tail_first_line"] = json!(first_tail);
    metadata["tail_last_line"] = json!(lines);
    metadata["estimated_tokens"] = json!(config.estimate_tokens(answer.len() as u64));
    Ok(Some((ToolResult::from_text(answer, metadata), seen)))
}
