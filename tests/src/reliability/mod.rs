//! The host's promises tried as a hostile user would, against a `filetools`
//! binary: every scenario is generated at run time, bounded by a count, and
//! returns its figures for a test to judge or a person to read.
//!
//! - [`race`]: external writers racing writes, edits and undos (through the
//!   CLI, and through the sandbox in both replace modes): silent losses.
//! - [`swap`]: FIFOs and devices swapped in during writes and undos: hangs,
//!   and special files replaced.
//! - [`kill`]: `kill -9` during writes of 1 KB to 20 MB: torn files and
//!   temporary debris, after the kill and after the next write.
//! - [`kill_together`]: `kill -9` during patches, group undos and undos of
//!   moves over files of up to 20 MB: files left mixed after the next
//!   session's first call, and recoveries it did not report.
//! - [`deadline`]: call deadlines swept across a patch of six files in the
//!   Rust host: files left mixed, answers that say otherwise.
//! - [`fuzz`]: protocol lines of every wrong kind: lines left unanswered,
//!   answer sizes, a session that dies or forgets.
//! - [`cache`]: a precompiled component damaged on disk: failed starts.
//! - [`roots`]: the spellings of a root and of paths under it.
//! - [`hostile`]: files that lie about their size, expand or nest without
//!   end, or have bytes flipped: traps, and a session that forgets.
//!
//! The same code runs in `cargo xtask test` with small counts and behind
//! `cargo xtask stress` with large ones; since it drives any binary, it can
//! measure an older build too.

pub mod cache;
pub mod deadline;
pub mod fuzz;
pub mod hostile;
pub mod kill;
pub mod kill_together;
pub mod race;
pub mod roots;
pub mod swap;

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::Result;

/// A small, fast, seedable generator (xorshift64*): scenarios are random
/// but a seed replays them.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (0 is replaced, xorshift needs a set bit).
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    /// A seed from the clock.
    pub fn seed_from_clock() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A delay for trial `k` of `n` within `0..window`: the window cut into
    /// `n` equal slices, one random point in slice `k`, so even a few
    /// trials cover all of it, however narrow the moment that matters.
    pub fn stratified(&mut self, k: u64, n: u64, window: u64) -> u64 {
        let n = n.max(1);
        let slice = (window / n).max(1);
        ((k % n) * window / n + self.below(slice)).min(window)
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
}

/// A fresh, empty directory `label` under `base`.
pub fn fresh_dir(base: &Path, label: &str) -> Result<PathBuf> {
    let dir = base.join(label);
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// The temporary files a writer left in `dir`: count and bytes.
pub fn debris(dir: &Path) -> Result<(u64, u64)> {
    let mut count = 0;
    let mut bytes = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.contains(".filetools-") || name.ends_with(".tmp") {
            count += 1;
            bytes += entry.metadata().map_or(0, |m| m.len());
        }
    }
    Ok((count, bytes))
}

/// A special file to swap in for a regular one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// A named pipe.
    Fifo,
    /// A character device with `/dev/zero`'s numbers: reads never end.
    Zero,
}

impl Special {
    /// Makes the node at `path`.
    pub fn make(self, path: &Path) -> std::io::Result<()> {
        use rustix::fs::{CWD, FileType, Mode, mknodat};
        let (kind, dev) = match self {
            Special::Fifo => (FileType::Fifo, 0),
            Special::Zero => (FileType::CharacterDevice, rustix::fs::makedev(1, 5)),
        };
        mknodat(CWD, path, kind, Mode::from_raw_mode(0o644), dev).map_err(Into::into)
    }

    /// Whether this process may make devices (`CAP_MKNOD`).
    pub fn devices_allowed(scratch: &Path) -> bool {
        let probe = scratch.join(".mknod-probe");
        let _ = std::fs::remove_file(&probe);
        let allowed = Special::Zero.make(&probe).is_ok();
        let _ = std::fs::remove_file(&probe);
        allowed
    }

    /// Whether `path` is (still) such a node.
    pub fn is_at(self, path: &Path) -> bool {
        use std::os::unix::fs::FileTypeExt as _;
        std::fs::symlink_metadata(path).is_ok_and(|m| match self {
            Special::Fifo => m.file_type().is_fifo(),
            Special::Zero => m.file_type().is_char_device(),
        })
    }
}

impl fmt::Display for Special {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Special::Fifo => "FIFO",
            Special::Zero => "character device 1:5",
        })
    }
}

/// Spins until `micros` microseconds have passed (sleeping is far too
/// coarse to land inside a write that takes a few hundred).
pub fn spin(micros: u64) {
    let until = std::time::Instant::now() + std::time::Duration::from_micros(micros);
    while std::time::Instant::now() < until {
        std::hint::spin_loop();
    }
}
