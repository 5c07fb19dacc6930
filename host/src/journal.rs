//! Where the intent records of changes of several files are kept
//! (`begin-change`, `end-change` and `claim-unfinished` of `host-fs`).
//!
//! For a root directory the records are files in a private directory
//! outside the workspace — `changes/KEY` under `$FILETOOLS_STATE_DIR`, or
//! `$XDG_STATE_HOME/filetools` (`~/.local/state/filetools`), with the
//! fallbacks of [`crate::private_dir`] — where `KEY` is drawn from the
//! root's canonical path, so every process serving that root finds them.
//! Each record is written whole and synced, and its file synced into the
//! directory, before the guest makes its first step.
//!
//! Every host keeps them the same way, so a change cut off in one is put
//! back by the next process on that root, whichever host it runs: a name
//! is `NANOS-PID-START-TOKEN-N.change`, made when the change began, by the
//! process its middle part names (see [`crate::owner`]). A record is
//! claimed when no live call holds it: one this process made whose call
//! let it go, or one whose process has ended — that one is first renamed
//! to this process's name, so that exactly one claimer gets it and every
//! host sees it held again. This host also holds an exclusive `flock` on
//! each record it holds, as earlier versions did (their names,
//! `NANOS-PID-N`, are claimed by the lock alone); one whose file was
//! removed while waiting is skipped. For a file system the program gave,
//! or when no private directory can be had, the records live in this
//! process's memory: they outlive a trapped call, not the process.

use std::ffi::OsString;
use std::fs::File;
use std::io::{Read as _, Write as _};
use std::os::fd::OwnedFd;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use cap_std::fs::Dir;
use filetools_core::FsError;
use filetools_core::sha256_hex;
use rustix::fs::{AtFlags, FlockOperation, Mode, OFlags};
use rustix::io::Errno;

use crate::owner::Owner;
use crate::private_dir;

/// Hex digits of the root's digest in its directory's name.
const ROOT_KEY_HEX_DIGITS: usize = 32;

/// What a record file's name ends with.
const RECORD_SUFFIX: &str = ".change";

/// What a record being written is named with, until it is whole and
/// locked: a claim never takes it.
const WRITING_SUFFIX: &str = ".writing";

/// Records kept in memory at most; past that, `begin` fails (a process
/// whose calls keep trapping mid-change).
const MAX_MEMORY_RECORDS: usize = 64;

/// Names records uniquely within the process.
static NEXT_RECORD: AtomicU64 = AtomicU64::new(0);

/// The records of one root (or one plugged-in file system).
#[derive(Debug)]
pub(crate) enum Journal {
    /// Files in the private directory `changes`, under the root's key.
    Files {
        /// `changes`, opened.
        changes: Dir,
        /// The root's subdirectory name.
        key: String,
    },
    /// Records in memory: `(id, held, record)`.
    Memory(Mutex<Vec<(u64, bool, Vec<u8>)>>),
}

/// A record the current call holds.
#[derive(Debug)]
pub(crate) enum Held {
    /// A record file, locked.
    File {
        /// The journal.
        journal: Arc<Journal>,
        /// The root's subdirectory.
        dir: OwnedFd,
        /// The file's name there.
        name: OsString,
        /// The open, locked file: closing it lets go.
        file: File,
    },
    /// A record in memory; dropped unended, it is let go.
    Memory {
        /// The journal.
        journal: Arc<Journal>,
        /// The record's id.
        id: u64,
    },
}

impl Journal {
    /// The records of `root`, in the state directory `explicit` names or
    /// the first default that is private; in memory when none is, with
    /// the reason.
    pub fn for_root(explicit: Option<&Path>, root: &Path) -> (Self, Option<String>) {
        match private_dir::open_first(&private_dir::STATE, explicit, "changes", root) {
            Ok(changes) => {
                let key = sha256_hex(root.as_os_str().as_encoded_bytes());
                let key = key[..ROOT_KEY_HEX_DIGITS].to_owned();
                (Self::Files { changes, key }, None)
            }
            Err((base, why)) => (
                Self::memory(),
                Some(format!(
                    "the records of changes under way are kept in memory, not in {}: {why}; a change of several files cut off by a kill is then not put back by the next process. Set FILETOOLS_STATE_DIR to a private directory outside the workspace",
                    base.display()
                )),
            ),
        }
    }

    /// Records in this process's memory.
    pub fn memory() -> Self {
        Self::Memory(Mutex::new(Vec::new()))
    }

    /// Keeps `record`, written and synced, held by the caller.
    pub fn begin(self: &Arc<Self>, record: &[u8]) -> Result<Held, FsError> {
        self.begin_with(record, true)
    }

    /// Keeps `record` written, held by the caller, its sync left to
    /// [`Held::sync`] or to a batch of writes whose sync of their whole
    /// file system covers it, before any of them is put in place.
    pub fn begin_unsynced(self: &Arc<Self>, record: &[u8]) -> Result<Held, FsError> {
        self.begin_with(record, false)
    }

    fn begin_with(self: &Arc<Self>, record: &[u8], synced: bool) -> Result<Held, FsError> {
        match &**self {
            Journal::Files { changes, key } => {
                let name = record_name(RECORD_SUFFIX);
                let writing = record_name(WRITING_SUFFIX);
                let flags = OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY | OFlags::CLOEXEC;
                let mut opened = None;
                // The directory goes when its last record ends: one that
                // another process removed between its opening and the
                // record's creation is made again.
                for _ in 0..2 {
                    let dir = open_root_dir(changes, key, true)
                        .map_err(|err| kept_error(&err))?
                        .ok_or_else(|| kept_error(&Errno::NOENT))?;
                    match rustix::fs::openat(&dir, &writing, flags, Mode::from_raw_mode(0o600)) {
                        Err(Errno::NOENT) => {}
                        fd => {
                            opened = Some((dir, fd.map_err(|err| kept_error(&err))?));
                            break;
                        }
                    }
                }
                let (dir, fd) = opened.ok_or_else(|| kept_error(&Errno::NOENT))?;
                let mut file = File::from(fd);
                // Locked and whole before it takes a name a claim looks at.
                let written = rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive)
                    .map_err(std::io::Error::from)
                    .and_then(|()| file.write_all(record))
                    .and_then(|()| if synced { file.sync_all() } else { Ok(()) })
                    .and_then(|()| {
                        rustix::fs::renameat(&dir, &writing, &dir, &name).map_err(Into::into)
                    })
                    .and_then(|()| {
                        if synced {
                            rustix::fs::fsync(&dir).map_err(Into::into)
                        } else {
                            Ok(())
                        }
                    });
                if let Err(err) = written {
                    let _ = rustix::fs::unlinkat(&dir, &writing, AtFlags::empty());
                    return Err(kept_error(&err));
                }
                Ok(Held::File {
                    journal: Arc::clone(self),
                    dir,
                    name,
                    file,
                })
            }
            Journal::Memory(records) => {
                let mut records = lock(records)?;
                if records.len() >= MAX_MEMORY_RECORDS {
                    return Err(FsError::Io(
                        "too many changes cut off in this process are waiting to be put back; no file was changed".to_owned(),
                    ));
                }
                let id = NEXT_RECORD.fetch_add(1, Ordering::Relaxed);
                records.push((id, true, record.to_vec()));
                Ok(Held::Memory {
                    journal: Arc::clone(self),
                    id,
                })
            }
        }
    }

    /// A record no live call holds, now held by the caller, oldest first.
    pub fn claim(self: &Arc<Self>) -> Result<Option<(Held, Vec<u8>)>, FsError> {
        match &**self {
            Journal::Files { changes, key } => {
                let Some(dir) = open_root_dir(changes, key, false).map_err(fs_error)? else {
                    return Ok(None);
                };
                let (records, writing) = record_names(&dir).map_err(fs_error)?;
                // A record a kill cut off while it was written was never
                // acted on: it goes once nobody holds it.
                for name in writing {
                    if claimable(&name).is_some() && take(&dir, &name).is_some() {
                        let _ = rustix::fs::unlinkat(&dir, &name, AtFlags::empty());
                    }
                }
                for name in records {
                    let Some(claim) = claimable(&name) else {
                        continue;
                    };
                    let Some((file, record)) = take(&dir, &name) else {
                        continue;
                    };
                    let name = match claim {
                        Claim::InPlace => name,
                        Claim::Adopt => match adopt(&dir, &name) {
                            Some(adopted) => adopted,
                            None => continue,
                        },
                    };
                    let held = Held::File {
                        journal: Arc::clone(self),
                        dir,
                        name,
                        file,
                    };
                    return Ok(Some((held, record)));
                }
                Ok(None)
            }
            Journal::Memory(records) => {
                let mut records = lock(records)?;
                let Some(found) = records.iter_mut().find(|(_, held, _)| !held) else {
                    return Ok(None);
                };
                found.1 = true;
                let (id, record) = (found.0, found.2.clone());
                Ok(Some((
                    Held::Memory {
                        journal: Arc::clone(self),
                        id,
                    },
                    record,
                )))
            }
        }
    }
}

impl Held {
    /// The file of a record kept on disk, for a sync that covers it with
    /// others (see [`Held::sync`] for its own).
    pub fn file(&self) -> Option<&File> {
        match self {
            Held::File { file, .. } => Some(file),
            Held::Memory { .. } => None,
        }
    }

    /// Makes a record kept by [`Journal::begin_unsynced`] durable: the
    /// file, then its name.
    pub fn sync(&self) -> Result<(), FsError> {
        match self {
            Held::File { dir, file, .. } => file
                .sync_all()
                .map_err(|err| kept_error(&err))
                .and_then(|()| rustix::fs::fsync(dir).map_err(|err| kept_error(&err))),
            Held::Memory { .. } => Ok(()),
        }
    }

    /// The change is over: the record goes.
    pub fn end(self) -> Result<(), FsError> {
        match &self {
            Held::File {
                journal, dir, name, ..
            } => {
                rustix::fs::unlinkat(dir, name, AtFlags::empty()).map_err(fs_error)?;
                // The root's directory goes with its last record; one that
                // still holds another stays (the removal fails).
                if let Journal::Files { changes, key } = &**journal {
                    let _ = rustix::fs::unlinkat(changes, key.as_str(), AtFlags::REMOVEDIR);
                }
                Ok(())
            }
            Held::Memory { journal, id } => {
                if let Journal::Memory(records) = &**journal {
                    lock(records)?.retain(|(other, _, _)| other != id);
                }
                Ok(())
            }
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Held::Memory { journal, id } = self
            && let Journal::Memory(records) = &**journal
            && let Ok(mut records) = records.lock()
            && let Some(found) = records.iter_mut().find(|(other, _, _)| other == id)
        {
            found.1 = false;
        }
    }
}

/// The root's record directory, created (`0700`) when `create` says so;
/// `None` when it does not exist.
fn open_root_dir(changes: &Dir, key: &str, create: bool) -> Result<Option<OwnedFd>, Errno> {
    if create {
        match rustix::fs::mkdirat(changes, key, Mode::from_raw_mode(0o700)) {
            Ok(()) | Err(Errno::EXIST) => {}
            Err(err) => return Err(err),
        }
    }
    let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat(changes, key, flags, Mode::empty()) {
        Ok(dir) => Ok(Some(dir)),
        Err(Errno::NOENT) => Ok(None),
        Err(err) => Err(err),
    }
}

/// The record files in `dir`, oldest first (their names start with the
/// time they were made), and those still being written.
fn record_names(dir: &OwnedFd) -> Result<(Vec<OsString>, Vec<OsString>), Errno> {
    let (mut records, mut writing) = (Vec::new(), Vec::new());
    let listing = rustix::fs::Dir::read_from(dir)?;
    for entry in listing {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        let owned = || OsString::from(String::from_utf8_lossy(name).into_owned());
        if name.ends_with(RECORD_SUFFIX.as_bytes()) {
            records.push(owned());
        } else if name.ends_with(WRITING_SUFFIX.as_bytes()) {
            writing.push(owned());
        }
    }
    records.sort();
    Ok((records, writing))
}

/// The record `name` with its lock, when no live call holds it and it is
/// still there once locked.
fn take(dir: &OwnedFd, name: &OsString) -> Option<(File, Vec<u8>)> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut file = File::from(rustix::fs::openat(dir, name, flags, Mode::empty()).ok()?);
    rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive).ok()?;
    // Its call may have ended it between the open and the lock.
    if rustix::fs::fstat(&file).ok()?.st_nlink == 0 {
        return None;
    }
    let mut record = Vec::new();
    file.read_to_end(&mut record).ok()?;
    Some((file, record))
}

/// A fresh record name ending in `suffix`: the time, this process and a
/// counter.
fn record_name(suffix: &str) -> OsString {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    named(&format!("{nanos:020}"), suffix)
}

/// The name of a record made at `nanos` (its first part) held by this
/// process, ending in `suffix`.
fn named(nanos: &str, suffix: &str) -> OsString {
    let n = NEXT_RECORD.fetch_add(1, Ordering::Relaxed);
    OsString::from(format!("{nanos}-{}-{n}{suffix}", Owner::this()))
}

/// How a record may be claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claim {
    /// As it is named, once locked: this process made it (or an earlier
    /// version, which named no start time), and its lock decides.
    InPlace,
    /// Renamed to this process's name first: its process has ended.
    Adopt,
}

/// Whether the record (or record being written) `name` may be claimed,
/// and how; `None` while the process that made it runs.
fn claimable(name: &OsString) -> Option<Claim> {
    let name = name.to_str()?;
    let body = name
        .strip_suffix(RECORD_SUFFIX)
        .or_else(|| name.strip_suffix(WRITING_SUFFIX))?;
    let (nanos, rest) = body.split_once('-')?;
    let Some(owner) = rest
        .rsplit_once('-')
        .and_then(|(owner, _)| Owner::parse(owner))
    else {
        // `NANOS-PID-N`: an earlier version's name.
        return (!nanos.is_empty()).then_some(Claim::InPlace);
    };
    if owner.is_this() {
        Some(Claim::InPlace)
    } else if owner.gone() {
        Some(Claim::Adopt)
    } else {
        None
    }
}

/// Renames the record `name`, made by a process that ended, to this
/// process's name; `None` when another claimer renamed it first.
fn adopt(dir: &OwnedFd, name: &OsString) -> Option<OsString> {
    let nanos = name.to_str()?.split_once('-')?.0;
    let adopted = named(nanos, RECORD_SUFFIX);
    rustix::fs::renameat(dir, name, dir, &adopted).ok()?;
    Some(adopted)
}

/// The error of a record that could not be kept: the guest then changes
/// nothing.
pub(crate) fn kept_error(err: &dyn std::fmt::Display) -> FsError {
    FsError::Io(format!(
        "the record that makes a change of several files all-or-none could not be kept ({err}); no file was changed. Change the files one at a time instead"
    ))
}

fn fs_error(err: Errno) -> FsError {
    FsError::Io(std::io::Error::from(err).to_string())
}

fn lock<T>(mutex: &Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>, FsError> {
    mutex
        .lock()
        .map_err(|_| FsError::Io("the change records' lock is poisoned".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary one.
    fn scratch(label: &str) -> std::path::PathBuf {
        let n = NEXT_RECORD.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "filetools-journal-{label}-{}-{n}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir.canonicalize().unwrap()
    }

    fn journals() -> Vec<Arc<Journal>> {
        let (state, root) = (scratch("state"), scratch("root"));
        let (files, refusal) = Journal::for_root(Some(&state), &root);
        assert_eq!(refusal, None);
        assert!(matches!(files, Journal::Files { .. }));
        vec![Arc::new(files), Arc::new(Journal::memory())]
    }

    #[test]
    fn a_record_held_is_not_claimed_and_one_let_go_is() {
        let journals = journals();
        for journal in journals {
            let held = journal.begin(b"record one").unwrap();
            assert!(journal.claim().unwrap().is_none());
            drop(held);
            let (claimed, record) = journal.claim().unwrap().unwrap();
            assert_eq!(record, b"record one");
            assert!(journal.claim().unwrap().is_none());
            claimed.end().unwrap();
            assert!(journal.claim().unwrap().is_none());
        }
    }

    #[test]
    fn an_ended_record_is_gone() {
        let journals = journals();
        for journal in journals {
            journal.begin(b"done").unwrap().end().unwrap();
            assert!(journal.claim().unwrap().is_none());
        }
    }

    #[test]
    fn the_roots_directory_goes_with_its_last_record() {
        let (state, root) = (scratch("state"), scratch("root"));
        let journal = Arc::new(Journal::for_root(Some(&state), &root).0);
        let entries = || std::fs::read_dir(state.join("changes")).unwrap().count();
        let first = journal.begin(b"one").unwrap();
        let second = journal.begin(b"two").unwrap();
        first.end().unwrap();
        assert_eq!(entries(), 1, "a record is left: its directory stays");
        second.end().unwrap();
        assert_eq!(entries(), 0);
        // And the next change makes it again.
        journal.begin(b"three").unwrap().end().unwrap();
        assert_eq!(entries(), 0);
    }

    /// Writes a record as another process named by `owner` would have.
    fn record_of(journal: &Journal, owner: &str, record: &[u8]) -> std::path::PathBuf {
        let Journal::Files { changes, key } = journal else {
            panic!("a journal in memory")
        };
        changes.create_dir_all(key).unwrap();
        let name = format!("{:020}-{owner}-0{RECORD_SUFFIX}", 1);
        changes.write(format!("{key}/{name}"), record).unwrap();
        std::path::PathBuf::from(key).join(name)
    }

    #[test]
    fn a_record_of_a_running_process_of_another_host_is_left_and_one_of_an_ended_process_is_taken_over()
     {
        let (state, root) = (scratch("state"), scratch("root"));
        let journal = Arc::new(Journal::for_root(Some(&state), &root).0);
        // A process that runs but holds no lock: the npm host, say.
        let parent = std::os::unix::process::parent_id();
        let running = record_of(&journal, &format!("{parent}-0-0000abcd"), b"running");
        assert!(journal.claim().unwrap().is_none());
        std::fs::remove_file(state.join("changes").join(&running)).unwrap();
        let ended = record_of(&journal, "1073741824-5-0000abcd", b"ended");
        let (held, record) = journal.claim().unwrap().unwrap();
        assert_eq!(record, b"ended");
        let Held::File { name, .. } = &held else {
            panic!("a record in memory")
        };
        // Renamed to this process's name: held, for every host.
        assert!(!state.join("changes").join(&ended).exists());
        assert!(name.to_str().unwrap().contains(&Owner::this().to_string()));
        assert!(journal.claim().unwrap().is_none());
        held.end().unwrap();
        assert!(journal.claim().unwrap().is_none());
    }

    #[test]
    fn a_state_directory_inside_the_root_is_refused() {
        let root = scratch("inside");
        let (journal, refusal) = Journal::for_root(Some(&root.join("state")), &root);
        assert!(matches!(journal, Journal::Memory(_)));
        assert!(refusal.unwrap().contains("inside the workspace root"));
    }
}
