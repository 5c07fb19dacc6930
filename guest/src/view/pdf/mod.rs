//! PDF documents (SPEC R14): the text of each page, page by page. A `pages`
//! range (`"3-7"`) picks pages; past [`MAX_PAGES_WITHOUT_RANGE`] pages it is
//! required, and at most [`MAX_PAGES_PER_CALL`] pages are shown per call,
//! the answer naming the next range. A page with no text layer (a scan)
//! says so instead of coming back blank, and a page that cannot be read
//! says why while the others are shown. The text is paged by lines like any
//! text, so a dense page never floods the context.
//!
//! A hostile PDF costs a clear answer, never the session: its raw bytes are
//! checked first ([`scan`]: nesting, objects, how far streams inflate),
//! parsing and extraction are fallible throughout, and the
//! pages of one call are extracted within [`MAX_EXTRACT_TIME`]. A parsed
//! document and the text of its pages are kept for the session's next call
//! on the same file version, so reading a 4,000-page PDF
//! range by range parses it once.

pub(crate) mod extract;
pub mod scan;

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::time::{Duration, Instant};

use lopdf::{Document, ObjectId};
use serde_json::{Value, json};

use crate::answers::error::ToolError;
use crate::answers::notice::Size;
use crate::answers::result::ToolResult;
use crate::config::Config;
use crate::fs::host::{HostFs, Metadata};
use crate::memory::fingerprint::Fingerprint;
use crate::memory::ledger::Observation;
use crate::view::image::read_all;
use crate::view::read;
use crate::view::read::args::ReadArgs;

/// Pages read without a `pages` range.
pub const MAX_PAGES_WITHOUT_RANGE: u64 = 10;
/// Pages shown by one call.
pub const MAX_PAGES_PER_CALL: u64 = 20;
/// Bytes of a PDF that is parsed at all.
pub const MAX_PDF_BYTES: u64 = 64 * 1024 * 1024;
/// Time the pages of one call may take to extract; the pages left are
/// named for the next call.
pub const MAX_EXTRACT_TIME: Duration = Duration::from_secs(10);

/// A parsed PDF and the text of its pages extracted so far, kept for the
/// session's later calls on the same file version.
#[derive(Default)]
pub(crate) struct PdfCache {
    /// `(path, size, fingerprint)` of the file this holds.
    key: Option<(String, u64, u64)>,
    /// The document and its pages, or why it could not be parsed.
    parsed: Option<Result<Parsed, String>>,
    /// The text (or the failure) of each page extracted, by page number.
    texts: BTreeMap<u64, PageText>,
}

impl fmt::Debug for PdfCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PdfCache")
            .field("key", &self.key)
            .field("pages_extracted", &self.texts.len())
            .finish_non_exhaustive()
    }
}

/// The text of one page, or why it cannot be read.
type PageText = Result<String, String>;

/// A parsed document and its pages in order.
struct Parsed {
    doc: Document,
    pages: Vec<ObjectId>,
}

impl PdfCache {
    /// The parsed form of `data` (the file `rel`), from the cache when it
    /// holds this version.
    fn parsed(&mut self, rel: &str, data: &[u8]) -> Result<&Parsed, String> {
        let key = (rel.to_owned(), data.len() as u64, Fingerprint::of(data));
        if self.key.as_ref() != Some(&key) {
            *self = Self {
                key: Some(key),
                parsed: Some(parse(data)),
                texts: BTreeMap::new(),
            };
        }
        match &self.parsed {
            Some(Ok(parsed)) => Ok(parsed),
            Some(Err(reason)) => Err(reason.clone()),
            None => Err("it was not parsed".to_owned()),
        }
    }
}

/// `data` checked, then parsed.
fn parse(data: &[u8]) -> Result<Parsed, String> {
    scan::check(data).map_err(|refused| refused.to_string())?;
    let doc = Document::load_mem(data).map_err(|e| format!("it cannot be parsed ({e})"))?;
    let pages = doc.get_pages().into_values().collect();
    Ok(Parsed { doc, pages })
}

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
    cache: &mut PdfCache,
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
    let total = match cache.parsed(rel, &data) {
        Ok(parsed) => parsed.pages.len() as u64,
        Err(reason) => {
            let text = format!(
                "[PDF, {}; its text cannot be shown: {reason}; it may be encrypted or damaged]",
                Size(meta.size)
            );
            return Ok((fact(config, text, rel, &json!({})), seen));
        }
    };
    drop(data);
    let path = &args.file_path;
    let (first, last) = match args.page_range() {
        Some((first, _)) if first > total => {
            let text = format!(
                "[the PDF has {total} page{}; page {first} is past the end]",
                if total == 1 { "" } else { "s" }
            );
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
    let asked_last = last.min(first + MAX_PAGES_PER_CALL - 1);
    let (pages, shown_last) = extract_pages(cache, first, asked_last);
    let text = render(&pages, total, first, shown_last, last);
    let mut result = read::page_rendering(config, args, &text, rel, "pdf", meta.size)?;
    result.metadata["pages"] = Value::from(total);
    result.metadata["pages_shown"] = json!([first, shown_last]);
    Ok((result, seen))
}

/// The text of pages `first..=last`, from the cache or extracted now,
/// stopping when [`MAX_EXTRACT_TIME`] has passed (at least one page is
/// always extracted); the last page returned.
fn extract_pages(cache: &mut PdfCache, first: u64, last: u64) -> (Vec<(u64, PageText)>, u64) {
    let started = Instant::now();
    let mut pages = Vec::new();
    let Some(Ok(parsed)) = &cache.parsed else {
        return (pages, first.saturating_sub(1));
    };
    for number in first..=last {
        if number > first && started.elapsed() > MAX_EXTRACT_TIME {
            break;
        }
        let text = cache.texts.entry(number).or_insert_with(|| {
            let id = parsed.pages[usize::try_from(number - 1).unwrap_or(usize::MAX)];
            extract::page_text(&parsed.doc, id)
        });
        pages.push((number, text.clone()));
    }
    let shown_last = pages.last().map_or(first.saturating_sub(1), |(n, _)| *n);
    (pages, shown_last)
}

/// The answer's text for `pages` (of `total`), asked up to `asked_last`.
fn render(
    pages: &[(u64, PageText)],
    total: u64,
    first: u64,
    shown_last: u64,
    asked_last: u64,
) -> String {
    let noun = if total == 1 { "page" } else { "pages" };
    let mut text = format!("[PDF: {total} {noun}; pages {first}-{shown_last}");
    if shown_last < asked_last {
        let _ = write!(text, " of the {first}-{asked_last} asked");
        if shown_last + 1 - first < MAX_PAGES_PER_CALL {
            let _ = write!(
                text,
                " (extracting more took over {} s)",
                MAX_EXTRACT_TIME.as_secs()
            );
        } else {
            let _ = write!(text, " (at most {MAX_PAGES_PER_CALL} per call)");
        }
    }
    text.push_str("]\n");
    let mut empty = 0;
    for (number, page) in pages {
        let _ = writeln!(text, "--- page {number} ---");
        match page {
            Ok(page) => {
                let page = page.replace('\r', "");
                let page = page.trim_matches(|c: char| c == '\n' || c == ' ');
                if page.trim().is_empty() {
                    empty += 1;
                    text.push_str("[no text layer on this page: it is probably a scanned image]\n");
                } else {
                    text.push_str(page);
                    text.push('\n');
                }
            }
            Err(reason) => {
                let _ = writeln!(text, "[this page cannot be read: {reason}]");
            }
        }
    }
    if !pages.is_empty() && empty == pages.len() {
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
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    /// A PDF whose pages have these content streams, in Helvetica.
    fn pdf(contents: &[&str]) -> Vec<u8> {
        let count = contents.len();
        let font = 3 + 2 * count;
        let kids: Vec<String> = (0..count).map(|i| format!("{} 0 R", 3 + 2 * i)).collect();
        let mut objects = vec![
            "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
            format!(
                "<< /Type /Pages /Kids [{}] /Count {count} >>",
                kids.join(" ")
            ),
        ];
        for (i, content) in contents.iter().enumerate() {
            objects.push(format!(
                "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 {font} 0 R >> >> /Contents {} 0 R >>",
                4 + 2 * i
            ));
            objects.push(format!(
                "<< /Length {} >>\nstream\n{content}\nendstream",
                content.len() + 1
            ));
        }
        objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned());
        let mut out = String::from("%PDF-1.4\n");
        let mut offsets = Vec::new();
        for (n, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            let _ = write!(out, "{} 0 obj\n{body}\nendobj\n", n + 1);
        }
        let xref = out.len();
        let _ = write!(out, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
        for offset in offsets {
            let _ = writeln!(out, "{offset:010} 00000 n ");
        }
        let _ = write!(
            out,
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        );
        out.into_bytes()
    }

    fn read(session: &mut Session<MemFs>, pages: &str) -> String {
        session
            .call(
                "read",
                &json!({"file_path": "d.pdf", "pages": pages}).to_string(),
            )
            .text()
    }

    #[test]
    fn a_page_that_cannot_be_read_says_why_and_the_others_are_shown() {
        let deep = format!(
            "BT /F1 12 Tf {}(x){} TJ ET",
            "[".repeat(100),
            "]".repeat(100)
        );
        let fs = MemFs::new();
        fs.add_file(
            "d.pdf",
            &pdf(&[
                "BT /F1 12 Tf 72 720 Td (First page) Tj ET",
                &deep,
                "BT /F1 12 Tf 72 720 Td [(Third) -300 (page)] TJ 0 -16 Td (next line) Tj ET",
            ]),
        );
        let mut session = Session::open("{}", fs).unwrap();
        let text = read(&mut session, "1-3");
        assert!(text.contains("First page"), "{text}");
        assert!(
            text.contains("[this page cannot be read: its content nests 100 levels deep]"),
            "{text}"
        );
        assert!(
            text.contains("Third page\n") && text.contains("next line"),
            "{text}"
        );
    }

    #[test]
    fn later_ranges_of_the_same_version_reuse_the_parse() {
        let contents: Vec<String> = (1..=30)
            .map(|n| format!("BT /F1 12 Tf 72 720 Td (Page {n}) Tj ET"))
            .collect();
        let refs: Vec<&str> = contents.iter().map(String::as_str).collect();
        let fs = MemFs::new();
        fs.add_file("d.pdf", &pdf(&refs));
        let mut session = Session::open("{}", fs).unwrap();
        assert!(read(&mut session, "1-2").contains("Page 2"));
        assert_eq!(session.pdf.texts.len(), 2);
        assert!(read(&mut session, "29-30").contains("Page 30"));
        assert_eq!(session.pdf.texts.len(), 4, "the same document, more pages");
        // Another version is parsed afresh.
        session
            .fs()
            .add_file("d.pdf", &pdf(&["BT /F1 12 Tf (Only) Tj ET"]));
        assert!(read(&mut session, "1").contains("Only"));
        assert_eq!(session.pdf.texts.len(), 1);
    }
}
