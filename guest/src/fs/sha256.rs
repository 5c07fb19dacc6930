//! Content hashes: lower-case hex SHA-256, the form `host-fs` preconditions
//! use to tell a real change from a touched mtime (SPEC W2).
//!
//! ```
//! assert!(filetools_core::fs::sha256::sha256_hex(b"").starts_with("e3b0c442"));
//! ```

use sha2::{Digest, Sha256};

/// Bytes from which the component asks its host for a SHA-256: below, the
/// crossing costs about what the software hash (some 4 µs a kilobyte in
/// wasm) would. A 20-file patch of 3 KB files spent an eighth of its time
/// hashing in the component before. A host whose crossing costs more may
/// decline small inputs (Node's declines under 4 KiB).
pub const HOST_SHA256_MIN_BYTES: usize = 1024;

/// The SHA-256 of `data` as 64 lower-case hex digits. In the component, a
/// large input is hashed by the host when it offers to (its CPU's SHA
/// instructions are about ten times faster than the software hash).
pub fn sha256_hex(data: &[u8]) -> String {
    if data.len() >= HOST_SHA256_MIN_BYTES
        && let Some(both) = crate::fs::digests::host_digests(data)
    {
        return both.sha256;
    }
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
