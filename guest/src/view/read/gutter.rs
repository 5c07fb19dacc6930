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

/// Appends `number` and a tab. Written by hand: on a long page the
/// formatting machinery costs more than the lines.
pub(crate) fn push(out: &mut String, number: u64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut n = number;
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(buf[at..].iter().map(|&digit| char::from(digit)));
    out.push('\t');
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
        assert_eq!(out, "7\t1234\t0\t");
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
