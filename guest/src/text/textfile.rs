//! A whole text file for writing and editing (SPEC W3, E5): strictly decoded
//! (an edit must never turn bytes it cannot show into U+FFFD), with its
//! [`Style`] — encoding, BOM, line endings — so that what is written back
//! keeps the file's identity.
//!
//! ```
//! use filetools_core::text::textfile::{LineEnding, TextFile};
//! let file = TextFile::decode(b"\xEF\xBB\xBFa\r\nb\r\n").unwrap();
//! assert_eq!(file.text, "a\r\nb\r\n");
//! assert!(file.style.bom);
//! assert_eq!(file.style.line_ending, LineEnding::Crlf);
//! assert_eq!(file.style.encode("x\r\n").unwrap().as_ref(), b"\xEF\xBB\xBFx\r\n");
//! ```

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::text::decode::Decoder;
use crate::text::detect::Detection;
use crate::text::encoding::Encoding;
use crate::text::encoding::Unmappable;

/// How a file ends its lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEnding {
    /// No line end was seen.
    #[default]
    None,
    /// `\n` only.
    Lf,
    /// `\r\n` only.
    Crlf,
    /// Both.
    Mixed,
}

impl LineEnding {
    /// The style of `lf` bare `\n` and `crlf` `\r\n` endings.
    pub fn of_counts(lf: u64, crlf: u64) -> Self {
        match (lf, crlf) {
            (0, 0) => LineEnding::None,
            (_, 0) => LineEnding::Lf,
            (0, _) => LineEnding::Crlf,
            _ => LineEnding::Mixed,
        }
    }

    /// The style of `text`.
    pub fn of(text: &str) -> Self {
        let (lf, crlf) = count_endings(text);
        Self::of_counts(lf, crlf)
    }
}

/// `(bare \n, \r\n)` counts of `text`.
pub fn count_endings(text: &str) -> (u64, u64) {
    let bytes = text.as_bytes();
    // Most text has no carriage return at all, and one byte is looked for
    // faster than two.
    let crlf = if memchr::memchr(b'\r', bytes).is_some() {
        memchr::memmem::find_iter(bytes, b"\r\n").count() as u64
    } else {
        0
    };
    (newlines(bytes) - crlf, crlf)
}

/// Bytes counted per block by [`newlines`]: few enough that a block's
/// count fits the byte-wide lanes the compiler counts in.
const COUNT_BLOCK: usize = 255;

/// The `\n` bytes of `bytes`, counted a block at a time in a loop the
/// compiler turns into SIMD compares and adds (several times faster than
/// visiting each newline, in code of 60-byte lines).
pub fn newlines(bytes: &[u8]) -> u64 {
    bytes
        .chunks(COUNT_BLOCK)
        .map(|block| {
            let count: u8 = block.iter().map(|&b| u8::from(b == b'\n')).sum();
            u64::from(count)
        })
        .sum()
}

/// A file's encoding, BOM and line endings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Style {
    /// The encoding.
    pub encoding: Encoding,
    /// Whether the file starts with a byte-order mark.
    pub bom: bool,
    /// The line endings.
    pub line_ending: LineEnding,
    /// Whether `\r\n` is the more common ending (decides for new lines in a
    /// mixed file).
    pub crlf_dominant: bool,
}

impl Default for Style {
    fn default() -> Self {
        Self {
            encoding: Encoding::Utf8,
            bom: false,
            line_ending: LineEnding::None,
            crlf_dominant: false,
        }
    }
}

impl Style {
    /// The style of `text` decoded from `encoding` (with or without a BOM).
    pub fn of_text(text: &str, encoding: Encoding, bom: bool) -> Self {
        let (lf, crlf) = count_endings(text);
        Self::of_counts((lf, crlf), encoding, bom)
    }

    /// The style of a text with `lf` bare and `crlf` CRLF line ends.
    pub fn of_counts((lf, crlf): (u64, u64), encoding: Encoding, bom: bool) -> Self {
        Self {
            encoding,
            bom,
            line_ending: LineEnding::of_counts(lf, crlf),
            crlf_dominant: crlf > lf,
        }
    }

    /// `text` (LF or CRLF as given) with the file's line ending applied to
    /// lines that end in a bare `\n`, when the file uses CRLF mostly.
    pub fn apply_endings(&self, text: &str) -> String {
        if self.crlf_dominant {
            to_crlf(text)
        } else {
            text.to_owned()
        }
    }

    /// `text` as bytes in this style's encoding, with its BOM; refuses text
    /// the encoding cannot represent. UTF-8 without a BOM is `text` itself,
    /// not a copy.
    pub fn encode<'a>(&self, text: &'a str) -> Result<Cow<'a, [u8]>, Unmappable> {
        if self.encoding == Encoding::Utf8 && !self.bom {
            return Ok(Cow::Borrowed(text.as_bytes()));
        }
        let bom: &[u8] = match self.encoding {
            Encoding::Utf8 if self.bom => &[0xEF, 0xBB, 0xBF],
            Encoding::Utf16Le => &[0xFF, 0xFE],
            Encoding::Utf16Be => &[0xFE, 0xFF],
            _ => &[],
        };
        let mut out = Vec::with_capacity(bom.len() + text.len());
        out.extend_from_slice(bom);
        match self.encoding {
            // The common case, copied once.
            Encoding::Utf8 => out.extend_from_slice(text.as_bytes()),
            other => out.extend_from_slice(&other.encode(text)?),
        }
        Ok(Cow::Owned(out))
    }
}

/// Every bare `\n` of `text` as `\r\n`; existing `\r\n` stay as they are.
pub fn to_crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut prev = '\0';
    for c in text.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

/// Why a file's bytes cannot be changed as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotText {
    /// Not valid in its encoding.
    Invalid {
        /// The encoding it was read as.
        encoding: Encoding,
        /// Byte offset of the first invalid sequence, when known.
        offset: Option<u64>,
    },
    /// Not UTF-8, and the legacy encoding it seems to be in is only a guess.
    Unsure(Detection),
    /// Decoding and encoding back would not give the same bytes (a legacy
    /// encoding with two byte forms of one character).
    NoRoundTrip {
        /// The encoding.
        encoding: Encoding,
        /// Offset of the first byte that would change.
        offset: u64,
    },
}

impl NotText {
    /// Why, in words, e.g. "not valid UTF-8 (first bad byte at offset 3)".
    pub fn why(&self) -> String {
        match self {
            NotText::Invalid {
                encoding,
                offset: Some(offset),
            } => format!("not valid {encoding} (first bad byte at offset {offset})"),
            NotText::Invalid { encoding, .. } => format!("not valid {encoding}"),
            NotText::Unsure(found) => format!(
                "not UTF-8, and its encoding is unsure (perhaps {})",
                found.encoding
            ),
            NotText::NoRoundTrip { encoding, offset } => {
                format!(
                    "its {encoding} bytes at offset {offset} would not be written back the same"
                )
            }
        }
    }
}

/// A decoded file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFile {
    /// Its style.
    pub style: Style,
    /// The text without BOM, line endings as in the file.
    pub text: String,
    /// The `\n` bytes of `text` (a `\r\n` counted once).
    pub newlines: u64,
}

impl TextFile {
    /// Decodes `bytes` in the encoding they announce, are valid in (UTF-8),
    /// or are confidently detected in; refuses invalid sequences instead of
    /// replacing them.
    pub fn decode(bytes: &[u8]) -> Result<Self, NotText> {
        Self::decode_as(bytes, None)
    }

    /// Like [`TextFile::decode`], reading a file without a BOM as `given`
    /// when it is set. A legacy encoding is only accepted when the text
    /// encodes back to exactly `bytes`, so that an edit changes no byte
    /// outside its span.
    pub fn decode_as(bytes: &[u8], given: Option<Encoding>) -> Result<Self, NotText> {
        Self::decode_known(bytes, given, None)
    }

    /// [`TextFile::decode_as`], given the lines of these very bytes when
    /// known (the session's record of the version it read): a text without
    /// a carriage return takes its newline count from them instead of a
    /// count (the style is counted from the text, never taken from the
    /// record, which a partial look may have set).
    pub fn decode_known(
        bytes: &[u8],
        given: Option<Encoding>,
        lines: Option<u64>,
    ) -> Result<Self, NotText> {
        let (mut decoder, found) = Decoder::for_file(bytes, true, given);
        if let Some(found) = found.filter(|found| !found.confident) {
            return Err(NotText::Unsure(found));
        }
        let mut text = String::new();
        decoder.feed(bytes, &mut text);
        decoder.finish(&mut text);
        let encoding = decoder.encoding().unwrap_or(Encoding::Utf8);
        let bom = decoder.had_bom();
        if decoder.lossy() {
            return Err(NotText::Invalid {
                encoding,
                offset: first_invalid(bytes, encoding, bom),
            });
        }
        let known = lines.filter(|_| memchr::memchr(b'\r', text.as_bytes()).is_none());
        let (style, newlines) = if let Some(lines) = known {
            let newlines =
                lines.saturating_sub(u64::from(!text.is_empty() && !text.ends_with('\n')));
            debug_assert_eq!(newlines, count_endings(&text).0, "the record's lines");
            (Style::of_counts((newlines, 0), encoding, bom), newlines)
        } else {
            let (lf, crlf) = count_endings(&text);
            (Style::of_counts((lf, crlf), encoding, bom), lf + crlf)
        };
        if encoding.is_legacy() {
            let back = style.encode(&text).unwrap_or_default();
            if back != bytes {
                let offset = back.iter().zip(bytes).take_while(|(a, b)| a == b).count();
                return Err(NotText::NoRoundTrip {
                    encoding,
                    offset: offset as u64,
                });
            }
        }
        Ok(Self {
            style,
            text,
            newlines,
        })
    }
}

/// Offset of the first byte of `bytes` that is invalid in `encoding`.
fn first_invalid(bytes: &[u8], encoding: Encoding, bom: bool) -> Option<u64> {
    match encoding {
        Encoding::Utf8 => {
            let skip = if bom { 3 } else { 0 };
            std::str::from_utf8(&bytes[skip..])
                .err()
                .map(|err| (err.valid_up_to() + skip) as u64)
        }
        Encoding::Legacy(inner) => {
            let mut decoder = inner.new_decoder_without_bom_handling();
            let mut out = String::with_capacity(bytes.len().saturating_mul(3).saturating_add(16));
            match decoder.decode_to_string_without_replacement(bytes, &mut out, true) {
                (encoding_rs::DecoderResult::Malformed(bad, after), read) => {
                    Some((read - usize::from(bad) - usize::from(after)) as u64)
                }
                _ => None,
            }
        }
        Encoding::Utf16Le | Encoding::Utf16Be => None,
    }
}

/// The 1-based line of byte `at` of `text`.
pub fn line_of(text: &str, at: usize) -> u64 {
    newlines(&text.as_bytes()[..at]) + 1
}

/// Lines of `text` as the read tool counts them: a final line without `\n`
/// counts, an empty text has none.
pub fn line_count(text: &str) -> u64 {
    lines_after(text, newlines(text.as_bytes()))
}

/// Lines of `text`, which holds `newlines` line ends, as [`line_count`]
/// counts them.
pub fn lines_after(text: &str, newlines: u64) -> u64 {
    newlines + u64::from(!text.is_empty() && !text.ends_with('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newlines_are_counted_across_blocks() {
        for len in [0, 1, 254, 255, 256, 1000] {
            let text: String = (0..len)
                .map(|i| if i % 3 == 0 { '\n' } else { 'a' })
                .collect();
            let expected = text.bytes().filter(|&b| b == b'\n').count() as u64;
            assert_eq!(newlines(text.as_bytes()), expected, "{len}");
        }
        assert_eq!(newlines(&[b'\n'; 600]), 600);
        assert_eq!(count_endings("a\r\nb\nc\r\n\r"), (1, 2));
    }

    #[test]
    fn invalid_utf8_is_refused_with_its_offset() {
        let offset = |bytes: &[u8]| match TextFile::decode_as(bytes, Some(Encoding::Utf8)) {
            Err(NotText::Invalid { offset, .. }) => offset,
            other => panic!("{other:?}"),
        };
        assert_eq!(offset(b"ok\n\xFF\xFEno"), Some(3));
        assert_eq!(offset(b"\xEF\xBB\xBFab\xC3"), Some(5));
    }

    #[test]
    fn utf16_round_trips_with_its_bom() {
        let mut bytes = vec![0xFF, 0xFE];
        for unit in "hé\r\n".encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        let file = TextFile::decode(&bytes).unwrap();
        assert_eq!(file.text, "hé\r\n");
        assert_eq!(file.style.encoding, Encoding::Utf16Le);
        assert_eq!(file.style.encode(&file.text).unwrap(), bytes);
    }

    #[test]
    fn endings_are_counted_by_style() {
        assert_eq!(LineEnding::of("a\nb\n"), LineEnding::Lf);
        assert_eq!(LineEnding::of("a\r\nb"), LineEnding::Crlf);
        assert_eq!(LineEnding::of("a\r\nb\n"), LineEnding::Mixed);
        assert_eq!(LineEnding::of("a"), LineEnding::None);
        assert_eq!(to_crlf("a\nb\r\nc\n"), "a\r\nb\r\nc\r\n");
    }

    #[test]
    fn lines_are_counted_like_read() {
        assert_eq!(line_count(""), 0);
        assert_eq!(line_count("a"), 1);
        assert_eq!(line_count("a\n"), 1);
        assert_eq!(line_count("a\nb"), 2);
    }
}
