//! The one changed region between two versions of a text, by lines: what
//! the common prefix and suffix leave over. Cheap (linear) and enough for a
//! write's one-line summary (SPEC W6), and for the one-hunk [`unified`]
//! diff an MCP `edit_file` answers with.
//!
//! ```
//! use filetools_core::text::diff::{LineChange, line_change};
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

/// Lines of context around the change in a [`unified`] diff: four, as
/// the `diff` package the MCP reference server uses gives.
pub const CONTEXT_LINES: usize = 4;

/// The change from `old` to `new` as a unified diff of one hunk (the one
/// changed region with [`CONTEXT_LINES`] around it), headed by `path` as
/// the MCP reference server heads its diffs (`Index:`, a rule, then the
/// `original` and `modified` versions); empty when the texts are equal.
///
/// ```
/// let diff = filetools_core::text::diff::unified("/w/a.txt", "a\nb\nc\n", "a\nB\nc\n");
/// assert_eq!(
///     diff,
///     "Index: /w/a.txt\n===================================================================\n--- /w/a.txt\toriginal\n+++ /w/a.txt\tmodified\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
/// );
/// ```
pub fn unified(path: &str, old: &str, new: &str) -> String {
    const RULE: &str = "===================================================================";
    let Some(change) = line_change(old, new) else {
        return String::new();
    };
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let first = usize::try_from(change.first - 1).unwrap_or(0);
    let start = first.saturating_sub(CONTEXT_LINES);
    let old_end = first + usize::try_from(change.old_lines).unwrap_or(0);
    let new_end = first + usize::try_from(change.new_lines).unwrap_or(0);
    let after = (old_lines.len() - old_end).min(CONTEXT_LINES);
    let span = |end: usize| format!("{},{}", start + 1, end + after - start);
    let mut out = format!(
        "Index: {path}\n{RULE}\n--- {path}\toriginal\n+++ {path}\tmodified\n@@ -{} +{} @@\n",
        span(old_end),
        span(new_end)
    );
    let mut line = |mark: char, text: &str| {
        out.push(mark);
        out.push_str(text.strip_suffix('\n').unwrap_or(text));
        out.push('\n');
        if !text.ends_with('\n') {
            out.push_str("\\ No newline at end of file\n");
        }
    };
    for text in &old_lines[start..first] {
        line(' ', text);
    }
    for text in &old_lines[first..old_end] {
        line('-', text);
    }
    for text in &new_lines[first..new_end] {
        line('+', text);
    }
    for text in &old_lines[old_end..old_end + after] {
        line(' ', text);
    }
    out
}

/// `(prefix, suffix)`: how many items `old` and `new` share at their start,
/// and then at their end (never overlapping the prefix).
pub(crate) fn common_ends<T: PartialEq>(old: &[T], new: &[T]) -> (usize, usize) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    (prefix, suffix)
}

/// The changed region, or `None` when the texts are equal.
pub fn line_change(old: &str, new: &str) -> Option<LineChange> {
    if old == new {
        return None;
    }
    let old: Vec<&str> = old.split_inclusive('\n').collect();
    let new: Vec<&str> = new.split_inclusive('\n').collect();
    let (prefix, suffix) = common_ends(&old, &new);
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
