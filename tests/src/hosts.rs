//! The hosts every case runs on. Each runs a case's steps in order — tool
//! calls, and outside changes applied to its own file system — and returns
//! one result per call and the files as they stand afterwards.

use std::fs::{self, File};
use std::path::Path;
use std::time::{Duration, SystemTime};

use anyhow::{Context as _, Result, bail};
use filetools::{Sandbox, ToolResult, Tools};
use filetools_core::{Config, HostFs, MemFs, Session};
use serde_json::{Map, Value};

use crate::case::{Call, Case, External, Step, Tree, snapshot};

/// Chunk sizes the in-memory native run repeats each case at.
pub const CHUNK_SIZES: [u32; 4] = [1, 7, 4096, 64 * 1024];

/// What a host made of a case.
#[derive(Debug)]
pub struct Run {
    /// One result per call.
    pub results: Vec<ToolResult>,
    /// Every file after the last step.
    pub after: Tree,
}

/// A place a case can run.
pub trait Host {
    /// A short name for reports.
    fn name(&self) -> String;
    /// Runs every step of `case` against the files laid out in `root`.
    fn run(&self, case: &Case, root: &Path) -> Result<Run>;
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

/// What a host's session is asked in a case.
#[derive(Debug, Clone, Copy)]
pub enum Ask<'a> {
    /// A tool call.
    Call(&'a Call),
    /// A session step: `new` or `forget_outputs`.
    Session(&'a str),
}

/// Runs the steps of `case`: `ask` answers tool calls and session steps,
/// `external` applies outside changes.
fn run_steps(
    case: &Case,
    mut ask: impl FnMut(Ask<'_>) -> Option<ToolResult>,
    mut external: impl FnMut(&External) -> Result<()>,
) -> Result<Vec<ToolResult>> {
    let mut results = Vec::new();
    for step in &case.steps {
        match step {
            Step::Call(c) => results.extend(ask(Ask::Call(c))),
            Step::External(e) => external(e).with_context(|| format!("external step {e:?}"))?,
            Step::Session(what) => {
                ask(Ask::Session(what));
            }
        }
    }
    Ok(results)
}

/// Answers `ask` with `session`, which `new` makes anew.
fn answer<F: HostFs>(
    session: &mut Session<F>,
    ask: Ask<'_>,
    new: impl FnOnce() -> Session<F>,
) -> Option<ToolResult> {
    match ask {
        Ask::Call(call) => Some(session.call(&call.tool, &call.arguments)),
        Ask::Session("new") => {
            *session = new();
            None
        }
        Ask::Session(_) => {
            session.forget_outputs();
            None
        }
    }
}

/// Applies an outside change to the file `path` on disk.
fn external_on_disk(root: &Path, change: &External) -> Result<()> {
    let path = root.join(&change.path);
    let before = fs::metadata(&path)?.modified()?;
    let later = before + Duration::from_secs(2);
    let set_mtime = |time: SystemTime| -> Result<()> {
        File::options()
            .write(true)
            .open(&path)?
            .set_modified(time)?;
        Ok(())
    };
    match change.external.as_str() {
        "write" => {
            fs::write(&path, &change.text)?;
            set_mtime(later)
        }
        "touch" => set_mtime(later),
        "same_size_same_mtime" => {
            if fs::metadata(&path)?.len() != change.text.len() as u64 {
                bail!("same_size_same_mtime needs text of the file's size");
            }
            fs::write(&path, &change.text)?;
            set_mtime(before)
        }
        other => bail!("unknown external step {other:?}"),
    }
}

/// Applies an outside change to `fs`.
fn external_in_memory(fs: &MemFs, change: &External) -> Result<()> {
    match change.external.as_str() {
        "write" => fs.add_file(&change.path, change.text.as_bytes()),
        "touch" => fs.touch(&change.path),
        "same_size_same_mtime" => fs.replace_keeping_mtime(&change.path, change.text.as_bytes()),
        other => bail!("unknown external step {other:?}"),
    }
    Ok(())
}

/// Runs `case` on a host whose files are on disk under `root`: outside
/// changes are made there, and the files left there are the outcome.
fn on_disk(
    case: &Case,
    root: &Path,
    ask: impl FnMut(Ask<'_>) -> Option<ToolResult>,
) -> Result<Run> {
    let results = run_steps(case, ask, |change| external_on_disk(root, change))?;
    Ok(Run {
        results,
        after: snapshot(root)?,
    })
}

/// The core compiled natively, over the host's sandbox.
#[derive(Debug, Default)]
pub struct Native;

impl Host for Native {
    fn name(&self) -> String {
        "native".into()
    }

    fn run(&self, case: &Case, root: &Path) -> Result<Run> {
        let open = || -> Result<_> {
            Ok(Session::new(
                config_for(case, root)?,
                Sandbox::open(root, false)?,
            ))
        };
        let mut session = open()?;
        on_disk(case, root, |ask| {
            answer(&mut session, ask, || open().expect("opened once already"))
        })
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

    fn run(&self, case: &Case, root: &Path) -> Result<Run> {
        let fs = MemFs::new();
        for (path, data) in snapshot(root)? {
            fs.add_file(&path, &data);
        }
        let mut config = config_for(case, root)?;
        config.chunk_bytes = self.chunk;
        let mut session = Session::new(config.clone(), &fs);
        let results = run_steps(
            case,
            |ask| answer(&mut session, ask, || Session::new(config.clone(), &fs)),
            |change| external_in_memory(&fs, change),
        )?;
        Ok(Run {
            results,
            after: fs.files(),
        })
    }
}

/// The component in wasmtime, through the host library.
#[derive(Debug, Default)]
pub struct Wasmtime;

impl Host for Wasmtime {
    fn name(&self) -> String {
        "wasmtime".into()
    }

    fn run(&self, case: &Case, root: &Path) -> Result<Run> {
        let tools = Tools::builder()
            .root(root)
            .config_json(&case.config)?
            .build()?;
        let mut session = tools.session()?;
        on_disk(case, root, |ask| match ask {
            Ask::Call(call) => Some(session.call(&call.tool, &call.arguments)),
            Ask::Session("new") => {
                session = tools.session().expect("opened once already");
                None
            }
            Ask::Session(_) => {
                session
                    .forget_outputs()
                    .expect("the session takes the signal");
                None
            }
        })
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
