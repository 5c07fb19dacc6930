//! Where a hunk's lines are sought, from its `@@` lines (SPEC T3). One
//! anchor moves the search past the line it names. Stacked anchors narrow
//! outer then inner, as OpenAI's description of the format teaches:
//!
//! ```text
//! @@ class BaseClass
//! @@     def search():
//! -        pass
//! ```
//!
//! finds `def search():` inside the block `class BaseClass` opens (the
//! lines after it that are indented deeper), and the hunk's lines after
//! it, still inside that class; lines that start inside the block the
//! last anchor opens win over ones further on. The first anchor may stand
//! above the cursor when the block it opens holds the cursor, so a later
//! hunk can name the class an earlier one was in; the hunk's lines then
//! stay inside that block. Every anchor must match one place in its range,
//! as every hunk does.
//!
//! ```
//! use filetools_core::change::patch::parse::parse_diff;
//! use filetools_core::change::patch::scope::{Region, narrow};
//! let lines = ["class A:", "    def f():", "        pass", "class B:", "    def f():", "        pass"];
//! let hunk = &parse_diff("@@ class B:\n@@     def f():\n-        pass\n+        return 1").unwrap()[0];
//! assert_eq!(narrow(&lines, hunk, 0).ok(), Some(Region { from: 5, end: 6, inner: 6 }));
//! ```

use super::parse::Hunk;
use super::seek::{self, Seek};
use crate::answers::error::patch::PatchError;

/// The lines a hunk's lines are sought in: from `from` up to `end`, and
/// first with their start before `inner`, the end of the block the last
/// anchor opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// First line (0-based) the lines may start at.
    pub from: usize,
    /// The line the lines must end before.
    pub end: usize,
    /// Lines starting before this one are preferred: a match there wins
    /// over matches further on.
    pub inner: usize,
}

/// An anchor that matched no place, or several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Miss {
    anchor: String,
    /// 0-based line the search started at.
    from: usize,
    /// 0-based lines where it matched, when several.
    starts: Vec<usize>,
}

impl Miss {
    /// The refusal for hunk `hunk` of `path`.
    pub(super) fn error(self, path: &str, hunk: usize) -> PatchError {
        if self.starts.is_empty() {
            PatchError::NotFound {
                path: path.to_owned(),
                hunk,
                first: self.anchor,
                after: self.from + 1,
                anchor: true,
                matched: None,
            }
        } else {
            PatchError::Ambiguous {
                path: path.to_owned(),
                hunk,
                lines: self.starts.iter().map(|s| s + 1).collect(),
                anchor: true,
            }
        }
    }
}

/// The region `hunk`'s lines are sought in, the last hunk having ended at
/// `cursor`.
pub fn narrow(lines: &[&str], hunk: &Hunk, cursor: usize) -> Result<Region, Miss> {
    let mut region = Region {
        from: cursor.min(lines.len()),
        end: lines.len(),
        inner: lines.len(),
    };
    for (k, anchor) in hunk.anchors.iter().enumerate() {
        let wanted = std::slice::from_ref(anchor);
        let miss = |starts| Miss {
            anchor: anchor.clone(),
            from: region.from,
            starts,
        };
        let at = match seek::seek(&lines[..region.end], wanted, region.from, false) {
            Seek::Found { at, .. } => at,
            // The first anchor may be above the cursor: the hunk is in the
            // block an earlier hunk was in.
            Seek::Missing if k == 0 => match seek::seek(&lines[..region.from], wanted, 0, false) {
                // Only when its block still holds the cursor: the hunk's
                // lines must then stand inside it.
                Seek::Found { at, .. } if opens_block(lines, at, region.from) => {
                    region.end = block_end(lines, at, region.end);
                    at
                }
                Seek::Found { .. } | Seek::Missing => return Err(miss(Vec::new())),
                Seek::Ambiguous { starts } => return Err(miss(starts)),
            },
            Seek::Missing => return Err(miss(Vec::new())),
            Seek::Ambiguous { starts } => return Err(miss(starts)),
        };
        let block = block_end(lines, at, region.end);
        if k + 1 < hunk.anchors.len() {
            region.end = block;
        }
        region.inner = block;
        region.from = region.from.max(at + 1);
    }
    region.end = region.end.max(region.from);
    region.inner = region.inner.clamp(region.from, region.end);
    Ok(region)
}

/// Whether line `at` opens a block that runs past line `cursor`.
fn opens_block(lines: &[&str], at: usize, cursor: usize) -> bool {
    let depth = indent(lines[at]);
    let opens = (at + 1..lines.len())
        .find(|&k| !lines[k].trim().is_empty())
        .is_some_and(|first| indent(lines[first]) > depth);
    opens && block_end(lines, at, lines.len()) > cursor
}

/// Where the block line `at` opens ends: before the first non-blank line
/// after it indented no deeper than it, at most `limit`. A line that opens
/// no block (the next non-blank line is no deeper) leaves `limit`.
fn block_end(lines: &[&str], at: usize, limit: usize) -> usize {
    let depth = indent(lines[at]);
    let mut after = (at + 1..limit).filter(|&k| !lines[k].trim().is_empty());
    match after.next() {
        Some(first) if indent(lines[first]) > depth => {
            after.find(|&k| indent(lines[k]) <= depth).unwrap_or(limit)
        }
        _ => limit,
    }
}

/// The width of a line's leading spaces and tabs.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::patch::parse::parse_diff;

    const FILE: [&str; 9] = [
        "class First",
        "    def target():",
        "        return 0",
        "",
        "class Second",
        "    def helper():",
        "        pass",
        "    def target():",
        "        pass",
    ];

    fn hunk(diff: &str) -> Hunk {
        parse_diff(diff).unwrap().remove(0)
    }

    #[test]
    fn one_anchor_moves_the_search_past_it() {
        let region = narrow(&FILE, &hunk("@@ class Second\n-        pass"), 0).unwrap();
        assert_eq!(
            region,
            Region {
                from: 5,
                end: 9,
                inner: 9
            }
        );
    }

    #[test]
    fn stacked_anchors_find_the_inner_one_inside_the_outer_block() {
        let region = narrow(
            &FILE,
            &hunk("@@ class Second\n@@     def target():\n-        pass"),
            0,
        )
        .unwrap();
        assert_eq!(
            region,
            Region {
                from: 8,
                end: 9,
                inner: 9
            }
        );
        let first = narrow(
            &FILE,
            &hunk("@@ class First\n@@     def target():\n-        return 0"),
            0,
        )
        .unwrap();
        assert_eq!(
            first,
            Region {
                from: 2,
                end: 4,
                inner: 4
            }
        );
    }

    #[test]
    fn an_inner_anchor_outside_the_outer_block_is_not_found() {
        let miss = narrow(
            &FILE,
            &hunk("@@ class First\n@@     def helper():\n-        pass"),
            0,
        )
        .unwrap_err();
        assert_eq!(miss.from, 1);
        assert!(miss.starts.is_empty());
    }

    #[test]
    fn the_first_anchor_may_stand_above_the_cursor() {
        let region = narrow(
            &FILE,
            &hunk("@@ class Second\n@@     def target():\n-        pass"),
            7,
        )
        .unwrap();
        assert_eq!(
            region,
            Region {
                from: 8,
                end: 9,
                inner: 9
            }
        );
    }

    #[test]
    fn a_line_that_opens_no_block_leaves_the_range_as_it_was() {
        let lines = ["## Install", "text", "### Linux", "apt"];
        let region = narrow(&lines, &hunk("@@ ## Install\n@@ ### Linux\n-apt"), 0).unwrap();
        assert_eq!(
            region,
            Region {
                from: 3,
                end: 4,
                inner: 4
            }
        );
    }
}
