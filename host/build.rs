//! Builds the guest components for `wasm32-wasip2` with a nested cargo (in
//! its own target directory, with the outer build's cargo variables
//! scrubbed) — the tools (`guest/`) and the grammars (`guest/code/`), which a
//! session instantiates only when a call first parses code — and hands their
//! paths to the crate as `FILETOOLS_COMPONENT_WASM` and
//! `FILETOOLS_CODE_COMPONENT_WASM`, with their SHA-256 (`…_SHA256`, the
//! precompiled-component cache keys, so start-up never hashes a component).
//! Setting `FILETOOLS_COMPONENT=/path/to/filetools_core.wasm` and
//! `FILETOOLS_CODE_COMPONENT=/path/to/filetools_code.wasm` uses prebuilt
//! ones; the published crate ships both in `component/` (there is no
//! `guest/` next to it), so its users need no wasm target, clang or
//! wasi-libc.
//!
//! It then precompiles each component into machine code for the machine it
//! builds on, with the engine configuration the crate runs it with, and
//! hands that over as `…_CWASM`: the first start after an
//! install loads it instead of compiling. `FILETOOLS_NO_PRECOMPILE=1` skips
//! this (the crate then compiles at its first start, as before); so does a
//! cross build, whose machine code would not run here anyway.

use std::env;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest as _, Sha256};

#[path = "src/engine_config.rs"]
#[allow(dead_code, reason = "shared with the crate, which uses all of it")]
mod engine_config;

/// Where the published crate carries the prebuilt components.
const SHIPPED: &str = "component/filetools_core.wasm";
const SHIPPED_CODE: &str = "component/filetools_code.wasm";

fn main() {
    pack_relative_relocations();
    println!("cargo:rerun-if-env-changed=FILETOOLS_COMPONENT");
    println!("cargo:rerun-if-env-changed=FILETOOLS_CODE_COMPONENT");
    let manifest =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let in_workspace = manifest.join("../guest/Cargo.toml").is_file();
    let given = |var: &str| env::var_os(var).map(PathBuf::from);
    let (wasm, code) = match (
        given("FILETOOLS_COMPONENT"),
        given("FILETOOLS_CODE_COMPONENT"),
    ) {
        (Some(wasm), Some(code)) => (wasm, code),
        (None, None) if !in_workspace => (manifest.join(SHIPPED), manifest.join(SHIPPED_CODE)),
        (None, None) => build_guest(),
        _ => panic!("set both FILETOOLS_COMPONENT and FILETOOLS_CODE_COMPONENT, or neither"),
    };
    embed("FILETOOLS_COMPONENT", &wasm);
    embed("FILETOOLS_CODE_COMPONENT", &code);
}

/// Hands the component at `wasm` to the crate as `{prefix}_WASM`, with its
/// SHA-256 as `{prefix}_SHA256` and its machine code as `{prefix}_CWASM`.
fn embed(prefix: &str, wasm: &Path) {
    assert!(
        wasm.is_file(),
        "the filetools component {} does not exist",
        wasm.display()
    );
    println!("cargo:rustc-env={prefix}_WASM={}", wasm.display());
    let bytes = std::fs::read(wasm).expect("cannot read the filetools component");
    let digest = Sha256::digest(&bytes)
        .iter()
        .fold(String::new(), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        });
    println!("cargo:rustc-env={prefix}_SHA256={digest}");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let cwasm = out.join(format!("{}.cwasm", prefix.to_ascii_lowercase()));
    std::fs::write(&cwasm, precompile(&bytes)).expect("cannot write the precompiled component");
    println!("cargo:rustc-env={prefix}_CWASM={}", cwasm.display());
}

/// The component's machine code for this machine, or nothing when it is not
/// wanted or cannot be made (the crate then compiles at its first start).
fn precompile(wasm: &[u8]) -> Vec<u8> {
    println!("cargo:rerun-if-env-changed=FILETOOLS_NO_PRECOMPILE");
    let cross = env::var("TARGET").ok() != env::var("HOST").ok();
    if cross || env::var_os("FILETOOLS_NO_PRECOMPILE").is_some_and(|v| v != "0") {
        return Vec::new();
    }
    wasmtime::Engine::new(&engine_config::engine_config())
        .and_then(|engine| engine.precompile_component(wasm))
        .unwrap_or_else(|err| {
            println!("cargo:warning=the component was not precompiled ({err}); it will be compiled at the first start");
            Vec::new()
        })
}

/// Builds both components; their paths.
fn build_guest() -> (PathBuf, PathBuf) {
    let manifest =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let workspace = manifest
        .parent()
        .expect("host/ lives in the workspace")
        .to_path_buf();
    for watched in [
        "guest/src",
        "guest/Cargo.toml",
        "guest/code/src",
        "guest/code/Cargo.toml",
        "wit",
        "Cargo.toml",
        "Cargo.lock",
        ".cargo/config.toml",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            workspace.join(watched).display()
        );
    }
    let target_dir = workspace.join("target").join("guest");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(&workspace)
        .args([
            "build",
            "--profile",
            "guest",
            "--package",
            "agent-filetools-core",
            "--package",
            "agent-filetools-code",
            "--target",
            "wasm32-wasip2",
        ])
        .arg("--target-dir")
        .arg(&target_dir);
    for (key, _) in env::vars_os() {
        let key = key.to_string_lossy();
        let outer = key.starts_with("CARGO_") && key != "CARGO_HOME"
            || matches!(
                key.as_ref(),
                "RUSTFLAGS"
                    | "RUSTC"
                    | "RUSTC_WRAPPER"
                    | "RUSTC_WORKSPACE_WRAPPER"
                    | "RUSTDOC"
                    | "TARGET"
                    | "HOST"
                    | "OUT_DIR"
                    | "PROFILE"
                    | "OPT_LEVEL"
                    | "DEBUG"
                    | "NUM_JOBS"
                    | "RUSTC_LINKER"
                    | "CLIPPY_ARGS"
                    | "CLIPPY_CONF_DIR"
            );
        if outer {
            command.env_remove(key.as_ref());
        }
    }
    let status = command
        .status()
        .expect("cannot run cargo to build the guest component");
    assert!(
        status.success(),
        "building the guest component failed; if the wasm32-wasip2 target is missing, \
         run `rustup target add wasm32-wasip2` (or `cargo xtask setup`)"
    );
    let built = target_dir.join("wasm32-wasip2").join("guest");
    (
        built.join("filetools_core.wasm"),
        built.join("filetools_code.wasm"),
    )
}

/// Asks the linker to pack the command's relative relocations (`DT_RELR`)
/// on GNU/Linux: the 1.2 MB table of 50,000 relocations the dynamic loader
/// reads at every start becomes 14 KB, and a one-shot `filetools read`
/// starts 0.2–0.6 ms sooner, with address randomisation kept. The loader
/// still places every pointer. A linker that predates the option ignores
/// it with a warning, and one whose C library cannot load packed
/// relocations (glibc before 2.36) leaves them unpacked.
fn pack_relative_relocations() {
    let var = |name: &str| env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu" {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
