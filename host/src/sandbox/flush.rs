//! Makes the new versions of a batch durable with as few flushes of the
//! device's cache as the file system allows. Each file system gets one of
//! three methods:
//!
//! - **ordered** (XFS, and ext4 with a journal), the way git's
//!   `core.fsyncMethod = batch` does it: each file's data is written out
//!   and waited for (`sync_file_range`, which reaches the device's cache but
//!   does not flush it), then one full sync of the last file of the device
//!   flushes the cache and commits the journal. That covers the other files
//!   because the journal commits in order, so the commit a later sync waits
//!   for holds every earlier allocation; each file's write-back was started
//!   as it was staged, in order, so the last of a device holds its newest
//!   blocks.
//! - **whole** (an ext4 whose journal is not found, which is one without a
//!   journal unless the journal lies on another device; a sync of one file
//!   there flushes the device's cache each time, and syncs its directory
//!   when the file is new): one `syncfs` writes every file's data and
//!   metadata out and waits for it; each file's own write errors are then
//!   asked for (`sync_file_range` waiting on what is written, which kernels
//!   before 5.8 report nowhere else), and one full sync of the last file
//!   flushes the cache (`syncfs` may write the last metadata after its own
//!   flush). A `syncfs` also writes what other programs left unwritten on
//!   the file system, so it is used only while little is waiting to be
//!   written (see [`MAX_WAITING_BYTES`]); otherwise, and where the system
//!   refuses the call, each file gets its own sync. A `syncfs` that fails
//!   fails the batch: a sync of each file after it could find the failed
//!   metadata clean and answer that all is well.
//! - **each**: everywhere else (btrfs, network and FUSE file systems, off
//!   Linux), every file gets its own full sync.

use std::fs::File;
use std::io;
use std::os::fd::AsFd;

/// `statfs` magic numbers: ext2/3/4 (one magic; ordered only with a
/// journal) and XFS (always logged).
#[cfg(any(target_os = "linux", target_os = "android"))]
const EXT_MAGIC: i128 = 0xef53;
#[cfg(any(target_os = "linux", target_os = "android"))]
const XFS_MAGIC: i128 = 0x5846_5342;

/// The most bytes the system may have waiting to be written (its dirty and
/// under-write-back pages, the batch's own included) for a batch to sync
/// its whole file system. Writing them takes 2 ms at 2 GB/s and 40 ms at
/// 100 MB/s; 20 syncs of one file each take about as long on a fast disk
/// (0.1 ms each) and far longer on a slow one (several ms each).
pub(super) const MAX_WAITING_BYTES: u64 = 4 << 20;

/// A file a batch wrote, and its device.
pub(super) type Written<'f> = (&'f File, u64);

/// Why a batch could not be made durable: the sync of a file (by index)
/// or of the change's record failed.
#[derive(Debug)]
pub(super) enum Failed {
    File(usize, io::Error),
    Record(io::Error),
}

impl From<(usize, io::Error)> for Failed {
    fn from((index, err): (usize, io::Error)) -> Self {
        Failed::File(index, err)
    }
}

/// How the files of one file system are made durable (see the module's
/// list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    Ordered,
    Whole,
    Each,
}

/// The batch's files on one device.
#[derive(Debug)]
struct Device {
    dev: u64,
    method: Method,
    /// The first of its files (an index into the batch).
    first: usize,
    /// The last of its files the device's one flush covers, if any.
    last: Option<usize>,
}

/// Syncs `files` (in the order their write-back started, so that the last
/// of a device holds its newest blocks) so that every one is durable when
/// this returns; and `record` with them where a sync of its whole file
/// system covers it: whether it did (if not, it needs a sync of its own).
/// An error names the file (by index) or the record whose sync failed.
pub(super) fn durable(files: &[Written<'_>], record: Option<&File>) -> Result<bool, Failed> {
    let mut devices: Vec<Device> = Vec::new();
    for (index, &(file, dev)) in files.iter().enumerate() {
        let at = devices
            .iter()
            .position(|d| d.dev == dev)
            .unwrap_or_else(|| {
                devices.push(Device {
                    dev,
                    method: method(file, dev),
                    first: index,
                    last: None,
                });
                devices.len() - 1
            });
        let device = &mut devices[at];
        let covered = match device.method {
            Method::Ordered => write_out(file).map_err(|err| (index, err))?,
            Method::Whole => true,
            Method::Each => false,
        };
        if covered {
            device.last = Some(index);
        } else {
            file.sync_all().map_err(|err| (index, err))?;
        }
    }
    let mut covered = false;
    for device in &devices {
        let Some(last) = device.last else { continue };
        match device.method {
            Method::Ordered => sync(files, last)?,
            Method::Whole => {
                let on_device = record.filter(|file| device_of(file) == Some(device.dev));
                covered |= sync_whole(files, device, last, little_waiting(), on_device)?;
            }
            Method::Each => {}
        }
    }
    Ok(covered)
}

/// The device `file` lies on.
fn device_of(file: &File) -> Option<u64> {
    file.metadata()
        .ok()
        .map(|meta| std::os::unix::fs::MetadataExt::dev(&meta))
}

/// A full sync of file `index`.
fn sync(files: &[Written<'_>], index: usize) -> Result<(), (usize, io::Error)> {
    files[index].0.sync_all().map_err(|err| (index, err))
}

/// With `allowed`, the whole file system of `device` synced, each of its
/// files (and `record`, on the same device) asked for its write errors,
/// then the device's cache flushed by a sync of its `last` file; otherwise,
/// or where the system refuses `syncfs`, each of its files synced. Whether
/// `record` was covered.
fn sync_whole(
    files: &[Written<'_>],
    device: &Device,
    last: usize,
    allowed: bool,
    record: Option<&File>,
) -> Result<bool, Failed> {
    let whole = if allowed {
        sync_fs(files[device.first].0).map_err(|err| (device.first, err))?
    } else {
        false
    };
    for (index, &(file, dev)) in files.iter().enumerate() {
        if dev != device.dev {
            continue;
        }
        if whole {
            wait_written(file).map_err(|err| (index, err))?;
        } else {
            file.sync_all().map_err(|err| (index, err))?;
        }
    }
    if !whole {
        return Ok(false);
    }
    if let Some(record) = record {
        wait_written(record).map_err(Failed::Record)?;
    }
    sync(files, last)?;
    Ok(record.is_some())
}

/// Whether the system holds at most [`MAX_WAITING_BYTES`] waiting to be
/// written.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn little_waiting() -> bool {
    let meminfo = std::fs::read_to_string("/proc/meminfo");
    fits(meminfo.ok().and_then(|m| waiting_bytes(&m)))
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn little_waiting() -> bool {
    false
}

/// Whether `waiting` bytes (`None`: not known) are at most
/// [`MAX_WAITING_BYTES`].
fn fits(waiting: Option<u64>) -> bool {
    waiting.is_some_and(|waiting| waiting <= MAX_WAITING_BYTES)
}

/// The bytes `/proc/meminfo` lists as dirty or under write-back; `None`
/// when either line is missing.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn waiting_bytes(meminfo: &str) -> Option<u64> {
    let kib = |label: &str| {
        meminfo.lines().find_map(|line| {
            let rest = line.strip_prefix(label)?.strip_prefix(':')?;
            rest.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()
        })
    };
    let (dirty, writeback) = (kib("Dirty")?, kib("Writeback")?);
    Some(dirty.saturating_add(writeback).saturating_mul(1024))
}

/// A `syncfs` of `file`'s file system: whether it ran (`false` where the
/// system refuses the call), or its error.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn sync_fs(file: &File) -> io::Result<bool> {
    match rustix::fs::syncfs(file) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::NOSYS | rustix::io::Errno::PERM) => Ok(false),
        Err(err) => Err(err.into()),
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn sync_fs(_file: &File) -> io::Result<bool> {
    Ok(false)
}

/// `sync_file_range` over the whole of `file` with `flags`, on Linux:
/// whether the call ran (`false` off Linux), or its error.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn sync_range(file: &File, flags: u32) -> io::Result<bool> {
    use std::os::fd::AsRawFd as _;
    // SAFETY: a plain system call on a descriptor `file` keeps open; it
    // reads and writes no memory of this process.
    if unsafe { libc::sync_file_range(file.as_raw_fd(), 0, 0, flags) } == 0 {
        Ok(true)
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) fn sync_range(_file: &File, _flags: u32) -> io::Result<bool> {
    Ok(false)
}

/// The `sync_file_range` flags, named on every system.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) mod range {
    pub const WAIT_BEFORE: u32 = libc::SYNC_FILE_RANGE_WAIT_BEFORE;
    pub const WRITE: u32 = libc::SYNC_FILE_RANGE_WRITE;
    pub const WAIT_AFTER: u32 = libc::SYNC_FILE_RANGE_WAIT_AFTER;
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) mod range {
    pub const WAIT_BEFORE: u32 = 1;
    pub const WRITE: u32 = 2;
    pub const WAIT_AFTER: u32 = 4;
}

/// Waits for `file`'s data already under write-back and reports its write
/// errors (writing nothing); off Linux, a full sync.
fn wait_written(file: &File) -> io::Result<()> {
    if sync_range(file, range::WAIT_BEFORE | range::WAIT_AFTER)? {
        Ok(())
    } else {
        file.sync_all()
    }
}

/// Writes `file`'s data out to the device and waits for it, without the
/// flush of the device's cache. Whether it could (only on Linux; a file
/// system without the call gets a full sync instead).
fn write_out(file: &File) -> io::Result<bool> {
    match sync_range(file, range::WAIT_BEFORE | range::WRITE | range::WAIT_AFTER) {
        Err(err)
            if matches!(
                rustix::io::Errno::from_io_error(&err),
                Some(
                    rustix::io::Errno::NOSYS | rustix::io::Errno::INVAL | rustix::io::Errno::SPIPE
                )
            ) =>
        {
            Ok(false)
        }
        other => other,
    }
}

/// The method of the file system `file` (on device `dev`) lies on: XFS and
/// an ext4 with a journal commit their journal in order (the kernel lists
/// each journal it runs under `/proc/fs/jbd2`, by the block device's name);
/// an ext4 without one (some virtual machines' disks) syncs only the file
/// it is asked to, and flushes the device's cache each time.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn method(file: impl AsFd, dev: u64) -> Method {
    let Ok(fs) = rustix::fs::fstatfs(&file) else {
        return Method::Each;
    };
    match i128::from(fs.f_type) {
        XFS_MAGIC => Method::Ordered,
        EXT_MAGIC if journalled(dev) => Method::Ordered,
        EXT_MAGIC => Method::Whole,
        _ => Method::Each,
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn method(_file: impl AsFd, _dev: u64) -> Method {
    Method::Each
}
/// Whether the ext4 on block device `dev` has a journal, learnt once per
/// device.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn journalled(dev: u64) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static KNOWN: OnceLock<Mutex<HashMap<u64, bool>>> = OnceLock::new();
    let known = KNOWN.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(&found) = known.lock().ok().as_ref().and_then(|k| k.get(&dev)) {
        return found;
    }
    let found = journal_listed(dev);
    if let Ok(mut known) = known.lock() {
        known.insert(dev, found);
    }
    found
}

/// Whether `/proc/fs/jbd2` lists a journal of block device `dev`.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn journal_listed(dev: u64) -> bool {
    let (major, minor) = (rustix::fs::major(dev), rustix::fs::minor(dev));
    let Ok(device) = std::fs::read_link(format!("/sys/dev/block/{major}:{minor}")) else {
        return false;
    };
    let Some(name) = device.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let prefix = format!("{name}-");
    std::fs::read_dir("/proc/fs/jbd2").is_ok_and(|entries| {
        entries.flatten().any(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(&prefix))
        })
    })
}

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    use std::io::Write as _;

    use super::*;

    #[test]
    fn a_device_without_a_listed_journal_is_not_taken_as_ordered() {
        assert!(!journal_listed(rustix::fs::makedev(4095, 1_048_575)));
        assert!(!journalled(rustix::fs::makedev(4095, 1_048_574)));
    }

    #[test]
    fn what_waits_to_be_written_is_the_dirty_and_write_back_lines_together() {
        let meminfo = "MemTotal:       24683700 kB\nDirty:              1200 kB\n\
                       Writeback:            48 kB\nWritebackTmp:          7 kB\n";
        assert_eq!(waiting_bytes(meminfo), Some(1248 * 1024));
        assert_eq!(waiting_bytes("MemTotal: 1 kB\nDirty: 5 kB\n"), None);
        assert_eq!(waiting_bytes("Dirty: x kB\nWriteback: 0 kB\n"), None);
    }

    #[test]
    fn the_whole_file_system_is_synced_only_while_little_waits_to_be_written() {
        assert!(fits(Some(0)));
        assert!(fits(Some(MAX_WAITING_BYTES)));
        assert!(!fits(Some(MAX_WAITING_BYTES + 1)));
        assert!(!fits(Some(84 << 20)));
        assert!(!fits(None));
    }

    #[test]
    fn a_batch_is_made_durable_by_syncing_its_file_system_or_each_file() {
        let dir = std::env::temp_dir().join(format!("filetools-flush-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let files: Vec<File> = (0..3)
            .map(|n| {
                let mut file = File::create(dir.join(format!("f{n}"))).unwrap();
                file.write_all(b"new version\n").unwrap();
                file
            })
            .collect();
        let dev = std::os::unix::fs::MetadataExt::dev(&std::fs::metadata(&dir).unwrap());
        let written: Vec<Written<'_>> = files.iter().map(|f| (f, dev)).collect();
        let device = Device {
            dev,
            method: Method::Whole,
            first: 0,
            last: Some(2),
        };
        // Both ways run their system calls without an error on this
        // machine's temporary directory, whatever its file system; the
        // whole file system's sync runs here (a system that refused it
        // would answer that the record was not covered).
        let record = File::create(dir.join("record")).unwrap();
        // The whole file system's sync covers the record; each file's
        // own does not.
        assert_eq!(
            sync_whole(&written, &device, 2, true, Some(&record)).ok(),
            Some(true)
        );
        assert_eq!(
            sync_whole(&written, &device, 2, false, Some(&record)).ok(),
            Some(false)
        );
        assert!(durable(&written, None).is_ok());
        assert_eq!(durable(&[], Some(&record)).ok(), Some(false));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_cannot_be_synced_is_named_by_its_index() {
        let dir = std::env::temp_dir().join(format!("filetools-flush-pipe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = File::create(dir.join("f")).unwrap();
        let dev = std::os::unix::fs::MetadataExt::dev(&std::fs::metadata(&dir).unwrap());
        let (reader, _writer) = io::pipe().unwrap();
        let pipe = File::from(std::os::fd::OwnedFd::from(reader));
        let pipe_dev = std::os::unix::fs::MetadataExt::dev(&pipe.metadata().unwrap());
        let failed = durable(&[(&file, dev), (&pipe, pipe_dev)], None).unwrap_err();
        assert!(matches!(failed, Failed::File(1, _)), "{failed:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
