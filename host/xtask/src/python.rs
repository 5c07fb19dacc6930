//! The Python package `agent-filetools`: maturin builds one abi3 wheel with
//! the host and its precompiled component inside; the wheel is installed
//! into a fresh virtual environment with no Rust on the path, and pytest
//! runs the package's tests there against it (the conformance cases over a
//! root and over a file system written in Python, races, and each SDK
//! adapter against the real SDK from PyPI).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, Result, bail};

use crate::run::{self, root, status};

/// The wheel builder, pinned.
const MATURIN: &str = "maturin==1.16.0";

/// How the wheel's Rust is built.
#[derive(Debug, Clone, Copy)]
pub enum Profile {
    /// Unoptimised host code, sharing the tests' build (the component
    /// inside is optimised either way): what the tests install.
    Dev,
    /// What is published and benchmarked.
    Release,
}

/// maturin in a virtual environment of its own, installed once.
fn maturin() -> Result<PathBuf> {
    let venv = root().join("target/python-build");
    let stamp = venv.join("installed.txt");
    if std::fs::read_to_string(&stamp).is_ok_and(|had| had == MATURIN) {
        return Ok(venv.join("bin/maturin"));
    }
    println!("installing {MATURIN} into target/python-build");
    let _ = std::fs::remove_dir_all(&venv);
    status(Command::new("python3").args(["-m", "venv"]).arg(&venv))
        .context("Python 3 with venv is needed to build the wheel")?;
    pip(&venv, &["install", MATURIN])?;
    std::fs::write(&stamp, MATURIN)?;
    Ok(venv.join("bin/maturin"))
}

/// Builds the wheel into `target/wheels` (the only one there); returns it.
pub fn wheel(profile: Profile) -> Result<PathBuf> {
    let maturin = maturin()?;
    let out = root().join("target/wheels");
    let _ = std::fs::remove_dir_all(&out);
    let profile = match profile {
        Profile::Dev => "dev",
        Profile::Release => "release",
    };
    status(
        Command::new(maturin)
            .args(["build", "--quiet", "--profile", profile, "--out"])
            .arg(&out)
            .current_dir(root()),
    )
    .context("building the wheel")?;
    let wheels: Vec<PathBuf> = std::fs::read_dir(&out)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .collect();
    let [wheel] = wheels.as_slice() else {
        bail!("maturin left {} wheels in {}", wheels.len(), out.display());
    };
    println!(
        "built {} ({} bytes)",
        wheel.display(),
        std::fs::metadata(wheel)?.len()
    );
    Ok(wheel.clone())
}

/// A new virtual environment at `dir` (any old one removed) with `wheel`
/// and then `requirements` installed.
pub fn fresh_venv(dir: &Path, wheel: &Path, requirements: Option<&Path>) -> Result<()> {
    let _ = std::fs::remove_dir_all(dir);
    status(Command::new("python3").args(["-m", "venv"]).arg(dir))
        .context("Python 3 with venv is needed for the Python tests")?;
    let wheel = wheel.to_string_lossy();
    pip(dir, &["install", &wheel])?;
    if let Some(requirements) = requirements {
        pip(dir, &["install", "-r", &requirements.to_string_lossy()])?;
    }
    Ok(())
}

fn pip(venv: &Path, args: &[&str]) -> Result<()> {
    status(
        Command::new(venv.join("bin/pip"))
            .args(["--quiet", "--disable-pip-version-check"])
            .args(args),
    )
}

/// `PATH` for the virtual environment `venv`: its `bin` first, and none of
/// the directories that hold a Rust toolchain, so nothing there can build.
pub fn path_without_rust(venv: &Path) -> Result<OsString> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept =
        std::iter::once(venv.join("bin")).chain(std::env::split_paths(&path).filter(|dir| {
            !["cargo", "rustc", "rustup"]
                .iter()
                .any(|t| dir.join(t).exists())
        }));
    Ok(std::env::join_paths(kept)?)
}

/// Builds the wheel, installs it into a fresh environment beside the
/// tests' requirements, and runs pytest there.
pub fn test() -> Result<PathBuf> {
    let wheel = wheel(Profile::Dev)?;
    let venv = root().join("target/python-test");
    let requirements = root().join("host/python/tests/requirements.txt");
    fresh_venv(&venv, &wheel, Some(&requirements))?;
    // The cases as the Rust tests lay them out, generated inputs included.
    let cases = root().join("target/py-cases");
    run::cargo(&["build", "--quiet", "--package", "filetools-cases"])?;
    status(Command::new(run::debug_dir().join("cases")).arg(&cases))
        .context("laying the conformance cases out")?;
    let tests = root().join("host/python/tests");
    let adk = tests.join("test_adk.py");
    pytest(
        &venv,
        &cases,
        &[
            format!("--ignore={}", adk.display()).as_ref(),
            tests.as_ref(),
        ],
    )
    .context("the Python tests")?;
    // Google's ADK caps google-genai below the version the Gen AI adapter
    // is tested with: its test runs in an environment of its own.
    let adk_venv = root().join("target/python-adk");
    fresh_venv(&adk_venv, &wheel, Some(&tests.join("requirements-adk.txt")))?;
    pytest(&adk_venv, &cases, &[adk.as_ref()]).context("the Python tests of filetools.adk")?;
    Ok(wheel)
}

/// Runs pytest in `venv` over `args` (paths and options), with the cases
/// laid out in `cases`.
fn pytest(venv: &Path, cases: &Path, args: &[&std::ffi::OsStr]) -> Result<()> {
    status(
        Command::new(venv.join("bin/python"))
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .args(args)
            .current_dir(venv)
            .env("PATH", path_without_rust(venv)?)
            .env("FILETOOLS_WHEEL_TEST", "1")
            .env("FILETOOLS_CASES_DIR", cases)
            .env_remove("PYTHONPATH")
            .env_remove("CARGO"),
    )
}
