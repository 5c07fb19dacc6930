//! Compare-and-replace and compare-and-remove: a change lands only over the
//! version the session saw, and never over anything else.
//!
//! **With an atomic exchange** (Linux `renameat2(RENAME_EXCHANGE)`): the new
//! version, complete and synced, is swapped with the target in one step, so
//! the target's name always holds a whole file. What was displaced now lies
//! under a name this host owns, where nobody else writes, and the
//! precondition is checked *on it*: a version that another process wrote at
//! any moment before the swap is caught, never lost. On a mismatch the two
//! are swapped back — unless a newer change has already replaced or
//! rewritten the new version, which then stands, and the displaced, older
//! version goes. A removal first renames the file away (`RENAME_NOREPLACE`)
//! and checks what it took the same way; on a mismatch it is put back.
//!
//! **Without one** (other systems, or a file system that refuses the
//! exchange): the target is checked, then, just before the rename, checked
//! again to be the same unchanged inode. A change landing in the
//! microseconds between that last look and the rename is overwritten: that
//! window is the residue.
//!
//! Either way, a process that opened the old file before the swap and
//! writes to it afterwards writes to the replaced version, as with every
//! replace-by-rename; a new file is created only if nothing took its name
//! meanwhile (a hard link, or `RENAME_NOREPLACE`), and a node that is not a
//! regular file is never replaced or removed.

use std::ffi::OsStr;
use std::fs::File;
use std::os::unix::fs::MetadataExt as _;

use cap_std::fs::Dir;
use filetools_core::{FileKind, FsError, Metadata, Precondition};
use rustix::fs::AtFlags;
use rustix::io::Errno;

use super::node::{self, Identity, Node};
use super::resolve::Target;
use super::temp::{self, Perms, Plan, Temp};
use super::{Sandbox, dirlock, fs_error};
use crate::limits::Deadline;

/// Writes `data` over the target while `precondition` holds; returns the
/// new file's metadata.
pub(super) fn write(
    sandbox: &Sandbox,
    target: &Target,
    data: &[u8],
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<Metadata, FsError> {
    let dir = &target.parent;
    let name = target.name.as_os_str();
    // Fail fast, before writing anything, and learn the mode to keep.
    let before = node::look(dir, name)?;
    node::check_quickly(&before, precondition)?;
    let written = match &before {
        Node::Regular(_, like) => {
            let plan = Plan {
                target: name,
                perms: Perms::Like(like),
                named: true,
                synced: true,
            };
            let temp = temp::write(dir, data, plan, deadline)?;
            replace(sandbox, dir, name, temp, precondition, deadline)?
        }
        Node::Missing => {
            let _lock = dirlock::lock(sandbox.turns_dir(), dir, deadline)?;
            create(dir, name, data, deadline)?
        }
        Node::Other(_) => return Err(FsError::Conflict),
    };
    metadata_of(sandbox, &written)
}

/// Removes the target while `precondition` holds.
pub(super) fn remove(
    sandbox: &Sandbox,
    target: &Target,
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<(), FsError> {
    let dir = &target.parent;
    let name = target.name.as_os_str();
    let before = node::look(dir, name)?;
    if matches!(before, Node::Missing) {
        return Err(FsError::NotFound);
    }
    node::check_quickly(&before, precondition)?;
    drop(before);
    let _lock = dirlock::lock(sandbox.turns_dir(), dir, deadline)?;
    if sandbox.exchange {
        match take_away(dir, name, precondition, deadline) {
            Err(Unsupported) => {}
            Ok(done) => return done,
        }
    }
    // Check, then check right before removing that it is the node checked.
    let checked = node::verify(dir, name, precondition, deadline)?;
    if checked.is_none() {
        return Err(FsError::NotFound);
    }
    if Identity::at(dir, name) != checked {
        return Err(FsError::Conflict);
    }
    unlink(dir, name)
}

/// Moves `from` to the free name `to` while `precondition` holds on what
/// moves. With `RENAME_NOREPLACE` the node is checked where it arrived and
/// moved back on a mismatch; otherwise it is checked, then checked again to
/// be the same node, just before the move.
pub(super) fn rename(
    sandbox: &Sandbox,
    from: &Target,
    to: &Target,
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<(), FsError> {
    let (source, destination) = (from.name.as_os_str(), to.name.as_os_str());
    let before = node::look(&from.parent, source)?;
    match (&before, precondition) {
        (Node::Missing, _) => return Err(FsError::NotFound),
        (Node::Other(FileKind::Directory), Precondition::Any) => {}
        (Node::Other(_), _) => return Err(FsError::Conflict),
        (Node::Regular(..), _) => node::check_quickly(&before, precondition)?,
    }
    let regular = matches!(before, Node::Regular(..));
    drop(before);
    let _lock = dirlock::lock(sandbox.turns_dir(), &from.parent, deadline)?;
    if !matches!(node::look(&to.parent, destination)?, Node::Missing) {
        return Err(FsError::Conflict);
    }
    if regular && sandbox.exchange {
        match move_free(&from.parent, source, &to.parent, destination) {
            Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {}
            Err(err) => return Err(moved_error(err)),
            Ok(()) => {
                let verdict = node::verify(&to.parent, destination, precondition, deadline);
                if verdict.is_err() {
                    let _ = move_free(&to.parent, destination, &from.parent, source);
                }
                return verdict.map(|_| ());
            }
        }
    }
    if regular {
        let checked = node::verify(&from.parent, source, precondition, deadline)?;
        if checked.is_none() {
            return Err(FsError::NotFound);
        }
        if Identity::at(&from.parent, source) != checked {
            return Err(FsError::Conflict);
        }
    }
    move_portably(&from.parent, source, &to.parent, destination).map_err(moved_error)
}

/// A rename's failure as `host-fs` names it: a taken name is a conflict.
fn moved_error(err: Errno) -> FsError {
    if err == Errno::EXIST || err == Errno::NOTEMPTY {
        FsError::Conflict
    } else {
        fs_error(err.into())
    }
}

/// Renames without ever replacing, in one step.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn move_free(dir: &Dir, name: &OsStr, to_dir: &Dir, to: &OsStr) -> Result<(), Errno> {
    rustix::fs::renameat_with(dir, name, to_dir, to, rustix::fs::RenameFlags::NOREPLACE)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn move_free(_dir: &Dir, _name: &OsStr, _to_dir: &Dir, _to: &OsStr) -> Result<(), Errno> {
    Err(Errno::NOSYS)
}

/// Renames without replacing where the system can, else after looking that
/// the name is free.
fn move_portably(dir: &Dir, name: &OsStr, to_dir: &Dir, to: &OsStr) -> Result<(), Errno> {
    match move_free(dir, name, to_dir, to) {
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {}
        other => return other,
    }
    if to_dir.symlink_metadata(to).is_ok() {
        return Err(Errno::EXIST);
    }
    rustix::fs::renameat(dir, name, to_dir, to)
}

/// The system or file system has no atomic exchange.
#[derive(Debug)]
struct Unsupported;

/// Creates `name` with `data`, only if nothing has that name.
fn create(dir: &Dir, name: &OsStr, data: &[u8], deadline: Deadline) -> Result<File, FsError> {
    let plan = Plan {
        target: name,
        perms: Perms::New,
        named: false,
        synced: true,
    };
    let temp = temp::write(dir, data, plan, deadline)?;
    if temp.name.is_some() {
        return place_new(dir, name, temp);
    }
    if temp::link_as(dir, &temp.file, name)? {
        return Ok(temp.file);
    }
    // The system cannot link an unnamed file: write a named one.
    let plan = Plan {
        named: true,
        ..plan
    };
    place_new(dir, name, temp::write(dir, data, plan, deadline)?)
}

/// Gives the named `temp` the free name `name` — a hard link, which fails
/// when the name is taken — then drops the temporary name.
fn place_new(dir: &Dir, name: &OsStr, temp: Temp) -> Result<File, FsError> {
    let Some(temp_name) = temp.name else {
        return Err(FsError::Io("the new file has no name".to_owned()));
    };
    let linked = rustix::fs::linkat(dir, &temp_name, dir, name, AtFlags::empty());
    let _ = rustix::fs::unlinkat(dir, &temp_name, AtFlags::empty());
    match linked {
        Ok(()) => Ok(temp.file),
        Err(Errno::EXIST) => Err(FsError::Conflict),
        Err(err) => Err(fs_error(err.into())),
    }
}

/// Puts the named `temp` in the place of `name` while `precondition` holds
/// for what it displaces. Whatever is left under the temporary name after a
/// refusal is the new version or an older, superseded one: it goes.
fn replace(
    sandbox: &Sandbox,
    dir: &Dir,
    name: &OsStr,
    temp: Temp,
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<File, FsError> {
    let Some(temp_name) = temp.name.as_deref() else {
        return Err(FsError::Io("the new file has no name".to_owned()));
    };
    let ours = Identity::of(&temp.file.metadata().map_err(fs_error)?);
    let outcome = match dirlock::lock(sandbox.turns_dir(), dir, deadline) {
        Err(err) => Err(err),
        Ok(_lock) if sandbox.exchange => {
            match exchange(dir, name, temp_name, &ours, precondition, deadline) {
                Err(Unsupported) => reverify(dir, name, temp_name, precondition, deadline),
                Ok(outcome) => outcome,
            }
        }
        Ok(_lock) => reverify(dir, name, temp_name, precondition, deadline),
    };
    // On success this is the displaced version, checked; else see above.
    discard(dir, temp_name, name);
    outcome.map(|()| temp.file)
}

/// Swaps the new version (`ours`, under `temp_name`) with `name`, checks
/// what it displaced, and swaps back when that is not the version the
/// precondition names. The displaced version is left under `temp_name`.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn exchange(
    dir: &Dir,
    name: &OsStr,
    temp_name: &OsStr,
    ours: &Identity,
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<Result<(), FsError>, Unsupported> {
    match swap(dir, temp_name, name) {
        Ok(()) => {}
        Err(Errno::NOENT) => return Ok(Err(FsError::Conflict)),
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => return Err(Unsupported),
        Err(err) => return Ok(Err(fs_error(err.into()))),
    }
    match node::verify(dir, temp_name, precondition, deadline) {
        Ok(_) => Ok(Ok(())),
        Err(refusal) => {
            put_back(dir, name, temp_name, ours);
            Ok(Err(refusal))
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn exchange(
    _dir: &Dir,
    _name: &OsStr,
    _temp_name: &OsStr,
    _ours: &Identity,
    _precondition: &Precondition,
    _deadline: Deadline,
) -> Result<Result<(), FsError>, Unsupported> {
    Err(Unsupported)
}

/// After a refused exchange: returns the displaced version to `name` while
/// the new one (`ours`) stands there unwritten. If something newer replaced
/// or rewrote it meanwhile, that stands, and the displaced version, older,
/// stays under the temporary name.
pub(super) fn put_back(dir: &Dir, name: &OsStr, temp_name: &OsStr, ours: &Identity) {
    if !Identity::at(dir, name).is_some_and(|there| there.unwritten(ours))
        || swap(dir, temp_name, name).is_err()
    {
        return;
    }
    // Between that look and the swap, a newer version may have taken `name`:
    // it came back under the temporary name, and goes back again.
    if Identity::at(dir, temp_name).is_some_and(|there| !there.same_node(ours)) {
        let _ = swap(dir, temp_name, name);
    }
}

/// Checks `name`, then renames the new version over it if it is still the
/// same, unwritten inode: the portable replace, with a window of a few
/// microseconds between the last look and the rename.
fn reverify(
    dir: &Dir,
    name: &OsStr,
    temp_name: &OsStr,
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<(), FsError> {
    let checked = node::verify(dir, name, precondition, deadline)?;
    if checked.is_none() {
        // Gone since the first look, and that was allowed: create it, only
        // if the name is still free.
        return match rustix::fs::linkat(dir, temp_name, dir, name, AtFlags::empty()) {
            Ok(()) => Ok(()),
            Err(Errno::EXIST) => Err(FsError::Conflict),
            Err(err) => Err(fs_error(err.into())),
        };
    }
    if Identity::at(dir, name) != checked {
        return Err(FsError::Conflict);
    }
    rustix::fs::renameat(dir, temp_name, dir, name).map_err(|err| fs_error(err.into()))
}

/// Renames `name` away under a temporary name, checks what it took, and
/// removes that or puts it back.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn take_away(
    dir: &Dir,
    name: &OsStr,
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<Result<(), FsError>, Unsupported> {
    use rustix::fs::RenameFlags;
    let taken = temp::fresh_name(name);
    match rustix::fs::renameat_with(dir, name, dir, &taken, RenameFlags::NOREPLACE) {
        Ok(()) => {}
        Err(Errno::NOENT) => return Ok(Err(FsError::NotFound)),
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => return Err(Unsupported),
        Err(err) => return Ok(Err(fs_error(err.into()))),
    }
    let verdict = node::verify(dir, &taken, precondition, deadline);
    // Back where it was, unless a newer file took the name meanwhile; what
    // stays under the temporary name goes.
    if verdict.is_err() {
        let _ = rustix::fs::renameat_with(dir, &taken, dir, name, RenameFlags::NOREPLACE);
    }
    discard(dir, &taken, name);
    Ok(verdict.map(|_| ()))
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn take_away(
    _dir: &Dir,
    _name: &OsStr,
    _precondition: &Precondition,
    _deadline: Deadline,
) -> Result<Result<(), FsError>, Unsupported> {
    Err(Unsupported)
}

/// Removes what is left under this host's temporary name `temp_name`: a
/// regular file only. Anything else came from outside in a race (a FIFO, a
/// device, a directory renamed in): it goes back to `name` when that name
/// is free, and otherwise stays where it is — never removed.
pub(super) fn discard(dir: &Dir, temp_name: &OsStr, name: &OsStr) {
    match dir.symlink_metadata(temp_name) {
        Ok(meta) if meta.is_file() => {
            let _ = rustix::fs::unlinkat(dir, temp_name, AtFlags::empty());
        }
        Ok(_) => {
            let _ = move_free(dir, temp_name, dir, name);
        }
        Err(_) => {}
    }
}

/// Exchanges the entries `a` and `b` of `dir` atomically.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn swap(dir: &Dir, a: &OsStr, b: &OsStr) -> Result<(), Errno> {
    rustix::fs::renameat_with(dir, a, dir, b, rustix::fs::RenameFlags::EXCHANGE)
}

/// Elsewhere there is no atomic exchange (nor a batch, which needs one).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) fn swap(_dir: &Dir, _a: &OsStr, _b: &OsStr) -> Result<(), Errno> {
    Err(Errno::NOSYS)
}

fn unlink(dir: &Dir, name: &OsStr) -> Result<(), FsError> {
    rustix::fs::unlinkat(dir, name, AtFlags::empty()).map_err(|err| fs_error(err.into()))
}

/// The metadata of the file now in place, from its own handle.
pub(super) fn metadata_of(sandbox: &Sandbox, file: &File) -> Result<Metadata, FsError> {
    let meta = file.metadata().map_err(fs_error)?;
    Ok(metadata_from(sandbox, &meta))
}

/// The `host-fs` metadata of a file `meta` describes.
pub(super) fn metadata_from(sandbox: &Sandbox, meta: &std::fs::Metadata) -> Metadata {
    Metadata {
        kind: FileKind::File,
        size: meta.len(),
        mtime_ns: node::mtime_ns(meta),
        readonly: sandbox.read_only || meta.mode() & 0o222 == 0,
        // A file system without birth times gives the modification time.
        created_ns: meta
            .created()
            .map_or_else(|_| node::mtime_ns(meta), node::since_epoch),
        accessed_ns: node::atime_ns(meta),
        mode: meta.mode() & 0o7777,
    }
}
