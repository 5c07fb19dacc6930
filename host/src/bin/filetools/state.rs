//! A session's memory kept in a file between processes (`--state`): the
//! file is locked while a command or server uses it, so two sharing it run
//! one after the other and neither's record is lost; it is saved whole (a
//! temporary file renamed over it) and private to its owner, since its
//! undo history holds file contents.

use std::fs::File;
use std::io::Read as _;
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::PathBuf;

use anyhow::{Context as _, Result};

/// The `--state` file, locked while the command runs.
pub struct StateFile {
    /// Where it is.
    pub path: PathBuf,
    /// Holds the lock until the command ends.
    _lock: File,
}

impl StateFile {
    /// Waits for the lock on `path` (creating it empty and private when
    /// missing) and returns it with the saved state.
    pub fn lock(path: PathBuf) -> Result<(Self, String)> {
        loop {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .open(&path)
                .with_context(|| format!("opening {}", path.display()))?;
            rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
                .with_context(|| format!("locking {}", path.display()))?;
            // Another command may have saved (renamed a new file over the
            // path) while this one waited: the lock must be on the file
            // the path names now.
            let locked = file.metadata()?;
            let current = std::fs::metadata(&path).ok();
            if current.is_some_and(|c| c.dev() == locked.dev() && c.ino() == locked.ino()) {
                let mut saved = String::new();
                file.read_to_string(&mut saved)
                    .with_context(|| format!("reading {}", path.display()))?;
                return Ok((Self { path, _lock: file }, saved));
            }
        }
    }

    /// Saves `text` whole, private to its owner; the lock is still held.
    pub fn save(&self, text: &str) -> Result<()> {
        filetools::store::replace(&self.path, text.as_bytes())
            .with_context(|| format!("saving {}", self.path.display()))
    }
}
