//! A session's memory as a log of changes, for a state kept in a file
//! between processes or across a server's calls: a first line naming the
//! format, then one line per save holding only what changed since the line
//! before — the core, the ledger records and files' history entries
//! changed (or gone, as `null`; a file's new entries alone when the older
//! ones stay, see [`EntriesEdit`]), the versions kept (base64) or dropped —
//! so a save after
//! a call costs what the call changed, not what the session holds. Lines
//! replayed in order give the memory back; a last line cut short by a kill
//! is left out.

use std::collections::{BTreeMap, HashMap};

use anyhow::{Result, bail};
use filetools_core::{base64_decode, base64_encode};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

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
    /// History entries changed in part, by path (never one `entries` has).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub entry_edits: BTreeMap<String, EntriesEdit>,
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

/// A file's history entries as a log line changes them in part: the
/// entries `from..to` of those before are kept, and `add` (a JSON array)
/// follows them. An edit of a file with a long history costs its new
/// entries, not the whole list again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EntriesEdit {
    pub from: usize,
    pub to: usize,
    pub add: String,
}

/// A JSON array of entries, each as the text it is written with: compared
/// and copied as text, never parsed into values (a file's list holds the
/// contents its undo would put back).
fn entry_list(json: &str) -> Option<Vec<&RawValue>> {
    serde_json::from_str(json).ok()
}

/// `entries` as one JSON array.
fn array_of(entries: &[&RawValue]) -> String {
    let mut out =
        String::with_capacity(entries.iter().map(|e| e.get().len() + 1).sum::<usize>() + 2);
    out.push('[');
    for (at, entry) in entries.iter().enumerate() {
        if at > 0 {
            out.push(',');
        }
        out.push_str(entry.get());
    }
    out.push(']');
    out
}

impl EntriesEdit {
    /// The edit that turns `old` into `new` (JSON arrays of entries): the
    /// longest run of `old` that `new` starts with, kept, and the rest of
    /// `new` added. `None` when `new` keeps nothing of `old` (or either is
    /// not an array): then the whole list is the cheaper line.
    pub fn between(old: &str, new: &str) -> Option<Self> {
        let (old, new) = (entry_list(old)?, entry_list(new)?);
        let run = |from: usize| {
            old[from..]
                .iter()
                .zip(&new)
                .take_while(|(a, b)| a.get() == b.get())
                .count()
        };
        let (from, kept) = (0..old.len())
            .map(|from| (from, run(from)))
            .max_by_key(|&(from, kept)| (kept, std::cmp::Reverse(from)))?;
        if kept == 0 {
            return None;
        }
        Some(Self {
            from,
            to: from + kept,
            add: array_of(&new[kept..]),
        })
    }

    /// `old` with the edit made.
    pub fn apply(&self, old: &str) -> Result<String> {
        let (Some(old), Some(add)) = (entry_list(old), entry_list(&self.add)) else {
            bail!("a history edit in the state log is not over JSON arrays");
        };
        let Some(kept) = old.get(self.from..self.to) else {
            bail!("a history edit in the state log keeps entries its file does not have");
        };
        Ok(array_of(&[kept, &add].concat()))
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
    for (path, edit) in delta.entry_edits {
        let Some(old) = into.entries.get(&path) else {
            bail!("the state log edits the history of {path:?}, which it does not hold");
        };
        let edited = edit.apply(old)?;
        into.entries.insert(path, edited);
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

    #[test]
    fn a_history_edit_carries_the_new_entries_and_replays_to_the_list() {
        let list = |ns: &[u32]| {
            let entries: Vec<_> = ns
                .iter()
                .map(|n| serde_json::json!({"seq": n, "op": "edit"}))
                .collect();
            serde_json::to_string(&entries).unwrap()
        };
        let cases: [(&[u32], &[u32]); 5] = [
            (&[1, 2, 3], &[1, 2, 3, 4]),
            (&[1, 2, 3], &[2, 3, 4]),
            (&[1, 2, 3], &[1, 2]),
            (&[1, 2, 3], &[1, 2, 5]),
            (&[1, 2, 3], &[1, 2, 3]),
        ];
        for (old, new) in cases {
            let (old, new) = (list(old), list(new));
            let edit = EntriesEdit::between(&old, &new).unwrap();
            assert!(edit.add.len() < new.len(), "{edit:?}");
            let replayed: serde_json::Value =
                serde_json::from_str(&edit.apply(&old).unwrap()).unwrap();
            assert_eq!(
                replayed,
                serde_json::from_str::<serde_json::Value>(&new).unwrap()
            );
        }
        // Nothing kept: the whole list is the line.
        assert_eq!(EntriesEdit::between(&list(&[1, 2]), &list(&[7])), None);
        let past = EntriesEdit {
            from: 1,
            to: 9,
            add: "[]".into(),
        };
        assert!(past.apply(&list(&[1, 2])).is_err());
    }
}
