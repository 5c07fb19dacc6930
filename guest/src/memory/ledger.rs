//! The read ledger (SPEC W2, E4, R7): for every file this session has seen,
//! which lines it was shown, the file's size, mtime and content fingerprint at
//! the time, and its text style. Writes and edits consult it to refuse changes
//! to files the model has not seen, or that changed since; reads consult it to
//! answer an unchanged re-read with a short stub.
//!
//! A line cut at the per-line cap counts as seen: its marker stated how much
//! was left out, so a file of huge lines can still be seen whole and written
//! (seed 002, lesson 3: no refusal loops).
//!
//! ```
//! use filetools_core::memory::ledger::Coverage;
//! let mut seen = Coverage::default();
//! seen.add(1, 2000);
//! seen.add(2001, 2500);
//! assert!(seen.covers(2500));
//! assert_eq!(seen.first_gap(3000), Some(2501));
//! assert_eq!(seen.to_string(), "1-2500");
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::fs::host::Metadata;
use crate::memory::stamps::Stamps;
use crate::text::textfile::{LineEnding, Style};

/// What a read showed of a file, for the session's ledger (SPEC W2, R7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Observation {
    /// Size when stat'ed.
    pub size: u64,
    /// Mtime when stat'ed.
    pub mtime_ns: u64,
    /// Fingerprint of the whole file, when the read fetched all of it.
    pub fingerprint: Option<u64>,
    /// Lines shown (cut lines included).
    pub lines: Option<(u64, u64)>,
    /// Lines in the file, when counted to the end.
    pub total: Option<u64>,
    /// Encoding, BOM and line endings, as far as scanned.
    pub style: Style,
    /// Whether file content worth a stub was shown: a repeat may then be
    /// answered by one (SPEC R7).
    pub content: bool,
    /// The whole content, when it is small enough to keep as the model's
    /// view of the file (SPEC V3).
    pub text: Option<Vec<u8>>,
}

impl Observation {
    /// A file shown whole in one answer that is not its text (a binary
    /// described, an image): seen, with nothing left unseen.
    pub(crate) fn whole(meta: Metadata) -> Self {
        Self {
            size: meta.size,
            mtime_ns: meta.mtime_ns,
            fingerprint: None,
            lines: None,
            total: Some(0),
            style: Style::default(),
            content: false,
            text: None,
        }
    }
}

/// Outputs shorter than this are cheaper to repeat than to replace by a
/// dedup stub (about 90 bytes), so they are never stubbed.
pub const DEDUP_MIN_BYTES: usize = 256;

/// Files remembered per session; the least recently used is forgotten first.
pub const MAX_RECORDS: usize = 4096;

/// Line ranges shown, kept merged and sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Coverage(Vec<(u64, u64)>);

impl Coverage {
    /// Every line from 1 to `total`.
    pub fn all(total: u64) -> Self {
        let mut seen = Self::default();
        seen.add(1, total);
        seen
    }

    /// Marks lines `first..=last` as seen.
    pub fn add(&mut self, first: u64, last: u64) {
        if first > last {
            return;
        }
        self.0.push((first, last));
        self.0.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(self.0.len());
        for &(a, b) in &self.0 {
            match merged.last_mut() {
                Some(prev) if a <= prev.1.saturating_add(1) => prev.1 = prev.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        self.0 = merged;
    }

    /// How many lines have been seen.
    pub fn lines(&self) -> u64 {
        self.0.iter().map(|(a, b)| b + 1 - a).sum()
    }

    /// Whether lines `1..=total` have all been seen.
    pub fn covers(&self, total: u64) -> bool {
        self.first_gap(total).is_none()
    }

    /// The first line in `1..=total` not seen yet.
    pub fn first_gap(&self, total: u64) -> Option<u64> {
        let mut next = 1;
        for &(a, b) in &self.0 {
            if a > next {
                break;
            }
            next = next.max(b + 1);
        }
        (next <= total).then_some(next)
    }

    /// The first line in `first..=last` not seen yet.
    pub fn first_gap_in(&self, first: u64, last: u64) -> Option<u64> {
        let mut next = first;
        for &(a, b) in &self.0 {
            if b < next {
                continue;
            }
            if a > next {
                break;
            }
            next = b + 1;
        }
        (next <= last).then_some(next)
    }

    /// Marks lines `first..=last` as not seen.
    pub fn remove(&mut self, first: u64, last: u64) {
        let mut kept = Vec::with_capacity(self.0.len() + 1);
        for &(a, b) in &self.0 {
            if b < first || a > last {
                kept.push((a, b));
                continue;
            }
            if a < first {
                kept.push((a, first - 1));
            }
            if b > last {
                kept.push((last + 1, b));
            }
        }
        self.0 = kept;
    }

    /// Adjusts the ranges after lines `first..first+removed` were replaced by
    /// `added` lines: later lines move, and the new lines count as seen.
    pub fn replace(&mut self, first: u64, removed: u64, added: u64) {
        let end = first + removed;
        let mut moved = Vec::with_capacity(self.0.len() + 1);
        for &(a, b) in &self.0 {
            if b < first {
                moved.push((a, b));
            } else if a >= end {
                moved.push((
                    (a + added).saturating_sub(removed),
                    (b + added).saturating_sub(removed),
                ));
            } else {
                if a < first {
                    moved.push((a, first - 1));
                }
                if b >= end {
                    moved.push((first + added, (b + added).saturating_sub(removed)));
                }
            }
        }
        self.0 = moved;
        if added > 0 {
            self.add(first, first + added - 1);
        } else {
            let ranges = std::mem::take(&mut self.0);
            for (a, b) in ranges {
                self.add(a, b);
            }
        }
    }
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, (a, b)) in self.0.iter().enumerate() {
            if n > 0 {
                f.write_str(", ")?;
            }
            if a == b {
                write!(f, "{a}")?;
            } else {
                write!(f, "{a}-{b}")?;
            }
        }
        Ok(())
    }
}

/// The arguments of a read, with defaults filled in: equal keys mean the
/// same view of an unchanged file (SPEC R7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadKey {
    /// First line.
    pub offset: u64,
    /// Line limit.
    pub limit: u64,
    /// Character offset inside line `offset`, if any.
    pub char_offset: Option<u64>,
    /// The fingerprint of the `symbol` asked for, if any: a read by name
    /// repeats only a read of the same name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<u64>,
    /// The fingerprint of the `encoding` named, if any: text read as one
    /// encoding does not repeat text read as another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<u64>,
}

impl ReadKey {
    /// The key of a search's lines `first..=last` shown as a read of them
    /// would show them.
    pub(crate) fn lines(first: u64, last: u64) -> Self {
        Self {
            offset: first,
            limit: last + 1 - first,
            char_offset: None,
            symbol: None,
            encoding: None,
        }
    }
}

/// What the session knows about one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Size in bytes when last seen.
    pub size: u64,
    /// Modification time when last seen.
    pub mtime_ns: u64,
    /// Fingerprint of the whole content, when all of it passed through.
    pub fingerprint: Option<u64>,
    /// Lines shown since the file last changed.
    pub seen: Coverage,
    /// Lines in the file, when counted to the end.
    pub total_lines: Option<u64>,
    /// Encoding, BOM and line endings.
    pub style: Style,
    /// The call that last read or changed the file.
    pub call: u64,
    /// The last read's arguments while a repeat of it may be answered with a
    /// stub; cleared by a stub, a write or an edit.
    pub dedup: Option<ReadKey>,
    /// The whole text at this version, when the session keeps it (SPEC V3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<View>,
}

/// Where the text a record describes is kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The SHA-256 the history keeps it under.
    pub sha256: String,
    /// Its XXH3-128, when it was computed with the SHA-256: a change of the
    /// file gives it to the host to check instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xxh3: Option<String>,
    /// The call that kept it: the oldest goes first.
    pub at: u64,
}

impl Record {
    /// Whether every line has been seen.
    pub fn full(&self) -> bool {
        self.total_lines
            .is_some_and(|total| self.seen.covers(total))
    }

    /// Whether `other` describes the same content: the fingerprints decide
    /// when both are known, else size and mtime.
    pub fn same_content(&self, size: u64, mtime_ns: u64, fingerprint: Option<u64>) -> bool {
        match (self.fingerprint, fingerprint) {
            (Some(a), Some(b)) => a == b,
            _ => self.size == size && self.mtime_ns == mtime_ns,
        }
    }
}

/// Every record of a session, by root-relative path.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Ledger {
    records: BTreeMap<String, Record>,
    /// Which records changed in which generation, for
    /// [`Ledger::generation`] and [`Ledger::changes_since`]; not part of
    /// what it holds.
    #[serde(skip)]
    stamps: Stamps,
    /// Views of records replaced or rechanged since the session last took
    /// them: `(path, view)`.
    #[serde(skip)]
    released: Vec<(String, View)>,
}

/// Ledgers are equal when they hold the same records, however they came
/// to.
impl PartialEq for Ledger {
    fn eq(&self, other: &Self) -> bool {
        self.records == other.records
    }
}

impl Eq for Ledger {}

/// What changed in a ledger since a generation: the records that changed,
/// and the paths whose records were rechanged since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerChange {
    /// Changed records, as JSON, by path.
    pub changed: Vec<(String, String)>,
    /// Paths whose records were rechanged since.
    pub removed: Vec<String>,
}

impl Ledger {
    /// A number that changes whenever the ledger does (never 0), so a host
    /// keeping a copy knows when to take a new one.
    pub fn generation(&self) -> u64 {
        self.stamps.generation()
    }

    /// Forgets what a host holding generation `held` no longer needs.
    pub fn forget_held(&mut self, held: u64) {
        self.stamps.forget_held(held);
    }

    /// What changed after generation `held` (0: everything). Records not
    /// changed since the ledger was restored count as changed in its first
    /// generation.
    pub fn changes_since(&self, held: u64) -> LedgerChange {
        let as_json = |(path, record): (&String, &Record)| {
            let json = serde_json::to_string(record).unwrap_or_default();
            (path.clone(), json)
        };
        if held == 0 {
            return LedgerChange {
                changed: self.records.iter().map(as_json).collect(),
                removed: Vec::new(),
            };
        }
        let since = self.stamps.since(held);
        LedgerChange {
            changed: since
                .changed
                .into_iter()
                .filter_map(|path| self.records.get_key_value(path))
                .map(as_json)
                .collect(),
            removed: since.removed.into_iter().map(str::to_owned).collect(),
        }
    }

    /// A ledger of records given as JSON, by path.
    pub fn from_records(records: Vec<(String, String)>) -> Result<Self, String> {
        let records = records
            .into_iter()
            .map(|(path, json)| {
                serde_json::from_str(&json)
                    .map(|record| (path, record))
                    .map_err(|err| format!("invalid session ledger: {err}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            records,
            ..Self::default()
        })
    }

    /// The paths of the records under the directory `dir`.
    pub fn paths_under(&self, dir: &str) -> Vec<String> {
        let prefix = format!("{dir}/");
        self.records
            .range(prefix.clone()..)
            .take_while(|(path, _)| path.starts_with(&prefix))
            .map(|(path, _)| path.clone())
            .collect()
    }

    /// The paths with a record, in order.
    pub fn paths(&self) -> Vec<String> {
        self.records.keys().cloned().collect()
    }

    /// The record of `path`.
    pub fn get(&self, path: &str) -> Option<&Record> {
        self.records.get(path)
    }

    /// The record of `path`, for changes.
    pub fn get_mut(&mut self, path: &str) -> Option<&mut Record> {
        if self.records.contains_key(path) {
            self.stamps.changed(path);
        }
        self.records.get_mut(path)
    }

    /// Stores `record`, forgetting the least recently used file when full.
    pub fn insert(&mut self, path: &str, record: Record) {
        if self.records.len() >= MAX_RECORDS && !self.records.contains_key(path) {
            let oldest = self
                .records
                .iter()
                .min_by_key(|(_, r)| r.call)
                .map(|(p, _)| p.clone());
            if let Some(oldest) = oldest {
                self.remove(&oldest);
            }
        }
        self.stamps.changed(path);
        if let Some(old) = self.records.insert(path.to_owned(), record)
            && let Some(view) = old.view
            && self.records[path].view.as_ref() != Some(&view)
        {
            self.released.push((path.to_owned(), view));
        }
    }

    /// Forgets every read a repeat could be stubbed for: the model no
    /// longer holds those outputs (SPEC V5).
    pub fn forget_outputs(&mut self) {
        let paths: Vec<String> = self
            .records
            .iter()
            .filter(|(_, r)| r.dedup.is_some())
            .map(|(p, _)| p.clone())
            .collect();
        for path in paths {
            if let Some(record) = self.get_mut(&path) {
                record.dedup = None;
            }
        }
    }

    /// The views of the records replaced or rechanged since the last call.
    pub(crate) fn take_released(&mut self) -> Vec<(String, View)> {
        std::mem::take(&mut self.released)
    }

    /// Every record that keeps a view.
    pub(crate) fn views(&self) -> impl Iterator<Item = (&String, &View)> {
        self.records
            .iter()
            .filter_map(|(path, record)| Some((path, record.view.as_ref()?)))
    }

    /// Records what a read showed of `path` at call `call`. Lines add to
    /// what was seen of the same content; a changed file starts afresh.
    pub(crate) fn observe(&mut self, path: &str, shown: &Observation, call: u64, key: ReadKey) {
        let dedup = shown.content.then_some(key);
        if let Some(record) = self.get_mut(path)
            && record.same_content(shown.size, shown.mtime_ns, shown.fingerprint)
        {
            record.size = shown.size;
            record.mtime_ns = shown.mtime_ns;
            record.fingerprint = shown.fingerprint.or(record.fingerprint);
            if let Some((first, last)) = shown.lines {
                record.seen.add(first, last);
            }
            record.total_lines = shown.total.or(record.total_lines);
            if shown.style.line_ending != LineEnding::None {
                record.style = shown.style;
            }
            record.call = call;
            record.dedup = dedup;
            return;
        }
        let mut seen = Coverage::default();
        if let Some((first, last)) = shown.lines {
            seen.add(first, last);
        }
        self.insert(
            path,
            Record {
                size: shown.size,
                mtime_ns: shown.mtime_ns,
                fingerprint: shown.fingerprint,
                seen,
                total_lines: shown.total,
                style: shown.style,
                call,
                dedup,
                view: None,
            },
        );
    }

    /// Forgets `path`.
    pub fn remove(&mut self, path: &str) -> Option<Record> {
        let mut removed = self.records.remove(path)?;
        self.stamps.removed(path);
        if let Some(view) = removed.view.take() {
            self.released.push((path.to_owned(), view));
        }
        Some(removed)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A record of a one-line file of 3 bytes read whole at `call`.
    pub(crate) fn record(call: u64) -> Record {
        Record {
            size: 3,
            mtime_ns: 7,
            fingerprint: Some(42),
            seen: Coverage::all(1),
            total_lines: Some(1),
            style: Style::default(),
            call,
            dedup: None,
            view: None,
        }
    }

    #[test]
    fn changes_since_a_generation_name_only_what_changed() {
        let mut ledger = Ledger::default();
        ledger.insert("a", record(1));
        ledger.insert("b", record(2));
        let held = ledger.generation();
        assert_eq!(ledger.changes_since(held).changed, []);
        ledger.get_mut("b").unwrap().call = 3;
        let change = ledger.changes_since(held);
        assert_eq!(change.changed.len(), 1);
        assert_eq!(change.changed[0].0, "b");
        assert_eq!(change.removed, Vec::<String>::new());
        let held = ledger.generation();
        ledger.remove("a");
        assert_eq!(ledger.changes_since(held).removed, ["a"]);
        let all = ledger.changes_since(0).changed;
        assert_eq!(Ledger::from_records(all).unwrap(), ledger);
    }

    fn ranges(seen: &Coverage) -> Vec<(u64, u64)> {
        seen.0.clone()
    }

    #[test]
    fn ranges_merge_when_they_touch() {
        let mut seen = Coverage::default();
        seen.add(10, 20);
        seen.add(1, 5);
        seen.add(6, 9);
        assert_eq!(ranges(&seen), vec![(1, 20)]);
        seen.add(30, 40);
        assert_eq!(seen.to_string(), "1-20, 30-40");
        assert_eq!(seen.first_gap(40), Some(21));
        assert!(Coverage::default().covers(0));
        assert!(!Coverage::default().covers(1));
    }

    #[test]
    fn replacing_lines_moves_the_later_ranges() {
        let mut seen = Coverage::all(100);
        seen.replace(10, 2, 5);
        assert_eq!(ranges(&seen), vec![(1, 103)]);
        let mut partial = Coverage::default();
        partial.add(1, 5);
        partial.add(50, 60);
        partial.replace(20, 1, 0);
        assert_eq!(ranges(&partial), vec![(1, 5), (49, 59)]);
        partial.replace(3, 1, 3);
        assert_eq!(ranges(&partial), vec![(1, 7), (51, 61)]);
    }

    #[test]
    fn the_fingerprint_decides_when_both_are_known() {
        let record = record(1);
        assert!(record.same_content(3, 99, Some(42)));
        assert!(!record.same_content(3, 7, Some(43)));
        assert!(record.same_content(3, 7, None));
        assert!(!record.same_content(3, 8, None));
        assert!(record.full());
    }
}
