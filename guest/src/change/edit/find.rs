//! Finding `old_string` (SPEC E1, E2, E6, E9), most exact first:
//!
//! 1. the exact text;
//! 2. straight and curly quotes folded together (the file's quote style is
//!    carried into the new text);
//! 3. both again with read's line-number gutter removed from the strings,
//!    when every line carries one;
//! 4. an "already applied" check: `old_string` absent and `new_string`
//!    standing where it would have been — once, meaningfully (whole lines,
//!    or at least [`MIN_APPLIED_CHARS`] characters), on the lines nearest
//!    to `old_string` with none of `old_string`'s other lines still nearly
//!    standing beside it, and no other place holding `old_string` with one
//!    line changed (when nothing resembles `old_string`, sharing a whole
//!    line of context with it). Anything less is "not found", with the
//!    nearest lines;
//! 5. only without `replace_all`: typography folded (dashes, spaces, widths,
//!    NFC/NFD), then whole lines ignoring trailing whitespace and a consistent
//!    indentation shift.
//!
//! Each step enforces uniqueness in its own space: two candidates are an
//! error that lists both, never a guess.

use crate::text::textfile::line_of;
use memchr::memmem;

use crate::answers::refusal::Nearest;
use crate::answers::report::Tolerance;
use crate::change::args::EditOp;
use crate::change::echo::strip_gutter;
use crate::change::edit::nearest::{nearest, nearly};
use crate::change::edit::{lines, quotes};
use crate::text::fold::{Folded, Level, fold};

/// Where an edit goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    /// Sorted, disjoint byte spans of the view to replace.
    pub spans: Vec<(usize, usize)>,
    /// What replaces each span.
    pub with: Vec<String>,
    /// How the text was found, when not exactly.
    pub notes: Vec<Tolerance>,
}

/// Why an edit cannot go anywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Miss {
    /// Nothing matches.
    NoMatch(Option<Nearest>),
    /// Several places match.
    Ambiguous {
        /// Byte offsets of the matches.
        starts: Vec<usize>,
        /// Whether tolerant matching found them.
        tolerant: bool,
    },
    /// `new_string` is there and `old_string` is not.
    AlreadyApplied {
        /// Byte offset of `new_string`.
        at: usize,
    },
}

type Step = Result<Option<Found>, Miss>;

/// Characters (spaces not counted) a `new_string` that is not whole lines
/// needs before finding it can mean the edit was already made: shorter
/// text (`}`, `x`, `+= 1`) turns up everywhere.
pub const MIN_APPLIED_CHARS: usize = 16;

/// Where `new` stands in `view` as the result of this very edit, when the
/// edit was already made (`old` being absent): once, meaningfully, and where
/// `old` would have been, with nothing of `old` left standing (see
/// [`placed`]).
fn already_applied(view: &str, old: &str, new: &str) -> Option<usize> {
    if new.trim().is_empty() {
        return None;
    }
    let mut hits = memmem::find_iter(view.as_bytes(), new.as_bytes());
    let at = hits.next()?;
    if hits.next().is_some() {
        return None;
    }
    let end = at + new.len();
    let whole_lines = blank_to_line_start(view, at) && blank_to_line_end(view, end);
    let long = new.chars().filter(|c| !c.is_whitespace()).count() >= MIN_APPLIED_CHARS;
    if !(whole_lines || long) {
        return None;
    }
    let (first, last) = (
        line_of(view, at),
        line_of(view, end.saturating_sub(1).max(at)),
    );
    placed(view, old, new, (first, last)).then_some(at)
}

/// Whether `new`, on lines `first..=last` of `view`, stands where `old`
/// was and `old` is gone: the nearest near-miss of `old` (the place a
/// "not found" would point to) lies on those lines, no line of it beside
/// them still nearly holds `old`'s line there, and no other place holds
/// `old` with only one line changed. When nothing resembles `old`, `new`
/// must keep a whole first or last line of it as context.
fn placed(view: &str, old: &str, new: &str, (first, last): (u64, u64)) -> bool {
    let Some(near) = nearest(view, old) else {
        return shares_a_line(old, new);
    };
    if near.first > last || first > near.last {
        return false;
    }
    let file_lines = lines_of(view);
    let old_lines = lines_of(old);
    let beside = (near.first..).zip(&old_lines).any(|(line, old_line)| {
        (line < first || line > last)
            && !old_line.trim().is_empty()
            && file_lines
                .get(usize::try_from(line - 1).unwrap_or(usize::MAX))
                .is_some_and(|file_line| nearly(file_line, old_line))
    });
    !beside && !stands_elsewhere(&file_lines, &old_lines, (first, last))
}

/// Whether, with lines `first..=last` blanked out, some other place of the
/// file holds `old` with at most one line changed (of three lines or more),
/// or nearly holds every line of it (one or two lines): then `old` may have
/// been changed there by someone else, and nothing proves this edit made.
fn stands_elsewhere(file_lines: &[&str], old_lines: &[&str], (first, last): (u64, u64)) -> bool {
    let blanked: Vec<&str> = (1..)
        .zip(file_lines)
        .map(|(line, text)| {
            if (first..=last).contains(&line) {
                ""
            } else {
                text
            }
        })
        .collect();
    let Some(near) = nearest(&blanked.join("\n"), &old_lines.join("\n")) else {
        return false;
    };
    let at = usize::try_from(near.first - 1).unwrap_or(usize::MAX);
    if old_lines.len() < 3 {
        return old_lines.iter().enumerate().all(|(i, old_line)| {
            old_line.trim().is_empty()
                || blanked
                    .get(at.saturating_add(i))
                    .is_some_and(|f| !f.trim().is_empty() && nearly(f, old_line))
        });
    }
    let changed = old_lines
        .iter()
        .enumerate()
        .filter(|&(i, old_line)| {
            blanked
                .get(at + i)
                .is_none_or(|f| f.trim() != old_line.trim())
        })
        .count();
    changed <= 1
}

/// `text`'s lines, a final line end making no empty last line.
fn lines_of(text: &str) -> Vec<&str> {
    text.strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect()
}

/// Whether only spaces and tabs lie between the start of `at`'s line and `at`.
fn blank_to_line_start(view: &str, at: usize) -> bool {
    view[..at]
        .rsplit('\n')
        .next()
        .is_none_or(|rest| rest.trim().is_empty())
}

/// Whether only spaces and tabs lie between `end` and the end of its line.
fn blank_to_line_end(view: &str, end: usize) -> bool {
    view[end..]
        .split('\n')
        .next()
        .is_none_or(|rest| rest.trim().is_empty())
}

/// Whether `old` and `new` begin or end with the same whole line: the edit
/// changed what lies between, in context the file still has.
fn shares_a_line(old: &str, new: &str) -> bool {
    let (old, new) = (old.trim_end_matches('\n'), new.trim_end_matches('\n'));
    let (Some((old_first, _)), Some((new_first, _))) = (old.split_once('\n'), new.split_once('\n'))
    else {
        return false;
    };
    let old_last = old.rsplit('\n').next().unwrap_or_default();
    let new_last = new.rsplit('\n').next().unwrap_or_default();
    (!old_first.trim().is_empty() && old_first == new_first)
        || (!old_last.trim().is_empty() && old_last == new_last)
}

/// Decides where `op` applies in `view`.
pub(crate) fn find(view: &str, op: &EditOp) -> Result<Found, Miss> {
    let mut tries = vec![(op.old_string.clone(), op.new_string.clone(), None)];
    if let Some(old) = strip_gutter(&op.old_string) {
        let new = strip_gutter(&op.new_string).unwrap_or_else(|| op.new_string.clone());
        tries.push((old, new, Some(Tolerance::Gutter)));
    }
    for (old, new, note) in &tries {
        if let Some(found) = exact(view, old, new, op.replace_all, *note)? {
            return Ok(found);
        }
        if let Some(found) = folded(view, old, new, op.replace_all, Level::Quotes, *note)? {
            return Ok(found);
        }
    }
    for (old, new, _) in &tries {
        if let Some(at) = already_applied(view, old, new) {
            return Err(Miss::AlreadyApplied { at });
        }
    }
    if !op.replace_all {
        for (old, new, note) in &tries {
            if let Some(found) = folded(view, old, new, false, Level::Typography, *note)? {
                return Ok(found);
            }
            if let Some(found) = by_lines(view, old, new, *note)? {
                return Ok(found);
            }
        }
    }
    Err(Miss::NoMatch(nearest(view, &op.old_string)))
}

fn with_note(mut notes: Vec<Tolerance>, note: Option<Tolerance>) -> Vec<Tolerance> {
    if let Some(note) = note {
        notes.insert(0, note);
    }
    notes
}

fn decide(
    spans: Vec<(usize, usize)>,
    with: Vec<String>,
    replace_all: bool,
    tolerant: bool,
    notes: Vec<Tolerance>,
) -> Step {
    match spans.len() {
        0 => Ok(None),
        1 => Ok(Some(Found { spans, with, notes })),
        _ if replace_all => Ok(Some(Found { spans, with, notes })),
        _ => Err(Miss::Ambiguous {
            starts: spans.iter().map(|s| s.0).collect(),
            tolerant,
        }),
    }
}

fn exact(view: &str, old: &str, new: &str, replace_all: bool, note: Option<Tolerance>) -> Step {
    if old.is_empty() {
        return Ok(None);
    }
    let spans: Vec<(usize, usize)> = memmem::find_iter(view.as_bytes(), old.as_bytes())
        .map(|at| (at, at + old.len()))
        .collect();
    let with = vec![new.to_owned(); spans.len()];
    decide(spans, with, replace_all, false, with_note(Vec::new(), note))
}

fn folded(
    view: &str,
    old: &str,
    new: &str,
    replace_all: bool,
    level: Level,
    note: Option<Tolerance>,
) -> Step {
    let needle = fold(old, level);
    // Without quotes in the needle, folding quotes finds what exact did.
    if needle.is_empty() || (level == Level::Quotes && !needle.contains(['\'', '"'])) {
        return Ok(None);
    }
    let haystack = Folded::new(view, level);
    let spans: Vec<(usize, usize)> = memmem::find_iter(haystack.text.as_bytes(), needle.as_bytes())
        .filter_map(|at| haystack.source_span(at, at + needle.len()))
        .collect();
    let with = spans
        .iter()
        .map(|&(start, end)| quotes::carry(new, &view[start..end]))
        .collect();
    let kind = match level {
        Level::Quotes => Tolerance::Quotes,
        Level::Typography => Tolerance::Typography,
    };
    decide(
        spans,
        with,
        replace_all,
        level == Level::Typography,
        with_note(vec![kind], note),
    )
}

fn by_lines(view: &str, old: &str, new: &str, note: Option<Tolerance>) -> Step {
    let found = lines::find(view, old, new);
    match found.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(Found {
            spans: vec![one.span],
            with: vec![one.replacement.clone()],
            notes: with_note(one.notes.clone(), note),
        })),
        many => Err(Miss::Ambiguous {
            starts: many.iter().map(|m| m.span.0).collect(),
            tolerant: true,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(old: &str, new: &str) -> EditOp {
        EditOp {
            old_string: old.into(),
            new_string: new.into(),
            replace_all: false,
        }
    }

    #[test]
    fn exact_text_wins() {
        let found = find("a b c", &op("b", "B")).unwrap();
        assert_eq!(found.spans, vec![(2, 3)]);
        assert!(found.notes.is_empty());
    }

    #[test]
    fn several_exact_matches_need_replace_all() {
        assert_eq!(
            find("x x", &op("x", "y")),
            Err(Miss::Ambiguous {
                starts: vec![0, 2],
                tolerant: false
            })
        );
        let all = EditOp {
            replace_all: true,
            ..op("x", "y")
        };
        assert_eq!(find("x x", &all).unwrap().spans.len(), 2);
    }

    #[test]
    fn curly_quotes_in_the_file_match_straight_ones_and_are_kept() {
        let view = "say “hello” now";
        let found = find(view, &op("\"hello\"", "\"goodbye\"")).unwrap();
        assert_eq!(found.with, vec!["“goodbye”".to_owned()]);
        assert_eq!(found.notes, vec![Tolerance::Quotes]);
    }

    #[test]
    fn gutters_copied_from_read_are_removed() {
        let view = "fn a() {}\nfn b() {}\n";
        let found = find(view, &op("2\tfn b() {}", "2\tfn c() {}")).unwrap();
        assert_eq!(found.with, vec!["fn c() {}".to_owned()]);
        assert_eq!(found.notes, vec![Tolerance::Gutter]);
    }

    #[test]
    fn an_applied_edit_is_recognised() {
        assert_eq!(
            find("let x = 2;", &op("let x = 1;", "let x = 2;")),
            Err(Miss::AlreadyApplied { at: 0 })
        );
    }

    #[test]
    fn new_text_found_elsewhere_is_not_an_applied_edit() {
        let view = "fn f() {\n    count = count + 1\n    x\n    count += 1\n}\n";
        // The new text is on line 4; the old text would have been line 2.
        let miss = find(view, &op("count = count + 2", "count += 1")).unwrap_err();
        let Miss::NoMatch(Some(nearest)) = miss else {
            panic!("{miss:?}")
        };
        assert_eq!(nearest.line, 2);
        // Text found everywhere proves nothing.
        for new in ["}", "x", "count"] {
            assert!(
                matches!(find(view, &op("zzz qqq", new)), Err(Miss::NoMatch(_))),
                "{new}"
            );
        }
    }

    #[test]
    fn an_applied_edit_is_recognised_by_its_place_or_its_context() {
        let view = "a\nfn handler(request: Request) {\n    respond(request)\n}\n";
        let old = "fn handler(request: Request) {\n    reply(request)\n}";
        let new = "fn handler(request: Request) {\n    respond(request)\n}";
        assert!(matches!(
            find(view, &op(old, new)),
            Err(Miss::AlreadyApplied { at: 2 })
        ));
        assert!(matches!(
            find("    total += 1\n", &op("total = total + 1", "total += 1")),
            Err(Miss::AlreadyApplied { at: 4 })
        ));
    }

    fn applied(view: &str, old: &str, new: &str) -> bool {
        match find(view, &op(old, new)) {
            Err(Miss::AlreadyApplied { .. }) => true,
            Err(Miss::NoMatch(_)) => false,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_removed_line_still_standing_changed_is_not_an_applied_deletion() {
        let old = "    retries = 3\n    timeout = 30\n";
        let new = "    timeout = 30\n";
        assert!(!applied(
            "[net]\n    retries = 5\n    timeout = 30\n",
            old,
            new
        ));
        assert!(!applied("x = 10\ny = 2\n", "x = 1\ny = 2", "y = 2"));
        // Gone, with its context kept: applied.
        let old = "open(path)\n    retries = 3\n    timeout = 30\n";
        let new = "open(path)\n    timeout = 30\n";
        assert!(applied(
            "[net]\nopen(path)\n    timeout = 30\nend\n",
            old,
            new
        ));
    }

    #[test]
    fn the_old_block_standing_elsewhere_with_one_line_changed_is_not_applied() {
        let old = "let rows = load(path)?;\nlet count = rows.len();\nprintln!(\"{count} rows\");\n";
        let new = "let rows = load(path)?;\nlet count = rows.iter().count();\nprintln!(\"{count} rows\");\n";
        let both = format!(
            "fn a() {{\n{new}}}\nfn b() {{\nlet rows = load(path)?;\nlet count = rows.len();\nprintln!(\"{{count}} rows loaded\");\n}}\n"
        );
        assert!(!applied(&both, old, new));
        // Only the new block: applied.
        assert!(applied(&format!("fn a() {{\n{new}}}\n"), old, new));
    }

    #[test]
    fn a_single_line_near_miss_beside_the_new_line_is_not_applied() {
        assert!(!applied(
            "let x = 3;\nlet x = 2;\n",
            "let x = 1;",
            "let x = 2;"
        ));
        assert!(!applied(
            "let limit = 10;\nlet limit = 20;\n",
            "let limit = 15;",
            "let limit = 20;"
        ));
        assert!(applied(
            "use std::io;\nlet x = 2;\n",
            "let x = 1;",
            "let x = 2;"
        ));
    }

    #[test]
    fn a_near_miss_standing_apart_leaves_the_edit_unproven() {
        assert!(!applied(
            "let x = 2;\nfoo();\nlet x = 3;\n",
            "let x = 1;",
            "let x = 2;"
        ));
        assert!(applied(
            "let x = 2;\nfoo();\nbar();\n",
            "let x = 1;",
            "let x = 2;"
        ));
    }

    #[test]
    fn an_applied_insertion_or_rewrite_in_its_context_is_recognised() {
        let old = "fn main() {\n    run();\n";
        let new = "fn main() {\n    setup();\n    run();\n";
        assert!(applied(
            "// app\nfn main() {\n    setup();\n    run();\n}\n",
            old,
            new
        ));
        let old = "fn handler() {\n    reply(request)\n}";
        let new = "fn handler() {\n    let body = render(request);\n    send(body)\n}";
        assert!(applied(&format!("mod a;\n{new}\n"), old, new));
    }

    #[test]
    fn tolerance_is_never_used_for_replace_all() {
        let all = EditOp {
            replace_all: true,
            ..op("a-b", "c")
        };
        assert!(matches!(find("a\u{2014}b", &all), Err(Miss::NoMatch(_))));
        assert!(find("a\u{2014}b", &op("a-b", "c")).is_ok());
    }
}
