//! [`Memory`]: the session's memory as the host keeps it between calls —
//! taken in from each call's checkpoint (the ledger, dedup records and
//! repairs each time, the history only when it changed), handed back to a
//! fresh instance after a trap, and written out as a state log.

use std::collections::HashMap;

use crate::bindings::wit;
use crate::state_log::{Delta, EntriesEdit};

/// The session's memory as of its last call that returned.
#[derive(Debug)]
pub(super) struct Memory {
    /// The checkpoint's core; `None` before the first.
    pub core: Option<String>,
    /// Every ledger record, as JSON, by path.
    pub records: HashMap<String, String>,
    /// Every file's history entries, as JSON, by path.
    pub entries: HashMap<String, String>,
    /// The history's newest sequence number.
    pub seq: u64,
    /// The content of the versions the entries name, by SHA-256.
    pub versions: HashMap<String, Vec<u8>>,
    /// The generations held of the live instance's ledger and history
    /// (0: none).
    pub held: wit::Generations,
    /// Whether a trap cost the session its memory (a checkpoint that could
    /// not be resumed), so that a saved state would be a poorer one.
    pub lost: bool,
    /// What changed since the last line of a state log was made.
    pub pending: Delta,
    /// Whether a state log is kept: until then nothing is gathered in
    /// `pending` (the first line of a log holds everything).
    pub logging: bool,
}

impl Default for Memory {
    fn default() -> Self {
        Self {
            core: None,
            records: HashMap::new(),
            entries: HashMap::new(),
            seq: 0,
            versions: HashMap::new(),
            held: wit::Generations {
                ledger: 0,
                history: 0,
            },
            lost: false,
            pending: Delta::default(),
            logging: false,
        }
    }
}

impl Memory {
    /// Takes in a checkpoint: the core, and what changed in the ledger and
    /// the history. Returns the bytes it carried.
    pub(super) fn take(&mut self, checkpoint: wit::Checkpoint) -> usize {
        let mut bytes = checkpoint.core.len();
        // Without a log, what changed is never written: it is not gathered.
        let mut pending = self.logging.then_some(&mut self.pending);
        if let Some(pending) = pending.as_deref_mut() {
            pending.core = Some(checkpoint.core.clone());
        }
        self.core = Some(checkpoint.core);
        self.held = checkpoint.generations;
        if let Some(change) = checkpoint.ledger {
            for path in change.removed {
                self.records.remove(&path);
                if let Some(pending) = pending.as_deref_mut() {
                    pending.records.insert(path, None);
                }
            }
            for (path, record) in change.changed {
                bytes += path.len() + record.len();
                if let Some(pending) = pending.as_deref_mut() {
                    pending.records.insert(path.clone(), Some(record.clone()));
                }
                self.records.insert(path, record);
            }
        }
        if let Some(change) = checkpoint.history {
            self.seq = change.seq;
            for path in change.removed {
                self.entries.remove(&path);
                if let Some(pending) = pending.as_deref_mut() {
                    pending.entry_edits.remove(&path);
                    pending.entries.insert(path, None);
                }
            }
            for (path, entries) in change.changed {
                bytes += path.len() + entries.len();
                if let Some(pending) = pending.as_deref_mut() {
                    // An edit of what the last line left (the file's list
                    // has no change pending since): the new entries alone.
                    let untouched = !pending.entries.contains_key(&path)
                        && !pending.entry_edits.contains_key(&path);
                    let edit = self
                        .entries
                        .get(&path)
                        .filter(|_| untouched)
                        .and_then(|old| EntriesEdit::between(old, &entries));
                    if let Some(edit) = edit {
                        pending.entry_edits.insert(path.clone(), edit);
                    } else {
                        pending.entry_edits.remove(&path);
                        pending.entries.insert(path.clone(), Some(entries.clone()));
                    }
                }
                self.entries.insert(path, entries);
            }
            for sha256 in change.dropped {
                self.versions.remove(&sha256);
                if let Some(pending) = pending.as_deref_mut() {
                    pending.versions.insert(sha256, None);
                }
            }
            for version in change.added {
                bytes += version.data.len();
                if let Some(pending) = pending.as_deref_mut() {
                    pending
                        .versions
                        .insert(version.sha256.clone(), Some(Delta::version(&version.data)));
                }
                self.versions.insert(version.sha256, version.data);
            }
            if let Some(pending) = pending {
                pending.seq = Some(change.seq);
            }
        }
        bytes
    }

    /// Everything held, as one change from nothing.
    pub(super) fn whole(&self) -> Delta {
        let some = |map: &HashMap<String, String>| {
            map.iter()
                .map(|(key, value)| (key.clone(), Some(value.clone())))
                .collect()
        };
        Delta {
            core: self.core.clone(),
            records: some(&self.records),
            entries: some(&self.entries),
            entry_edits: std::collections::BTreeMap::new(),
            seq: Some(self.seq),
            versions: self
                .versions
                .iter()
                .map(|(sha256, data)| (sha256.clone(), Some(Delta::version(data))))
                .collect(),
        }
    }

    /// Everything held, as `resume` takes it.
    pub(super) fn kept(&self, core: &str) -> wit::KeptMemory {
        let pairs = |map: &HashMap<String, String>| {
            map.iter()
                .map(|(path, json)| (path.clone(), json.clone()))
                .collect()
        };
        wit::KeptMemory {
            core: core.to_owned(),
            records: pairs(&self.records),
            entries: pairs(&self.entries),
            seq: self.seq,
            versions: self
                .versions
                .iter()
                .map(|(sha256, data)| wit::KeptVersion {
                    sha256: sha256.clone(),
                    data: data.clone(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkpoint of a change of `path`, whose entries are now `entries`,
    /// keeping the version `data`.
    fn change(path: &str, entries: &str, data: &[u8], generation: u64) -> wit::Checkpoint {
        wit::Checkpoint {
            core: r#"{"version":1,"calls":1}"#.to_owned(),
            generations: wit::Generations {
                ledger: generation,
                history: generation,
            },
            ledger: Some(wit::LedgerChange {
                changed: vec![(path.to_owned(), r#"{"size":1}"#.to_owned())],
                removed: Vec::new(),
            }),
            history: Some(wit::HistoryChange {
                changed: vec![(path.to_owned(), entries.to_owned())],
                removed: Vec::new(),
                seq: generation,
                added: vec![wit::KeptVersion {
                    sha256: format!("{generation:064x}"),
                    data: data.to_vec(),
                }],
                dropped: Vec::new(),
            }),
        }
    }

    #[test]
    fn a_session_keeping_no_log_gathers_nothing_for_one() {
        let mut memory = Memory::default();
        memory.take(change("a.txt", r#"[{"seq":1}]"#, &[7; 4096], 1));
        memory.take(change("a.txt", r#"[{"seq":1},{"seq":2}]"#, &[8; 4096], 2));
        assert!(memory.pending.is_empty(), "{:?}", memory.pending);
        // What it holds is whole all the same.
        assert_eq!(memory.entries["a.txt"], r#"[{"seq":1},{"seq":2}]"#);
        assert_eq!(memory.versions.len(), 2);
        assert_eq!(memory.core.as_deref(), Some(r#"{"version":1,"calls":1}"#));
    }

    #[test]
    fn a_session_keeping_a_log_gathers_the_new_entries_alone() {
        let mut memory = Memory::default();
        memory.take(change(
            "a.txt",
            r#"[{"seq":1,"text":"é\n\"x\""}]"#,
            b"one",
            1,
        ));
        memory.logging = true;
        memory.pending = Delta::default();
        memory.take(change(
            "a.txt",
            r#"[{"seq":1,"text":"é\n\"x\""},{"seq":2}]"#,
            b"two",
            2,
        ));
        let edit = &memory.pending.entry_edits["a.txt"];
        assert_eq!(
            (edit.from, edit.to, edit.add.as_str()),
            (0, 1, r#"[{"seq":2}]"#)
        );
        assert!(!memory.pending.entries.contains_key("a.txt"));
        assert_eq!(memory.pending.versions.len(), 1);
        // Replayed, the edit gives the list byte for byte.
        assert_eq!(
            edit.apply(r#"[{"seq":1,"text":"é\n\"x\""}]"#).unwrap(),
            memory.entries["a.txt"]
        );
    }
}
