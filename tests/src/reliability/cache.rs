//! A precompiled component damaged on disk.
//!
//! The CLI starts once to fill a fresh cache; then, again and again, 64 KiB
//! of the artifact's code (its ELF `.text`, the first time at its start,
//! then at random places) are overwritten with `0xCC` (x86's breakpoint
//! instruction) and the CLI starts again. Each start must succeed — from the
//! binary's own build-time machine code or a fresh compile, never by running
//! the damaged code — and must leave an intact artifact for the next.

use std::fmt;
use std::fs;
use std::io::{Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, Result, bail};

use super::Rng;

/// Bytes overwritten in each damaged artifact.
const DAMAGE_BYTES: usize = 64 * 1024;

/// What the starts came to.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Starts with a damaged artifact.
    pub damaged_starts: u64,
    /// Of those, starts that failed (an exit status, or a signal).
    pub failed_starts: u64,
    /// How the first failure ended, if one did.
    pub first_failure: Option<String>,
    /// Damaged artifacts found intact again after the start.
    pub repaired: u64,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} starts with a damaged artifact, {} failed{}, {} artifacts replaced afresh",
            self.damaged_starts,
            self.failed_starts,
            self.first_failure
                .as_ref()
                .map_or(String::new(), |how| format!(" (first: {how})")),
            self.repaired
        )
    }
}

/// Damages the cache of `bin` `trials` times, starting it after each.
pub fn cli(bin: &Path, dir: &Path, trials: u64, rng: &mut Rng) -> Result<Report> {
    let cache = dir.join("cache");
    let root = dir.join("root");
    fs::create_dir_all(&root)?;
    fs::write(root.join("a.txt"), "cached\n")?;
    if !start(bin, &root, &cache)?.success() {
        bail!("the first start, which fills the cache, failed");
    }
    let mut report = Report::default();
    for trial in 0..trials {
        let artifact = artifact(&cache)?;
        let (text, text_len) = code_section(&fs::read(&artifact)?)?;
        let room = text_len.saturating_sub(DAMAGE_BYTES as u64).max(1);
        let at = text + if trial == 0 { 0 } else { rng.below(room) };
        let mut file = fs::OpenOptions::new().write(true).open(&artifact)?;
        file.seek(SeekFrom::Start(at))?;
        file.write_all(&vec![0xCC; DAMAGE_BYTES])?;
        drop(file);
        report.damaged_starts += 1;
        let status = start(bin, &root, &cache)?;
        if !status.success() {
            report.failed_starts += 1;
            report
                .first_failure
                .get_or_insert_with(|| status.to_string());
        }
        let mut now = vec![0; DAMAGE_BYTES];
        let mut file = fs::File::open(artifact)?;
        file.seek(SeekFrom::Start(at))?;
        std::io::Read::read_exact(&mut file, &mut now)?;
        if now.iter().any(|&b| b != 0xCC) {
            report.repaired += 1;
        }
    }
    Ok(report)
}

/// One start of the CLI with `cache`: a read that must print the file.
fn start(bin: &Path, root: &Path, cache: &Path) -> Result<std::process::ExitStatus> {
    let out = Command::new(bin)
        .args(["read", "a.txt", "--root"])
        .arg(root)
        .env("FILETOOLS_CACHE_DIR", cache)
        .output()?;
    if out.status.success() && !String::from_utf8_lossy(&out.stdout).starts_with("1\tcached") {
        bail!("a start printed {}", String::from_utf8_lossy(&out.stdout));
    }
    Ok(out.status)
}

/// Where the artifact's code lies: the offset and size of its ELF `.text`
/// section (the whole file when it is not a 64-bit ELF file).
fn code_section(elf: &[u8]) -> Result<(u64, u64)> {
    let whole = Ok((0, elf.len() as u64));
    let u16_at = |at: usize| {
        elf.get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as usize)
    };
    let u32_at = |at: usize| {
        elf.get(at..at + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap_or_default()))
    };
    let u64_at = |at: usize| {
        elf.get(at..at + 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
    };
    if elf.get(..5) != Some(b"\x7fELF\x02") {
        return whole;
    }
    let (Some(table), Some(entry), Some(count), Some(names)) =
        (u64_at(0x28), u16_at(0x3A), u16_at(0x3C), u16_at(0x3E))
    else {
        return whole;
    };
    let header = |i: usize| table as usize + i * entry;
    let Some(strings) = u64_at(header(names) + 0x18) else {
        return whole;
    };
    for i in 0..count {
        let (Some(name), Some(offset), Some(size)) = (
            u32_at(header(i)),
            u64_at(header(i) + 0x18),
            u64_at(header(i) + 0x20),
        ) else {
            continue;
        };
        let at = strings as usize + name as usize;
        if elf.get(at..at + 6) == Some(b".text\0") {
            return Ok((offset, size));
        }
    }
    whole
}

/// The cached artifact.
fn artifact(cache: &Path) -> Result<PathBuf> {
    fs::read_dir(cache)?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|e| e == "cwasm"))
        .context("no artifact in the cache")
}
