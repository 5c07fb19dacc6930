//! PDF documents (SPEC R14): the text of each page, page by page. A `pages`
//! range (`"3-7"`) picks pages; past [`MAX_PAGES_WITHOUT_RANGE`] pages it is
//! required, and at most [`MAX_PAGES_PER_CALL`] pages are shown per call,
//! the answer naming the next range. A page with no text layer (a scan)
//! says so instead of coming back blank. The text is paged by lines like
//! any text, so a dense page never floods the context.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::args::ReadArgs;
use crate::config::Config;
use crate::error::ToolError;
use crate::fs::{HostFs, Metadata};
use crate::image::read_all;
use crate::notice::Size;
use crate::read::{self, Observation};
use crate::result::ToolResult;

/// Pages read without a `pages` range.
pub const MAX_PAGES_WITHOUT_RANGE: u64 = 10;
/// Pages shown by one call.
pub const MAX_PAGES_PER_CALL: u64 = 20;
/// Bytes of a PDF that is parsed at all.
pub const MAX_PDF_BYTES: u64 = 64 * 1024 * 1024;

/// A one-sentence answer about the PDF `rel`; `extra` adds metadata.
fn fact(config: &Config, text: String, rel: &str, extra: &Value) -> ToolResult {
    let mut metadata = json!({ "kind": "pdf", "path": rel });
    if let (Some(map), Value::Object(more)) = (metadata.as_object_mut(), extra) {
        map.extend(more.clone());
    }
    read::fact(config, text, metadata)
}

/// Reads the PDF `rel` for `read`.
pub(crate) fn read<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    rel: &str,
    meta: Metadata,
) -> Result<(ToolResult, Observation), ToolError> {
    let seen = Observation::whole(meta);
    if meta.size > MAX_PDF_BYTES {
        let text = format!(
            "[PDF, {}; over the {} that is parsed, so its text is not shown]",
            Size(meta.size),
            Size(MAX_PDF_BYTES)
        );
        return Ok((fact(config, text, rel, &json!({})), seen));
    }
    let data = read_all(fs, rel, &args.file_path, config.chunk_bytes)?;
    let pages = match pdf_extract::extract_text_from_mem_by_pages(&data) {
        Ok(pages) => pages,
        Err(err) => {
            let text = format!(
                "[PDF, {}; its text cannot be extracted ({err}); it may be encrypted or damaged]",
                Size(meta.size)
            );
            return Ok((fact(config, text, rel, &json!({})), seen));
        }
    };
    let total = pages.len() as u64;
    let path = &args.file_path;
    let (first, last) = match args.page_range() {
        Some((first, _)) if first > total => {
            let text = format!("[the PDF has {total} pages; page {first} is past the end]");
            return Ok((fact(config, text, rel, &json!({"pages": total})), seen));
        }
        Some((first, last)) => (first, last.min(total)),
        None if total > MAX_PAGES_WITHOUT_RANGE => {
            let text = format!(
                "[PDF: {total} pages, {}; too many to read at once: give pages, e.g. pages=\"1-{}\" (at most {MAX_PAGES_PER_CALL} per call)]",
                Size(meta.size),
                MAX_PAGES_PER_CALL.min(total)
            );
            let next = json!({"tool": "read", "args": {"file_path": path, "pages": format!("1-{}", MAX_PAGES_PER_CALL.min(total))}});
            return Ok((
                fact(
                    config,
                    text,
                    rel,
                    &json!({"pages": total, "next_call": next}),
                ),
                seen,
            ));
        }
        None => (1, total),
    };
    let shown_last = last.min(first + MAX_PAGES_PER_CALL - 1);
    let mut text = format!("[PDF: {total} pages; pages {first}-{shown_last}");
    if shown_last < last {
        let _ = write!(
            text,
            " of the {first}-{last} asked (at most {MAX_PAGES_PER_CALL} per call)"
        );
    }
    text.push_str("]\n");
    let mut empty = 0;
    for number in first..=shown_last {
        let page = pages[usize::try_from(number - 1).unwrap_or(usize::MAX)].replace('\r', "");
        let page = page.trim_matches(|c: char| c == '\n' || c == ' ');
        let _ = writeln!(text, "--- page {number} ---");
        if page.trim().is_empty() {
            empty += 1;
            text.push_str("[no text layer on this page: it is probably a scanned image]\n");
        } else {
            text.push_str(page);
            text.push('\n');
        }
    }
    if empty == shown_last + 1 - first {
        text.push_str("[none of these pages has a text layer; the PDF is probably scanned, so its text cannot be shown]\n");
    }
    if shown_last < total {
        let next_last = (shown_last + MAX_PAGES_PER_CALL).min(total);
        let _ = writeln!(
            text,
            "[more pages: continue with pages=\"{}-{next_last}\"]",
            shown_last + 1
        );
    }
    let mut result = read::page_rendering(config, args, &text, rel, "pdf", meta.size)?;
    result.metadata["pages"] = Value::from(total);
    result.metadata["pages_shown"] = json!([first, shown_last]);
    Ok((result, seen))
}
