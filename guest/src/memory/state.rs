//! What a session remembers between calls — the call count, the read ledger
//! and the file history — and its saved form (SPEC §2 `save`/`restore`), so a
//! shell-only agent can keep one session across processes (`--state FILE`).
//! The saved form is versioned JSON; a different version is refused by name
//! rather than half understood.
//!
//! ```
//! use filetools_core::memory::state::{Generations, Kept, State};
//! let state = State::default();
//! let saved = state.save();
//! assert_eq!(State::restore(&saved).unwrap(), state);
//! assert!(State::restore("{\"version\": 99}").is_err());
//! let checkpoint = state.checkpoint(Generations::default());
//! let history = checkpoint.history.clone().unwrap();
//! let kept = Kept { core: checkpoint.core, seq: history.seq, ..Kept::default() };
//! assert_eq!(State::resume(kept).unwrap(), state);
//! assert_eq!(state.checkpoint(checkpoint.generations).history, None);
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::memory::history::{History, HistoryChange};
use crate::memory::ledger::{Ledger, LedgerChange};
use crate::memory::marks::Marks;
use crate::memory::seen::Seen;

/// The version of the saved form this build writes and reads.
pub const STATE_VERSION: u32 = 1;

/// A session's memory.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Tool calls made so far (every call, whatever its outcome).
    pub calls: u64,
    /// What was read of each file.
    pub ledger: Ledger,
    /// Versions replaced by writes and edits.
    pub history: History,
    /// Paths found under an invisibly different spelling: the spelling
    /// asked (root-relative) to the file found, so later calls that spell
    /// it the same way reach the same file (SPEC R8).
    #[serde(default)]
    pub repairs: BTreeMap<String, String>,
    /// The turn marks a rewind goes back to.
    #[serde(default)]
    pub marks: Marks,
    /// The last edits this session made, newest last, so the same edit sent
    /// again is recognised as already made (not kept in the saved form).
    #[serde(skip)]
    pub recent_edits: Vec<RecentEdit>,
    /// The order and size of the views the ledger keeps.
    #[serde(skip)]
    pub(crate) views: Seen,
}

/// Edits remembered to recognise a repeat.
pub const MAX_RECENT_EDITS: usize = 16;

/// An edit this session made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecentEdit {
    /// The file, root-relative.
    pub rel: String,
    /// Fingerprint of the content the edit wrote.
    pub after: u64,
    /// Its `(old_string, new_string, replace_all)`s, with LF line ends.
    pub ops: Vec<(String, String, bool)>,
    /// The first changed line.
    pub line: u64,
}

/// Refuses a saved state of another version, by name.
fn check_version(text: &str) -> Result<(), String> {
    let version: FormatVersion =
        serde_json::from_str(text).map_err(|err| format!("invalid session state: {err}"))?;
    if version.version == STATE_VERSION {
        Ok(())
    } else {
        Err(format!(
            "invalid session state: version {} cannot be read by this build (it reads version {STATE_VERSION}); start a new state file",
            version.version
        ))
    }
}

impl State {
    /// Remembers an edit just made, forgetting the oldest beyond
    /// [`MAX_RECENT_EDITS`].
    pub fn remember_edit(&mut self, edit: RecentEdit) {
        self.recent_edits.retain(|e| e.rel != edit.rel);
        if self.recent_edits.len() >= MAX_RECENT_EDITS {
            self.recent_edits.remove(0);
        }
        self.recent_edits.push(edit);
    }

    /// The line of the edit `ops` when this session made exactly it to
    /// `rel`, and the file still holds what it wrote (`fingerprint`).
    pub fn made_edit(
        &self,
        rel: &str,
        fingerprint: u64,
        ops: &[(String, String, bool)],
    ) -> Option<u64> {
        self.recent_edits
            .iter()
            .find(|e| e.rel == rel && e.after == fingerprint && e.ops == ops)
            .map(|e| e.line)
    }
}

#[derive(Serialize)]
struct SavedRef<'a> {
    version: u32,
    #[serde(flatten)]
    state: &'a State,
}

/// A checkpoint's core: the state but its ledger and history.
#[derive(Serialize)]
struct CoreRef<'a> {
    version: u32,
    calls: u64,
    repairs: &'a BTreeMap<String, String>,
    #[serde(skip_serializing_if = "never_marked")]
    marks: &'a Marks,
}

/// Whether no mark was taken, so the core leaves them out.
#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's signature")]
fn never_marked(marks: &&Marks) -> bool {
    marks.never_marked()
}

/// A checkpoint's core, read back.
#[derive(Deserialize)]
struct Core {
    calls: u64,
    #[serde(default)]
    repairs: BTreeMap<String, String>,
    #[serde(default)]
    marks: Marks,
}

/// The generations of the ledger and the history: a host passes the ones
/// it holds (0: none) to [`State::checkpoint`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Generations {
    /// The ledger's.
    pub ledger: u64,
    /// The history's.
    pub history: u64,
}

/// What a host keeps to bring a session back after a trap (see
/// [`State::checkpoint`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The state but its ledger and history, as versioned JSON.
    pub core: String,
    /// The generations now.
    pub generations: Generations,
    /// What changed in the ledger, when its generation is not the one held.
    pub ledger: Option<LedgerChange>,
    /// What changed in the history, when its generation is not the one
    /// held.
    pub history: Option<HistoryChange>,
}

/// Everything a host holds of a session, to resume it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kept {
    /// The last checkpoint's core.
    pub core: String,
    /// Every ledger record, as JSON, by path.
    pub records: Vec<(String, String)>,
    /// Every file's history entries, as JSON, by path.
    pub entries: Vec<(String, String)>,
    /// The history's newest sequence number.
    pub seq: u64,
    /// The content of the versions the entries name, by SHA-256.
    pub versions: BTreeMap<String, Vec<u8>>,
}

#[derive(Deserialize)]
struct FormatVersion {
    version: u32,
}

#[derive(Deserialize)]
struct Saved {
    #[serde(rename = "version")]
    _version: u32,
    #[serde(flatten)]
    state: State,
}

impl State {
    /// The state as versioned JSON.
    pub fn save(&self) -> String {
        serde_json::to_string(&SavedRef {
            version: STATE_VERSION,
            state: self,
        })
        .unwrap_or_default()
    }

    /// A state from [`State::save`]'s output.
    pub fn restore(text: &str) -> Result<Self, String> {
        check_version(text)?;
        let saved: Saved =
            serde_json::from_str(text).map_err(|err| format!("invalid session state: {err}"))?;
        let mut state = saved.state;
        state.history = state.history.reindexed();
        Ok(state.reindexed_views())
    }

    /// The memory for a host to keep after a call: the core always; the
    /// ledger's changed records, and the history's changed entries and
    /// versions, only when their generation is not the one `held`. A read
    /// costs its record, whatever else the session holds; a change costs
    /// its record, its file's entries and the version it kept — never the
    /// rest of the session.
    pub fn checkpoint(&self, held: Generations) -> Checkpoint {
        let core = serde_json::to_string(&CoreRef {
            version: STATE_VERSION,
            calls: self.calls,
            repairs: &self.repairs,
            marks: &self.marks,
        })
        .unwrap_or_default();
        let generations = Generations {
            ledger: self.ledger.generation(),
            history: self.history.generation(),
        };
        Checkpoint {
            core,
            generations,
            ledger: (generations.ledger != held.ledger)
                .then(|| self.ledger.changes_since(held.ledger)),
            history: (generations.history != held.history)
                .then(|| self.history.changes_since(held.history)),
        }
    }

    /// Forgets what a host that holds `held` never asks about again (the
    /// removals it already took in), so a long session keeps no trace of
    /// every file it ever forgot.
    pub fn forget_held(&mut self, held: Generations) {
        self.ledger.forget_held(held.ledger);
        self.history.forget_held(held.history);
    }

    /// A state from what a host kept of its checkpoints.
    pub fn resume(kept: Kept) -> Result<Self, String> {
        check_version(&kept.core)?;
        let core: Core = serde_json::from_str(&kept.core)
            .map_err(|err| format!("invalid session state: {err}"))?;
        let ledger = Ledger::from_records(kept.records)?;
        let views: Vec<&str> = ledger
            .views()
            .map(|(_, v)| v.sha256.as_str())
            .chain(core.marks.held())
            .collect();
        let history = History::from_parts(kept.entries, kept.seq, kept.versions, &views)?;
        let state = Self {
            calls: core.calls,
            ledger,
            history,
            repairs: core.repairs,
            marks: core.marks,
            recent_edits: Vec::new(),
            views: Seen::default(),
        };
        Ok(state.reindexed_views())
    }

    /// The generations now.
    pub fn generations(&self) -> Generations {
        Generations {
            ledger: self.ledger.generation(),
            history: self.history.generation(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::ledger::tests::record;

    /// What a host holds after taking checkpoints in order.
    fn hold(kept: &mut Kept, checkpoint: &Checkpoint) {
        kept.core.clone_from(&checkpoint.core);
        if let Some(change) = &checkpoint.ledger {
            kept.records
                .retain(|(path, _)| !change.removed.contains(path));
            for (path, json) in &change.changed {
                kept.records.retain(|(p, _)| p != path);
                kept.records.push((path.clone(), json.clone()));
            }
        }
        if let Some(change) = &checkpoint.history {
            kept.seq = change.seq;
            kept.entries
                .retain(|(path, _)| !change.removed.contains(path));
            for (path, json) in &change.changed {
                kept.entries.retain(|(p, _)| p != path);
                kept.entries.push((path.clone(), json.clone()));
            }
            for sha256 in &change.dropped {
                kept.versions.remove(sha256);
            }
            kept.versions.extend(change.added.iter().cloned());
        }
    }

    #[test]
    fn a_checkpoint_gives_only_what_changed_and_resumes_the_same_state() {
        let mut state = State {
            calls: 3,
            ..State::default()
        };
        state
            .repairs
            .insert("a b.png".into(), "a\u{202f}b.png".into());
        state.ledger.insert("a.txt", record(1));
        state.ledger.insert("b.txt", record(2));
        state
            .history
            .push("a.txt", Some(b"first"), None, (1, 5), 1 << 20);
        let mut kept = Kept::default();

        let first = state.checkpoint(Generations::default());
        assert_eq!(first.ledger.as_ref().unwrap().changed.len(), 2);
        assert_eq!(first.history.as_ref().unwrap().added.len(), 1);
        hold(&mut kept, &first);
        let again = state.checkpoint(first.generations);
        assert_eq!((again.ledger, again.history), (None, None));

        state.ledger.get_mut("b.txt").unwrap().call = 4;
        state.ledger.remove("a.txt");
        state
            .history
            .push("a.txt", Some(b"second"), None, (2, 6), 1 << 20);
        state.history.pop("a.txt");
        state.history.pop("a.txt");
        state
            .history
            .push("b.txt", Some(b"third"), None, (3, 5), 1 << 20);
        let second = state.checkpoint(first.generations);
        let ledger = second.ledger.as_ref().unwrap();
        assert_eq!(ledger.changed.len(), 1, "only the record changed since");
        assert_eq!(ledger.removed, ["a.txt"]);
        let history = second.history.as_ref().unwrap();
        assert_eq!(history.added.len(), 1, "only the version kept since");
        assert_eq!(history.added[0].1, b"third");
        assert_eq!(history.removed, ["a.txt"]);
        assert_eq!(history.changed.len(), 1, "only the file changed since");
        hold(&mut kept, &second);
        assert_eq!(kept.versions.len(), 1, "the versions dropped are dropped");
        assert_eq!(kept.records.len(), 1, "the records removed are removed");

        let resumed = State::resume(kept.clone()).unwrap();
        assert_eq!(resumed, state);
        let held = resumed.generations();
        let after = resumed.checkpoint(held);
        assert_eq!(
            (after.ledger, after.history),
            (None, None),
            "a resumed state is held at its generations"
        );
        kept.versions.clear();
        assert!(State::resume(kept).is_err(), "a version is missing");
    }

    #[test]
    fn turn_marks_and_what_they_keep_survive_a_save_and_a_checkpoint() {
        use crate::memory::marks::{Found, Marked};
        let mut state = State::default();
        let files = [
            (
                "a.txt".to_owned(),
                Found::Content(b"at the mark\n".to_vec()),
            ),
            ("gone.txt".to_owned(), Found::Absent),
        ];
        let id = state.marks.push(
            &mut state.history,
            (2, std::collections::BTreeSet::default()),
            files,
            1 << 20,
        );
        state.marks.follow("gone.txt");

        let restored = State::restore(&state.save()).unwrap();
        assert_eq!(restored, state);
        let mut kept = Kept::default();
        hold(&mut kept, &state.checkpoint(Generations::default()));
        let resumed = State::resume(kept).unwrap();
        assert_eq!(resumed, state);
        for again in [&restored, &resumed] {
            let marked = &again.marks.files_at(id).unwrap()["a.txt"];
            assert!(matches!(marked, Marked::Kept { .. }));
            let content = again.marks.content(&again.history, marked);
            assert_eq!(content, Some(&b"at the mark\n"[..]));
        }
    }
}
