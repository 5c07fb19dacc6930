//! A look at a PDF's raw bytes before any parser sees them (SPEC R14, S2):
//! how deep its dictionaries and arrays nest, how many objects it declares,
//! and how far its compressed streams inflate. A parser recurses once per
//! level of nesting and keeps every object in memory, and a few kilobytes of
//! deflated zeros inflate to gigabytes; past [`MAX_NESTING`], [`MAX_OBJECTS`]
//! or [`MAX_INFLATED_BYTES`] the PDF is described instead of parsed.
//!
//! The scan is lexical: strings `(…)` and `<hex>`, comments and stream data
//! are skipped, so their bytes never count as structure.
//!
//! ```
//! use filetools_core::view::pdf::scan::nesting;
//! assert_eq!(nesting(b"<< /A [1 2 << /B 3 >>] /S (a [string]) >>"), 3);
//! ```

use std::fmt;

use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};

/// Deepest nesting of dictionaries and arrays parsed.
pub const MAX_NESTING: usize = 64;
/// Most objects a PDF may declare.
pub const MAX_OBJECTS: usize = 400_000;
/// Most bytes all of a PDF's compressed streams may inflate to together.
pub const MAX_INFLATED_BYTES: u64 = 256 * 1024 * 1024;
/// Most bytes one stream may inflate to.
pub const MAX_STREAM_BYTES: u64 = 64 * 1024 * 1024;

/// Why a PDF is not parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Its structure nests deeper than [`MAX_NESTING`].
    Nesting(usize),
    /// It declares more than [`MAX_OBJECTS`] objects.
    Objects(usize),
    /// One stream inflates past [`MAX_STREAM_BYTES`].
    Stream,
    /// Its streams inflate past [`MAX_INFLATED_BYTES`] together.
    Inflated,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Nesting(depth) => write!(
                f,
                "its structure nests {depth} levels deep, past the {MAX_NESTING} that are parsed"
            ),
            Refused::Objects(count) => write!(
                f,
                "it declares {count} objects, past the {MAX_OBJECTS} that are parsed"
            ),
            Refused::Stream => write!(
                f,
                "a compressed stream in it inflates past {} MiB",
                MAX_STREAM_BYTES >> 20
            ),
            Refused::Inflated => write!(
                f,
                "its compressed streams inflate past {} MiB together",
                MAX_INFLATED_BYTES >> 20
            ),
        }
    }
}

/// Checks `pdf` against the limits before it is parsed.
pub fn check(pdf: &[u8]) -> Result<(), Refused> {
    let mut lexer = Lexer::new(pdf);
    let mut objects = 0usize;
    let mut inflated = 0u64;
    while let Some(token) = lexer.next() {
        match token {
            Token::Word(b"obj") => {
                objects += 1;
                if objects > MAX_OBJECTS {
                    return Err(Refused::Objects(objects));
                }
            }
            Token::Stream(data) if looks_deflated(data) => {
                inflated += inflated_size(data)?;
                if inflated > MAX_INFLATED_BYTES {
                    return Err(Refused::Inflated);
                }
            }
            _ => {}
        }
        if lexer.depth > MAX_NESTING {
            return Err(Refused::Nesting(lexer.depth));
        }
    }
    Ok(())
}

/// The deepest nesting of dictionaries and arrays in `bytes` (a PDF, or a
/// page's content stream).
pub fn nesting(bytes: &[u8]) -> usize {
    content_shape(bytes).0
}

/// How deep the content stream `bytes` nests, and how many operators it
/// holds (words that are not numbers, names or strings): what decoding it
/// would cost, known before it is decoded.
///
/// ```
/// use filetools_core::view::pdf::scan::content_shape;
/// assert_eq!(content_shape(b"BT /F1 12 Tf (Hi) Tj [(a) -300 (b)] TJ ET"), (1, 5));
/// ```
pub fn content_shape(bytes: &[u8]) -> (usize, usize) {
    let mut lexer = Lexer::new(bytes);
    let mut operators = 0;
    while let Some(token) = lexer.next() {
        if let Token::Word([first, ..]) = token
            && (first.is_ascii_alphabetic() || matches!(first, b'\'' | b'"'))
        {
            operators += 1;
        }
    }
    (lexer.deepest, operators)
}

/// Whether stream data starts like a zlib stream (deflate, any window).
fn looks_deflated(data: &[u8]) -> bool {
    matches!(data, [cmf, flg, ..] if cmf & 0x0F == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0)
}

/// How many bytes the zlib stream `data` inflates to, stopping with an
/// error past [`MAX_STREAM_BYTES`]; a damaged stream counts what it gave.
fn inflated_size(data: &[u8]) -> Result<u64, Refused> {
    inflate(data, |_| {}).map_err(|Capped| Refused::Stream)
}

/// The zlib stream `data` went past [`MAX_STREAM_BYTES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Capped;

/// Inflates the zlib stream `data`, handing each piece of output to `out`,
/// up to [`MAX_STREAM_BYTES`]; the bytes it made. A damaged stream ends
/// where the damage is.
pub(crate) fn inflate(data: &[u8], mut out: impl FnMut(&[u8])) -> Result<u64, Capped> {
    let mut state = DecompressorOxide::new();
    let mut window = vec![0u8; 32 * 1024];
    let (mut read, mut out_pos, mut total) = (0usize, 0usize, 0u64);
    loop {
        let flags = inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER;
        let (status, used, made) =
            decompress(&mut state, &data[read..], &mut window, out_pos, flags);
        out(&window[out_pos..out_pos + made]);
        read += used;
        total += made as u64;
        out_pos = (out_pos + made) & (window.len() - 1);
        if total > MAX_STREAM_BYTES {
            return Err(Capped);
        }
        if status != TINFLStatus::HasMoreOutput {
            return Ok(total);
        }
    }
}

/// What the lexer sees.
enum Token<'a> {
    /// A keyword or name-like word (`obj`, `endobj`, `R`, a number).
    Word(&'a [u8]),
    /// A stream's data, between `stream` and `endstream`.
    Stream(&'a [u8]),
    /// Anything else: delimiters, strings, names.
    Other,
}

/// A PDF lexer that tracks nesting and skips strings, comments and stream
/// data.
struct Lexer<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
    deepest: usize,
}

impl<'a> Lexer<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            at: 0,
            depth: 0,
            deepest: 0,
        }
    }

    fn open(&mut self) {
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
    }

    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn next(&mut self) -> Option<Token<'a>> {
        let bytes = self.bytes;
        while self.at < bytes.len() && bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        let &c = bytes.get(self.at)?;
        let next = bytes.get(self.at + 1).copied();
        match c {
            b'%' => {
                while self.at < bytes.len() && !matches!(bytes[self.at], b'\r' | b'\n') {
                    self.at += 1;
                }
            }
            b'(' => self.skip_string(),
            b'<' if next == Some(b'<') => {
                self.at += 2;
                self.open();
            }
            b'>' if next == Some(b'>') => {
                self.at += 2;
                self.close();
            }
            b'<' => {
                while self.at < bytes.len() && bytes[self.at] != b'>' {
                    self.at += 1;
                }
                self.at += 1;
            }
            b'/' => {
                self.at += 1;
                while self.at < bytes.len() && is_regular(bytes[self.at]) {
                    self.at += 1;
                }
            }
            b'[' => {
                self.at += 1;
                self.open();
            }
            b']' => {
                self.at += 1;
                self.close();
            }
            c if is_regular(c) => {
                let start = self.at;
                while self.at < bytes.len() && is_regular(bytes[self.at]) {
                    self.at += 1;
                }
                let word = &bytes[start..self.at];
                if word == b"stream" {
                    return Some(Token::Stream(self.stream_data()));
                }
                return Some(Token::Word(word));
            }
            _ => self.at += 1,
        }
        Some(Token::Other)
    }

    /// Skips a literal string, balanced parentheses and escapes included.
    fn skip_string(&mut self) {
        let bytes = self.bytes;
        let mut level = 0usize;
        while self.at < bytes.len() {
            match bytes[self.at] {
                b'\\' => self.at += 1,
                b'(' => level += 1,
                b')' => {
                    level -= 1;
                    if level == 0 {
                        self.at += 1;
                        return;
                    }
                }
                _ => {}
            }
            self.at += 1;
        }
    }

    /// The data after `stream` up to `endstream`, which is skipped.
    fn stream_data(&mut self) -> &'a [u8] {
        let bytes = self.bytes;
        if bytes.get(self.at) == Some(&b'\r') {
            self.at += 1;
        }
        if bytes.get(self.at) == Some(&b'\n') {
            self.at += 1;
        }
        let start = self.at;
        let end =
            memchr::memmem::find(&bytes[start..], b"endstream").map_or(bytes.len(), |n| start + n);
        self.at = (end + b"endstream".len()).min(bytes.len());
        &bytes[start..end]
    }
}

/// A byte that is neither white space nor a delimiter.
fn is_regular(c: u8) -> bool {
    !c.is_ascii_whitespace() && !b"()<>[]{}/%".contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_comments_and_streams_do_not_count_as_structure() {
        assert_eq!(nesting(b"[ ([[[[) % [[[[\n <5b5b> ]"), 1);
        let pdf = b"1 0 obj << /Length 5 >> stream\n[[[[[\nendstream endobj";
        assert_eq!(nesting(pdf), 1);
        assert_eq!(check(pdf), Ok(()));
    }

    #[test]
    fn deep_nesting_and_bombs_are_refused() {
        let deep = format!("1 0 obj {}{} endobj", "[".repeat(100), "]".repeat(100));
        assert_eq!(
            check(deep.as_bytes()),
            Err(Refused::Nesting(MAX_NESTING + 1))
        );
        let zeros = vec![0u8; (MAX_STREAM_BYTES + 1) as usize];
        let bomb = miniz_oxide::deflate::compress_to_vec_zlib(&zeros, 6);
        let mut pdf = b"1 0 obj << /Filter /FlateDecode >> stream\n".to_vec();
        pdf.extend_from_slice(&bomb);
        pdf.extend_from_slice(b"\nendstream endobj");
        assert_eq!(check(&pdf), Err(Refused::Stream));
        let small = miniz_oxide::deflate::compress_to_vec_zlib(b"BT ET", 6);
        assert_eq!(inflated_size(&small), Ok(5));
    }
}
