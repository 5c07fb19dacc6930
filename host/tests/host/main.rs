//! Integration tests of the wasmtime host, one module per area.
#![expect(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    reason = "a test fails loudly on an unexpected error"
)]

mod cli;
mod sandbox;
mod sessions;

use std::path::{Path, PathBuf};

/// A fresh directory under the workspace's `target/`.
pub fn scratch(label: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target")
        .join("host-tests")
        .join(format!("{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// A directory with a `root/` the tools see and an `outside/` they must not.
pub fn root_and_outside(label: &str) -> (PathBuf, PathBuf) {
    let base = scratch(label);
    let root = base.join("root");
    let outside = base.join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "secret\n").unwrap();
    (root, outside)
}

/// Tools over `root` with a per-test cache directory.
pub fn tools(root: &Path) -> filetools::Tools {
    filetools::Tools::builder()
        .root(root)
        .cache_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/host-tests/cache"))
        .build()
        .expect("tools build")
}

/// A read call's arguments.
pub fn read_args(path: &str) -> String {
    serde_json::json!({ "file_path": path }).to_string()
}
