//! Recognises the tools' own display text when a model sends it back as file
//! content (SPEC W7, E6): read's line-number gutter (`12\t…`) and the dedup
//! stub. A write made of such text would put coordinates or notices into the
//! file; an `old_string` carrying the gutter can still be matched once the
//! gutter is removed.
//!
//! ```
//! use filetools_core::change::echo::{is_read_output, strip_gutter};
//! assert!(is_read_output("9\tfn a() {\n10\t}\n"));
//! assert!(is_read_output(" 9\tfn a() {\n10\t}\n"));
//! assert!(!is_read_output("1\tapple\n10\tbanana\n"));
//! assert_eq!(strip_gutter("12\tlet x = 1;\n13\tlet y = 2;").as_deref(), Some("let x = 1;\nlet y = 2;"));
//! ```

use crate::answers::notice::STUB_PREFIX;

/// A gutter at the start of `line`: `(number, width)` where width counts the
/// padding and digits before the tab.
fn gutter(line: &str) -> Option<(u64, usize)> {
    let tab = line.find('\t')?;
    let head = &line[..tab];
    let digits = head.trim_start_matches(' ');
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().ok()?, tab))
}

/// Lines of `text` that carry content: the empty rest after a final `\n`
/// and read's bracketed notices are not content.
fn content_lines(text: &str) -> impl Iterator<Item = &str> {
    text.strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .filter(|line| !(line.starts_with('[') && line.ends_with(']')))
}

/// Whether every line of `text` carries read's gutter, numbered
/// consecutively, either bare (`9\t`, `10\t`) or padded to one width as
/// `cat -n` and older pages pad it — a page of read output, not a table that
/// happens to start with numbers.
pub fn is_read_output(text: &str) -> bool {
    let mut expected: Option<(u64, usize)> = None;
    let mut lines = 0;
    for line in content_lines(text) {
        let Some((number, width)) = gutter(line) else {
            return false;
        };
        let bare = width == crate::view::read::gutter::digits(number) as usize;
        if let Some((next, w)) = expected
            && (number != next || (width != w && !bare))
        {
            return false;
        }
        expected = Some((number + 1, width));
        lines += 1;
    }
    lines > 0
}

/// `text` with read's gutter removed from every line, when every line has
/// one; `None` otherwise.
pub fn strip_gutter(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut any = false;
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        match gutter(line) {
            Some((_, width)) => {
                out.push_str(&line[width + 1..]);
                any = true;
            }
            None if line.is_empty() => {}
            None => return None,
        }
    }
    any.then_some(out)
}

/// Whether `text` is a dedup stub rather than file content.
pub fn is_stub(text: &str) -> bool {
    let text = text.trim();
    text.starts_with(STUB_PREFIX) && text.ends_with(']') && !text.contains('\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_pages_are_recognised_with_their_footer() {
        assert!(is_read_output(
            "1\talpha\n2\tbeta\n[lines 1-2 of 2; end of file]"
        ));
        assert!(is_read_output("   98\tx\n   99\t\n  100\ty\n"));
    }

    #[test]
    fn tables_and_code_are_not_read_output() {
        assert!(!is_read_output("id\tname\n1\tann\n"));
        assert!(!is_read_output("1\tann\n3\tbob\n"));
        assert!(!is_read_output("fn main() {}\n"));
        assert!(!is_read_output(""));
    }

    #[test]
    fn gutters_are_stripped_only_from_every_line() {
        assert_eq!(
            strip_gutter(" 7\ta\n 8\t\tb\n").as_deref(),
            Some("a\n\tb\n")
        );
        assert_eq!(strip_gutter("7\ta\nb"), None);
        assert_eq!(strip_gutter("plain"), None);
    }

    #[test]
    fn stubs_are_recognised() {
        assert!(is_stub(&format!(
            "{STUB_PREFIX} 2 calls ago; use that output]"
        )));
        assert!(!is_stub("[unchanged] but a real file\nwith lines"));
    }
}
