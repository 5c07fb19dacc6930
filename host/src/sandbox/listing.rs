//! A directory's entries, read through the handle the sandbox opened: no
//! second open of `.`, and each file's size and time asked relative to
//! that handle, by its name alone. Directories and symlinks are known by
//! the listing's own type and are not asked about, nor is anything the
//! listing gives a type for when only names and kinds are wanted
//! (`list-names`); a file removed between the listing and that question
//! is left out, as a listing a moment later would leave it out.

use std::ffi::OsStr;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt as _;

use filetools_core::{DirEntry, FileKind, FsError};
use rustix::fs::{AtFlags, FileType, OFlags};
use rustix::io::Errno;

use super::{names, node};
use crate::limits::Deadline;

/// Flags that open a directory to read its entries: a directory or
/// nothing, never a terminal made the host's.
pub(super) fn open_flags() -> i32 {
    i32::try_from((OFlags::DIRECTORY | OFlags::NOCTTY).bits()).unwrap_or(0)
}

/// The entries of the directory `dir`, sorted by name; with `names_only`,
/// a file's size and time are 0 unless the listing gave no type.
pub(super) fn entries(
    dir: impl Into<OwnedFd>,
    deadline: Deadline,
    names_only: bool,
) -> Result<Vec<DirEntry>, FsError> {
    let mut stream = rustix::fs::Dir::new(dir).map_err(errno)?;
    let mut entries = Vec::new();
    while let Some(entry) = stream.read() {
        deadline.check()?;
        let entry = entry.map_err(errno)?;
        let raw = entry.file_name();
        if matches!(raw.to_bytes(), b"." | b"..") {
            continue;
        }
        let name = names::shown(OsStr::from_bytes(raw.to_bytes()));
        let listed = match entry.file_type() {
            FileType::Directory => Some(FileKind::Directory),
            FileType::Symlink => Some(FileKind::Symlink),
            FileType::Unknown => None,
            other if names_only => Some(node::kind_of_mode(other.as_raw_mode())),
            _ => None,
        };
        if let Some(kind) = listed {
            entries.push(DirEntry {
                name,
                kind,
                size: 0,
                mtime_ns: 0,
            });
            continue;
        }
        let stat =
            match rustix::fs::statat(stream.fd().map_err(errno)?, raw, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(stat) => stat,
                Err(Errno::NOENT) => continue,
                Err(err) => return Err(errno(err)),
            };
        let kind = node::kind_of_mode(stat.st_mode);
        let size = if kind == FileKind::File {
            u64::try_from(stat.st_size).unwrap_or(0)
        } else {
            0
        };
        entries.push(DirEntry {
            name,
            kind,
            size,
            mtime_ns: mtime_ns(&stat),
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// The modification time of `stat` in nanoseconds since the Unix epoch
/// (0 before it).
#[allow(
    clippy::useless_conversion,
    reason = "the fields' types differ between the system-call backends"
)]
fn mtime_ns(stat: &rustix::fs::Stat) -> u64 {
    let secs = u64::try_from(stat.st_mtime).unwrap_or(0);
    let nanos = u64::try_from(stat.st_mtime_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

fn errno(err: Errno) -> FsError {
    super::fs_error(err.into())
}
