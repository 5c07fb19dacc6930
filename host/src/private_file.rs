//! The host's own files — the precompiled component and its digest, a
//! one-shot command's saved session — written the way the sandbox writes
//! the model's: whole or not at all, and private.
//!
//! [`replace`] writes the new content to a temporary file in the same
//! directory that is the owner's alone (`0600`) from its first byte, syncs
//! it and renames it over the target, so a reader (or a process that maps
//! the file) only ever sees complete files that nobody writes to any more.
//! A writer killed midway leaves no debris on Linux (the temporary file has
//! no name until it is complete); elsewhere its debris is removed by the
//! next write to that directory.
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! let dir = std::env::temp_dir().join(format!("filetools-store-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! filetools::private_file::replace(&dir.join("state.json"), b"{}")?;
//! assert_eq!(std::fs::read(dir.join("state.json"))?, b"{}");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```

use std::ffi::OsStr;
use std::io;
use std::path::Path;

use cap_std::ambient_authority;
use cap_std::fs::Dir;
use filetools_core::FsError;
use rustix::fs::AtFlags;

use crate::limits::Deadline;
use crate::sandbox::temp::{self, Perms, Plan};

/// Replaces (or creates) the file at `path` with `bytes`, atomically, as a
/// file only its owner may read or write.
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (dir, name) = parent_and_name(path)?;
    replace_in(&dir, name, bytes)
}

/// The directory holding `path`, open, and the name of `path` in it.
fn parent_and_name(path: &Path) -> io::Result<(Dir, &OsStr)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other(format!("{} is not a file name", path.display())))?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    Ok((Dir::open_ambient_dir(parent, ambient_authority())?, name))
}

/// [`replace`], the new file locked (`flock`, exclusive) before it takes
/// the path's place; returns it, still locked. Whoever opens the path from
/// then on finds it held: there is no moment between the rename and the
/// lock in which another process could take it (a saved session's file is
/// locked for as long as its server runs, across every save).
pub fn replace_locked(path: &Path, bytes: &[u8]) -> io::Result<std::fs::File> {
    let (dir, name) = parent_and_name(path)?;
    replace_then(&dir, name, bytes, |file| {
        rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive)
            .map_err(io::Error::from)
    })
}

/// [`replace`] for the entry `name` of the open directory `dir`.
pub(crate) fn replace_in(dir: &Dir, name: &OsStr, bytes: &[u8]) -> io::Result<()> {
    replace_then(dir, name, bytes, |_| Ok(())).map(drop)
}

/// Writes `bytes` to a new private file in `dir`, runs `before` on it, and
/// renames it over `name`; returns the new file.
fn replace_then(
    dir: &Dir,
    name: &OsStr,
    bytes: &[u8],
    before: impl FnOnce(&std::fs::File) -> io::Result<()>,
) -> io::Result<std::fs::File> {
    temp::sweep(dir, Deadline::NEVER).map_err(io_error)?;
    let plan = Plan {
        target: name,
        perms: Perms::Private,
        named: true,
        synced: true,
    };
    let temp = temp::write(dir, bytes, plan, Deadline::NEVER).map_err(io_error)?;
    let temp_name = temp
        .name
        .ok_or_else(|| io::Error::other("the new file has no name"))?;
    let renamed = before(&temp.file)
        .and_then(|()| rustix::fs::renameat(dir, &temp_name, dir, name).map_err(io::Error::from));
    if renamed.is_err() {
        let _ = rustix::fs::unlinkat(dir, &temp_name, AtFlags::empty());
    }
    renamed.map(|()| temp.file)
}

fn io_error(err: FsError) -> io::Error {
    match err {
        FsError::NotFound => io::ErrorKind::NotFound.into(),
        FsError::PermissionDenied => io::ErrorKind::PermissionDenied.into(),
        other => io::Error::other(other.to_string()),
    }
}
