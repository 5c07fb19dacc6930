//! [`Fingerprint`]: a fast 64-bit hash of a file's bytes, computed while a
//! read streams them (SPEC W2, R7). The ledger keeps it so a later write or
//! edit can tell whether the content changed — even when the size and mtime
//! did not, and even when only the mtime moved. It is not a defence against
//! an adversary (the write itself is guarded by the host's SHA-256 check);
//! it only has to notice accidental change, and to cost little enough that
//! every read can afford it.
//!
//! Chunk boundaries do not matter: feeding bytes in any split gives the same
//! value.
//!
//! ```
//! use filetools_core::memory::fingerprint::Fingerprint;
//! let mut split = Fingerprint::new();
//! split.update(b"hello, ");
//! split.update(b"world");
//! assert_eq!(split.finish(), Fingerprint::of(b"hello, world"));
//! assert_ne!(Fingerprint::of(b"hello, world"), Fingerprint::of(b"hello, World"));
//! ```

/// Bytes per block: four independent 64-bit lanes, so the multiplications
/// of one block overlap.
const BLOCK: usize = 32;

/// Odd constants with well-spread bits, one per lane.
const KEYS: [u64; 4] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0x85EB_CA77_C2B2_AE63,
];

/// A streaming 64-bit content hash.
#[derive(Debug, Clone)]
pub struct Fingerprint {
    lanes: [u64; 4],
    pending: [u8; BLOCK],
    pending_len: usize,
    total: u64,
}

impl Default for Fingerprint {
    fn default() -> Self {
        Self::new()
    }
}

impl Fingerprint {
    /// An empty hash.
    pub fn new() -> Self {
        Self {
            lanes: KEYS,
            pending: [0; BLOCK],
            pending_len: 0,
            total: 0,
        }
    }

    /// The hash of `bytes` in one go.
    pub fn of(bytes: &[u8]) -> u64 {
        let mut hash = Self::new();
        hash.update(bytes);
        hash.finish()
    }

    /// Feeds the next bytes.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.pending_len > 0 {
            let take = (BLOCK - self.pending_len).min(bytes.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&bytes[..take]);
            self.pending_len += take;
            bytes = &bytes[take..];
            if self.pending_len < BLOCK {
                return;
            }
            let block = self.pending;
            self.block(&block);
            self.pending_len = 0;
        }
        let mut blocks = bytes.chunks_exact(BLOCK);
        for block in &mut blocks {
            self.block(block);
        }
        let rest = blocks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    fn block(&mut self, block: &[u8]) {
        for (lane, (word, key)) in block.chunks_exact(8).zip(KEYS).enumerate() {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            self.lanes[lane] = (self.lanes[lane] ^ word).wrapping_mul(key).rotate_left(31);
        }
    }

    /// The hash of everything fed so far.
    pub fn finish(mut self) -> u64 {
        if self.pending_len > 0 {
            let mut block = [0u8; BLOCK];
            block[..self.pending_len].copy_from_slice(&self.pending[..self.pending_len]);
            self.block(&block);
        }
        let mut hash = self.total;
        for (lane, key) in self.lanes.into_iter().zip(KEYS) {
            hash = (hash ^ lane).wrapping_mul(key).rotate_left(27);
        }
        // Final avalanche so every input bit reaches every output bit.
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        hash ^= hash >> 33;
        hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn length_is_part_of_the_hash() {
        assert_ne!(Fingerprint::of(b""), Fingerprint::of(b"\0"));
        assert_ne!(Fingerprint::of(b"a"), Fingerprint::of(b"a\0"));
    }

    #[test]
    fn one_changed_byte_changes_the_hash() {
        let base = vec![b'x'; 1000];
        let reference = Fingerprint::of(&base);
        for at in [0, 31, 32, 500, 999] {
            let mut changed = base.clone();
            changed[at] = b'y';
            assert_ne!(Fingerprint::of(&changed), reference, "byte {at}");
        }
    }

    proptest! {
        #[test]
        fn any_split_gives_the_same_hash(data in proptest::collection::vec(any::<u8>(), 0..300), cuts in proptest::collection::vec(0usize..300, 0..6)) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(data.len())).collect();
            cuts.sort_unstable();
            let mut hash = Fingerprint::new();
            let mut from = 0;
            for cut in cuts {
                hash.update(&data[from..cut]);
                from = cut;
            }
            hash.update(&data[from..]);
            prop_assert_eq!(hash.finish(), Fingerprint::of(&data));
        }
    }
}
