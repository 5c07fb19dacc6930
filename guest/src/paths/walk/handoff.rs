//! Directories a walk hands to its host to walk elsewhere, at once (see
//! `walk-start` in `wit/host-fs.wit`): the host gives them to other
//! instances of this very code, on threads of their own, and each comes
//! back as the record of what the walk would have found there itself —
//! the same files in the same order, and the same tally of what was left
//! out. Only a walk whose visitor needs nothing but the files hands off.
//!
//! ```
//! use std::ops::ControlFlow;
//! use filetools_core::MemFs;
//! use filetools_core::paths::walk::handoff::{Request, walk_handed_off};
//! use filetools_core::paths::walk::rules::Narrowing;
//! let fs = MemFs::new();
//! fs.add_file("src/.gitignore", b"*.tmp\n");
//! fs.add_file("src/a/one.rs", b"1");
//! fs.add_file("src/a/two.tmp", b"2");
//! fs.add_file("src/b/three.rs", b"3");
//! let entered = [(".".to_owned(), vec![]), ("src".to_owned(), vec![".gitignore".to_owned()])];
//! let request = Request::new(Narrowing::default(), &[], ".", false).above(&entered).to_json();
//! let records = walk_handed_off(&fs, &["src/a".to_owned(), "src/b".to_owned()], &request);
//! assert_eq!(records.len(), 2);
//! assert!(records[0].contains("src/a/one.rs") && !records[0].contains("two.tmp"));
//! ```

use std::collections::VecDeque;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use super::rules::{Narrowing, Rules, Verdict, join};
use super::{Found, Walk};
use crate::answers::search::Skipped;
use crate::fs::host::{DirEntry, FileKind, HostFs};

/// Subdirectories of one listing that a walk hands off, at the fewest:
/// fewer cost more to send than to walk here.
pub const MIN_HANDED_OFF_DIRS: usize = 8;

/// How the host's other walkers are to walk what they are handed: as the
/// walk that hands it off does.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    narrowing: Narrowing,
    excludes: Vec<String>,
    base: String,
    names_only: bool,
    /// The directories above the ones handed off whose ignore files the
    /// walk has in force, the root first, each with the names of those it
    /// holds as the walk found them: the walkers take the same, not what
    /// they would find by asking (a file system that ignores case would
    /// find `.GitIgnore` by asking for `.gitignore`).
    #[serde(default)]
    above: Vec<(String, Vec<String>)>,
}

impl Request {
    /// The request of a walk under `Rules::new(_, narrowing, excludes,
    /// base)`, listing names alone when `names_only`.
    pub fn new(narrowing: Narrowing, excludes: &[String], base: &str, names_only: bool) -> Self {
        Self {
            narrowing,
            excludes: excludes.to_vec(),
            base: base.to_owned(),
            names_only,
            above: Vec::new(),
        }
    }

    /// The request for directories right below the last of `entered`: the
    /// directories whose ignore files the walk has in force, the root
    /// first, each with the names of those it holds.
    #[must_use]
    pub fn above(&self, entered: &[(String, Vec<String>)]) -> Self {
        Self {
            above: entered.to_vec(),
            ..self.clone()
        }
    }

    /// The request as the host passes it on.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// What walking one handed-off directory found.
#[derive(Debug, Serialize, Deserialize)]
struct Walked {
    /// The directory, root-relative.
    dir: String,
    /// Each file reached, in the walk's order: path, size and time as listed.
    found: Vec<(String, u64, u64)>,
    /// Files reached.
    files: u64,
    /// Files the call's glob or type left out.
    narrowed: u64,
    /// What was left out, and why.
    skipped: Skipped,
}

/// The records of walking each of `dirs`, subdirectories of one
/// directory, as the walk that sent `request` would: what `walk-results`
/// answers. Empty when the request does not parse or `dirs` have
/// different parents.
pub fn walk_handed_off<F: HostFs + ?Sized>(fs: &F, dirs: &[String], request: &str) -> Vec<String> {
    let Ok(request) = serde_json::from_str::<Request>(request) else {
        return Vec::new();
    };
    // Siblings, right below the last directory whose rules are in force.
    let below = request.above.last().map(|(dir, _)| dir.as_str());
    if dirs.is_empty() || dirs.iter().any(|dir| Some(parent(dir)) != below) {
        return Vec::new();
    }
    let Ok(rules) = Rules::new(fs, request.narrowing, &request.excludes, &request.base) else {
        return Vec::new();
    };
    let mut walk = Walk::new(fs, rules).names_only(request.names_only);
    for (dir, names) in &request.above {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        walk.enter(dir, &names);
    }
    let entered = request.above.len();
    let records = dirs
        .iter()
        .map(|dir| {
            let mut found = Vec::new();
            let _ = walk.directory(dir, &mut |file, _| {
                found.push((file.rel.clone(), file.size, file.mtime_ns));
                ControlFlow::Continue(())
            });
            let walked = Walked {
                dir: dir.clone(),
                found,
                files: std::mem::take(&mut walk.files),
                narrowed: std::mem::take(&mut walk.narrowed),
                skipped: std::mem::take(&mut walk.skipped),
            };
            serde_json::to_string(&walked).unwrap_or_default()
        })
        .collect();
    walk.leave_above(entered);
    records
}

/// The directory above `rel` (`.` above a name of the root).
fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or(".", |(parent, _)| parent)
}

/// Subdirectories handed off from one listing, and their records once
/// collected.
#[derive(Debug)]
pub(super) struct HandedOff {
    ticket: u64,
    /// The records, first to last, as the host gave them (each read when
    /// its directory comes); `None` until collected.
    records: Option<VecDeque<String>>,
}

impl HandedOff {
    /// Hands off the subdirectories of `dir` (listed as `entries`) that
    /// `rules` would walk into, when there are enough of them and the host
    /// takes them, with `request` for directories below `entered`. A host
    /// that declines is not asked again in this walk: `request` becomes
    /// `None`.
    pub(super) fn start<F: HostFs + ?Sized>(
        fs: &F,
        request: &mut Option<Request>,
        entered: &[(String, Vec<String>)],
        (rules, dir, entries): (&Rules, &str, &[DirEntry]),
    ) -> Option<Self> {
        let base = request.as_ref()?;
        // Too few to hand off whatever the rules say: no verdict asked.
        if entries
            .iter()
            .filter(|entry| entry.kind == FileKind::Directory)
            .count()
            < MIN_HANDED_OFF_DIRS
        {
            return None;
        }
        let dirs: Vec<String> = entries
            .iter()
            .filter(|entry| entry.kind == FileKind::Directory)
            .map(|entry| join(dir, &entry.name))
            .filter(|rel| {
                let name = rel.rsplit('/').next().unwrap_or(rel);
                rules.verdict(rel, name, true) == Verdict::Search
            })
            .collect();
        if dirs.len() < MIN_HANDED_OFF_DIRS {
            return None;
        }
        let Some(ticket) = fs.walk_start(&dirs, &base.above(entered).to_json()) else {
            *request = None;
            return None;
        };
        Some(Self {
            ticket,
            records: None,
        })
    }

    /// The record of the directory `rel`, the next one handed off, once
    /// all are in; `None` when the host gave none that fits (the walk then
    /// walks it, and the rest, itself).
    fn take<F: HostFs + ?Sized>(&mut self, fs: &F, rel: &str) -> Option<Walked> {
        let records = self
            .records
            .get_or_insert_with(|| fs.walk_results(self.ticket).into());
        let walked = records
            .pop_front()
            .and_then(|record| serde_json::from_str::<Walked>(&record).ok())
            .filter(|walked| walked.dir == rel);
        if walked.is_none() {
            // What does not fit leaves this directory, and the rest, to the
            // walk.
            records.clear();
        }
        walked
    }
}

impl<F: HostFs + ?Sized> Walk<'_, F> {
    /// Walks the subdirectory `rel` of the directory being walked, or
    /// takes its record from `handed` where another walker walked it.
    pub(super) fn subdirectory(
        &mut self,
        rel: &str,
        handed: Option<&mut HandedOff>,
        visit: &mut dyn FnMut(&Found, &Skipped) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(walked) = handed.and_then(|handed| handed.take(self.fs, rel)) else {
            return self.directory(rel, visit);
        };
        self.files += walked.files;
        self.narrowed += walked.narrowed;
        self.skipped.absorb(walked.skipped);
        for (rel, size, mtime_ns) in walked.found {
            let found = Found {
                rel,
                size,
                kind: FileKind::File,
                mtime_ns,
            };
            visit(&found, &self.skipped)?;
        }
        ControlFlow::Continue(())
    }
}
