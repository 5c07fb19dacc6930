//! File history (SPEC W5, E10): before every write or edit, the version it
//! replaces is kept, content-addressed by SHA-256 so identical versions are
//! stored once, together with the ledger record the session had of it. `undo`
//! pops the newest entry of a file. Memory is bounded: past
//! [`crate::config::Config::history_bytes`] the oldest versions are dropped (their
//! entries remain, marked lost, so `undo` can say why it cannot restore).
//!
//! ```
//! use filetools_core::memory::history::{Before, History};
//! let mut history = History::default();
//! history.push("a.txt", Some(b"old"), None, (0, 0), 1024);
//! history.push("a.txt", Some(b"older?"), None, (0, 0), 1024);
//! assert_eq!(history.depth("a.txt"), 2);
//! let (entry, bytes) = history.pop("a.txt").unwrap();
//! assert_eq!(bytes.as_deref(), Some(&b"older?"[..]));
//! assert!(matches!(entry.before, Before::Kept { .. }));
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::fs::digests::Digests;
use crate::fs::sha256::sha256_hex;
use crate::memory::ledger::Record;
use crate::memory::stamps::Stamps;
use crate::text::base64;

/// Entries kept per file; older ones are dropped.
pub const MAX_DEPTH: usize = 32;

/// What one entry costs, beside the version it keeps: its record and path
/// as the guest and a host hold them. A history keeps at most one entry
/// per this many bytes of its budget (and at least [`MIN_ENTRIES`]); past
/// that its oldest entries go whole, so a long session's memory stays
/// within about twice the budget however many files it changes.
pub const ENTRY_BYTES: u64 = 1024;

/// Entries a history keeps whatever its budget.
pub const MIN_ENTRIES: u64 = 64;

/// What a file was before a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Before {
    /// It did not exist: undo removes it.
    Absent,
    /// Its content is kept under this SHA-256.
    Kept {
        /// The content's hash.
        sha256: String,
    },
    /// Its content was too large to keep.
    Lost {
        /// Its size.
        size: u64,
    },
    /// It was moved here from this path (a directory, or a file whose
    /// content was not kept): undo moves it back.
    MovedFrom {
        /// The root-relative path it came from.
        path: String,
    },
}

/// One change of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The version the change replaced.
    pub before: Before,
    /// The ledger record of that version, restored by undo.
    pub record: Option<Record>,
    /// Fingerprint of the content the change wrote: undo refuses when the
    /// file no longer has it.
    pub after: u64,
    /// Size of the content the change wrote.
    pub after_size: u64,
    /// Order of changes across files, oldest first.
    pub seq: u64,
    /// The change removed the file (or moved it away): undo puts it back.
    #[serde(default, skip_serializing_if = "is_false")]
    pub removed: bool,
    /// Changes made together — one patch over several files, a move — share
    /// this number, and one undo takes all of them back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u64>,
}

#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's signature")]
fn is_false(value: &bool) -> bool {
    !*value
}

/// Kept file content and how many entries point at it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Blob {
    #[serde(serialize_with = "to_base64", deserialize_with = "from_base64")]
    data: Vec<u8>,
    refs: u32,
    /// Other holders: ledger records whose view (the text the model saw)
    /// this is, and turn marks that keep it.
    #[serde(default, skip_serializing_if = "is_zero")]
    views: u32,
}

#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's signature")]
fn is_zero(value: &u32) -> bool {
    *value == 0
}

fn to_base64<S: Serializer>(data: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&base64::encode(data))
}

fn from_base64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
    let text = String::deserialize(deserializer)?;
    base64::decode(&text).ok_or_else(|| serde::de::Error::custom("invalid base64"))
}

/// Every change a session made, by root-relative path.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct History {
    files: BTreeMap<String, Vec<Entry>>,
    blobs: BTreeMap<String, Blob>,
    bytes: u64,
    seq: u64,
    /// What changed in which generation — files as `f:PATH`, versions as
    /// `v:SHA256` — for [`History::generation`] and
    /// [`History::changes_since`]; not part of what it holds.
    #[serde(skip)]
    stamps: Stamps,
    /// The entries whose version is kept, oldest first, so the oldest goes
    /// first without a look at the others; rebuilt when restored.
    #[serde(skip)]
    kept_order: BTreeSet<(u64, String)>,
    /// Every entry, oldest first, so the oldest goes first when their
    /// count passes the budget; rebuilt when restored.
    #[serde(skip)]
    order: BTreeSet<(u64, String)>,
}

/// What changed in a history since a generation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryChange {
    /// Each file whose entries changed: its entries, as JSON.
    pub changed: Vec<(String, String)>,
    /// Files whose entries are all gone.
    pub removed: Vec<String>,
    /// The sequence number of the newest change.
    pub seq: u64,
    /// The versions kept since, by SHA-256.
    pub added: Vec<(String, Vec<u8>)>,
    /// The SHA-256 of each version dropped since.
    pub dropped: Vec<String>,
}

/// Histories are equal when they hold the same changes, however they came
/// to.
impl PartialEq for History {
    fn eq(&self, other: &Self) -> bool {
        (&self.files, &self.blobs, self.bytes, self.seq)
            == (&other.files, &other.blobs, other.bytes, other.seq)
    }
}

impl Eq for History {}

impl History {
    /// A number that changes whenever the history does (never 0), so a host
    /// keeping a copy knows when to take a new one.
    pub fn generation(&self) -> u64 {
        self.stamps.generation()
    }

    /// Notes that `path`'s entries changed (or are all gone) now.
    fn touched(&mut self, path: &str) {
        let key = format!("f:{path}");
        if self.files.contains_key(path) {
            self.stamps.changed(&key);
        } else {
            self.stamps.removed(&key);
        }
    }

    /// Records a change of `path` that replaced `before` (`None`: the file
    /// did not exist), keeping at most `cap` bytes of versions in all.
    /// `after` is the fingerprint and size of what the change wrote.
    pub fn push(
        &mut self,
        path: &str,
        before: Option<&[u8]>,
        record: Option<Record>,
        after: (u64, u64),
        cap: u64,
    ) {
        let digest = before.map(sha256_hex);
        let before = before.zip(digest.as_deref());
        self.push_hashed(path, before, record, after, cap);
    }

    /// [`push`](Self::push) of a `before` whose SHA-256 is known already
    /// (the change read it whole), so it is not hashed again.
    pub fn push_hashed(
        &mut self,
        path: &str,
        before: Option<(&[u8], &str)>,
        record: Option<Record>,
        after: (u64, u64),
        cap: u64,
    ) {
        let before = before.map_or(Before::Absent, |(data, sha256)| {
            self.keep(data, sha256, cap)
        });
        self.push_entry(path, before, record, after, cap);
    }

    /// Records a change whose previous version of `size` bytes was not kept.
    pub fn push_lost(
        &mut self,
        path: &str,
        size: u64,
        record: Option<Record>,
        after: (u64, u64),
        cap: u64,
    ) {
        self.push_entry(path, Before::Lost { size }, record, after, cap);
    }

    /// Records that what stands at `path` was moved there from `from`;
    /// `after` is its fingerprint and size (zeros for a directory).
    pub fn push_renamed(&mut self, path: &str, from: &str, after: (u64, u64), cap: u64) {
        let before = Before::MovedFrom {
            path: from.to_owned(),
        };
        self.push_entry(path, before, None, after, cap);
    }

    fn push_entry(
        &mut self,
        path: &str,
        before: Before,
        mut record: Option<Record>,
        after: (u64, u64),
        cap: u64,
    ) {
        // The text of that version is the entry's own when kept; the
        // record's view belongs to the ledger.
        if let Some(record) = record.as_mut() {
            record.view = None;
        }
        self.seq += 1;
        let seq = self.seq;
        if matches!(before, Before::Kept { .. }) {
            self.kept_order.insert((seq, path.to_owned()));
        }
        self.order.insert((seq, path.to_owned()));
        let entries = self.files.entry(path.to_owned()).or_default();
        entries.push(Entry {
            before,
            record,
            after: after.0,
            after_size: after.1,
            seq,
            removed: false,
            group: None,
        });
        if entries.len() > MAX_DEPTH {
            let dropped = entries.remove(0);
            self.kept_order.remove(&(dropped.seq, path.to_owned()));
            self.order.remove(&(dropped.seq, path.to_owned()));
            self.release(&dropped.before);
        }
        self.touched(path);
        self.evict(cap);
    }

    /// Keeps `data` (once per content) and names it; one larger than `cap`
    /// is lost at once.
    fn keep(&mut self, data: &[u8], sha256: &str, cap: u64) -> Before {
        let size = data.len() as u64;
        if size > cap {
            return Before::Lost { size };
        }
        let blob = self.blob(data, sha256);
        let first = blob.refs == 0;
        blob.refs += 1;
        if first {
            self.bytes += size;
        }
        Before::Kept {
            sha256: sha256.to_owned(),
        }
    }

    /// The blob of `data`, named `sha256`, made when new.
    fn blob(&mut self, data: &[u8], sha256: &str) -> &mut Blob {
        if !self.blobs.contains_key(sha256) {
            self.stamps.changed(&format!("v:{sha256}"));
        }
        self.blobs.entry(sha256.to_owned()).or_insert_with(|| Blob {
            data: data.to_vec(),
            refs: 0,
            views: 0,
        })
    }

    /// Removes the blob `sha256` once nothing refers to it.
    fn drop_unused(&mut self, sha256: &str) {
        if self
            .blobs
            .get(sha256)
            .is_some_and(|blob| blob.refs == 0 && blob.views == 0)
        {
            self.blobs.remove(sha256);
            self.stamps.removed(&format!("v:{sha256}"));
        }
    }

    fn release(&mut self, before: &Before) {
        if let Before::Kept { sha256 } = before
            && let Some(blob) = self.blobs.get_mut(sha256)
        {
            blob.refs -= 1;
            if blob.refs == 0 {
                self.bytes -= blob.data.len() as u64;
                self.drop_unused(sha256);
            }
        }
    }

    /// Keeps `data` as the view of a ledger record and names it by its
    /// SHA-256; views do not count against the history's budget (the
    /// session bounds them on its own).
    pub(crate) fn hold_view(&mut self, data: &[u8]) -> Digests {
        let digests = Digests::of(data);
        self.hold_hashed(data, &digests.sha256);
        digests
    }

    /// [`hold_view`](Self::hold_view) of `data` whose SHA-256 is known.
    pub(crate) fn hold_hashed(&mut self, data: &[u8], sha256: &str) {
        self.blob(data, sha256).views += 1;
    }

    /// Lets go of the view `sha256`.
    pub(crate) fn drop_view(&mut self, sha256: &str) {
        if let Some(blob) = self.blobs.get_mut(sha256) {
            blob.views = blob.views.saturating_sub(1);
            self.drop_unused(sha256);
        }
    }

    /// The text of the view `sha256`.
    pub(crate) fn view(&self, sha256: &str) -> Option<&[u8]> {
        self.blobs
            .get(sha256)
            .filter(|blob| blob.views > 0)
            .map(|blob| blob.data.as_slice())
    }

    /// The content kept under `sha256`, whoever holds it.
    pub(crate) fn held(&self, sha256: &str) -> Option<&[u8]> {
        self.blobs.get(sha256).map(|blob| blob.data.as_slice())
    }

    /// The paths with a change that can be undone.
    pub fn paths(&self) -> impl Iterator<Item = &String> {
        self.files.keys()
    }

    /// Drops the oldest kept versions until at most `cap` bytes remain.
    fn evict(&mut self, cap: u64) {
        while self.bytes > cap {
            let Some((seq, path)) = self.kept_order.pop_first() else {
                break;
            };
            let Some(entry) = self
                .files
                .get_mut(&path)
                .and_then(|entries| entries.iter_mut().find(|e| e.seq == seq))
            else {
                continue;
            };
            let Before::Kept { sha256 } = &entry.before else {
                continue;
            };
            let size = self.blobs.get(sha256).map_or(0, |b| b.data.len() as u64);
            let before = std::mem::replace(&mut entry.before, Before::Lost { size });
            self.release(&before);
            self.touched(&path);
        }
        while self.order.len() as u64 > (cap / ENTRY_BYTES).max(MIN_ENTRIES) {
            let Some((seq, path)) = self.order.first().cloned() else {
                break;
            };
            let group = self
                .files
                .get(&path)
                .and_then(|entries| entries.iter().find(|e| e.seq == seq).and_then(|e| e.group));
            match group {
                // A change of several files goes whole, or undo would take
                // back part of it.
                Some(group) => {
                    for (member, _) in self.members(group) {
                        self.drop_entries(&member, |e| e.group == Some(group));
                    }
                }
                None => self.drop_entries(&path, |e| e.seq == seq),
            }
        }
    }

    /// Drops the entries of `path` that `which` picks.
    fn drop_entries(&mut self, path: &str, which: impl Fn(&Entry) -> bool) {
        let Some(entries) = self.files.get_mut(path) else {
            return;
        };
        let (dropped, kept): (Vec<Entry>, Vec<Entry>) =
            std::mem::take(entries).into_iter().partition(|e| which(e));
        if kept.is_empty() {
            self.files.remove(path);
        } else {
            *entries = kept;
        }
        for entry in dropped {
            self.order.remove(&(entry.seq, path.to_owned()));
            self.kept_order.remove(&(entry.seq, path.to_owned()));
            self.release(&entry.before);
        }
        self.touched(path);
    }

    /// Marks the newest change of `path`: it `removed` the file, and it
    /// belongs to `group`.
    pub fn mark(&mut self, path: &str, removed: bool, group: Option<u64>) {
        if let Some(entry) = self.files.get_mut(path).and_then(|e| e.last_mut()) {
            entry.removed = removed;
            entry.group = group;
            self.touched(path);
        }
    }

    /// The paths holding a change of `group`: `(path, whether it is that
    /// path's newest change)`, by path.
    pub fn members(&self, group: u64) -> Vec<(String, bool)> {
        self.files
            .iter()
            .filter_map(|(path, entries)| {
                let at = entries.iter().rposition(|e| e.group == Some(group))?;
                Some((path.clone(), at + 1 == entries.len()))
            })
            .collect()
    }

    /// The content kept for `entry`, if it still is.
    pub fn kept(&self, entry: &Entry) -> Option<&[u8]> {
        match &entry.before {
            Before::Kept { sha256 } => self.blobs.get(sha256).map(|b| b.data.as_slice()),
            _ => None,
        }
    }

    /// The newest change of all, with the content it replaced when kept:
    /// `(path, content)`.
    pub fn newest(&self) -> Option<(String, Vec<u8>)> {
        let (path, entry) = self
            .files
            .iter()
            .filter_map(|(path, entries)| entries.last().map(|e| (path, e)))
            .max_by_key(|(_, e)| e.seq)?;
        Some((path.clone(), self.kept(entry)?.to_vec()))
    }

    /// Changes of `path` that can be undone.
    pub fn depth(&self, path: &str) -> usize {
        self.files.get(path).map_or(0, Vec::len)
    }

    /// The newest change of `path`.
    pub fn last(&self, path: &str) -> Option<&Entry> {
        self.files.get(path).and_then(|entries| entries.last())
    }

    /// Removes the newest change of `path`, with the kept content.
    pub fn pop(&mut self, path: &str) -> Option<(Entry, Option<Vec<u8>>)> {
        let entries = self.files.get_mut(path)?;
        let entry = entries.pop()?;
        if entries.is_empty() {
            self.files.remove(path);
        }
        self.kept_order.remove(&(entry.seq, path.to_owned()));
        self.order.remove(&(entry.seq, path.to_owned()));
        self.touched(path);
        let data = match &entry.before {
            Before::Kept { sha256 } => self.blobs.get(sha256).map(|b| b.data.clone()),
            _ => None,
        };
        self.release(&entry.before);
        Some((entry, data))
    }

    /// The sequence number of the newest change made (0: none).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The changes of `path` that can be undone, oldest first.
    pub fn entries(&self, path: &str) -> &[Entry] {
        self.files.get(path).map_or(&[], Vec::as_slice)
    }

    /// Bytes of versions kept.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Forgets what a host holding generation `held` no longer needs.
    pub fn forget_held(&mut self, held: u64) {
        self.stamps.forget_held(held);
    }

    /// What changed after generation `held` (0: everything): the entries
    /// of each file changed, the files gone, and the versions kept and
    /// dropped — never what did not change.
    pub fn changes_since(&self, held: u64) -> HistoryChange {
        let entries = |path: &str| {
            let json = serde_json::to_string(&self.files[path]).unwrap_or_default();
            (path.to_owned(), json)
        };
        let version = |sha256: &str| (sha256.to_owned(), self.blobs[sha256].data.clone());
        let mut change = HistoryChange {
            seq: self.seq,
            ..HistoryChange::default()
        };
        if held == 0 {
            change.changed = self.files.keys().map(|path| entries(path)).collect();
            change.added = self.blobs.keys().map(|sha256| version(sha256)).collect();
            return change;
        }
        let since = self.stamps.since(held);
        for key in since.changed {
            match key.split_at(2) {
                ("f:", path) if self.files.contains_key(path) => change.changed.push(entries(path)),
                ("v:", sha256) if self.blobs.contains_key(sha256) => {
                    change.added.push(version(sha256));
                }
                _ => {}
            }
        }
        for key in since.removed {
            match key.split_at(2) {
                ("f:", path) => change.removed.push(path.to_owned()),
                ("v:", sha256) => change.dropped.push(sha256.to_owned()),
                _ => {}
            }
        }
        change
    }

    /// A history from the entries of each file, as JSON, the newest
    /// sequence number and the content of every version the entries name
    /// (one missing is an error) and of the `views` the ledger names (one
    /// missing is left out, the view lost).
    pub fn from_parts(
        entries: Vec<(String, String)>,
        seq: u64,
        mut versions: BTreeMap<String, Vec<u8>>,
        views: &[&str],
    ) -> Result<Self, String> {
        let mut files = BTreeMap::new();
        for (path, json) in entries {
            let list: Vec<Entry> = serde_json::from_str(&json)
                .map_err(|err| format!("invalid session history: {err}"))?;
            files.insert(path, list);
        }
        let mut blobs: BTreeMap<String, Blob> = BTreeMap::new();
        for entry in files.values().flatten() {
            if let Before::Kept { sha256 } = &entry.before {
                if let Some(blob) = blobs.get_mut(sha256) {
                    blob.refs += 1;
                    continue;
                }
                let data = versions.remove(sha256).ok_or_else(|| {
                    format!("invalid session history: version {sha256} is missing")
                })?;
                blobs.insert(
                    sha256.clone(),
                    Blob {
                        data,
                        refs: 1,
                        views: 0,
                    },
                );
            }
        }
        let bytes = blobs.values().map(|b| b.data.len() as u64).sum();
        for &sha256 in views {
            if let Some(blob) = blobs.get_mut(sha256) {
                blob.views += 1;
            } else if let Some(data) = versions.remove(sha256) {
                let views = 1;
                blobs.insert(
                    sha256.to_owned(),
                    Blob {
                        data,
                        refs: 0,
                        views,
                    },
                );
            }
        }
        let history = Self {
            files,
            blobs,
            bytes,
            seq,
            ..Self::default()
        };
        Ok(history.reindexed())
    }

    /// The history with its order of kept versions rebuilt (after it was
    /// read back).
    pub(crate) fn reindexed(mut self) -> Self {
        self.order = self
            .files
            .iter()
            .flat_map(|(path, entries)| entries.iter().map(move |e| (e.seq, path.clone())))
            .collect();
        self.kept_order = self
            .files
            .iter()
            .flat_map(|(path, entries)| {
                entries
                    .iter()
                    .filter(|e| matches!(e.before, Before::Kept { .. }))
                    .map(move |e| (e.seq, path.clone()))
            })
            .collect();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_versions_are_stored_once() {
        let mut history = History::default();
        history.push("a", Some(b"same"), None, (0, 0), 100);
        history.push("b", Some(b"same"), None, (0, 0), 100);
        assert_eq!(history.bytes(), 4);
        history.pop("a").unwrap();
        assert_eq!(history.bytes(), 4);
        let (_, data) = history.pop("b").unwrap();
        assert_eq!(data.as_deref(), Some(&b"same"[..]));
        assert_eq!(history.bytes(), 0);
    }

    #[test]
    fn the_oldest_versions_go_first_when_over_the_cap() {
        let mut history = History::default();
        history.push("a", Some(b"0123456789"), None, (0, 0), 25);
        history.push("b", Some(b"abcdefghij"), None, (0, 0), 25);
        history.push("c", Some(b"ABCDEFGHIJ"), None, (0, 0), 25);
        assert_eq!(history.bytes(), 20);
        assert_eq!(history.last("a").unwrap().before, Before::Lost { size: 10 });
        assert!(matches!(
            history.last("c").unwrap().before,
            Before::Kept { .. }
        ));
    }

    #[test]
    fn a_version_over_the_cap_is_lost_at_once_and_creations_are_absent() {
        let mut history = History::default();
        history.push("a", Some(&[0; 50]), None, (0, 0), 25);
        assert_eq!(history.last("a").unwrap().before, Before::Lost { size: 50 });
        history.push("n", None, None, (0, 0), 25);
        assert_eq!(history.last("n").unwrap().before, Before::Absent);
    }

    #[test]
    fn past_the_budget_the_oldest_entries_go_whole_and_a_group_with_all_its_files() {
        let cap = ENTRY_BYTES * 100;
        let mut history = History::default();
        history.push("g1", Some(b"1"), None, (0, 0), cap);
        let group = history.last("g1").map(|e| e.seq);
        history.mark("g1", false, group);
        history.push("g2", Some(b"2"), None, (0, 0), cap);
        history.mark("g2", false, group);
        for n in 0..99 {
            history.push(
                &format!("f{n}"),
                Some(n.to_string().as_bytes()),
                None,
                (0, 0),
                cap,
            );
        }
        assert!(history.last("g1").is_none() && history.last("g2").is_none());
        assert!(history.last("f0").is_some());
        assert_eq!(history.order.len(), 99);
        for n in 99..1000 {
            history.push(&format!("f{n}"), None, None, (0, 0), cap);
        }
        assert_eq!(history.order.len(), 100);
        assert!(history.last("f899").is_none() && history.last("f900").is_some());
        assert_eq!(
            history.bytes(),
            0,
            "the versions of the entries dropped are gone"
        );
    }

    #[test]
    fn depth_is_capped() {
        let mut history = History::default();
        for n in 0..(MAX_DEPTH + 5) {
            history.push("a", Some(n.to_string().as_bytes()), None, (0, 0), 1 << 20);
        }
        assert_eq!(history.depth("a"), MAX_DEPTH);
    }

    #[test]
    fn state_round_trips_through_json() {
        let mut history = History::default();
        history.push("a", Some(&[0, 159, 146, 150]), None, (0, 0), 100);
        let json = serde_json::to_string(&history).unwrap();
        let back: History = serde_json::from_str(&json).unwrap();
        assert_eq!(back, history);
    }
}
