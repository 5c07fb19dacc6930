//! [`take`]: the turn in a directory that every host honours, the npm host
//! included (which has no `flock`). It is Lamport's bakery, kept as empty
//! files in one private directory (`turns` in the state directory), each
//! named for the workspace directory (`DEV-INO`, in hex) and for the
//! process that made it (see [`crate::owner`]):
//!
//! 1. `KEY.c.OWNER-N` says a number is being chosen;
//! 2. the number is one more than the highest ticket of that directory, or
//!    the time in nanoseconds when that is higher, and the ticket
//!    `KEY.t.NUMBER.OWNER-N` is made; then the first file goes;
//! 3. the turn is this process's once no other process is choosing and no
//!    ticket sorts before its own. Files of a process that has ended are
//!    removed by whoever finds them: every name is made once, so removing
//!    one never removes a live process's file.
//!
//! The turn ends when the ticket goes. A process may hold tickets of
//! several directories at once, one per change. Where the turns cannot be
//! kept (no private state directory, a file system that refuses), the
//! change goes on without one: the check on what it displaced still
//! guards it, as before turns existed.

use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use cap_std::fs::Dir;
use filetools_core::FsError;
use rustix::fs::{AtFlags, Mode, OFlags};

use crate::limits::Deadline;
use crate::owner::Owner;

/// Time between two looks at the other tickets of a directory.
const RETRY: Duration = Duration::from_micros(200);

/// What a choosing file's name holds after the directory's key.
const CHOOSING: &str = "c.";

/// What a ticket's name holds after the directory's key.
const TICKET: &str = "t.";

/// Digits of a ticket's number.
const NUMBER_DIGITS: usize = 20;

/// Tells apart the files one process makes.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A turn held: its ticket goes when dropped.
#[derive(Debug)]
pub(super) struct Turn<'a> {
    turns: &'a Dir,
    ticket: String,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let _ = rustix::fs::unlinkat(self.turns, self.ticket.as_str(), AtFlags::empty());
    }
}

/// Takes the turn in `dir`, waiting while other processes hold it or wait
/// before this one (until `deadline`, and at most `max_wait`); `None` when
/// turns cannot be kept in `turns`.
pub(super) fn take<'a>(
    turns: &'a Dir,
    dir: &Dir,
    deadline: Deadline,
    max_wait: Duration,
) -> Result<Option<Turn<'a>>, FsError> {
    let Ok(stat) = rustix::fs::fstat(dir) else {
        return Ok(None);
    };
    let key = format!("{:x}-{:x}.", stat.st_dev, stat.st_ino);
    let me = format!("{}-{}", Owner::this(), NEXT.fetch_add(1, Ordering::Relaxed));
    let choosing = format!("{key}{CHOOSING}{me}");
    if create(turns, &choosing).is_err() {
        return Ok(None);
    }
    let chosen = list(turns, &key).map(|(others, elsewhere)| {
        // Files other directories' turns left when their process ended go
        // too, so the directory holds only what live processes made.
        for name in elsewhere {
            let gone = name
                .split_once('.')
                .and_then(|(_, rest)| owner_after_key(rest))
                .is_some_and(|owner| owner.gone());
            if gone {
                let _ = rustix::fs::unlinkat(turns, name.as_str(), AtFlags::empty());
            }
        }
        number(&others)
    });
    let ticket = chosen.ok().map(|number| {
        let ticket = format!("{number:0NUMBER_DIGITS$}.{me}");
        (create(turns, &format!("{key}{TICKET}{ticket}")), ticket)
    });
    let _ = rustix::fs::unlinkat(turns, choosing.as_str(), AtFlags::empty());
    let Some((Ok(()), mine)) = ticket else {
        return Ok(None);
    };
    let turn = Turn {
        turns,
        ticket: format!("{key}{TICKET}{mine}"),
    };
    let started = Instant::now();
    loop {
        let (others, _) = list(turns, &key).map_err(|err| FsError::Io(err.to_string()))?;
        if !others.iter().any(|other| blocks(turns, &key, other, &mine)) {
            return Ok(Some(turn));
        }
        pause(started, deadline, max_wait)?;
    }
}

/// Waits a little before the next try at a directory's turn or lock taken
/// since `started`; an error once `deadline` or `max_wait` has passed.
pub(super) fn pause(
    started: Instant,
    deadline: Deadline,
    max_wait: Duration,
) -> Result<(), FsError> {
    deadline.check()?;
    if started.elapsed() >= max_wait {
        return Err(FsError::Io(format!(
            "another change in the same directory held it for over {} s; nothing was changed. Try the change again once the other is done",
            max_wait.as_secs()
        )));
    }
    thread::sleep(RETRY);
    Ok(())
}

/// Makes the empty file `name` in `turns`, failing when it exists.
fn create(turns: &Dir, name: &str) -> rustix::io::Result<()> {
    let flags = OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY | OFlags::CLOEXEC;
    rustix::fs::openat(turns, name, flags, Mode::from_raw_mode(0o600)).map(drop)
}

/// The names in `turns` that start with `key`, without it; and the other
/// names.
fn list(turns: &Dir, key: &str) -> std::io::Result<(Vec<String>, Vec<String>)> {
    let (mut names, mut elsewhere) = (Vec::new(), Vec::new());
    for entry in turns.entries()? {
        let name = entry?.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        match name.strip_prefix(key) {
            Some(rest) => names.push(rest.to_owned()),
            None => elsewhere.push(name.to_owned()),
        }
    }
    Ok((names, elsewhere))
}

/// Who made a file, from what follows its key: `c.OWNER-N` or
/// `t.NUMBER.OWNER-N`.
fn owner_after_key(rest: &str) -> Option<Owner> {
    let made_by = match rest.strip_prefix(CHOOSING) {
        Some(made_by) => made_by,
        None => rest.strip_prefix(TICKET)?.split_once('.')?.1,
    };
    Owner::parse(made_by.rsplit_once('-')?.0)
}

/// The number a new ticket takes: one more than the highest, or the time.
fn number(others: &[String]) -> u64 {
    let highest = others
        .iter()
        .filter_map(|other| other.strip_prefix(TICKET)?.split_once('.')?.0.parse().ok())
        .max()
        .unwrap_or(0u64);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    highest.saturating_add(1).max(now)
}

/// Whether the file `other` of the directory `key` holds off the ticket
/// `mine`: another process choosing, or a ticket before it. A file whose
/// process ended is removed instead.
fn blocks(turns: &Dir, key: &str, other: &str, mine: &str) -> bool {
    let ticket = other.strip_prefix(TICKET);
    if ticket == Some(mine) {
        return false;
    }
    let Some(owner) = owner_after_key(other) else {
        return false;
    };
    if owner.gone() {
        let _ = rustix::fs::unlinkat(turns, format!("{key}{other}").as_str(), AtFlags::empty());
        return false;
    }
    ticket.is_none_or(|rest| rest < mine)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cap_std::ambient_authority;

    fn scratch(label: &str) -> Dir {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("filetools-turn-{label}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        Dir::open_ambient_dir(&path, ambient_authority()).unwrap()
    }

    #[test]
    fn a_second_turn_waits_for_the_first_and_gives_up_at_the_deadline() {
        let (turns, dir) = (scratch("turns"), scratch("dir"));
        let first = take(&turns, &dir, Deadline::NEVER, Duration::from_secs(10))
            .unwrap()
            .unwrap();
        let soon = Deadline::at(Instant::now() + Duration::from_millis(20));
        let refused = take(&turns, &dir, soon, Duration::from_secs(10));
        assert!(matches!(refused, Err(FsError::Io(_))), "{refused:?}");
        let waited = take(&turns, &dir, Deadline::NEVER, Duration::from_millis(20));
        assert!(matches!(waited, Err(FsError::Io(ref why)) if why.contains("held it")));
        // Another directory's turn is free meanwhile.
        let other = scratch("other");
        drop(take(&turns, &other, Deadline::NEVER, Duration::from_secs(10)).unwrap());
        drop(first);
        assert!(take(&turns, &dir, Deadline::NEVER, Duration::from_secs(10)).is_ok());
        // Every ticket and choosing file went with its turn.
        assert_eq!(turns.entries().unwrap().count(), 0);
    }

    #[test]
    fn the_files_of_an_ended_process_do_not_hold_the_turn() {
        let (turns, dir) = (scratch("turns"), scratch("dir"));
        let stat = rustix::fs::fstat(&dir).unwrap();
        let key = format!("{:x}-{:x}.", stat.st_dev, stat.st_ino);
        let ended = "1073741824-5-0000abcd-0";
        create(&turns, &format!("{key}{CHOOSING}{ended}")).unwrap();
        create(&turns, &format!("{key}{TICKET}{:020}.{ended}", 1)).unwrap();
        // And those another directory's turn left.
        create(&turns, &format!("1-2.{TICKET}{:020}.{ended}", 1)).unwrap();
        let turn = take(&turns, &dir, Deadline::NEVER, Duration::from_millis(50));
        let _turn = turn.unwrap().unwrap();
        assert_eq!(
            turns.entries().unwrap().count(),
            1,
            "only this turn's ticket"
        );
    }

    #[test]
    fn threads_taking_turns_never_overlap() {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let (turns, dir) = (Arc::new(scratch("turns")), Arc::new(scratch("dir")));
        let inside = Arc::new(AtomicBool::new(false));
        let overlaps = Arc::new(AtomicU64::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (turns, dir) = (Arc::clone(&turns), Arc::clone(&dir));
                let (inside, overlaps) = (Arc::clone(&inside), Arc::clone(&overlaps));
                thread::spawn(move || {
                    for _ in 0..50 {
                        let turn = take(&turns, &dir, Deadline::NEVER, Duration::from_secs(10));
                        let _turn = turn.unwrap().unwrap();
                        if inside.swap(true, Ordering::SeqCst) {
                            overlaps.fetch_add(1, Ordering::SeqCst);
                        }
                        thread::sleep(Duration::from_micros(50));
                        inside.store(false, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(overlaps.load(Ordering::SeqCst), 0);
    }
}
