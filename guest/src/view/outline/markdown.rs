//! Markdown outline: the heading tree (ATX `#` and setext underlines), each
//! section running to the next heading of its level or higher; headings in
//! fenced code blocks and front matter are not headings.

use super::Symbol;
use super::nest::{empty, last_line, nest, trim};

/// The heading tree of `text`.
pub(crate) fn headings(text: &str) -> Vec<Symbol> {
    let mut flat = Vec::new();
    let mut fence: Option<(u8, usize)> = None;
    let mut previous: Option<(u64, &str)> = None;
    let mut front_matter = text.starts_with("---\n") || text.starts_with("---\r\n");
    for (index, raw) in text.split('\n').enumerate() {
        let number = index as u64 + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if front_matter {
            if number > 1 && (line == "---" || line == "...") {
                front_matter = false;
            }
            continue;
        }
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if let Some(marker) = fence_marker(trimmed).filter(|_| indent < 4) {
            match fence {
                None => fence = Some(marker),
                Some((ch, len)) if ch == marker.0 && marker.1 >= len => fence = None,
                Some(_) => {}
            }
            previous = None;
            continue;
        }
        if fence.is_some() {
            continue;
        }
        if indent < 4 {
            if let Some((level, title)) = atx(trimmed) {
                flat.push((level, Symbol::on_line(title, number)));
                previous = None;
                continue;
            }
            if let (Some(level), Some((start, title))) = (setext(trimmed), previous) {
                flat.push((level, Symbol::on_line(title, start)));
                previous = None;
                continue;
            }
        }
        previous = (!trimmed.is_empty() && indent < 4).then_some((number, trimmed.trim_end()));
    }
    let mut tree = nest(flat, last_line(text));
    trim(&mut tree, &text.split('\n').collect::<Vec<_>>(), empty);
    tree
}

fn fence_marker(line: &str) -> Option<(u8, usize)> {
    let ch = *line.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = line.bytes().take_while(|&b| b == ch).count();
    (len >= 3).then_some((ch, len))
}

/// `## Title ##` → (2, "Title").
fn atx(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    let title = rest.trim();
    let title = title.trim_end_matches('#').trim_end();
    Some((level, if title.is_empty() { "#" } else { title }))
}

/// A setext underline: `===` (level 1) or `---` (level 2).
fn setext(line: &str) -> Option<usize> {
    let line = line.trim_end();
    if line.is_empty() {
        return None;
    }
    if line.bytes().all(|b| b == b'=') {
        Some(1)
    } else if line.bytes().all(|b| b == b'-') {
        Some(2)
    } else {
        None
    }
}
