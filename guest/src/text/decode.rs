//! Streaming text decoding (SPEC R10, R11): bytes arrive in chunks of any
//! size, text leaves as UTF-8. The encoding is sniffed from the first bytes:
//! a UTF-8 BOM is dropped, UTF-16 with a BOM is decoded, anything else is read
//! in the decoder's chosen encoding ([`Decoder::with_encoding`]; UTF-8 unless
//! one was detected or given), with invalid bytes replaced by U+FFFD and the
//! loss recorded. A sequence split across chunks is carried over, never
//! replaced.
//!
//! ```
//! use filetools_core::text::decode::Decoder;
//! use filetools_core::text::encoding::Encoding;
//! let mut decoder = Decoder::new();
//! let mut text = String::new();
//! decoder.feed(&[0xEF, 0xBB], &mut text);
//! decoder.feed(&[0xBF, b'h', 0xC3], &mut text);
//! decoder.feed(&[0xA9], &mut text);
//! decoder.finish(&mut text);
//! assert_eq!(text, "hé");
//! assert_eq!(decoder.encoding(), Some(Encoding::Utf8));
//! assert!(decoder.had_bom() && !decoder.lossy());
//! ```

use crate::text::detect::{Detection, detect, has_bom};
use crate::text::encoding::Encoding;
use crate::text::utf8;

/// Bytes needed to recognise any BOM we know.
const SNIFF_BYTES: usize = 3;

/// Turns a byte stream into UTF-8 text, chunk by chunk.
#[derive(Debug, Default)]
pub struct Decoder {
    encoding: Option<Encoding>,
    /// The encoding of a stream without a BOM (UTF-8 when `None`).
    chosen: Option<Encoding>,
    /// The legacy decoder, once one is in use.
    legacy: Option<Legacy>,
    bom: bool,
    lossy: bool,
    /// Bytes not yet decodable: the sniff prefix, or an incomplete sequence.
    pending: Vec<u8>,
    /// A UTF-16 high surrogate waiting for its partner.
    high_surrogate: Option<u16>,
}

impl Decoder {
    /// A decoder that has seen nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A decoder that reads a stream without a BOM as `encoding`.
    pub fn with_encoding(encoding: Encoding) -> Self {
        Self {
            chosen: Some(encoding),
            ..Self::default()
        }
    }

    /// The encoding, once the first bytes have been seen.
    pub fn encoding(&self) -> Option<Encoding> {
        self.encoding
    }

    /// Whether the stream started with a byte-order mark.
    pub fn had_bom(&self) -> bool {
        self.bom
    }

    /// Whether any bytes were invalid and shown as U+FFFD.
    pub fn lossy(&self) -> bool {
        self.lossy
    }

    /// Decodes `bytes`, appending the text that is complete to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut String) {
        if self.encoding.is_none() {
            self.pending.extend_from_slice(bytes);
            if self.pending.len() >= SNIFF_BYTES {
                self.sniff();
                let pending = std::mem::take(&mut self.pending);
                self.decode(&pending, out);
            }
            return;
        }
        self.decode(bytes, out);
    }

    /// Like [`Decoder::feed`] for an owned chunk: valid UTF-8 that needs no
    /// carry-over becomes `out` without being copied.
    pub fn feed_owned(&mut self, bytes: Vec<u8>, out: &mut String) {
        if self.encoding == Some(Encoding::Utf8) && self.pending.is_empty() && out.is_empty() {
            match utf8::into_string(bytes) {
                Ok(text) => *out = text,
                Err(err) => self.decode(err.as_bytes(), out),
            }
            return;
        }
        self.feed(&bytes, out);
    }

    /// A decoder for a file whose first bytes are `sample` (`whole` when
    /// they are all of it): in `given` when set, else in the legacy encoding
    /// detected from the sample, else in UTF-8 (or what a BOM announces).
    /// The detection, when there was one, says how sure it is.
    pub fn for_file(
        sample: &[u8],
        whole: bool,
        given: Option<Encoding>,
    ) -> (Self, Option<Detection>) {
        if let Some(given) = given {
            return (Self::with_encoding(given), None);
        }
        let found = detect(sample, whole);
        let mut decoder =
            Self::with_encoding(found.as_ref().map_or(Encoding::Utf8, |f| f.encoding));
        if !has_bom(sample) && (whole || sample.len() >= SNIFF_BYTES) {
            // Nothing to sniff: the first chunk is decoded as it comes,
            // valid UTF-8 taken over without a copy.
            decoder.encoding = decoder.chosen;
        }
        (decoder, found)
    }

    /// Decodes a whole file's `bytes` at once, in the encoding
    /// [`Decoder::for_file`] chooses: the text, and the decoder that says
    /// what it found (encoding, BOM, loss).
    pub fn whole(bytes: &[u8], given: Option<Encoding>) -> (Self, String) {
        let (mut decoder, _) = Self::for_file(bytes, true, given);
        let mut text = String::new();
        decoder.feed(bytes, &mut text);
        decoder.finish(&mut text);
        (decoder, text)
    }

    /// Whether the stream is UTF-8 and no sequence is left half-decoded:
    /// bytes from here on may be scanned for `\n` without decoding them, as
    /// a `\n` byte is never part of a longer UTF-8 sequence.
    pub(crate) fn at_utf8_boundary(&self) -> bool {
        self.encoding == Some(Encoding::Utf8) && self.pending.is_empty()
    }

    /// Flushes what is left at the end of the stream; an incomplete sequence
    /// becomes U+FFFD.
    pub fn finish(&mut self, out: &mut String) {
        if self.encoding.is_none() {
            self.sniff();
            let pending = std::mem::take(&mut self.pending);
            self.decode(&pending, out);
        }
        if let Some(Encoding::Legacy(encoding)) = self.encoding {
            self.decode_legacy(encoding, &[], out, true);
        }
        if !self.pending.is_empty() || self.high_surrogate.is_some() {
            self.pending.clear();
            self.high_surrogate = None;
            self.lossy = true;
            out.push(char::REPLACEMENT_CHARACTER);
        }
    }

    fn sniff(&mut self) {
        let (encoding, bom_len) = match self.pending.as_slice() {
            [0xEF, 0xBB, 0xBF, ..] => (Encoding::Utf8, 3),
            [0xFF, 0xFE, ..] => (Encoding::Utf16Le, 2),
            [0xFE, 0xFF, ..] => (Encoding::Utf16Be, 2),
            _ => (self.chosen.unwrap_or(Encoding::Utf8), 0),
        };
        self.encoding = Some(encoding);
        self.bom = bom_len > 0;
        self.pending.drain(..bom_len);
    }

    fn decode(&mut self, bytes: &[u8], out: &mut String) {
        match self.encoding {
            Some(Encoding::Utf16Le) => self.decode_utf16(bytes, out, u16::from_le_bytes),
            Some(Encoding::Utf16Be) => self.decode_utf16(bytes, out, u16::from_be_bytes),
            Some(Encoding::Legacy(encoding)) => self.decode_legacy(encoding, bytes, out, false),
            _ => self.decode_utf8(bytes, out),
        }
    }

    fn decode_legacy(
        &mut self,
        encoding: &'static encoding_rs::Encoding,
        bytes: &[u8],
        out: &mut String,
        last: bool,
    ) {
        let legacy = self
            .legacy
            .get_or_insert_with(|| Legacy(encoding.new_decoder_without_bom_handling()));
        let mut rest = bytes;
        loop {
            let room = legacy
                .0
                .max_utf8_buffer_length(rest.len())
                .unwrap_or(rest.len().saturating_mul(3).saturating_add(16));
            out.reserve(room);
            let (result, read, replaced) = legacy.0.decode_to_string(rest, out, last);
            self.lossy |= replaced;
            rest = &rest[read..];
            if result == encoding_rs::CoderResult::InputEmpty {
                return;
            }
        }
    }

    fn decode_utf8(&mut self, bytes: &[u8], out: &mut String) {
        let mut rest = bytes;
        // Complete a sequence split at the previous chunk boundary first.
        while !self.pending.is_empty() && !rest.is_empty() {
            self.pending.push(rest[0]);
            rest = &rest[1..];
            match std::str::from_utf8(&self.pending) {
                Ok(text) => {
                    out.push_str(text);
                    self.pending.clear();
                }
                Err(err) if err.error_len().is_none() => {}
                Err(_) => {
                    // Invalid: replace its first byte and re-decode the rest.
                    self.lossy = true;
                    out.push(char::REPLACEMENT_CHARACTER);
                    let tail: Vec<u8> = self.pending.drain(1..).collect();
                    self.pending.clear();
                    let mut joined = tail;
                    joined.extend_from_slice(rest);
                    return self.decode_utf8(&joined, out);
                }
            }
        }
        loop {
            match utf8::as_str(rest) {
                Ok(text) => {
                    out.push_str(text);
                    return;
                }
                Err(err) => {
                    let valid = err.valid_up_to();
                    // The prefix up to `valid` was just validated.
                    out.push_str(std::str::from_utf8(&rest[..valid]).unwrap_or_default());
                    let Some(len) = err.error_len() else {
                        // An incomplete sequence at the end: wait for more bytes.
                        self.pending.extend_from_slice(&rest[valid..]);
                        return;
                    };
                    self.lossy = true;
                    out.push(char::REPLACEMENT_CHARACTER);
                    rest = &rest[valid + len..];
                }
            }
        }
    }

    fn decode_utf16(&mut self, bytes: &[u8], out: &mut String, unit: fn([u8; 2]) -> u16) {
        let mut data = std::mem::take(&mut self.pending);
        data.extend_from_slice(bytes);
        let pairs = data.chunks_exact(2);
        let odd = pairs.remainder().to_vec();
        for pair in pairs {
            let code = unit([pair[0], pair[1]]);
            self.push_utf16(code, out);
        }
        self.pending = odd;
    }

    fn push_utf16(&mut self, code: u16, out: &mut String) {
        match (self.high_surrogate.take(), code) {
            (Some(high), 0xDC00..=0xDFFF) => {
                let scalar =
                    0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(code) - 0xDC00);
                out.push(char::from_u32(scalar).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            (previous, _) => {
                if previous.is_some() {
                    self.lossy = true;
                    out.push(char::REPLACEMENT_CHARACTER);
                }
                match code {
                    0xD800..=0xDBFF => self.high_surrogate = Some(code),
                    0xDC00..=0xDFFF => {
                        self.lossy = true;
                        out.push(char::REPLACEMENT_CHARACTER);
                    }
                    _ => out.push(char::from_u32(u32::from(code)).unwrap_or_default()),
                }
            }
        }
    }
}

/// A legacy decoder's state between chunks.
struct Legacy(encoding_rs::Decoder);

impl std::fmt::Debug for Legacy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.encoding().name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes `bytes` fed in pieces of `step` bytes.
    fn decode_in_steps(bytes: &[u8], step: usize) -> (String, Decoder) {
        let mut decoder = Decoder::new();
        let mut out = String::new();
        for piece in bytes.chunks(step) {
            decoder.feed(piece, &mut out);
        }
        decoder.finish(&mut out);
        (out, decoder)
    }

    #[test]
    fn split_sequences_survive_every_chunk_size() {
        let text = "añ€😀 – ok\r\n";
        for step in 1..8 {
            let (out, decoder) = decode_in_steps(text.as_bytes(), step);
            assert_eq!(out, text, "step {step}");
            assert!(!decoder.lossy());
        }
    }

    #[test]
    fn invalid_bytes_become_replacement_and_are_flagged() {
        for step in 1..6 {
            let (out, decoder) = decode_in_steps(b"a\xFFb\xC3(c\xE2\x82", step);
            assert_eq!(out, "a\u{FFFD}b\u{FFFD}(c\u{FFFD}", "step {step}");
            assert!(decoder.lossy());
        }
    }

    #[test]
    fn utf16_with_bom_is_decoded() {
        let text = "hi 😀\n";
        let mut le = vec![0xFF, 0xFE];
        let mut be = vec![0xFE, 0xFF];
        for unit in text.encode_utf16() {
            le.extend_from_slice(&unit.to_le_bytes());
            be.extend_from_slice(&unit.to_be_bytes());
        }
        for step in 1..5 {
            let (out, decoder) = decode_in_steps(&le, step);
            assert_eq!(
                (out.as_str(), decoder.encoding()),
                (text, Some(Encoding::Utf16Le))
            );
            let (out, decoder) = decode_in_steps(&be, step);
            assert_eq!(
                (out.as_str(), decoder.encoding()),
                (text, Some(Encoding::Utf16Be))
            );
            assert!(decoder.had_bom());
        }
    }

    #[test]
    fn short_inputs_are_sniffed_at_the_end() {
        assert_eq!(decode_in_steps(b"", 1).0, "");
        assert_eq!(decode_in_steps(b"ab", 1).0, "ab");
        let (out, decoder) = decode_in_steps(&[0xEF, 0xBB, 0xBF], 1);
        assert_eq!(out, "");
        assert!(decoder.had_bom());
    }

    #[test]
    fn lone_surrogates_are_replaced() {
        let bytes = [0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00];
        let (out, decoder) = decode_in_steps(&bytes, 2);
        assert_eq!(out, "\u{FFFD}A");
        assert!(decoder.lossy());
    }
}
