//! Content hashes: lower-case hex SHA-256, the form `host-fs` preconditions
//! use to tell a real change from a touched mtime (SPEC W2).
//!
//! ```
//! assert!(filetools_core::digest::sha256_hex(b"").starts_with("e3b0c442"));
//! ```

use sha2::{Digest, Sha256};

/// The SHA-256 of `data` as 64 lower-case hex digits.
pub fn sha256_hex(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

/// `bytes` as lower-case hex, two digits each.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 15)]));
    }
    out
}
