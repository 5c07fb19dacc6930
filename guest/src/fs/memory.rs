//! [`MemFs`]: an in-memory [`HostFs`] for tests, conformance runs and hosts
//! without a disk.
//!
//! Directories exist implicitly as the parents of files, or explicitly when
//! added with [`MemFs::add_dir`]. Special kinds (FIFOs, devices) can be added
//! with [`MemFs::add_special`] so the guards that refuse them can be tested.
//! Modification times come from a logical clock that ticks on every write.
//!
//! ```
//! use filetools_core::{HostFs, MemFs};
//! let fs = MemFs::new();
//! fs.add_file("src/a.txt", b"hello\n");
//! assert_eq!(fs.read("src/a.txt", 1, 3).unwrap(), b"ell");
//! ```

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use crate::fs::host::{DirEntry, FileKind, FsError, HostFs, Metadata, Precondition};

#[derive(Debug, Clone)]
enum Node {
    File { data: Vec<u8>, mtime_ns: u64 },
    Dir,
    Special(FileKind),
}

/// An in-memory file system. Interior mutability lets it be shared by
/// reference the way a host's file system is.
#[derive(Debug, Default)]
pub struct MemFs {
    nodes: RefCell<BTreeMap<String, Node>>,
    clock: Cell<u64>,
    read_only: bool,
    /// File bytes handed out by `read`, for tests that bound a read's cost.
    bytes_read: Cell<u64>,
    /// Intent records of changes, each with whether a call holds it.
    changes: RefCell<Vec<(bool, Vec<u8>)>>,
    /// The record the current call holds, by its place in `changes`.
    current: Cell<Option<usize>>,
}

impl MemFs {
    /// An empty, writable file system.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty file system that refuses every write with
    /// [`FsError::ReadOnly`] (files may still be added by the test itself).
    pub fn read_only() -> Self {
        Self {
            read_only: true,
            ..Self::default()
        }
    }

    fn tick(&self) -> u64 {
        let next = self.clock.get() + 1_000_000_000;
        self.clock.set(next);
        next
    }

    /// File bytes every `read` so far handed out: what a read cost.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read.get()
    }

    /// Adds or replaces a file (and its parent directories).
    pub fn add_file(&self, path: &str, data: &[u8]) {
        let mtime_ns = self.tick();
        self.add_parents(path);
        self.nodes.borrow_mut().insert(
            path.to_owned(),
            Node::File {
                data: data.to_vec(),
                mtime_ns,
            },
        );
    }

    /// Adds an empty directory (and its parents).
    pub fn add_dir(&self, path: &str) {
        self.add_parents(path);
        self.nodes.borrow_mut().insert(path.to_owned(), Node::Dir);
    }

    /// Adds a node of a special kind, e.g. [`FileKind::Fifo`].
    pub fn add_special(&self, path: &str, kind: FileKind) {
        self.add_parents(path);
        self.nodes
            .borrow_mut()
            .insert(path.to_owned(), Node::Special(kind));
    }

    /// The current content of a file, if it is one.
    pub fn contents(&self, path: &str) -> Option<Vec<u8>> {
        match self.nodes.borrow().get(path) {
            Some(Node::File { data, .. }) => Some(data.clone()),
            _ => None,
        }
    }

    fn add_parents(&self, path: &str) {
        let mut nodes = self.nodes.borrow_mut();
        let mut end = 0;
        while let Some(slash) = path[end..].find('/') {
            end += slash;
            nodes.entry(path[..end].to_owned()).or_insert(Node::Dir);
            end += 1;
        }
    }

    fn node(&self, path: &str) -> Result<Node, FsError> {
        if path == "." {
            return Ok(Node::Dir);
        }
        let nodes = self.nodes.borrow();
        if let Some(node) = nodes.get(path) {
            return Ok(node.clone());
        }
        // A missing path under a file is "not a directory", as on disk.
        let mut end = 0;
        while let Some(slash) = path[end..].find('/') {
            end += slash;
            if let Some(Node::File { .. } | Node::Special(_)) = nodes.get(&path[..end]) {
                return Err(FsError::NotADirectory);
            }
            end += 1;
        }
        Err(FsError::NotFound)
    }

    /// Refuses a change of `path` on a read-only system, on a directory, or
    /// when `precondition` does not hold.
    fn check(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        let current = match self.node(path) {
            Ok(node) => Some(node),
            Err(FsError::NotFound) => None,
            Err(other) => return Err(other),
        };
        let stamp = match &current {
            Some(Node::Dir) => return Err(FsError::IsADirectory),
            Some(Node::File { data, mtime_ns }) => Some((data.len() as u64, *mtime_ns)),
            Some(Node::Special(_)) => Some((0, 0)),
            None => None,
        };
        let holds = precondition.holds(stamp, |kind| match &current {
            Some(Node::File { data, .. }) => Ok(kind.of(data)),
            _ => Ok(String::new()),
        })?;
        if holds {
            Ok(())
        } else {
            Err(FsError::Conflict)
        }
    }

    /// Every regular file with its content, by path.
    pub fn files(&self) -> BTreeMap<String, Vec<u8>> {
        self.nodes
            .borrow()
            .iter()
            .filter_map(|(path, node)| match node {
                Node::File { data, .. } => Some((path.clone(), data.clone())),
                _ => None,
            })
            .collect()
    }

    /// Replaces `path`'s content behind the tools' back, keeping its mtime —
    /// the same-size, same-mtime change a write must still catch (SPEC W2).
    pub fn replace_keeping_mtime(&self, path: &str, data: &[u8]) {
        let mut nodes = self.nodes.borrow_mut();
        if let Some(Node::File { data: old, .. }) = nodes.get_mut(path) {
            *old = data.to_vec();
        }
    }

    /// Moves `path`'s mtime forward without changing its content, as
    /// `touch` does.
    pub fn touch(&self, path: &str) {
        let next = self.tick();
        if let Some(Node::File { mtime_ns, .. }) = self.nodes.borrow_mut().get_mut(path) {
            *mtime_ns = next;
        }
    }

    /// A node's metadata: having no other clock, the memory reports the
    /// modification time as created and accessed too, and the default
    /// permission bits.
    fn metadata_of(&self, node: &Node) -> Metadata {
        let (kind, size, mtime_ns) = match node {
            Node::File { data, mtime_ns } => (FileKind::File, data.len() as u64, *mtime_ns),
            Node::Dir => (FileKind::Directory, 0, 0),
            Node::Special(kind) => (*kind, 0, 0),
        };
        Metadata {
            kind,
            size,
            mtime_ns,
            readonly: self.read_only,
            created_ns: mtime_ns,
            accessed_ns: mtime_ns,
            mode: Metadata::default_mode(kind, self.read_only),
        }
    }
}

impl MemFs {
    /// Lets go of every intent record, as the death of the calls holding
    /// them would: the next call may claim them.
    pub fn release_changes(&self) {
        self.current.set(None);
        for (held, _) in self.changes.borrow_mut().iter_mut() {
            *held = false;
        }
    }

    /// How many intent records are kept.
    pub fn change_records(&self) -> usize {
        self.changes.borrow().len()
    }
}

impl HostFs for MemFs {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        let node = self.node(path)?;
        Ok(self.metadata_of(&node))
    }

    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        match self.nodes.borrow().get(path) {
            Some(Node::File { data, .. }) => {
                let start = usize::try_from(offset)
                    .unwrap_or(usize::MAX)
                    .min(data.len());
                let end = start.saturating_add(len as usize).min(data.len());
                self.bytes_read
                    .set(self.bytes_read.get() + (end - start) as u64);
                Ok(data[start..end].to_vec())
            }
            Some(Node::Dir) => Err(FsError::IsADirectory),
            Some(Node::Special(kind)) => {
                Err(FsError::Io(format!("refusing to read {}", kind.describe())))
            }
            None => self.node(path).map(|_| Vec::new()),
        }
    }

    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        match self.node(path)? {
            Node::Dir => {}
            _ => return Err(FsError::NotADirectory),
        }
        let prefix = if path == "." {
            String::new()
        } else {
            format!("{path}/")
        };
        let nodes = self.nodes.borrow();
        let entries = nodes
            .range(prefix.clone()..)
            .take_while(|(name, _)| name.starts_with(&prefix))
            .filter(|(name, _)| !name[prefix.len()..].contains('/'))
            .map(|(name, node)| {
                let meta = self.metadata_of(node);
                DirEntry {
                    name: name[prefix.len()..].to_owned(),
                    kind: meta.kind,
                    size: meta.size,
                    mtime_ns: meta.mtime_ns,
                }
            })
            .collect();
        Ok(entries)
    }

    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.check(path, precondition)?;
        self.add_file(path, data);
        self.stat(path)
    }

    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        self.check(path, precondition)?;
        match self.nodes.borrow_mut().remove(path) {
            Some(_) => Ok(()),
            None => Err(FsError::NotFound),
        }
    }

    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        match self.node(path) {
            Ok(Node::Dir) => Ok(()),
            Ok(_) => Err(FsError::NotADirectory),
            Err(FsError::NotFound) => {
                self.add_dir(path);
                Ok(())
            }
            Err(other) => Err(other),
        }
    }

    fn rename(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        match self.node(destination) {
            Err(FsError::NotFound) => {}
            Ok(_) => return Err(FsError::Conflict),
            Err(other) => return Err(other),
        }
        let moved = self.node(source)?;
        if let Node::Dir = moved {
            if *precondition != Precondition::Any {
                return Err(FsError::Conflict);
            }
            if source == "." || destination.starts_with(&format!("{source}/")) {
                return Err(FsError::Io("cannot move a directory into itself".into()));
            }
        } else {
            self.check(source, precondition)?;
        }
        self.add_parents(destination);
        let mut nodes = self.nodes.borrow_mut();
        let inner = format!("{source}/");
        let under: Vec<String> = nodes
            .range(inner.clone()..)
            .take_while(|(name, _)| name.starts_with(&inner))
            .map(|(name, _)| name.clone())
            .collect();
        for name in under {
            if let Some(node) = nodes.remove(&name) {
                nodes.insert(format!("{destination}/{}", &name[inner.len()..]), node);
            }
        }
        nodes.remove(source);
        nodes.insert(destination.to_owned(), moved.clone());
        drop(nodes);
        Ok(self.metadata_of(&moved))
    }

    fn begin_change(&self, record: &[u8]) -> Result<(), FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        let mut changes = self.changes.borrow_mut();
        // A record the call held is let go, for a later call.
        if let Some(at) = self.current.get() {
            changes[at].0 = false;
        }
        self.current.set(Some(changes.len()));
        changes.push((true, record.to_vec()));
        Ok(())
    }

    fn end_change(&self) -> Result<(), FsError> {
        if let Some(at) = self.current.take() {
            self.changes.borrow_mut().remove(at);
        }
        Ok(())
    }

    fn claim_unfinished(&self) -> Result<Option<Vec<u8>>, FsError> {
        let mut changes = self.changes.borrow_mut();
        let Some(at) = changes.iter().position(|(held, _)| !held) else {
            return Ok(None);
        };
        self.current.set(Some(at));
        changes[at].0 = true;
        Ok(Some(changes[at].1.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::host::FileStamp;

    #[test]
    fn parents_exist_implicitly() {
        let fs = MemFs::new();
        fs.add_file("a/b/c.txt", b"x");
        assert_eq!(fs.stat("a/b").unwrap().kind, FileKind::Directory);
        let names: Vec<_> = fs
            .list_dir("a")
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["b"]);
        assert_eq!(fs.list_dir(".").unwrap()[0].name, "a");
    }

    #[test]
    fn path_under_a_file_is_not_a_directory() {
        let fs = MemFs::new();
        fs.add_file("a.txt", b"x");
        assert_eq!(fs.stat("a.txt/b"), Err(FsError::NotADirectory));
        assert_eq!(fs.stat("missing"), Err(FsError::NotFound));
    }

    #[test]
    fn times_and_modes_are_the_documented_stand_ins() {
        let fs = MemFs::new();
        fs.add_file("d/a.txt", b"a");
        let file = fs.stat("d/a.txt").unwrap();
        assert_eq!(
            (file.created_ns, file.accessed_ns),
            (file.mtime_ns, file.mtime_ns)
        );
        assert_eq!(file.mode, 0o644);
        assert_eq!(fs.stat("d").unwrap().mode, 0o755);
        let locked = MemFs::read_only();
        locked.add_file("a.txt", b"a");
        assert_eq!(locked.stat("a.txt").unwrap().mode, 0o444);
    }

    #[test]
    fn reads_past_the_end_are_empty() {
        let fs = MemFs::new();
        fs.add_file("a", b"abc");
        assert_eq!(fs.read("a", 2, 10).unwrap(), b"c");
        assert!(fs.read("a", 3, 10).unwrap().is_empty());
        assert!(fs.read("a", u64::MAX, 10).unwrap().is_empty());
    }

    #[test]
    fn precondition_is_checked_with_the_write() {
        let fs = MemFs::new();
        fs.add_file("a", b"old");
        let seen = fs.stat("a").unwrap();
        let stale = FileStamp {
            size: seen.size,
            mtime_ns: seen.mtime_ns - 1,
            sha256: None,
            xxh3: None,
        };
        assert_eq!(
            fs.write_file("a", b"new", &Precondition::Matches(stale)),
            Err(FsError::Conflict)
        );
        assert_eq!(fs.contents("a").unwrap(), b"old");
        let by_hash = FileStamp {
            size: 3,
            mtime_ns: 0,
            sha256: Some(crate::fs::sha256::sha256_hex(b"old")),
            xxh3: None,
        };
        fs.write_file("a", b"new", &Precondition::Matches(by_hash))
            .unwrap();
        assert_eq!(fs.contents("a").unwrap(), b"new");
        assert_eq!(
            fs.write_file("a", b"x", &Precondition::Absent),
            Err(FsError::Conflict)
        );
    }

    #[test]
    fn rename_moves_files_and_whole_directories_but_never_replaces() {
        let fs = MemFs::new();
        fs.add_file("a/x.txt", b"x");
        fs.add_file("a/b/y.txt", b"y");
        fs.add_file("taken.txt", b"t");
        assert_eq!(
            fs.rename("a/x.txt", "taken.txt", &Precondition::Any),
            Err(FsError::Conflict)
        );
        fs.rename("a", "c/d", &Precondition::Any).unwrap();
        assert_eq!(fs.contents("c/d/b/y.txt").unwrap(), b"y");
        assert!(fs.contents("a/x.txt").is_none());
        assert!(fs.rename("c", "c/e", &Precondition::Any).is_err());
        assert_eq!(
            fs.rename("missing", "m2", &Precondition::Any),
            Err(FsError::NotFound)
        );
    }

    #[test]
    fn create_dir_makes_parents_and_accepts_an_existing_directory() {
        let fs = MemFs::new();
        fs.add_file("f", b"");
        fs.create_dir("p/q").unwrap();
        fs.create_dir("p/q").unwrap();
        assert_eq!(fs.stat("p/q").unwrap().kind, FileKind::Directory);
        assert_eq!(fs.create_dir("f"), Err(FsError::NotADirectory));
        assert_eq!(fs.create_dir("f/g"), Err(FsError::NotADirectory));
    }

    #[test]
    fn read_only_refuses_writes() {
        let fs = MemFs::read_only();
        assert_eq!(
            fs.write_file("a", b"x", &Precondition::Any),
            Err(FsError::ReadOnly)
        );
    }
}
