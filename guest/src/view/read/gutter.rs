//! The gutter (SPEC R1): each shown line starts with its 1-based number and
//! a tab, `N<TAB>`, with no padding. The numbers are coordinates the model
//! quotes in edits and answers; padding them to a common width would cost a
//! byte per line per missing digit and tell the model nothing.

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
    fn digits_and_widths_of_edges() {
        assert_eq!(
            (digits(0), digits(9), digits(10), digits(u64::MAX)),
            (1, 1, 2, 20)
        );
        assert_eq!((width(9), width(10)), (2, 3));
    }
}
