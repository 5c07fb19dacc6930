//! [`Cursor`]: decoded text of one file, fetched chunk by chunk from the host
//! (SPEC R10). Memory is one chunk whatever the file size (plus the few KiB
//! read to sniff the file, which are reused rather than fetched again). Whether more text
//! follows is only ever answered by fetching it: a full chunk ending exactly
//! at a line boundary says nothing about what comes next, so nothing is
//! concluded until the next chunk (or the end of the file) is seen.
//!
//! Lines that are only skipped or counted are never decoded: once the text is
//! known to be UTF-8, the bytes are fetched [`SCAN_CHUNKS`] chunks at a time
//! and their `\n` counted as they come (a `\n` byte is never inside a longer
//! UTF-8 sequence). A deep page or a line count then costs what reading the
//! bytes costs.

use memchr::memchr;

use crate::fs::host::{FsError, HostFs};
use crate::memory::fingerprint::Fingerprint;
use crate::text::decode::Decoder;
use crate::view::read::capture::LineCapture;

/// Chunks asked of the host at a time for text that is skipped or counted,
/// not shown: with the default chunk, 1 MiB.
pub(crate) const SCAN_CHUNKS: u32 = 16;

/// How a line scan ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineEnd {
    /// At a `\n` (consumed).
    Newline,
    /// At the end of the file, without a final `\n`.
    Eof,
    /// The scan cap was reached inside the line.
    Unfinished,
}

/// Line-ending styles seen while scanning (SPEC R11, W3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Endings {
    pub lf: u64,
    pub crlf: u64,
}

/// A forward-only reader of decoded text.
#[derive(Debug)]
pub(crate) struct Cursor<'a, F: HostFs + ?Sized> {
    fs: &'a F,
    path: &'a str,
    chunk: u32,
    file_pos: u64,
    file_done: bool,
    decoder: Decoder,
    buf: String,
    at: usize,
    /// Text bytes consumed so far.
    pub consumed: u64,
    /// `\n` consumed so far.
    pub newlines: u64,
    /// The last consumed byte (`\n` before any, as at a line start).
    last_byte: u8,
    /// Line endings consumed so far, by style.
    pub endings: Endings,
    /// Hash of the bytes fetched so far (SPEC W2), when asked for.
    fingerprint: Option<Fingerprint>,
    /// The start of the file, fetched before the cursor was made.
    head: Option<Head>,
    /// A copy of the bytes fetched so far, when asked for.
    copy: Option<Vec<u8>>,
}

/// Bytes from the top of a file that were fetched already.
#[derive(Debug)]
struct Head {
    /// The bytes not handed over whole.
    bytes: Vec<u8>,
    /// How many of `bytes` were served.
    at: usize,
    /// Whether the file ends where `bytes` do.
    whole_file: bool,
}

impl Head {
    /// The next piece of at most `chunk` bytes and whether the file ends
    /// after it; `None` once the host must be asked for more.
    fn next(&mut self, chunk: usize) -> Option<(Vec<u8>, bool)> {
        let len = self.bytes.len();
        if self.at == len && !self.whole_file {
            return None;
        }
        let end = len.min(self.at + chunk);
        let piece = if self.at == 0 && end == len {
            // All of it in one piece: handed over, not copied.
            std::mem::take(&mut self.bytes)
        } else {
            let piece = self.bytes[self.at..end].to_vec();
            self.at = end;
            piece
        };
        // A full piece says nothing about what follows, as a full chunk from
        // the host does not: the end is only concluded from a short one.
        let last = self.whole_file && piece.len() < chunk;
        Some((piece, last))
    }
}

impl<'a, F: HostFs + ?Sized> Cursor<'a, F> {
    pub fn new(fs: &'a F, path: &'a str, chunk: u32) -> Self {
        Self {
            fs,
            path,
            chunk,
            file_pos: 0,
            file_done: false,
            decoder: Decoder::new(),
            buf: String::new(),
            at: 0,
            consumed: 0,
            newlines: 0,
            last_byte: b'\n',
            endings: Endings::default(),
            fingerprint: None,
            head: None,
            copy: None,
        }
    }

    /// Decodes with `decoder` (one made for the file's encoding).
    pub fn with_decoder(mut self, decoder: Decoder) -> Self {
        self.decoder = decoder;
        self
    }

    /// Hashes the bytes as they are fetched, for [`Cursor::fingerprint`].
    pub fn with_fingerprint(mut self) -> Self {
        self.fingerprint = Some(Fingerprint::new());
        self
    }

    /// Keeps a copy of the bytes as they are fetched, for
    /// [`Cursor::take_copy`].
    pub fn with_copy(mut self) -> Self {
        self.copy = Some(Vec::new());
        self
    }

    /// The bytes fetched, when a copy was asked for and the whole file was
    /// fetched.
    pub fn take_copy(&mut self) -> Option<Vec<u8>> {
        self.copy.take().filter(|_| self.file_done)
    }

    /// Fetches the rest of the file undecoded, hashing (and copying) it,
    /// so that [`Cursor::fingerprint`] covers the whole file; nothing when
    /// no hash was asked for. The decoded text stops where it was.
    pub fn finish_hash(&mut self) -> Result<(), FsError> {
        while self.fingerprint.is_some() && !self.file_done {
            let (bytes, last) = self.fetch(self.chunk)?;
            self.file_pos += bytes.len() as u64;
            self.hashed(&bytes);
            self.file_done = last;
        }
        Ok(())
    }

    /// Feeds fetched `bytes` to the hash and the copy.
    fn hashed(&mut self, bytes: &[u8]) {
        if let Some(hash) = self.fingerprint.as_mut() {
            hash.update(bytes);
        }
        if let Some(copy) = self.copy.as_mut() {
            copy.extend_from_slice(bytes);
        }
    }

    /// Starts from `head`, the file's first bytes, already fetched by asking
    /// for `asked` (to sniff the file): they are served chunk by chunk as if
    /// read again, and the host is asked only for what follows them.
    pub fn with_head(mut self, head: Vec<u8>, asked: u32) -> Self {
        let whole_file = head.len() < asked as usize;
        self.head = Some(Head {
            bytes: head,
            at: 0,
            whole_file,
        });
        self
    }

    /// The fingerprint of the whole file, once every byte was fetched (and
    /// hashing was asked for).
    pub fn fingerprint(&self) -> Option<u64> {
        self.fingerprint
            .as_ref()
            .filter(|_| self.file_done)
            .map(|hash| hash.clone().finish())
    }

    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Lines begun so far: every `\n` ends one, and a partial last line counts.
    pub fn lines_begun(&self) -> u64 {
        self.newlines + u64::from(self.last_byte != b'\n')
    }

    /// Makes unread text available; false only at the end of the file.
    pub fn refill(&mut self) -> Result<bool, FsError> {
        while self.at == self.buf.len() {
            if self.file_done {
                return Ok(false);
            }
            let (bytes, last) = self.fetch(self.chunk)?;
            self.take(bytes, last);
        }
        Ok(true)
    }

    /// The next bytes of the file, at most `size`, and whether the file ends
    /// after them.
    fn fetch(&mut self, size: u32) -> Result<(Vec<u8>, bool), FsError> {
        let wanted = size as usize;
        if let Some(piece) = self.head.as_mut().and_then(|h| h.next(wanted)) {
            return Ok(piece);
        }
        let bytes = self.fs.read(self.path, self.file_pos, size)?;
        // `host-fs` returns fewer bytes than asked only at the end of the
        // file, so a short chunk is the last one: no extra call to learn it.
        let last = bytes.len() < wanted;
        Ok((bytes, last))
    }

    /// Whether the next bytes may be scanned undecoded: the decoded text is
    /// all consumed and the decoder sits between UTF-8 sequences.
    fn raw_ahead(&self) -> bool {
        self.at == self.buf.len() && !self.file_done && self.decoder.at_utf8_boundary()
    }

    /// Fetches a big piece undecoded and consumes its line ends, at most
    /// `max`, within its first `byte_cap` bytes; the bytes after the last
    /// one consumed are decoded as usual. Returns how many line ends it
    /// consumed. Only when [`Cursor::raw_ahead`].
    fn scan_raw(&mut self, max: u64, byte_cap: u64) -> Result<u64, FsError> {
        let (mut bytes, last) = self.fetch(self.chunk.saturating_mul(SCAN_CHUNKS))?;
        let within = bytes
            .len()
            .min(usize::try_from(byte_cap).unwrap_or(usize::MAX));
        let (taken, found) = lines_within(&bytes[..within], max);
        let crlf = crlf_count(&bytes[..taken], self.last_byte);
        self.note_endings(found, crlf);
        self.file_pos += taken as u64;
        self.hashed(&bytes[..taken]);
        let rest = bytes.split_off(taken);
        self.advance_raw(&bytes);
        if !rest.is_empty() || last {
            self.take(rest, last);
        }
        Ok(found)
    }

    /// Counts `newlines` line ends, `crlf` of them `\r\n`.
    fn note_endings(&mut self, newlines: u64, crlf: u64) {
        self.endings.crlf += crlf;
        self.endings.lf += newlines - crlf;
        self.newlines += newlines;
    }

    /// Consumes `bytes`, which were never decoded.
    fn advance_raw(&mut self, bytes: &[u8]) {
        if let Some(&byte) = bytes.last() {
            self.last_byte = byte;
        }
        self.consumed += bytes.len() as u64;
    }

    /// Decodes `bytes`, the next ones of the file; `last` when the file ends
    /// after them.
    fn take(&mut self, bytes: Vec<u8>, last: bool) {
        self.buf.clear();
        self.at = 0;
        self.file_pos += bytes.len() as u64;
        self.hashed(&bytes);
        self.decoder.feed_owned(bytes, &mut self.buf);
        if last {
            self.file_done = true;
            self.decoder.finish(&mut self.buf);
        }
    }

    /// Records the line end at `at` in the unread text: CRLF when the byte
    /// before it (possibly already consumed) is `\r`.
    fn note_newline(&mut self, at: usize) {
        let before = if at == 0 {
            self.last_byte
        } else {
            self.buf.as_bytes()[self.at + at - 1]
        };
        if before == b'\r' {
            self.endings.crlf += 1;
        } else {
            self.endings.lf += 1;
        }
        self.newlines += 1;
    }

    /// Consumes line ends within the next `len` unread bytes, at most `max`
    /// of them; stops just after the `max`-th. Returns how many it consumed.
    fn consume_newlines(&mut self, len: usize, max: u64) -> u64 {
        let bytes = &self.buf.as_bytes()[self.at..self.at + len];
        let (taken, found) = lines_within(bytes, max);
        let crlf = crlf_count(&bytes[..taken], self.last_byte);
        self.note_endings(found, crlf);
        self.advance(taken);
        found
    }

    fn advance(&mut self, len: usize) {
        if len == 0 {
            return;
        }
        self.last_byte = self.buf.as_bytes()[self.at + len - 1];
        self.at += len;
        self.consumed += len as u64;
    }

    /// Consumes up to `count` line ends; returns how many were consumed
    /// (fewer only at the end of the file).
    pub fn skip_lines(&mut self, count: u64) -> Result<u64, FsError> {
        let mut skipped = 0;
        while skipped < count {
            if self.raw_ahead() {
                skipped += self.scan_raw(count - skipped, u64::MAX)?;
            } else if self.refill()? {
                let len = self.buf.len() - self.at;
                skipped += self.consume_newlines(len, count - skipped);
            } else {
                break;
            }
        }
        Ok(skipped)
    }

    /// Reads the rest of the current line into `capture`, until a `\n`, the
    /// end of the file, or the capture's scan cap (`Unfinished`).
    pub fn read_line(&mut self, capture: &mut LineCapture) -> Result<LineEnd, FsError> {
        loop {
            if !self.refill()? {
                return Ok(LineEnd::Eof);
            }
            let rest = &self.buf[self.at..];
            let (piece, newline) = match memchr(b'\n', rest.as_bytes()) {
                Some(at) => (&rest[..at], true),
                None => (rest, false),
            };
            let len = piece.len();
            let taken = capture.push(piece);
            self.advance(taken);
            if taken < len || (capture.is_exhausted() && !newline) {
                // Whether the line ends right here is still unknown.
                if !newline && self.refill()? && self.buf.as_bytes()[self.at] == b'\n' {
                    self.note_newline(0);
                    self.advance(1);
                    return Ok(LineEnd::Newline);
                }
                if taken < len || self.refill()? {
                    return Ok(LineEnd::Unfinished);
                }
                return Ok(LineEnd::Eof);
            }
            if newline {
                self.note_newline(0);
                self.advance(1);
                return Ok(LineEnd::Newline);
            }
        }
    }

    /// The next line, without its `\n`, when it lies whole in the text at
    /// hand and is at most `max` bytes long; nothing is consumed. A page
    /// shows such a line as it is, without a bounded capture.
    pub fn buffered_line(&self, max: usize) -> Option<&str> {
        let rest = &self.buf.as_bytes()[self.at..];
        let end = memchr(b'\n', &rest[..rest.len().min(max.saturating_add(1))])?;
        Some(&self.buf[self.at..self.at + end])
    }

    /// Consumes a line of `len` bytes that [`Cursor::buffered_line`] gave,
    /// and its `\n`.
    pub fn consume_line(&mut self, len: usize) {
        self.note_newline(len);
        self.advance(len + 1);
    }

    /// Counts the remaining lines until the end of the file or until `cap`
    /// bytes were scanned; true when the end was reached.
    pub fn count_rest(&mut self, cap: u64) -> Result<bool, FsError> {
        let stop = self.consumed.saturating_add(cap);
        loop {
            if self.consumed < stop && self.raw_ahead() {
                self.scan_raw(u64::MAX, stop - self.consumed)?;
                continue;
            }
            if !self.refill()? {
                break;
            }
            if self.consumed >= stop {
                return Ok(false);
            }
            let room = usize::try_from(stop - self.consumed).unwrap_or(usize::MAX);
            let len = (self.buf.len() - self.at).min(room);
            self.consume_newlines(len, u64::MAX);
        }
        Ok(true)
    }
}

/// The bytes up to and including the `max`-th `\n` of `bytes` (all of them
/// when it has fewer), and the `\n` among them. Counted with SIMD where the
/// target has it.
fn lines_within(bytes: &[u8], max: u64) -> (usize, u64) {
    let all = memchr::memchr_iter(b'\n', bytes).count() as u64;
    if all < max {
        return (bytes.len(), all);
    }
    let nth = usize::try_from(max.saturating_sub(1)).unwrap_or(usize::MAX);
    memchr::memchr_iter(b'\n', bytes)
        .nth(nth)
        .map_or((bytes.len(), all), |at| (at + 1, max))
}

/// The `\r\n` among the line ends of `bytes`; `before` is the byte that
/// came just before them. A text without `\r` is settled by one search.
fn crlf_count(bytes: &[u8], before: u8) -> u64 {
    if memchr(b'\r', bytes).is_none() && before != b'\r' {
        return 0;
    }
    let mut crlf = 0;
    let mut previous = before;
    for at in memchr::memchr_iter(b'\n', bytes) {
        if at > 0 {
            previous = bytes[at - 1];
        }
        if previous == b'\r' {
            crlf += 1;
        }
    }
    crlf
}
