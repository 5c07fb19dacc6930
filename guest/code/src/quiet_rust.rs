//! Leaves out of the parse what an outline never shows. The parse costs
//! time per token, and a table of numbers is mostly tokens: a 2.5 MB Rust
//! file of `static` arrays parsed whole took half a second inside the
//! component. In Rust nothing between `[` and `]` is ever a symbol (arrays,
//! slice types, indexing, macro arguments), so the inside of every long
//! bracket pair outside strings and comments is left out of the ranges the
//! parser reads: it sees `[]`, skips the inside without reading a byte of
//! it, and every node keeps its place in the text, where the names are
//! read. Attributes (`#[…]`, `#![…]`) are read whole, as an empty one would not
//! parse.

use tree_sitter::{Point, Range};

/// Brackets nested deeper than this leave the text to be parsed whole (the
/// parse has its own budget for such files).
const MAX_DEPTH: usize = 256;

/// Brackets holding fewer bytes than this are read as they are: leaving
/// them out saves less than the parser's ranges cost.
const LONG_BRACKET_BYTES: usize = 1024;

/// The byte ranges the parse of `text` needs: all of it but the inside of
/// every long `[…]`; `None` when there is none (the text is parsed whole).
pub(crate) fn ranges(text: &str) -> Option<Vec<Range>> {
    let bytes = text.as_bytes();
    let spans = long_brackets(bytes);
    if spans.is_empty() {
        return None;
    }
    let mut places = Places::default();
    let mut ranges = Vec::with_capacity(spans.len() + 1);
    let mut from = (0, Point::new(0, 0));
    for (start, end) in spans {
        let gap = (places.at(bytes, start), places.at(bytes, end));
        ranges.push(Range {
            start_byte: from.0,
            end_byte: start,
            start_point: from.1,
            end_point: gap.0,
        });
        from = (end, gap.1);
    }
    ranges.push(Range {
        start_byte: from.0,
        end_byte: bytes.len(),
        start_point: from.1,
        end_point: places.at(bytes, bytes.len()),
    });
    Some(ranges)
}

/// Rows and columns of byte offsets asked in increasing order, each found
/// from the one before.
#[derive(Default)]
struct Places {
    /// The offset last asked, its row and the start of that row.
    byte: usize,
    row: usize,
    row_start: usize,
}

impl Places {
    /// The row and column (in bytes) of `offset` in `bytes`.
    fn at(&mut self, bytes: &[u8], offset: usize) -> Point {
        for newline in memchr::memchr_iter(b'\n', &bytes[self.byte..offset]) {
            self.row += 1;
            self.row_start = self.byte + newline + 1;
        }
        self.byte = offset;
        Point::new(self.row, offset - self.row_start)
    }
}

/// The insides of the outermost bracket pairs longer than
/// [`LONG_BRACKET_BYTES`], outside strings, characters and comments, and
/// not attributes.
fn long_brackets(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    // Open brackets: where each one's inside starts, and whether it may be
    // blanked.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        at = match byte {
            b'/' if bytes.get(at + 1) == Some(&b'/') => line_end(bytes, at),
            b'/' if bytes.get(at + 1) == Some(&b'*') => block_comment_end(bytes, at),
            b'"' => string_end(bytes, at + 1),
            b'r' if raw_string_start(bytes, at) => raw_string_end(bytes, at + 1),
            b'\'' => char_end(bytes, at),
            b'[' => {
                // `#[…]` and `#![…]`; a macro's `name![…]` is not one.
                let attribute = at > 0
                    && (bytes[at - 1] == b'#'
                        || (bytes[at - 1] == b'!' && at > 1 && bytes[at - 2] == b'#'));
                if open.len() == MAX_DEPTH {
                    return Vec::new();
                }
                open.push((at + 1, !attribute));
                at + 1
            }
            b']' => {
                if let Some((from, blankable)) = open.pop()
                    && blankable
                    && open.iter().all(|(_, outer)| !outer)
                    && at - from >= LONG_BRACKET_BYTES
                {
                    spans.push((from, at));
                }
                at + 1
            }
            _ => at + 1,
        };
    }
    spans
}

fn line_end(bytes: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n)
}

/// Past a `/* … */` comment, nested ones included.
fn block_comment_end(bytes: &[u8], mut at: usize) -> usize {
    let mut depth = 0usize;
    while at + 1 < bytes.len() {
        match (bytes[at], bytes[at + 1]) {
            (b'/', b'*') => {
                depth += 1;
                at += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                at += 2;
                if depth == 0 {
                    return at;
                }
            }
            _ => at += 1,
        }
    }
    bytes.len()
}

/// Past the `"` closing a string whose text starts at `at`.
fn string_end(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// Whether a raw string (`r"`, `r#"`, `br"`) starts at the `r` at `at`, and
/// the `r` is not the end of an identifier.
fn raw_string_start(bytes: &[u8], at: usize) -> bool {
    let before = if at > 0 && bytes[at - 1] == b'b' {
        at.checked_sub(2).map(|i| bytes[i])
    } else {
        at.checked_sub(1).map(|i| bytes[i])
    };
    if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return false;
    }
    let hashes = bytes[at + 1..].iter().take_while(|&&b| b == b'#').count();
    bytes.get(at + 1 + hashes) == Some(&b'"')
}

/// Past a raw string whose hashes start at `at`.
fn raw_string_end(bytes: &[u8], at: usize) -> usize {
    let hashes = bytes[at..].iter().take_while(|&&b| b == b'#').count();
    let mut from = at + hashes + 1;
    while let Some(quote) = memchr::memchr(b'"', &bytes[from.min(bytes.len())..]) {
        let end = from + quote + 1;
        if bytes[end..]
            .iter()
            .take(hashes)
            .filter(|&&b| b == b'#')
            .count()
            == hashes
            && bytes.len() >= end + hashes
        {
            return end + hashes;
        }
        from = end;
    }
    bytes.len()
}

/// Past a character literal at `at`, or just past the `'` of a lifetime or
/// label.
fn char_end(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at + 1) {
        Some(b'\\') => bytes[at + 2..]
            .iter()
            .position(|&b| b == b'\'')
            .map_or(bytes.len(), |n| at + 3 + n),
        Some(&first) => {
            let width = match first {
                0xF0.. => 4,
                0xE0.. => 3,
                0xC0.. => 2,
                _ => 1,
            };
            if bytes.get(at + 1 + width) == Some(&b'\'') {
                at + 2 + width
            } else {
                at + 1
            }
        }
        None => bytes.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn long(inner: &str) -> String {
        inner.repeat(LONG_BRACKET_BYTES / inner.len() + 1)
    }

    /// What the parser reads of `text` through `ranges`, the pieces joined.
    fn read(text: &str, ranges: &[Range]) -> String {
        ranges
            .iter()
            .map(|range| &text[range.start_byte..range.end_byte])
            .collect()
    }

    #[test]
    fn long_arrays_are_left_out_and_every_range_knows_its_place() {
        let numbers = long("1, 2,\n");
        let text = format!("static A: [u8; 3] = [{numbers}];\nfn f() {{}}\n");
        let ranges = ranges(&text).expect("a long array");
        assert_eq!(read(&text, &ranges), "static A: [u8; 3] = [];\nfn f() {}\n");
        let inside = text.find("= [").unwrap() + 3;
        assert_eq!(ranges[0].end_byte, inside);
        assert_eq!(ranges[0].end_point, Point::new(0, inside));
        let rows = numbers.matches('\n').count();
        assert_eq!(ranges[1].start_point, Point::new(rows, 0));
        assert_eq!(ranges[1].end_point, Point::new(rows + 2, 0));
        assert_eq!(ranges[1].end_byte, text.len());
    }

    #[test]
    fn short_brackets_attributes_strings_and_comments_stay() {
        let inner = long("x");
        for text in [
            "let a = [1, 2, 3];".to_owned(),
            format!("#[doc = \"{inner}\"]\nfn f() {{}}"),
            format!("let s = \"[{inner}\";\nlet t = ']';"),
            format!("// [{inner}\nfn g() {{}}"),
            format!("/* /* [ */ {inner} */ fn h() {{}}"),
            format!("let r = r#\"[{inner}\"#; let c = '[';"),
        ] {
            assert!(ranges(&text).is_none(), "{text}");
        }
    }

    #[test]
    fn lifetimes_do_not_open_characters() {
        let numbers = long("7, ");
        let text = format!("fn f<'a>(x: &'a u8) {{ let t = [{numbers}]; }}");
        let ranges = ranges(&text).expect("a long array");
        assert_eq!(read(&text, &ranges), "fn f<'a>(x: &'a u8) { let t = []; }");
    }

    #[test]
    fn a_macros_long_brackets_are_left_out_and_inner_attributes_kept() {
        let numbers = long("1, ");
        let text = format!("#![doc = \"{numbers}\"]\nlet v = vec![{numbers}];");
        let ranges = ranges(&text).expect("a long macro argument");
        assert_eq!(
            read(&text, &ranges),
            format!("#![doc = \"{numbers}\"]\nlet v = vec![];")
        );
    }

    #[test]
    fn brackets_nested_too_deep_leave_the_text_whole() {
        let text = format!(
            "const A: u8 = {}{}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(ranges(&text).is_none());
    }

    #[test]
    fn columns_are_bytes_and_ranges_end_on_characters() {
        let inner = long("é, ");
        let text = format!("const É: &[&str] = &[{inner}];\nconst B: u8 = [{inner}][0];");
        let ranges = ranges(&text).expect("long arrays");
        assert_eq!(ranges.len(), 3);
        for range in &ranges {
            assert!(
                text.is_char_boundary(range.start_byte) && text.is_char_boundary(range.end_byte)
            );
        }
        assert_eq!(
            ranges[0].end_point,
            Point::new(0, "const É: &[&str] = &[".len())
        );
        assert_eq!(
            read(&text, &ranges),
            "const É: &[&str] = &[];\nconst B: u8 = [][0];"
        );
    }
}
