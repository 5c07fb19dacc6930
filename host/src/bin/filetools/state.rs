//! A session's memory kept in a file between processes (`--state`): the
//! file is locked while a command or server uses it, so two sharing it run
//! one after the other and neither's record is lost; it is private to its
//! owner, since its undo history holds file contents. It is a state log
//! (see `Session::save_log`): each save appends one line with what the
//! calls since the last changed, synced, so a save costs what a call
//! changed; every [`MAX_LOG_LINES`] lines it is written whole again (a
//! temporary file renamed over it). A state saved whole by an older
//! version is read, and replaced by a log at the first save.

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use filetools::Session;
use rustix::fs::FlockOperation;

/// The `--state` file, locked while the command runs.
pub struct StateFile {
    /// Where it is.
    pub path: PathBuf,
    /// Holds the lock until the command ends: the file the path names,
    /// taken over from each save.
    lock: File,
    /// Lines of the log after its first, when the file is one.
    log_lines: Option<usize>,
}

/// Lines a log grows to before it is written whole again.
const MAX_LOG_LINES: usize = 1000;

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
                let state = Self {
                    path,
                    lock: file,
                    log_lines: None,
                };
                return Ok((state, saved));
            }
        }
    }

    /// Gives `session` the memory `saved` (what [`StateFile::lock`] read):
    /// a log, or a state saved whole by an older version; nothing when it
    /// is empty. A log's last line cut short by a kill is cut off.
    pub fn restore(&mut self, session: &mut Session, saved: &str) -> Result<()> {
        let context = || format!("restoring --state {}", self.path.display());
        if saved.starts_with(filetools::STATE_LOG_HEADER) {
            let (valid, lines) = session.restore_log(saved).with_context(context)?;
            if valid < saved.len() {
                self.lock.set_len(valid as u64).with_context(context)?;
            }
            self.log_lines = Some(lines);
        } else if !saved.trim().is_empty() {
            session.restore(saved).with_context(context)?;
        }
        Ok(())
    }

    /// Saves what `session` changed since the last save: one line appended
    /// to the log, or the whole log when the file is not one yet or has
    /// grown long.
    pub fn save(&mut self, session: &mut Session) -> Result<()> {
        let context = || format!("saving {}", self.path.display());
        match self.log_lines {
            Some(lines) if lines < MAX_LOG_LINES => {
                let Some(line) = session.save_changes()? else {
                    return Ok(());
                };
                let end = self.lock.seek(SeekFrom::End(0)).with_context(context)?;
                let appended = self
                    .lock
                    .write_all(line.as_bytes())
                    .and_then(|()| self.lock.sync_data());
                if let Err(err) = appended {
                    // No half line stays to spoil the next, and the next
                    // save writes the log whole: nothing of this one is lost.
                    let _ = self.lock.set_len(end);
                    self.log_lines = None;
                    return Err(err).with_context(context);
                }
                self.log_lines = Some(lines + 1);
            }
            _ => {
                let log = session.save_log()?;
                self.lock = filetools::private_file::replace_locked(&self.path, log.as_bytes())
                    .with_context(context)?;
                self.log_lines = Some(1);
            }
        }
        Ok(())
    }
}
