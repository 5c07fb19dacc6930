//! Running commands from the workspace root, and installing what is missing.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context as _, Result, bail};

/// The Rust target the component is built for.
const WASM_TARGET: &str = "wasm32-wasip2";

/// The workspace root (xtask lives in `host/xtask`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap_or_else(|_| PathBuf::from("."))
}

/// Installs the wasm target when rustup lacks it.
pub fn setup() -> Result<()> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .current_dir(root())
        .output()
        .context("rustup is needed to build the component; install Rust with rustup")?;
    if !String::from_utf8_lossy(&installed.stdout)
        .lines()
        .any(|t| t.trim() == WASM_TARGET)
    {
        println!("installing the {WASM_TARGET} Rust target");
        status(Command::new("rustup").args(["target", "add", WASM_TARGET]))?;
    }
    Ok(())
}

/// Runs `cargo args…` in the workspace root.
pub fn cargo(args: &[&str]) -> Result<()> {
    cargo_env(args, &[])
}

/// Runs `cargo args…` with extra environment. The precompiled-component
/// cache is kept inside the workspace so runs leave nothing outside it.
pub fn cargo_env(args: &[&str], env: &[(&str, &str)]) -> Result<()> {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.args(args).current_dir(root());
    if std::env::var_os("FILETOOLS_CACHE_DIR").is_none() {
        command.env("FILETOOLS_CACHE_DIR", root().join("target/filetools-cache"));
    }
    for (key, value) in env {
        command.env(key, value);
    }
    status(&mut command)
}

/// Runs `command`, failing with its command line when it fails.
pub fn status(command: &mut Command) -> Result<()> {
    let shown = format!("{command:?}");
    let status = command
        .status()
        .with_context(|| format!("cannot run {shown}"))?;
    if !status.success() {
        bail!("{shown} failed with {status}");
    }
    Ok(())
}
