//! [`Overlay`]: a dry-run workspace. Reads see a base file system (a
//! directory, say) with this overlay's changes on top; every change — a
//! write, a removal, a new directory, a move — stays in memory, checked
//! against what the overlay shows, and the base is never written. A
//! program lets an agent work, then looks at [`Overlay::changes`] and
//! decides what to keep.
//!
//! ```no_run
//! use filetools::{Overlay, Sandbox, Tools};
//! let overlay = Overlay::new(Sandbox::open("project".as_ref(), true)?);
//! let tools = Tools::builder().fs(overlay.clone()).build()?;
//! let mut session = tools.session()?;
//! session.call("write", r#"{"file_path": "notes.md", "content": "draft\n"}"#);
//! assert_eq!(overlay.changes()["notes.md"].as_deref(), Some(&b"draft\n"[..]));
//! # Ok::<(), anyhow::Error>(())
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, MutexGuard};

use filetools_core::{DirEntry, FileKind, FsError, HostFs, MemFs, Metadata, Precondition};

/// Bytes read from the base per call when a whole file is needed.
const PIECE_BYTES: u32 = 1 << 20;

/// A base file system with changes kept in memory on top. Clones share the
/// same changes.
#[derive(Clone)]
pub struct Overlay {
    inner: Arc<Inner>,
}

struct Inner {
    base: Box<dyn HostFs + Send + Sync>,
    upper: Mutex<Upper>,
}

/// The changes: files and directories made, and paths removed.
#[derive(Default)]
struct Upper {
    files: MemFs,
    /// Paths removed (or moved away) that the base still has.
    gone: BTreeSet<String>,
}

impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overlay").finish_non_exhaustive()
    }
}

impl Overlay {
    /// `base` with no changes yet. Open a [`crate::Sandbox`] read-only to
    /// make sure nothing reaches the directory.
    pub fn new(base: impl HostFs + Send + Sync + 'static) -> Self {
        Self {
            inner: Arc::new(Inner {
                base: Box::new(base),
                upper: Mutex::new(Upper::default()),
            }),
        }
    }

    /// Every path changed: its new content, or `None` when it was removed.
    pub fn changes(&self) -> BTreeMap<String, Option<Vec<u8>>> {
        let Ok(upper) = self.inner.upper.lock() else {
            return BTreeMap::new();
        };
        let mut changes: BTreeMap<String, Option<Vec<u8>>> = upper
            .files
            .files()
            .into_iter()
            .map(|(path, data)| (path, Some(data)))
            .collect();
        for path in &upper.gone {
            changes.entry(path.clone()).or_insert(None);
        }
        changes
    }

    fn upper(&self) -> Result<MutexGuard<'_, Upper>, FsError> {
        self.inner
            .upper
            .lock()
            .map_err(|_| FsError::Io("the overlay's lock is poisoned".to_owned()))
    }

    /// What the overlay shows at `path`, and from which layer.
    fn look(&self, upper: &Upper, path: &str) -> Result<(Metadata, bool), FsError> {
        if upper.gone.contains(path) {
            return Err(FsError::NotFound);
        }
        match upper.files.stat(path) {
            Ok(meta) => Ok((meta, true)),
            Err(FsError::NotFound) => self.inner.base.stat(path).map(|meta| (meta, false)),
            Err(err) => Err(err),
        }
    }

    /// The whole content of the file at `path` as the overlay shows it.
    fn content(&self, upper: &Upper, path: &str) -> Result<Vec<u8>, FsError> {
        let (_, changed) = self.look(upper, path)?;
        let fs: &dyn HostFs = if changed {
            &upper.files
        } else {
            self.inner.base.as_ref()
        };
        let mut data = Vec::new();
        loop {
            let piece = fs.read(path, data.len() as u64, PIECE_BYTES)?;
            let done = piece.len() < PIECE_BYTES as usize;
            data.extend_from_slice(&piece);
            if done {
                return Ok(data);
            }
        }
    }

    /// Refuses a change of `path` unless `precondition` holds for what the
    /// overlay shows there.
    fn check(&self, upper: &Upper, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        let current = match self.look(upper, path) {
            Ok((meta, _)) if meta.kind == FileKind::Directory => return Err(FsError::IsADirectory),
            Ok((meta, _)) => Some((meta.size, meta.mtime_ns)),
            Err(FsError::NotFound) => None,
            Err(err) => return Err(err),
        };
        let holds = precondition.holds(current, |kind| {
            self.content(upper, path).map(|data| kind.of(&data))
        })?;
        if holds {
            Ok(())
        } else {
            Err(FsError::Conflict)
        }
    }
}

impl HostFs for Overlay {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        let upper = self.upper()?;
        self.look(&upper, path).map(|(meta, _)| meta)
    }

    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        let upper = self.upper()?;
        match self.look(&upper, path)? {
            (_, true) => upper.files.read(path, offset, len),
            (_, false) => self.inner.base.read(path, offset, len),
        }
    }

    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        let upper = self.upper()?;
        let (meta, _) = self.look(&upper, path)?;
        if meta.kind != FileKind::Directory {
            return Err(FsError::NotADirectory);
        }
        let child = |name: &str| {
            if path == "." {
                name.to_owned()
            } else {
                format!("{path}/{name}")
            }
        };
        let mut entries: BTreeMap<String, DirEntry> = BTreeMap::new();
        if let Ok(base) = self.inner.base.list_dir(path) {
            for entry in base {
                if !upper.gone.contains(&child(&entry.name)) {
                    entries.insert(entry.name.clone(), entry);
                }
            }
        }
        if let Ok(changed) = upper.files.list_dir(path) {
            for entry in changed {
                entries.insert(entry.name.clone(), entry);
            }
        }
        Ok(entries.into_values().collect())
    }

    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        let mut upper = self.upper()?;
        self.check(&upper, path, precondition)?;
        upper.gone.remove(path);
        upper.files.add_file(path, data);
        upper.files.stat(path)
    }

    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        let mut upper = self.upper()?;
        if self.look(&upper, path).is_err() {
            return Err(FsError::NotFound);
        }
        self.check(&upper, path, precondition)?;
        let _ = upper.files.remove_file(path, &Precondition::Any);
        upper.gone.insert(path.to_owned());
        Ok(())
    }

    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        let mut upper = self.upper()?;
        match self.look(&upper, path) {
            Ok((meta, _)) if meta.kind == FileKind::Directory => Ok(()),
            Ok(_) => Err(FsError::NotADirectory),
            Err(FsError::NotFound) => {
                upper.gone.remove(path);
                upper.files.add_dir(path);
                Ok(())
            }
            Err(err) => Err(err),
        }
    }

    fn rename(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        let mut upper = self.upper()?;
        let (meta, _) = self.look(&upper, source)?;
        if meta.kind != FileKind::File {
            return Err(FsError::Io("an overlay moves files only".to_owned()));
        }
        if self.look(&upper, destination).is_ok() {
            return Err(FsError::Conflict);
        }
        self.check(&upper, source, precondition)?;
        let data = self.content(&upper, source)?;
        let _ = upper.files.remove_file(source, &Precondition::Any);
        upper.gone.insert(source.to_owned());
        upper.gone.remove(destination);
        upper.files.add_file(destination, &data);
        upper.files.stat(destination)
    }
}
