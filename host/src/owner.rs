//! Who made a record of a change under way or holds a turn in a directory,
//! told by a part of a file's name that every host writes and reads the
//! same way: `PID-START-TOKEN`. `START` is when the process started, in
//! clock ticks since boot (field 22 of `/proc/PID/stat`; `0` where the
//! system has no `/proc`), so a later process that got the same id is not
//! taken for the one that died; `TOKEN` is a random number fixed for the
//! process (for an npm host, for its thread), which tells its own names
//! from those of another instance in the same process.
//!
//! A host with `flock` (this one) also locks what it holds; the npm host
//! cannot, so the name is what every host honours.

use std::fmt;
use std::sync::OnceLock;

use rustix::io::Errno;
use rustix::process::Pid;

/// The part of a name that says who made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Owner {
    /// The process id.
    pub pid: u32,
    /// When it started (clock ticks since boot), `0` when unknown.
    pub start: u64,
    /// Its random number.
    pub token: u32,
}

impl Owner {
    /// This process.
    pub fn this() -> Owner {
        static THIS: OnceLock<Owner> = OnceLock::new();
        *THIS.get_or_init(|| {
            let pid = std::process::id();
            Owner {
                pid,
                start: start_of(pid).unwrap_or(0),
                token: token(),
            }
        })
    }

    /// The owner a name part `PID-START-TOKEN` names.
    pub fn parse(part: &str) -> Option<Owner> {
        let mut fields = part.split('-');
        let (pid, start, token) = (fields.next()?, fields.next()?, fields.next()?);
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if fields.next().is_some() || !digits(pid) || !digits(start) || token.len() != 8 {
            return None;
        }
        Some(Owner {
            pid: pid.parse().ok()?,
            start: start.parse().ok()?,
            token: u32::from_str_radix(token, 16).ok()?,
        })
    }

    /// Whether this process made the name.
    pub fn is_this(&self) -> bool {
        *self == Owner::this()
    }

    /// Whether the process that made the name has ended: not this one, and
    /// none with its id and start time runs (one that may not be signalled
    /// counts as running).
    pub fn gone(&self) -> bool {
        if self.pid == std::process::id() {
            return self.start != Owner::this().start;
        }
        if !running(self.pid) {
            return true;
        }
        match (self.start, start_of(self.pid)) {
            (0, _) | (_, None) => false,
            (made, Some(now)) => made != now,
        }
    }
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{:08x}", self.pid, self.start, self.token)
    }
}

/// A random number fixed for this process, which tells its names from
/// those of an earlier process that had the same id.
pub(crate) fn token() -> u32 {
    static TOKEN: OnceLock<u32> = OnceLock::new();
    *TOKEN.get_or_init(|| {
        use std::hash::{BuildHasher as _, RandomState};
        let hash = RandomState::new().hash_one((std::process::id(), std::time::SystemTime::now()));
        (hash >> 32) as u32
    })
}

/// Whether the process `pid` is running (or may be: one we may not signal).
pub(crate) fn running(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
        return false;
    };
    !matches!(rustix::process::test_kill_process(pid), Err(Errno::SRCH))
}

/// When `pid` started, in clock ticks since boot.
fn start_of(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: the
    // fields after it start past its last `)`; the start time is the 20th.
    let after = stat.get(stat.rfind(')')? + 2..)?;
    after.split(' ').nth(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_reads_back_as_itself_and_is_not_gone() {
        let me = Owner::this();
        assert!(cfg!(not(target_os = "linux")) || me.start > 0);
        let parsed = Owner::parse(&me.to_string()).unwrap();
        assert!(parsed.is_this());
        assert!(!parsed.gone());
    }

    #[test]
    fn an_owner_with_another_start_or_no_process_is_gone() {
        let me = Owner::this();
        let earlier = Owner {
            start: me.start + 1,
            ..me
        };
        assert!(earlier.gone());
        let parent = Owner {
            pid: std::os::unix::process::parent_id(),
            start: 0,
            token: 0,
        };
        assert!(!parent.gone());
        // The largest id the kernel hands out is below this.
        let none = Owner {
            pid: 1 << 30,
            start: 0,
            token: 0,
        };
        assert!(none.gone());
        assert_eq!(Owner::parse("12-34"), None);
        assert_eq!(Owner::parse("12-34-abc"), None);
    }
}
