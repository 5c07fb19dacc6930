//! A walk over a directory through the host, in a stable order (names
//! sorted at each level, a directory's content where its name falls, as
//! ripgrep's `--sort path`), applying the [`rules`] and keeping a tally of
//! everything left out and why (SPEC G3). Symlinks are never followed.
//! By default it visits files; a walk that lists paths of every kind (the
//! MCP filesystem set's `search_files`) visits directories and symlinks
//! too, leaves out its own exclusions and stops after a number of entries.
//!
//! ```
//! use std::ops::ControlFlow;
//! use filetools_core::MemFs;
//! use filetools_core::paths::walk::{Walk, rules::{Narrowing, Rules}};
//! let fs = MemFs::new();
//! fs.add_file(".gitignore", b"build/\n");
//! fs.add_file("build/out.txt", b"x");
//! fs.add_file("src/a.rs", b"fn a() {}");
//! let rules = Rules::new(&fs, Narrowing::default(), &[], ".").unwrap();
//! let mut walk = Walk::new(&fs, rules);
//! let mut found = Vec::new();
//! let _ = walk.run(".", &mut |file, _| { found.push(file.rel.clone()); ControlFlow::Continue(()) });
//! assert_eq!(found, ["src/a.rs"]);
//! assert!(walk.skipped.to_string().contains(".gitignore \"build/\": 1 directory (build/)"));
//! ```

pub mod handoff;
pub mod patterns;
pub mod rules;

use std::ops::ControlFlow;

use crate::answers::search::Skipped;
use crate::fs::host::{FileKind, HostFs};
use crate::paths::glob::Glob;
use handoff::HandedOff;
use rules::{Rules, Verdict, join};

/// A file (or, in a walk of every kind, a directory or symlink) a walk
/// reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Root-relative path.
    pub rel: String,
    /// Size as listed.
    pub size: u64,
    /// Kind as listed (symlinks not followed).
    pub kind: FileKind,
    /// Modification time as listed (nanoseconds since the Unix epoch).
    pub mtime_ns: u64,
}

/// What a walk that lists every kind of path adds to the rules.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Paths (relative to the walk's start) left out, and not entered.
    pub exclude: Vec<Glob>,
    /// Entries listed at most; the walk stops there.
    pub max_entries: usize,
}

/// A walk in progress.
#[derive(Debug)]
pub struct Walk<'a, F: ?Sized> {
    fs: &'a F,
    rules: Rules,
    /// What was left out, and why.
    pub skipped: Skipped,
    /// Files reached.
    pub files: u64,
    /// Files the call's glob or type left out.
    pub narrowed: u64,
    /// A walk of every kind: its exclusions and cap.
    listing: Option<Listing>,
    /// The directory the walk started from.
    start: String,
    /// Entries listed, in a walk of every kind.
    pub visited: usize,
    /// Whether the cap stopped the walk.
    pub stopped: bool,
    /// Whether the directories are listed by names and kinds alone.
    names_only: bool,
    /// The request with which subdirectories are handed to the host to
    /// walk elsewhere, when the visitor allows it.
    handoff: Option<handoff::Request>,
    /// The directories whose ignore files are in force, the root first,
    /// each with the names of those it holds.
    entered: Vec<(String, Vec<String>)>,
}

impl<'a, F: HostFs + ?Sized> Walk<'a, F> {
    /// A walk over `fs` under `rules`.
    pub fn new(fs: &'a F, rules: Rules) -> Self {
        Self {
            fs,
            rules,
            skipped: Skipped::default(),
            files: 0,
            narrowed: 0,
            listing: None,
            start: String::new(),
            visited: 0,
            stopped: false,
            names_only: false,
            handoff: None,
            entered: Vec::new(),
        }
    }

    /// A walk that may hand whole subdirectories to the host to walk
    /// elsewhere with `request` ([`handoff`]), when the host offers to.
    /// The visitor then sees the files of such a directory after the
    /// walker there is done, with all that was left out there already
    /// counted, and never in a walk that lists every kind.
    #[must_use]
    pub fn handing_off(mut self, request: handoff::Request) -> Self {
        self.handoff = Some(request);
        self
    }

    /// A walk whose visitor needs no file's size or time: the host may
    /// list names and kinds alone ([`HostFs::list_names`]), and each
    /// [`Found`] then has a size and time of 0.
    #[must_use]
    pub fn names_only(mut self, names_only: bool) -> Self {
        self.names_only = names_only;
        self
    }

    /// A walk that visits directories and symlinks too, as `listing`
    /// narrows and caps it.
    #[must_use]
    pub fn listing(mut self, listing: Listing) -> Self {
        self.listing = Some(listing);
        self
    }

    /// `rel` relative to the walk's start.
    fn relative<'r>(&self, rel: &'r str) -> &'r str {
        if self.start == "." || self.start.is_empty() {
            return rel;
        }
        rel.strip_prefix(self.start.as_str())
            .and_then(|r| r.strip_prefix('/'))
            .unwrap_or(rel)
    }

    /// Visits each file under the directory `start` (root-relative) in
    /// order until `visit` breaks, handing it too what the walk has left
    /// out so far. The ignore files of the directories above `start` apply
    /// too.
    pub fn run(
        &mut self,
        start: &str,
        visit: &mut dyn FnMut(&Found, &Skipped) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        start.clone_into(&mut self.start);
        let entered = self.enter_above(start);
        let flow = self.directory(start, visit);
        self.leave_above(entered);
        flow
    }

    /// Enters the ignore files of the directories above `start`, the root
    /// first: how many levels were entered.
    fn enter_above(&mut self, start: &str) -> usize {
        let mut entered = 0;
        for dir in ancestors(start) {
            let names: Vec<String> = rules::IGNORE_FILES
                .iter()
                .map(|name| (*name).to_owned())
                .filter(|name| self.fs.stat(&join(&dir, name)).is_ok())
                .collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            self.enter(&dir, &names);
            entered += 1;
        }
        entered
    }

    /// Leaves the `entered` levels [`Walk::enter_above`] entered.
    fn leave_above(&mut self, entered: usize) {
        for _ in 0..entered {
            self.leave();
        }
    }

    /// Puts in force the ignore files of `dir` among `names` (its entries).
    fn enter(&mut self, dir: &str, names: &[&str]) {
        let present: Vec<&str> = rules::IGNORE_FILES
            .iter()
            .copied()
            .filter(|name| names.contains(name))
            .collect();
        self.rules.enter(self.fs, dir, &present);
        self.entered.push((
            dir.to_owned(),
            present.iter().map(|name| (*name).to_owned()).collect(),
        ));
    }

    /// Takes the ignore files of the directory entered last out of force.
    fn leave(&mut self) {
        self.rules.leave();
        self.entered.pop();
    }

    fn directory(
        &mut self,
        dir: &str,
        visit: &mut dyn FnMut(&Found, &Skipped) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let listed = if self.names_only {
            self.fs.list_names(dir)
        } else {
            self.fs.list_dir(dir)
        };
        let Ok(entries) = listed else {
            self.skipped.unreadable.push(dir.to_owned());
            return ControlFlow::Continue(());
        };
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        self.enter(dir, &names);
        let mut handed = if self.listing.is_none() {
            let listed = (&self.rules, dir, entries.as_slice());
            HandedOff::start(self.fs, &mut self.handoff, &self.entered, listed)
        } else {
            None
        };
        let mut flow = ControlFlow::Continue(());
        for entry in &entries {
            let rel = join(dir, &entry.name);
            let is_dir = entry.kind == FileKind::Directory;
            if let Some(listing) = &self.listing {
                if self.visited >= listing.max_entries {
                    self.stopped = true;
                    flow = ControlFlow::Break(());
                    break;
                }
                self.visited += 1;
                let relative = self.relative(&rel);
                if listing.exclude.iter().any(|glob| glob.matches(relative)) {
                    continue;
                }
            }
            let found = |rel: String| Found {
                rel,
                size: entry.size,
                kind: entry.kind,
                mtime_ns: entry.mtime_ns,
            };
            let every_kind = self.listing.is_some();
            match self.rules.verdict(&rel, &entry.name, is_dir) {
                Verdict::Narrowed => {
                    self.narrowed += u64::from(!is_dir);
                    continue;
                }
                Verdict::Skip(rule) if is_dir => self.skipped.directory(rule, &rel),
                Verdict::Skip(rule) => self.skipped.file(rule),
                Verdict::Search => match entry.kind {
                    FileKind::Directory if every_kind => {
                        flow = visit(&found(rel.clone()), &self.skipped);
                        if flow.is_continue() {
                            flow = self.directory(&rel, visit);
                        }
                    }
                    FileKind::Directory => flow = self.subdirectory(&rel, handed.as_mut(), visit),
                    FileKind::File => {
                        self.files += 1;
                        flow = visit(&found(rel), &self.skipped);
                    }
                    _ if every_kind => flow = visit(&found(rel), &self.skipped),
                    FileKind::Symlink => self.skipped.symlinks += 1,
                    _ => self.skipped.special += 1,
                },
            }
            if flow.is_break() {
                break;
            }
        }
        self.leave();
        flow
    }
}

/// The directories strictly above `start`, the root first.
fn ancestors(start: &str) -> Vec<String> {
    if start == "." || start.is_empty() {
        return Vec::new();
    }
    let mut dirs = vec![".".to_owned()];
    let parts: Vec<&str> = start.split('/').collect();
    for n in 1..parts.len() {
        dirs.push(parts[..n].join("/"));
    }
    dirs
}
