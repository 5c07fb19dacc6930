//! Sessions kept as files in one directory, for replicas on one machine (or
//! sharing a file system whose `flock` works): each session's log in a file
//! whose first line is its version, changed only while the session's lock
//! file is held.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::os::unix::fs::{FileExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, Result};
use rustix::fs::FlockOperation;

use super::{
    ENDS_KEPT_FOR, EndsSeen, Lease, Saved, SessionStore, Stored, Turn, Update, lease_token,
};

/// The directory, in the store's, of the handshakes clients ended: a file
/// each, named by when and by the id in hex, removed after
/// [`ENDS_KEPT_FOR`].
const ENDS_DIR: &str = "ended";

/// Digits of the version line, so that it is rewritten in place.
const VERSION_DIGITS: usize = 20;

/// Keys longer than this (in bytes) are named by their SHA-256, so every
/// name fits a file system's limit.
const MAX_PLAIN_KEY_BYTES: usize = 100;

/// Saves between two sweeps of expired sessions' files.
const SWEEP_EVERY: u64 = 1000;

/// A [`SessionStore`] in a directory.
#[derive(Debug)]
pub struct DirStore {
    dir: PathBuf,
    ttl: Duration,
    saves: std::sync::atomic::AtomicU64,
}

impl DirStore {
    /// The store in `dir` (created private to its owner when missing; an
    /// existing one is taken as it is, and must be the store's alone); a
    /// session idle for `ttl` is gone.
    pub fn open(dir: impl AsRef<Path>, ttl: Duration) -> Result<Self> {
        let dir = dir.as_ref().to_owned();
        if !dir.is_dir() {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("creating the session store {}", dir.display()))?;
            std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o700))
                .with_context(|| format!("making {} private", dir.display()))?;
        }
        Ok(Self {
            dir,
            ttl,
            saves: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// The session's file, with `extension`: the key in hex (its SHA-256
    /// when long), so any key is a safe file name.
    fn path(&self, key: &str, extension: &str) -> PathBuf {
        let mut name = if key.len() > MAX_PLAIN_KEY_BYTES {
            filetools_core::sha256_hex(key.as_bytes())
        } else {
            filetools_core::hex(key.as_bytes())
        };
        name.push('.');
        name.push_str(extension);
        self.dir.join(name)
    }

    /// Removes the files of sessions idle past the time to live, each
    /// session's only while its lock is free (taken without waiting, and
    /// held while its files go).
    fn sweep(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            // A session goes with its log, or its lock and lease once
            // there is none.
            let ours = match path.extension().and_then(|e| e.to_str()) {
                Some("log") => true,
                Some("lock" | "lease") => !path.with_extension("log").exists(),
                _ => false,
            };
            let idle = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|m| m.elapsed().ok())
                .is_some_and(|idle| idle > self.ttl);
            if !(ours && idle) {
                continue;
            }
            let lock = path.with_extension("lock");
            let free = OpenOptions::new()
                .read(true)
                .open(&lock)
                .ok()
                .filter(|file| {
                    rustix::fs::flock(file, FlockOperation::NonBlockingLockExclusive).is_ok()
                });
            if free.is_some() || !lock.exists() {
                for extension in ["log", "lease", "lock"] {
                    let _ = std::fs::remove_file(path.with_extension(extension));
                }
            }
        }
    }

    /// The ended handshakes' files: their names, and whether each was
    /// kept past [`ENDS_KEPT_FOR`].
    fn ends(&self) -> Vec<(String, bool)> {
        let Ok(entries) = std::fs::read_dir(self.dir.join(ENDS_DIR)) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| {
                let old = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|m| m.elapsed().ok())
                    .is_some_and(|age| age > ENDS_KEPT_FOR);
                Some((entry.file_name().into_string().ok()?, old))
            })
            .collect()
    }

    /// Holds the session's lock until the file is dropped.
    fn lock(&self, key: &str) -> Result<File> {
        let file = private(OpenOptions::new().read(true).write(true).create(true))
            .open(self.path(key, "lock"))
            .context("opening a session's lock file")?;
        rustix::fs::flock(&file, FlockOperation::LockExclusive)
            .context("locking a session's file")?;
        Ok(file)
    }

    /// The log file open for reading and writing, unless missing or idle
    /// past the time to live (then removed).
    fn open_log(&self, key: &str) -> Result<Option<File>> {
        let path = self.path(key, "log");
        let file = match private(OpenOptions::new().read(true).write(true)).open(&path) {
            Ok(file) => file,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err).context("opening a session's log"),
        };
        let idle = file
            .metadata()?
            .modified()?
            .elapsed()
            .unwrap_or(Duration::ZERO);
        if idle > self.ttl {
            let _ = std::fs::remove_file(&path);
            return Ok(None);
        }
        Ok(Some(file))
    }

    /// The lease's token and its end (ms since the epoch), if one was
    /// taken (the session's lock held).
    fn lease_holder(&self, key: &str) -> Option<(u64, u128)> {
        let text = std::fs::read_to_string(self.path(key, "lease")).ok()?;
        let (token, until) = text.split_once(' ')?;
        Some((token.parse().ok()?, until.trim().parse().ok()?))
    }

    /// The version line alone (the session's lock held).
    fn current_version(&self, key: &str) -> Result<Option<u64>> {
        let Some(file) = self.open_log(key)? else {
            return Ok(None);
        };
        let mut line = [0; VERSION_DIGITS];
        file.read_exact_at(&mut line, 0)
            .context("reading a session's version")?;
        let version = std::str::from_utf8(&line)
            .ok()
            .and_then(|digits| digits.parse().ok())
            .context("a session's version line is not a number")?;
        Ok(Some(version))
    }

    fn read(&self, key: &str) -> Result<Option<Stored>> {
        let Some(mut file) = self.open_log(key)? else {
            return Ok(None);
        };
        let mut text = String::new();
        file.read_to_string(&mut text)
            .context("reading a session's log")?;
        let (version, log) = text
            .split_once('\n')
            .context("a session's log has no version line")?;
        let version = version
            .trim()
            .parse()
            .context("a session's version line is not a number")?;
        Ok(Some(Stored {
            version,
            log: log.to_owned(),
        }))
    }
}

/// The bytes `hex` spells, two digits each.
fn from_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(hex.get(at..at + 2)?, 16).ok())
        .collect()
}

/// Options that create files only their owner may read.
fn private(options: &mut OpenOptions) -> &mut OpenOptions {
    options.mode(0o600)
}

fn version_line(version: u64) -> String {
    format!("{version:0VERSION_DIGITS$}\n")
}

/// Milliseconds since the epoch.
fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}

impl SessionStore for DirStore {
    fn load(&self, key: &str) -> Result<Option<Stored>> {
        // No lock file for a session that never was.
        if !self.path(key, "log").exists() {
            return Ok(None);
        }
        let _lock = self.lock(key)?;
        self.read(key)
    }

    fn version(&self, key: &str) -> Result<Option<u64>> {
        if !self.path(key, "log").exists() {
            return Ok(None);
        }
        let _lock = self.lock(key)?;
        self.current_version(key)
    }

    fn save(&self, key: &str, expected: u64, update: Update<'_>, turn: Turn) -> Result<Saved> {
        let saves = self
            .saves
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        if saves.is_multiple_of(SWEEP_EVERY) {
            self.sweep();
        }
        let _lock = self.lock(key)?;
        let leased = self.lease_holder(key);
        match turn {
            Turn::Held(lease) if leased.is_some_and(|(token, _)| token == lease.0) => {
                std::fs::remove_file(self.path(key, "lease"))
                    .context("removing a session's lease")?;
            }
            // Without a lease, or with one that ran out: refused while
            // another holds the session.
            _ if leased.is_some_and(|(_, until)| until > now_ms()) => {
                return Ok(Saved::Moved);
            }
            _ => {}
        }
        let now = self.current_version(key)?.unwrap_or(0);
        if now != expected {
            return Ok(Saved::Moved);
        }
        let version = now + 1;
        match (update, self.open_log(key)?) {
            (Update::Append(line), Some(file)) => {
                // The line first, then its version: a kill between leaves
                // the line saved under the version before.
                file.write_all_at(line.as_bytes(), file.metadata()?.len())
                    .and_then(|()| file.write_all_at(version_line(version).as_bytes(), 0))
                    .and_then(|()| file.sync_data())
                    .context("appending to a session's log")?;
                // The idle clock runs from the last save.
                file.set_modified(SystemTime::now())?;
            }
            (Update::Append(log) | Update::Replace(log), _) => {
                let mut whole = version_line(version);
                whole.push_str(log);
                crate::private_file::replace(&self.path(key, "log"), whole.as_bytes())
                    .context("writing a session's log")?;
            }
        }
        Ok(Saved::Stored(version))
    }

    fn lease(&self, key: &str, ttl: Duration) -> Result<Option<(Lease, Option<u64>)>> {
        let _lock = self.lock(key)?;
        if self
            .lease_holder(key)
            .is_some_and(|(_, until)| until > now_ms())
        {
            return Ok(None);
        }
        let lease = lease_token()?;
        let mut file = private(OpenOptions::new().write(true).create(true).truncate(true))
            .open(self.path(key, "lease"))
            .context("writing a session's lease")?;
        write!(file, "{} {}", lease.0, now_ms() + ttl.as_millis())?;
        Ok(Some((lease, self.current_version(key)?)))
    }

    fn renew(&self, key: &str, lease: Lease, ttl: Duration) -> Result<bool> {
        let _lock = self.lock(key)?;
        if self
            .lease_holder(key)
            .is_none_or(|(token, _)| token != lease.0)
        {
            return Ok(false);
        }
        let mut file = private(OpenOptions::new().write(true).create(true).truncate(true))
            .open(self.path(key, "lease"))
            .context("writing a session's lease")?;
        write!(file, "{} {}", lease.0, now_ms() + ttl.as_millis())?;
        Ok(true)
    }

    fn release(&self, key: &str, lease: Lease) -> Result<()> {
        let _lock = self.lock(key)?;
        if self
            .lease_holder(key)
            .is_some_and(|(token, _)| token == lease.0)
        {
            std::fs::remove_file(self.path(key, "lease")).context("removing a session's lease")?;
        }
        Ok(())
    }

    fn end_handshake(&self, id: &str) -> Result<()> {
        let dir = self.dir.join(ENDS_DIR);
        std::fs::create_dir_all(&dir)
            .context("creating the store's directory of ended handshakes")?;
        for (name, old) in self.ends() {
            if old {
                let _ = std::fs::remove_file(dir.join(name));
            }
        }
        let name = format!("{}-{}", now_ms(), filetools_core::hex(id.as_bytes()));
        private(OpenOptions::new().write(true).create(true))
            .open(dir.join(name))
            .context("recording an ended handshake")?;
        Ok(())
    }

    fn ended_handshakes(&self, seen: &mut EndsSeen) -> Result<Vec<String>> {
        let names: HashSet<String> = self.ends().into_iter().map(|(name, _)| name).collect();
        let ended = if seen.looked {
            names
                .iter()
                .filter(|name| !seen.names.contains(*name))
                .filter_map(|name| {
                    let (_, hex) = name.split_once('-')?;
                    String::from_utf8(from_hex(hex)?).ok()
                })
                .collect()
        } else {
            Vec::new()
        };
        seen.looked = true;
        seen.names = names;
        Ok(ended)
    }
}
