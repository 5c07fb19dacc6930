//! The three-way merge a rewind makes of a file someone changed since the
//! session last knew it: the session's own change since the mark (its
//! last version back to the mark's) applied over the other writer's, when
//! the two are at least [`MERGE_CONTEXT_LINES`] lines apart — the rule an
//! edit of a changed file follows.

use crate::change::hunks::{Hunk, hunks};
use crate::change::since::{MERGE_CONTEXT_LINES, lines};

/// `theirs` with the change from `base` to `ours` made on it too; `None`
/// when the two changes touch the same lines or lines next to each other.
pub(crate) fn merge3(base: &str, ours: &str, theirs: &str) -> Option<String> {
    let (base_lines, our_lines, their_lines) = (lines(base), lines(ours), lines(theirs));
    let mine = hunks(&base_lines, &our_lines);
    let other = hunks(&base_lines, &their_lines);
    let clash = mine.iter().any(|m| {
        let (lo, hi) = (m.old, m.old + m.old_len.max(1));
        other.iter().any(|t| {
            let t_lo = t.old.saturating_sub(MERGE_CONTEXT_LINES);
            let t_hi = t.old + t.old_len.max(1) + MERGE_CONTEXT_LINES;
            lo < t_hi && t_lo < hi
        })
    });
    if clash {
        return None;
    }
    let mut all: Vec<(Hunk, &[&str])> = mine
        .into_iter()
        .map(|h| (h, our_lines.as_slice()))
        .chain(other.into_iter().map(|h| (h, their_lines.as_slice())))
        .collect();
    all.sort_by_key(|(h, _)| h.old);
    let mut merged = String::with_capacity(theirs.len().max(ours.len()));
    let mut at = 0;
    for (hunk, side) in all {
        merged.extend(base_lines[at..hunk.old].iter().copied());
        merged.extend(side[hunk.new..hunk.new + hunk.new_len].iter().copied());
        at = hunk.old + hunk.old_len;
    }
    merged.extend(base_lines[at..].iter().copied());
    Some(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_apart_both_land() {
        let base = "a\nb\nc\nd\ne\nf\n";
        let ours = "a\nB\nc\nd\ne\nf\n";
        let theirs = "a\nb\nc\nd\nE\nf\ng\n";
        assert_eq!(merge3(base, ours, theirs).unwrap(), "a\nB\nc\nd\nE\nf\ng\n");
    }

    #[test]
    fn changes_on_or_next_to_the_same_lines_do_not_merge() {
        let base = "a\nb\nc\nd\n";
        assert_eq!(merge3(base, "a\nB\nc\nd\n", "a\nb\nC\nd\n"), None);
        assert_eq!(merge3(base, "a\nB\nc\nd\n", "a\nX\nc\nd\n"), None);
        assert_eq!(merge3(base, "a\nb\nc\nd\nz\n", "a\nb\nc\nd\ny\n"), None);
    }

    #[test]
    fn a_side_that_changed_nothing_gives_the_other() {
        let base = "one\ntwo\n";
        assert_eq!(merge3(base, base, "one\n2\n").unwrap(), "one\n2\n");
        assert_eq!(merge3(base, "1\ntwo\n", base).unwrap(), "1\ntwo\n");
    }
}
