//! Where two versions of a text differ, line by line (SPEC V3, V4): the
//! places that changed, as [`Hunk`]s. Lines that occur once in each
//! version anchor the match (the longest run of them in the same order);
//! between anchors the same is done again, and a stretch without any is
//! one changed place. That is linear-logarithmic in the lines, whatever
//! the change, and finds the places a formatter or another writer touched.
//!
//! ```
//! use filetools_core::change::hunks::{Hunk, hunks};
//! let old = ["a\n", "b\n", "c\n", "d\n"];
//! let new = ["a\n", "B\n", "c\n", "d\n", "e\n"];
//! assert_eq!(
//!     hunks(&old, &new),
//!     [
//!         Hunk { old: 1, old_len: 1, new: 1, new_len: 1 },
//!         Hunk { old: 4, old_len: 0, new: 4, new_len: 1 },
//!     ]
//! );
//! ```

use std::collections::HashMap;

use crate::text::diff::common_ends;

/// Lines `old..old+old_len` of the old text became `new..new+new_len` of
/// the new one (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hunk {
    /// First old line.
    pub old: usize,
    /// Old lines replaced.
    pub old_len: usize,
    /// First new line.
    pub new: usize,
    /// New lines in their place.
    pub new_len: usize,
}

/// The places where `new` differs from `old`, in order, none adjacent.
pub fn hunks(old: &[&str], new: &[&str]) -> Vec<Hunk> {
    let mut found = Vec::new();
    let mut work = vec![(0, old.len(), 0, new.len())];
    while let Some((o0, o1, n0, n1)) = work.pop() {
        let (prefix, suffix) = common_ends(&old[o0..o1], &new[n0..n1]);
        let (o0, o1, n0, n1) = (o0 + prefix, o1 - suffix, n0 + prefix, n1 - suffix);
        if o0 == o1 && n0 == n1 {
            continue;
        }
        let anchors = if o0 == o1 || n0 == n1 {
            Vec::new()
        } else {
            anchors(&old[o0..o1], &new[n0..n1])
        };
        if anchors.is_empty() {
            found.push(Hunk {
                old: o0,
                old_len: o1 - o0,
                new: n0,
                new_len: n1 - n0,
            });
            continue;
        }
        let (mut from_old, mut from_new) = (o0, n0);
        for (a, b) in anchors {
            work.push((from_old, o0 + a, from_new, n0 + b));
            (from_old, from_new) = (o0 + a + 1, n0 + b + 1);
        }
        work.push((from_old, o1, from_new, n1));
    }
    found.sort_unstable_by_key(|h| (h.old, h.new));
    let mut merged: Vec<Hunk> = Vec::with_capacity(found.len());
    for hunk in found {
        match merged.last_mut() {
            Some(last)
                if last.old + last.old_len == hunk.old && last.new + last.new_len == hunk.new =>
            {
                last.old_len += hunk.old_len;
                last.new_len += hunk.new_len;
            }
            _ => merged.push(hunk),
        }
    }
    merged
}

/// `(old index, new index)` of the lines found once in each side, the
/// longest chain of them in the same order on both.
fn anchors(old: &[&str], new: &[&str]) -> Vec<(usize, usize)> {
    // (times in old, times in new, index in old, index in new)
    let mut counts: HashMap<&str, (u32, u32, usize, usize)> = HashMap::new();
    for (at, line) in old.iter().enumerate() {
        let entry = counts.entry(line).or_insert((0, 0, at, 0));
        entry.0 += 1;
    }
    for (at, line) in new.iter().enumerate() {
        if let Some(entry) = counts.get_mut(line) {
            entry.1 += 1;
            entry.3 = at;
        }
    }
    let mut pairs: Vec<(usize, usize)> = counts
        .into_values()
        .filter(|&(in_old, in_new, _, _)| in_old == 1 && in_new == 1)
        .map(|(_, _, a, b)| (a, b))
        .collect();
    pairs.sort_unstable();
    longest_rising(&pairs)
}

/// The longest subsequence of `pairs` (sorted by their first item) whose
/// second items rise.
fn longest_rising(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // ends[k]: index in `pairs` of the smallest tail of a chain of k+1.
    let mut ends: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; pairs.len()];
    for (at, &(_, second)) in pairs.iter().enumerate() {
        let k = ends.partition_point(|&e| pairs[e].1 < second);
        before[at] = k.checked_sub(1).map(|k| ends[k]);
        if k == ends.len() {
            ends.push(at);
        } else {
            ends[k] = at;
        }
    }
    let mut chain = Vec::with_capacity(ends.len());
    let mut next = ends.last().copied();
    while let Some(at) = next {
        chain.push(pairs[at]);
        next = before[at];
    }
    chain.reverse();
    chain
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lines(text: &str) -> Vec<&str> {
        text.split_inclusive('\n').collect()
    }

    /// `old` with `hunks` applied, taking the new lines from `new`.
    fn replay(old: &[&str], new: &[&str], hunks: &[Hunk]) -> Vec<String> {
        let mut out = Vec::new();
        let mut at = 0;
        for h in hunks {
            out.extend(old[at..h.old].iter().map(|s| (*s).to_owned()));
            out.extend(
                new[h.new..h.new + h.new_len]
                    .iter()
                    .map(|s| (*s).to_owned()),
            );
            at = h.old + h.old_len;
        }
        out.extend(old[at..].iter().map(|s| (*s).to_owned()));
        out
    }

    #[test]
    fn scattered_changes_are_found_apart() {
        let old = lines("fn a() {\n  1\n}\n\nfn b() {\n  2\n}\n\nfn c() {\n  3\n}\n");
        let new = lines("fn a() {\n  1;\n}\n\nfn b() {\n  2\n}\n\nfn c() {\n  33\n}\n");
        let found = hunks(&old, &new);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!((found[0].old, found[1].old), (1, 9));
    }

    #[test]
    fn equal_texts_have_no_hunks() {
        assert!(hunks(&lines("a\nb\n"), &lines("a\nb\n")).is_empty());
        assert!(hunks(&[], &[]).is_empty());
    }

    proptest! {
        #[test]
        fn the_hunks_turn_old_into_new(
            old in proptest::collection::vec(0u8..6, 0..40),
            new in proptest::collection::vec(0u8..6, 0..40),
        ) {
            let old: Vec<String> = old.iter().map(|n| format!("{n}\n")).collect();
            let new: Vec<String> = new.iter().map(|n| format!("{n}\n")).collect();
            let old: Vec<&str> = old.iter().map(String::as_str).collect();
            let new: Vec<&str> = new.iter().map(String::as_str).collect();
            let found = hunks(&old, &new);
            prop_assert_eq!(replay(&old, &new, &found), new.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
            for pair in found.windows(2) {
                prop_assert!(pair[0].old + pair[0].old_len <= pair[1].old);
                prop_assert!(pair[0].new + pair[0].new_len <= pair[1].new);
            }
        }
    }
}
