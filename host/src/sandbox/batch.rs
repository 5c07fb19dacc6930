//! A batch of writes that land together (`batch-begin` and `batch-end` in
//! `wit/host-fs.wit`), made durable the way git's `core.fsyncMethod =
//! batch` makes its objects durable:
//!
//! 1. each write checks its file as far as it can and writes the new
//!    version beside it, under a temporary name, its write-back started
//!    and nothing synced ([`stage`]);
//! 2. the commit makes every new version durable with as few flushes of
//!    the device's cache as the file system allows (see `flush`: one sync
//!    of the last file where the journal commits in order, one sync of the
//!    whole file system and one of the last file on an ext4 without a
//!    journal), a sync of each file elsewhere; the change's record with
//!    them where the whole file system's sync covers it, with a sync of
//!    its own otherwise;
//! 3. each new version is swapped into place (`RENAME_EXCHANGE`) and the
//!    precondition checked on what it displaced, which stays under the
//!    temporary name until every swap is made: a failure swaps back the
//!    ones made, newest first, and nothing has changed;
//! 4. each directory written in is synced once, and the displaced versions
//!    go.
//!
//! A write of a file that did not exist links the new version under its
//! name (which fails if anything took it) and is taken back by removing
//! it, while it is still the new version unwritten. The turn of each
//! directory (see `turn`) is held while its files are put in place.

use std::ffi::OsString;
use std::fs::File;

use cap_std::fs::Dir;
use filetools_core::{FsError, Metadata, Precondition};
use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags};
use rustix::io::Errno;

use super::flush;
use super::node::{self, Identity, Node};
use super::replace::{discard, metadata_from, put_back, swap};
use super::resolve::Target;
use super::temp::{self, Perms, Plan};
use super::{Sandbox, dirlock, fs_error};
use crate::limits::Deadline;

/// Writes a batch holds at most: each keeps two handles open until the
/// commit. A change of more files lands one file at a time.
pub const MAX_BATCH_FILES: usize = 64;

/// The writes of a batch, in the order they were made.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    staged: Vec<Staged>,
}

/// One write of a batch: its new version, written and not yet in place.
#[derive(Debug)]
struct Staged {
    /// The directory of the file, and its device and inode (to take each
    /// directory's turn once, and sync it once).
    dir: Dir,
    dir_id: (u64, u64),
    /// The file's name, and the new version's temporary one.
    name: OsString,
    temp_name: OsString,
    /// The new version, open, and what it is.
    file: File,
    ours: Identity,
    /// What the file must be when the new version takes its place.
    precondition: Precondition,
    /// Whether the file did not exist when the write was made.
    creates: bool,
}

/// The change's record a batch keeps: its file, which the batch's sync of
/// a whole file system may cover, the sync that makes it durable on its
/// own otherwise, and the error that says it could not be kept.
pub(crate) struct Record<'r> {
    pub file: &'r File,
    pub sync: &'r dyn Fn() -> Result<(), FsError>,
    pub failed: fn(&dyn std::fmt::Display) -> FsError,
}

impl std::fmt::Debug for Record<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Record")
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

/// Why a batch did not land: the write that failed (from 0), its error,
/// and the writes in place that could not be put back.
#[derive(Debug)]
pub(crate) struct Failure {
    pub index: usize,
    pub error: FsError,
    pub stuck: Vec<usize>,
}

impl Drop for Batch {
    /// New versions never put in place go (a batch ended without a
    /// commit, or dropped with its call).
    fn drop(&mut self) {
        for staged in &self.staged {
            let _ = rustix::fs::unlinkat(&staged.dir, &staged.temp_name, AtFlags::empty());
        }
    }
}

/// Writes `data` beside `target` for `batch`, after checking as far as it
/// can that `precondition` holds; the new version's metadata.
pub(super) fn stage(
    sandbox: &Sandbox,
    batch: &mut Batch,
    target: Target,
    data: &[u8],
    precondition: &Precondition,
    deadline: Deadline,
) -> Result<Metadata, FsError> {
    // Refused here, the writes land one by one instead (the guest's
    // rule): past the cap, each write's open handles would add up; and a
    // file system that cannot swap two names could not put a batch back.
    if batch.staged.len() >= MAX_BATCH_FILES {
        return Err(FsError::Io(format!(
            "a batch holds at most {MAX_BATCH_FILES} files"
        )));
    }
    let dir_stat = rustix::fs::fstat(&target.parent).map_err(|err| fs_error(err.into()))?;
    if !sandbox.exchanges_on(&target.parent, dir_stat.st_dev) {
        return Err(FsError::Io(
            "this file system cannot swap two names atomically".to_owned(),
        ));
    }
    let name = target.name.as_os_str();
    let before = node::look(&target.parent, name)?;
    node::check_quickly(&before, precondition)?;
    let like = match &before {
        Node::Regular(_, meta) => Some(&**meta),
        Node::Missing => None,
        Node::Other(_) => return Err(FsError::Conflict),
    };
    let plan = Plan {
        target: name,
        perms: like.map_or(Perms::New, Perms::Like),
        named: true,
        synced: false,
    };
    let temp = temp::write(&target.parent, data, plan, deadline)?;
    let Some(temp_name) = temp.name else {
        return Err(FsError::Io("the new file has no name".to_owned()));
    };
    let staged = temp
        .file
        .metadata()
        .map_err(fs_error)
        .map(|written| (Identity::of(&written), metadata_from(sandbox, &written)));
    let (ours, meta) = match staged {
        Ok(found) => found,
        Err(err) => {
            let _ = rustix::fs::unlinkat(&target.parent, &temp_name, AtFlags::empty());
            return Err(err);
        }
    };
    batch.staged.push(Staged {
        dir: target.parent,
        dir_id: (dir_stat.st_dev, dir_stat.st_ino),
        name: target.name,
        temp_name,
        file: temp.file,
        ours,
        precondition: precondition.clone(),
        creates: like.is_none(),
    });
    Ok(meta)
}

/// Lands every write of `batch`, or none (see the module's steps), the
/// change's `record` durable before the first is put in place.
pub(super) fn commit(
    sandbox: &Sandbox,
    mut batch: Batch,
    record: Option<Record<'_>>,
    deadline: Deadline,
) -> Result<(), Failure> {
    let fail = |index, error| Failure {
        index,
        error,
        stuck: Vec::new(),
    };
    let files: Vec<flush::Written<'_>> = batch
        .staged
        .iter()
        .map(|staged| (&staged.file, staged.dir_id.0))
        .collect();
    let covered =
        flush::durable(&files, record.as_ref().map(|r| r.file)).map_err(|failed| match failed {
            flush::Failed::File(index, err) => fail(index, fs_error(err)),
            flush::Failed::Record(err) => match &record {
                Some(record) => fail(0, (record.failed)(&err)),
                None => fail(0, fs_error(err)),
            },
        })?;
    if let Some(record) = record.filter(|_| !covered) {
        (record.sync)().map_err(|err| fail(0, err))?;
    }
    // Every directory's turn, held until the last file is in place or put
    // back; taken in one order (by device and inode), so that two batches
    // never wait for each other.
    let mut dirs: Vec<(u64, u64, usize)> = Vec::new();
    for (index, staged) in batch.staged.iter().enumerate() {
        if !dirs
            .iter()
            .any(|&(dev, ino, _)| (dev, ino) == staged.dir_id)
        {
            dirs.push((staged.dir_id.0, staged.dir_id.1, index));
        }
    }
    dirs.sort_unstable();
    let mut turns = Vec::with_capacity(dirs.len());
    for &(_, _, index) in &dirs {
        match dirlock::lock(sandbox.turns_dir(), &batch.staged[index].dir, deadline) {
            Ok(turn) => turns.push(turn),
            Err(err) => return Err(fail(index, err)),
        }
    }
    let mut placed = 0;
    let mut placing = Ok(());
    for (index, staged) in batch.staged.iter().enumerate() {
        if let Err(err) = place(staged, deadline) {
            placing = Err(fail(index, err));
            break;
        }
        placed += 1;
    }
    if let Err(mut failure) = placing {
        // Put back under the turns, so that no change of another writer
        // lands between a check and a swap back.
        failure.stuck = (0..placed)
            .rev()
            .filter(|&n| !take_back(&batch.staged[n]))
            .collect();
        failure.stuck.reverse();
        // What stays under a temporary name goes: a new version taken back
        // or never placed, or a displaced one something newer superseded.
        drop(turns);
        for staged in batch.staged.drain(..) {
            discard(&staged.dir, &staged.temp_name, &staged.name);
        }
        return Err(failure);
    }
    // Every file is in place: the syncs that follow need no turn.
    drop(turns);
    for &(_, _, index) in &dirs {
        // The new names are in place; their durability is the last step,
        // and a failure here is not one of the writes. (The directory's
        // own handle may be one that cannot be synced.)
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        if let Ok(fd) = rustix::fs::openat(&batch.staged[index].dir, ".", flags, Mode::empty()) {
            let _ = rustix::fs::fsync(&fd);
        }
    }
    for staged in batch.staged.drain(..) {
        discard(&staged.dir, &staged.temp_name, &staged.name);
    }
    Ok(())
}

/// Puts one new version in place while its precondition holds on what it
/// displaces, which stays under the temporary name.
fn place(staged: &Staged, deadline: Deadline) -> Result<(), FsError> {
    let (dir, name, temp_name) = (&staged.dir, &*staged.name, &*staged.temp_name);
    if staged.creates {
        // The name must still be free: a hard link fails where it is not.
        return match rustix::fs::linkat(dir, temp_name, dir, name, AtFlags::empty()) {
            Ok(()) => Ok(()),
            Err(Errno::EXIST) => Err(FsError::Conflict),
            Err(err) => Err(fs_error(err.into())),
        };
    }
    match swap(dir, temp_name, name) {
        Ok(()) => {}
        Err(Errno::NOENT) => return Err(FsError::Conflict),
        Err(err) => return Err(fs_error(err.into())),
    }
    match node::verify(dir, temp_name, &staged.precondition, deadline) {
        Ok(_) => Ok(()),
        Err(refusal) => {
            put_back(dir, name, temp_name, &staged.ours);
            Err(refusal)
        }
    }
}

/// Takes a placed new version back: the displaced version returns, or a
/// created file goes, only while the new version stands there unwritten.
/// Whether it was taken back.
fn take_back(staged: &Staged) -> bool {
    let (dir, name, temp_name) = (&staged.dir, &*staged.name, &*staged.temp_name);
    let unwritten = Identity::at(dir, name).is_some_and(|there| there.unwritten(&staged.ours));
    if !unwritten {
        return false;
    }
    if staged.creates {
        // Moved away first and checked where it arrived, so that a file
        // that took the name meanwhile is never removed: it goes back.
        let taken = temp::fresh_name(name);
        if rustix::fs::renameat_with(dir, name, dir, &taken, RenameFlags::NOREPLACE).is_err() {
            return false;
        }
        if Identity::at(dir, &taken).is_some_and(|there| there.unwritten(&staged.ours)) {
            let _ = rustix::fs::unlinkat(dir, &taken, AtFlags::empty());
            return true;
        }
        // Not the batch's (or written since): it goes back. Should a newer
        // file have taken the name meanwhile, it stays where it is, never
        // removed, and the file counts as not taken back.
        let _ = rustix::fs::renameat_with(dir, &taken, dir, name, RenameFlags::NOREPLACE);
        return false;
    }
    put_back(dir, name, temp_name, &staged.ours);
    !Identity::at(dir, name).is_some_and(|there| there.same_node(&staged.ours))
}

#[cfg(test)]
#[cfg(any(target_os = "linux", target_os = "android"))]
mod tests {
    use std::os::unix::fs::MetadataExt as _;
    use std::path::{Path, PathBuf};

    use filetools_core::{FileStamp, FsError, Precondition, sha256_hex};

    use super::super::{KeptOpen, Sandbox};
    use crate::limits::Deadline;

    fn scratch(label: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("filetools-batch-{label}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(path.join("sub")).unwrap();
        std::fs::write(path.join("a.txt"), "a old\n").unwrap();
        std::fs::write(path.join("sub/b.txt"), "b old\n").unwrap();
        path
    }

    /// The precondition that holds for exactly `bytes`.
    fn holding(bytes: &[u8]) -> Precondition {
        Precondition::Matches(FileStamp {
            size: bytes.len() as u64,
            mtime_ns: 0,
            sha256: Some(sha256_hex(bytes)),
            xxh3: None,
        })
    }

    /// Every name in `root` and `root/sub`, sorted.
    fn names(root: &Path) -> Vec<String> {
        let mut names: Vec<String> = ["", "sub"]
            .iter()
            .flat_map(|dir| std::fs::read_dir(root.join(dir)).unwrap())
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// What a.txt, sub/b.txt and c.txt hold ("-": nothing there).
    fn contents(root: &Path) -> [String; 3] {
        ["a.txt", "sub/b.txt", "c.txt"]
            .map(|name| std::fs::read_to_string(root.join(name)).unwrap_or_else(|_| "-".to_owned()))
    }

    /// Writes a.txt and sub/b.txt over their old versions and creates
    /// c.txt, in one batch of `sandbox`'s, not yet committed.
    fn staged(sandbox: &Sandbox, kept: &KeptOpen) -> super::Batch {
        let bounded = sandbox.for_call(Deadline::NEVER, kept);
        assert!(bounded.batches());
        let mut batch = super::Batch::default();
        for (path, new, precondition) in [
            ("a.txt", "a new\n", holding(b"a old\n")),
            ("sub/b.txt", "b new\n", holding(b"b old\n")),
            ("c.txt", "c new\n", Precondition::Absent),
        ] {
            let meta = bounded
                .stage(&mut batch, path, new.as_bytes(), &precondition)
                .unwrap();
            assert_eq!(meta.size, new.len() as u64);
        }
        batch
    }

    #[test]
    fn a_committed_batch_lands_every_write_and_leaves_no_temporary_file() {
        let root = scratch("lands");
        let (sandbox, kept) = (Sandbox::open(&root, false).unwrap(), KeptOpen::default());
        let batch = staged(&sandbox, &kept);
        // Nothing is in place before the commit.
        assert_eq!(contents(&root), ["a old\n", "b old\n", "-"]);
        sandbox
            .for_call(Deadline::NEVER, &kept)
            .commit(batch, None)
            .unwrap();
        assert_eq!(contents(&root), ["a new\n", "b new\n", "c new\n"]);
        assert_eq!(names(&root), ["a.txt", "b.txt", "c.txt", "sub"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_record_the_batchs_sync_does_not_cover_is_synced_on_its_own_before_any_write_lands() {
        let root = scratch("record");
        let (sandbox, kept) = (Sandbox::open(&root, false).unwrap(), KeptOpen::default());
        // A record on another file system than the batch's, which its
        // sync of a whole file system never covers (where /dev/shm is not
        // one, the record lies beside the files and may be covered).
        let dev = |path: &Path| std::fs::metadata(path).ok().map(|m| m.dev());
        let shm = Path::new("/dev/shm");
        let apart = dev(shm).is_some_and(|d| Some(d) != dev(&root));
        let place = if apart { shm } else { root.as_path() };
        let path = place.join(format!("filetools-batch-record-{}", std::process::id()));
        let file = std::fs::File::create(&path).unwrap();
        let synced = std::cell::RefCell::new(Vec::new());
        let sync = || {
            synced.borrow_mut().push(contents(&root));
            Ok(())
        };
        let record = super::Record {
            file: &file,
            sync: &sync,
            failed: |err| FsError::Io(err.to_string()),
        };
        let batch = staged(&sandbox, &kept);
        sandbox
            .for_call(Deadline::NEVER, &kept)
            .commit(batch, Some(record))
            .unwrap();
        assert_eq!(contents(&root), ["a new\n", "b new\n", "c new\n"]);
        let synced = synced.into_inner();
        // Synced at most once, and only while every file still held its
        // old version; exactly once when the record lay elsewhere.
        assert!(synced.len() <= 1, "{synced:?}");
        assert!(
            synced
                .iter()
                .all(|seen| seen == &["a old\n", "b old\n", "-"])
        );
        if apart {
            assert_eq!(synced.len(), 1);
        }
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_file_changed_before_the_commit_puts_back_every_write_already_made() {
        let root = scratch("conflict");
        let (sandbox, kept) = (Sandbox::open(&root, false).unwrap(), KeptOpen::default());
        let batch = staged(&sandbox, &kept);
        // Another writer changes the second file after its write was made.
        std::fs::write(root.join("sub/b.txt"), "b theirs\n").unwrap();
        let failure = sandbox
            .for_call(Deadline::NEVER, &kept)
            .commit(batch, None)
            .unwrap_err();
        assert_eq!(
            (failure.index, failure.error, failure.stuck),
            (1, FsError::Conflict, Vec::new())
        );
        assert_eq!(contents(&root), ["a old\n", "b theirs\n", "-"]);
        assert_eq!(names(&root), ["a.txt", "b.txt", "sub"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_name_taken_before_the_commit_refuses_the_batch_and_keeps_the_newcomer() {
        let root = scratch("taken");
        let (sandbox, kept) = (Sandbox::open(&root, false).unwrap(), KeptOpen::default());
        let batch = staged(&sandbox, &kept);
        std::fs::write(root.join("c.txt"), "c theirs\n").unwrap();
        let failure = sandbox
            .for_call(Deadline::NEVER, &kept)
            .commit(batch, None)
            .unwrap_err();
        assert_eq!((failure.index, failure.error), (2, FsError::Conflict));
        assert_eq!(contents(&root), ["a old\n", "b old\n", "c theirs\n"]);
        assert_eq!(names(&root), ["a.txt", "b.txt", "c.txt", "sub"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_batch_ended_without_a_commit_leaves_every_file_as_it_was() {
        let root = scratch("dropped");
        let sandbox = Sandbox::open(&root, false).unwrap();
        let kept = KeptOpen::default();
        drop(staged(&sandbox, &kept));
        assert_eq!(contents(&root), ["a old\n", "b old\n", "-"]);
        assert_eq!(names(&root), ["a.txt", "b.txt", "sub"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_batch_refuses_a_write_past_its_cap_and_lands_the_rest() {
        let root = scratch("cap");
        let (sandbox, kept) = (Sandbox::open(&root, false).unwrap(), KeptOpen::default());
        let bounded = sandbox.for_call(Deadline::NEVER, &kept);
        let mut batch = super::Batch::default();
        for n in 0..super::MAX_BATCH_FILES {
            let path = format!("new-{n}.txt");
            bounded
                .stage(&mut batch, &path, b"new\n", &Precondition::Absent)
                .unwrap();
        }
        let refused = bounded.stage(&mut batch, "one-more.txt", b"new\n", &Precondition::Absent);
        assert!(matches!(refused, Err(FsError::Io(_))), "{refused:?}");
        bounded.commit(batch, None).unwrap();
        let written = std::fs::read_dir(&root).unwrap().count();
        // a.txt, sub and every new file; no temporary one.
        assert_eq!(written, 2 + super::MAX_BATCH_FILES);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
