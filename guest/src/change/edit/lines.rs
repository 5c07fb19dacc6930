//! Line-level tolerant matching (SPEC E9), tried only when nothing matched
//! exactly: `old_string`'s lines must each equal a run of the file's lines
//! once trailing whitespace is ignored, typography folded, and the
//! indentation shifted by one consistent amount. Every line must match — a
//! block is never accepted on its first and last lines alone. The new text is
//! re-indented by the same shift. When no shift fits, the indentation unit
//! may differ instead (tabs against spaces, 2 spaces against 4): if every
//! line's depth in `old_string`'s unit is its depth in the file's unit, one
//! constant apart, it matches, and the new text is re-indented into the
//! file's unit. Never when a depth is not a whole number of units.

use crate::answers::report::{IndentUnit as Unit, Tolerance};
use crate::text::fold::{Level, fold};

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
    let starts = line_starts(&file_lines);
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
        notes.sort();
        notes.dedup();
        let replacement = reindent(new, &shift);
        matches.push(LineMatch {
            span: span(&starts, &file_lines, j..j + n, ends_with_newline),
            replacement: keep_trailing(&replacement, &file_lines[j..j + n]),
            notes,
        });
    }
    if matches.is_empty() {
        return in_other_unit(view, &old_lines, &old_keys, new, ends_with_newline);
    }
    matches
}

/// `replacement` with the trailing whitespace of the file's lines it leaves
/// unchanged put back (Markdown's two-space line break, for one): a line of
/// it without trailing whitespace that equals one of `window` but for that
/// whitespace takes the file's line. Lines are paired in order, so a line
/// inserted between kept ones does not shift the pairing.
fn keep_trailing(replacement: &str, window: &[&str]) -> String {
    let mut out = String::with_capacity(replacement.len());
    let mut next = 0;
    for line in replacement.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let bare = body.trim_end().len() == body.len() && !body.is_empty();
        let found = bare
            .then(|| {
                window[next..]
                    .iter()
                    .position(|file| file.trim_end() == body)
            })
            .flatten();
        match found {
            Some(at) => {
                out.push_str(window[next + at]);
                out.push_str(end);
                next += at + 1;
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The byte offset where each of `lines` (a text split at `\n`) starts.
fn line_starts(lines: &[&str]) -> Vec<usize> {
    let mut at = 0;
    lines
        .iter()
        .map(|line| {
            let start = at;
            at += line.len() + 1;
            start
        })
        .collect()
}

/// The bytes of `lines` in `window`, with the last one's `\n` when
/// `old_string` ended with one and the file has it.
fn span(
    starts: &[usize],
    lines: &[&str],
    window: std::ops::Range<usize>,
    with_newline: bool,
) -> (usize, usize) {
    let last = window.end - 1;
    let mut end = starts[last] + lines[last].len();
    if with_newline && last + 1 < lines.len() {
        end += 1;
    }
    (starts[window.start], end)
}

impl Unit {
    /// The depth of `indent` in this unit, when it is a whole number of it.
    fn depth(self, indent: &str) -> Option<usize> {
        match self {
            Unit::Tab => indent.bytes().all(|b| b == b'\t').then_some(indent.len()),
            Unit::Spaces(width) => (indent.bytes().all(|b| b == b' ')
                && indent.len().is_multiple_of(width))
            .then_some(indent.len() / width),
        }
    }

    fn indent(self, depth: usize) -> String {
        match self {
            Unit::Tab => "\t".repeat(depth),
            Unit::Spaces(width) => " ".repeat(width * depth),
        }
    }
}

/// The unit of a set of indentations: tabs when all are tabs, else the
/// greatest common width of space-only ones; `None` when they mix tabs and
/// spaces, none is indented, or the width is one space (alignment, not a
/// unit).
fn unit_of<'a>(indents: impl Iterator<Item = &'a str>) -> Option<Unit> {
    let (mut tabs, mut width) = (false, 0usize);
    for indent in indents.filter(|i| !i.is_empty()) {
        if indent.bytes().all(|b| b == b'\t') {
            tabs = true;
        } else if indent.bytes().all(|b| b == b' ') {
            width = gcd(width, indent.len());
        } else {
            return None;
        }
        if tabs && width > 0 {
            return None;
        }
    }
    match (tabs, width) {
        (true, _) => Some(Unit::Tab),
        (false, 0 | 1) => None,
        (false, w) => Some(Unit::Spaces(w)),
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The leading whitespace of `line`.
fn leading(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// Matches in another indentation unit (see the module's doc): `old`'s and
/// the file's units must both be clear and differ, and every non-blank line
/// must be one constant number of levels deeper in the file.
fn in_other_unit(
    view: &str,
    old_lines: &[&str],
    old_keys: &[(String, String)],
    new: &str,
    ends_with_newline: bool,
) -> Vec<LineMatch> {
    let file_lines: Vec<&str> = view.split('\n').collect();
    // old_string's unit is read from new_string's lines too: together they
    // show how the model indents.
    let Some(from) = unit_of(old_lines.iter().copied().chain(new.lines()).map(leading)) else {
        return Vec::new();
    };
    let Some(to) = unit_of(
        file_lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| leading(l)),
    ) else {
        return Vec::new();
    };
    let n = old_lines.len();
    if from == to || file_lines.len() < n {
        return Vec::new();
    }
    let old_depths: Option<Vec<usize>> = old_lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| from.depth(leading(l)))
        .collect();
    let Some(old_depths) = old_depths else {
        return Vec::new();
    };
    let starts = line_starts(&file_lines);
    let mut matches = Vec::new();
    'windows: for j in 0..=file_lines.len() - n {
        let mut levels: Option<isize> = None;
        let mut depths = old_depths.iter();
        for i in 0..n {
            let (_, old_content) = &old_keys[i];
            if key(file_lines[j + i]).1 != *old_content {
                continue 'windows;
            }
            if old_content.is_empty() {
                continue;
            }
            let (Some(&old_depth), Some(file_depth)) =
                (depths.next(), to.depth(leading(file_lines[j + i])))
            else {
                continue 'windows;
            };
            let this = file_depth.cast_signed() - old_depth.cast_signed();
            match levels {
                Some(known) if known != this => continue 'windows,
                _ => levels = Some(this),
            }
        }
        let Some(replacement) = reunit(new, from, to, levels.unwrap_or(0)) else {
            continue;
        };
        matches.push(LineMatch {
            span: span(&starts, &file_lines, j..j + n, ends_with_newline),
            replacement,
            notes: vec![Tolerance::IndentUnit {
                sent: from,
                file: to,
            }],
        });
    }
    matches
}

/// `new` with each line's indentation moved from unit `from` to unit `to`,
/// `levels` deeper; `None` when a line's indentation is not a whole number
/// of `from` or would go below zero.
fn reunit(new: &str, from: Unit, to: Unit, levels: isize) -> Option<String> {
    let mut out = String::with_capacity(new.len() + 16);
    for line in new.split_inclusive('\n') {
        if line.trim().is_empty() {
            out.push_str(line);
            continue;
        }
        let indent = leading(line);
        let depth = from.depth(indent)?.checked_add_signed(levels)?;
        out.push_str(&to.indent(depth));
        out.push_str(&line[indent.len()..]);
    }
    Some(out)
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
    fn spaces_in_old_string_match_a_tab_indented_file_and_new_text_gets_tabs() {
        let view = "def f(x):\n\tif x:\n\t\treturn 1\n\treturn 0\n";
        let found = find(
            view,
            "    if x:\n        return 1\n",
            "    if x:\n        log(x)\n        return 2\n",
        );
        assert_eq!(found.len(), 1);
        let m = &found[0];
        assert_eq!(&view[m.span.0..m.span.1], "\tif x:\n\t\treturn 1\n");
        assert_eq!(m.replacement, "\tif x:\n\t\tlog(x)\n\t\treturn 2\n");
        assert_eq!(
            m.notes,
            vec![Tolerance::IndentUnit {
                sent: Unit::Spaces(4),
                file: Unit::Tab
            }]
        );
    }

    #[test]
    fn trailing_whitespace_of_kept_lines_stays() {
        let view = "first line  \nsecond line\nthird\n";
        let found = find(
            view,
            "first line\nsecond line\n",
            "first line\nnew line\nsecond LINE\n",
        );
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].replacement,
            "first line  \nnew line\nsecond LINE\n"
        );
        assert_eq!(found[0].notes, vec![Tolerance::TrailingSpace]);
    }

    #[test]
    fn two_space_old_string_matches_a_four_space_file_at_depth() {
        let view = "class A:\n    def f(self):\n        if x:\n            go()\n";
        let found = find(view, "if x:\n  go()", "if x:\n  stop()\n  go()");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].replacement,
            "        if x:\n            stop()\n            go()"
        );
    }

    #[test]
    fn a_mapping_that_is_not_whole_units_or_consistent_does_not_match() {
        let view = "\tif x:\n\t\treturn 1\n";
        // Three spaces are not a whole number of old_string's 2-space unit.
        assert!(find(view, "  if x:\n     return 1", "x").is_empty());
        // One level apart on the first line, two on the second.
        assert!(find(view, "    if x:\n    return 1", "x").is_empty());
        // new_string indented off the unit: refused rather than guessed.
        assert!(
            find(
                view,
                "    if x:\n        return 1",
                "    if x:\n      return 2"
            )
            .is_empty()
        );
    }

    #[test]
    fn a_file_or_strings_without_a_clear_unit_do_not_remap() {
        // The file mixes in one-space alignment: its unit is unclear.
        let view = "\tif x:\n\t\treturn 1\n \tpad\n";
        assert!(
            find(
                view,
                "    if x:\n        return 1",
                "    if x:\n        return 2"
            )
            .is_empty()
        );
        let spaced = "if x:\n   a\n    b\n";
        assert!(find(spaced, "if x:\n\ta", "if x:\n\tb").is_empty());
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
