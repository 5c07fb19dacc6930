//! One file searched: its bytes streamed through the host a chunk at a
//! time and decoded as `read` decodes them (a legacy encoding detected, a
//! BOM honoured), its lines matched, and the lines to show handed on in
//! order with their context (SPEC G4). Memory stays bounded whatever the
//! file's size: only the current chunk, the context kept for the next
//! match, and — for a file small enough to edit — its hash are held.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use crate::config::Config;
use crate::fs::host::{FsError, HostFs};
use crate::memory::fingerprint::Fingerprint;
use crate::text::decode::Decoder;
use crate::text::encoding::Encoding;
use crate::text::textfile::{LineEnding, Style};
use crate::view::read::first_fetch;
use crate::view::search::matcher::{Hit, Matcher};
use crate::view::sniff::{Kind, sniff};

/// Bytes of one line held at most before what was read of it is searched
/// as it stands, the rest of the line following as more of the same line:
/// a file with no newline is still searched in bounded memory.
pub const MAX_HELD_LINE_BYTES: usize = 8 << 20;

/// What a scan is after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// The lines to show: each match with `before` and `after` lines of
    /// context.
    Lines {
        /// Context lines before a match.
        before: u64,
        /// Context lines after a match.
        after: u64,
    },
    /// The number of matching lines.
    Count,
    /// Whether any line matches.
    Any,
}

/// A line to show, or a break between lines that do not follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event<'a> {
    /// Line `number` (its text without the line ending); `matched` is the
    /// first match in it, as byte offsets into `text`, and `chars_before`
    /// the characters of the same line before `text` (a line longer than
    /// [`MAX_HELD_LINE_BYTES`] comes in parts).
    Line {
        /// 1-based line number.
        number: u64,
        /// The text.
        text: &'a str,
        /// The first match in it, for a matching line.
        matched: Option<(usize, usize)>,
        /// Characters of the line before `text`.
        chars_before: u64,
    },
    /// The lines shown next do not follow the last ones.
    Gap,
}

/// What a scan found.
#[derive(Debug, Clone, Default)]
pub struct Scanned {
    /// The file is not text: nothing was searched.
    pub binary: bool,
    /// Matching lines (up to where the scan stopped).
    pub matches: u64,
    /// The receiver of the lines stopped the scan.
    pub stopped: bool,
    /// Fingerprint of the whole file, when it was small enough to edit and
    /// read to its end.
    pub fingerprint: Option<u64>,
    /// The whole content, when small enough to keep as the model's view.
    pub copy: Option<Vec<u8>>,
    /// Lines in the file, when read to its end and its lines were shown.
    pub total_lines: Option<u64>,
    /// Encoding, BOM and line endings.
    pub style: Style,
    /// Bytes that did not decode were replaced.
    pub lossy: bool,
    /// Bytes read (the file's size when read to its end).
    pub bytes: u64,
}

/// Line-keeping state of one scan.
struct Lines<'m> {
    want: Want,
    matcher: &'m Matcher,
    /// The number of the next line to pass.
    next: u64,
    /// Context lines still to show after the last match.
    after_left: u64,
    /// The last lines passed, kept as context for a match to come.
    carry: VecDeque<(u64, String)>,
    /// The last line shown.
    last_shown: u64,
    matches: u64,
    lf: u64,
    crlf: u64,
    /// The line held in parts, when one is.
    held_line: Option<u64>,
    /// Characters of the held line already searched.
    chars_before: u64,
    /// The receiver stopped.
    stopped: bool,
}

/// Searches the file `rel` of `size` bytes for `matcher`, handing what
/// `want` asks for to `on` until it breaks. Multiline patterns see the
/// whole file at once; a file over `config.max_edit_bytes` is then not
/// searched (`Ok(None)`).
pub fn scan<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    (rel, size): (&str, u64),
    (matcher, multiline): (&Matcher, bool),
    want: Want,
    on: &mut dyn FnMut(Event<'_>) -> ControlFlow<()>,
) -> Result<Option<Scanned>, FsError> {
    let fetch = first_fetch(config);
    let head = fs.read(rel, 0, fetch)?;
    if sniff(&head) != Kind::Text {
        return Ok(Some(Scanned {
            binary: true,
            ..Scanned::default()
        }));
    }
    if multiline && size > config.max_edit_bytes {
        return Ok(None);
    }
    let viewed = matches!(want, Want::Lines { .. });
    let whole = head.len() < fetch as usize;
    let (mut decoder, _) = Decoder::for_file(&head, whole, None);
    let mut fingerprint = (viewed && size <= config.max_edit_bytes).then(Fingerprint::new);
    let mut copy = (viewed && size <= config.view_bytes.min(config.max_edit_bytes)).then(Vec::new);
    let mut lines = Lines {
        want,
        matcher,
        next: 1,
        after_left: 0,
        carry: VecDeque::new(),
        last_shown: 0,
        matches: 0,
        lf: 0,
        crlf: 0,
        held_line: None,
        chars_before: 0,
        stopped: false,
    };
    let mut text = String::new();
    let mut chunk = head;
    let mut asked = fetch as usize;
    let mut offset = 0u64;
    let mut reached_end = false;
    loop {
        let eof = chunk.len() < asked;
        reached_end |= eof;
        offset += chunk.len() as u64;
        if let Some(hash) = fingerprint.as_mut() {
            hash.update(&chunk);
        }
        if let Some(copy) = copy.as_mut() {
            copy.extend_from_slice(&chunk);
        }
        if !lines.stopped {
            decoder.feed_owned(chunk, &mut text);
            if eof {
                decoder.finish(&mut text);
            }
            if !multiline || eof {
                let end = if eof || multiline {
                    text.len()
                } else {
                    memchr::memrchr(b'\n', text.as_bytes()).map_or(0, |i| i + 1)
                };
                if end > 0 {
                    lines.region(&text[..end], eof, multiline, on);
                    text.drain(..end);
                } else if text.len() > MAX_HELD_LINE_BYTES {
                    lines.held(&text, on);
                    text.clear();
                }
            }
        }
        let done = eof || (lines.stopped && fingerprint.is_none());
        if done {
            break;
        }
        asked = config.chunk_bytes as usize;
        chunk = fs.read(rel, offset, config.chunk_bytes)?;
    }
    let complete = reached_end;
    Ok(Some(Scanned {
        binary: false,
        matches: lines.matches,
        stopped: lines.stopped,
        fingerprint: fingerprint.filter(|_| complete).map(Fingerprint::finish),
        copy: copy.filter(|_| complete),
        total_lines: (viewed && !lines.stopped).then(|| lines.next - 1),
        style: Style {
            encoding: decoder.encoding().unwrap_or(Encoding::Utf8),
            bom: decoder.had_bom(),
            line_ending: LineEnding::of_counts(lines.lf, lines.crlf),
            crlf_dominant: lines.crlf > lines.lf,
        },
        lossy: decoder.lossy(),
        bytes: offset,
    }))
}

/// The `\n` bytes of `bytes`: a plain loop the compiler turns into SIMD,
/// faster than stepping from one to the next.
#[expect(
    clippy::naive_bytecount,
    reason = "the loop vectorises with simd128; a crate for it would add nothing"
)]
fn newlines(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64
}

/// `line` without its `\r`.
fn bare(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

impl Lines<'_> {
    fn viewing(&self) -> Option<(u64, u64)> {
        match self.want {
            Want::Lines { before, after } => Some((before, after)),
            _ => None,
        }
    }

    /// Hands `event` on; remembers a stop.
    fn pass(&mut self, event: Event<'_>, on: &mut dyn FnMut(Event<'_>) -> ControlFlow<()>) {
        if !self.stopped && on(event).is_break() {
            self.stopped = true;
        }
    }

    /// Searches `text`: whole lines, the last one ending the file when
    /// `eof`. A `multiline` search gets the whole file.
    fn region(
        &mut self,
        text: &str,
        eof: bool,
        multiline: bool,
        on: &mut dyn FnMut(Event<'_>) -> ControlFlow<()>,
    ) {
        let spans = if multiline {
            spanned_lines(self.matcher, text)
        } else {
            Vec::new()
        };
        let mut spans = spans.into_iter();
        let mut pos = 0;
        while pos < text.len() && !self.stopped {
            let hit = if multiline {
                spans.next()
            } else {
                self.matcher.next_line(text, pos)
            };
            let upto = hit.map_or(text.len(), |h| h.line_start);
            self.plain(&text[pos..upto], eof && hit.is_none(), on);
            let Some(hit) = hit else { break };
            self.hit(text, hit, on);
            if matches!(self.want, Want::Any) {
                self.stopped = true;
            }
            if hit.line_end >= text.len() {
                break;
            }
            pos = hit.line_end + 1;
        }
        self.held_line = None;
        self.chars_before = 0;
    }

    /// Lines of `segment` that do not match: counted, shown as the context
    /// after a match, kept as the context before one. `ends` when the
    /// segment ends the file (a last line without `\n` counts).
    fn plain(
        &mut self,
        segment: &str,
        ends: bool,
        on: &mut dyn FnMut(Event<'_>) -> ControlFlow<()>,
    ) {
        // Counting and numbering lines is for what is shown: a count or a
        // list of files needs only the matching lines.
        let Some((before, _)) = self.viewing() else {
            return;
        };
        if segment.is_empty() {
            return;
        }
        let bytes = segment.as_bytes();
        let newlines = newlines(bytes);
        let unterminated = ends && !segment.ends_with('\n');
        let count = newlines + u64::from(unterminated);
        let crlf = memchr::memmem::find_iter(bytes, b"\r\n").count() as u64;
        self.crlf += crlf;
        self.lf += newlines - crlf;
        let mut rest = segment;
        let mut number = self.next;
        while self.after_left > 0 && !rest.is_empty() && !self.stopped {
            let (line, tail) = rest.split_once('\n').unwrap_or((rest, ""));
            self.gap_before(number, on);
            self.pass(
                Event::Line {
                    number,
                    text: bare(line),
                    matched: None,
                    chars_before: 0,
                },
                on,
            );
            self.last_shown = number;
            self.after_left -= 1;
            number += 1;
            rest = tail;
        }
        self.next += count;
        if before > 0 && !rest.is_empty() {
            let last = self.next - 1;
            let kept = last_lines(rest, before);
            let first = last + 1 - kept.len() as u64;
            for (i, line) in kept.into_iter().enumerate() {
                self.carry
                    .push_back((first + i as u64, bare(line).to_owned()));
            }
            while self.carry.len() as u64 > before {
                self.carry.pop_front();
            }
        }
    }

    /// A `Gap` before line `number` when it does not follow the last line
    /// shown.
    fn gap_before(&mut self, number: u64, on: &mut dyn FnMut(Event<'_>) -> ControlFlow<()>) {
        if self.last_shown > 0 && number > self.last_shown + 1 {
            self.pass(Event::Gap, on);
        }
    }

    /// The matching line `hit` of `text`.
    fn hit(&mut self, text: &str, hit: Hit, on: &mut dyn FnMut(Event<'_>) -> ControlFlow<()>) {
        self.matches += 1;
        let number = self.next;
        let raw = &text[hit.line_start..hit.line_end];
        self.next += 1;
        if hit.line_end < text.len() && self.viewing().is_some() {
            if raw.ends_with('\r') {
                self.crlf += 1;
            } else {
                self.lf += 1;
            }
        }
        let Some((_, after)) = self.viewing() else {
            return;
        };
        let carry: Vec<(u64, String)> = self.carry.drain(..).collect();
        for (n, line) in carry {
            if n > self.last_shown && n < number {
                self.gap_before(n, on);
                self.pass(
                    Event::Line {
                        number: n,
                        text: &line,
                        matched: None,
                        chars_before: 0,
                    },
                    on,
                );
                self.last_shown = n;
            }
        }
        self.gap_before(number, on);
        let line = bare(raw);
        let first = (
            (hit.first.0 - hit.line_start).min(line.len()),
            (hit.first.1 - hit.line_start).min(line.len()),
        );
        self.pass(
            Event::Line {
                number,
                text: line,
                matched: Some(first),
                chars_before: if self.held_line == Some(number) {
                    self.chars_before
                } else {
                    0
                },
            },
            on,
        );
        self.last_shown = number;
        self.after_left = after;
    }

    /// Part of a line too long to hold: searched as it stands, the line's
    /// number kept for what follows of it.
    fn held(&mut self, text: &str, on: &mut dyn FnMut(Event<'_>) -> ControlFlow<()>) {
        let number = self.next;
        if let Some(found) = self.matcher.next_line(text, 0) {
            let already = self.last_shown == number;
            if !already {
                self.matches += 1;
                if let Some((_, after)) = self.viewing() {
                    self.gap_before(number, on);
                    self.pass(
                        Event::Line {
                            number,
                            text,
                            matched: Some(found.first),
                            chars_before: self.chars_before,
                        },
                        on,
                    );
                    self.last_shown = number;
                    self.after_left = after;
                } else if matches!(self.want, Want::Any) {
                    self.stopped = true;
                }
            }
        }
        self.held_line = Some(number);
        self.chars_before += text.chars().count() as u64;
    }
}

/// The last `count` lines of `segment` (which ends with `\n` unless it
/// ends the file), first to last.
fn last_lines(segment: &str, count: u64) -> Vec<&str> {
    let body = segment.strip_suffix('\n').unwrap_or(segment);
    let mut lines: Vec<&str> = body.rsplit('\n').take(count as usize).collect();
    lines.reverse();
    lines
}

/// Every line a multiline match touches, in order, each once, with the
/// part of the first match in it.
fn spanned_lines(matcher: &Matcher, text: &str) -> Vec<Hit> {
    let bytes = text.as_bytes();
    let mut hits: Vec<Hit> = Vec::new();
    for (start, end) in matcher.all(text) {
        let mut line_start = memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |i| i + 1);
        loop {
            let line_end =
                memchr::memchr(b'\n', &bytes[line_start..]).map_or(text.len(), |i| line_start + i);
            if hits.last().is_none_or(|h| h.line_start < line_start) {
                hits.push(Hit {
                    line_start,
                    line_end,
                    first: (
                        start.max(line_start),
                        end.min(line_end).max(start.max(line_start)),
                    ),
                });
            }
            if end <= line_end + 1 || line_end >= text.len() {
                break;
            }
            line_start = line_end + 1;
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use crate::fs::memory::MemFs;

    /// What a scan of `text` for `pattern` shows, as `N:line`, `N-line`
    /// and `--` for a gap.
    fn shown(text: &[u8], pattern: &str, want: Want, multiline: bool) -> (Vec<String>, Scanned) {
        let fs = MemFs::new();
        fs.add_file("f", text);
        let config = Config {
            chunk_bytes: 16,
            ..Config::default()
        };
        let matcher = Matcher::new(pattern, false, multiline).unwrap();
        let mut out = Vec::new();
        let scanned = scan(
            &config,
            &fs,
            ("f", text.len() as u64),
            (&matcher, multiline),
            want,
            &mut |event| {
                out.push(match event {
                    Event::Line {
                        number,
                        text,
                        matched: Some(_),
                        ..
                    } => format!("{number}:{text}"),
                    Event::Line { number, text, .. } => format!("{number}-{text}"),
                    Event::Gap => "--".to_owned(),
                });
                ControlFlow::Continue(())
            },
        )
        .unwrap()
        .unwrap();
        (out, scanned)
    }

    fn numbered(n: u64) -> Vec<u8> {
        let mut text = String::new();
        for i in 1..=n {
            let _ = writeln!(text, "line {i}");
        }
        text.into_bytes()
    }

    #[test]
    fn context_lines_surround_each_match_across_chunks() {
        let (out, scanned) = shown(
            &numbered(20),
            "line (5|7|15)$",
            Want::Lines {
                before: 1,
                after: 1,
            },
            false,
        );
        assert_eq!(
            out,
            [
                "4-line 4",
                "5:line 5",
                "6-line 6",
                "7:line 7",
                "8-line 8",
                "--",
                "14-line 14",
                "15:line 15",
                "16-line 16"
            ]
        );
        assert_eq!(scanned.matches, 3);
        assert_eq!(scanned.total_lines, Some(20));
        assert!(scanned.fingerprint.is_some());
    }

    #[test]
    fn counts_match_lines_not_matches() {
        let (_, scanned) = shown(b"a a\nb\na\nlast a", "a", Want::Count, false);
        assert_eq!(scanned.matches, 3);
        assert_eq!(scanned.fingerprint, None);
    }

    #[test]
    fn crlf_lines_are_shown_without_their_cr() {
        let (out, scanned) = shown(
            b"one\r\ntwo\r\n",
            "o$",
            Want::Lines {
                before: 0,
                after: 0,
            },
            false,
        );
        assert_eq!(out, ["2:two"]);
        assert_eq!(scanned.style.line_ending, LineEnding::Crlf);
    }

    #[test]
    fn a_multiline_match_shows_every_line_it_spans() {
        let (out, _) = shown(
            b"fn a() {\n  x\n}\nfn b() {}\n",
            r"fn a\(\) \{.*?\}",
            Want::Lines {
                before: 0,
                after: 0,
            },
            true,
        );
        assert_eq!(out, ["1:fn a() {", "2:  x", "3:}"]);
    }

    #[test]
    fn binary_files_are_not_searched() {
        let (out, scanned) = shown(b"a\x00b a", "a", Want::Count, false);
        assert!(out.is_empty() && scanned.binary);
    }

    #[test]
    fn a_legacy_encoding_is_searched_decoded() {
        let (text, _, _) = encoding_rs::WINDOWS_1252.encode("café au lait\nthé\n");
        let (out, scanned) = shown(
            &text,
            "thé",
            Want::Lines {
                before: 0,
                after: 0,
            },
            false,
        );
        assert_eq!(out, ["2:thé"]);
        assert_eq!(scanned.style.encoding.name(), "windows-1252");
    }
}
