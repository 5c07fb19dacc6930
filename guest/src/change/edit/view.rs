//! [`View`]: the text an edit matches against (SPEC E5) — the file with every
//! `\r\n` shown as `\n` — plus which of its newlines are CRLF in the file.
//! Replacements keep those flags for every newline outside the replaced
//! spans, and give new newlines the file's dominant ending, so writing the
//! view back changes only the matched spans: a mixed file stays mixed.

use std::borrow::Cow;

use crate::text::textfile::newlines;

/// The LF view of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct View<'t> {
    /// The text with `\r\n` as `\n`: the file's own text, not copied,
    /// while it has no CRLF and no replacement was made.
    pub text: Cow<'t, str>,
    /// Byte positions in `text` of newlines that are `\r\n` in the file.
    crlf: Vec<usize>,
    /// The newlines of `text`.
    newlines: u64,
    /// Whether `text` may hold a carriage return (one not before a newline
    /// of the file, or one a replacement brought).
    cr: bool,
}

impl<'t> View<'t> {
    /// The view of `file_text` (line endings as in the file).
    pub fn new(file_text: &'t str) -> Self {
        Self::counted(file_text, newlines(file_text.as_bytes()))
    }

    /// The view of `file_text`, which has `newlines` `\n` bytes.
    pub fn counted(file_text: &'t str, newlines: u64) -> Self {
        // Most text has no carriage return, and one byte is looked for
        // faster than two.
        if memchr::memchr(b'\r', file_text.as_bytes()).is_none() {
            return Self {
                text: Cow::Borrowed(file_text),
                crlf: Vec::new(),
                newlines,
                cr: false,
            };
        }
        let mut text = String::with_capacity(file_text.len());
        let mut crlf = Vec::new();
        let mut from = 0;
        // memchr's SIMD search: the standard one scanned a megabyte without
        // a CRLF in about a millisecond.
        for at in memchr::memmem::find_iter(file_text.as_bytes(), b"\r\n") {
            text.push_str(&file_text[from..at]);
            crlf.push(text.len());
            text.push('\n');
            from = at + 2;
        }
        text.push_str(&file_text[from..]);
        let cr = memchr::memchr(b'\r', text.as_bytes()).is_some();
        Self {
            text: Cow::Owned(text),
            crlf,
            newlines,
            cr,
        }
    }

    /// The view with its own copy of the text.
    pub fn into_owned(self) -> View<'static> {
        View {
            text: Cow::Owned(self.text.into_owned()),
            crlf: self.crlf,
            newlines: self.newlines,
            cr: self.cr,
        }
    }

    /// The `(bare \n, \r\n)` counts of [`View::file_text`], known without a
    /// count while the text holds no carriage return of its own.
    pub fn endings(&self) -> Option<(u64, u64)> {
        let crlf = self.crlf.len() as u64;
        (!self.cr).then(|| (self.newlines - crlf, crlf))
    }

    /// The text as the file should hold it.
    pub fn file_text(&self) -> Cow<'_, str> {
        if self.crlf.is_empty() {
            return Cow::Borrowed(&*self.text);
        }
        let mut out = String::with_capacity(self.text.len() + self.crlf.len());
        let mut from = 0;
        for &at in &self.crlf {
            out.push_str(&self.text[from..at]);
            out.push('\r');
            from = at;
        }
        out.push_str(&self.text[from..]);
        Cow::Owned(out)
    }

    /// Replaces the sorted, disjoint `spans` by `with` (LF text; its
    /// newlines become CRLF when `crlf_new`). Returns the replaced spans in
    /// the new text, and moves the older `regions` to match.
    pub fn replace(
        &mut self,
        spans: &[(usize, usize)],
        with: &[String],
        crlf_new: bool,
        regions: &mut [(usize, usize)],
    ) -> Vec<(usize, usize)> {
        let mut text = String::with_capacity(self.text.len());
        let mut crlf = Vec::with_capacity(self.crlf.len());
        let mut flags = self.crlf.iter().copied().peekable();
        let mut placed = Vec::with_capacity(spans.len());
        let mut from: usize = 0;
        for (&(start, end), new) in spans.iter().zip(with) {
            let shift = text.len().cast_signed() - from.cast_signed();
            while let Some(&at) = flags.peek() {
                if at >= start {
                    break;
                }
                crlf.push(at.saturating_add_signed(shift));
                flags.next();
            }
            while flags.peek().is_some_and(|&at| at < end) {
                flags.next();
            }
            text.push_str(&self.text[from..start]);
            self.newlines = self.newlines - newlines(&self.text.as_bytes()[start..end])
                + newlines(new.as_bytes());
            self.cr |= memchr::memchr(b'\r', new.as_bytes()).is_some();
            let begin = text.len();
            if crlf_new {
                crlf.extend(memchr::memchr_iter(b'\n', new.as_bytes()).map(|at| begin + at));
            }
            text.push_str(new);
            placed.push((begin, text.len()));
            from = end;
        }
        let shift = text.len().cast_signed() - from.cast_signed();
        crlf.extend(flags.map(|at| at.saturating_add_signed(shift)));
        text.push_str(&self.text[from..]);
        for region in regions.iter_mut() {
            *region = (
                moved(region.0, spans, &placed, false),
                moved(region.1, spans, &placed, true),
            );
        }
        self.text = Cow::Owned(text);
        self.crlf = crlf;
        placed
    }
}

/// Where position `at` of the old text lands in the new one; a position
/// inside a replaced span goes to the start (or, for an `end`, the end) of
/// its replacement.
fn moved(at: usize, spans: &[(usize, usize)], placed: &[(usize, usize)], end: bool) -> usize {
    let mut shift: isize = 0;
    for (&(start, stop), &(new_start, new_stop)) in spans.iter().zip(placed) {
        if at < start || (at == start && (end || start == stop)) {
            break;
        }
        if at < stop {
            return if end { new_stop } else { new_start };
        }
        shift = new_stop.cast_signed() - stop.cast_signed();
    }
    at.saturating_add_signed(shift)
}

/// Newline positions of a text, for many line lookups.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex(Vec<usize>);

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> Self {
        Self(memchr::memchr_iter(b'\n', text.as_bytes()).collect())
    }

    /// The 1-based line of byte `at`.
    pub fn line_of(&self, at: usize) -> u64 {
        self.0.partition_point(|&newline| newline < at) as u64 + 1
    }

    /// The bytes of lines `first..=last` (1-based) of a text of `len` bytes,
    /// the last line's `\n` included when it has one.
    pub fn lines_span(&self, len: usize, first: u64, last: u64) -> (usize, usize) {
        let at = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        let start = match at(first) {
            0 | 1 => 0,
            n => self.0.get(n - 2).map_or(len, |newline| newline + 1),
        };
        let end = self
            .0
            .get(at(last).saturating_sub(1))
            .map_or(len, |newline| newline + 1);
        (start, end.max(start))
    }

    /// Line `number` (1-based) of the `text` indexed, without its `\n`;
    /// empty past the end.
    pub fn line<'t>(&self, text: &'t str, number: u64) -> &'t str {
        let n = usize::try_from(number).unwrap_or(usize::MAX);
        let start = match n {
            0 | 1 => 0,
            _ => self.0.get(n - 2).map_or(text.len(), |newline| newline + 1),
        };
        let end = self
            .0
            .get(n.saturating_sub(1))
            .copied()
            .unwrap_or(text.len());
        text.get(start..end.max(start)).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_replaced_spans_lose_their_endings() {
        let mut view = View::new("a\r\nb\nc\r\nd");
        assert_eq!(view.text, "a\nb\nc\nd");
        let at = view.text.find("b\nc").unwrap();
        let placed = view.replace(&[(at, at + 3)], &["B\nC\nX".into()], true, &mut []);
        assert_eq!(placed, vec![(2, 7)]);
        assert_eq!(view.file_text(), "a\r\nB\r\nC\r\nX\r\nd");
        let mut lf = View::new("a\r\nb\nc\r\n");
        let placed = lf.replace(&[(2, 3)], &["B".into()], false, &mut []);
        assert_eq!(placed, vec![(2, 3)]);
        assert_eq!(lf.file_text(), "a\r\nB\nc\r\n");
    }

    #[test]
    fn the_line_ends_are_known_without_a_count_until_a_carriage_return_is_alone() {
        use crate::text::textfile::count_endings;
        let mut view = View::new("a\r\nb\nc\r\nd");
        assert_eq!(view.endings(), Some(count_endings("a\r\nb\nc\r\nd")));
        let at = view.text.find("b\nc").unwrap();
        view.replace(&[(at, at + 3)], &["B\nC\nX".into()], true, &mut []);
        assert_eq!(view.endings(), Some(count_endings(&view.file_text())));
        view.replace(&[(0, 1)], &["A\n\n".into()], false, &mut []);
        assert_eq!(view.endings(), Some(count_endings(&view.file_text())));
        view.replace(&[(0, 1)], &["a\r".into()], false, &mut []);
        assert_eq!(view.endings(), None);
        assert_eq!(View::new("lone\r here\n").endings(), None);
    }

    #[test]
    fn a_line_is_cut_from_the_index() {
        let text = "one\ntwo\n\nfour";
        let index = LineIndex::new(text);
        let lines: Vec<&str> = (1..=5).map(|n| index.line(text, n)).collect();
        assert_eq!(lines, ["one", "two", "", "four", ""]);
        let ended = "a\n";
        assert_eq!(LineIndex::new(ended).line(ended, 2), "");
    }

    #[test]
    fn older_regions_move_with_the_text() {
        let mut view = View::new("one two three four");
        let mut regions = vec![(0, 3), (14, 18)];
        view.replace(&[(4, 7)], &["2222".into()], false, &mut regions);
        assert_eq!(view.text, "one 2222 three four");
        assert_eq!(regions, vec![(0, 3), (15, 19)]);
        let mut inside = vec![(5, 6)];
        view.replace(&[(4, 8)], &["2".into()], false, &mut inside);
        assert_eq!(inside, vec![(4, 5)]);
    }

    #[test]
    fn lines_are_counted_from_one() {
        let index = LineIndex::new("a\nb\nc");
        let lines: Vec<u64> = [0, 1, 2, 4, 99]
            .iter()
            .map(|&at| index.line_of(at))
            .collect();
        assert_eq!(lines, vec![1, 1, 2, 3, 3]);
    }
}
