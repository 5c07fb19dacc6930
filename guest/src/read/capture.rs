//! [`LineCapture`]: keeps a bounded window of one line while counting all of
//! it. The window starts `skip` characters in (for `char_offset` reads) and
//! holds at most `keep_chars` characters and `keep_bytes` bytes, so a 1 GiB
//! line costs no more memory than a short one. A trailing `\r` (CRLF) is
//! dropped from the view and from the count (SPEC R11).

/// A bounded view of one line.
#[derive(Debug)]
pub(crate) struct LineCapture {
    skip: u64,
    keep_chars: u64,
    keep_bytes: usize,
    /// The kept text.
    pub text: String,
    kept_chars: u64,
    /// Characters of the line seen so far.
    pub chars: u64,
    last_cr: bool,
}

impl LineCapture {
    pub fn new(skip: u64, keep_chars: u64, keep_bytes: usize) -> Self {
        Self {
            skip,
            keep_chars,
            keep_bytes,
            text: String::new(),
            kept_chars: 0,
            chars: 0,
            last_cr: false,
        }
    }

    /// Whether the window is complete; later text is only counted.
    pub fn is_full(&self) -> bool {
        self.kept_chars >= self.keep_chars || self.text.len() >= self.keep_bytes
    }

    pub fn push(&mut self, piece: &str) {
        if piece.is_empty() {
            return;
        }
        self.last_cr = piece.ends_with('\r');
        let before = self.chars;
        if self.is_full() || before + (piece.len() as u64) <= self.skip {
            // Nothing of this piece can be kept: only count (a char is >= 1 byte).
            self.chars += count_chars(piece);
            return;
        }
        let mut seen = before;
        for (at, ch) in piece.char_indices() {
            if seen >= self.skip {
                if self.kept_chars >= self.keep_chars
                    || self.text.len() + ch.len_utf8() > self.keep_bytes
                {
                    self.chars = seen + count_chars(&piece[at..]);
                    return;
                }
                self.text.push(ch);
                self.kept_chars += 1;
            }
            seen += 1;
        }
        self.chars = seen;
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
    text.bytes().filter(|b| (*b as i8) >= -0x40).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(pieces: &[&str], skip: u64, chars: u64, bytes: usize) -> (String, u64, u64) {
        let mut capture = LineCapture::new(skip, chars, bytes);
        for piece in pieces {
            capture.push(piece);
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
    fn counts_chars_not_bytes() {
        assert_eq!(count_chars("a€😀"), 3);
    }
}
