//! A session's memory as a log of changes, for a state kept in a file
//! between processes or across a server's calls: a first line naming the
//! format, then one line per save holding only what changed since the line
//! before — the core, the ledger records and history entries changed (or
//! gone, as `null`), the versions kept (base64) or dropped — so a save after
//! a call costs what the call changed, not what the session holds. Lines
//! replayed in order give the memory back; a last line cut short by a kill
//! is left out.

use std::collections::{BTreeMap, HashMap};

use anyhow::{Result, bail};
use filetools_core::{base64_decode, base64_encode};
use serde::{Deserialize, Serialize};

/// The first line of a log.
pub const LOG_HEADER: &str = r#"{"filetools_state_log":1}"#;

/// What changed in a session's memory: each map gives a key's new value,
/// or `None` when it went.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Delta {
    /// The new core.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core: Option<String>,
    /// Ledger records, as JSON, by path.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub records: BTreeMap<String, Option<String>>,
    /// History entries, as JSON, by path.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub entries: BTreeMap<String, Option<String>>,
    /// The history's newest sequence number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// Versions, base64, by SHA-256.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub versions: BTreeMap<String, Option<String>>,
}

impl Delta {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// One log line.
    pub fn line(&self) -> String {
        let mut line = serde_json::to_string(self).unwrap_or_default();
        line.push('\n');
        line
    }

    /// A version kept, as a log line holds it.
    pub fn version(data: &[u8]) -> String {
        base64_encode(data)
    }
}

/// The memory a log describes, replayed into maps.
#[derive(Debug, Default)]
pub(crate) struct Replayed {
    pub core: Option<String>,
    pub records: HashMap<String, String>,
    pub entries: HashMap<String, String>,
    pub seq: u64,
    pub versions: HashMap<String, Vec<u8>>,
    /// Bytes of the log read: a last line cut short is not among them.
    pub valid: usize,
    /// Lines replayed after the header.
    pub lines: usize,
}

/// Replays `log`; a line that is not whole is where it stops, unless it is
/// not the last (then the log is damaged).
pub(crate) fn replay(log: &str) -> Result<Replayed> {
    let Some(rest) = log
        .strip_prefix(LOG_HEADER)
        .and_then(|r| r.strip_prefix('\n'))
    else {
        bail!("not a filetools state log");
    };
    let mut replayed = Replayed {
        valid: LOG_HEADER.len() + 1,
        ..Replayed::default()
    };
    let mut lines = rest.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let delta = match serde_json::from_str::<Delta>(line) {
            Ok(delta) if line.ends_with('\n') => delta,
            // A kill while the last line was written.
            _ if lines.peek().is_none() => break,
            Err(err) => bail!(
                "line {} of the state log is damaged: {err}",
                replayed.lines + 2
            ),
            Ok(_) => bail!("line {} of the state log is cut short", replayed.lines + 2),
        };
        apply(&mut replayed, delta)?;
        replayed.valid += line.len();
        replayed.lines += 1;
    }
    Ok(replayed)
}

fn apply(into: &mut Replayed, delta: Delta) -> Result<()> {
    if delta.core.is_some() {
        into.core = delta.core;
    }
    if let Some(seq) = delta.seq {
        into.seq = seq;
    }
    for (path, record) in delta.records {
        match record {
            Some(record) => into.records.insert(path, record),
            None => into.records.remove(&path),
        };
    }
    for (path, entries) in delta.entries {
        match entries {
            Some(entries) => into.entries.insert(path, entries),
            None => into.entries.remove(&path),
        };
    }
    for (sha256, data) in delta.versions {
        match data {
            Some(data) => {
                let Some(bytes) = base64_decode(&data) else {
                    bail!("a version in the state log is not base64");
                };
                into.versions.insert(sha256, bytes);
            }
            None => {
                into.versions.remove(&sha256);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delta(core: &str, record: Option<&str>) -> Delta {
        let mut delta = Delta {
            core: Some(core.to_owned()),
            ..Delta::default()
        };
        delta
            .records
            .insert("a.txt".into(), record.map(str::to_owned));
        delta
            .versions
            .insert("ab".into(), Some(Delta::version(b"old")));
        delta
    }

    #[test]
    fn lines_replay_in_order_and_a_cut_last_line_is_left_out() {
        let whole = format!(
            "{LOG_HEADER}\n{}{}",
            delta("1", Some("{}")).line(),
            delta("2", None).line()
        );
        let replayed = replay(&whole).unwrap();
        assert_eq!(replayed.core.as_deref(), Some("2"));
        assert!(replayed.records.is_empty());
        assert_eq!(replayed.versions["ab"], b"old");
        assert_eq!((replayed.valid, replayed.lines), (whole.len(), 2));
        let cut = &whole[..whole.len() - 5];
        let replayed = replay(cut).unwrap();
        assert_eq!(replayed.core.as_deref(), Some("1"));
        assert_eq!(&cut[..replayed.valid], &whole[..replayed.valid]);
        assert!(replay("{\"version\": 3}").is_err());
    }
}
