//! [`Sandbox`]: `host-fs` over a cap-std [`Dir`], as a [`HostFs`] (SPEC S1,
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
    Dir, FileExt as _, FileTypeExt as _, Metadata as CapMetadata, OpenOptions, OpenOptionsExt as _,
    Permissions,
};
use filetools_core::{DirEntry, FileKind, FsError, HostFs, Metadata, Precondition};
use sha2::{Digest as _, Sha256};

/// Maps an I/O error onto the `host-fs` error it means.
#[expect(
    clippy::needless_pass_by_value,
    reason = "shaped for `map_err(fs_error)`"
)]
fn fs_error(err: io::Error) -> FsError {
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

    fn metadata_of(&self, meta: &CapMetadata) -> Metadata {
        let kind = kind_of(meta);
        Metadata {
            kind,
            size: if kind == FileKind::File {
                meta.len()
            } else {
                0
            },
            mtime_ns: mtime_ns(meta),
            readonly: self.read_only || meta.permissions().readonly(),
        }
    }

    fn write_temp(
        &self,
        temp: &Path,
        data: &[u8],
        permissions: Option<Permissions>,
    ) -> Result<(), FsError> {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        let mut file = self.dir.open_with(temp, &options).map_err(fs_error)?;
        file.write_all(data).map_err(fs_error)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions).map_err(fs_error)?;
        }
        file.sync_all().map_err(fs_error)?;
        Ok(())
    }

    /// The current metadata of the change target `path` (`None` when it
    /// does not exist), once `precondition` is known to hold. A symlink at
    /// the target would be replaced by a rename, never followed out of the
    /// sandbox; it is refused so the link is not silently lost.
    fn check_target(
        &self,
        path: &Path,
        precondition: &Precondition,
    ) -> Result<Option<CapMetadata>, FsError> {
        let current = match self.dir.symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => return Err(FsError::OutsideSandbox),
            Ok(meta) if meta.is_dir() => return Err(FsError::IsADirectory),
            Ok(meta) => Some(meta),
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => return Err(fs_error(err)),
        };
        let stamp = current.as_ref().map(|meta| (meta.len(), mtime_ns(meta)));
        if precondition.holds(stamp, || self.sha256_of(path))? {
            Ok(current)
        } else {
            Err(FsError::Conflict)
        }
    }

    fn sha256_of(&self, path: &Path) -> Result<String, FsError> {
        let mut options = OpenOptions::new();
        options.read(true).custom_flags(NONBLOCK);
        let file = self.dir.open_with(path, &options).map_err(fs_error)?;
        let mut hasher = Sha256::new();
        let mut buf = vec![0; 64 * 1024];
        let mut offset = 0;
        loop {
            let n = file.read_at(&mut buf, offset).map_err(fs_error)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            offset += n as u64;
        }
        Ok(filetools_core::digest::hex(&hasher.finalize()))
    }
}

impl HostFs for Sandbox {
    /// `host-fs.stat`.
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        let path = Self::checked(path)?;
        let meta = self.dir.metadata(path).map_err(fs_error)?;
        Ok(self.metadata_of(&meta))
    }

    /// `host-fs.read`: up to `len` bytes at `offset` of a regular file.
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        let path = Self::checked(path)?;
        let mut options = OpenOptions::new();
        options.read(true).custom_flags(NONBLOCK);
        let file = self.dir.open_with(path, &options).map_err(fs_error)?;
        let meta = file.metadata().map_err(fs_error)?;
        match kind_of(&meta) {
            FileKind::File => {}
            FileKind::Directory => return Err(FsError::IsADirectory),
            kind => return Err(FsError::Io(format!("refusing to read {}", kind.describe()))),
        }
        let len = len.min(MAX_READ_BYTES) as usize;
        let mut buf = vec![0; len];
        let mut filled = 0;
        while filled < len {
            match file.read_at(&mut buf[filled..], offset + filled as u64) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(fs_error(err)),
            }
        }
        buf.truncate(filled);
        Ok(buf)
    }

    /// `host-fs.list-dir`: entries sorted by name, symlinks not followed.
    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        let path = Self::checked(path)?;
        let mut entries = Vec::new();
        for entry in self.dir.read_dir(path).map_err(fs_error)? {
            let entry = entry.map_err(fs_error)?;
            let meta = entry.metadata().map_err(fs_error)?;
            let kind = kind_of(&meta);
            entries.push(DirEntry {
                name: entry.file_name().to_string_lossy().into_owned(),
                kind,
                size: if kind == FileKind::File {
                    meta.len()
                } else {
                    0
                },
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    /// `host-fs.write-file`: checks `precondition` and replaces the file
    /// atomically (temporary file + rename), keeping its permissions.
    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        let path = Self::checked(path)?;
        let name = path.file_name().ok_or(FsError::IsADirectory)?;
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        let current = self.check_target(path, precondition)?;
        if let Some(parent) = parent {
            self.dir.create_dir_all(parent).map_err(fs_error)?;
        }
        let temp_name = format!(
            ".{}.filetools-{}-{}.tmp",
            name.to_string_lossy(),
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let temp = parent.map_or_else(|| PathBuf::from(&temp_name), |p| p.join(&temp_name));
        let result = self.write_temp(&temp, data, current.as_ref().map(CapMetadata::permissions));
        let result =
            result.and_then(|()| self.dir.rename(&temp, &self.dir, path).map_err(fs_error));
        if let Err(err) = result {
            let _ = self.dir.remove_file(&temp);
            return Err(err);
        }
        self.stat(&path.to_string_lossy())
    }

    /// `host-fs.remove-file`: checks `precondition`, then removes the file.
    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        let path = Self::checked(path)?;
        if self.check_target(path, precondition)?.is_none() {
            return Err(FsError::NotFound);
        }
        self.dir.remove_file(path).map_err(fs_error)
    }
}

/// `O_NONBLOCK` on Linux: opening a FIFO must not wait for a writer.
const NONBLOCK: i32 = 0o4000;

fn kind_of(meta: &CapMetadata) -> FileKind {
    let ft = meta.file_type();
    if ft.is_file() {
        FileKind::File
    } else if ft.is_dir() {
        FileKind::Directory
    } else if ft.is_symlink() {
        FileKind::Symlink
    } else if ft.is_fifo() {
        FileKind::Fifo
    } else if ft.is_socket() {
        FileKind::Socket
    } else if ft.is_block_device() {
        FileKind::BlockDevice
    } else if ft.is_char_device() {
        FileKind::CharDevice
    } else {
        FileKind::Other
    }
}

fn mtime_ns(meta: &CapMetadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.into_std().duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}
