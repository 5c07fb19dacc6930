//! [`Digests`]: the SHA-256 of a content, and its XXH3-128 where that costs
//! next to nothing. The SHA-256 names versions (the history keeps them under
//! it); the XXH3-128 lets a host check a write's precondition in a tenth of
//! the time, guarding against accident and races as the check must.
//!
//! ```
//! use filetools_core::fs::digests::{Digests, xxh3_hex};
//! let both = Digests::of(b"abc");
//! assert!(both.sha256.starts_with("ba7816bf"));
//! assert_eq!(both.xxh3.as_deref(), Some(xxh3_hex(b"abc").as_str()));
//! ```

use crate::fs::sha256::{HOST_SHA256_MIN_BYTES, hex, sha256_hex};

/// Hex digits of an XXH3-128.
pub const XXH3_HEX_DIGITS: usize = 32;

/// The digests of one content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digests {
    /// Lower-case hex SHA-256.
    pub sha256: String,
    /// Lower-case hex XXH3-128, when it was computed.
    pub xxh3: Option<String>,
}

impl Digests {
    /// The digests of `data`. In the component a large input goes to the
    /// host in one crossing, which gives both where it computes XXH3-128 and
    /// the SHA-256 alone where it does not (then no XXH3-128 is kept: the
    /// component's own would cost a good part of what the host saves). A
    /// small input, or one the host declines, gets the SHA-256 computed
    /// here, and the XXH3-128 too outside the component, where it is cheap.
    pub fn of(data: &[u8]) -> Self {
        if data.len() >= HOST_SHA256_MIN_BYTES
            && let Some(both) = host_digests(data)
        {
            return both;
        }
        Self {
            sha256: sha256_hex(data),
            xxh3: (!cfg!(target_family = "wasm")).then(|| xxh3_hex(data)),
        }
    }
}

/// The XXH3-128 of `data` as 32 lower-case hex digits, big-endian.
pub fn xxh3_hex(data: &[u8]) -> String {
    hex(&xxhash_rust::xxh3::xxh3_128(data).to_be_bytes())
}

/// Whether `digest` is `digits` lower-case hex digits.
#[cfg(any(target_family = "wasm", test))]
pub(crate) fn well_formed(digest: &str, digits: usize) -> bool {
    digest.len() == digits
        && digest
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The host's digests of `data`, when it gives a well-formed SHA-256; an
/// XXH3-128 that is not well formed is left out.
#[cfg(target_family = "wasm")]
pub(crate) fn host_digests(data: &[u8]) -> Option<Digests> {
    let both = crate::imports::host_digests(data)?;
    well_formed(&both.sha256, 64).then(|| Digests {
        xxh3: both.xxh3.filter(|x| well_formed(x, XXH3_HEX_DIGITS)),
        sha256: both.sha256,
    })
}

/// Natively both are computed here, with the CPU's instructions.
#[cfg(not(target_family = "wasm"))]
pub(crate) fn host_digests(_: &[u8]) -> Option<Digests> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_xxh3_is_the_128_bit_value_big_endian() {
        // XXH3-128 of the empty input, from the algorithm's reference.
        assert_eq!(xxh3_hex(b""), "99aa06d3014798d86001c324468d497f");
    }

    #[test]
    fn well_formed_digests_are_lower_case_hex_of_their_length() {
        assert!(well_formed(&"a1".repeat(16), XXH3_HEX_DIGITS));
        assert!(!well_formed(&"A1".repeat(16), XXH3_HEX_DIGITS));
        assert!(!well_formed("a1", XXH3_HEX_DIGITS));
    }
}
