//! What a session's `host-fs` is served from: the cap-std [`Sandbox`] over
//! a root directory (the default), or any [`HostFs`] that is `Send + Sync`
//! a program plugs in with [`crate::Builder::fs`] — an in-memory file
//! system (`Mutex<MemFs>`), an [`crate::Overlay`] that keeps writes in
//! memory over a directory, a remote store. The guest cannot tell them
//! apart: every rule lives in the guest, and a plugged-in file system
//! answers the same `host-fs` calls.

use std::path::Path;
use std::sync::Arc;

use filetools_core::{DirEntry, FsError, HostFs, Metadata, Precondition};

use crate::limits::Deadline;
use crate::sandbox::{Bounded, KeptOpen, Sandbox};

/// A file system a session can be served from.
#[derive(Clone)]
pub(crate) enum Backend {
    /// A root directory.
    Sandbox(Arc<Sandbox>),
    /// A file system the program gave; `read_only` refuses every change
    /// before it reaches it.
    Custom {
        /// The file system.
        fs: Arc<dyn HostFs + Send + Sync>,
        /// Refuse changes.
        read_only: bool,
    },
}

impl std::fmt::Debug for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Backend::Sandbox(sandbox) => f.debug_tuple("Sandbox").field(&sandbox.root()).finish(),
            Backend::Custom { read_only, .. } => f
                .debug_struct("Custom")
                .field("read_only", read_only)
                .finish_non_exhaustive(),
        }
    }
}

/// The file system as one call may use it.
pub(crate) enum ForCall<'a> {
    /// The sandbox, its host work bounded by the call's deadline.
    Sandbox(Bounded<'a>),
    /// A plugged-in file system (it bounds its own work), and whether
    /// changes are refused.
    Custom(&'a (dyn HostFs + Send + Sync), bool),
}

impl Backend {
    /// The file system for a call that must end by `deadline`, keeping the
    /// file it reads open in `kept`.
    pub fn for_call<'a>(&'a self, deadline: Deadline, kept: &'a KeptOpen) -> ForCall<'a> {
        match self {
            Backend::Sandbox(sandbox) => ForCall::Sandbox(sandbox.for_call(deadline, kept)),
            Backend::Custom { fs, read_only } => ForCall::Custom(fs.as_ref(), *read_only),
        }
    }

    /// Whether every change is refused.
    pub fn read_only(&self) -> bool {
        match self {
            Backend::Sandbox(sandbox) => sandbox.is_read_only(),
            Backend::Custom { read_only, .. } => *read_only,
        }
    }

    /// The root directory, when a directory is served.
    pub fn root(&self) -> Option<&Path> {
        match self {
            Backend::Sandbox(sandbox) => Some(sandbox.root()),
            Backend::Custom { .. } => None,
        }
    }
}

impl ForCall<'_> {
    fn fs(&self) -> &dyn HostFs {
        match self {
            ForCall::Sandbox(bounded) => bounded,
            ForCall::Custom(fs, _) => *fs,
        }
    }

    /// The file system for a change: refused when changes are.
    fn changing(&self) -> Result<&dyn HostFs, FsError> {
        match self {
            ForCall::Custom(_, true) => Err(FsError::ReadOnly),
            _ => Ok(self.fs()),
        }
    }
}

impl HostFs for ForCall<'_> {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        self.fs().stat(path)
    }

    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.fs().read(path, offset, len)
    }

    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.fs().list_dir(path)
    }

    fn list_names(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.fs().list_names(path)
    }

    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.changing()?.write_file(path, data, precondition)
    }

    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        self.changing()?.remove_file(path, precondition)
    }

    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        self.changing()?.create_dir(path)
    }

    fn rename(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.changing()?.rename(source, destination, precondition)
    }
}
