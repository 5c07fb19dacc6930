//! What a session remembers between calls — the call count, the read ledger
//! and the file history — and its saved form (SPEC §2 `save`/`restore`), so a
//! shell-only agent can keep one session across processes (`--state FILE`).
//! The saved form is versioned JSON; a different version is refused by name
//! rather than half understood.
//!
//! ```
//! use filetools_core::state::State;
//! let state = State::default();
//! let saved = state.save();
//! assert_eq!(State::restore(&saved).unwrap(), state);
//! assert!(State::restore("{\"version\": 99}").is_err());
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::history::History;
use crate::ledger::Ledger;

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
    /// The last edits this session made, newest last, so the same edit sent
    /// again is recognised as already made (not kept in the saved form).
    #[serde(skip)]
    pub recent_edits: Vec<RecentEdit>,
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

#[derive(Deserialize)]
struct Version {
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
        let version: Version =
            serde_json::from_str(text).map_err(|err| format!("invalid session state: {err}"))?;
        if version.version != STATE_VERSION {
            return Err(format!(
                "invalid session state: version {} cannot be read by this build (it reads version {STATE_VERSION}); start a new state file",
                version.version
            ));
        }
        let saved: Saved =
            serde_json::from_str(text).map_err(|err| format!("invalid session state: {err}"))?;
        Ok(saved.state)
    }
}
