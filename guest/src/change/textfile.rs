//! A whole text file for writing and editing (SPEC W3, E5): strictly decoded
//! (an edit must never turn bytes it cannot show into U+FFFD), with its
//! [`Style`] — encoding, BOM, line endings — so that what is written back
//! keeps the file's identity.
//!
//! ```
//! use filetools_core::textfile::{LineEnding, TextFile};
//! let file = TextFile::decode(b"\xEF\xBB\xBFa\r\nb\r\n").unwrap();
//! assert_eq!(file.text, "a\r\nb\r\n");
//! assert!(file.style.bom);
//! assert_eq!(file.style.line_ending, LineEnding::Crlf);
//! assert_eq!(file.style.encode("x\r\n"), b"\xEF\xBB\xBFx\r\n");
//! ```

use serde::{Deserialize, Serialize};

use crate::decode::{Decoder, Encoding};

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
    let mut lf = 0;
    let mut crlf = 0;
    for at in memchr::memchr_iter(b'\n', bytes) {
        if at > 0 && bytes[at - 1] == b'\r' {
            crlf += 1;
        } else {
            lf += 1;
        }
    }
    (lf, crlf)
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

    /// `text` as bytes in this style's encoding, with its BOM.
    pub fn encode(&self, text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() + 3);
        match self.encoding {
            Encoding::Utf8 => {
                if self.bom {
                    out.extend_from_slice(&[0xEF, 0xBB, 0xBF]);
                }
                out.extend_from_slice(text.as_bytes());
            }
            Encoding::Utf16Le => {
                out.extend_from_slice(&[0xFF, 0xFE]);
                for unit in text.encode_utf16() {
                    out.extend_from_slice(&unit.to_le_bytes());
                }
            }
            Encoding::Utf16Be => {
                out.extend_from_slice(&[0xFE, 0xFF]);
                for unit in text.encode_utf16() {
                    out.extend_from_slice(&unit.to_be_bytes());
                }
            }
        }
        out
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

/// A file whose bytes are not valid text in its encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotText {
    /// The encoding it was read as.
    pub encoding: Encoding,
    /// Byte offset of the first invalid sequence, when known.
    pub offset: Option<u64>,
}

/// A decoded file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFile {
    /// Its style.
    pub style: Style,
    /// The text without BOM, line endings as in the file.
    pub text: String,
}

impl TextFile {
    /// Decodes `bytes`; refuses invalid sequences instead of replacing them.
    pub fn decode(bytes: &[u8]) -> Result<Self, NotText> {
        let (decoder, text) = Decoder::whole(bytes);
        let encoding = decoder.encoding().unwrap_or(Encoding::Utf8);
        if decoder.lossy() {
            let offset = match encoding {
                Encoding::Utf8 => {
                    let skip = if decoder.had_bom() { 3 } else { 0 };
                    std::str::from_utf8(&bytes[skip..])
                        .err()
                        .map(|err| (err.valid_up_to() + skip) as u64)
                }
                Encoding::Utf16Le | Encoding::Utf16Be => None,
            };
            return Err(NotText { encoding, offset });
        }
        Ok(Self {
            style: Style::of_text(&text, encoding, decoder.had_bom()),
            text,
        })
    }
}

/// Lines of `text` as the read tool counts them: a final line without `\n`
/// counts, an empty text has none.
pub fn line_count(text: &str) -> u64 {
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count() as u64;
    newlines + u64::from(!text.is_empty() && !text.ends_with('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_is_refused_with_its_offset() {
        let err = TextFile::decode(b"ok\n\xFF\xFEno").unwrap_err();
        assert_eq!(err.offset, Some(3));
        let err = TextFile::decode(b"\xEF\xBB\xBFab\xC3").unwrap_err();
        assert_eq!(err.offset, Some(5));
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
        assert_eq!(file.style.encode(&file.text), bytes);
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
