//! The gutter (SPEC R1): each shown line starts with its 1-based number and
//! a tab, `N<TAB>`, with no padding. The numbers are coordinates the model
//! quotes in edits and answers; padding them to a common width would cost a
//! byte per line per missing digit and tell the model nothing.

/// Whether a page numbers its lines. A read by symbol shows its entry's
/// lines bare, as they stand in the file, under one header that gives
/// their range (SPEC R18).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gutter {
    /// `N<TAB>` before each line.
    Numbered,
    /// The lines alone.
    Bare,
}

impl Gutter {
    /// Bytes the gutter of line `number` takes.
    pub(crate) fn width(self, number: u64) -> u64 {
        match self {
            Gutter::Numbered => width(number),
            Gutter::Bare => 0,
        }
    }

    /// Appends the gutter of line `number`, if any.
    pub(crate) fn push(self, out: &mut String, number: u64) {
        if self == Gutter::Numbered {
            push(out, number);
        }
    }
}

/// Decimal digits of `n`.
pub(crate) fn digits(n: u64) -> u64 {
    u64::from(n.max(1).ilog10()) + 1
}

/// Bytes the gutter of line `number` takes.
pub(crate) fn width(number: u64) -> u64 {
    digits(number) + 1
}

/// The numbers 000 to 999, three digits each: a gutter is appended a
/// group of digits at a time, with no formatting machinery and no check
/// of the bytes (a character at a time, or text checked as UTF-8, cost
/// the component as much as the line itself).
const TRIPLES_BYTES: [u8; 3000] = {
    let mut bytes = [0u8; 3000];
    let mut n = 0;
    while n < 1000 {
        bytes[3 * n] = b'0' + (n / 100) as u8;
        bytes[3 * n + 1] = b'0' + (n / 10 % 10) as u8;
        bytes[3 * n + 2] = b'0' + (n % 10) as u8;
        n += 1;
    }
    bytes
};
const TRIPLES: &str = match std::str::from_utf8(&TRIPLES_BYTES) {
    Ok(text) => text,
    Err(_) => panic!("digits are ASCII"),
};

/// Appends `number` and a tab.
pub(crate) fn push(out: &mut String, number: u64) {
    push_digits(out, number);
    out.push('\t');
}

/// Appends the digits of `number`, the first group without leading zeros.
fn push_digits(out: &mut String, number: u64) {
    let low = usize::try_from(number % 1000).unwrap_or(0) * 3;
    if number < 1000 {
        let skip = match number {
            0..=9 => 2,
            10..=99 => 1,
            _ => 0,
        };
        out.push_str(&TRIPLES[low + skip..low + 3]);
    } else {
        push_digits(out, number / 1000);
        out.push_str(&TRIPLES[low..low + 3]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_not_padded() {
        let mut out = String::new();
        push(&mut out, 7);
        push(&mut out, 1234);
        push(&mut out, 0);
        push(&mut out, 1_000_007);
        push(&mut out, u64::MAX);
        assert_eq!(out, format!("7\t1234\t0\t1000007\t{}\t", u64::MAX));
    }

    #[test]
    fn a_bare_gutter_is_empty() {
        let mut out = String::new();
        Gutter::Bare.push(&mut out, 1234);
        Gutter::Numbered.push(&mut out, 1234);
        assert_eq!(out, "1234\t");
        assert_eq!(
            (Gutter::Bare.width(1234), Gutter::Numbered.width(1234)),
            (0, 5)
        );
    }

    #[test]
    fn digits_and_widths_of_edges() {
        assert_eq!(
            (digits(0), digits(9), digits(10), digits(u64::MAX)),
            (1, 1, 2, 20)
        );
        assert_eq!((width(9), width(10)), (2, 3));
    }
}
