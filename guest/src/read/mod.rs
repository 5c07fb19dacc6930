//! The `read` tool for text files (SPEC §3): resolves the path, refuses what
//! is not a regular file before opening it, builds the page and renders it
//! `cat -n` style with a footer that always says where the view ends and what
//! to call next.
//!
//! ```
//! use filetools_core::{Config, MemFs, args::ReadArgs, read::read};
//! let fs = MemFs::new();
//! fs.add_file("a.txt", b"one\ntwo\nthree\n");
//! let args = ReadArgs { file_path: "a.txt".into(), offset: Some(2), limit: Some(1), ..ReadArgs::default() };
//! let result = read(&Config::default(), &fs, &args);
//! assert_eq!(result.text(), "2\ttwo\n[lines 2-2 of 3; continue with offset=3]");
//! ```

mod capture;
mod cursor;
mod cut;
mod gutter;
mod page;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;

use std::fmt::Write as _;

use serde::Serialize;

use crate::args::ReadArgs;
use crate::config::Config;
use crate::decode::Encoding;
use crate::error::ToolError;
use crate::fs::{FileKind, HostFs};
use crate::notice::{Next, Notice, Total};
use crate::path;
use crate::result::ToolResult;
use cursor::{Cursor, Endings};
use page::{Outcome, Request};

/// How the file ends its lines, as far as it was scanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEnding {
    /// No line end was seen.
    None,
    /// `\n` only.
    Lf,
    /// `\r\n` only.
    Crlf,
    /// Both.
    Mixed,
}

impl LineEnding {
    fn of(endings: Endings) -> Self {
        match (endings.lf, endings.crlf) {
            (0, 0) => LineEnding::None,
            (_, 0) => LineEnding::Lf,
            (0, _) => LineEnding::Crlf,
            _ => LineEnding::Mixed,
        }
    }
}

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
    estimated_tokens: u64,
}

/// Runs `read` and renders its result; failures become error results.
pub fn read<F: HostFs + ?Sized>(config: &Config, fs: &F, args: &ReadArgs) -> ToolResult {
    run(config, fs, args).unwrap_or_else(|err| ToolResult::error(&err, Some(&args.file_path)))
}

fn run<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
) -> Result<ToolResult, ToolError> {
    let rel = path::resolve(config, &args.file_path).map_err(|reason| ToolError::BadPath {
        path: args.file_path.clone(),
        reason,
        root: config.root.clone(),
    })?;
    let meta = fs
        .stat(&rel)
        .map_err(|err| ToolError::from_fs(&args.file_path, err))?;
    match meta.kind {
        FileKind::File => {}
        FileKind::Directory => {
            return Err(ToolError::IsDirectory {
                path: args.file_path.clone(),
            });
        }
        kind => {
            return Err(ToolError::NotRegular {
                path: args.file_path.clone(),
                kind,
            });
        }
    }
    let request = Request {
        offset: args.offset.unwrap_or(1),
        limit: args.limit.unwrap_or(config.max_lines),
        char_offset: args.char_offset,
    };
    let mut cursor = Cursor::new(fs, &rel, config.chunk_bytes);
    let outcome = page::build(config, &mut cursor, request)
        .map_err(|err| ToolError::from_fs(&args.file_path, err))?;
    let decoder = cursor.decoder();
    let mut meta = ReadMeta {
        path: rel.clone(),
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
        encoding: decoder.encoding().unwrap_or(Encoding::Utf8),
        bom: decoder.had_bom(),
        line_ending: LineEnding::of(cursor.endings),
        lossy: decoder.lossy(),
        estimated_tokens: 0,
    };
    let mut text = render(config, outcome, &mut meta);
    if meta.encoding != Encoding::Utf8 {
        push_notice(&mut text, &Notice::Decoded(meta.encoding.name()));
    }
    if meta.lossy {
        push_notice(&mut text, &Notice::Lossy);
    }
    meta.estimated_tokens = config.estimate_tokens(text.len() as u64);
    let metadata = serde_json::to_value(&meta).unwrap_or_default();
    Ok(ToolResult::from_text(text, metadata))
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

fn render(config: &Config, outcome: Outcome, meta: &mut ReadMeta) -> String {
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
            cut,
            total,
            next,
            budget_hit,
        } => {
            text = lines;
            meta.first_line = Some(first);
            meta.last_line = Some(last);
            meta.lines_shown = last + 1 - first;
            meta.lines_cut = cut;
            set_total(meta, total);
            set_next(meta, next);
            meta.truncated |= cut > 0;
            push_notice(
                &mut text,
                &Notice::Page {
                    first,
                    last,
                    total,
                    next,
                    budget_tokens: budget_hit.then_some(config.max_output_tokens),
                },
            );
            if cut > 0 {
                push_notice(
                    &mut text,
                    &Notice::LinesCut {
                        count: cut,
                        max_chars: config.max_line_chars,
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
