//! Paths in byte order, compared eight bytes at a time: the engine the
//! guest runs on compares byte by byte otherwise, and the paths a search
//! sorts share long prefixes (the directories they sit in).
//!
//! ```
//! use std::cmp::Ordering;
//! use filetools_core::paths::order::by_bytes;
//! assert_eq!(by_bytes("a-c", "a/x"), Ordering::Less);
//! assert_eq!(by_bytes("src/lib.rs", "src/lib.rs"), Ordering::Equal);
//! assert_eq!(by_bytes("src/main.rs", "src/lib.rs"), Ordering::Greater);
//! ```

use std::cmp::Ordering;

/// Bytes compared at once.
const CHUNK: usize = 8;

/// `a` against `b`, as `a.as_bytes().cmp(b.as_bytes())` orders them.
#[must_use]
pub fn by_bytes(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut at = 0;
    while at + CHUNK <= a.len() && at + CHUNK <= b.len() {
        let x = u64::from_be_bytes(chunk(a, at));
        let y = u64::from_be_bytes(chunk(b, at));
        if x != y {
            return x.cmp(&y);
        }
        at += CHUNK;
    }
    a[at..].cmp(&b[at..])
}

fn chunk(bytes: &[u8], at: usize) -> [u8; CHUNK] {
    let mut out = [0; CHUNK];
    out.copy_from_slice(&bytes[at..at + CHUNK]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_is_the_bytes_order_at_every_length_and_difference() {
        let words = [
            "",
            "a",
            "a/",
            "a-c",
            "a/x",
            "a.txt",
            "ab",
            "index/crate-1.0/src/lib.rs",
            "index/crate-1.0/src/lib.rt",
            "index/crate-1.0/src/li",
            "index/crate-1.0/src/lib.rs.orig",
            "é/x",
            "z\u{7f}",
            "z\u{80}",
        ];
        for a in words {
            for b in words {
                assert_eq!(
                    by_bytes(a, b),
                    a.as_bytes().cmp(b.as_bytes()),
                    "{a:?} {b:?}"
                );
            }
        }
    }
}
