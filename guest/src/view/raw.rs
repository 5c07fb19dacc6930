//! A file's text as it is, without line numbers: what the MCP filesystem
//! tools' `read_text_file` answers. The whole file, a run of its lines
//! (`offset`, `head`), its last (`tail`) lines, or — past the output
//! budget — as many whole lines as fit, with the exact `offset` that
//! continues (SPEC R2, R3). A file of any size can be read: the text is
//! streamed chunk by chunk through the same [`Cursor`] as `read`'s pages
//! (SPEC R10), so `head` reads only the start of the file and a read stops
//! at the budget; `tail` reads the file backwards from its end, chunk by
//! chunk, until it has the lines (or the budget is full). A single line
//! longer than the budget is shown cut, and says so. The lines shown count
//! as read, so a later write or edit of the file is allowed exactly as
//! after `read`.
//!
//! ```text
//! read_text_file {path: "app.log", head: 2}  →  "first\nsecond\n"
//! ```

use std::fmt;

use memchr::{memchr, memchr_iter, memrchr_iter};
use serde_json::json;

use crate::answers::error::ToolError;
use crate::answers::notice::{Size, Total};
use crate::answers::result::ToolResult;
use crate::config::Config;
use crate::fs::host::{FsError, HostFs, Metadata};
use crate::memory::ledger::Observation;
use crate::text::decode::Decoder;
use crate::text::encoding::Encoding;
use crate::text::textfile::{LineEnding, Style};
use crate::view::read::capture::LineCapture;
use crate::view::read::cursor::{Cursor, LineEnd};
use crate::view::read::first_fetch;
use crate::view::sniff::{Kind, SNIFF_BYTES, sniff};

/// Which lines to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// From the 1-based line `first` on, `count` lines or to the end.
    Lines {
        /// The first line shown.
        first: u64,
        /// How many, at most.
        count: Option<u64>,
    },
    /// The last N lines.
    Tail(u64),
}

/// What follows a text that is not all that was asked for, or not all as
/// it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// The budget stopped the lines after line `last`.
    Budget { first: u64, last: u64, total: Total },
    /// Line `line` alone is longer than the budget: its first `shown`
    /// bytes are shown.
    LongLine { line: u64, shown: u64 },
    /// Of the `asked` last lines only the last `shown` fit the budget.
    TailBudget { shown: u64, asked: u64 },
    /// The last line alone is longer than the budget: its last `shown`
    /// bytes are shown.
    LongLastLine { shown: u64 },
    /// Bytes invalid in the encoding (named) were shown as U+FFFD.
    Lossy(&'static str),
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Cut::Budget { first, last, total } => write!(
                f,
                "[lines {first}-{last} of {total} shown; the output budget is reached. Continue with offset={}.]",
                last + 1
            ),
            Cut::LongLine { line, shown } => write!(
                f,
                "[line {line} is longer than the output budget; only its first {} are shown. Continue with offset={}.]",
                Size(shown),
                line + 1
            ),
            Cut::TailBudget { shown, asked } => write!(
                f,
                "[only the last {shown} of the {asked} lines asked for fit the output budget]"
            ),
            Cut::LongLastLine { shown } => write!(
                f,
                "[the last line is longer than the output budget; only its last {} are shown]",
                Size(shown)
            ),
            Cut::Lossy(encoding) => write!(f, "[invalid {encoding} bytes are shown as U+FFFD]"),
        }
    }
}

/// The text a read shows, and what it knows of the file.
struct RawText {
    text: String,
    cut: Option<Cut>,
    /// The lines shown, when their numbers are known.
    lines: Option<(u64, u64)>,
    /// Lines in the file, when counted to the end.
    total: Option<u64>,
    fingerprint: Option<u64>,
    style: Style,
    lossy: bool,
}

/// Bytes of the budget kept for the notes after the lines: the longest
/// stop note with 20-digit numbers, and the lossy-decoding note.
const NOTE_ROOM: usize = 200;

/// `part` of the text file `rel`, within `budget` bytes; what was shown,
/// for the ledger.
pub(crate) fn read<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    rel: &str,
    path: &str,
    meta: Metadata,
    part: Part,
    budget: u64,
) -> Result<(ToolResult, Observation), ToolError> {
    let failed = |err: FsError| ToolError::from_fs(path, err);
    let asked = first_fetch(config);
    let head = fs.read(rel, 0, asked).map_err(failed)?;
    let why = match sniff(&head[..head.len().min(SNIFF_BYTES as usize)]) {
        Kind::Text => None,
        Kind::Image(mime) | Kind::Binary(mime) => Some(format!("binary, {mime}")),
        Kind::Pdf => Some("a PDF document".to_owned()),
    };
    if let Some(why) = why {
        return Err(ToolError::NotTextFile {
            path: path.to_owned(),
            why,
        });
    }
    // The closing notes (where the view stops, a lossy decode) come out of
    // the same budget as the lines.
    let budget = usize::try_from(budget)
        .unwrap_or(usize::MAX)
        .saturating_sub(NOTE_ROOM)
        .max(1);
    let whole = head.len() < asked as usize;
    let (decoder, _) = Decoder::for_file(&head, whole, None);
    let utf16 = head.starts_with(&[0xFF, 0xFE])
        || head.starts_with(&[0xFE, 0xFF])
        || matches!(
            decoder.encoding(),
            Some(Encoding::Utf16Le | Encoding::Utf16Be)
        );
    let shown = match part {
        Part::Lines { first, count } => {
            forward(config, fs, rel, meta, (head, decoder), first, count, budget)
        }
        Part::Tail(n) if !utf16 => {
            let encoding = decoder.encoding().unwrap_or(Encoding::Utf8);
            backward(config, fs, rel, meta.size, encoding, n, budget)
        }
        Part::Tail(n) => {
            // A UTF-16 line end is two bytes, so the file is not searched
            // backwards: its lines are counted, then the last ones read.
            let mut counter = Cursor::new(fs, rel, config.chunk_bytes).with_decoder(decoder);
            counter = counter.with_head(head, asked);
            counter.count_rest(u64::MAX).map_err(failed)?;
            let first = counter.lines_begun().saturating_sub(n) + 1;
            let head = fs.read(rel, 0, asked).map_err(failed)?;
            let (decoder, _) = Decoder::for_file(&head, whole, None);
            forward(
                config,
                fs,
                rel,
                meta,
                (head, decoder),
                first,
                Some(n),
                budget,
            )
        }
    }
    .map_err(failed)?;
    let mut text = shown.text;
    let lossy = shown.lossy.then(|| Cut::Lossy(shown.style.encoding.name()));
    for note in shown.cut.into_iter().chain(lossy) {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&note.to_string());
    }
    let observation = Observation {
        size: meta.size,
        mtime_ns: meta.mtime_ns,
        fingerprint: shown.fingerprint,
        lines: shown.lines,
        total: shown.total,
        style: shown.style,
        content: true,
        text: None,
    };
    Ok((ToolResult::from_text(text, json!({})), observation))
}

/// `count` lines (or all) from line `first` on, streamed through a
/// [`Cursor`] that starts from the `head` already fetched; stops at the
/// budget.
#[expect(
    clippy::too_many_arguments,
    reason = "the read's file, its start and its bounds"
)]
fn forward<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    rel: &str,
    meta: Metadata,
    (head, decoder): (Vec<u8>, Decoder),
    first: u64,
    count: Option<u64>,
    budget: usize,
) -> Result<RawText, FsError> {
    let mut cursor = Cursor::new(fs, rel, config.chunk_bytes).with_decoder(decoder);
    // As for `read`: only a file an edit could load is fingerprinted.
    if meta.size <= config.max_edit_bytes {
        cursor = cursor.with_fingerprint();
    }
    cursor = cursor.with_head(head, first_fetch(config));
    let start = cursor.skip_lines(first.max(1) - 1)?;
    let mut text = String::new();
    let mut shown = 0;
    let mut at_end = false;
    let mut cut = None;
    while count.is_none_or(|n| shown < n) {
        if !cursor.refill()? {
            at_end = true;
            break;
        }
        let before = text.len();
        let room = budget.saturating_sub(before);
        let mut capture = LineCapture::new(0, u64::MAX, room, 0, std::mem::take(&mut text));
        let end = cursor.read_line(&mut capture)?;
        let captured = capture.finish();
        let kept = captured.kept().len();
        text = captured.into_buffer();
        let newline = end == LineEnd::Newline;
        let fits = before + kept + usize::from(newline) <= budget;
        if end != LineEnd::Unfinished && (shown == 0 || fits) {
            if newline {
                text.push('\n');
            }
            shown += 1;
            continue;
        }
        if shown == 0 {
            shown = 1;
            cut = Some(Cut::LongLine {
                line: start + 1,
                shown: kept as u64,
            });
        } else {
            // The line is consumed, but not shown: the next read starts at it.
            text.truncate(before);
            let total = if cursor.count_rest(config.count_limit_bytes)? {
                Total::Exact(cursor.lines_begun())
            } else {
                Total::AtLeast {
                    counted: cursor.lines_begun(),
                    scanned: cursor.consumed,
                }
            };
            cut = Some(Cut::Budget {
                first: start + 1,
                last: start + shown,
                total,
            });
        }
        break;
    }
    let decoder = cursor.decoder();
    let style = Style {
        encoding: decoder.encoding().unwrap_or(Encoding::Utf8),
        bom: decoder.had_bom(),
        line_ending: LineEnding::of_counts(cursor.endings.lf, cursor.endings.crlf),
        crlf_dominant: cursor.endings.crlf > cursor.endings.lf,
    };
    let total = match cut {
        Some(Cut::Budget {
            total: Total::Exact(total),
            ..
        }) => Some(total),
        _ if at_end => Some(cursor.lines_begun()),
        _ => None,
    };
    Ok(RawText {
        text,
        cut,
        lines: (shown > 0).then(|| (start + 1, start + shown)),
        total,
        fingerprint: cursor.fingerprint(),
        style,
        lossy: cursor.decoder().lossy(),
    })
}

/// The last `n` lines of a file of `size` bytes in an encoding whose line
/// end is the byte `\n`: chunks are fetched from the end backwards until
/// `n` line ends are seen, the start of the file is reached, or the budget
/// is full; only those bytes are decoded.
fn backward<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    rel: &str,
    size: u64,
    encoding: Encoding,
    n: u64,
    budget: usize,
) -> Result<RawText, FsError> {
    let chunk = config.chunk_bytes.max(1);
    let nth = usize::try_from(n.max(1) - 1).unwrap_or(usize::MAX);
    let mut pos = size;
    let mut bytes: Vec<u8> = Vec::new();
    let mut start = None;
    loop {
        if pos == 0 {
            start = Some(0);
            break;
        }
        let len = u64::from(chunk).min(pos);
        pos -= len;
        let mut piece = fs.read(rel, pos, u32::try_from(len).unwrap_or(chunk))?;
        piece.extend_from_slice(&bytes);
        bytes = piece;
        // A final `\n` ends the last line; it does not start another.
        let body = bytes.len() - usize::from(bytes.last() == Some(&b'\n'));
        if let Some(at) = memrchr_iter(b'\n', &bytes[..body]).nth(nth) {
            start = Some(at + 1);
            break;
        }
        if bytes.len() > budget {
            break;
        }
    }
    let body = bytes.len() - usize::from(bytes.last() == Some(&b'\n'));
    let mut from = start.unwrap_or(bytes.len());
    let mut cut = None;
    if start.is_none() || bytes.len() - from > budget {
        // The lines that fit: those that start at or after `least`.
        let least = bytes.len() - budget.min(bytes.len());
        let least = least.max(start.unwrap_or(0)).max(1);
        if let Some(at) = memchr(b'\n', &bytes[least - 1..body]) {
            from = least + at;
            let shown = lines_in(&bytes[from..]);
            cut = Some(Cut::TailBudget { shown, asked: n });
        } else {
            from = least;
            // Not inside a UTF-8 sequence.
            while from < bytes.len() && bytes[from] & 0xC0 == 0x80 {
                from += 1;
            }
            cut = Some(Cut::LongLastLine {
                shown: (bytes.len() - from) as u64,
            });
        }
    }
    let tail = &bytes[from..];
    let mut decoder = Decoder::with_encoding(encoding);
    let mut text = String::new();
    decoder.feed(tail, &mut text);
    decoder.finish(&mut text);
    let text = text.replace("\r\n", "\n");
    let newlines = memchr_iter(b'\n', tail).count() as u64;
    let crlf = memchr::memmem::find_iter(tail, b"\r\n").count() as u64;
    let shown_lines = lines_in(tail);
    // With the whole file at hand, the lines shown have their numbers.
    let (lines, total) = if pos == 0 && cut.is_none() {
        let total = lines_in(&bytes);
        let lines = (shown_lines > 0).then(|| (total - shown_lines + 1, total));
        (lines, Some(total))
    } else {
        (None, None)
    };
    Ok(RawText {
        text,
        cut,
        lines,
        total,
        fingerprint: None,
        style: Style {
            encoding: decoder.encoding().unwrap_or(encoding),
            bom: decoder.had_bom(),
            line_ending: LineEnding::of_counts(newlines - crlf, crlf),
            crlf_dominant: crlf > newlines - crlf,
        },
        lossy: decoder.lossy(),
    })
}

/// Lines in `bytes`: every `\n` ends one, and a last line without one
/// counts.
fn lines_in(bytes: &[u8]) -> u64 {
    let newlines = memchr_iter(b'\n', bytes).count() as u64;
    newlines + u64::from(bytes.last().is_some_and(|&b| b != b'\n'))
}

#[cfg(test)]
mod tests {
    use super::{Part, read};
    use crate::config::Config;
    use crate::fs::host::HostFs;
    use crate::fs::memory::MemFs;
    use crate::view::read::testutil::CHUNK_SIZES;

    /// `lines` numbered lines, `line N` each, ending in `end`.
    fn log(lines: u64, end: &str) -> Vec<u8> {
        (1..=lines)
            .flat_map(|n| format!("line {n}{end}").into_bytes())
            .collect()
    }

    /// `part` of `data` as `read_text_file` shows it, and the bytes fetched.
    fn show(data: &[u8], part: Part, config: &Config) -> (String, u64) {
        let fs = MemFs::new();
        fs.add_file("f.log", data);
        let meta = fs.stat("f.log").unwrap();
        let before = fs.bytes_read();
        let (result, _) = read(
            config,
            &fs,
            "f.log",
            "f.log",
            meta,
            part,
            config.budget_bytes(),
        )
        .unwrap_or_else(|err| panic!("{err}"));
        (result.text(), fs.bytes_read() - before)
    }

    /// The same at every chunk size.
    fn show_all_chunks(data: &[u8], part: Part, config: &Config) -> String {
        let mut first: Option<String> = None;
        for chunk in CHUNK_SIZES {
            let config = Config {
                chunk_bytes: chunk,
                ..config.clone()
            };
            let (text, _) = show(data, part, &config);
            match &first {
                None => first = Some(text),
                Some(expected) => assert_eq!(&text, expected, "chunk size {chunk} differs"),
            }
        }
        first.unwrap()
    }

    const HEAD: Part = Part::Lines {
        first: 1,
        count: Some(5),
    };

    #[test]
    fn head_of_a_file_past_the_edit_limit_reads_only_its_start() {
        let config = Config::default();
        let data = log(2_000_000, "\n");
        assert!(data.len() as u64 > config.max_edit_bytes);
        let (text, fetched) = show(&data, HEAD, &config);
        assert_eq!(text, "line 1\nline 2\nline 3\nline 4\nline 5\n");
        assert!(fetched <= 2 * 64 * 1024, "fetched {fetched} bytes");
    }

    #[test]
    fn tail_reads_backwards_from_the_end() {
        let config = Config::default();
        let data = log(2_000_000, "\n");
        let (text, fetched) = show(&data, Part::Tail(3), &config);
        assert_eq!(text, "line 1999998\nline 1999999\nline 2000000\n");
        assert!(fetched <= 2 * 64 * 1024, "fetched {fetched} bytes");
    }

    #[test]
    fn a_whole_read_of_a_huge_file_stops_at_the_budget_with_the_offset() {
        let config = Config::default();
        let data = log(2_000_000, "\n");
        let whole = Part::Lines {
            first: 1,
            count: None,
        };
        let (text, _) = show(&data, whole, &config);
        assert!(text.len() as u64 <= config.budget_bytes() + 200);
        let notice = text.lines().last().unwrap();
        assert!(notice.starts_with("[lines 1-"), "{notice}");
        assert!(notice.contains("the output budget is reached"), "{notice}");
        let next: u64 = notice
            .rsplit("offset=")
            .next()
            .unwrap()
            .trim_end_matches(".]")
            .parse()
            .unwrap();
        assert_eq!(
            text.lines().nth_back(1).unwrap(),
            format!("line {}", next - 1)
        );
        let (rest, _) = show(
            &data,
            Part::Lines {
                first: next,
                count: Some(1),
            },
            &config,
        );
        assert_eq!(rest, format!("line {next}\n"));
    }

    #[test]
    fn small_reads_are_the_same_at_every_chunk_size() {
        let config = Config::default();
        for data in [
            log(30, "\n"),
            log(30, "\r\n"),
            b"a\nb\nno end".to_vec(),
            Vec::new(),
        ] {
            let all = show_all_chunks(
                &data,
                Part::Lines {
                    first: 1,
                    count: None,
                },
                &config,
            );
            let expected = String::from_utf8(data.clone())
                .unwrap()
                .replace("\r\n", "\n");
            assert_eq!(all, expected);
            let tail = show_all_chunks(&data, Part::Tail(2), &config);
            let lines: Vec<&str> = expected.split_inclusive('\n').collect();
            assert_eq!(tail, lines[lines.len().saturating_sub(2)..].concat());
            let middle = show_all_chunks(
                &data,
                Part::Lines {
                    first: 3,
                    count: Some(2),
                },
                &config,
            );
            assert_eq!(
                middle,
                lines.iter().skip(2).take(2).copied().collect::<String>()
            );
        }
    }

    #[test]
    fn tail_past_the_budget_shows_the_last_lines_that_fit() {
        // 40 bytes for the lines, after the room kept for the notes.
        let config = Config {
            max_output_tokens: 60,
            bytes_per_token: 4,
            ..Config::default()
        };
        let text = show_all_chunks(&log(100, "\n"), Part::Tail(50), &config);
        assert_eq!(
            text,
            "line 97\nline 98\nline 99\nline 100\n[only the last 4 of the 50 lines asked for fit the output budget]"
        );
        let long = format!("short\n{}\n", "x".repeat(100));
        let text = show_all_chunks(long.as_bytes(), Part::Tail(1), &config);
        assert_eq!(
            text,
            format!(
                "{}\n[the last line is longer than the output budget; only its last 40 bytes are shown]",
                "x".repeat(39)
            )
        );
    }

    #[test]
    fn a_first_line_past_the_budget_is_cut_and_says_where_to_go_on() {
        // 40 bytes for the lines, after the room kept for the notes.
        let config = Config {
            max_output_tokens: 60,
            bytes_per_token: 4,
            ..Config::default()
        };
        let data = format!("{}\nnext\n", "y".repeat(1000));
        let text = show_all_chunks(
            data.as_bytes(),
            Part::Lines {
                first: 1,
                count: None,
            },
            &config,
        );
        assert_eq!(
            text,
            format!(
                "{}\n[line 1 is longer than the output budget; only its first 40 bytes are shown. Continue with offset=2.]",
                "y".repeat(40)
            )
        );
    }

    #[test]
    fn utf16_tails_are_counted_forwards() {
        let config = Config::default();
        let mut data = vec![0xFF, 0xFE];
        data.extend("a\nb\nc\n".encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(show_all_chunks(&data, Part::Tail(2), &config), "b\nc\n");
    }

    #[test]
    fn binary_files_are_refused() {
        let fs = MemFs::new();
        fs.add_file("f.bin", b"\x00\x01\x02\x03binary\x00");
        let meta = fs.stat("f.bin").unwrap();
        let config = Config::default();
        let err = read(&config, &fs, "f.bin", "f.bin", meta, Part::Tail(1), 1000).unwrap_err();
        assert!(err.to_string().contains("is not text"), "{err}");
    }
}
