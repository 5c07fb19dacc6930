//! Integration tests of the wasmtime host, one module per area.
#![expect(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    reason = "a test fails loudly on an unexpected error"
)]

mod changes;
mod cli;
mod kinds;
mod outlines;
mod sandbox;
mod sessions;

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::Value;

/// The `filetools` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_filetools");

/// A running `filetools session`, one call and one answer at a time.
#[derive(Debug)]
pub struct SessionProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl SessionProcess {
    /// Starts `filetools session --root root`.
    pub fn start(root: &Path) -> Self {
        let mut child = Command::new(BIN)
            .args(["session", "--root"])
            .arg(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one protocol line and waits for its answer.
    pub fn send(&mut self, line: &str) -> Value {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).unwrap();
        serde_json::from_str(&answer).unwrap()
    }

    /// Calls `tool` with `args`.
    pub fn call(&mut self, tool: &str, args: &Value) -> Value {
        self.send(&serde_json::json!({ "tool": tool, "args": args }).to_string())
    }

    /// Closes stdin and checks that the process ends successfully.
    pub fn finish(mut self) {
        drop(self.stdin.take());
        assert!(self.child.wait().unwrap().success());
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
