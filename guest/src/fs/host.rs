//! The guest's only window on files: the [`HostFs`] trait.
//!
//! Every byte the tools read or write goes through it (SPEC §1). In the
//! component it is backed by the imported WIT interface `host-fs`; natively it
//! is backed by [`crate::fs::memory::MemFs`] in tests or by any host-side
//! adapter. Paths are root-relative, `/`-separated and normalised (the
//! `paths` layer above makes them so), e.g. `src/main.rs`; the root itself is
//! `.`.

use std::fmt;

/// What a path names. [`HostFs::stat`] follows symlinks inside the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link (only from [`HostFs::list_dir`]).
    Symlink,
    /// A named pipe.
    Fifo,
    /// A Unix domain socket.
    Socket,
    /// A block device.
    BlockDevice,
    /// A character device.
    CharDevice,
    /// Anything else.
    Other,
}

impl FileKind {
    /// A short noun phrase for messages: "a FIFO (named pipe)".
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::File => "a regular file",
            FileKind::Directory => "a directory",
            FileKind::Symlink => "a symbolic link",
            FileKind::Fifo => "a FIFO (named pipe)",
            FileKind::Socket => "a socket",
            FileKind::BlockDevice => "a block device",
            FileKind::CharDevice => "a character device",
            FileKind::Other => "a special file",
        }
    }
}

/// Metadata of one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metadata {
    /// The path's kind after following symlinks.
    pub kind: FileKind,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the Unix epoch.
    pub mtime_ns: u64,
    /// Whether the host would refuse a write.
    pub readonly: bool,
    /// Creation time, nanoseconds since the Unix epoch (`mtime_ns` where
    /// the host does not know it).
    pub created_ns: u64,
    /// Last access time, nanoseconds since the Unix epoch (`mtime_ns`
    /// where the host does not know it).
    pub accessed_ns: u64,
    /// Permission bits, the low 12 bits of the Unix mode (see
    /// [`Metadata::default_mode`] for hosts without them).
    pub mode: u32,
}

impl Metadata {
    /// The permission bits a host without Unix modes reports: `0o644` for
    /// a file, `0o755` for a directory, without the write bits when
    /// `readonly`.
    pub fn default_mode(kind: FileKind, readonly: bool) -> u32 {
        let mode = if kind == FileKind::Directory {
            0o755
        } else {
            0o644
        };
        if readonly { mode & !0o222 } else { mode }
    }
}

/// One directory entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// File name without directory part.
    pub name: String,
    /// Kind, symlinks not followed.
    pub kind: FileKind,
    /// Size in bytes.
    pub size: u64,
    /// Modification time of the entry itself, in nanoseconds since the
    /// Unix epoch; 0 when the host does not know it (ask [`HostFs::stat`]).
    pub mtime_ns: u64,
}

/// A file for [`HostFs::scan_start`]: its path and its size as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanFile {
    /// Root-relative path.
    pub path: String,
    /// Size in bytes, as listed.
    pub size: u64,
}

/// What [`HostFs::scan_start`] looks for: a `grep` pattern, and the
/// session's configuration (as JSON) whose limits a scan reads by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanRequest {
    /// The session's configuration, as JSON.
    pub config: String,
    /// The pattern.
    pub pattern: String,
    /// Letters match either case.
    pub case_insensitive: bool,
    /// Matches may span lines.
    pub multiline: bool,
    /// Stop at each file's first matching line.
    pub first_only: bool,
}

/// What scanning one file found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanOutcome {
    /// Not text: not searched.
    Binary,
    /// Too large for a multiline search: not searched.
    TooLarge,
    /// Matching lines (at most one when only the first was asked for).
    Matches(u64),
}

/// The state a writer last saw; see [`Precondition::Matches`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStamp {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the Unix epoch.
    pub mtime_ns: u64,
    /// Lower-case hex SHA-256 of the content; when present it decides instead
    /// of the mtime.
    pub sha256: Option<String>,
    /// Lower-case hex XXH3-128 of the content; when present it decides
    /// instead of the SHA-256, for a tenth of the work.
    pub xxh3: Option<String>,
}

/// A content digest a precondition may be checked by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DigestKind {
    /// SHA-256, 64 hex digits.
    Sha256,
    /// XXH3-128, 32 hex digits.
    Xxh3,
}

impl DigestKind {
    /// This digest of `bytes`, in lower-case hex.
    pub fn of(self, bytes: &[u8]) -> String {
        match self {
            DigestKind::Sha256 => crate::fs::sha256::sha256_hex(bytes),
            DigestKind::Xxh3 => crate::fs::digests::xxh3_hex(bytes),
        }
    }
}

impl FileStamp {
    /// The digest that decides, when the stamp has one: the XXH3-128 before
    /// the SHA-256.
    pub fn deciding(&self) -> Option<(DigestKind, &str)> {
        match (&self.xxh3, &self.sha256) {
            (Some(xxh3), _) => Some((DigestKind::Xxh3, xxh3)),
            (None, Some(sha256)) => Some((DigestKind::Sha256, sha256)),
            (None, None) => None,
        }
    }
}

/// What [`HostFs::write_file`] requires of the current file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    /// Write unconditionally.
    Any,
    /// The file must not exist.
    Absent,
    /// The file must match the stamp.
    Matches(FileStamp),
}

impl Precondition {
    /// Whether the precondition holds for the current file: `current` is its
    /// `(size, mtime_ns)`, or `None` when it does not exist. `digest`
    /// computes the content's digest of the kind asked, and is called only
    /// when a stamp carries one; when it does, the digest decides instead of
    /// the mtime (SPEC W2).
    pub fn holds(
        &self,
        current: Option<(u64, u64)>,
        digest: impl FnOnce(DigestKind) -> Result<String, FsError>,
    ) -> Result<bool, FsError> {
        Ok(match (self, current) {
            (Precondition::Any, _) | (Precondition::Absent, None) => true,
            (Precondition::Matches(stamp), Some((size, mtime_ns))) => {
                stamp.size == size
                    && match stamp.deciding() {
                        Some((kind, expected)) => expected == digest(kind)?,
                        None => stamp.mtime_ns == mtime_ns,
                    }
            }
            _ => false,
        })
    }
}

/// Why a file-system call failed; mirrors WIT `fs-error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FsError {
    /// The path or a parent does not exist.
    NotFound,
    /// The operating system refused access.
    PermissionDenied,
    /// A file operation on a directory.
    IsADirectory,
    /// A parent component is not a directory.
    NotADirectory,
    /// The path leads outside the sandbox.
    OutsideSandbox,
    /// The host is read-only.
    ReadOnly,
    /// A write precondition failed.
    Conflict,
    /// Any other failure, with the host's message.
    Io(String),
}

impl fmt::Display for FsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FsError::NotFound => f.write_str("not found"),
            FsError::PermissionDenied => f.write_str("permission denied"),
            FsError::IsADirectory => f.write_str("is a directory"),
            FsError::NotADirectory => f.write_str("a parent is not a directory"),
            FsError::OutsideSandbox => f.write_str("outside the workspace root"),
            FsError::ReadOnly => f.write_str("the workspace is read-only"),
            FsError::Conflict => f.write_str("the file changed since it was read"),
            FsError::Io(message) => write!(f, "I/O error: {message}"),
        }
    }
}

/// Why a batch of writes did not land (see [`HostFs::batch_end`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchFailure {
    /// The write that failed, counted from 0 in the order written.
    pub index: usize,
    /// Its error.
    pub error: FsError,
    /// The writes already in place that could not be put back.
    pub stuck: Vec<usize>,
}

/// The file system as the host exposes it. Implementations must never block
/// on FIFOs or devices and must keep every path inside their root.
pub trait HostFs {
    /// Metadata of `path`, following symlinks inside the sandbox.
    fn stat(&self, path: &str) -> Result<Metadata, FsError>;

    /// Up to `len` bytes from byte `offset` of the regular file `path`; fewer
    /// only at the end of the file, none at or past it.
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError>;

    /// Entries of the directory `path`, sorted by name.
    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError>;

    /// Entries of the directory `path` as [`HostFs::list_dir`] gives them,
    /// but for a walk that needs only names and kinds: a file's size and
    /// time may be 0 (see `list-names` in `wit/host-fs.wit`). The default
    /// is the full listing.
    fn list_names(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.list_dir(path)
    }

    /// Atomically replaces or creates `path`, checking `precondition` in the
    /// same step. Returns the new metadata.
    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError>;

    /// Removes the regular file `path` when it matches `precondition`
    /// (checked immediately before removing). Used by `undo` of a creation.
    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError>;

    /// Creates the directory `path` and its missing parents; an existing
    /// directory is fine.
    fn create_dir(&self, path: &str) -> Result<(), FsError>;

    /// Moves `source` to `destination` (which must not exist), checking
    /// `precondition` on the node moved; a directory moves only with
    /// [`Precondition::Any`]. Returns the metadata of what was moved.
    fn rename(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
    ) -> Result<Metadata, FsError>;

    /// Keeps `record` durably as the intent of the change of several files
    /// this call is about to make, until [`HostFs::end_change`]; see
    /// `begin-change` in `wit/host-fs.wit`. The default keeps nothing: a
    /// file system that dies with its process needs no record.
    fn begin_change(&self, record: &[u8]) -> Result<(), FsError> {
        let _ = record;
        Ok(())
    }

    /// Drops the record [`HostFs::begin_change`] kept (or the one claimed).
    fn end_change(&self) -> Result<(), FsError> {
        Ok(())
    }

    /// A record of a change no live call holds, now held by this call.
    fn claim_unfinished(&self) -> Result<Option<Vec<u8>>, FsError> {
        Ok(None)
    }

    /// Starts a batch of writes that land together, flushed at once, when
    /// the host has one (see `batch-begin` in `wit/host-fs.wit`): until
    /// [`HostFs::batch_end`], a write puts nothing in place. The default
    /// has none: `false`, and each write lands when it is made.
    fn batch_begin(&self) -> bool {
        false
    }

    /// Ends the batch: with `commit`, every write lands or none does;
    /// without, none does. Without a batch, nothing happens.
    fn batch_end(&self, commit: bool) -> Result<(), BatchFailure> {
        let _ = commit;
        Ok(())
    }

    /// Starts scanning each of `files` as `grep` scans a file, by a host
    /// that can do it faster than one at a time and while the guest goes
    /// on (see `scan-start` in `wit/host-fs.wit`): the ticket
    /// [`HostFs::scan_results`] takes. The default has no such path:
    /// `None`, and the guest scans each file itself.
    fn scan_start(&self, files: &[ScanFile], request: &ScanRequest) -> Option<u64> {
        let _ = (files, request);
        None
    }

    /// What the scan of `ticket` found, in the order of its files; empty
    /// for a ticket not known.
    fn scan_results(&self, ticket: u64) -> Vec<Result<ScanOutcome, FsError>> {
        let _ = ticket;
        Vec::new()
    }

    /// Starts walking each of `dirs` (subdirectories of one directory) as
    /// the walk that sends `request` would, by a host that can do it
    /// elsewhere (see `walk-start` in `wit/host-fs.wit`): the ticket
    /// [`HostFs::walk_results`] takes. The default has no such path:
    /// `None`, and the guest walks them itself.
    fn walk_start(&self, dirs: &[String], request: &str) -> Option<u64> {
        let _ = (dirs, request);
        None
    }

    /// What the walk of `ticket` found, one record per directory in the
    /// order of its `dirs`; empty for a ticket not known or a walk that
    /// failed.
    fn walk_results(&self, ticket: u64) -> Vec<String> {
        let _ = ticket;
        Vec::new()
    }
}

/// `HostFs` for a wrapper of a file system, each call handed to the file
/// system `$inner` gives (with `$this` the wrapper).
macro_rules! forward_host_fs {
    ($wrapper:ty, $this:ident => $inner:expr) => {
        impl<T: HostFs + ?Sized> HostFs for $wrapper {
            fn stat(&self, path: &str) -> Result<Metadata, FsError> {
                let $this = self;
                $inner.stat(path)
            }
            fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
                let $this = self;
                $inner.read(path, offset, len)
            }
            fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
                let $this = self;
                $inner.list_dir(path)
            }
            fn list_names(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
                let $this = self;
                $inner.list_names(path)
            }
            fn write_file(
                &self,
                path: &str,
                data: &[u8],
                precondition: &Precondition,
            ) -> Result<Metadata, FsError> {
                let $this = self;
                $inner.write_file(path, data, precondition)
            }
            fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
                let $this = self;
                $inner.remove_file(path, precondition)
            }
            fn create_dir(&self, path: &str) -> Result<(), FsError> {
                let $this = self;
                $inner.create_dir(path)
            }
            fn rename(
                &self,
                source: &str,
                destination: &str,
                precondition: &Precondition,
            ) -> Result<Metadata, FsError> {
                let $this = self;
                $inner.rename(source, destination, precondition)
            }
            fn begin_change(&self, record: &[u8]) -> Result<(), FsError> {
                let $this = self;
                $inner.begin_change(record)
            }
            fn end_change(&self) -> Result<(), FsError> {
                let $this = self;
                $inner.end_change()
            }
            fn claim_unfinished(&self) -> Result<Option<Vec<u8>>, FsError> {
                let $this = self;
                $inner.claim_unfinished()
            }
            fn batch_begin(&self) -> bool {
                let $this = self;
                let begun = || -> Result<_, FsError> { Ok($inner.batch_begin()) };
                begun().unwrap_or(false)
            }
            fn batch_end(&self, commit: bool) -> Result<(), BatchFailure> {
                let $this = self;
                let ended = || -> Result<_, FsError> { Ok($inner.batch_end(commit)) };
                ended().unwrap_or_else(|error| {
                    Err(BatchFailure {
                        index: 0,
                        error,
                        stuck: Vec::new(),
                    })
                })
            }
            fn scan_start(&self, files: &[ScanFile], request: &ScanRequest) -> Option<u64> {
                let $this = self;
                let started = || -> Result<_, FsError> { Ok($inner.scan_start(files, request)) };
                started().ok().flatten()
            }
            fn scan_results(&self, ticket: u64) -> Vec<Result<ScanOutcome, FsError>> {
                let $this = self;
                let results = || -> Result<_, FsError> { Ok($inner.scan_results(ticket)) };
                results().unwrap_or_default()
            }
            fn walk_start(&self, dirs: &[String], request: &str) -> Option<u64> {
                let $this = self;
                let started = || -> Result<_, FsError> { Ok($inner.walk_start(dirs, request)) };
                started().ok().flatten()
            }
            fn walk_results(&self, ticket: u64) -> Vec<String> {
                let $this = self;
                let results = || -> Result<_, FsError> { Ok($inner.walk_results(ticket)) };
                results().unwrap_or_default()
            }
        }
    };
}

forward_host_fs!(&T, this => (**this));
// A file system shared by reference count.
forward_host_fs!(std::sync::Arc<T>, this => (**this));
// A file system shared between threads: each call takes the lock.
forward_host_fs!(std::sync::Mutex<T>, this => locked(this)?);

/// The file system behind `mutex`; a poisoned lock (a panic in another
/// call) is an I/O error, not a second panic.
fn locked<T: ?Sized>(mutex: &std::sync::Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>, FsError> {
    mutex
        .lock()
        .map_err(|_| FsError::Io("the file system's lock is poisoned".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(sha256: Option<&str>) -> Precondition {
        Precondition::Matches(FileStamp {
            size: 3,
            mtime_ns: 7,
            sha256: sha256.map(str::to_owned),
            xxh3: None,
        })
    }

    #[test]
    fn the_hash_is_computed_only_when_a_stamp_carries_one() {
        let never = |_| -> Result<String, FsError> { panic!("hash computed") };
        assert_eq!(stamp(None).holds(Some((3, 7)), never), Ok(true));
        assert_eq!(stamp(None).holds(Some((3, 8)), never), Ok(false));
        assert_eq!(stamp(Some("ab")).holds(Some((4, 7)), never), Ok(false));
        assert_eq!(Precondition::Any.holds(None, never), Ok(true));
        assert_eq!(Precondition::Absent.holds(Some((0, 0)), never), Ok(false));
    }

    #[test]
    fn with_a_hash_the_content_decides_not_the_mtime() {
        let hash = |_| Ok("ab".to_owned());
        assert_eq!(stamp(Some("ab")).holds(Some((3, 999)), hash), Ok(true));
        assert_eq!(stamp(Some("cd")).holds(Some((3, 7)), hash), Ok(false));
        assert_eq!(stamp(Some("ab")).holds(None, hash), Ok(false));
    }

    #[test]
    fn an_xxh3_decides_before_a_sha256() {
        let Precondition::Matches(mut both) = stamp(Some("sha")) else {
            unreachable!()
        };
        both.xxh3 = Some("x".to_owned());
        let by = |kind| {
            Ok(match kind {
                DigestKind::Xxh3 => "x",
                DigestKind::Sha256 => "other",
            }
            .to_owned())
        };
        assert_eq!(
            Precondition::Matches(both.clone()).holds(Some((3, 7)), by),
            Ok(true)
        );
        both.xxh3 = Some("y".to_owned());
        assert_eq!(
            Precondition::Matches(both).holds(Some((3, 7)), by),
            Ok(false)
        );
    }
}
