//! Where real files nobody on the team wrote live on this machine: the cargo
//! registry's dependency sources and Python's standard library. The outline
//! tests and the token benchmark read them.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The cargo registry's unpacked sources (`$CARGO_HOME/registry/src`).
pub fn cargo_registry() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from("/root/.cargo"))
        .join("registry")
        .join("src")
}

/// python3's standard library directory, when python3 is installed.
pub fn python_stdlib() -> Option<PathBuf> {
    let output = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    path.is_dir().then_some(path)
}
