//! [`Sandbox`]: the host side of `host-fs` over a cap-std [`Dir`] (SPEC S1,
//! W4). Every path is resolved beneath the root by cap-std, so `..`, absolute
//! paths and symlinks that lead outside fail with [`FsError::OutsideSandbox`]
//! whatever the guest sends. FIFOs and devices are never opened for reading:
//! files are opened non-blocking and checked to be regular before a byte is
//! read. Writes go to a temporary file beside the target and are renamed over
//! it after the precondition is checked, so readers see the old or the new
//! content, never a mix.

use std::io::{self, Write as _};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::UNIX_EPOCH;

use cap_std::ambient_authority;
use cap_std::fs::{
    Dir, FileExt as _, FileTypeExt as _, Metadata, OpenOptions, OpenOptionsExt as _, Permissions,
};
use sha2::{Digest as _, Sha256};

/// The kind of a path, as `host-fs` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link (listings only).
    Symlink,
    /// A named pipe.
    Fifo,
    /// A socket.
    Socket,
    /// A block device.
    BlockDevice,
    /// A character device.
    CharDevice,
    /// Anything else.
    Other,
}

/// Metadata of one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    /// Kind after following symlinks inside the root.
    pub kind: Kind,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, ns since the Unix epoch.
    pub mtime_ns: u64,
    /// Whether a write would be refused.
    pub readonly: bool,
}

/// One directory entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// File name.
    pub name: String,
    /// Kind, symlinks not followed.
    pub kind: Kind,
    /// Size in bytes.
    pub size: u64,
}

/// The state a writer expects; see `host-fs` `file-stamp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, ns since the Unix epoch.
    pub mtime_ns: u64,
    /// Hex SHA-256 of the content; decides instead of the mtime when given.
    pub sha256: Option<String>,
}

/// What a write requires of the current file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    /// Nothing.
    Any,
    /// The file must not exist.
    Absent,
    /// The file must match.
    Matches(Stamp),
}

/// A failed file-system call; mirrors WIT `fs-error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FsError {
    /// Not found.
    NotFound,
    /// Refused by the operating system.
    PermissionDenied,
    /// A file operation on a directory.
    IsADirectory,
    /// A parent is not a directory.
    NotADirectory,
    /// Leads outside the root.
    OutsideSandbox,
    /// The sandbox is read-only.
    ReadOnly,
    /// The precondition failed.
    Conflict,
    /// Anything else.
    Io(String),
}

impl From<io::Error> for FsError {
    fn from(err: io::Error) -> Self {
        match err.kind() {
            io::ErrorKind::NotFound => FsError::NotFound,
            // cap-std reports an escape as PermissionDenied with this text.
            io::ErrorKind::PermissionDenied
                if err.to_string().contains("outside of the filesystem") =>
            {
                FsError::OutsideSandbox
            }
            io::ErrorKind::PermissionDenied => FsError::PermissionDenied,
            io::ErrorKind::IsADirectory => FsError::IsADirectory,
            io::ErrorKind::NotADirectory => FsError::NotADirectory,
            io::ErrorKind::ReadOnlyFilesystem => FsError::ReadOnly,
            _ => match err.raw_os_error() {
                // ELOOP: too many symlinks, or O_NOFOLLOW met one.
                Some(40) => FsError::OutsideSandbox,
                _ => FsError::Io(err.to_string()),
            },
        }
    }
}

/// Largest single read the host serves, whatever the guest asks for.
pub const MAX_READ_BYTES: u32 = 16 * 1024 * 1024;

/// A directory the guest may see, and nothing else.
#[derive(Debug)]
pub struct Sandbox {
    dir: Dir,
    root: PathBuf,
    read_only: bool,
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Sandbox {
    /// Opens `root` (which must be a directory) as the sandbox.
    pub fn open(root: &Path, read_only: bool) -> io::Result<Self> {
        let root = root.canonicalize()?;
        let dir = Dir::open_ambient_dir(&root, ambient_authority())?;
        Ok(Self {
            dir,
            root,
            read_only,
        })
    }

    /// The canonical absolute path of the root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether writes are refused.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Checks the guest's path form: relative, normalised, no `..`.
    fn checked(path: &str) -> Result<&Path, FsError> {
        let p = Path::new(path);
        if path.is_empty() || path.contains('\0') {
            return Err(FsError::OutsideSandbox);
        }
        for component in p.components() {
            match component {
                Component::Normal(_) | Component::CurDir => {}
                _ => return Err(FsError::OutsideSandbox),
            }
        }
        Ok(p)
    }

    /// `host-fs.stat`.
    pub fn stat(&self, path: &str) -> Result<Stat, FsError> {
        let path = Self::checked(path)?;
        let meta = self.dir.metadata(path)?;
        Ok(self.stat_of(&meta))
    }

    fn stat_of(&self, meta: &Metadata) -> Stat {
        let kind = kind_of(meta);
        Stat {
            kind,
            size: if kind == Kind::File { meta.len() } else { 0 },
            mtime_ns: mtime_ns(meta),
            readonly: self.read_only || meta.permissions().readonly(),
        }
    }

    /// `host-fs.read`: up to `len` bytes at `offset` of a regular file.
    pub fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        let path = Self::checked(path)?;
        let mut options = OpenOptions::new();
        options.read(true).custom_flags(NONBLOCK);
        let file = self.dir.open_with(path, &options)?;
        let meta = file.metadata()?;
        match kind_of(&meta) {
            Kind::File => {}
            Kind::Directory => return Err(FsError::IsADirectory),
            kind => return Err(FsError::Io(format!("refusing to read a {kind:?}"))),
        }
        let len = len.min(MAX_READ_BYTES) as usize;
        let mut buf = vec![0; len];
        let mut filled = 0;
        while filled < len {
            match file.read_at(&mut buf[filled..], offset + filled as u64) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err.into()),
            }
        }
        buf.truncate(filled);
        Ok(buf)
    }

    /// `host-fs.list-dir`: entries sorted by name, symlinks not followed.
    pub fn list_dir(&self, path: &str) -> Result<Vec<Entry>, FsError> {
        let path = Self::checked(path)?;
        let mut entries = Vec::new();
        for entry in self.dir.read_dir(path)? {
            let entry = entry?;
            let meta = entry.metadata()?;
            let kind = kind_of(&meta);
            entries.push(Entry {
                name: entry.file_name().to_string_lossy().into_owned(),
                kind,
                size: if kind == Kind::File { meta.len() } else { 0 },
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    /// `host-fs.write-file`: checks `precondition` and replaces the file
    /// atomically (temporary file + rename), keeping its permissions.
    pub fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Stat, FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        let path = Self::checked(path)?;
        let name = path.file_name().ok_or(FsError::IsADirectory)?;
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        // A symlink at the target is replaced by the rename, never followed
        // out of the sandbox; refuse it so the link is not silently lost.
        let current = match self.dir.symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => return Err(FsError::OutsideSandbox),
            Ok(meta) if meta.is_dir() => return Err(FsError::IsADirectory),
            Ok(meta) => Some(meta),
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => return Err(err.into()),
        };
        let holds = match (precondition, &current) {
            (Precondition::Any, _) | (Precondition::Absent, None) => true,
            (Precondition::Matches(stamp), Some(meta)) => {
                stamp.size == meta.len()
                    && match &stamp.sha256 {
                        Some(expected) => *expected == self.sha256_of(path)?,
                        None => stamp.mtime_ns == mtime_ns(meta),
                    }
            }
            _ => false,
        };
        if !holds {
            return Err(FsError::Conflict);
        }
        if let Some(parent) = parent {
            self.dir.create_dir_all(parent)?;
        }
        let temp_name = format!(
            ".{}.filetools-{}-{}.tmp",
            name.to_string_lossy(),
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let temp = parent.map_or_else(|| PathBuf::from(&temp_name), |p| p.join(&temp_name));
        let result = self.write_temp(&temp, data, current.as_ref().map(Metadata::permissions));
        let result = result.and_then(|()| {
            self.dir
                .rename(&temp, &self.dir, path)
                .map_err(FsError::from)
        });
        if let Err(err) = result {
            let _ = self.dir.remove_file(&temp);
            return Err(err);
        }
        self.stat(&path.to_string_lossy())
    }

    fn write_temp(
        &self,
        temp: &Path,
        data: &[u8],
        permissions: Option<Permissions>,
    ) -> Result<(), FsError> {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        let mut file = self.dir.open_with(temp, &options)?;
        file.write_all(data)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.sync_all()?;
        Ok(())
    }

    fn sha256_of(&self, path: &Path) -> Result<String, FsError> {
        let mut options = OpenOptions::new();
        options.read(true).custom_flags(NONBLOCK);
        let file = self.dir.open_with(path, &options)?;
        let mut hasher = Sha256::new();
        let mut buf = vec![0; 64 * 1024];
        let mut offset = 0;
        loop {
            let n = file.read_at(&mut buf, offset)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            offset += n as u64;
        }
        Ok(hex(&hasher.finalize()))
    }
}

/// Lower-case hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(DIGITS[usize::from(byte >> 4)] as char);
        out.push(DIGITS[usize::from(byte & 15)] as char);
    }
    out
}

/// `O_NONBLOCK` on Linux: opening a FIFO must not wait for a writer.
const NONBLOCK: i32 = 0o4000;

fn kind_of(meta: &Metadata) -> Kind {
    let ft = meta.file_type();
    if ft.is_file() {
        Kind::File
    } else if ft.is_dir() {
        Kind::Directory
    } else if ft.is_symlink() {
        Kind::Symlink
    } else if ft.is_fifo() {
        Kind::Fifo
    } else if ft.is_socket() {
        Kind::Socket
    } else if ft.is_block_device() {
        Kind::BlockDevice
    } else if ft.is_char_device() {
        Kind::CharDevice
    } else {
        Kind::Other
    }
}

fn mtime_ns(meta: &Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.into_std().duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}
