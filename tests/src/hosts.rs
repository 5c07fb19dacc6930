//! The hosts every case runs on. Each returns one result per call.

use std::path::Path;

use anyhow::Result;
use filetools::{Sandbox, ToolResult, Tools};
use filetools_core::{Config, HostFs, MemFs, Session};
use serde_json::{Map, Value};

use crate::case::Case;

/// Chunk sizes the in-memory native run repeats each case at.
pub const CHUNK_SIZES: [u32; 4] = [1, 7, 4096, 64 * 1024];

/// A place a case can run.
pub trait Host {
    /// A short name for reports.
    fn name(&self) -> String;
    /// Runs every call of `case` against the files laid out in `root`.
    fn run(&self, case: &Case, root: &Path) -> Result<Vec<ToolResult>>;
}

/// The session config of `case`, with `root` filled in the way the wasmtime
/// host fills it when the case does not set one.
fn config_for(case: &Case, root: &Path) -> Result<Config> {
    let mut map: Map<String, Value> = serde_json::from_str(&case.config)?;
    map.entry("root").or_insert_with(|| {
        Value::String(
            root.canonicalize()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
        )
    });
    Config::from_json(&Value::Object(map).to_string()).map_err(anyhow::Error::msg)
}

/// Every call of `case`, in order, on the native core.
fn run_calls<F: HostFs>(mut session: Session<F>, case: &Case) -> Vec<ToolResult> {
    case.calls
        .iter()
        .map(|call| session.call(&call.tool, &call.arguments))
        .collect()
}

/// Loads every file under `dir` into `fs`, paths relative to `dir`.
fn load_tree(fs: &MemFs, dir: &Path, prefix: &str) -> Result<()> {
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
            load_tree(fs, &entry.path(), &path)?;
        } else {
            fs.add_file(&path, &std::fs::read(entry.path())?);
        }
    }
    Ok(())
}

/// The core compiled natively, over the host's sandbox.
#[derive(Debug, Default)]
pub struct Native;

impl Host for Native {
    fn name(&self) -> String {
        "native".into()
    }

    fn run(&self, case: &Case, root: &Path) -> Result<Vec<ToolResult>> {
        let session = Session::new(config_for(case, root)?, Sandbox::open(root, false)?);
        Ok(run_calls(session, case))
    }
}

/// The core compiled natively, over an in-memory copy of the files, fetching
/// `chunk` bytes at a time.
#[derive(Debug)]
pub struct NativeMemory {
    /// Bytes per host read.
    pub chunk: u32,
}

impl Host for NativeMemory {
    fn name(&self) -> String {
        format!("native-memory-chunk-{}", self.chunk)
    }

    fn run(&self, case: &Case, root: &Path) -> Result<Vec<ToolResult>> {
        let fs = MemFs::new();
        load_tree(&fs, root, "")?;
        let mut config = config_for(case, root)?;
        config.chunk_bytes = self.chunk;
        Ok(run_calls(Session::new(config, fs), case))
    }
}

/// The component in wasmtime, through the host library.
#[derive(Debug, Default)]
pub struct Wasmtime;

impl Host for Wasmtime {
    fn name(&self) -> String {
        "wasmtime".into()
    }

    fn run(&self, case: &Case, root: &Path) -> Result<Vec<ToolResult>> {
        let tools = Tools::builder()
            .root(root)
            .config_json(&case.config)?
            .build()?;
        let mut session = tools.session()?;
        Ok(case
            .calls
            .iter()
            .map(|call| session.call(&call.tool, &call.arguments))
            .collect())
    }
}

/// Every host a case must agree on, the reference (wasmtime) first.
pub fn all() -> Vec<Box<dyn Host>> {
    let mut hosts: Vec<Box<dyn Host>> = vec![Box::new(Wasmtime), Box::new(Native)];
    for chunk in CHUNK_SIZES {
        hosts.push(Box::new(NativeMemory { chunk }));
    }
    hosts
}
