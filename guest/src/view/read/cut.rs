//! Where a long text may be cut (SPEC R2): at the last grapheme-cluster
//! boundary within both a character and a byte limit, so no UTF-8 sequence
//! and no combined character (é as e + ◌́, flags, ZWJ emoji) is split. Only a
//! single cluster longer than the whole limit is cut inside, at a character
//! boundary, so that paging always moves forward.

use unicode_segmentation::GraphemeCursor;

/// The byte index at which to cut `text` so that at most `max_chars`
/// characters and `max_bytes` bytes remain before it; `text.len()` if it fits.
pub(crate) fn cut_point(text: &str, max_chars: u64, max_bytes: usize) -> usize {
    // Fits without counting: a char is at least one byte.
    if text.len() <= max_bytes && text.len() as u64 <= max_chars {
        return text.len();
    }
    let mut limit = text.len().min(max_bytes);
    if let Some((at, _)) = text
        .char_indices()
        .nth(usize::try_from(max_chars).unwrap_or(usize::MAX))
    {
        limit = limit.min(at);
    }
    while !text.is_char_boundary(limit) {
        limit -= 1;
    }
    if limit == text.len() {
        return limit;
    }
    let mut cursor = GraphemeCursor::new(limit, text.len(), true);
    match cursor.is_boundary(text, 0) {
        Ok(true) => limit,
        _ => match cursor.prev_boundary(text, 0) {
            Ok(Some(at)) if at > 0 => at,
            _ => limit.max(text.chars().next().map_or(0, char::len_utf8)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_whole() {
        assert_eq!(cut_point("abc", 3, 10), 3);
    }

    #[test]
    fn never_splits_a_combined_character() {
        let text = "ae\u{301}b";
        assert_eq!(cut_point(text, 2, 100), 1);
        assert_eq!(cut_point(text, 3, 100), 4);
        let flags = "🇫🇷🇩🇪";
        assert_eq!(&flags[..cut_point(flags, 3, 100)], "🇫🇷");
    }

    #[test]
    fn respects_the_byte_limit_at_char_boundaries() {
        assert_eq!(cut_point("€€", 10, 4), 3);
    }

    #[test]
    fn a_giant_cluster_still_moves_forward() {
        let zalgo = format!("a{}", "\u{301}".repeat(50));
        let at = cut_point(&zalgo, 5, 1000);
        assert!(at > 0 && zalgo.is_char_boundary(at));
    }
}
