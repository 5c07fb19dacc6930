//! The new version of a file before it takes the target's place.
//!
//! - **Never wider than the target.** The temporary file is created with the
//!   target's mode (owner and group kept where the host may set them) before
//!   its first byte is written, so a 0600 file's new content is never
//!   readable by others, not even for a moment.
//! - **Little debris.** A new file's content is written, on Linux, to an
//!   unnamed file (`O_TMPFILE`) linked under its name only once complete;
//!   a writer killed meanwhile leaves nothing. A replacement's is written
//!   under its temporary name from the first byte (a link later would cost
//!   the link and the file system's orphan bookkeeping), as everything is
//!   where the file system has no unnamed files.
//! - **Debris of others is cleared.** Names are `.NAME.filetools-PID-TOKEN-N.tmp`
//!   (`TOKEN` is random per process, so a later process that gets the same
//!   process id knows the name is not its own). [`sweep`] removes such files
//!   whose writer is no longer running, in a directory about to be written.
//!
//! ```text
//! .main.rs.filetools-4242-9f3ab1c2-0.tmp
//! ```

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write as _};
use std::os::fd::AsFd as _;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::MetadataExt as _;
use std::sync::atomic::{AtomicU64, Ordering};

use cap_std::fs::Dir;
use filetools_core::FsError;
use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

use super::fs_error;
use crate::limits::Deadline;
use crate::owner::{running, token};

/// Bytes written per step; the deadline is checked between.
const WRITE_PIECE_BYTES: usize = 1024 * 1024;

/// Bytes of the target's name kept in a temporary name (a name has at most
/// 255 bytes, and the suffix needs room).
const NAME_HINT_BYTES: usize = 100;

/// What every temporary name carries after the target's name.
const MARKER: &str = ".filetools-";

/// What every temporary name ends with.
const SUFFIX: &str = ".tmp";

/// Names tried before giving up on finding a free one.
const NAME_ATTEMPTS: u32 = 16;

/// Mode of a new file before the umask, as for any file a program creates.
const NEW_FILE_MODE: u32 = 0o666;

/// Mode of the host's own files: the owner's alone.
const PRIVATE_MODE: u32 = 0o600;

/// A complete, synced new version, named or not.
#[derive(Debug)]
pub(crate) struct Temp {
    /// The open file.
    pub file: File,
    /// The name it is linked under in the target's directory, if any.
    pub name: Option<OsString>,
}

/// Whose permissions a new version gets.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Perms<'a> {
    /// A new file's: `0666` less the umask.
    New,
    /// Those of the file it replaces: its mode, and its owner where the
    /// host may set it.
    Like(&'a std::fs::Metadata),
    /// The owner's alone (`0600`): for the host's own files.
    Private,
}

/// How the new version is to be created.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan<'a> {
    /// The target's name, for the temporary name.
    pub target: &'a OsStr,
    /// Whose permissions it gets.
    pub perms: Perms<'a>,
    /// Whether it must have a name (an unnamed file can only be linked to a
    /// free name, not swapped with an existing one).
    pub named: bool,
    /// Whether it is synced before it is returned; otherwise its write-back
    /// is started, and whoever puts it in place syncs it first.
    pub synced: bool,
}

/// Writes `data` to a new file in `dir` as `plan` says and syncs it.
pub(crate) fn write(
    dir: &Dir,
    data: &[u8],
    plan: Plan<'_>,
    deadline: Deadline,
) -> Result<Temp, FsError> {
    // A version that must have a name is created under it: an unnamed one
    // linked to a name later costs a link and the file system's keeping of
    // it as an orphan meanwhile (a tenth of a 20-file patch). Whatever a
    // kill leaves under a temporary name is swept.
    if !plan.named
        && let Some(file) = unnamed(dir, plan)?
    {
        fill(&file, data, plan.synced, deadline)?;
        return Ok(Temp { file, name: None });
    }
    let (file, name) = named(dir, plan)?;
    let filled = fill(&file, data, plan.synced, deadline);
    if let Err(err) = filled {
        let _ = rustix::fs::unlinkat(dir, &name, AtFlags::empty());
        return Err(err);
    }
    Ok(Temp {
        file,
        name: Some(name),
    })
}

/// An unnamed file in `dir` with the plan's mode, where the system and the
/// file system have them; `None` otherwise.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn unnamed(dir: &Dir, plan: Plan<'_>) -> Result<Option<File>, FsError> {
    let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
    match rustix::fs::openat(dir, ".", flags, Mode::from_raw_mode(mode_of(plan))) {
        Ok(fd) => {
            let file = File::from(fd);
            take_owner_and_mode(&file, plan)?;
            Ok(Some(file))
        }
        // No unnamed files here (an old kernel, or a file system without
        // them): use a name.
        Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL | Errno::NOENT | Errno::NOSYS) => {
            Ok(None)
        }
        Err(err) => Err(fs_error(err.into())),
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn unnamed(_dir: &Dir, _plan: Plan<'_>) -> Result<Option<File>, FsError> {
    Ok(None)
}

/// Links the unnamed `file` into `dir` as `name`, which must be free:
/// `conflict` when something took it. `Ok(false)` when the system cannot
/// link unnamed files.
pub(super) fn link_as(dir: &Dir, file: &File, name: &OsStr) -> Result<bool, FsError> {
    let proc_path = format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(file));
    let linked = rustix::fs::linkat(
        rustix::fs::CWD,
        proc_path.as_str(),
        dir,
        name,
        AtFlags::SYMLINK_FOLLOW,
    )
    .or_else(|err| match err {
        Errno::EXIST => Err(err),
        _ => rustix::fs::linkat(file.as_fd(), "", dir, name, AtFlags::EMPTY_PATH),
    });
    match linked {
        Ok(()) => Ok(true),
        Err(Errno::EXIST) => Err(FsError::Conflict),
        Err(_) => Ok(false),
    }
}

/// A new file under a fresh temporary name in `dir`, created exclusively
/// with the plan's mode.
fn named(dir: &Dir, plan: Plan<'_>) -> Result<(File, OsString), FsError> {
    let flags = OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    for _ in 0..NAME_ATTEMPTS {
        let name = fresh_name(plan.target);
        match rustix::fs::openat(dir, &name, flags, Mode::from_raw_mode(mode_of(plan))) {
            Ok(fd) => {
                let file = File::from(fd);
                if let Err(err) = take_owner_and_mode(&file, plan) {
                    let _ = rustix::fs::unlinkat(dir, &name, AtFlags::empty());
                    return Err(err);
                }
                return Ok((file, name));
            }
            Err(Errno::EXIST) => {}
            Err(err) => return Err(fs_error(err.into())),
        }
    }
    Err(FsError::Io("no free temporary name".to_owned()))
}

/// The mode a new version is created with.
fn mode_of(plan: Plan<'_>) -> u32 {
    match plan.perms {
        Perms::New => NEW_FILE_MODE,
        Perms::Like(meta) => meta.mode() & 0o7777,
        Perms::Private => PRIVATE_MODE,
    }
}

/// Gives the empty `file` its exact mode, and the replaced file's owner,
/// before any byte is written. Where the group cannot be kept, the group
/// gets what others get, so nobody gains access.
fn take_owner_and_mode(file: &File, plan: Plan<'_>) -> Result<(), FsError> {
    let like = match plan.perms {
        Perms::New => return Ok(()),
        Perms::Private => {
            return rustix::fs::fchmod(file, Mode::from_raw_mode(PRIVATE_MODE))
                .map_err(|err| fs_error(err.into()));
        }
        Perms::Like(like) => like,
    };
    let mut mode = like.mode() & 0o7777;
    let mine = file.metadata().map_err(fs_error)?;
    if mine.uid() != like.uid() || mine.gid() != like.gid() {
        let owner = (mine.uid() != like.uid()).then(|| rustix::fs::Uid::from_raw(like.uid()));
        let group = (mine.gid() != like.gid()).then(|| rustix::fs::Gid::from_raw(like.gid()));
        if rustix::fs::fchown(file, owner, group).is_err() {
            let _ = rustix::fs::fchown(file, None, group);
        }
        let now = file.metadata().map_err(fs_error)?;
        if now.gid() != like.gid() {
            mode = (mode & !0o070) | ((mode & 0o007) << 3);
        }
    }
    rustix::fs::fchmod(file, Mode::from_raw_mode(mode)).map_err(|err| fs_error(err.into()))
}

/// Writes `data` to `file` in pieces, checking the deadline, then syncs it
/// (`synced`) or starts its write-back.
fn fill(file: &File, data: &[u8], synced: bool, deadline: Deadline) -> Result<(), FsError> {
    let mut writer = file;
    for piece in data.chunks(WRITE_PIECE_BYTES) {
        deadline.check()?;
        writer.write_all(piece).map_err(fs_error)?;
    }
    if synced {
        file.sync_all().map_err(fs_error)
    } else {
        start_write_back(file);
        Ok(())
    }
}

/// Asks the kernel to start writing `file`'s data out without waiting for
/// it, so that a sync of many such files later waits for writes already
/// under way. Only a hint: the later sync is what makes the data durable.
fn start_write_back(file: &File) {
    let _ = super::flush::sync_range(file, super::flush::range::WRITE);
}

/// A temporary name for a change of `target` no other writer uses.
pub(super) fn fresh_name(target: &OsStr) -> OsString {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let bytes = target.as_bytes();
    let hint = match std::str::from_utf8(&bytes[..bytes.len().min(NAME_HINT_BYTES)]) {
        Ok(text) => text.to_owned(),
        Err(err) => String::from_utf8_lossy(&bytes[..err.valid_up_to()]).into_owned(),
    };
    OsString::from(format!(
        ".{hint}{MARKER}{}-{:08x}-{}{SUFFIX}",
        std::process::id(),
        token(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Who made a temporary name: its process id and, for names of this
/// version, its token.
fn maker(name: &OsStr) -> Option<(u32, Option<u32>)> {
    let name = std::str::from_utf8(name.as_bytes()).ok()?;
    let body = name.strip_prefix('.')?.strip_suffix(SUFFIX)?;
    let fields = &body[body.rfind(MARKER)? + MARKER.len()..];
    let parts: Vec<&str> = fields.split('-').collect();
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [pid, token, n] if all_digits(pid) && all_digits(n) && token.len() == 8 => Some((
            pid.parse().ok()?,
            Some(u32::from_str_radix(token, 16).ok()?),
        )),
        // The names of earlier versions: PID-N.
        [pid, n] if all_digits(pid) && all_digits(n) => Some((pid.parse().ok()?, None)),
        _ => None,
    }
}

/// Whether the temporary file `name` was left by a writer that is gone.
fn abandoned(name: &OsStr) -> bool {
    let Some((pid, made_token)) = maker(name) else {
        return false;
    };
    if pid == std::process::id() {
        // Ours only if the token says so; else an earlier process with our id.
        return made_token.is_some_and(|t| t != token());
    }
    !running(pid)
}

/// Removes from `dir` the regular temporary files whose writer is gone.
pub(crate) fn sweep(dir: &Dir, deadline: Deadline) -> Result<(), FsError> {
    let entries = match dir.entries() {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::PermissionDenied => return Ok(()),
        Err(err) => return Err(fs_error(err)),
    };
    for entry in entries {
        deadline.check()?;
        let Ok(entry) = entry else { continue };
        let name = entry.file_name();
        if !abandoned(&name) {
            continue;
        }
        if dir.symlink_metadata(&name).is_ok_and(|m| m.is_file()) {
            let _ = rustix::fs::unlinkat(dir, &name, AtFlags::empty());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_say_who_made_them() {
        let name = fresh_name(OsStr::new("main.rs"));
        let text = name.to_str().unwrap();
        assert!(text.starts_with(".main.rs.filetools-"), "{text}");
        assert_eq!(maker(&name), Some((std::process::id(), Some(token()))));
        assert!(!abandoned(&name), "a live name of ours is kept");
        assert_eq!(
            maker(OsStr::new(".a.b.filetools-12-3.tmp")),
            Some((12, None)),
            "the names of earlier versions are recognised"
        );
        assert_eq!(maker(OsStr::new(".filetools-x.tmp")), None);
        assert_eq!(maker(OsStr::new("notes.tmp")), None);
    }

    #[test]
    fn names_of_gone_writers_are_abandoned() {
        let other_token = format!(
            ".a.filetools-{}-{:08x}-0.tmp",
            std::process::id(),
            token().wrapping_add(1)
        );
        assert!(abandoned(OsStr::new(&other_token)));
        // Process ids are below 2^22 on Linux; this one cannot be running.
        assert!(abandoned(OsStr::new(
            ".a.filetools-2147483646-00000000-0.tmp"
        )));
    }

    #[test]
    fn a_new_version_has_the_targets_mode_before_its_first_byte() {
        use cap_std::ambient_authority;
        use std::os::unix::fs::PermissionsExt as _;
        let path = std::env::temp_dir().join(format!("filetools-temp-mode-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(path.join("secret"), "old").unwrap();
        std::fs::set_permissions(path.join("secret"), std::fs::Permissions::from_mode(0o600))
            .unwrap();
        let like = std::fs::metadata(path.join("secret")).unwrap();
        let dir = Dir::open_ambient_dir(&path, ambient_authority()).unwrap();
        let plan = Plan {
            target: OsStr::new("secret"),
            perms: Perms::Like(&like),
            named: true,
            synced: true,
        };
        let (empty, name) = named(&dir, plan).unwrap();
        let meta = empty.metadata().unwrap();
        assert_eq!((meta.len(), meta.mode() & 0o777), (0, 0o600));
        rustix::fs::unlinkat(&dir, &name, AtFlags::empty()).unwrap();
        let temp = write(&dir, b"new", plan, Deadline::NEVER).unwrap();
        let name = temp.name.unwrap();
        assert_eq!(
            std::fs::metadata(path.join(&name)).unwrap().mode() & 0o777,
            0o600
        );
        let private = Plan {
            perms: Perms::Private,
            ..plan
        };
        let other = write(&dir, b"own", private, Deadline::NEVER).unwrap();
        assert_eq!(other.file.metadata().unwrap().mode() & 0o777, 0o600);
        std::fs::remove_dir_all(&path).unwrap();
    }

    #[test]
    fn long_names_are_cut_to_leave_room_for_the_suffix() {
        let long = "é".repeat(120);
        let name = fresh_name(OsStr::new(&long));
        assert!(name.len() <= 255, "{}", name.len());
        assert!(maker(&name).is_some());
    }
}
