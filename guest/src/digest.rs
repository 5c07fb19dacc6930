//! Content hashes: lower-case hex SHA-256, the form `host-fs` preconditions
//! use to tell a real change from a touched mtime (SPEC W2).
//!
//! ```
//! assert!(filetools_core::digest::sha256_hex(b"").starts_with("e3b0c442"));
//! ```

use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// The SHA-256 of `data` as 64 lower-case hex digits.
pub fn sha256_hex(data: &[u8]) -> String {
    let digest = Sha256::digest(data);
    let mut out = String::with_capacity(64);
    for byte in digest {
        let _ = write!(out, "{byte:02x}");
    }
    out
}
