//! Digests of a large write, computed on another core while the write
//! reaches the disk, and kept for the component, which asks for the digests
//! of the same content next (the name of the session's new view of the
//! file). The write's sync leaves a core idle for about as long as the
//! SHA-256 of a megabyte takes, so the hash costs the call next to nothing.
//!
//! The kept digests answer only for the very bytes written (compared whole,
//! a twentieth of the hash's cost), and only within the call.

use filetools_core::Digests;

/// Writes smaller than this are hashed when asked: a thread costs more
/// than their hash.
pub const AHEAD_MIN_BYTES: usize = 256 * 1024;

/// Writes larger than this are not kept to be compared: the memory held
/// until the call's end would be theirs.
pub const AHEAD_MAX_BYTES: usize = 64 * 1024 * 1024;

/// The last large write of the call, with its digests.
#[derive(Debug, Default)]
pub(crate) struct Ahead(Option<(Vec<u8>, Digests)>);

impl Ahead {
    /// Runs `write` of `data`, hashing `data` meanwhile on another thread
    /// when `hashing` and the size is in range; the digests are kept when
    /// the write succeeds.
    pub fn write<T, E>(
        &mut self,
        data: Vec<u8>,
        hashing: bool,
        write: impl FnOnce(&[u8]) -> Result<T, E>,
    ) -> Result<T, E> {
        self.0 = None;
        if !hashing || !(AHEAD_MIN_BYTES..=AHEAD_MAX_BYTES).contains(&data.len()) {
            return write(&data);
        }
        let (outcome, digests) = std::thread::scope(|scope| {
            let hashed = std::thread::Builder::new()
                .name("filetools-digests".to_owned())
                .spawn_scoped(scope, || Digests::of(&data));
            let outcome = write(&data);
            (outcome, hashed.ok().and_then(|h| h.join().ok()))
        });
        if let (Ok(_), Some(digests)) = (&outcome, digests) {
            self.0 = Some((data, digests));
        }
        outcome
    }

    /// The digests of `data`, when it is the content of the write kept.
    pub fn take_for(&mut self, data: &[u8]) -> Option<Digests> {
        match self.0.take() {
            Some((written, digests)) if written == data => Some(digests),
            _ => None,
        }
    }

    /// Lets go of the write kept (the call is over).
    pub fn clear(&mut self) {
        self.0 = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn large(fill: u8) -> Vec<u8> {
        vec![fill; AHEAD_MIN_BYTES + 1]
    }

    #[test]
    fn a_large_write_gives_its_digests_for_its_own_bytes_once() {
        let mut ahead = Ahead::default();
        let written = ahead.write(large(b'a'), true, |data| Ok::<_, ()>(data.len()));
        assert_eq!(written, Ok(AHEAD_MIN_BYTES + 1));
        assert_eq!(ahead.take_for(&large(b'b')), None);
        ahead.write(large(b'a'), true, |_| Ok::<_, ()>(())).unwrap();
        assert_eq!(
            ahead.take_for(&large(b'a')),
            Some(Digests::of(&large(b'a')))
        );
        assert_eq!(ahead.take_for(&large(b'a')), None);
    }

    #[test]
    fn a_failed_small_or_unhashed_write_keeps_nothing() {
        let mut ahead = Ahead::default();
        let _ = ahead.write(large(b'a'), true, |_| Err::<(), _>("refused"));
        assert_eq!(ahead.take_for(&large(b'a')), None);
        ahead
            .write(large(b'a'), false, |_| Ok::<_, ()>(()))
            .unwrap();
        assert_eq!(ahead.take_for(&large(b'a')), None);
        ahead
            .write(vec![b'a'; 10], true, |_| Ok::<_, ()>(()))
            .unwrap();
        assert_eq!(ahead.take_for(&[b'a'; 10]), None);
    }
}
