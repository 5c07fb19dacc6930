//! Line-level tolerant matching (SPEC E9), tried only when nothing matched
//! exactly: `old_string`'s lines must each equal a run of the file's lines
//! once trailing whitespace is ignored, typography folded, and the
//! indentation shifted by one consistent amount. Every line must match — a
//! block is never accepted on its first and last lines alone. The new text is
//! re-indented by the same shift.

use crate::edit::fold::{Level, fold};
use crate::report::Tolerance;

/// One tolerant match: the file span and what replaces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineMatch {
    /// Bytes of the view replaced.
    pub span: (usize, usize),
    /// The re-indented new text.
    pub replacement: String,
    /// How the lines differed.
    pub notes: Vec<Tolerance>,
}

/// How the file's indentation relates to `old_string`'s.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shift {
    Same,
    /// The file is indented by this much more.
    Deeper(String),
    /// The file is indented by this much less.
    Shallower(String),
}

/// A line split into folded indentation and folded content, trailing
/// whitespace dropped.
fn key(line: &str) -> (String, String) {
    let folded = fold(line, Level::Typography);
    let trimmed = folded.trim_end();
    let content = trimmed.trim_start();
    let indent = trimmed[..trimmed.len() - content.len()].to_owned();
    (indent, content.to_owned())
}

fn shift_of(file_indent: &str, old_indent: &str) -> Option<Shift> {
    if file_indent == old_indent {
        Some(Shift::Same)
    } else if let Some(extra) = file_indent.strip_prefix(old_indent) {
        Some(Shift::Deeper(extra.to_owned()))
    } else {
        old_indent
            .strip_prefix(file_indent)
            .map(|extra| Shift::Shallower(extra.to_owned()))
    }
}

fn reindent(new: &str, shift: &Shift) -> String {
    let mut out = String::with_capacity(new.len() + 16);
    for line in new.split_inclusive('\n') {
        if line.trim().is_empty() {
            out.push_str(line);
            continue;
        }
        match shift {
            Shift::Same => out.push_str(line),
            Shift::Deeper(extra) => {
                out.push_str(extra);
                out.push_str(line);
            }
            Shift::Shallower(extra) => {
                out.push_str(line.strip_prefix(extra.as_str()).unwrap_or(line));
            }
        }
    }
    out
}

/// Every place where `old`'s lines match a run of `view`'s lines tolerantly.
pub(crate) fn find(view: &str, old: &str, new: &str) -> Vec<LineMatch> {
    let ends_with_newline = old.ends_with('\n');
    let old_lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
    if old_lines.iter().all(|l| l.trim().is_empty()) {
        return Vec::new();
    }
    let old_keys: Vec<(String, String)> = old_lines.iter().map(|l| key(l)).collect();
    let file_lines: Vec<&str> = view.split('\n').collect();
    let mut starts = Vec::with_capacity(file_lines.len());
    let mut at = 0;
    for line in &file_lines {
        starts.push(at);
        at += line.len() + 1;
    }
    let n = old_lines.len();
    let mut matches = Vec::new();
    if file_lines.len() < n {
        return matches;
    }
    let mut cache: Vec<Option<(String, String)>> = vec![None; file_lines.len()];
    'windows: for j in 0..=file_lines.len() - n {
        let mut shift: Option<Shift> = None;
        let mut notes = Vec::new();
        for i in 0..n {
            let file_key = cache[j + i].get_or_insert_with(|| key(file_lines[j + i]));
            let (old_indent, old_content) = &old_keys[i];
            if file_key.1 != *old_content {
                continue 'windows;
            }
            if old_content.is_empty() {
                continue;
            }
            let Some(this) = shift_of(&file_key.0, old_indent) else {
                continue 'windows;
            };
            match &shift {
                Some(known) if *known != this => continue 'windows,
                _ => shift = Some(this),
            }
            let (file_line, old_line) = (file_lines[j + i], old_lines[i]);
            if file_line[file_line.trim_end().len()..] != old_line[old_line.trim_end().len()..] {
                notes.push(Tolerance::TrailingSpace);
            }
            if file_line.trim() != old_line.trim() {
                notes.push(Tolerance::Typography);
            }
        }
        let shift = shift.unwrap_or(Shift::Same);
        if shift != Shift::Same {
            notes.push(Tolerance::Indentation);
        }
        notes.sort_by_key(|t| *t as u8);
        notes.dedup();
        let last = j + n - 1;
        let mut end = starts[last] + file_lines[last].len();
        if ends_with_newline && last + 1 < file_lines.len() {
            end += 1;
        }
        matches.push(LineMatch {
            span: (starts[j], end),
            replacement: reindent(new, &shift),
            notes,
        });
    }
    matches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_is_shifted_consistently() {
        let view = "fn a() {\n        let x = 1;\n        let y = 2;\n}\n";
        let found = find(
            view,
            "    let x = 1;\n    let y = 2;\n",
            "    let x = 3;\n    if x {\n        go();\n    }\n",
        );
        assert_eq!(found.len(), 1);
        let m = &found[0];
        assert_eq!(
            &view[m.span.0..m.span.1],
            "        let x = 1;\n        let y = 2;\n"
        );
        assert_eq!(
            m.replacement,
            "        let x = 3;\n        if x {\n            go();\n        }\n"
        );
        assert_eq!(m.notes, vec![Tolerance::Indentation]);
    }

    #[test]
    fn inconsistent_indentation_does_not_match() {
        let view = "  a\n      b\n";
        assert!(find(view, "a\nb", "x").is_empty());
    }

    #[test]
    fn trailing_whitespace_is_ignored_and_reported() {
        let found = find("x = 1;   \ny = 2;\n", "x = 1;\ny = 2;", "z");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].span, (0, 16));
        assert_eq!(found[0].notes, vec![Tolerance::TrailingSpace]);
    }

    #[test]
    fn every_line_must_match_not_just_the_ends() {
        let view = "start\nmiddle one\nend\n";
        assert!(find(view, "start\nmiddle two\nend", "x").is_empty());
    }

    #[test]
    fn two_places_are_both_reported() {
        let found = find("  a\n  b\n\n    a\n    b\n", "a\nb", "c\nd");
        assert_eq!(found.len(), 2);
    }
}
