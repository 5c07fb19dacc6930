//! Carries the file's quote style into the new text (SPEC E2): when a match
//! was found only because straight and curly quotes were folded together,
//! the quotes in `new_string` are turned into the kind the matched text uses,
//! opening or closing by their context, so "don’t" stays typographic.

/// `new` with its quotes in the style of `matched`.
pub(crate) fn carry(new: &str, matched: &str) -> String {
    let curly_double = matched.contains(['\u{201C}', '\u{201D}']);
    let straight_double = matched.contains('"');
    let curly_single = matched.contains(['\u{2018}', '\u{2019}']);
    let straight_single = matched.contains('\'');
    let chars: Vec<char> = new.chars().collect();
    let mut out = String::with_capacity(new.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let opening = prev.is_none_or(|p| p.is_whitespace() || "([{<-\u{2014}\u{2013}".contains(p));
        let converted = match c {
            '"' if curly_double => {
                if opening {
                    '\u{201C}'
                } else {
                    '\u{201D}'
                }
            }
            '\u{201C}' | '\u{201D}' if straight_double && !curly_double => '"',
            '\'' if curly_single => {
                let inside_word = prev.is_some_and(char::is_alphanumeric)
                    && next.is_some_and(char::is_alphanumeric);
                if opening && !inside_word {
                    '\u{2018}'
                } else {
                    '\u{2019}'
                }
            }
            '\u{2018}' | '\u{2019}' if straight_single && !curly_single => '\'',
            c => c,
        };
        out.push(converted);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_quotes_become_curly_where_the_file_is_curly() {
        assert_eq!(
            carry("say \"don't\" now", "“can’t”"),
            "say \u{201C}don\u{2019}t\u{201D} now"
        );
        assert_eq!(carry("'a'", "‘x’"), "\u{2018}a\u{2019}");
    }

    #[test]
    fn curly_quotes_become_straight_where_the_file_is_straight() {
        assert_eq!(carry("“x” it’s", "\"y\" it's"), "\"x\" it's");
    }

    #[test]
    fn text_without_quotes_in_the_match_is_left_alone() {
        assert_eq!(carry("\"a\" ‘b’", "plain"), "\"a\" ‘b’");
    }
}
