//! Folding for tolerant matching (SPEC E2, E9): text is mapped to a form in
//! which characters a model cannot tell apart compare equal — curly and
//! straight quotes, and at the wider level dashes, special spaces, full-width
//! forms, the ellipsis and composed versus decomposed letters (NFD). A
//! [`Folded`] text remembers where each of its bytes came from, so a match
//! found in the folded form maps back to an exact span of the file and only
//! that span is changed.

use unicode_normalization::char::decompose_canonical;

/// How much is folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    /// Curly and straight quotes only (SPEC E2).
    Quotes,
    /// Quotes, dashes, spaces, full-width forms, ellipsis, NFD (SPEC E9).
    Typography,
}

fn push_folded(c: char, level: Level, out: &mut String) {
    let quote = match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => Some('\''),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => Some('"'),
        _ => None,
    };
    if let Some(q) = quote {
        out.push(q);
        return;
    }
    if level == Level::Quotes {
        out.push(c);
        return;
    }
    match c {
        '\u{2032}' => out.push('\''),
        '\u{2033}' => out.push('"'),
        '\u{2010}'..='\u{2015}' | '\u{2212}' => out.push('-'),
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => {
            out.push(' ');
        }
        '\u{2026}' => out.push_str("..."),
        '\u{FF01}'..='\u{FF5E}' => {
            out.push(char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c));
        }
        c if c.is_ascii() => out.push(c),
        c => decompose_canonical(c, |part| out.push(part)),
    }
}

/// `text` folded at `level`.
pub(crate) fn fold(text: &str, level: Level) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_folded(c, level, &mut out);
    }
    out
}

/// A folded text with the source position of each of its bytes.
#[derive(Debug, Clone)]
pub(crate) struct Folded {
    /// The folded text.
    pub text: String,
    /// `map[i]`: source byte where the character producing byte `i` starts;
    /// one extra entry holds the source length.
    map: Vec<u32>,
}

impl Folded {
    /// Folds `source` at `level`.
    pub fn new(source: &str, level: Level) -> Self {
        let mut text = String::with_capacity(source.len());
        let mut map = Vec::with_capacity(source.len() + 1);
        for (at, c) in source.char_indices() {
            let before = text.len();
            push_folded(c, level, &mut text);
            let at = u32::try_from(at).unwrap_or(u32::MAX);
            map.resize(map.len() + text.len() - before, at);
        }
        map.push(u32::try_from(source.len()).unwrap_or(u32::MAX));
        Self { text, map }
    }

    /// The source span of folded bytes `start..end`, when both ends fall on
    /// the boundaries of source characters.
    pub fn source_span(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        let starts_char = start == 0 || self.map[start - 1] != self.map[start];
        let ends_char = end == self.text.len() || self.map[end - 1] != self.map[end];
        (starts_char && ends_char).then(|| (self.map[start] as usize, self.map[end] as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_fold_to_straight_ones() {
        assert_eq!(fold("“it’s”", Level::Quotes), "\"it's\"");
        assert_eq!(fold("a—b", Level::Quotes), "a—b");
    }

    #[test]
    fn typography_folds_dashes_spaces_widths_and_forms() {
        assert_eq!(fold("a\u{2014}b\u{a0}c", Level::Typography), "a-b c");
        assert_eq!(fold("ＡＢ…", Level::Typography), "AB...");
        assert_eq!(
            fold("caf\u{e9}", Level::Typography),
            fold("cafe\u{301}", Level::Typography)
        );
    }

    #[test]
    fn spans_map_back_to_whole_source_characters() {
        let folded = Folded::new("x “q” y", Level::Quotes);
        let at = folded.text.find("\"q\"").unwrap();
        let (start, end) = folded.source_span(at, at + 3).unwrap();
        assert_eq!(&"x “q” y"[start..end], "“q”");
        let composed = Folded::new("é!", Level::Typography);
        // "e" alone is half of the decomposed é: not a whole character.
        assert_eq!(composed.source_span(0, 1), None);
        assert_eq!(composed.source_span(0, 3), Some((0, 2)));
    }
}
