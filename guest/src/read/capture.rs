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
    /// The kept text.
    pub text: String,
    kept_chars: u64,
    /// Characters of the line seen so far.
    pub chars: u64,
    /// Bytes counted after the window filled.
    scanned_after_full: u64,
    last_cr: bool,
}

impl LineCapture {
    pub fn new(skip: u64, keep_chars: u64, keep_bytes: usize, scan_cap: u64) -> Self {
        Self {
            skip,
            keep_chars,
            keep_bytes,
            scan_cap,
            text: String::new(),
            kept_chars: 0,
            chars: 0,
            scanned_after_full: 0,
            last_cr: false,
        }
    }

    fn is_full(&self) -> bool {
        self.kept_chars >= self.keep_chars || self.text.len() >= self.keep_bytes
    }

    /// Whether the scan cap was reached: the line's end is unknown.
    pub fn is_exhausted(&self) -> bool {
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
            self.chars += count_chars(&rest[..end]);
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
        if self.chars + piece.len() as u64 <= self.skip {
            self.chars += count_chars(piece);
            return piece.len();
        }
        for (at, ch) in piece.char_indices() {
            if self.chars >= self.skip {
                if self.is_full() || self.text.len() + ch.len_utf8() > self.keep_bytes {
                    // Mark full even when the next char alone would overflow.
                    self.keep_bytes = self.text.len();
                    return at;
                }
                self.text.push(ch);
                self.kept_chars += 1;
            }
            self.chars += 1;
        }
        piece.len()
    }

    /// The line as kept: `(text, kept_chars, total_chars)` without a final
    /// `\r`.
    pub fn finish(mut self) -> (String, u64, u64) {
        if self.last_cr && self.chars > 0 {
            if self.skip + self.kept_chars == self.chars && self.text.ends_with('\r') {
                self.text.pop();
                self.kept_chars -= 1;
            }
            self.chars -= 1;
        }
        (self.text, self.kept_chars, self.chars)
    }
}

/// Unicode scalar values in `text`, counted from its bytes.
pub(crate) fn count_chars(text: &str) -> u64 {
    // Every byte except UTF-8 continuation bytes (0b10xx_xxxx) starts a char.
    text.bytes().filter(|b| (b & 0xC0) != 0x80).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(pieces: &[&str], skip: u64, chars: u64, bytes: usize) -> (String, u64, u64) {
        let mut capture = LineCapture::new(skip, chars, bytes, u64::MAX);
        for piece in pieces {
            assert_eq!(capture.push(piece), piece.len());
        }
        capture.finish()
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
            let mut capture = LineCapture::new(0, 5, 100, 20);
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
            assert_eq!((taken, capture.finish().2), (25, 25), "step {step}");
        }
    }

    #[test]
    fn counts_chars_not_bytes() {
        assert_eq!(count_chars("a€😀"), 3);
    }
}
