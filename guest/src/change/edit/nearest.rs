//! The region closest to an `old_string` that was not found (SPEC E1), and
//! why its first differing line differs — indentation, trailing whitespace,
//! spacing, a copied line-number gutter, typography, or the text itself — so
//! the model can fix its string in one step instead of re-reading the file.
//!
//! Lines are compared by their sets of words (Jaccard similarity); a window
//! of as many lines as `old_string` has is scored by its mean similarity and
//! must reach [`MIN_SIMILARITY`] to be offered. A single-line `old_string`
//! is also compared by its character pairs (Dice similarity), so a near miss
//! inside one word — `def fob():` for `def foo():` — still finds its line.

use crate::answers::refusal::{Nearest, Why};
use crate::change::echo::strip_gutter;
use crate::text::fold::{Level, fold};

/// Mean similarity a region needs to be offered as the nearest.
pub const MIN_SIMILARITY: f64 = 0.5;
/// Character-pair similarity a single line needs to count at all: below
/// it, lines that merely share common pairs (` c`, `nt`) would be offered.
pub const MIN_PAIR_SIMILARITY: f64 = 0.65;
/// Line comparisons allowed before only anchored regions are scored.
pub const MAX_COMPARISONS: usize = 4_000_000;
/// Regions scored at most when anchored.
pub const MAX_ANCHORS: usize = 2000;

fn words(line: &str) -> Vec<&str> {
    let mut words: Vec<&str> = line
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// The distinct pairs of adjacent characters of `line`, trimmed, sorted.
fn pairs(line: &str) -> Vec<(char, char)> {
    let chars: Vec<char> = line.trim().chars().collect();
    let mut pairs: Vec<(char, char)> = chars.windows(2).map(|w| (w[0], w[1])).collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// How many items two sorted, distinct lists share.
fn common<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    common
}

/// Dice similarity of two sorted, distinct pair lists.
#[expect(clippy::cast_precision_loss, reason = "pair counts are small")]
fn dice(a: &[(char, char)], b: &[(char, char)]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    2.0 * common(a, b) as f64 / (a.len() + b.len()) as f64
}

/// Jaccard similarity of two lines' sorted, distinct words (1 when the
/// lines are equal but for surrounding whitespace).
#[expect(clippy::cast_precision_loss, reason = "word counts are small")]
fn similarity(a: &str, b: &str, a_words: &[&str], b_words: &[&str]) -> f64 {
    if a.trim() == b.trim() {
        return 1.0;
    }
    if a_words.is_empty() || b_words.is_empty() {
        return 0.0;
    }
    let common = common(a_words, b_words);
    common as f64 / (a_words.len() + b_words.len() - common) as f64
}

fn why(file: &str, old: &str) -> Why {
    if strip_gutter(old).is_some_and(|stripped| stripped == file) {
        Why::LineNumbers
    } else if file.trim() == old.trim() {
        if file.trim_start() == old.trim_start() {
            Why::Indentation
        } else if file.trim_end() == old.trim_end() {
            Why::TrailingSpace
        } else {
            Why::Indentation
        }
    } else if file.split_whitespace().eq(old.split_whitespace())
        || file.replace(char::is_whitespace, "") == old.replace(char::is_whitespace, "")
    {
        Why::Spacing
    } else if fold(file, Level::Typography).trim() == fold(old, Level::Typography).trim() {
        Why::Typography
    } else {
        Why::Text
    }
}

/// Whether the file line `file` is `old`'s line, nearly: the same but for
/// surrounding whitespace, or close enough by words or, for a line, by
/// character pairs to be offered as a near miss.
pub(crate) fn nearly(file: &str, old: &str) -> bool {
    if file.trim() == old.trim() {
        return true;
    }
    similarity(file, old, &words(file), &words(old)) >= MIN_SIMILARITY
        || dice(&pairs(file), &pairs(old)) >= MIN_PAIR_SIMILARITY
}

/// The region of `view` nearest to `old`, if any is close enough.
#[expect(clippy::cast_precision_loss, reason = "line counts are small")]
pub(crate) fn nearest(view: &str, old: &str) -> Option<Nearest> {
    let old_lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
    let file_lines: Vec<&str> = view
        .strip_suffix('\n')
        .unwrap_or(view)
        .split('\n')
        .collect();
    if view.is_empty() || old.trim().is_empty() {
        return None;
    }
    let n = old_lines.len().min(file_lines.len());
    let old_words: Vec<Vec<&str>> = old_lines.iter().map(|l| words(l)).collect();
    let file_words: Vec<Vec<&str>> = file_lines.iter().map(|l| words(l)).collect();
    let last_start = file_lines.len() - n;
    let starts: Vec<usize> = if file_lines.len().saturating_mul(n) <= MAX_COMPARISONS {
        (0..=last_start).collect()
    } else {
        (0..=last_start)
            .filter(|&j| {
                similarity(file_lines[j], old_lines[0], &file_words[j], &old_words[0])
                    >= MIN_SIMILARITY
            })
            .take(MAX_ANCHORS)
            .collect()
    };
    // One line: its character pairs count too, so one wrong letter is a
    // near miss, not "not found".
    let single = (old_lines.len() == 1).then(|| pairs(old_lines[0]));
    let mut best: Option<(f64, usize)> = None;
    for j in starts {
        let total: f64 = (0..n)
            .map(|i| {
                let words = similarity(
                    file_lines[j + i],
                    old_lines[i],
                    &file_words[j + i],
                    &old_words[i],
                );
                match &single {
                    Some(old_pairs) => {
                        let by_pairs = dice(&pairs(file_lines[j + i]), old_pairs);
                        if by_pairs >= MIN_PAIR_SIMILARITY {
                            words.max(by_pairs)
                        } else {
                            words
                        }
                    }
                    None => words,
                }
            })
            .sum();
        let score = total / old_lines.len() as f64;
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, j));
        }
    }
    let (score, j) = best?;
    if score < MIN_SIMILARITY {
        return None;
    }
    let differing = (0..old_lines.len()).find(|&i| file_lines.get(j + i) != Some(&old_lines[i]))?;
    let file_text = file_lines.get(j + differing).copied().unwrap_or_default();
    Some(Nearest {
        first: j as u64 + 1,
        last: (j + n) as u64,
        line: (j + differing) as u64 + 1,
        why: why(file_text, old_lines[differing]),
        file_text: file_text.to_owned(),
        old_text: old_lines[differing].to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "fn main() {\n    let total = add(1, 2);\n    println!(\"{total}\");\n}\n";

    #[test]
    fn a_changed_word_is_found_with_its_line() {
        let n = nearest(
            FILE,
            "    let total = add(1, 3);\n    println!(\"{total}\");",
        )
        .unwrap();
        assert_eq!((n.first, n.last, n.line, n.why), (2, 3, 2, Why::Text));
        assert_eq!(n.file_text, "    let total = add(1, 2);");
    }

    #[test]
    fn whitespace_differences_are_named() {
        let n = nearest(FILE, "let total = add(1, 2);\nprintln!(\"{total}\");").unwrap();
        assert_eq!(n.why, Why::Indentation);
        let n = nearest(FILE, "    let total = add(1,2);").unwrap();
        assert_eq!(n.why, Why::Spacing);
        let n = nearest(
            FILE,
            "2\t    let total = add(1, 2);\n3\t    println!(\"{total}\");",
        )
        .unwrap();
        assert_eq!(n.why, Why::LineNumbers);
    }

    #[test]
    fn a_one_letter_miss_in_one_line_finds_its_line() {
        let file = "class A:\n    def foo():\n        pass\n";
        let n = nearest(file, "    def fob():").unwrap();
        assert_eq!((n.first, n.line, n.why), (2, 2, Why::Text));
        assert_eq!(n.file_text, "    def foo():");
        let n = nearest("count = count + 1\nx\ncount += 1\n", "count = count + 2").unwrap();
        assert_eq!(n.line, 1);
    }

    #[test]
    fn unrelated_text_has_no_nearest() {
        assert_eq!(nearest(FILE, "completely different words here"), None);
    }
}
