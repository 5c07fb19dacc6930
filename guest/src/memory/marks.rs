//! Turn marks (SPEC K1): at the start of a turn the harness marks it, and
//! the session records what each file it knows of holds then — the files
//! the model read or changed, and those the host named as changed outside
//! (a shell command's edits). A file the session first changes after a
//! mark counts, for that mark, as it was just before that change. `rewind`
//! brings files back to a mark.
//!
//! The content of a marked file is kept in the history's content-addressed
//! store beside the views, so a version held by a view, an undo entry and
//! several marks is stored once. A mark records only the files that differ
//! from the mark before (the first, every file), so a session's memory,
//! saved after every call, grows with what changed between turns, not
//! with turns times files. Marks are bounded: at most [`MAX_MARKS`], and
//! the content only they hold within the history's budget, the oldest
//! marks going first.
//!
//! ```
//! use filetools_core::memory::history::History;
//! use filetools_core::memory::marks::{Found, Marked, Marks};
//! let (mut marks, mut history) = (Marks::default(), History::default());
//! let id = marks.push(&mut history, (3, Default::default()), [("a.txt".into(), Found::Content(b"one\n".to_vec()))], 1024);
//! marks.first_change(&mut history, "b.txt", None);
//! let mark = marks.get(id).unwrap();
//! assert!(matches!(mark.files["a.txt"], Marked::Kept { size: 4, .. }));
//! assert_eq!(mark.files["b.txt"], Marked::Absent);
//! assert_eq!(marks.content(&history, &mark.files["a.txt"]), Some(&b"one\n"[..]));
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::fs::sha256::sha256_hex;
use crate::memory::fingerprint::Fingerprint;
use crate::memory::history::History;

/// Marks kept; the oldest goes first.
pub const MAX_MARKS: usize = 16;

/// What a file held at a mark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Marked {
    /// It did not exist.
    Absent,
    /// This content, kept under its SHA-256.
    Kept {
        /// The content's hash.
        sha256: String,
        /// Its size.
        size: u64,
    },
    /// Not known: the host named it as changed outside only at a later
    /// mark.
    Unknown,
    /// Content too large to keep (or past the budget).
    Unkept {
        /// Its size.
        size: u64,
        /// Its fingerprint, when it was read.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fingerprint: Option<u64>,
    },
}

/// What a file holds when a mark is taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Nothing: it does not exist.
    Absent,
    /// This content.
    Content(Vec<u8>),
    /// Content too large to keep, of this size and fingerprint.
    TooLarge {
        /// Its size.
        size: u64,
        /// Its fingerprint.
        fingerprint: u64,
    },
}

/// One turn mark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// Its number, from 1, never reused in a session.
    pub id: u64,
    /// The session's call count when it was taken.
    pub call: u64,
    /// The history's newest change then: later changes are the turn's.
    #[serde(default)]
    pub seq: u64,
    /// Files the host named at this mark as changed outside since the
    /// mark before (by the turn that ended).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub named: BTreeSet<String>,
    /// What each file held then, by root-relative path, where it differs
    /// from the mark before (the oldest mark: every file); see
    /// [`Marks::files_at`].
    pub files: BTreeMap<String, Marked>,
}

/// A session's turn marks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    /// Oldest first.
    #[serde(default)]
    list: Vec<Mark>,
    /// The number of the newest mark taken.
    #[serde(default)]
    last: u64,
    /// Files the host named as changed outside, recorded at every later
    /// mark.
    #[serde(default)]
    named: BTreeSet<String>,
    /// The history's changes made by a rewind: their sequence number, and
    /// the mark rewound to.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    rewinds: BTreeMap<u64, u64>,
}

impl Marked {
    /// The SHA-256 of the content kept, if any.
    fn sha256(&self) -> Option<&str> {
        match self {
            Marked::Kept { sha256, .. } => Some(sha256),
            _ => None,
        }
    }
}

impl Marks {
    /// The mark numbered `id`.
    pub fn get(&self, id: u64) -> Option<&Mark> {
        self.list.iter().find(|mark| mark.id == id)
    }

    /// The marks, oldest first.
    pub fn all(&self) -> &[Mark] {
        &self.list
    }

    /// What each file held at mark `id`, every file it knew.
    pub fn files_at(&self, id: u64) -> Option<BTreeMap<String, Marked>> {
        let at = self.list.iter().position(|mark| mark.id == id)?;
        Some(self.resolved(at))
    }

    /// The files of the mark at index `at`, folded from the oldest.
    fn resolved(&self, at: usize) -> BTreeMap<String, Marked> {
        let mut files = BTreeMap::new();
        for mark in &self.list[..=at.min(self.list.len().saturating_sub(1))] {
            for (path, marked) in &mark.files {
                files.insert(path.clone(), marked.clone());
            }
        }
        files
    }

    /// Whether no mark was ever taken.
    pub fn never_marked(&self) -> bool {
        self.last == 0
    }

    /// Files named as changed outside.
    pub fn named(&self) -> &BTreeSet<String> {
        &self.named
    }

    /// Follows `path` at every later mark; the marks taken before, which
    /// did not know it, say so (a change the session makes later does not
    /// tell what it held then).
    pub fn follow(&mut self, path: &str) {
        self.named.insert(path.to_owned());
        if let Some(oldest) = self.list.first_mut() {
            oldest
                .files
                .entry(path.to_owned())
                .or_insert(Marked::Unknown);
        }
    }

    /// Notes that the history's change `seq` was made by a rewind to mark
    /// `id`.
    pub fn rewound(&mut self, seq: u64, id: u64) {
        self.rewinds.insert(seq, id);
    }

    /// The mark a rewind that made the history's change `seq` went to.
    pub fn rewind_of(&self, seq: u64) -> Option<u64> {
        self.rewinds.get(&seq).copied()
    }

    /// The content kept for `marked`.
    pub fn content<'h>(&self, history: &'h History, marked: &Marked) -> Option<&'h [u8]> {
        history.held(marked.sha256()?)
    }

    /// Records a mark taken at call `call`: what each file holds then.
    /// Content is kept while what only marks hold stays within `budget`
    /// bytes, the oldest marks going first; the newest mark's files past
    /// it are recorded by size. Its number.
    pub fn push(
        &mut self,
        history: &mut History,
        (call, named): (u64, BTreeSet<String>),
        files: impl IntoIterator<Item = (String, Found)>,
        budget: u64,
    ) -> u64 {
        self.last += 1;
        let mut mark = Mark {
            id: self.last,
            call,
            seq: history.seq(),
            named,
            files: BTreeMap::new(),
        };
        let before = if self.list.is_empty() {
            BTreeMap::new()
        } else {
            self.resolved(self.list.len() - 1)
        };
        let mut room = budget;
        for (path, found) in files {
            let marked = match found {
                Found::Absent => Marked::Absent,
                Found::Content(bytes) => {
                    let sha256 = sha256_hex(&bytes);
                    let size = bytes.len() as u64;
                    let kept = Marked::Kept { sha256, size };
                    if before.get(&path) == Some(&kept) {
                        continue;
                    }
                    let Marked::Kept { sha256, .. } = &kept else {
                        continue;
                    };
                    // Content another holder keeps costs nothing more.
                    let new = history.held(sha256).is_none();
                    if new && size > room {
                        Marked::Unkept {
                            size,
                            fingerprint: Some(Fingerprint::of(&bytes)),
                        }
                    } else {
                        history.hold_hashed(&bytes, sha256);
                        if new {
                            room -= size;
                        }
                        kept
                    }
                }
                Found::TooLarge { size, fingerprint } => Marked::Unkept {
                    size,
                    fingerprint: Some(fingerprint),
                },
            };
            if before.get(&path) != Some(&marked) {
                mark.files.insert(path, marked);
            }
        }
        self.list.push(mark);
        while self.list.len() > MAX_MARKS || (self.list.len() > 1 && self.bytes() > budget) {
            let oldest = self.list.remove(0);
            self.fold_into_oldest(history, oldest);
        }
        let oldest = self.list.first().map_or(0, |mark| mark.seq);
        self.rewinds.retain(|seq, _| *seq > oldest);
        self.last
    }

    /// Bytes of content the marks keep, each content once.
    fn bytes(&self) -> u64 {
        let mut seen = BTreeMap::new();
        for marked in self.list.iter().flat_map(|mark| mark.files.values()) {
            if let Marked::Kept { sha256, size } = marked {
                seen.insert(sha256.as_str(), *size);
            }
        }
        seen.values().sum()
    }

    /// Gives what the mark `dropped` recorded to the oldest mark left,
    /// which now stands for it where it recorded nothing of its own.
    fn fold_into_oldest(&mut self, history: &mut History, dropped: Mark) {
        for (path, marked) in dropped.files {
            match self.list.first_mut() {
                Some(oldest) if !oldest.files.contains_key(&path) => {
                    oldest.files.insert(path, marked);
                }
                _ => release(history, &marked),
            }
        }
    }

    /// Notes what `path` held before the session first changed it
    /// (`None`: it did not exist; else its content and SHA-256), for the
    /// marks that do not know it (the oldest ones): that is what the file
    /// was at those marks.
    pub fn first_change(
        &mut self,
        history: &mut History,
        path: &str,
        before: Option<(&[u8], &str)>,
    ) {
        if let Some(mark) = self.list.first_mut() {
            if mark.files.contains_key(path) {
                return;
            }
            let marked = match before {
                None => Marked::Absent,
                Some((bytes, sha256)) => {
                    history.hold_hashed(bytes, sha256);
                    Marked::Kept {
                        sha256: sha256.to_owned(),
                        size: bytes.len() as u64,
                    }
                }
            };
            mark.files.insert(path.to_owned(), marked);
        }
    }

    /// [`first_change`](Self::first_change) of a file whose content before
    /// was too large to keep.
    pub fn first_change_unkept(&mut self, path: &str, size: u64) {
        if let Some(mark) = self.list.first_mut() {
            mark.files.entry(path.to_owned()).or_insert(Marked::Unkept {
                size,
                fingerprint: None,
            });
        }
    }

    /// The SHA-256 of every content the marks keep, once per holder, for a
    /// history rebuilt from its parts.
    pub fn held(&self) -> impl Iterator<Item = &str> {
        self.list
            .iter()
            .flat_map(|mark| mark.files.values().filter_map(Marked::sha256))
    }
}

/// Lets go of the content `marked` kept.
fn release(history: &mut History, marked: &Marked) {
    if let Some(sha256) = marked.sha256() {
        history.drop_view(sha256);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::sha256::sha256_hex as digest;

    fn at(marks: &Marks, id: u64, path: &str) -> Marked {
        marks.files_at(id).unwrap()[path].clone()
    }

    fn file(path: &str, text: &str) -> (String, Found) {
        (path.to_owned(), Found::Content(text.as_bytes().to_vec()))
    }

    #[test]
    fn the_oldest_marks_go_past_the_count_and_their_content_with_them() {
        let (mut marks, mut history) = (Marks::default(), History::default());
        for n in 0..MAX_MARKS + 2 {
            marks.push(
                &mut history,
                (0, BTreeSet::new()),
                vec![file("a", &format!("{n}\n"))],
                1 << 20,
            );
        }
        assert_eq!(marks.all().len(), MAX_MARKS);
        assert_eq!(marks.all()[0].id, 3);
        assert!(history.held(&digest(b"0\n")).is_none());
        assert!(history.held(&digest(b"17\n")).is_some());
    }

    #[test]
    fn content_past_the_budget_is_recorded_by_size_and_older_marks_make_room() {
        let (mut marks, mut history) = (Marks::default(), History::default());
        marks.push(
            &mut history,
            (0, BTreeSet::new()),
            vec![file("a", "0123456789")],
            16,
        );
        let id = marks.push(
            &mut history,
            (1, BTreeSet::new()),
            vec![file("b", "abcdefghij"), file("c", "zz")],
            16,
        );
        assert_eq!(marks.all().len(), 1, "the first mark went to make room");
        let files = &marks.get(id).unwrap().files;
        assert!(matches!(files["b"], Marked::Kept { size: 10, .. }));
        assert!(matches!(files["c"], Marked::Kept { size: 2, .. }));
        let big = marks.push(
            &mut history,
            (2, BTreeSet::new()),
            vec![file("d", &"x".repeat(20))],
            16,
        );
        let fingerprint = Some(Fingerprint::of("x".repeat(20).as_bytes()));
        let marked = Marked::Unkept {
            size: 20,
            fingerprint,
        };
        assert_eq!(marks.get(big).unwrap().files["d"], marked);
    }

    #[test]
    fn a_first_change_fills_only_the_marks_that_did_not_know_the_file() {
        let (mut marks, mut history) = (Marks::default(), History::default());
        let none = || (0, BTreeSet::new());
        let one = marks.push(&mut history, none(), vec![file("a", "at one\n")], 1 << 20);
        let two = marks.push(
            &mut history,
            none(),
            vec![file("a", "at one\n"), file("b", "b\n")],
            1 << 20,
        );
        marks.first_change(&mut history, "a", Some((b"later\n", &digest(b"later\n"))));
        marks.first_change(
            &mut history,
            "c",
            Some((b"c before\n", &digest(b"c before\n"))),
        );
        marks.first_change_unkept("big", 99);
        for id in [one, two] {
            let content = |path| {
                marks
                    .content(&history, &at(&marks, id, path))
                    .map(<[u8]>::to_vec)
            };
            assert_eq!(content("a"), Some(b"at one\n".to_vec()));
            assert_eq!(content("c"), Some(b"c before\n".to_vec()));
            let unread = Marked::Unkept {
                size: 99,
                fingerprint: None,
            };
            assert_eq!(at(&marks, id, "big"), unread);
        }
        assert!(!marks.files_at(one).unwrap().contains_key("b"));
    }

    #[test]
    fn a_mark_records_only_what_changed_since_the_one_before() {
        let (mut marks, mut history) = (Marks::default(), History::default());
        let none = || (0, BTreeSet::new());
        let files = |b: &str| vec![file("a", "same\n"), file("b", b)];
        let one = marks.push(&mut history, none(), files("one\n"), 1 << 20);
        let two = marks.push(&mut history, none(), files("two\n"), 1 << 20);
        assert_eq!(marks.get(two).unwrap().files.len(), 1, "only b changed");
        for _ in 0..MAX_MARKS {
            marks.push(&mut history, none(), files("two\n"), 1 << 20);
        }
        assert!(marks.get(one).is_none() && marks.get(two).is_none());
        let oldest = marks.all()[0].id;
        let content = |path| {
            marks
                .content(&history, &at(&marks, oldest, path))
                .map(<[u8]>::to_vec)
        };
        assert_eq!(
            content("a"),
            Some(b"same\n".to_vec()),
            "folded into the oldest left"
        );
        assert_eq!(content("b"), Some(b"two\n".to_vec()));
        assert!(
            history.held(&digest(b"one\n")).is_none(),
            "b's first content let go"
        );
    }
}
