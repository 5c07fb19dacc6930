//! [`Version`]: what names one state of a file's content to the model and
//! back (SPEC V1, V2): the 64-bit [`crate::memory::fingerprint::Fingerprint`] of
//! its bytes and its size, written `HASH-SIZE` (16 hex digits, a dash, the
//! size in bytes). Every answer that shows or changes a file carries it; a
//! change given `expect` lands only on that version.
//!
//! ```
//! use filetools_core::memory::version::Version;
//! let v = Version::of(b"hello\n");
//! assert_eq!(v.size, 6);
//! assert_eq!(v.to_string().parse::<Version>(), Ok(v));
//! assert!("v1".parse::<Version>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use crate::memory::fingerprint::Fingerprint;

/// Hex digits of the hash in a version's text.
const HASH_DIGITS: usize = 16;

/// One state of a file's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    /// The content's fingerprint.
    pub hash: u64,
    /// Its size in bytes.
    pub size: u64,
}

impl Version {
    /// The version of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        Self {
            hash: Fingerprint::of(bytes),
            size: bytes.len() as u64,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}-{}", self.hash, self.size)
    }
}

/// Why a text is not a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotAVersion;

impl FromStr for Version {
    type Err = NotAVersion;

    /// Reads `HASH-SIZE`, ignoring surrounding blanks and a leading `v`.
    fn from_str(text: &str) -> Result<Self, NotAVersion> {
        let text = text.trim();
        let text = text.strip_prefix('v').unwrap_or(text);
        let (hash, size) = text.split_once('-').ok_or(NotAVersion)?;
        if hash.len() != HASH_DIGITS || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(NotAVersion);
        }
        if size.is_empty() || !size.bytes().all(|b| b.is_ascii_digit()) {
            return Err(NotAVersion);
        }
        Ok(Self {
            hash: u64::from_str_radix(hash, 16).map_err(|_| NotAVersion)?,
            size: size.parse().map_err(|_| NotAVersion)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_form_round_trips_and_rejects_other_shapes() {
        let v = Version {
            hash: 0xab,
            size: 0,
        };
        assert_eq!(v.to_string(), "00000000000000ab-0");
        assert_eq!(" 00000000000000AB-0\n".parse(), Ok(v));
        for bad in [
            "",
            "ab-0",
            "00000000000000ab",
            "00000000000000ab-",
            "00000000000000ag-1",
            "00000000000000ab--1",
        ] {
            assert_eq!(bad.parse::<Version>(), Err(NotAVersion), "{bad}");
        }
    }
}
