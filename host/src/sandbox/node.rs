//! One directory entry, looked at without trusting its name: what is there
//! is learnt from the opened handle, never from a path looked up twice, and
//! nothing is opened that could block or never end.
//!
//! - [`look`] opens a name no-follow and non-blocking, and keeps it only when
//!   the handle is a regular file; FIFOs, devices, sockets, directories and
//!   symlinks are reported by kind, never read.
//! - [`check`] decides a write's precondition on that handle, reading at most
//!   the expected size plus one byte to hash it, so a file that lies about
//!   its size or grows without end costs no more than the size it claimed.
//! - [`Identity`] says whether the entry is still the same, unchanged node.

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::{FileExt as _, MetadataExt};

use cap_std::fs::{Dir, MetadataExt as _};
use filetools_core::{DigestKind, FileKind, FsError, Precondition};
use rustix::fs::{Mode, OFlags};
use sha2::{Digest as _, Sha256};
use xxhash_rust::xxh3::Xxh3;

use super::fs_error;
use crate::limits::Deadline;

/// Bytes hashed per step of a verification; the deadline is checked between.
const HASH_PIECE_BYTES: usize = 64 * 1024;

/// Flags for opening a file to read: a FIFO must not wait for a writer, and
/// a terminal must not become the host's controlling terminal.
pub(super) fn read_flags() -> i32 {
    i32::try_from((OFlags::NONBLOCK | OFlags::NOCTTY).bits()).unwrap_or(0)
}

/// What a directory entry is.
#[derive(Debug)]
pub(super) enum Node {
    /// Nothing.
    Missing,
    /// A regular file, opened for reading, and its metadata when opened.
    Regular(File, Box<std::fs::Metadata>),
    /// Anything else, never opened (or opened and found not to be a file).
    Other(FileKind),
}

impl Node {
    /// The regular file's identity now, if it is one.
    pub fn identity(&self) -> Result<Option<Identity>, FsError> {
        match self {
            Node::Regular(file, _) => Ok(Some(Identity::of(&file.metadata().map_err(fs_error)?))),
            _ => Ok(None),
        }
    }

    /// The regular file's identity when it was opened, if it is one.
    pub fn opened_identity(&self) -> Option<Identity> {
        match self {
            Node::Regular(_, meta) => Some(Identity::of(&**meta)),
            _ => None,
        }
    }
}

/// What `name` in `dir` is, without following a symlink or blocking.
pub(super) fn look(dir: &Dir, name: &OsStr) -> Result<Node, FsError> {
    match dir.symlink_metadata(name) {
        Ok(meta) if !meta.is_file() => return Ok(Node::Other(kind_of_mode(meta.mode()))),
        Ok(_) => {}
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Node::Missing),
        Err(err) => return Err(fs_error(err)),
    }
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY;
    let file = match rustix::fs::openat(dir, name, flags | OFlags::CLOEXEC, Mode::empty()) {
        Ok(fd) => File::from(fd),
        Err(rustix::io::Errno::NOENT) => return Ok(Node::Missing),
        Err(rustix::io::Errno::LOOP) => return Ok(Node::Other(FileKind::Symlink)),
        Err(err) => return Err(fs_error(err.into())),
    };
    let meta = file.metadata().map_err(fs_error)?;
    if meta.is_file() {
        Ok(Node::Regular(file, Box::new(meta)))
    } else {
        Ok(Node::Other(kind_of_mode(meta.mode())))
    }
}

/// Whether `node` satisfies `precondition`: `Ok(())`, or the refusal —
/// `conflict` when it changed, `is-a-directory` or an I/O refusal when
/// [`Precondition::Any`] meets something that is not a regular file.
pub(super) fn check(
    node: &Node,
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<(), FsError> {
    let holds = match node {
        Node::Missing => precondition.holds(None, |_| Err(FsError::NotFound))?,
        Node::Regular(file, meta) => {
            let stamp = (meta.len(), mtime_ns(&**meta));
            precondition.holds(Some(stamp), |kind| {
                digest_upto(file, meta.len(), kind, deadline)
            })?
        }
        Node::Other(kind) => match precondition {
            Precondition::Any if *kind == FileKind::Directory => {
                return Err(FsError::IsADirectory);
            }
            Precondition::Any => {
                return Err(FsError::Io(format!(
                    "refusing to change {}",
                    kind.describe()
                )));
            }
            Precondition::Absent | Precondition::Matches(_) => false,
        },
    };
    if holds {
        Ok(())
    } else {
        Err(FsError::Conflict)
    }
}

/// The `kind` digest of `file`'s content, reading at most `size` + 1 bytes:
/// a file longer than it claimed hashes differently from any `size`-byte
/// content, and one that never ends is not read to its end.
fn digest_upto(
    file: &File,
    size: u64,
    kind: DigestKind,
    deadline: Deadline,
) -> Result<String, FsError> {
    let limit = size.saturating_add(1);
    let mut sha256 = Sha256::new();
    let mut xxh3 = Xxh3::new();
    let mut buf = vec![0; HASH_PIECE_BYTES];
    let mut offset = 0u64;
    while offset < limit {
        deadline.check()?;
        let want = usize::try_from(limit - offset).map_or(buf.len(), |left| left.min(buf.len()));
        let n = match file.read_at(&mut buf[..want], offset) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(fs_error(err)),
        };
        match kind {
            DigestKind::Sha256 => sha256.update(&buf[..n]),
            DigestKind::Xxh3 => xxh3.update(&buf[..n]),
        }
        offset += n as u64;
    }
    Ok(match kind {
        DigestKind::Sha256 => filetools_core::hex(&sha256.finalize()),
        DigestKind::Xxh3 => filetools_core::hex(&xxh3.digest128().to_be_bytes()),
    })
}

/// A node and its state: equal identities mean the same inode, with the
/// same size, modification and change times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Identity {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Identity {
    /// The identity `meta` describes.
    pub fn of(meta: &impl MetadataExt) -> Self {
        Self {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// The identity of what `name` in `dir` is now, symlinks not followed.
    pub fn at(dir: &Dir, name: &OsStr) -> Option<Self> {
        let meta = dir.symlink_metadata(name).ok()?;
        Some(Self {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        })
    }

    /// Whether `other` is the same inode, changed or not.
    pub fn same_node(&self, other: &Self) -> bool {
        self.dev == other.dev && self.ino == other.ino
    }

    /// Whether `other` is the same inode with the same size and modification
    /// time: unwritten since, though it may have been renamed (a rename
    /// moves the change time).
    pub fn unwritten(&self, other: &Self) -> bool {
        self.same_node(other) && self.size == other.size && self.mtime == other.mtime
    }
}

/// Checks `name` in `dir` against `precondition` ([`look`], then
/// [`check`]), and that it was not written while it was being checked; the
/// identity it had, `None` when it is missing.
pub(super) fn verify(
    dir: &Dir,
    name: &OsStr,
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<Option<Identity>, FsError> {
    let node = look(dir, name)?;
    // As opened: a write between the opening and the check's end shows in
    // the identity taken after it.
    let before = node.opened_identity();
    check(&node, precondition, deadline)?;
    let after = node.identity()?;
    if before == after {
        Ok(after)
    } else {
        Err(FsError::Conflict)
    }
}

/// A first look at a change's target, before anything is written: its kind,
/// and its size where the precondition names one. The content is compared
/// later, on the version actually displaced.
pub(super) fn check_quickly(node: &Node, precondition: &Precondition) -> Result<(), FsError> {
    match (node, precondition) {
        (Node::Regular(_, meta), Precondition::Matches(stamp)) => {
            if meta.len() == stamp.size {
                Ok(())
            } else {
                Err(FsError::Conflict)
            }
        }
        (Node::Missing, Precondition::Matches(_)) | (Node::Regular(..), Precondition::Absent) => {
            Err(FsError::Conflict)
        }
        (Node::Other(_), _) => check(node, precondition, Deadline::NEVER),
        (Node::Missing, _) | (Node::Regular(..), Precondition::Any) => Ok(()),
    }
}

/// Modification time in nanoseconds since the Unix epoch (0 before it).
pub(super) fn mtime_ns(meta: &impl MetadataExt) -> u64 {
    let secs = u64::try_from(meta.mtime()).unwrap_or(0);
    let nanos = u64::try_from(meta.mtime_nsec()).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// Access time in nanoseconds since the Unix epoch.
pub(super) fn atime_ns(meta: &impl MetadataExt) -> u64 {
    let secs = u64::try_from(meta.atime()).unwrap_or(0);
    let nanos = u64::try_from(meta.atime_nsec()).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// `time` in nanoseconds since the Unix epoch (0 before it).
pub(super) fn since_epoch(time: std::time::SystemTime) -> u64 {
    time.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

/// The kind a `st_mode` names.
pub(super) fn kind_of_mode(mode: u32) -> FileKind {
    match rustix::fs::FileType::from_raw_mode(mode) {
        rustix::fs::FileType::RegularFile => FileKind::File,
        rustix::fs::FileType::Directory => FileKind::Directory,
        rustix::fs::FileType::Symlink => FileKind::Symlink,
        rustix::fs::FileType::Fifo => FileKind::Fifo,
        rustix::fs::FileType::Socket => FileKind::Socket,
        rustix::fs::FileType::BlockDevice => FileKind::BlockDevice,
        rustix::fs::FileType::CharacterDevice => FileKind::CharDevice,
        rustix::fs::FileType::Unknown => FileKind::Other,
    }
}

/// `statfs` magic numbers of the kernel's `/proc` and `/sys`.
#[cfg(any(target_os = "linux", target_os = "android"))]
const KERNEL_FS_MAGIC: [i128; 2] = [0x9fa0, 0x6265_6572];

/// Whether the opened `handle` lies on the kernel's `/proc` or `/sys`.
pub(super) fn on_kernel_fs(handle: &impl AsFd) -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        rustix::fs::fstatfs(handle).is_ok_and(|fs| KERNEL_FS_MAGIC.contains(&i128::from(fs.f_type)))
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = handle;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cap_std::ambient_authority;
    use filetools_core::FileStamp;

    fn scratch(label: &str) -> (std::path::PathBuf, Dir) {
        let path =
            std::env::temp_dir().join(format!("filetools-node-{label}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        let dir = Dir::open_ambient_dir(&path, ambient_authority()).unwrap();
        (path, dir)
    }

    fn stamp(size: u64, sha256: &str) -> Precondition {
        Precondition::Matches(FileStamp {
            size,
            mtime_ns: 0,
            sha256: Some(sha256.to_owned()),
            xxh3: None,
        })
    }

    #[test]
    fn a_file_longer_than_claimed_is_read_only_one_byte_past_the_claim() {
        let (path, dir) = scratch("longer");
        std::fs::write(path.join("f"), vec![b'x'; 1 << 20]).unwrap();
        let Node::Regular(file, _) = look(&dir, OsStr::new("f")).unwrap() else {
            panic!("not regular");
        };
        let hash = digest_upto(&file, 3, DigestKind::Sha256, Deadline::NEVER).unwrap();
        assert_eq!(hash, filetools_core::sha256_hex(b"xxxx"));
        let xxh3 = digest_upto(&file, 3, DigestKind::Xxh3, Deadline::NEVER).unwrap();
        assert_eq!(xxh3, filetools_core::xxh3_hex(b"xxxx"));
        // Streamed in pieces, the whole file hashes as in one go.
        let whole = digest_upto(&file, 1 << 20, DigestKind::Xxh3, Deadline::NEVER).unwrap();
        assert_eq!(whole, filetools_core::xxh3_hex(&vec![b'x'; 1 << 20]));
        std::fs::remove_dir_all(path).unwrap();
    }

    #[test]
    fn special_files_are_reported_by_kind_without_being_read() {
        let (path, dir) = scratch("kinds");
        std::os::unix::fs::symlink("/dev/zero", path.join("zero")).unwrap();
        std::fs::create_dir(path.join("d")).unwrap();
        let kind = |name: &str| match look(&dir, OsStr::new(name)).unwrap() {
            Node::Other(kind) => Some(kind),
            Node::Missing => None,
            Node::Regular(..) => Some(FileKind::File),
        };
        assert_eq!(kind("zero"), Some(FileKind::Symlink));
        assert_eq!(kind("d"), Some(FileKind::Directory));
        assert_eq!(kind("none"), None);
        let any = check(
            &Node::Other(FileKind::Fifo),
            &Precondition::Any,
            Deadline::NEVER,
        );
        assert!(matches!(any, Err(FsError::Io(m)) if m.contains("FIFO")));
        let absent = check(&Node::Missing, &Precondition::Absent, Deadline::NEVER);
        assert_eq!(absent, Ok(()));
        let gone = check(&Node::Missing, &stamp(1, "x"), Deadline::NEVER);
        assert_eq!(gone, Err(FsError::Conflict));
        std::fs::remove_dir_all(path).unwrap();
    }

    #[test]
    fn the_content_decides_a_stamp_with_a_hash() {
        let (path, dir) = scratch("hash");
        std::fs::write(path.join("f"), b"abc").unwrap();
        let node = look(&dir, OsStr::new("f")).unwrap();
        let right = filetools_core::sha256_hex(b"abc");
        assert_eq!(check(&node, &stamp(3, &right), Deadline::NEVER), Ok(()));
        assert_eq!(
            check(&node, &stamp(3, &"0".repeat(64)), Deadline::NEVER),
            Err(FsError::Conflict)
        );
        std::fs::remove_dir_all(path).unwrap();
    }
}
