//! A file that changed since the model's view (SPEC V3, V4). The session
//! keeps the text the model last saw (`memory::seen`); when the file on
//! disk is no longer that text, the model is shown what changed — a capped
//! diff of its view against the file now — instead of being sent to read
//! it all again, and the lines shown count as seen. A change of some lines
//! lands on such a file when the lines it replaces, and
//! [`MERGE_CONTEXT_LINES`] around them, did not change: the other writer's
//! change is kept, and the answer shows it.

use std::fmt::Write as _;

use crate::change::hunks::{Hunk, hunks};
use crate::config::Config;
use crate::memory::ledger::Coverage;

/// Unchanged lines a merged change needs on each side of the lines it
/// replaces: a change next to another writer's is refused, as a
/// three-way merge of text would call it a conflict.
pub(crate) const MERGE_CONTEXT_LINES: usize = 1;

/// Places listed by their lines when their diff does not fit.
const MAX_LISTED_PLACES: usize = 10;

/// How a file's text moved from the model's view to another text.
#[derive(Debug, Clone)]
pub(crate) struct Since {
    /// The places that differ, view to text.
    hunks: Vec<Hunk>,
    /// Lines of the view.
    view_lines: usize,
}

/// What the model was shown of a [`Since`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShownDiff {
    /// The diff, one unified hunk per place, then a line naming the
    /// places left out; empty when nothing differs.
    pub text: String,
    /// Whether each place was shown.
    pub places: Vec<bool>,
    /// Lines of the text that changed (added or replaced).
    pub lines: usize,
}

/// `text` split into lines, each with its line end.
pub(crate) fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

impl Since {
    /// How `now` differs from `view`.
    pub fn new(view: &str, now: &str) -> Self {
        let view = lines(view);
        Self {
            hunks: hunks(&view, &lines(now)),
            view_lines: view.len(),
        }
    }

    /// What changed from `view` to `now`, for the model: each place's
    /// lines as they are now, numbered (see [`block`]), within about a
    /// quarter of the output budget; a place with a line over the line
    /// cap, or past the budget, is named by its lines instead.
    pub fn render(&self, now: &str, config: &Config) -> ShownDiff {
        self.render_theirs(now, config, &[])
    }

    /// [`Since::render`] leaving out the places `ours` marks: the model's
    /// own change, which it knows; they count as shown.
    pub fn render_theirs(&self, now: &str, config: &Config, ours: &[bool]) -> ShownDiff {
        let new = lines(now);
        let budget = usize::try_from(config.budget_bytes() / 4).unwrap_or(usize::MAX);
        let max_chars = usize::try_from(config.max_line_chars).unwrap_or(usize::MAX);
        let mut text = String::new();
        let mut shown = Vec::with_capacity(self.hunks.len());
        let mut left_out = Vec::new();
        for (n, hunk) in self.hunks.iter().enumerate() {
            if ours.get(n) == Some(&true) {
                shown.push(true);
                continue;
            }
            let added = &new[hunk.new..hunk.new + hunk.new_len];
            let block = block(hunk, added);
            let too_long = added
                .iter()
                .any(|line| line.trim_end_matches(['\n', '\r']).chars().count() > max_chars);
            if too_long || text.len() + block.len() > budget {
                shown.push(false);
                left_out.push(hunk);
            } else {
                shown.push(true);
                text.push_str(&block);
            }
        }
        if !left_out.is_empty() {
            let _ = write!(
                text,
                "[{} more {} not shown, at lines ",
                left_out.len(),
                if left_out.len() == 1 {
                    "place"
                } else {
                    "places"
                }
            );
            for (n, hunk) in left_out.iter().take(MAX_LISTED_PLACES).enumerate() {
                let sep = if n == 0 { "" } else { ", " };
                let (first, last) = (hunk.new + 1, hunk.new + hunk.new_len);
                let _ = match hunk.new_len {
                    0 => write!(text, "{sep}{} (lines removed)", hunk.new),
                    1 => write!(text, "{sep}{first}"),
                    _ => write!(text, "{sep}{first}-{last}"),
                };
            }
            if left_out.len() > MAX_LISTED_PLACES {
                text.push_str(", …");
            }
            text.push_str(" of the file now; read those lines to see them]\n");
        }
        let lines = self
            .hunks
            .iter()
            .enumerate()
            .filter(|(n, _)| ours.get(*n) != Some(&true))
            .map(|(_, h)| h.new_len)
            .sum();
        ShownDiff {
            text: text.trim_end_matches('\n').to_owned(),
            places: shown,
            lines,
        }
    }

    /// What the model has seen of the new text: the lines it had seen of
    /// its view, moved to where they are now, and the new lines of every
    /// place shown.
    pub fn seen(&self, before: &Coverage, shown: &[bool]) -> Coverage {
        let mut seen = before.clone();
        for (hunk, &shown) in self.hunks.iter().zip(shown).rev() {
            let first = hunk.old as u64 + 1;
            seen.replace(first, hunk.old_len as u64, hunk.new_len as u64);
            if !shown && hunk.new_len > 0 {
                seen.remove(first, first + hunk.new_len as u64 - 1);
            }
        }
        seen
    }

    /// Whether `mine` (the places of a change of the text this describes)
    /// touch a place that changed since the view, or the lines next to one.
    pub fn overlaps(&self, mine: &[Hunk]) -> bool {
        mine.iter().any(|mine| {
            let (lo, hi) = (mine.old, mine.old + mine.old_len.max(1));
            self.hunks.iter().any(|theirs| {
                let their_lo = theirs.new.saturating_sub(MERGE_CONTEXT_LINES);
                let their_hi = theirs.new + theirs.new_len.max(1) + MERGE_CONTEXT_LINES;
                lo < their_hi && their_lo < hi
            })
        })
    }

    /// Which places of this (a view against a changed text) are `mine`,
    /// that change's own places, rather than another writer's.
    pub fn ours(&self, mine: &[Hunk]) -> Vec<bool> {
        self.hunks
            .iter()
            .map(|theirs| {
                mine.iter().any(|m| {
                    let (lo, hi) = (m.new, m.new + m.new_len);
                    let (t_lo, t_hi) = (theirs.new, theirs.new + theirs.new_len);
                    (lo < t_hi && t_lo < hi)
                        || (lo == t_lo && (m.new_len == 0 || theirs.new_len == 0))
                })
            })
            .collect()
    }

    /// Where the gap after line `line` of the view (0: before the first)
    /// is now, unless a changed place is at it or next to it. A line past
    /// the view's end stays as it is, for the caller to refuse.
    pub fn moved_gap(&self, line: u64) -> Option<u64> {
        if line > self.view_lines as u64 {
            return Some(line);
        }
        // In u64: a line number the model sent may not fit the guest's
        // 32-bit usize, and must not wrap to a line that does.
        let wide = |n: usize| n as u64;
        let context = wide(MERGE_CONTEXT_LINES);
        let (mut added, mut removed) = (0u64, 0u64);
        for hunk in &self.hunks {
            let (old, old_len) = (wide(hunk.old), wide(hunk.old_len));
            let lo = old.saturating_sub(context);
            let hi = old + old_len + context;
            if (lo..=hi).contains(&line) {
                return None;
            }
            if old + old_len <= line {
                added += wide(hunk.new_len);
                removed += old_len;
            }
        }
        line.checked_add(added)?.checked_sub(removed)
    }
}

/// One place as the model reads it: its lines as they are now, numbered
/// as `read` numbers them (the model has the old ones in its view), after
/// a line saying where they were when that moved or their count changed.
fn block(hunk: &Hunk, added: &[&str]) -> String {
    let range = |first: usize, len: usize| match len {
        1 => format!("line {first}"),
        _ => format!("lines {first}-{}", first + len - 1),
    };
    let mut out = String::new();
    if hunk.new_len == 0 {
        let _ = writeln!(out, "[your {} removed]", range(hunk.old + 1, hunk.old_len));
    } else if hunk.old_len == 0 {
        let _ = writeln!(
            out,
            "[new {}, after your line {}:]",
            range(hunk.new + 1, hunk.new_len),
            hunk.old
        );
    } else if hunk.old != hunk.new || hunk.old_len != hunk.new_len {
        let _ = writeln!(
            out,
            "[your {} are now {}:]",
            range(hunk.old + 1, hunk.old_len),
            range(hunk.new + 1, hunk.new_len)
        );
    }
    for (n, line) in added.iter().enumerate() {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let _ = writeln!(out, "{}\t{body}", hunk.new + n + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const VIEW: &str = "a\nb\nc\nd\ne\nf\ng\n";

    #[test]
    fn the_diff_names_each_place_with_its_lines_now() {
        let now = "a\nB\nc\nd\ne\nf\ng\nh\n";
        let since = Since::new(VIEW, now);
        let shown = since.render(now, &Config::default());
        assert_eq!(shown.text, "2\tB\n[new line 8, after your line 7:]\n8\th");
        assert_eq!(shown.lines, 2);
        let mut seen = Coverage::default();
        seen.add(1, 3);
        assert_eq!(since.seen(&seen, &shown.places).to_string(), "1-3, 8");
    }

    #[test]
    fn places_past_the_budget_are_named_and_not_seen() {
        let now = "a\nBB\nc\nd\ne\nF\ng\n";
        let config = Config {
            max_line_chars: 1,
            ..Config::default()
        };
        let since = Since::new(VIEW, now);
        let shown = since.render(now, &config);
        assert!(
            shown.text.ends_with(
                "[1 more place not shown, at lines 2 of the file now; read those lines to see them]"
            ),
            "{}",
            shown.text
        );
        assert_eq!(shown.places, [false, true]);
        let seen = since.seen(&Coverage::all(7), &shown.places);
        assert_eq!(seen.to_string(), "1, 3-7");
    }

    #[test]
    fn a_change_lands_only_away_from_the_other_writers() {
        let now = "a\nB\nc\nd\ne\nf\ng\n";
        let since = Since::new(VIEW, now);
        let mine = |next: &str| hunks(&lines(now), &lines(next));
        assert!(!since.overlaps(&mine("a\nB\nc\nd\nE\nf\ng\n")));
        assert!(since.overlaps(&mine("a\nB\nC\nd\ne\nf\ng\n")), "next to it");
        assert!(since.overlaps(&mine("a\nBB\nc\nd\ne\nf\ng\n")), "on it");
        assert_eq!(since.moved_gap(5), Some(5));
        assert_eq!(since.moved_gap(2), None);
        let grown = Since::new(VIEW, "x\ny\na\nb\nc\nd\ne\nf\ng\n");
        assert_eq!(grown.moved_gap(4), Some(6));
        let appended = Since::new(VIEW, "a\nb\nc\nd\ne\nf\ng\nh\n");
        let far = u64::from(u32::MAX) + 1;
        assert_eq!(
            appended.moved_gap(far),
            Some(far),
            "past the end, left to refuse"
        );
        assert_eq!(appended.moved_gap(u64::MAX), Some(u64::MAX), "not wrapped");
        assert_eq!(appended.moved_gap(7), None, "at the change");
        assert_eq!(appended.moved_gap(2), Some(2));
    }
}
