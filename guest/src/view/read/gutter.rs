//! The `cat -n` gutter (SPEC R1): each shown line starts with its 1-based
//! number, right-aligned to the widest number on the page, and a tab. The
//! numbers are coordinates the model quotes in edits and answers.
//!
//! A page is written in one pass, before its last line number is known, with
//! a provisional width that can only be too wide; [`narrow`] trims the extra
//! spaces afterwards when the page ended early.

/// Decimal digits of `n`.
pub(crate) fn digits(n: u64) -> u64 {
    u64::from(n.max(1).ilog10()) + 1
}

/// Appends `number` right-aligned in `width` columns, then a tab. Written by
/// hand: on a long page the formatting machinery costs more than the lines.
pub(crate) fn push(out: &mut String, number: u64, width: u64) {
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
    for _ in (buf.len() - at) as u64..width {
        out.push(' ');
    }
    out.push_str(std::str::from_utf8(&buf[at..]).unwrap_or_default());
    out.push('\t');
}

/// Removes `extra` leading spaces from every line of `page` (each line ends
/// with `\n` and starts with a gutter at least that wide).
pub(crate) fn narrow(page: &mut String, extra: u64) {
    if extra == 0 {
        return;
    }
    let extra = usize::try_from(extra).unwrap_or(usize::MAX);
    let mut narrowed = String::with_capacity(page.len());
    for line in page.split_inclusive('\n') {
        narrowed.push_str(&line[extra.min(line.len())..]);
    }
    *page = narrowed;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_right_aligned() {
        let mut out = String::new();
        push(&mut out, 7, 3);
        push(&mut out, 1234, 2);
        assert_eq!(out, "  7\t1234\t");
    }

    #[test]
    fn narrowing_trims_every_gutter() {
        let mut page = String::from("  9\tnine\n 10\tten\n");
        narrow(&mut page, 1);
        assert_eq!(page, " 9\tnine\n10\tten\n");
    }

    #[test]
    fn digits_of_edges() {
        assert_eq!(
            (digits(0), digits(9), digits(10), digits(u64::MAX)),
            (1, 1, 2, 20)
        );
    }
}
