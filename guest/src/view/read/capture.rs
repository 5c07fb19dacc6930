//! [`LineCapture`]: keeps a bounded window of one line while counting all of
//! it. The window starts `skip` characters in (for `char_offset` reads) and
//! holds at most `keep_chars` characters and `keep_bytes` bytes, so a 1 GiB
//! line costs no more memory than a short one. Once the window is full, at
//! most `scan_cap` more bytes are counted; the capture itself decides where
//! that stops, so the result never depends on chunk boundaries. A trailing
//! `\r` (CRLF) is dropped from the view and from the count (SPEC R11).

/// A bounded view of one line.
#[derive(Debug)]
pub(crate) struct LineCapture {
    skip: u64,
    keep_chars: u64,
    keep_bytes: usize,
    scan_cap: u64,
    /// The kept text, after `base` bytes that belong to earlier lines.
    text: String,
    base: usize,
    /// Characters skipped before the window.
    skipped: u64,
    /// Kept characters counted so far, up to byte `counted_to` of `text`.
    /// Counting is lazy: a line shorter in bytes than the character cap
    /// can never reach it, so most lines are never counted at all.
    kept_counted: u64,
    counted_to: usize,
    /// Characters counted after the window filled.
    after: u64,
    /// Bytes counted after the window filled.
    scanned_after_full: u64,
    last_cr: bool,
}

/// What a capture kept, with the counts to describe it.
#[derive(Debug)]
pub(crate) struct Captured {
    text: String,
    base: usize,
    skipped: u64,
    after: u64,
}

impl Captured {
    /// The kept text.
    pub fn kept(&self) -> &str {
        &self.text[self.base..]
    }

    /// Whether characters beyond the kept text were counted.
    pub fn has_more(&self) -> bool {
        self.after > 0
    }

    /// Characters in the kept text.
    pub fn kept_chars(&self) -> u64 {
        count_chars(self.kept())
    }

    /// Characters in the whole line (as far as it was scanned).
    pub fn total_chars(&self) -> u64 {
        self.skipped + self.kept_chars() + self.after
    }

    /// The buffer given to [`LineCapture::new`], with the kept text appended.
    pub fn into_buffer(self) -> String {
        self.text
    }
}

impl LineCapture {
    /// A capture that appends its text to `buffer`, so a page's lines land
    /// back to back in one allocation without a further copy.
    pub fn new(
        skip: u64,
        keep_chars: u64,
        keep_bytes: usize,
        scan_cap: u64,
        buffer: String,
    ) -> Self {
        let base = buffer.len();
        Self {
            skip,
            keep_chars,
            keep_bytes,
            scan_cap,
            text: buffer,
            base,
            skipped: 0,
            kept_counted: 0,
            counted_to: base,
            after: 0,
            scanned_after_full: 0,
            last_cr: false,
        }
    }

    fn kept_bytes(&self) -> usize {
        self.text.len() - self.base
    }

    fn kept_chars(&mut self) -> u64 {
        self.kept_counted += count_chars(&self.text[self.counted_to..]);
        self.counted_to = self.text.len();
        self.kept_counted
    }

    fn is_full(&mut self) -> bool {
        self.kept_bytes() >= self.keep_bytes
            || (self.kept_bytes() as u64 >= self.keep_chars && self.kept_chars() >= self.keep_chars)
    }

    /// Whether the scan cap was reached: the line's end is unknown.
    pub fn is_exhausted(&mut self) -> bool {
        self.is_full() && self.scanned_after_full >= self.scan_cap
    }

    /// Takes in a piece of the line (no `\n`); returns how many of its bytes
    /// were taken — fewer than all only when the scan cap was reached.
    pub fn push(&mut self, piece: &str) -> usize {
        let mut rest = piece;
        if !self.is_full() {
            let taken = self.keep(rest);
            rest = &rest[taken..];
        }
        if !rest.is_empty() {
            let room = usize::try_from(self.scan_cap.saturating_sub(self.scanned_after_full))
                .unwrap_or(usize::MAX);
            let mut end = rest.len().min(room);
            while !rest.is_char_boundary(end) {
                end += 1;
            }
            self.after += count_chars(&rest[..end]);
            self.scanned_after_full += end as u64;
            rest = &rest[end..];
        }
        let taken = piece.len() - rest.len();
        if taken > 0 {
            self.last_cr = piece.as_bytes()[taken - 1] == b'\r';
        }
        taken
    }

    /// Skips and keeps characters of `piece` until the window is full;
    /// returns the bytes consumed.
    fn keep(&mut self, piece: &str) -> usize {
        // Wholly inside the skipped prefix (a char is at least one byte).
        if self.skipped + piece.len() as u64 <= self.skip {
            self.skipped += count_chars(piece);
            return piece.len();
        }
        // Fast path: skipping is done and the piece fits even if every byte
        // were a character, so nothing needs counting.
        let fits = self.kept_bytes() + piece.len();
        if self.skipped >= self.skip && fits <= self.keep_bytes && fits as u64 <= self.keep_chars {
            self.text.push_str(piece);
            return piece.len();
        }
        let mut kept = self.kept_chars();
        for (at, ch) in piece.char_indices() {
            if self.skipped < self.skip {
                self.skipped += 1;
                continue;
            }
            if kept >= self.keep_chars || self.kept_bytes() + ch.len_utf8() > self.keep_bytes {
                // Mark full even when the next char alone would overflow.
                self.keep_bytes = self.kept_bytes();
                self.kept_counted = kept;
                self.counted_to = self.text.len();
                return at;
            }
            self.text.push(ch);
            kept += 1;
        }
        self.kept_counted = kept;
        self.counted_to = self.text.len();
        piece.len()
    }

    /// What was kept, without a final `\r`.
    pub fn finish(mut self) -> Captured {
        if self.last_cr {
            if self.after > 0 {
                self.after -= 1;
            } else if self.kept_bytes() > 0 {
                self.text.pop();
            } else {
                self.skipped = self.skipped.saturating_sub(1);
            }
        }
        Captured {
            text: self.text,
            base: self.base,
            skipped: self.skipped,
            after: self.after,
        }
    }
}

/// Unicode scalar values in `text`, counted from its bytes.
pub(crate) fn count_chars(text: &str) -> u64 {
    if text.is_ascii() {
        return text.len() as u64;
    }
    // Every byte except UTF-8 continuation bytes (0b10xx_xxxx) starts a char.
    text.bytes().filter(|b| (b & 0xC0) != 0x80).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(pieces: &[&str], skip: u64, chars: u64, bytes: usize) -> (String, u64, u64) {
        let mut capture = LineCapture::new(skip, chars, bytes, u64::MAX, String::new());
        for piece in pieces {
            assert_eq!(capture.push(piece), piece.len());
        }
        let captured = capture.finish();
        (
            captured.kept().to_owned(),
            captured.kept_chars(),
            captured.total_chars(),
        )
    }

    #[test]
    fn keeps_a_window_and_counts_everything() {
        assert_eq!(
            capture(&["héllo", " world"], 2, 4, 100),
            ("llo ".into(), 4, 11)
        );
        assert_eq!(capture(&["ab", "cd"], 0, 100, 3), ("abc".into(), 3, 4));
        assert_eq!(capture(&["aé"], 0, 100, 2), ("a".into(), 1, 2));
    }

    #[test]
    fn a_final_carriage_return_is_dropped() {
        assert_eq!(capture(&["ab\r"], 0, 10, 10), ("ab".into(), 2, 2));
        assert_eq!(capture(&["ab", "\r"], 0, 10, 10), ("ab".into(), 2, 2));
        assert_eq!(capture(&["abcd\r"], 0, 2, 10), ("ab".into(), 2, 4));
        assert_eq!(capture(&["a\rb"], 0, 10, 10), ("a\rb".into(), 3, 3));
    }

    #[test]
    fn the_scan_cap_stops_at_the_same_byte_whatever_the_pieces() {
        let line = "abcdefghij".repeat(10);
        for step in 1..12 {
            let mut capture = LineCapture::new(0, 5, 100, 20, String::new());
            let mut taken = 0;
            for piece in line.as_bytes().chunks(step) {
                let piece = std::str::from_utf8(piece).unwrap();
                let n = capture.push(piece);
                taken += n;
                if n < piece.len() {
                    break;
                }
            }
            assert!(capture.is_exhausted());
            assert_eq!(
                (taken, capture.finish().total_chars()),
                (25, 25),
                "step {step}"
            );
        }
    }

    #[test]
    fn counts_chars_not_bytes() {
        assert_eq!(count_chars("a€😀"), 3);
    }
}
