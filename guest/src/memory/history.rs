//! File history (SPEC W5, E10): before every write or edit, the version it
//! replaces is kept, content-addressed by SHA-256 so identical versions are
//! stored once, together with the ledger record the session had of it. `undo`
//! pops the newest entry of a file. Memory is bounded: past
//! [`crate::Config::history_bytes`] the oldest versions are dropped (their
//! entries remain, marked lost, so `undo` can say why it cannot restore).
//!
//! ```
//! use filetools_core::history::{Before, History};
//! let mut history = History::default();
//! history.push("a.txt", Some(b"old"), None, (0, 0), 1024);
//! history.push("a.txt", Some(b"older?"), None, (0, 0), 1024);
//! assert_eq!(history.depth("a.txt"), 2);
//! let (entry, bytes) = history.pop("a.txt").unwrap();
//! assert_eq!(bytes.as_deref(), Some(&b"older?"[..]));
//! assert!(matches!(entry.before, Before::Kept { .. }));
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::base64;
use crate::digest::sha256_hex;
use crate::ledger::Record;

/// Entries kept per file; older ones are dropped.
pub const MAX_DEPTH: usize = 32;

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
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Blob {
    #[serde(serialize_with = "to_base64", deserialize_with = "from_base64")]
    data: Vec<u8>,
    refs: u32,
    /// The history's generation when it was kept, so a checkpoint gives a
    /// host only the versions it does not hold yet; a restored one counts
    /// as kept in the first generation.
    #[serde(skip, default = "first_generation")]
    born: u64,
}

/// Blobs are equal when they hold the same content for as many entries.
impl PartialEq for Blob {
    fn eq(&self, other: &Self) -> bool {
        (&self.data, self.refs) == (&other.data, other.refs)
    }
}

impl Eq for Blob {}

fn first_generation() -> u64 {
    1
}

/// A history's entries and counters without the content of its versions:
/// what a checkpoint gives whenever the history changed.
#[derive(Serialize)]
struct IndexRef<'a> {
    files: &'a BTreeMap<String, Vec<Entry>>,
    refs: BTreeMap<&'a str, u32>,
    bytes: u64,
    seq: u64,
}

/// [`IndexRef`] read back.
#[derive(Deserialize)]
struct Index {
    files: BTreeMap<String, Vec<Entry>>,
    refs: BTreeMap<String, u32>,
    bytes: u64,
    seq: u64,
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
    /// Changes to the history since it was made or restored, for
    /// [`History::generation`]; not part of what it holds.
    #[serde(skip)]
    changes: u64,
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
        self.changes + 1
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
        self.changes += 1;
        let before = before.map_or(Before::Absent, |data| self.keep(data, cap));
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
        self.changes += 1;
        self.push_entry(path, Before::Lost { size }, record, after, cap);
    }

    /// Records that what stands at `path` was moved there from `from`;
    /// `after` is its fingerprint and size (zeros for a directory).
    pub fn push_moved(&mut self, path: &str, from: &str, after: (u64, u64), cap: u64) {
        self.changes += 1;
        let before = Before::MovedFrom {
            path: from.to_owned(),
        };
        self.push_entry(path, before, None, after, cap);
    }

    fn push_entry(
        &mut self,
        path: &str,
        before: Before,
        record: Option<Record>,
        after: (u64, u64),
        cap: u64,
    ) {
        self.seq += 1;
        let entries = self.files.entry(path.to_owned()).or_default();
        entries.push(Entry {
            before,
            record,
            after: after.0,
            after_size: after.1,
            seq: self.seq,
            removed: false,
            group: None,
        });
        if entries.len() > MAX_DEPTH {
            let dropped = entries.remove(0);
            self.release(&dropped.before);
        }
        self.evict(cap);
    }

    fn keep(&mut self, data: &[u8], cap: u64) -> Before {
        let size = data.len() as u64;
        if size > cap {
            return Before::Lost { size };
        }
        let sha256 = sha256_hex(data);
        let born = self.generation();
        let blob = self.blobs.entry(sha256.clone()).or_insert_with(|| Blob {
            data: data.to_vec(),
            refs: 0,
            born,
        });
        if blob.refs == 0 {
            self.bytes += size;
        }
        blob.refs += 1;
        Before::Kept { sha256 }
    }

    fn release(&mut self, before: &Before) {
        if let Before::Kept { sha256 } = before
            && let Some(blob) = self.blobs.get_mut(sha256)
        {
            blob.refs -= 1;
            if blob.refs == 0 {
                self.bytes -= blob.data.len() as u64;
                self.blobs.remove(sha256);
            }
        }
    }

    /// Drops the oldest kept versions until at most `cap` bytes remain.
    fn evict(&mut self, cap: u64) {
        while self.bytes > cap {
            let oldest = self
                .files
                .values_mut()
                .flat_map(|entries| entries.iter_mut())
                .filter(|e| matches!(e.before, Before::Kept { .. }))
                .min_by_key(|e| e.seq);
            let Some(entry) = oldest else { break };
            let Before::Kept { sha256 } = &entry.before else {
                break;
            };
            let size = self.blobs.get(sha256).map_or(0, |b| b.data.len() as u64);
            let before = std::mem::replace(&mut entry.before, Before::Lost { size });
            self.release(&before);
        }
    }

    /// Marks the newest change of `path`: it `removed` the file, and it
    /// belongs to `group`.
    pub fn mark(&mut self, path: &str, removed: bool, group: Option<u64>) {
        if let Some(entry) = self.files.get_mut(path).and_then(|e| e.last_mut()) {
            entry.removed = removed;
            entry.group = group;
            self.changes += 1;
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
        self.changes += 1;
        if entries.is_empty() {
            self.files.remove(path);
        }
        let data = match &entry.before {
            Before::Kept { sha256 } => self.blobs.get(sha256).map(|b| b.data.clone()),
            _ => None,
        };
        self.release(&entry.before);
        Some((entry, data))
    }

    /// Bytes of versions kept.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The entries and counters without the versions' content, as JSON.
    pub fn index(&self) -> String {
        serde_json::to_string(&IndexRef {
            files: &self.files,
            refs: self
                .blobs
                .iter()
                .map(|(sha256, blob)| (sha256.as_str(), blob.refs))
                .collect(),
            bytes: self.bytes,
            seq: self.seq,
        })
        .unwrap_or_default()
    }

    /// The SHA-256 of every version kept.
    pub fn version_ids(&self) -> Vec<String> {
        self.blobs.keys().cloned().collect()
    }

    /// The versions kept after `generation`, by SHA-256.
    pub fn versions_since(&self, generation: u64) -> Vec<(String, Vec<u8>)> {
        self.blobs
            .iter()
            .filter(|(_, blob)| blob.born > generation)
            .map(|(sha256, blob)| (sha256.clone(), blob.data.clone()))
            .collect()
    }

    /// A history from its [`History::index`] and the content of every
    /// version it names; one missing is an error.
    pub fn from_index(
        index: &str,
        mut versions: BTreeMap<String, Vec<u8>>,
    ) -> Result<Self, String> {
        let index: Index =
            serde_json::from_str(index).map_err(|err| format!("invalid session history: {err}"))?;
        let mut blobs = BTreeMap::new();
        for (sha256, refs) in index.refs {
            let data = versions
                .remove(&sha256)
                .ok_or_else(|| format!("invalid session history: version {sha256} is missing"))?;
            let blob = Blob {
                data,
                refs,
                born: first_generation(),
            };
            blobs.insert(sha256, blob);
        }
        Ok(Self {
            files: index.files,
            blobs,
            bytes: index.bytes,
            seq: index.seq,
            changes: 0,
        })
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
