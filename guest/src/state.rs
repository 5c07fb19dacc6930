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
