//! The text the model last saw of each file (SPEC V3, V4), kept so that a
//! file someone changed since is answered with what changed, and an edit
//! of it can be merged with that change. A view is the whole content at
//! the version the ledger's record describes; it is kept in the history's
//! content-addressed store (so it is checkpointed and saved with it), for
//! files up to `max_edit_bytes`, within the session's `view_bytes`, the
//! oldest going first.

use std::collections::BTreeSet;

use crate::config::Config;
use crate::fs::digests::Digests;
use crate::memory::ledger::View;
use crate::memory::state::State;

/// The order views were kept in and the bytes they hold; rebuilt from the
/// ledger when a state is restored.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    order: BTreeSet<(u64, String)>,
    bytes: u64,
}

/// Indexes are derived data: states are equal whatever their index.
impl PartialEq for Seen {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Seen {}

/// Bytes compared per block by [`same_bytes`].
const COMPARE_BLOCK: usize = 256;

/// Whether `a` and `b` hold the same bytes. Each block is folded without an
/// early exit, a loop the compiler turns into SIMD; the component's `memcmp`
/// (wasi-libc's) goes a byte at a time, and comparing a kept 100 KB view
/// took half of every read.
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len()
        && a.chunks(COMPARE_BLOCK)
            .zip(b.chunks(COMPARE_BLOCK))
            .all(|(x, y)| x.iter().zip(y).fold(0u8, |diff, (p, q)| diff | (p ^ q)) == 0)
}

impl State {
    /// Keeps `text` as what the model now knows of `path` (whose record
    /// the ledger holds), dropping the oldest views past the budget.
    pub(crate) fn keep_view(&mut self, path: &str, text: &[u8], config: &Config) {
        self.settle_views();
        let budget = config.view_bytes;
        let size = text.len() as u64;
        let Some(record) = self.ledger.get(path) else {
            return;
        };
        if let Some(view) = &record.view
            && self
                .history
                .view(&view.sha256)
                .is_some_and(|kept| same_bytes(kept, text))
        {
            return;
        }
        self.forget_view(path);
        if size > budget || size > config.max_edit_bytes {
            return;
        }
        let Digests { sha256, xxh3 } = self.history.hold_view(text);
        let at = self.calls;
        if let Some(record) = self.ledger.get_mut(path) {
            record.view = Some(View { sha256, xxh3, at });
        }
        self.views.order.insert((at, path.to_owned()));
        self.views.bytes += size;
        while self.views.bytes > budget {
            let Some((_, oldest)) = self.views.order.first().cloned() else {
                break;
            };
            self.forget_view(&oldest);
        }
    }

    /// The text the model last saw of `path`, at the version its record
    /// describes.
    pub(crate) fn view(&self, path: &str) -> Option<&[u8]> {
        let view = self.ledger.get(path)?.view.as_ref()?;
        self.history.view(&view.sha256)
    }

    /// Drops the view of `path`, if any.
    pub(crate) fn forget_view(&mut self, path: &str) {
        let Some(view) = self.ledger.get(path).and_then(|r| r.view.clone()) else {
            return;
        };
        if let Some(record) = self.ledger.get_mut(path) {
            record.view = None;
        }
        self.release_view(path, &view);
    }

    /// Lets go of `view`, no longer held by `path`'s record.
    fn release_view(&mut self, path: &str, view: &View) {
        if self.views.order.remove(&(view.at, path.to_owned())) {
            let size = self.history.view(&view.sha256).map_or(0, <[u8]>::len);
            self.views.bytes = self.views.bytes.saturating_sub(size as u64);
        }
        self.history.drop_view(&view.sha256);
    }

    /// Lets go of the views of records the ledger replaced or removed.
    pub(crate) fn settle_views(&mut self) {
        for (path, view) in self.ledger.take_released() {
            self.release_view(&path, &view);
        }
    }

    /// The state with its view index rebuilt, and records whose view the
    /// history does not hold stripped of it.
    pub(crate) fn reindexed_views(mut self) -> Self {
        let mut index = Seen::default();
        let mut missing = Vec::new();
        for (path, view) in self.ledger.views() {
            match self.history.view(&view.sha256) {
                Some(text) => {
                    index.order.insert((view.at, path.clone()));
                    index.bytes += text.len() as u64;
                }
                None => missing.push(path.clone()),
            }
        }
        for path in missing {
            if let Some(record) = self.ledger.get_mut(&path) {
                record.view = None;
            }
        }
        self.views = index;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::ledger::tests::record;

    #[test]
    fn bytes_are_compared_whole_across_blocks() {
        let a: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        assert!(same_bytes(&a, &a.clone()));
        for at in [0, 255, 256, 999] {
            let mut b = a.clone();
            b[at] ^= 0x80;
            assert!(!same_bytes(&a, &b), "{at}");
        }
        assert!(!same_bytes(&a, &a[..999]));
        assert!(same_bytes(b"", b""));
    }

    fn config(view_bytes: u64) -> Config {
        Config {
            view_bytes,
            ..Config::default()
        }
    }

    #[test]
    fn views_past_the_budget_go_oldest_first_and_their_text_with_them() {
        let mut state = State::default();
        for (n, path) in ["a", "b", "c"].into_iter().enumerate() {
            state.calls = n as u64 + 1;
            state.ledger.insert(path, record(state.calls));
            state.keep_view(path, path.repeat(4).as_bytes(), &config(10));
        }
        assert_eq!(state.view("a"), None);
        assert_eq!(state.view("b"), Some(&b"bbbb"[..]));
        assert_eq!(state.view("c"), Some(&b"cccc"[..]));
        state.ledger.remove("b");
        state.settle_views();
        assert_eq!(
            state.history.view(&crate::fs::sha256::sha256_hex(b"bbbb")),
            None
        );
        let saved = State::restore(&state.save()).unwrap();
        assert_eq!(saved.view("c"), Some(&b"cccc"[..]));
        assert_eq!(saved.views.bytes, 4);
    }

    #[test]
    fn a_host_that_kept_the_checkpoints_brings_the_views_back() {
        let mut state = State::default();
        state.ledger.insert("a", record(1));
        state.keep_view("a", b"text of a", &config(100));
        let checkpoint = state.checkpoint(crate::memory::state::Generations::default());
        let history = checkpoint
            .history
            .expect("the view's text is in the history");
        let kept = crate::memory::state::Kept {
            core: checkpoint.core,
            records: checkpoint.ledger.expect("the record").changed,
            entries: history.changed,
            seq: history.seq,
            versions: history.added.into_iter().collect(),
        };
        let resumed = State::resume(kept.clone()).unwrap();
        assert_eq!(resumed.view("a"), Some(&b"text of a"[..]));
        let lost = crate::memory::state::Kept {
            versions: std::collections::BTreeMap::new(),
            ..kept
        };
        let resumed = State::resume(lost).unwrap();
        assert_eq!(
            resumed.view("a"),
            None,
            "a view whose text is gone is dropped"
        );
        assert!(resumed.ledger.get("a").is_some(), "and its record stays");
    }

    #[test]
    fn a_file_over_the_budget_keeps_no_view() {
        let mut state = State::default();
        state.ledger.insert("a", record(1));
        state.keep_view("a", b"12345", &config(4));
        assert_eq!(state.view("a"), None);
        assert_eq!(state.history.bytes(), 0);
    }
}
