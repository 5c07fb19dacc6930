//! Makes the new versions of a batch durable with one flush per file
//! system, the way git's `core.fsyncMethod = batch` does: each file's data
//! is written out and waited for (`sync_file_range`, which reaches the
//! disk's cache but does not flush it), then one full sync of the last file
//! on each device flushes the cache and commits the journal.
//!
//! That one sync covers the other files only where the file system commits
//! its journal in order, so that the commit a later sync waits for holds
//! every earlier allocation: XFS, and ext4 with a journal. Each file's
//! write-back was started as it was staged, in order, so the last of a
//! device holds its newest blocks; the change's record, written out later,
//! is synced on its own. Elsewhere (ext4 without a journal, btrfs, and off
//! Linux) every file gets its own full sync.

use std::fs::File;
use std::io;
use std::os::fd::AsFd;

/// `statfs` magic numbers: ext2/3/4 (one magic; ordered only with a
/// journal) and XFS (always logged).
#[cfg(any(target_os = "linux", target_os = "android"))]
const EXT_MAGIC: i128 = 0xef53;
#[cfg(any(target_os = "linux", target_os = "android"))]
const XFS_MAGIC: i128 = 0x5846_5342;

/// Syncs `files` (each with its device, in the order they were written out
/// by `sync_file_range`'s start, so that the last of a device holds its
/// newest blocks) so that every one is durable when this returns. An error
/// names the file (by index) whose sync failed.
pub(super) fn durable(files: &[(&File, u64)]) -> Result<(), (usize, io::Error)> {
    // The last file of each device, whose full sync flushes the others of
    // its device with it.
    let mut flush: Vec<(u64, usize)> = Vec::new();
    // Whether each device's file system orders its writes, asked once.
    let mut ordered: Vec<(u64, bool)> = Vec::new();
    for (index, &(file, dev)) in files.iter().enumerate() {
        let known = ordered.iter().find(|(d, _)| *d == dev).map(|&(_, o)| o);
        let orders = known.unwrap_or_else(|| {
            let orders = orders_writes(file, dev);
            ordered.push((dev, orders));
            orders
        });
        if orders && write_out(file).map_err(|err| (index, err))? {
            match flush.iter_mut().find(|(d, _)| *d == dev) {
                Some(last) => last.1 = index,
                None => flush.push((dev, index)),
            }
        } else {
            file.sync_all().map_err(|err| (index, err))?;
        }
    }
    for &(_, index) in &flush {
        files[index].0.sync_all().map_err(|err| (index, err))?;
    }
    Ok(())
}

/// Writes `file`'s data out to the device and waits for it, without the
/// flush of the device's cache. Whether it could (only on Linux).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn write_out(file: &File) -> io::Result<bool> {
    use std::os::fd::AsRawFd as _;
    let flags = libc::SYNC_FILE_RANGE_WAIT_BEFORE
        | libc::SYNC_FILE_RANGE_WRITE
        | libc::SYNC_FILE_RANGE_WAIT_AFTER;
    // SAFETY: a plain system call on a descriptor `file` keeps open; it
    // reads and writes no memory of this process.
    if unsafe { libc::sync_file_range(file.as_raw_fd(), 0, 0, flags) } == 0 {
        Ok(true)
    } else {
        let err = io::Error::last_os_error();
        // A file system without it (ENOSYS, EINVAL) gets a full sync.
        match err.raw_os_error() {
            Some(libc::ENOSYS | libc::EINVAL | libc::ESPIPE) => Ok(false),
            _ => Err(err),
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn write_out(_file: &File) -> io::Result<bool> {
    Ok(false)
}

/// Whether `file` (on device `dev`) lies on a file system whose journal
/// commits in order: XFS, or ext4 with a journal (the kernel lists each
/// journal it runs under `/proc/fs/jbd2`, by the block device's name). An
/// ext4 without one (some virtual machines' disks) syncs only the file it
/// is asked to.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn orders_writes(file: impl AsFd, dev: u64) -> bool {
    let Ok(fs) = rustix::fs::fstatfs(&file) else {
        return false;
    };
    match i128::from(fs.f_type) {
        XFS_MAGIC => true,
        EXT_MAGIC => journalled(dev),
        _ => false,
    }
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

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn orders_writes(_file: impl AsFd, _dev: u64) -> bool {
    false
}

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    use super::*;

    #[test]
    fn a_device_without_a_listed_journal_is_not_taken_as_ordered() {
        assert!(!journal_listed(rustix::fs::makedev(4095, 1_048_575)));
        assert!(!journalled(rustix::fs::makedev(4095, 1_048_574)));
    }
}
