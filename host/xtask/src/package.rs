//! `cargo xtask package`: the publishable packages, and a check that each
//! works once installed. The crates `agent-filetools-code-types`,
//! `agent-filetools-code`, `agent-filetools-core` and `agent-filetools` are
//! packed with the prebuilt
//! components inside the last (so users need no wasm target, clang or
//! wasi-libc), unpacked into
//! a scratch Rust project that depends on them, built, and run on a real
//! file; the npm package `agent-filetools` is packed and installed into a
//! scratch Node project that reads and edits a file through it. Sizes are
//! printed.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, Result, bail};

use crate::python;
use crate::run::{self, root, status};

/// The crates published, in dependency order.
const CRATES: [&str; 4] = [
    "agent-filetools-code-types",
    "agent-filetools-code",
    "agent-filetools-core",
    "agent-filetools",
];

/// Where the scratch projects and the packed artifacts go.
fn scratch() -> PathBuf {
    root().join("target/scratch")
}

/// Packs and tries every package; `wheel` is the Python wheel when one was
/// built already (else a release one is built).
pub fn run(wheel: Option<&Path>) -> Result<()> {
    let dir = scratch();
    // The scratch build's target directory stays, so a second run is quick.
    for stale in ["rust", "rust-files", "crates", "node", "python"] {
        let _ = std::fs::remove_dir_all(dir.join(stale));
    }
    std::fs::create_dir_all(&dir)?;
    let crates = pack_crates()?;
    install_crates(&crates)?;
    let tarball = pack_npm()?;
    install_npm(&tarball)?;
    let wheel = match wheel {
        Some(wheel) => wheel.to_path_buf(),
        None => python::wheel(python::Profile::Release)?,
    };
    install_wheel(&wheel)
}

/// A clean virtual environment installs the wheel alone, and the README's
/// first Python lines run there as written, Rust off the path.
fn install_wheel(wheel: &Path) -> Result<()> {
    let dir = scratch().join("python");
    let venv = dir.join("venv");
    python::fresh_venv(&venv, wheel, None)?;
    let readme = std::fs::read_to_string(root().join("README.md"))?;
    let snippet = readme_python(&readme)?;
    std::fs::write(dir.join("notes.txt"), "alpha\nbeta\n")?;
    std::fs::write(dir.join("readme.py"), snippet)?;
    let out = Command::new(venv.join("bin/python"))
        .arg("readme.py")
        .current_dir(&dir)
        .env("PATH", python::path_without_rust(&venv)?)
        .env_remove("PYTHONPATH")
        .output()
        .context("running the README's Python lines")?;
    if !out.status.success() {
        bail!(
            "the README's Python lines failed in a clean environment:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    print!("{}", String::from_utf8_lossy(&out.stdout));
    expect(&dir.join("notes.txt"), "alpha\nBETA\n")?;
    println!("the wheel, installed alone, ran the README's Python lines");
    Ok(())
}

/// The README's first `python` code block under "### Python".
fn readme_python(readme: &str) -> Result<&str> {
    let section = readme
        .split_once("\n### Python\n")
        .context("the README has no \"### Python\" section")?
        .1;
    let block = section
        .split_once("```python\n")
        .and_then(|(_, rest)| rest.split_once("\n```"))
        .context("the README's Python section has no python code block")?
        .0;
    Ok(block)
}

/// Packs the crates, the components prebuilt inside `agent-filetools`;
/// returns the `.crate` files.
fn pack_crates() -> Result<Vec<PathBuf>> {
    // The component, as the host's build made it.
    run::cargo(&["build", "--package", "agent-filetools"])?;
    let shipped = root().join("host/component");
    std::fs::create_dir_all(&shipped)?;
    for name in ["filetools_core.wasm", "filetools_code.wasm"] {
        let built = root().join("target/guest/wasm32-wasip2/guest").join(name);
        std::fs::copy(&built, shipped.join(name))
            .with_context(|| format!("copying {}", built.display()))?;
    }
    let mut args = vec!["package", "--no-verify", "--allow-dirty"];
    for name in CRATES {
        args.extend(["--package", name]);
    }
    run::cargo(&args)?;
    let version = env!("CARGO_PKG_VERSION");
    let packed: Vec<PathBuf> = CRATES
        .iter()
        .map(|name| root().join(format!("target/package/{name}-{version}.crate")))
        .collect();
    for file in &packed {
        println!(
            "packed {} ({} bytes)",
            file.display(),
            std::fs::metadata(file)?.len()
        );
    }
    Ok(packed)
}

/// A scratch Rust project using the unpacked crates reads and edits a file.
fn install_crates(packed: &[PathBuf]) -> Result<()> {
    let dir = scratch().join("rust");
    let unpacked = scratch().join("crates");
    std::fs::create_dir_all(dir.join("src"))?;
    std::fs::create_dir_all(&unpacked)?;
    for file in packed {
        status(
            Command::new("tar")
                .arg("-xzf")
                .arg(file)
                .arg("-C")
                .arg(&unpacked),
        )?;
    }
    let version = env!("CARGO_PKG_VERSION");
    // A TOML string of the unpacked crate's path.
    let path_of = |name: &str| {
        let path = unpacked.join(format!("{name}-{version}"));
        let text = path.display().to_string();
        format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
    };
    // The crates as a user gets them: by version, here from the packed
    // sources instead of the registry. Without debug info, which would
    // double the build's disk and link time and prove nothing here.
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"scratch\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nagent-filetools = \"{version}\"\nanyhow = \"1\"\n\n\
             [patch.crates-io]\nagent-filetools = {{ path = {} }}\nagent-filetools-core = {{ path = {} }}\nagent-filetools-code = {{ path = {} }}\nagent-filetools-code-types = {{ path = {} }}\n\n\
             [workspace]\n\n\
             [profile.dev]\ndebug = false\n",
            path_of("agent-filetools"),
            path_of("agent-filetools-core"),
            path_of("agent-filetools-code"),
            path_of("agent-filetools-code-types"),
        ),
    )?;
    std::fs::write(dir.join("src/main.rs"), SCRATCH_MAIN)?;
    // The workspace's versions of every dependency.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock"))?;
    let files = scratch().join("rust-files");
    std::fs::create_dir_all(&files)?;
    std::fs::write(files.join("notes.txt"), "alpha\nbeta\n")?;
    // A target directory of its own: sharing the workspace's would let
    // the scratch build replace artifacts the workspace's builds link.
    let target = scratch().join("target");
    status(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["run", "--offline", "--quiet", "--"])
            .arg(&files)
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", &target)
            .env("FILETOOLS_CACHE_DIR", root().join("target/filetools-cache"))
            .env_remove("FILETOOLS_COMPONENT")
            .env_remove("FILETOOLS_CODE_COMPONENT"),
    )
    .context("the scratch project using the packed crates")?;
    expect(&files.join("notes.txt"), "alpha\nBETA\n")
}

/// What the scratch Rust project runs.
const SCRATCH_MAIN: &str = r##"fn main() -> anyhow::Result<()> {
    let root = std::env::args().nth(1).expect("a directory");
    let tools = filetools::Tools::builder().root(&root).build()?;
    let mut session = tools.session()?;
    let read = session.call("read", r#"{"file_path": "notes.txt"}"#);
    assert_eq!(read.text(), "1\talpha\n2\tbeta\n[lines 1-2 of 2; end of file]\n[version f5b0de433497dee6-11]");
    let edit = session.call("edit", r#"{"file_path": "notes.txt", "old_string": "beta", "new_string": "BETA"}"#);
    assert!(!edit.is_error, "{}", edit.text());
    println!("the packed crates read and edited a file");
    Ok(())
}
"##;

/// Packs the npm package (its `prepack` builds it first); returns the
/// tarball.
fn pack_npm() -> Result<PathBuf> {
    let out = Command::new("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(scratch())
        .current_dir(root().join("js"))
        .output()
        .context("npm pack")?;
    if !out.status.success() {
        bail!("npm pack failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let name = String::from_utf8_lossy(&out.stdout)
        .trim()
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned();
    let tarball = scratch().join(name);
    println!(
        "packed {} ({} bytes)",
        tarball.display(),
        std::fs::metadata(&tarball)?.len()
    );
    Ok(tarball)
}

/// A scratch Node project installs the tarball and reads and edits a file.
fn install_npm(tarball: &Path) -> Result<()> {
    let dir = scratch().join("node");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("package.json"),
        "{\"name\": \"scratch\", \"private\": true, \"type\": \"module\"}\n",
    )?;
    status(
        Command::new("npm")
            .args([
                "install",
                "--offline",
                "--no-audit",
                "--no-fund",
                "--silent",
            ])
            .arg(tarball)
            .current_dir(&dir),
    )
    .context("installing the packed npm package")?;
    std::fs::write(dir.join("notes.txt"), "alpha\nbeta\n")?;
    std::fs::write(dir.join("main.js"), SCRATCH_NODE)?;
    status(Command::new("node").arg("main.js").current_dir(&dir))
        .context("the scratch project using the packed npm package")?;
    expect(&dir.join("notes.txt"), "alpha\nBETA\n")
}

/// What the scratch Node project runs.
const SCRATCH_NODE: &str = "import assert from 'node:assert/strict';
import { createTools, nodeFs } from 'agent-filetools';

const tools = await createTools({ fs: nodeFs('.') });
const read = await tools.call('read', { file_path: 'notes.txt' });
assert.equal(read.content[0].text, '1\\talpha\\n2\\tbeta\\n[lines 1-2 of 2; end of file]\\n[version f5b0de433497dee6-11]');
const edit = await tools.call('edit', { file_path: 'notes.txt', old_string: 'beta', new_string: 'BETA' });
assert.equal(edit.isError, false, edit.content[0].text);
console.log('the packed npm package read and edited a file');
";

fn expect(path: &Path, content: &str) -> Result<()> {
    let now = std::fs::read_to_string(path)?;
    if now != content {
        bail!("{} holds {now:?}, not {content:?}", path.display());
    }
    Ok(())
}
