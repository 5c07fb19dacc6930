//! Blanks what an outline never shows before the parse sees it. The parse
//! costs time per token, and a table of numbers is mostly tokens: a 2.5 MB
//! Rust file of `static` arrays parsed whole took half a second inside the
//! component. In Rust nothing between `[` and `]` is ever a symbol (arrays,
//! slice types, indexing, macro arguments), so the inside of every long
//! bracket pair outside strings and comments becomes spaces: same bytes
//! count, same lines, same columns, so every node keeps its place and the
//! names are still read from the original text. Attributes (`#[…]`) are left
//! whole, as an empty one would not parse.

use std::borrow::Cow;

/// Brackets nested deeper than this leave the text as it is (the parse has
/// its own budget for such files).
const MAX_DEPTH: usize = 256;

/// Brackets holding fewer bytes than this are left as they are: blanking
/// them saves nothing worth a copy of the text.
const LONG_BRACKET_BYTES: usize = 1024;

/// `text` with the inside of every long `[…]` blanked, when there is one.
pub(crate) fn rust(text: &str) -> Cow<'_, str> {
    let spans = long_brackets(text.as_bytes());
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for (from, to) in spans {
        for byte in &mut bytes[from..to] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
    // Whole characters were replaced by ASCII spaces, and a span starts
    // after an ASCII `[` and ends before an ASCII `]`.
    Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned()))
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
                let attribute = at > 0 && (bytes[at - 1] == b'#' || bytes[at - 1] == b'!');
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

    #[test]
    fn long_arrays_are_blanked_keeping_lines() {
        let numbers = long("1, 2,\n");
        let text = format!("static A: [u8; 3] = [{numbers}];\nfn f() {{}}\n");
        let quiet = rust(&text);
        assert_eq!(quiet.len(), text.len());
        assert_eq!(quiet.lines().count(), text.lines().count());
        assert!(quiet.starts_with("static A: [u8; 3] = [  "));
        assert!(quiet.ends_with("];\nfn f() {}\n"));
        assert!(!quiet.contains('1'));
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
            assert_eq!(rust(&text), text.as_str(), "{text}");
        }
    }

    #[test]
    fn lifetimes_do_not_open_characters() {
        let numbers = long("7, ");
        let text = format!("fn f<'a>(x: &'a u8) {{ let t = [{numbers}]; }}");
        assert!(!rust(&text).contains('7'));
    }

    #[test]
    fn brackets_nested_too_deep_leave_the_text_whole() {
        let text = format!(
            "const A: u8 = {}{}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(rust(&text), text.as_str());
    }

    #[test]
    fn multibyte_characters_inside_become_spaces() {
        let inner = long("é, ");
        let text = format!("const S: &[&str] = &[{inner}];");
        let quiet = rust(&text);
        assert_eq!(quiet.len(), text.len());
        assert!(!quiet.contains('é'));
    }
}
