//! The text pager: any bytes, read with any range and budget, give one
//! answer within the output budget; a page that says where to continue
//! names a line past its own start, and reading from there answers too.

#![no_main]

use filetools_core::{Config, MemFs, ReadArgs, Session};
use libfuzzer_sys::fuzz_target;

/// Room beyond the budget for the notes that close a page (the range, the
/// next offset, a cut line's length).
const NOTE_BYTES: u64 = 512;

fn session(budget_tokens: u64, line_chars: u64, fs: MemFs) -> Option<Session<MemFs>> {
    let config = Config::from_json(&format!(
        r#"{{"max_output_tokens": {budget_tokens}, "max_line_chars": {line_chars}, "dedup": false}}"#
    ))
    .ok()?;
    Some(Session::new(config, fs))
}

/// The number after the last `name=` in `text`.
fn number_after(text: &str, name: &str) -> Option<u64> {
    let at = text.rfind(name)? + name.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The line (and character in it) a page's footer says to continue from.
/// Only a line that starts with `[` is a footer: the file's own lines come
/// numbered, so a file that says "continue with offset=" says nothing.
fn next_position(text: &str) -> Option<(u64, Option<u64>)> {
    let footer = text
        .lines()
        .rev()
        .find(|line| line.starts_with('[') && line.contains("continue with offset="))?;
    let line = number_after(footer, "continue with offset=")?;
    Some((line, number_after(footer, "char_offset=")))
}

fuzz_target!(|data: &[u8]| {
    let [a, b, c, d, e, content @ ..] = data else {
        return;
    };
    let budget_tokens = 256 + u64::from(*a) * 64;
    let line_chars = 1 + u64::from(*b) * 8;
    let offset = (*c != 0).then(|| u64::from(*c));
    let limit = (*d != 0).then(|| u64::from(*d));
    let char_offset = (*e > 200).then(|| u64::from(*e - 200) * 16);
    let fs = MemFs::new();
    fs.add_file("page.txt", content);
    let Some(mut session) = session(budget_tokens, line_chars, fs) else {
        return;
    };
    let read = |session: &mut Session<MemFs>, offset: Option<u64>, char_offset: Option<u64>| {
        session.read(&ReadArgs {
            file_path: "page.txt".into(),
            offset,
            limit,
            char_offset,
            ..ReadArgs::default()
        })
    };
    let page = read(&mut session, offset, char_offset);
    let text = page.text();
    let budget = budget_tokens * 4;
    assert!(
        text.len() as u64 <= budget + NOTE_BYTES,
        "{} bytes for a budget of {budget}",
        text.len()
    );
    if !page.is_error
        && let Some(next) = next_position(&text)
    {
        let here = (offset.unwrap_or(1), char_offset.unwrap_or(1));
        assert!(
            (next.0, next.1.unwrap_or(1)) > here,
            "next {next:?} from {here:?}: {}",
            &text[text.ceil_char_boundary(text.len().saturating_sub(600))..]
        );
        let after = read(&mut session, Some(next.0), next.1);
        assert!(!after.is_error, "{}", after.text());
    }
});
