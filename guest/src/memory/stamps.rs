//! [`Stamps`]: which keys of a session's memory changed in which
//! generation, so that a checkpoint carries only what changed since the
//! generation a host holds — its cost follows the call, not the length of
//! the session.

use std::collections::{BTreeMap, BTreeSet};

/// Generations and the keys changed or removed in each.
#[derive(Debug, Clone, Default)]
pub(crate) struct Stamps {
    /// Changes since the memory was made or restored.
    changes: u64,
    /// Each key's last generation, and whether it was a removal.
    last: BTreeMap<String, (u64, bool)>,
    /// `last` the other way round: the key stamped in each generation.
    stamped: BTreeMap<u64, String>,
    /// The generations whose stamp is a key's removal, so that those a
    /// host holds are forgotten without a look at the others.
    removals: BTreeSet<u64>,
}

/// The keys stamped after a generation.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Since<'a> {
    /// Keys changed (or added), in the order of their last change.
    pub changed: Vec<&'a str>,
    /// Keys removed.
    pub removed: Vec<&'a str>,
}

impl Stamps {
    /// A number that changes with every stamp, never 0.
    pub fn generation(&self) -> u64 {
        self.changes + 1
    }

    /// `key` changed (or was added) now.
    pub fn changed(&mut self, key: &str) {
        self.stamp(key, false);
    }

    /// `key` was removed now.
    pub fn removed(&mut self, key: &str) {
        self.stamp(key, true);
    }

    fn stamp(&mut self, key: &str, removal: bool) {
        self.changes += 1;
        let now = self.generation();
        if let Some((before, _)) = self.last.insert(key.to_owned(), (now, removal)) {
            self.stamped.remove(&before);
            self.removals.remove(&before);
        }
        self.stamped.insert(now, key.to_owned());
        if removal {
            self.removals.insert(now);
        }
    }

    /// Forgets the removals of generation `held` and before: a host that
    /// holds `held` never asks about them again, and a session that
    /// removes many keys over its life keeps no trace of each.
    pub fn forget_held(&mut self, held: u64) {
        while let Some(&generation) = self.removals.first()
            && generation <= held
        {
            self.removals.pop_first();
            if let Some(key) = self.stamped.remove(&generation) {
                self.last.remove(&key);
            }
        }
    }

    /// The keys stamped after generation `held`.
    pub fn since(&self, held: u64) -> Since<'_> {
        let mut since = Since::default();
        for key in self.stamped.range(held + 1..).map(|(_, key)| key.as_str()) {
            match self.last.get(key) {
                Some((_, true)) => since.removed.push(key),
                _ => since.changed.push(key),
            }
        }
        since
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_was_stamped_after_a_generation_is_named() {
        let mut stamps = Stamps::default();
        stamps.changed("a");
        stamps.changed("b");
        let held = stamps.generation();
        assert_eq!(stamps.since(held), Since::default());
        stamps.changed("a");
        stamps.removed("b");
        stamps.removed("c");
        stamps.changed("c");
        let since = stamps.since(held);
        assert_eq!(since.changed, ["a", "c"]);
        assert_eq!(since.removed, ["b"]);
        assert_eq!(stamps.since(0).changed, ["a", "c"]);
        let now = stamps.generation();
        stamps.forget_held(now);
        assert_eq!(stamps.since(held).removed, Vec::<&str>::new());
        assert_eq!(stamps.since(held).changed, ["a", "c"]);
        assert_eq!(stamps.last.len(), 2, "the removal of b is forgotten");
    }
}
