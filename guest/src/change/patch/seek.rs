//! Finding a hunk's lines in a file the way Codex seeks them — exactly,
//! then ignoring trailing whitespace, then ignoring all surrounding
//! whitespace, then reading look-alike punctuation (dashes, quotes, odd
//! spaces) as ASCII — but never ambiguously: at the first level that
//! matches anywhere past the cursor, exactly one place must match.
//!
//! ```
//! use filetools_core::change::patch::seek::{Level, Seek, seek};
//! let lines = ["a", "b  ", "c"];
//! assert_eq!(seek(&lines, &["b".to_owned()], 0, false), Seek::Found { at: 1, level: Level::TrailingSpace });
//! ```

/// How loosely the lines matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Byte for byte (a CR before the line end aside).
    Exact,
    /// Trailing whitespace differed.
    TrailingSpace,
    /// Leading and trailing whitespace differed.
    Whitespace,
    /// Look-alike punctuation or spaces differed too.
    Punctuation,
}

impl Level {
    const ALL: [Level; 4] = [
        Level::Exact,
        Level::TrailingSpace,
        Level::Whitespace,
        Level::Punctuation,
    ];

    fn same(self, line: &str, wanted: &str) -> bool {
        let line = line.strip_suffix('\r').unwrap_or(line);
        match self {
            Level::Exact => line == wanted,
            Level::TrailingSpace => line.trim_end() == wanted.trim_end(),
            Level::Whitespace => line.trim() == wanted.trim(),
            Level::Punctuation => plain(line.trim()) == plain(wanted.trim()),
        }
    }
}

/// `text` with look-alike punctuation and spaces as their ASCII forms.
fn plain(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' => '\'',
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' => '"',
            '\u{00a0}' | '\u{2002}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

/// Where a run of lines is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seek {
    /// At this 0-based line, at this level.
    Found {
        /// First line of the match.
        at: usize,
        /// How loosely it matched.
        level: Level,
    },
    /// Nowhere past the cursor.
    Missing,
    /// In several places past the cursor, at the first level that matched.
    Ambiguous {
        /// Their 0-based first lines.
        starts: Vec<usize>,
    },
}

/// Where `wanted` (not empty) stands in `lines` at or after `from`; with
/// `end_of_file`, where it ends the file, looked for first.
pub fn seek(lines: &[&str], wanted: &[String], from: usize, end_of_file: bool) -> Seek {
    seek_starts(lines, wanted, from..lines.len(), end_of_file)
}

/// [`seek`] for places that start in `starts` (and may run past its end).
pub fn seek_starts(
    lines: &[&str],
    wanted: &[String],
    starts: std::ops::Range<usize>,
    end_of_file: bool,
) -> Seek {
    let from = starts.start;
    if wanted.is_empty() || wanted.len() > lines.len() {
        return Seek::Missing;
    }
    let last = (lines.len() - wanted.len()).min(starts.end.saturating_sub(1));
    if starts.is_empty() {
        return Seek::Missing;
    }
    let fits = |at: usize, level: Level| {
        lines[at..at + wanted.len()]
            .iter()
            .zip(wanted)
            .all(|(line, want)| level.same(line, want))
    };
    // The end of the file, when it is among the starts.
    let end = lines.len() - wanted.len();
    if end_of_file
        && end >= from
        && end <= last
        && let Some(level) = Level::ALL.into_iter().find(|&level| fits(end, level))
    {
        return Seek::Found { at: end, level };
    }
    for level in Level::ALL {
        let starts: Vec<usize> = (from..=last).filter(|&at| fits(at, level)).collect();
        match starts.as_slice() {
            [] => {}
            [at] => return Seek::Found { at: *at, level },
            _ => return Seek::Ambiguous { starts },
        }
    }
    Seek::Missing
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| (*l).to_owned()).collect()
    }

    #[test]
    fn each_level_is_tried_in_order_and_exact_wins() {
        let lines = ["  x = 1", "x = 1"];
        assert_eq!(
            seek(&lines, &owned(&["x = 1"]), 0, false),
            Seek::Found {
                at: 1,
                level: Level::Exact
            }
        );
        let lines = ["\tlet s = “hi” — ok;"];
        assert_eq!(
            seek(&lines, &owned(&["let s = \"hi\" - ok;"]), 0, false),
            Seek::Found {
                at: 0,
                level: Level::Punctuation
            }
        );
    }

    #[test]
    fn two_places_at_the_same_level_are_ambiguous() {
        let lines = ["a", "b", "a", "b"];
        assert_eq!(
            seek(&lines, &owned(&["a", "b"]), 0, false),
            Seek::Ambiguous { starts: vec![0, 2] }
        );
        assert_eq!(
            seek(&lines, &owned(&["a", "b"]), 1, false),
            Seek::Found {
                at: 2,
                level: Level::Exact
            }
        );
    }

    #[test]
    fn end_of_file_prefers_the_last_place() {
        let lines = ["}", "x", "}"];
        assert_eq!(
            seek(&lines, &owned(&["}"]), 0, true),
            Seek::Found {
                at: 2,
                level: Level::Exact
            }
        );
    }

    #[test]
    fn a_carriage_return_before_the_line_end_is_not_part_of_the_line() {
        let lines = ["a\r", "b\r"];
        assert_eq!(
            seek(&lines, &owned(&["a", "b"]), 0, false),
            Seek::Found {
                at: 0,
                level: Level::Exact
            }
        );
    }
}
