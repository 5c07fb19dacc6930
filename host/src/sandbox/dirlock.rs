//! [`DirLock`]: one compare-and-replace at a time per directory among the
//! processes of every host. An exchange puts the new version in place before
//! it checks what it displaced, so for a moment the name holds a version
//! that may yet be swapped back out. Another session that read it then and
//! built its own change on it would, without this lock, land that change —
//! and with it a version that was refused, over one that had landed. Under
//! the lock, the other session's check runs only once the first is settled:
//! it finds that what it read is gone, and is refused.
//!
//! The lock is the directory's turn, which every host honours (see
//! [`super::turn`]; kept in the state directory, so processes of one user
//! take turns), then an exclusive `flock` on the directory, taken through a
//! descriptor of its own (so two sessions of one process exclude each
//! other too, and this host's processes of any user), released when
//! dropped or when the process dies. Writers that
//! do not take it (an editor, a formatter) are caught as before, by the
//! check on what the exchange displaced.

use std::time::{Duration, Instant};

use cap_std::fs::Dir;
use filetools_core::FsError;
use rustix::fd::OwnedFd;
use rustix::fs::{FlockOperation, Mode, OFlags};
use rustix::io::Errno;

use super::fs_error;
use super::turn::{self, Turn};
use crate::limits::Deadline;

/// How long a change waits for another process's change in the same
/// directory before it gives up: each holds the lock for one exchange and
/// one hash of the file it displaced.
pub const MAX_LOCK_WAIT: Duration = Duration::from_secs(10);

/// The directory's lock, held until dropped; `None` where the file system
/// or the directory's permissions give none (the compare-and-replace still
/// guards every change, as it did before the lock).
#[derive(Debug)]
pub(super) struct DirLock<'a> {
    /// The directory's locked descriptor.
    flock: Option<OwnedFd>,
    /// The turn, let go after the lock (fields drop in order).
    _turn: Option<Turn<'a>>,
}

impl Drop for DirLock<'_> {
    fn drop(&mut self) {
        if let Some(fd) = &self.flock {
            let _ = rustix::fs::flock(fd, FlockOperation::Unlock);
        }
    }
}

/// Errors that say the lock cannot be had here at all: a directory that
/// may be written but not read, or a file system without `flock` (NFS
/// emulates it with locks a read-only descriptor cannot take).
fn unlockable(err: Errno) -> bool {
    matches!(
        err,
        Errno::ACCESS | Errno::PERM | Errno::BADF | Errno::NOLCK | Errno::OPNOTSUPP | Errno::NOSYS
    )
}

/// Takes `dir`'s turn (in `turns`, when turns can be kept) and its lock,
/// waiting while another change there holds either (until `deadline`,
/// and at most [`MAX_LOCK_WAIT`] in all).
pub(super) fn lock<'a>(
    turns: Option<&'a Dir>,
    dir: &Dir,
    deadline: Deadline,
) -> Result<DirLock<'a>, FsError> {
    let started = Instant::now();
    let turn = match turns {
        Some(turns) => turn::take(turns, dir, deadline, MAX_LOCK_WAIT)?,
        None => None,
    };
    let unlocked = |turn| DirLock {
        flock: None,
        _turn: turn,
    };
    let fd = match rustix::fs::openat(
        dir,
        ".",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(err) if unlockable(err) => return Ok(unlocked(turn)),
        Err(err) => return Err(fs_error(err.into())),
    };
    loop {
        match rustix::fs::flock(&fd, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {
                return Ok(DirLock {
                    flock: Some(fd),
                    _turn: turn,
                });
            }
            Err(Errno::WOULDBLOCK | Errno::INTR) => {}
            Err(err) if unlockable(err) => return Ok(unlocked(turn)),
            Err(err) => return Err(fs_error(err.into())),
        }
        turn::pause(started, deadline, MAX_LOCK_WAIT)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cap_std::ambient_authority;

    #[test]
    fn a_second_lock_waits_for_the_first_and_gives_up_at_the_deadline() {
        let path = std::env::temp_dir().join(format!("filetools-dirlock-{}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        let dir = Dir::open_ambient_dir(&path, ambient_authority()).unwrap();
        let first = lock(None, &dir, Deadline::NEVER).unwrap();
        let soon = Deadline::at(Instant::now() + Duration::from_millis(20));
        assert!(matches!(lock(None, &dir, soon), Err(FsError::Io(_))));
        drop(first);
        assert!(lock(None, &dir, Deadline::NEVER).is_ok());
        std::fs::remove_dir_all(&path).unwrap();
    }
}
