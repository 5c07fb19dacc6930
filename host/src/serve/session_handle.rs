//! Session handles: opaque, unguessable names the server mints for a
//! session's memory, given back to the model in the answer and taken as the
//! `session` argument of later calls.

use std::io::Read as _;

use anyhow::{Context as _, Result};

/// What every minted handle starts with.
pub const PREFIX: &str = "ft_";

/// Random bytes in a handle: 128 bits, beyond guessing.
const HANDLE_BYTES: usize = 16;

/// A new handle: [`PREFIX`] and 32 hex digits from the system's random
/// source.
pub fn mint() -> Result<String> {
    let bytes = random_bytes::<HANDLE_BYTES>()?;
    let mut handle = String::with_capacity(PREFIX.len() + 2 * HANDLE_BYTES);
    handle.push_str(PREFIX);
    handle.push_str(&filetools_core::hex(&bytes));
    Ok(handle)
}

/// Whether `text` has a handle's shape (a handle of any other shape is
/// unknown without asking the store).
pub fn well_formed(text: &str) -> bool {
    text.strip_prefix(PREFIX).is_some_and(|hex| {
        hex.len() == 2 * HANDLE_BYTES && hex.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// `N` bytes from the operating system's random source.
pub fn random_bytes<const N: usize>() -> Result<[u8; N]> {
    let mut bytes = [0; N];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut source| source.read_exact(&mut bytes))
        .context("reading the system's random source")?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minted_handles_are_well_formed_and_differ() {
        let (a, b) = (mint().unwrap(), mint().unwrap());
        assert!(well_formed(&a) && well_formed(&b));
        assert_ne!(a, b);
        assert!(!well_formed("ft_1234"));
        assert!(!well_formed(&a.replace("ft_", "xx_")));
    }
}
