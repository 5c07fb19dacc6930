//! [`Sandbox`]: `host-fs` over one root directory, as a [`HostFs`].
//!
//! - **Nothing outside the root.** Every path is resolved beneath the root by
//!   cap-std, so `..`, absolute paths and symlinks leading out fail with
//!   [`FsError::OutsideSandbox`] whatever the guest sends. A symlink whose
//!   absolute target lies under the root (under any spelling of it) is
//!   followed by `resolve.rs`. Files of the kernel's `/proc` and `/sys` are
//!   refused on the opened handle unless [`Sandbox::kernel_files`] allows
//!   them.
//! - **No open blocks or runs on.** Files are opened non-blocking and
//!   checked to be regular on the handle before a byte is read, and a
//!   verification reads at most the expected size plus one byte.
//! - **Compare and replace in one step.** Writes and removals check their
//!   precondition on the very file they displace (`replace.rs`); temporary
//!   files carry the target's mode from the first byte and leave no debris
//!   (`temp.rs`).
//!
//! Host work within a call stops at the call's [`Deadline`].

mod batch;
mod dirlock;
mod flush;
mod listing;
mod names;
mod node;
mod replace;
mod resolve;
pub(crate) mod temp;
mod turn;

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, UNIX_EPOCH};

use cap_std::ambient_authority;
use cap_std::fs::{
    Dir, File, Metadata as CapMetadata, MetadataExt as _, OpenOptions, OpenOptionsExt as _,
};
use filetools_core::{DirEntry, FileKind, FsError, HostFs, Metadata, Precondition};

use crate::limits::Deadline;

pub(crate) use batch::{Batch, Failure as BatchFailure, Record};

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
    spellings: Vec<String>,
    read_only: bool,
    kernel_files: bool,
    exchange: bool,
    /// Where the turns in directories are kept, when they can be.
    turns: Option<Dir>,
    /// Directories (root-relative, links resolved) already cleared of
    /// temporary files that a killed writer left.
    swept: Mutex<HashSet<PathBuf>>,
    /// Devices whose file system was seen not to be a kernel one, and
    /// when (a file system is a property of its device): a file on one is
    /// opened without asking again for [`PLAIN_DEVICE_TRUST`], as a device
    /// number is reused once its file system is unmounted.
    plain_devices: Mutex<Vec<(u64, Instant)>>,
    /// Devices whose file system was asked whether it swaps two names
    /// atomically (a batch of writes needs it), its answer, and when.
    exchange_devices: Mutex<Vec<(u64, bool, Instant)>>,
}

/// Devices remembered as holding no kernel file system, at most.
pub const MAX_PLAIN_DEVICES: usize = 64;

/// How long a device is taken to hold no kernel file system after it was
/// seen not to.
pub const PLAIN_DEVICE_TRUST: Duration = Duration::from_secs(1);

impl Sandbox {
    /// Opens `root` (which must be a directory) as the sandbox. The root is
    /// resolved once, here; the spelling given (say, through a symlink) is
    /// kept as another name for it.
    pub fn open(root: &Path, read_only: bool) -> io::Result<Self> {
        let canonical = root.canonicalize()?;
        let dir = Dir::open_ambient_dir(&canonical, ambient_authority())?;
        let spellings = resolve::spellings(root, &canonical);
        Ok(Self {
            dir,
            root: canonical,
            spellings,
            read_only,
            kernel_files: false,
            exchange: true,
            turns: None,
            swept: Mutex::new(HashSet::new()),
            plain_devices: Mutex::new(Vec::new()),
            exchange_devices: Mutex::new(Vec::new()),
        })
    }

    /// Serve files of the kernel's `/proc` and `/sys` when the root contains
    /// them (refused by default).
    #[must_use]
    pub fn kernel_files(mut self, allow: bool) -> Self {
        self.kernel_files = allow;
        self
    }

    /// Replace files by exchanging them with the new version and checking
    /// the displaced one (the default, where the system has an atomic
    /// exchange), or — with `false` — by checking the target again just
    /// before renaming over it, as on systems without one.
    #[must_use]
    pub fn exchange(mut self, on: bool) -> Self {
        self.exchange = on;
        self
    }

    /// Take turns with the processes of every host (the npm host
    /// included) in a directory before changing a file there, keeping them
    /// in `turns`, a private directory outside the root (the `turns`
    /// directory of the state directory). Without one, a change takes the
    /// directory's `flock` alone, which only this host's processes honour.
    #[must_use]
    pub fn turns(mut self, turns: Option<Dir>) -> Self {
        self.turns = turns;
        self
    }

    /// The directory turns are kept in.
    fn turns_dir(&self) -> Option<&Dir> {
        self.turns.as_ref()
    }

    /// The canonical absolute path of the root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every absolute spelling of the root: the canonical one first, then the
    /// one it was opened by, when that differs.
    pub fn spellings(&self) -> &[String] {
        &self.spellings
    }

    /// Whether writes are refused.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// This sandbox with host work bounded by `deadline`.
    pub fn until(&self, deadline: Deadline) -> Bounded<'_> {
        Bounded {
            sandbox: self,
            deadline,
            kept: None,
        }
    }

    /// This sandbox for one call that ends by `deadline` and keeps the file
    /// it reads open in `kept` between reads.
    pub fn for_call<'a>(&'a self, deadline: Deadline, kept: &'a KeptOpen) -> Bounded<'a> {
        Bounded {
            sandbox: self,
            deadline,
            kept: Some(kept),
        }
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
            // A file system without birth times gives the modification time.
            created_ns: meta
                .created()
                .map_or_else(|_| mtime_ns(meta), |t| node::since_epoch(t.into_std())),
            accessed_ns: meta
                .accessed()
                .map_or_else(|_| mtime_ns(meta), |t| node::since_epoch(t.into_std())),
            mode: meta.mode() & 0o7777,
        }
    }

    /// The guest's `path`, checked, with escaped names read back (see
    /// [`names`]).
    fn named<'p>(&self, path: &'p str) -> Result<std::borrow::Cow<'p, Path>, FsError> {
        let path = resolve::checked(path)?;
        Ok(names::named(path, |p| self.dir.symlink_metadata(p).is_ok()))
    }

    fn stat_by(&self, path: &str, deadline: Deadline) -> Result<Metadata, FsError> {
        let path = &*self.named(path)?;
        let meta = self.with_links(path, deadline, |p| self.dir.metadata(p))?;
        Ok(self.metadata_of(&meta))
    }

    fn read_by(
        &self,
        path: &str,
        offset: u64,
        len: u32,
        deadline: Deadline,
        kept: Option<&KeptOpen>,
    ) -> Result<Vec<u8>, FsError> {
        let Some(kept) = kept else {
            let (file, size) = self.open_for_reading(path, deadline)?;
            return read_at(&file, offset, len, size);
        };
        let mut slot = kept
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((kept_path, file, size)) = slot.as_ref()
            && kept_path == path
        {
            return read_at(file, offset, len, *size);
        }
        let (file, size) = self.open_for_reading(path, deadline)?;
        let bytes = read_at(&file, offset, len, size);
        *slot = Some((path.to_owned(), file, size));
        bytes
    }

    /// Opens the regular file `path` for reading, refusing anything else;
    /// with its size when opened.
    fn open_for_reading(&self, path: &str, deadline: Deadline) -> Result<(File, u64), FsError> {
        let path = &*self.named(path)?;
        let mut options = OpenOptions::new();
        options.read(true).custom_flags(node::read_flags());
        let file = self.with_links(path, deadline, |p| self.dir.open_with(p, &options))?;
        let meta = file.metadata().map_err(fs_error)?;
        match kind_of(&meta) {
            FileKind::File => {}
            FileKind::Directory => return Err(FsError::IsADirectory),
            kind => return Err(FsError::Io(format!("refusing to read {}", kind.describe()))),
        }
        self.refuse_kernel_file(&file, meta.dev())?;
        Ok((file, meta.len()))
    }

    /// [`Sandbox::refuse_kernel_files`] for a file on the device `dev`,
    /// asked once per device.
    fn refuse_kernel_file(&self, file: &File, dev: u64) -> Result<(), FsError> {
        if self.kernel_files {
            return Ok(());
        }
        let mut plain = self
            .plain_devices
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = Instant::now();
        plain.retain(|(_, seen)| now.duration_since(*seen) < PLAIN_DEVICE_TRUST);
        if plain.iter().any(|(known, _)| *known == dev) {
            return Ok(());
        }
        self.refuse_kernel_files(file)?;
        if plain.len() < MAX_PLAIN_DEVICES {
            plain.push((dev, now));
        }
        Ok(())
    }

    fn list_dir_by(
        &self,
        path: &str,
        deadline: Deadline,
        names_only: bool,
    ) -> Result<Vec<DirEntry>, FsError> {
        let path = &*self.named(path)?;
        // Opened to be read as it is (a directory opened as such is a
        // handle to find names under, which a listing must open again).
        let mut options = OpenOptions::new();
        options.read(true).custom_flags(listing::open_flags());
        let dir = self.with_links(path, deadline, |p| self.dir.open_with(p, &options))?;
        self.refuse_kernel_files(&dir)?;
        listing::entries(dir, deadline, names_only)
    }

    fn write_file_by(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
        deadline: Deadline,
    ) -> Result<Metadata, FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        let path = &*self.named(path)?;
        let target = self.change_target(path, true, deadline)?;
        self.refuse_kernel_files(&target.parent)?;
        self.sweep(&target, deadline)?;
        replace::write(self, &target, data, precondition, deadline)
    }

    fn remove_file_by(
        &self,
        path: &str,
        precondition: &Precondition,
        deadline: Deadline,
    ) -> Result<(), FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        let path = &*self.named(path)?;
        let target = self.change_target(path, false, deadline)?;
        self.refuse_kernel_files(&target.parent)?;
        replace::remove(self, &target, precondition, deadline)
    }

    fn create_dir_by(&self, path: &str, deadline: Deadline) -> Result<(), FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        let path = &*self.named(path)?;
        let target = self.change_target(path, true, deadline)?;
        self.refuse_kernel_files(&target.parent)?;
        match target.parent.create_dir(&target.name) {
            Ok(()) => Ok(()),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
                match target.parent.symlink_metadata(&target.name) {
                    Ok(meta) if meta.is_dir() => Ok(()),
                    _ => Err(FsError::NotADirectory),
                }
            }
            Err(err) => Err(fs_error(err)),
        }
    }

    fn rename_by(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
        deadline: Deadline,
    ) -> Result<Metadata, FsError> {
        if self.read_only {
            return Err(FsError::ReadOnly);
        }
        let from = self.change_target(&self.named(source)?, false, deadline)?;
        let to = self.change_target(&self.named(destination)?, true, deadline)?;
        self.refuse_kernel_files(&from.parent)?;
        self.refuse_kernel_files(&to.parent)?;
        replace::rename(self, &from, &to, precondition, deadline)?;
        let meta = to.parent.symlink_metadata(&to.name).map_err(fs_error)?;
        Ok(self.metadata_of(&meta))
    }

    /// Clears the target's directory of temporary files that writers killed
    /// mid-write left behind, once per directory and sandbox.
    fn sweep(&self, target: &resolve::Target, deadline: Deadline) -> Result<(), FsError> {
        let mut swept = self
            .swept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if swept.insert(target.parent_rel.clone()) {
            temp::sweep(&target.parent, deadline)?;
        }
        Ok(())
    }

    /// Whether the file system of `dir` (on device `dev`) swaps two names
    /// atomically, asked by swapping two empty files of this host's in
    /// `dir`; the answer is kept for [`PLAIN_DEVICE_TRUST`], as a device
    /// number is reused once its file system is unmounted.
    fn exchanges_on(&self, dir: &Dir, dev: u64) -> bool {
        let now = Instant::now();
        let known = |devices: &mut Vec<(u64, bool, Instant)>| {
            devices.retain(|&(_, _, asked)| now.duration_since(asked) < PLAIN_DEVICE_TRUST);
            devices
                .iter()
                .find(|(seen, _, _)| *seen == dev)
                .map(|&(_, swaps, _)| swaps)
        };
        if let Some(swaps) = self
            .exchange_devices
            .lock()
            .ok()
            .and_then(|mut d| known(&mut d))
        {
            return swaps;
        }
        let flags = rustix::fs::OFlags::CREATE
            | rustix::fs::OFlags::EXCL
            | rustix::fs::OFlags::WRONLY
            | rustix::fs::OFlags::CLOEXEC;
        let mode = rustix::fs::Mode::from_raw_mode(0o600);
        // Only the names made here are removed.
        let made: Vec<std::ffi::OsString> = (0..2)
            .map(|_| temp::fresh_name(std::ffi::OsStr::new("swap")))
            .filter(|name| rustix::fs::openat(dir, name.as_os_str(), flags, mode).is_ok())
            .collect();
        let swaps = made.len() == 2 && replace::swap(dir, &made[0], &made[1]).is_ok();
        for name in &made {
            let _ = rustix::fs::unlinkat(dir, name.as_os_str(), rustix::fs::AtFlags::empty());
        }
        if made.len() == 2
            && let Ok(mut devices) = self.exchange_devices.lock()
            && devices.len() < MAX_PLAIN_DEVICES
        {
            devices.push((dev, swaps, now));
        }
        swaps
    }

    /// Refuses an opened file or directory that belongs to the kernel's
    /// `/proc` or `/sys`, unless they are allowed.
    fn refuse_kernel_files(&self, handle: &impl std::os::fd::AsFd) -> Result<(), FsError> {
        if !self.kernel_files && node::on_kernel_fs(handle) {
            return Err(FsError::PermissionDenied);
        }
        Ok(())
    }
}

/// Reads `len` bytes of `file` (of `size` bytes when opened) from
/// `offset`, fewer only at its end.
fn read_at(file: &File, offset: u64, len: u32, size: u64) -> Result<Vec<u8>, FsError> {
    let len = len.min(MAX_READ_BYTES) as usize;
    // Sized to what the file held when opened (and a byte more, to see it
    // grow), not to what was asked: a search asks a chunk of every small
    // file, and making room for 64 KiB each would cost more than reading
    // it. The room is read into as it is, never zeroed first.
    let held = size.saturating_sub(offset).saturating_add(1);
    let mut buf = Vec::with_capacity(len.min(usize::try_from(held).unwrap_or(usize::MAX)));
    while buf.len() < len {
        if buf.len() == buf.capacity() {
            // The file grew since: read on up to what was asked.
            buf.reserve_exact(len - buf.len());
        }
        let at = offset + buf.len() as u64;
        match rustix::io::pread(file, rustix::buffer::spare_capacity(&mut buf), at) {
            Ok(0) => break,
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(err) => return Err(fs_error(err.into())),
        }
    }
    buf.truncate(len);
    Ok(buf)
}

/// The file a call read last, kept open for its next read of the same path:
/// a page fetched chunk by chunk opens and checks the file once, and every
/// chunk comes from that one file even if the path is replaced meanwhile.
/// Emptied by any change the call makes and when the call ends, so a read
/// never sees an older file than the call's own writes left.
#[derive(Debug, Default)]
pub struct KeptOpen(Mutex<Option<(String, File, u64)>>);

impl KeptOpen {
    /// Closes the kept file.
    pub fn clear(&self) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
    }
}

/// A [`Sandbox`] whose host work stops at a deadline: the view a call gets.
#[derive(Debug, Clone, Copy)]
pub struct Bounded<'a> {
    sandbox: &'a Sandbox,
    deadline: Deadline,
    kept: Option<&'a KeptOpen>,
}

impl Bounded<'_> {
    /// Forgets the kept file before a change.
    fn changing(&self) {
        if let Some(kept) = self.kept {
            kept.clear();
        }
    }

    /// Whether writes can land in a batch here: where the system swaps two
    /// names atomically (a failed batch swaps back what it put in place).
    pub(crate) fn batches(&self) -> bool {
        cfg!(any(target_os = "linux", target_os = "android"))
            && self.sandbox.exchange
            && !self.sandbox.read_only
    }

    /// `host-fs.write-file` in a batch: the new version written beside the
    /// file, nothing put in place (see `batch`).
    pub(crate) fn stage(
        &self,
        batch: &mut Batch,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.changing();
        let sandbox = self.sandbox;
        if sandbox.read_only {
            return Err(FsError::ReadOnly);
        }
        let path = &*sandbox.named(path)?;
        let target = sandbox.change_target(path, true, self.deadline)?;
        sandbox.refuse_kernel_files(&target.parent)?;
        sandbox.sweep(&target, self.deadline)?;
        batch::stage(sandbox, batch, target, data, precondition, self.deadline)
    }

    /// Lands every write of `batch`, or none.
    pub(crate) fn commit(
        &self,
        batch: Batch,
        record: Option<Record<'_>>,
    ) -> Result<(), BatchFailure> {
        self.changing();
        batch::commit(self.sandbox, batch, record, self.deadline)
    }
}

impl HostFs for Bounded<'_> {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        self.sandbox.stat_by(path, self.deadline)
    }

    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.sandbox
            .read_by(path, offset, len, self.deadline, self.kept)
    }

    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.sandbox.list_dir_by(path, self.deadline, false)
    }

    fn list_names(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.sandbox.list_dir_by(path, self.deadline, true)
    }

    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.changing();
        self.sandbox
            .write_file_by(path, data, precondition, self.deadline)
    }

    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        self.changing();
        self.sandbox
            .remove_file_by(path, precondition, self.deadline)
    }

    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        self.changing();
        self.sandbox.create_dir_by(path, self.deadline)
    }

    fn rename(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.changing();
        self.sandbox
            .rename_by(source, destination, precondition, self.deadline)
    }
}

/// Without a deadline: for the native core, tests and tools.
impl HostFs for Sandbox {
    /// `host-fs.stat`.
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        self.stat_by(path, Deadline::NEVER)
    }

    /// `host-fs.read`: up to `len` bytes at `offset` of a regular file.
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.read_by(path, offset, len, Deadline::NEVER, None)
    }

    /// `host-fs.list-dir`: entries sorted by name, symlinks not followed.
    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.list_dir_by(path, Deadline::NEVER, false)
    }

    /// `host-fs.list-names`: as `list-dir`, a file's size and time 0.
    fn list_names(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.list_dir_by(path, Deadline::NEVER, true)
    }

    /// `host-fs.write-file`: replaces the file only while `precondition`
    /// holds, atomically, keeping its permissions.
    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.write_file_by(path, data, precondition, Deadline::NEVER)
    }

    /// `host-fs.remove-file`: removes the file only while `precondition`
    /// holds.
    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        self.remove_file_by(path, precondition, Deadline::NEVER)
    }

    /// `host-fs.create-dir`: the directory and its missing parents.
    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        self.create_dir_by(path, Deadline::NEVER)
    }

    /// `host-fs.rename`: moves a node to a free name while `precondition`
    /// holds.
    fn rename(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.rename_by(source, destination, precondition, Deadline::NEVER)
    }
}

fn kind_of(meta: &CapMetadata) -> FileKind {
    node::kind_of_mode(meta.mode())
}

fn mtime_ns(meta: &CapMetadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.into_std().duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}
