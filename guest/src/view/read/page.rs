//! Builds what one `read` of a text file shows (SPEC R1–R4, R6, R10): either a
//! page of whole lines under three caps (lines, characters per line, output
//! budget), or — with `char_offset` — a window into one long line sized by the
//! budget. The scan skips to the first line, collects the page, then keeps
//! counting lines (up to `count_limit_bytes`) so the footer can give the total.

use crate::answers::notice::{CutMarker, Next, Total};
use crate::config::Config;
use crate::fs::host::{FsError, HostFs};
use crate::view::read::capture::{Captured, LineCapture, count_chars};
use crate::view::read::cursor::{Cursor, LineEnd};
use crate::view::read::cut::cut_point;
use crate::view::read::gutter::{self, Gutter};

/// Characters kept beyond a cut so the grapheme check sees what follows.
const LOOKAHEAD_CHARS: u64 = 64;
/// Bytes kept beyond a cut for the same reason.
const LOOKAHEAD_BYTES: usize = 256;
/// Output bytes set aside for the footer notices.
pub(crate) const NOTICE_RESERVE_BYTES: u64 = 512;
/// Output bytes set aside for a cut marker on a line.
const MARKER_ROOM_BYTES: u64 = 96;

/// What a read shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    Empty,
    PastEnd {
        total: u64,
        offset: u64,
    },
    Page {
        /// The shown lines, rendered with their gutters, each ending in `\n`.
        text: String,
        first: u64,
        last: u64,
        /// Characters shown of a line the budget cut below the per-line cap.
        budget_cut_at: Option<u64>,
        /// Lines cut at the per-line cap.
        cut: u64,
        total: Total,
        next: Next,
        budget_hit: bool,
    },
    Window {
        line: u64,
        text: String,
        from: u64,
        to: u64,
        total: Total,
        next: Next,
    },
    CharPastEnd {
        line: u64,
        chars: u64,
        char_offset: u64,
        next: Next,
    },
}

/// What to read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Request {
    pub offset: u64,
    pub limit: u64,
    pub char_offset: Option<u64>,
    /// Whether the page's lines are numbered.
    pub gutter: Gutter,
}

pub(crate) fn build<F: HostFs + ?Sized>(
    config: &Config,
    cursor: &mut Cursor<'_, F>,
    request: Request,
) -> Result<Outcome, FsError> {
    let skipped = cursor.skip_lines(request.offset - 1)?;
    if skipped < request.offset - 1 || !cursor.refill()? {
        let total = cursor.lines_begun();
        return Ok(if total == 0 {
            Outcome::Empty
        } else {
            Outcome::PastEnd {
                total,
                offset: request.offset,
            }
        });
    }
    let budget = config.budget_bytes().saturating_sub(NOTICE_RESERVE_BYTES);
    match request.char_offset {
        Some(char_offset) => window(config, cursor, request.offset, char_offset, budget),
        None => page(config, cursor, request, budget),
    }
}

fn page<F: HostFs + ?Sized>(
    config: &Config,
    cursor: &mut Cursor<'_, F>,
    request: Request,
    budget: u64,
) -> Result<Outcome, FsError> {
    let page_start = cursor.consumed;
    let mut text = String::with_capacity(usize::try_from(budget.min(1 << 20)).unwrap_or(0));
    let mut shown: u64 = 0;
    // Budget spent as the page will finally look, with its real gutter width.
    let mut used: u64 = 0;
    let mut cut: u64 = 0;
    let mut budget_cut_at = None;
    let mut budget_hit = false;
    let mut unfinished = false;
    let next = loop {
        let number = request.offset + shown;
        if !cursor.refill()? {
            break Next::EndOfFile;
        }
        if shown == request.limit {
            break Next::Offset(number);
        }
        let gutter_width = request.gutter.width(number);
        let keep_bytes = line_room(budget, gutter_width);
        let room = (shown > 0).then(|| budget.saturating_sub(used));
        let max_bytes =
            keep_bytes.min(usize::try_from(config.max_line_chars).unwrap_or(usize::MAX));
        let line = (request.gutter, number, gutter_width);
        match plain_line(cursor, &mut text, line, max_bytes, room) {
            Plain::Shown(cost) => {
                used += cost;
                shown += 1;
                continue;
            }
            Plain::NoRoom => {
                budget_hit = true;
                break Next::Offset(number);
            }
            Plain::NeedsCapture => {}
        }
        let line_start = text.len();
        request.gutter.push(&mut text, number);
        let text_start = text.len();
        let scan_left = config
            .count_limit_bytes
            .saturating_sub(cursor.consumed - page_start);
        let mut capture = LineCapture::new(
            0,
            config.max_line_chars + LOOKAHEAD_CHARS,
            keep_bytes.saturating_add(LOOKAHEAD_BYTES),
            scan_left,
            std::mem::take(&mut text),
        );
        let end = cursor.read_line(&mut capture)?;
        let captured = capture.finish();
        let line = captured.kept();
        let shown_end = cut_point(line, config.max_line_chars, keep_bytes);
        let scanned = cursor.consumed - page_start;
        let marker = cut_marker(&captured, shown_end, end, number, scanned);
        let budget_cut = (marker.is_some()
            && shown_end < cut_point(line, config.max_line_chars, usize::MAX))
        .then(|| count_chars(&line[..shown_end]));
        text = captured.into_buffer();
        let cost =
            gutter_width + shown_end as u64 + marker.as_ref().map_or(0, |m| m.len() as u64) + 1;
        if shown > 0 && used + cost > budget {
            text.truncate(line_start);
            budget_hit = true;
            break Next::Offset(number);
        }
        used += cost;
        // Cut shorter than the per-line cap alone would cut it: the budget did.
        if let Some(chars) = budget_cut {
            budget_cut_at = Some(chars);
        }
        text.truncate(text_start + shown_end);
        if let Some(marker) = marker {
            text.push_str(&marker);
            cut += 1;
        }
        text.push('\n');
        shown += 1;
        if end == LineEnd::Unfinished {
            // The line runs past the scan cap: its end, and the total, are unknown.
            unfinished = true;
            break Next::Offset(number + 1);
        }
    };
    let last = request.offset + shown - 1;
    let total = if unfinished {
        Total::AtLeast {
            counted: cursor.lines_begun(),
            scanned: cursor.consumed,
        }
    } else {
        count_total(config, cursor, page_start, next)?
    };
    Ok(Outcome::Page {
        text,
        first: request.offset,
        last,
        budget_cut_at,
        cut,
        total,
        next,
        budget_hit,
    })
}

/// Bytes of a line with a gutter of `gutter_width` bytes that a page keeps
/// when the line is shown alone: a line that does not fit beside the others
/// ends the page instead of being cut (R6); only a page's first line is cut.
fn line_room(budget: u64, gutter_width: u64) -> usize {
    let room = budget
        .saturating_sub(gutter_width + 1 + MARKER_ROOM_BYTES)
        .max(16);
    usize::try_from(room).unwrap_or(usize::MAX)
}

/// What [`plain_line`] did.
enum Plain {
    /// The line was shown, at this cost in output bytes.
    Shown(u64),
    /// The line does not fit in the room left.
    NoRoom,
    /// The line needs the bounded capture.
    NeedsCapture,
}

/// Shows line `number`, behind `gutter` (`width` bytes of it), as it is
/// when it lies whole in the text at hand and is at most `max_bytes` long:
/// its bytes bound its characters, so no cap can cut it and nothing needs
/// counting. `room` is what the budget has left beside the lines shown,
/// `None` for a page's first line.
fn plain_line<F: HostFs + ?Sized>(
    cursor: &mut Cursor<'_, F>,
    text: &mut String,
    (gutter, number, width): (Gutter, u64, u64),
    max_bytes: usize,
    room: Option<u64>,
) -> Plain {
    let Some(line) = cursor.buffered_line(max_bytes) else {
        return Plain::NeedsCapture;
    };
    let view = line.strip_suffix('\r').unwrap_or(line);
    let cost = width + view.len() as u64 + 1;
    if room.is_some_and(|room| cost > room) {
        return Plain::NoRoom;
    }
    gutter.push(text, number);
    text.push_str(view);
    text.push('\n');
    let len = line.len();
    cursor.consume_line(len);
    Plain::Shown(cost)
}

/// The marker of a line shown only up to `shown_end`, or `None` when the
/// whole line is shown.
fn cut_marker(
    captured: &Captured,
    shown_end: usize,
    end: LineEnd,
    line: u64,
    scanned: u64,
) -> Option<String> {
    let kept = captured.kept();
    if end != LineEnd::Unfinished && shown_end == kept.len() && !captured.has_more() {
        return None;
    }
    let chars = captured.total_chars();
    let total = if end == LineEnd::Unfinished {
        Total::AtLeast {
            counted: chars,
            scanned,
        }
    } else {
        Total::Exact(chars)
    };
    let marker = CutMarker {
        line,
        shown: count_chars(&kept[..shown_end]),
        total,
    };
    Some(marker.to_string())
}

/// Counts the file's lines past the page, within the scan cap.
fn count_total<F: HostFs + ?Sized>(
    config: &Config,
    cursor: &mut Cursor<'_, F>,
    page_start: u64,
    next: Next,
) -> Result<Total, FsError> {
    if next == Next::EndOfFile {
        return Ok(Total::Exact(cursor.lines_begun()));
    }
    let cap = config
        .count_limit_bytes
        .saturating_sub(cursor.consumed - page_start);
    if cursor.count_rest(cap)? {
        Ok(Total::Exact(cursor.lines_begun()))
    } else {
        Ok(Total::AtLeast {
            counted: cursor.lines_begun(),
            scanned: cursor.consumed,
        })
    }
}

fn window<F: HostFs + ?Sized>(
    config: &Config,
    cursor: &mut Cursor<'_, F>,
    line: u64,
    char_offset: u64,
    budget: u64,
) -> Result<Outcome, FsError> {
    let room = budget.saturating_sub(gutter::width(line) + 1).max(16);
    let keep_bytes = usize::try_from(room).unwrap_or(usize::MAX);
    let mut capture = LineCapture::new(
        char_offset - 1,
        u64::MAX,
        keep_bytes.saturating_add(LOOKAHEAD_BYTES),
        config.count_limit_bytes,
        String::new(),
    );
    let end = cursor.read_line(&mut capture)?;
    let captured = capture.finish();
    let kept = captured.kept_chars();
    let chars = captured.total_chars();
    let more_lines = end == LineEnd::Newline && cursor.refill()?;
    let after_line = if more_lines {
        Next::Offset(line + 1)
    } else {
        Next::EndOfFile
    };
    if kept == 0 && end != LineEnd::Unfinished {
        return Ok(Outcome::CharPastEnd {
            line,
            chars,
            char_offset,
            next: after_line,
        });
    }
    let kept_text = captured.kept();
    let shown_end = cut_point(kept_text, u64::MAX, keep_bytes);
    let shown = if shown_end == kept_text.len() {
        kept
    } else {
        count_chars(&kept_text[..shown_end])
    };
    // The capture started on an empty buffer: it holds just this line's text.
    let mut text = captured.into_buffer();
    text.truncate(shown_end);
    let to = char_offset - 1 + shown;
    let (total, rest_of_line) = if end == LineEnd::Unfinished {
        (
            Total::AtLeast {
                counted: chars,
                scanned: cursor.consumed,
            },
            true,
        )
    } else {
        (Total::Exact(chars), to < chars)
    };
    let next = if rest_of_line {
        Next::CharOffset {
            offset: line,
            char_offset: to + 1,
        }
    } else {
        after_line
    };
    Ok(Outcome::Window {
        line,
        text,
        from: char_offset,
        to,
        total,
        next,
    })
}
