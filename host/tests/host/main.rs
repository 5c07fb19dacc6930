//! Integration tests of the wasmtime host, one module per area.
#![expect(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    reason = "a test fails loudly on an unexpected error"
)]

mod backends;
mod cache;
mod changes;
mod cli;
mod cluster;
mod contract;
mod kinds;
mod mcp;
mod mcp_protocol;
mod outlines;
mod reliability;
mod sandbox;
mod serve;
mod sessions;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The `filetools` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_filetools");

/// A running `filetools session` of the binary under test, one call and
/// one answer at a time.
#[derive(Debug)]
pub struct SessionProcess(filetools_tests::cli::SessionProcess);

impl SessionProcess {
    /// Starts `filetools session --root root`.
    pub fn start(root: &Path) -> Self {
        Self::start_with(root, &[])
    }

    /// Starts `filetools session --root root` with `extra` arguments.
    pub fn start_with(root: &Path, extra: &[&str]) -> Self {
        Self(filetools_tests::cli::SessionProcess::start(Path::new(BIN), root, extra).unwrap())
    }

    /// Writes raw bytes to the session's input.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.0.send_raw(bytes).unwrap();
    }

    /// The next answer.
    pub fn answer(&mut self) -> Value {
        self.0
            .answer_within(filetools_tests::cli::ANSWER_TIMEOUT)
            .unwrap()
            .expect("an answer")
    }

    /// Sends one protocol line and waits for its answer.
    pub fn send(&mut self, line: &str) -> Value {
        self.0.send(line).unwrap()
    }

    /// Calls `tool` with `args`.
    pub fn call(&mut self, tool: &str, args: &Value) -> Value {
        self.0.call(tool, args).unwrap()
    }

    /// Closes stdin and checks that the process ends successfully.
    pub fn finish(self) {
        assert!(self.0.finish().unwrap().success());
    }
}

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
