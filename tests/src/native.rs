//! Turning a case's files into an in-memory file system for the native core.

use std::path::Path;

use anyhow::Result;
use filetools_core::MemFs;

/// Loads every file under `dir` into `fs`, paths relative to `dir`.
pub fn load_tree(fs: &MemFs, dir: &Path) -> Result<()> {
    load_below(fs, dir, "")
}

fn load_below(fs: &MemFs, dir: &Path, prefix: &str) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if entry.file_type()?.is_dir() {
            fs.add_dir(&path);
            load_below(fs, &entry.path(), &path)?;
        } else {
            fs.add_file(&path, &std::fs::read(entry.path())?);
        }
    }
    Ok(())
}
