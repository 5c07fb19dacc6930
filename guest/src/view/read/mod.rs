//! The `read` tool for text files (SPEC §3): builds the page and renders it
//! with numbered lines (`N<TAB>text`) and a footer that always says where the
//! view ends and what to call next. Notebooks and PDFs are paged by it too,
//! once rendered as text; which files reach it is decided by
//! [`crate::view::by_kind`].
//!
//! ```
//! use filetools_core::view::by_kind::read;
//! use filetools_core::view::read::args::ReadArgs;
//! use filetools_core::{Config, MemFs};
//! let fs = MemFs::new();
//! fs.add_file("a.txt", b"one\ntwo\nthree\n");
//! let args = ReadArgs { file_path: "a.txt".into(), offset: Some(2), limit: Some(1), ..ReadArgs::default() };
//! let result = read(&Config::default(), &fs, &args);
//! assert_eq!(result.text(), "2\ttwo\n[lines 2-2 of 3; continue with offset=3]\n[version 6b618919d7d1719c-14]");
//! ```

pub mod args;
pub(crate) mod capture;
pub(crate) mod cursor;
pub(crate) mod cut;
pub(crate) mod gutter;
pub(crate) mod outline;
mod page;
#[cfg(test)]
mod proptests;
pub mod symbol;
#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod testutil;

use std::fmt::Write as _;

use serde::Serialize;

use crate::answers::error::ToolError;
use crate::answers::notice::{Decoding, EntryHeader, Next, Notice, Total};
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::config::Config;
use crate::fs::host::{HostFs, Metadata};
use crate::fs::memory::MemFs;
use crate::memory::ledger::Observation;
use crate::memory::version::Version;
use crate::text::decode::Decoder;
use crate::text::detect::{DETECT_SAMPLE_BYTES, Detection};
use crate::text::encoding::Encoding;
use crate::text::textfile::{LineEnding, Style};
use crate::view::read::args::ReadArgs;
use crate::view::read::args::named_encoding;
use crate::view::sniff::SNIFF_BYTES;
use cursor::Cursor;
use gutter::Gutter;
use page::{Outcome, Request};

/// Machine-readable facts about a read, for the result's metadata.
#[derive(Debug, Clone, Serialize)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "a flat record of independent facts for JSON"
)]
struct ReadMeta {
    path: String,
    kind: &'static str,
    size: u64,
    first_line: Option<u64>,
    last_line: Option<u64>,
    lines_shown: u64,
    total_lines: Option<u64>,
    total_lines_at_least: Option<u64>,
    next_offset: Option<u64>,
    next_char_offset: Option<u64>,
    truncated: bool,
    lines_cut: u64,
    outlined: bool,
    encoding: Encoding,
    bom: bool,
    line_ending: LineEnding,
    lossy: bool,
    /// How sure the encoding is, when the file is not UTF-8 and has no
    /// BOM: "given", "high" or "low".
    #[serde(skip_serializing_if = "Option::is_none")]
    encoding_confidence: Option<&'static str>,
    /// Other encodings that fit, when the confidence is low.
    #[serde(skip_serializing_if = "Option::is_none")]
    encoding_candidates: Option<Vec<&'static str>>,
    estimated_tokens: u64,
    /// The file's version (SPEC V1), when the read hashed all of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
}

/// The encoding the read named, once checked (the session refuses an
/// unknown one before the read starts).
pub(crate) fn given_encoding(args: &ReadArgs) -> Option<Encoding> {
    named_encoding(Tool::Read, args.encoding.as_deref())
        .ok()
        .flatten()
}

/// How many bytes a read fetches first: enough to sniff the file, and a
/// whole chunk, so that the text of a file that fits in one chunk costs one
/// host read.
pub(crate) fn first_fetch(config: &Config) -> u32 {
    let detect = u32::try_from(DETECT_SAMPLE_BYTES).unwrap_or(u32::MAX);
    config.chunk_bytes.max(SNIFF_BYTES).max(detect)
}

/// An answer of one sentence and no content (a binary described, a PDF too
/// large, an image that cannot be shown), with its token estimate added to
/// `metadata`.
pub(crate) fn fact(config: &Config, text: String, mut metadata: serde_json::Value) -> ToolResult {
    metadata["estimated_tokens"] =
        serde_json::Value::from(config.estimate_tokens(text.len() as u64));
    ToolResult::from_text(text, metadata)
}

/// Pages `text`, a rendering of the file `rel` (a notebook, a PDF's pages),
/// with the text engine, so it has the same caps, gutter and footers as a
/// file; `kind` names the rendering in the metadata.
pub(crate) fn page_rendering(
    config: &Config,
    args: &ReadArgs,
    text: &str,
    rel: &str,
    kind: &str,
    size: u64,
) -> Result<ToolResult, ToolError> {
    let rendering = MemFs::new();
    rendering.add_file(kind, text.as_bytes());
    let meta = rendering
        .stat(kind)
        .map_err(|err| ToolError::from_fs(&args.file_path, err))?;
    let (mut result, _) = read_target(config, &rendering, args, kind, meta, None)?;
    result.metadata["kind"] = serde_json::Value::from(kind);
    result.metadata["path"] = serde_json::Value::from(rel);
    result.metadata["size"] = serde_json::Value::from(size);
    Ok(result)
}

/// Reads the regular file `rel` (metadata `meta`) and says what was shown.
/// `head`, when given, is the file's first bytes as fetched to sniff it
/// (asking for [`first_fetch`]); the text starts from them instead of
/// reading them again.
pub(crate) fn read_target<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    rel: &str,
    meta: Metadata,
    head: Option<Vec<u8>>,
) -> Result<(ToolResult, Observation), ToolError> {
    read_framed(config, fs, args, (rel, meta), head, Framing::Numbered)
}

/// How a page of text is framed.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Framing<'a> {
    /// Each line numbered, a footer after the lines.
    Numbered,
    /// The lines of the outline entry `name` (which ends at line `last`) as
    /// they stand, under a header with their range; the footer only when
    /// a cap cut the entry short.
    Named { name: &'a str, last: u64 },
}

/// [`read_target`] with `framing`.
pub(crate) fn read_framed<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    (rel, meta): (&str, Metadata),
    head: Option<Vec<u8>>,
    framing: Framing<'_>,
) -> Result<(ToolResult, Observation), ToolError> {
    let stat = meta;
    let request = Request {
        offset: args.offset.unwrap_or(1),
        limit: args.limit.unwrap_or(config.max_lines),
        char_offset: args.char_offset,
        gutter: match framing {
            Framing::Numbered => Gutter::Numbered,
            Framing::Named { .. } => Gutter::Bare,
        },
    };
    let given = given_encoding(args);
    let head = match head {
        Some(head) => head,
        None => fs
            .read(rel, 0, first_fetch(config))
            .map_err(|err| ToolError::from_fs(&args.file_path, err))?,
    };
    let whole = head.len() < first_fetch(config) as usize;
    let (decoder, found) = Decoder::for_file(&head, whole, given);
    let mut cursor = Cursor::new(fs, rel, config.chunk_bytes).with_decoder(decoder);
    // Only files an edit could load are fingerprinted: hashing a multi-GB log
    // that a read merely pages through would cost more than the read.
    if stat.size <= config.max_edit_bytes {
        cursor = cursor.with_fingerprint();
        if stat.size <= config.view_bytes {
            cursor = cursor.with_copy();
        }
    }
    cursor = cursor.with_head(head, first_fetch(config));
    let outcome = page::build(config, &mut cursor, request)
        .map_err(|err| ToolError::from_fs(&args.file_path, err))?;
    // A version names the whole file: what the page did not fetch is
    // hashed too (SPEC V1).
    cursor
        .finish_hash()
        .map_err(|err| ToolError::from_fs(&args.file_path, err))?;
    let copy = cursor.take_copy();
    let decoder = cursor.decoder();
    let encoding = decoder.encoding().unwrap_or(Encoding::Utf8);
    let style = Style {
        encoding,
        bom: decoder.had_bom(),
        line_ending: LineEnding::of_counts(cursor.endings.lf, cursor.endings.crlf),
        crlf_dominant: cursor.endings.crlf > cursor.endings.lf,
    };
    let mut observation = Observation {
        size: stat.size,
        mtime_ns: stat.mtime_ns,
        fingerprint: cursor.fingerprint(),
        lines: None,
        total: None,
        style,
        content: matches!(outcome, Outcome::Page { .. } | Outcome::Window { .. }),
        text: copy,
    };
    let mut meta = ReadMeta {
        path: rel.to_owned(),
        kind: "text",
        size: meta.size,
        first_line: None,
        last_line: None,
        lines_shown: 0,
        total_lines: None,
        total_lines_at_least: None,
        next_offset: None,
        next_char_offset: None,
        truncated: false,
        lines_cut: 0,
        outlined: false,
        encoding,
        bom: style.bom,
        line_ending: style.line_ending,
        lossy: decoder.lossy(),
        encoding_confidence: None,
        encoding_candidates: None,
        estimated_tokens: 0,
        version: None,
    };
    let how = decoding(style.bom, given.is_some(), found);
    let mut text = render(config, outcome, framing, &mut meta);
    if meta.encoding != Encoding::Utf8 {
        meta.encoding_confidence = match &how {
            Decoding::Bom => None,
            Decoding::Given => Some("given"),
            Decoding::Detected => Some("high"),
            Decoding::Guessed(others) => {
                meta.encoding_candidates = Some(others.clone());
                Some("low")
            }
        };
        let encoding = meta.encoding.name();
        push_notice(&mut text, &Notice::Decoded { encoding, how });
    }
    if meta.lossy {
        push_notice(&mut text, &Notice::Lossy(meta.encoding.name()));
    }
    versioned(&mut text, &mut meta, observation.fingerprint, stat.size);
    meta.estimated_tokens = config.estimate_tokens(text.len() as u64);
    observation.lines = meta.first_line.zip(meta.last_line);
    observation.content &= text.len() >= crate::memory::ledger::DEDUP_MIN_BYTES;
    observation.total = meta.total_lines;
    let metadata = serde_json::to_value(&meta).unwrap_or_default();
    Ok((ToolResult::from_text(text, metadata), observation))
}

/// Ends a read of a file whose content hashed to `fingerprint` with its
/// version (SPEC V1), in the text and the metadata.
fn versioned(text: &mut String, meta: &mut ReadMeta, fingerprint: Option<u64>, size: u64) {
    if let Some(hash) = fingerprint {
        let version = Version { hash, size };
        push_notice(text, &Notice::Version(version));
        meta.version = Some(version.to_string());
    }
}

/// How the encoding of a read was settled: by a BOM, by the read's own
/// `encoding`, or by detection.
fn decoding(bom: bool, given: bool, found: Option<Detection>) -> Decoding {
    match found {
        _ if bom => Decoding::Bom,
        _ if given => Decoding::Given,
        Some(found) if found.confident => Decoding::Detected,
        Some(found) => Decoding::Guessed(found.plausible.iter().map(|e| e.name()).collect()),
        None => Decoding::Bom,
    }
}

fn push_notice(text: &mut String, notice: &Notice) {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&notice.to_string());
}

fn set_total(meta: &mut ReadMeta, total: Total) {
    match total {
        Total::Exact(n) => meta.total_lines = Some(n),
        Total::AtLeast { counted, .. } => meta.total_lines_at_least = Some(counted),
    }
}

fn set_next(meta: &mut ReadMeta, next: Next) {
    match next {
        Next::EndOfFile => {}
        Next::Offset(offset) => meta.next_offset = Some(offset),
        Next::CharOffset {
            offset,
            char_offset,
        } => {
            meta.next_offset = Some(offset);
            meta.next_char_offset = Some(char_offset);
        }
    }
    meta.truncated = next != Next::EndOfFile;
}

/// A page's `lines` (lines `first` to `last` of `total`) with what `framing`
/// puts around them.
fn frame(
    mut lines: String,
    footer: &Notice,
    framing: Framing<'_>,
    (first, last, total): (u64, u64, Total),
) -> String {
    let Framing::Named { name, last: end } = framing else {
        push_notice(&mut lines, footer);
        return lines;
    };
    let header = EntryHeader {
        name,
        first,
        last: end,
        total,
    };
    let mut text = format!("{header}\n{lines}");
    if last < end {
        push_notice(&mut text, footer);
    } else {
        // The lines end the answer, as a file's last line ends it.
        text.pop();
    }
    text
}

fn render(config: &Config, outcome: Outcome, framing: Framing<'_>, meta: &mut ReadMeta) -> String {
    let mut text = String::new();
    match outcome {
        Outcome::Empty => {
            meta.total_lines = Some(0);
            push_notice(&mut text, &Notice::Empty);
        }
        Outcome::PastEnd { total, offset } => {
            meta.total_lines = Some(total);
            push_notice(&mut text, &Notice::PastEnd { total, offset });
        }
        Outcome::Page {
            text: lines,
            first,
            last,
            budget_cut_at,
            cut,
            total,
            next,
            budget_hit,
        } => {
            meta.first_line = Some(first);
            meta.last_line = Some(last);
            meta.lines_shown = last + 1 - first;
            meta.lines_cut = cut;
            set_total(meta, total);
            set_next(meta, next);
            meta.truncated |= cut > 0;
            let footer = Notice::Page {
                first,
                last,
                total,
                next,
                budget_tokens: budget_hit.then_some(config.max_output_tokens),
            };
            text = frame(lines, &footer, framing, (first, last, total));
            if cut > 0 {
                push_notice(
                    &mut text,
                    &Notice::LinesCut {
                        count: cut,
                        max_chars: config.max_line_chars,
                        budget_cut_at,
                    },
                );
            }
        }
        Outcome::Window {
            line,
            text: segment,
            from,
            to,
            total,
            next,
        } => {
            let _ = writeln!(text, "{line}\t{segment}");
            meta.first_line = Some(line);
            meta.last_line = Some(line);
            meta.lines_shown = 1;
            set_next(meta, next);
            push_notice(
                &mut text,
                &Notice::Window {
                    line,
                    from,
                    to,
                    total,
                    next,
                },
            );
        }
        Outcome::CharPastEnd {
            line,
            chars,
            char_offset,
            next,
        } => {
            set_next(meta, next);
            push_notice(
                &mut text,
                &Notice::CharPastEnd {
                    line,
                    chars,
                    char_offset,
                    next,
                },
            );
        }
    }
    text
}
