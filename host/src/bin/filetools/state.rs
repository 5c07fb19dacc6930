//! A session's memory kept in a file between processes (`--state`): the
//! file is locked while a command or server uses it, so two sharing it run
//! one after the other and neither's record is lost; it is saved whole (a
//! temporary file renamed over it) and private to its owner, since its
//! undo history holds file contents.

use std::fs::File;
use std::io::Read as _;
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use rustix::fs::FlockOperation;

/// The `--state` file, locked while the command runs.
pub struct StateFile {
    /// Where it is.
    pub path: PathBuf,
    /// Holds the lock until the command ends: the file the path names,
    /// taken over from each save.
    lock: File,
}

/// How often a wait for the lock looks again.
const LOCK_POLL: Duration = Duration::from_millis(20);

/// How long a wait goes on before it is told on stderr.
const LOCK_NOTICE: Duration = Duration::from_secs(1);

impl StateFile {
    /// Takes the lock on `path` (creating it empty and private when
    /// missing) and returns it with the saved state. While another process
    /// holds it, waits at most `wait` (saying so on stderr after a second),
    /// then fails naming the file.
    #[expect(clippy::print_stderr, reason = "the CLI reports to its user on stderr")]
    pub fn lock(path: PathBuf, wait: Duration) -> Result<(Self, String)> {
        let started = Instant::now();
        let mut told = false;
        loop {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .open(&path)
                .with_context(|| format!("opening {}", path.display()))?;
            match rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => {}
                Err(rustix::io::Errno::WOULDBLOCK) => {
                    let waited = started.elapsed();
                    if waited >= wait {
                        bail!(
                            "{} is still held by another filetools process after {} s; give each server its own --state file, or wait longer with --lock-wait",
                            path.display(),
                            wait.as_secs()
                        );
                    }
                    if !told && waited >= LOCK_NOTICE {
                        eprintln!(
                            "filetools: {} is held by another filetools process; waiting up to {} s for it (--lock-wait).",
                            path.display(),
                            wait.as_secs()
                        );
                        told = true;
                    }
                    std::thread::sleep(LOCK_POLL);
                    continue;
                }
                Err(err) => {
                    return Err(err).with_context(|| format!("locking {}", path.display()));
                }
            }
            // Another command may have saved (renamed a new file over the
            // path) while this one waited: the lock must be on the file
            // the path names now.
            let locked = file.metadata()?;
            let current = std::fs::metadata(&path).ok();
            if current.is_some_and(|c| c.dev() == locked.dev() && c.ino() == locked.ino()) {
                let mut saved = String::new();
                file.read_to_string(&mut saved)
                    .with_context(|| format!("reading {}", path.display()))?;
                return Ok((Self { path, lock: file }, saved));
            }
        }
    }

    /// Saves `text` whole, private to its owner; the lock moves to the new
    /// file before it takes the path's place, so it is held throughout.
    pub fn save(&mut self, text: &str) -> Result<()> {
        self.lock = filetools::store::replace_locked(&self.path, text.as_bytes())
            .with_context(|| format!("saving {}", self.path.display()))?;
        Ok(())
    }
}
