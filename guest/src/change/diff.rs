//! The one changed region between two versions of a text, by lines: what
//! the common prefix and suffix leave over. Cheap (linear) and enough for a
//! write's one-line summary (SPEC W6).
//!
//! ```
//! use filetools_core::diff::{LineChange, line_change};
//! let change = line_change("a\nb\nc\n", "a\nB\nB2\nc\n").unwrap();
//! assert_eq!(change, LineChange { first: 2, old_lines: 1, new_lines: 2 });
//! assert_eq!(line_change("same", "same"), None);
//! ```

/// Lines `first..first+old_lines` of the old text became
/// `first..first+new_lines` of the new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineChange {
    /// First changed line, 1-based.
    pub first: u64,
    /// Lines removed from the old text.
    pub old_lines: u64,
    /// Lines put in their place.
    pub new_lines: u64,
}

/// The changed region, or `None` when the texts are equal.
pub fn line_change(old: &str, new: &str) -> Option<LineChange> {
    if old == new {
        return None;
    }
    let old: Vec<&str> = old.split_inclusive('\n').collect();
    let new: Vec<&str> = new.split_inclusive('\n').collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    Some(LineChange {
        first: prefix as u64 + 1,
        old_lines: (old.len() - prefix - suffix) as u64,
        new_lines: (new.len() - prefix - suffix) as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insertions_and_deletions_have_no_lines_on_one_side() {
        assert_eq!(
            line_change("a\nc\n", "a\nb\nc\n"),
            Some(LineChange {
                first: 2,
                old_lines: 0,
                new_lines: 1
            })
        );
        assert_eq!(
            line_change("a\nb\nc\n", "a\nc\n"),
            Some(LineChange {
                first: 2,
                old_lines: 1,
                new_lines: 0
            })
        );
    }

    #[test]
    fn a_missing_final_newline_is_a_change_of_the_last_line() {
        assert_eq!(
            line_change("a\nb\n", "a\nb"),
            Some(LineChange {
                first: 2,
                old_lines: 1,
                new_lines: 1
            })
        );
    }
}
