//! Running commands from the workspace root, and installing what is missing.

use std::path::{Path, PathBuf};
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

/// What a task can need on the machine, each installed by its function
/// below when missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// The `wasm32-wasip2` Rust target the components are built for.
    WasmTarget,
    /// clang and wasi-libc, which compile the tree-sitter grammars (C) for
    /// the component.
    GrammarToolchain,
    /// The npm package's locked dependencies in `js/node_modules` (jco, the
    /// SDKs the tests drive, Biome).
    NodePackages,
    /// The Python MCP client and SDKs the MCP tests drive, in `target/py`.
    McpClient,
    /// ruff, the Python linter and formatter, in `target/py-lint`.
    Ruff,
    /// Deno, for the npm package's Deno tests.
    Deno,
    /// workerd, for the npm package's Worker tests.
    Workerd,
    /// `redis-server`, for the session store's tests and benchmark.
    Redis,
    /// Chromium, for the browser tests.
    Chromium,
    /// ripgrep, the reference the search is tested and measured against.
    Ripgrep,
}

/// What builds the component: every task that builds the host, whose build
/// builds the guest.
pub const BUILD: &[Need] = &[Need::WasmTarget, Need::GrammarToolchain];

/// Everything any task needs (what `cargo xtask setup` installs).
pub const EVERYTHING: &[Need] = &[
    Need::WasmTarget,
    Need::GrammarToolchain,
    Need::NodePackages,
    Need::McpClient,
    Need::Ruff,
    Need::Deno,
    Need::Workerd,
    Need::Redis,
    Need::Chromium,
    Need::Ripgrep,
];

/// Installs each of `needs` that is missing.
pub fn install(needs: &[Need]) -> Result<()> {
    for need in needs {
        match need {
            Need::WasmTarget => wasm_target()?,
            Need::GrammarToolchain => grammar_toolchain()?,
            Need::NodePackages => node_packages()?,
            Need::McpClient => python_mcp_client()?,
            Need::Ruff => ruff().map(drop)?,
            Need::Deno => deno()?,
            Need::Workerd => workerd()?,
            Need::Redis => redis()?,
            Need::Chromium => chromium()?,
            Need::Ripgrep => ripgrep()?,
        }
    }
    Ok(())
}

/// Installs the wasm target when rustup lacks it.
fn wasm_target() -> Result<()> {
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

/// `redis-server`, for the tests of `filetools serve`'s shared session
/// store (each test starts its own on a free loopback port).
fn redis() -> Result<()> {
    let installed = Command::new("redis-server")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if installed {
        return Ok(());
    }
    println!("installing redis-server (Debian package) for the session store tests");
    apt_install(&["redis-server"])
}

/// `rg`, for the differential test of `grep` and the search benchmark.
fn ripgrep() -> Result<()> {
    let installed = Command::new("rg")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if installed {
        return Ok(());
    }
    println!("installing ripgrep (Debian package) for the search tests");
    apt_install(&["ripgrep"])
}

/// The workerd release the Worker tests run, from its npm package.
const WORKERD_VERSION: &str = "1.20261117.1";

/// workerd, the Workers runtime, for the tests that run the package in a
/// Worker, into `target/workerd` (Linux on x86-64; elsewhere set
/// `FILETOOLS_WORKERD` to a workerd binary).
fn workerd() -> Result<()> {
    npm_tool(
        "target/workerd",
        &format!("@cloudflare/workerd-linux-64@{WORKERD_VERSION}"),
    )
}

/// The Deno release the Deno tests run, from its npm package.
const DENO_VERSION: &str = "2.9.6";

/// Deno, for the tests that run the package under its least privilege,
/// into `target/deno` (Linux on x86-64; elsewhere set `FILETOOLS_DENO` to
/// a Deno binary).
fn deno() -> Result<()> {
    npm_tool(
        "target/deno",
        &format!("@deno/linux-x64-glibc@{DENO_VERSION}"),
    )
}

/// Installs the npm package `spec` (a runtime's binary) into `dir`, on
/// Linux x86-64, unless that version is there already.
fn npm_tool(dir: &str, spec: &str) -> Result<()> {
    if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64")) {
        return Ok(());
    }
    let dir = root().join(dir);
    let stamp = dir.join("installed.txt");
    if std::fs::read_to_string(&stamp).is_ok_and(|had| had == spec) {
        return Ok(());
    }
    println!("installing {spec} into {}", dir.display());
    std::fs::create_dir_all(&dir)?;
    status(
        Command::new("npm")
            .args([
                "install",
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--prefix",
            ])
            .arg(&dir)
            .arg(spec),
    )?;
    std::fs::write(&stamp, spec)?;
    Ok(())
}

/// The Python MCP client the MCP tests drive the server with, pinned in
/// `tests/mcp/requirements.txt`, in a virtual environment inside `target/`.
fn python_mcp_client() -> Result<()> {
    pinned_venv(
        "target/py",
        "tests/mcp/requirements.txt",
        "the Python MCP client and the OpenAI and Anthropic SDKs",
    )
    .map(drop)
}

/// ruff, pinned in `host/python/lint-requirements.txt`, in a virtual
/// environment inside `target/`; returns its path.
pub fn ruff() -> Result<PathBuf> {
    let venv = pinned_venv(
        "target/py-lint",
        "host/python/lint-requirements.txt",
        "ruff, the Python linter and formatter",
    )?;
    Ok(venv.join("bin/ruff"))
}

/// A virtual environment at `dir` with the packages `requirements` pins
/// (both relative to the workspace root), installed unless that list was
/// installed there already; returns the environment's path.
fn pinned_venv(dir: &str, requirements: &str, what: &str) -> Result<PathBuf> {
    let venv = root().join(dir);
    let stamp = venv.join("installed.txt");
    let wanted = std::fs::read_to_string(root().join(requirements))?;
    if std::fs::read_to_string(&stamp).is_ok_and(|had| had == wanted) {
        return Ok(venv);
    }
    println!("installing {what} ({requirements}) into {dir}");
    status(Command::new("python3").arg("-m").arg("venv").arg(&venv))
        .with_context(|| format!("Python 3 with venv is needed for {what}"))?;
    status(
        Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
            .arg(root().join(requirements)),
    )?;
    std::fs::write(&stamp, wanted)?;
    Ok(venv)
}

/// Runs `npm args…` in `js/`.
pub fn npm(args: &[&str]) -> Result<()> {
    npm_env(args, &[])
}

/// Runs `npm args…` in `js/` with extra environment.
pub fn npm_env(args: &[&str], env: &[(&str, &Path)]) -> Result<()> {
    let mut command = Command::new("npm");
    command.args(args).current_dir(root().join("js"));
    for (key, value) in env {
        command.env(key, value);
    }
    status(&mut command)
}

/// Where cargo puts debug builds: `$CARGO_TARGET_DIR/debug` or `target/debug`.
pub fn debug_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root().join("target"), PathBuf::from)
        .join("debug")
}

/// The npm package's dependencies, as locked, when they are not installed
/// or the lock changed since they were (npm writes its own copy of the lock
/// into `node_modules` as it installs).
fn node_packages() -> Result<()> {
    let js = root().join("js");
    let modified = |path: PathBuf| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let installed = modified(js.join("node_modules/.package-lock.json"));
    let locked = modified(js.join("package-lock.json"));
    if installed.is_some() && installed >= locked {
        return Ok(());
    }
    println!("installing the npm package's dependencies (npm ci)");
    npm(&["ci", "--no-audit", "--no-fund"])
        .context("Node.js 20 and npm are needed for the npm package")
}

/// Debian's Chromium, which the browser tests drive; never a downloaded one.
const CHROMIUM: &str = "/usr/bin/chromium";

fn chromium() -> Result<()> {
    if Path::new(CHROMIUM).is_file() {
        return Ok(());
    }
    println!("installing Chromium (Debian package) for the browser tests");
    apt_install(&["chromium"])
}

/// The header the grammars compile against (Debian's `wasi-libc`; the path
/// is set in `.cargo/config.toml`).
const WASI_LIBC_HEADER: &str = "/usr/include/wasm32-wasi/stdlib.h";

/// The tree-sitter grammars are C: the component needs clang and the
/// wasi-libc headers. Installs Debian's packages when they are missing.
fn grammar_toolchain() -> Result<()> {
    let clang = Command::new("clang")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if clang && Path::new(WASI_LIBC_HEADER).is_file() {
        return Ok(());
    }
    println!("installing clang and wasi-libc (Debian packages) for the tree-sitter grammars");
    apt_install(&["clang", "wasi-libc"])
}

/// Installs Debian packages, through `sudo` when not root; refreshes the
/// package lists once if the first try fails.
fn apt_install(packages: &[&str]) -> Result<()> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let apt = |args: &[&str]| {
        let mut command = if root {
            Command::new("apt-get")
        } else {
            Command::new("sudo")
        };
        if !root {
            command.arg("apt-get");
        }
        command.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        status(&mut command)
    };
    let mut install = vec!["install", "-y"];
    install.extend_from_slice(packages);
    if apt(&install).is_err() {
        apt(&["update"])?;
        apt(&install)
            .with_context(|| format!("install the Debian packages {}", packages.join(", ")))?;
    }
    Ok(())
}

/// Builds the release CLI; returns its path.
pub fn release_cli() -> Result<PathBuf> {
    cargo(&[
        "build",
        "--release",
        "--package",
        "agent-filetools",
        "--bin",
        "filetools",
    ])?;
    Ok(root().join("target/release/filetools"))
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
