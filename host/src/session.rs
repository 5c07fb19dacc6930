//! [`Session`]: one conversation's instance of the component. Each session
//! has its own store (memory limit) and every call its own deadline (epoch
//! interruption). A trap — a guest bug, the memory limit, the deadline — never
//! takes the host down, nor the session's memory (SPEC S2): after every call
//! the host keeps a checkpoint of that memory (the ledger, dedup records and
//! repairs each time, the history only when it changed), and a trapped call
//! brings a fresh instance back with it and answers with the instance's own
//! account of what stopped, naming the file and the limit.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use serde_json::json;
use wasmtime::component::{ResourceAny, ResourceTable};
use wasmtime::{Store, Trap, UpdateDeadline};
use wasmtime_wasi::WasiCtx;

use crate::bindings::{CodeSlot, Filetools, StoreState, wit};
use crate::limiter::MemoryCap;
use crate::sandbox::{Deadline, KeptOpen};
use crate::saved::{self, Delta, LOG_HEADER};
use crate::{Definition, Inner};
use filetools_core::ToolResult;
use filetools_core::change::args::{EditArgs, UndoArgs, WriteArgs};
use filetools_core::tools::schema::Format;
use filetools_core::view::read::args::ReadArgs;

/// One conversation's tools.
pub struct Session {
    inner: Arc<Inner>,
    live: Live,
    memory: Memory,
    last_checkpoint: Option<CheckpointCost>,
}

/// What keeping the session's memory cost after one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckpointCost {
    /// Time to take the checkpoint and keep it.
    pub time: Duration,
    /// Bytes it carried out of the instance.
    pub bytes: usize,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").finish_non_exhaustive()
    }
}

/// An instance of the component with its session open.
struct Live {
    store: Store<StoreState>,
    bindings: Filetools,
    handle: ResourceAny,
}

impl Live {
    fn new(inner: &Inner) -> Result<Self> {
        let state = StoreState {
            wasi: WasiCtx::builder().build(),
            table: ResourceTable::new(),
            served: inner.served.clone(),
            limits: MemoryCap::new(inner.memory_limit),
            deadline: Deadline::at(Instant::now() + inner.call_timeout),
            cancel: None,
            kept: KeptOpen::default(),
            journal: Arc::clone(&inner.journal),
            change: None,
            changing: false,
            call_timeout: inner.call_timeout,
            code: CodeSlot {
                component: Arc::clone(&inner.code),
                memory_limit: inner.memory_limit,
            },
            host_sha256: inner.host_sha256,
        };
        let mut store = Store::new(&inner.engine.engine, state);
        store.limiter(|s| &mut s.limits);
        // Every tick, the call stops if it was cancelled or ran past its
        // deadline — a cancel only before the call began changing files.
        store.epoch_deadline_callback(|ctx| {
            let state = ctx.data();
            tick(state.changing, state.cancel.as_deref(), state.deadline)
        });
        store.set_epoch_deadline(1);
        let bindings = inner.pre.instantiate(&mut store)?;
        let handle = bindings
            .filetools_core_tools()
            .session()
            .call_open(&mut store, &inner.config_json)?
            .map_err(anyhow::Error::msg)?;
        store.data_mut().limits.ready();
        Ok(Self {
            store,
            bindings,
            handle,
        })
    }
}

/// The session's memory as of its last call that returned.
#[derive(Debug)]
struct Memory {
    /// The checkpoint's core; `None` before the first.
    core: Option<String>,
    /// Every ledger record, as JSON, by path.
    records: HashMap<String, String>,
    /// Every file's history entries, as JSON, by path.
    entries: HashMap<String, String>,
    /// The history's newest sequence number.
    seq: u64,
    /// The content of the versions the entries name, by SHA-256.
    versions: HashMap<String, Vec<u8>>,
    /// The generations held of the live instance's ledger and history
    /// (0: none).
    held: wit::Generations,
    /// Whether a trap cost the session its memory (a checkpoint that could
    /// not be resumed), so that a saved state would be a poorer one.
    lost: bool,
    /// What changed since the last line of a state log was made.
    pending: Delta,
    /// Whether a state log is kept: until then `pending` holds only the
    /// last call's changes.
    logging: bool,
}

impl Default for Memory {
    fn default() -> Self {
        Self {
            core: None,
            records: HashMap::new(),
            entries: HashMap::new(),
            seq: 0,
            versions: HashMap::new(),
            held: wit::Generations {
                ledger: 0,
                history: 0,
            },
            lost: false,
            pending: Delta::default(),
            logging: false,
        }
    }
}

impl Memory {
    /// Takes in a checkpoint: the core, and what changed in the ledger and
    /// the history. Returns the bytes it carried.
    fn take(&mut self, checkpoint: wit::Checkpoint) -> usize {
        let mut bytes = checkpoint.core.len();
        if !self.logging {
            self.pending = Delta::default();
        }
        let pending = &mut self.pending;
        pending.core = Some(checkpoint.core.clone());
        self.core = Some(checkpoint.core);
        self.held = checkpoint.generations;
        if let Some(change) = checkpoint.ledger {
            for path in change.removed {
                self.records.remove(&path);
                pending.records.insert(path, None);
            }
            for (path, record) in change.changed {
                bytes += path.len() + record.len();
                pending.records.insert(path.clone(), Some(record.clone()));
                self.records.insert(path, record);
            }
        }
        if let Some(change) = checkpoint.history {
            self.seq = change.seq;
            pending.seq = Some(change.seq);
            for path in change.removed {
                self.entries.remove(&path);
                pending.entries.insert(path, None);
            }
            for (path, entries) in change.changed {
                bytes += path.len() + entries.len();
                pending.entries.insert(path.clone(), Some(entries.clone()));
                self.entries.insert(path, entries);
            }
            for sha256 in change.dropped {
                self.versions.remove(&sha256);
                pending.versions.insert(sha256, None);
            }
            for version in change.added {
                bytes += version.data.len();
                pending
                    .versions
                    .insert(version.sha256.clone(), Some(Delta::version(&version.data)));
                self.versions.insert(version.sha256, version.data);
            }
        }
        bytes
    }

    /// Everything held, as one change from nothing.
    fn whole(&self) -> Delta {
        let some = |map: &HashMap<String, String>| {
            map.iter()
                .map(|(key, value)| (key.clone(), Some(value.clone())))
                .collect()
        };
        Delta {
            core: self.core.clone(),
            records: some(&self.records),
            entries: some(&self.entries),
            seq: Some(self.seq),
            versions: self
                .versions
                .iter()
                .map(|(sha256, data)| (sha256.clone(), Some(Delta::version(data))))
                .collect(),
        }
    }

    /// Everything held, as `resume` takes it.
    fn kept(&self, core: &str) -> wit::KeptMemory {
        let pairs = |map: &HashMap<String, String>| {
            map.iter()
                .map(|(path, json)| (path.clone(), json.clone()))
                .collect()
        };
        wit::KeptMemory {
            core: core.to_owned(),
            records: pairs(&self.records),
            entries: pairs(&self.entries),
            seq: self.seq,
            versions: self
                .versions
                .iter()
                .map(|(sha256, data)| wit::KeptVersion {
                    sha256: sha256.clone(),
                    data: data.clone(),
                })
                .collect(),
        }
    }
}

impl Session {
    pub(crate) fn new(inner: Arc<Inner>) -> Result<Self> {
        let live = Live::new(&inner)?;
        Ok(Self {
            inner,
            live,
            memory: Memory::default(),
            last_checkpoint: None,
        })
    }

    /// Runs `tool` with the model's raw JSON arguments.
    pub fn call(&mut self, tool: &str, arguments: &str) -> ToolResult {
        self.run(
            tool,
            || trapped_arguments(arguments),
            |live| {
                live.bindings.filetools_core_tools().session().call_call(
                    &mut live.store,
                    live.handle,
                    tool,
                    arguments,
                )
            },
        )
    }

    /// As [`Session::call`], stopped within one epoch tick once `cancel`
    /// is set, with a "Cancelled" error result. Only a `read` is stopped:
    /// a change is short and atomic, and stopping the component after the
    /// host made it would leave the session not knowing of it, so a change
    /// runs to its end whatever `cancel` says.
    pub fn call_cancellable(
        &mut self,
        tool: &str,
        arguments: &str,
        cancel: &Arc<AtomicBool>,
    ) -> ToolResult {
        if tool != "read" {
            return self.call(tool, arguments);
        }
        self.live.store.data_mut().cancel = Some(Arc::clone(cancel));
        let result = self.call(tool, arguments);
        self.live.store.data_mut().cancel = None;
        result
    }

    /// The tool definitions for this session's config, in `format`: one
    /// JSON value per tool.
    pub fn schema(&mut self, format: Format) -> Result<Vec<serde_json::Value>> {
        self.arm();
        let live = &mut self.live;
        let rendered = live.bindings.filetools_core_tools().session().call_schema(
            &mut live.store,
            live.handle,
            format.name(),
        );
        let text = rendered
            .map_err(|trap| {
                self.restart();
                anyhow::Error::from(trap)
            })?
            .map_err(anyhow::Error::msg)?;
        Ok(serde_json::from_str(&text)?)
    }

    /// `read` with typed arguments.
    pub fn read(&mut self, args: &ReadArgs) -> ToolResult {
        let wit_args = wit::ReadArgs {
            file_path: args.file_path.clone(),
            offset: args.offset,
            limit: args.limit,
            char_offset: args.char_offset,
            pages: args.pages.clone(),
            symbol: args.symbol.clone(),
            encoding: args.encoding.clone(),
        };
        self.run(
            "read",
            || naming(&args.file_path),
            |live| {
                live.bindings.filetools_core_tools().session().call_read(
                    &mut live.store,
                    live.handle,
                    &wit_args,
                )
            },
        )
    }

    /// `write` with typed arguments.
    pub fn write(&mut self, args: &WriteArgs) -> ToolResult {
        let wit_args = wit::WriteArgs {
            file_path: args.file_path.clone(),
            content: args.content.clone(),
            encoding: args.encoding.clone(),
            expect: args.expect.clone(),
        };
        self.run(
            "write",
            || naming(&args.file_path),
            |live| {
                live.bindings.filetools_core_tools().session().call_write(
                    &mut live.store,
                    live.handle,
                    &wit_args,
                )
            },
        )
    }

    /// `edit` with typed arguments.
    pub fn edit(&mut self, args: &EditArgs) -> ToolResult {
        let wit_args = wit::EditArgs {
            file_path: args.file_path.clone(),
            edits: args
                .edits
                .iter()
                .map(|op| wit::EditOp {
                    old_string: op.old_string.clone(),
                    new_string: op.new_string.clone(),
                    replace_all: op.replace_all,
                })
                .collect(),
            encoding: args.encoding.clone(),
            expect: args.expect.clone(),
        };
        self.run(
            "edit",
            || naming(&args.file_path),
            |live| {
                live.bindings.filetools_core_tools().session().call_edit(
                    &mut live.store,
                    live.handle,
                    &wit_args,
                )
            },
        )
    }

    /// `undo` with typed arguments.
    pub fn undo(&mut self, args: &UndoArgs) -> ToolResult {
        let wit_args = wit::UndoArgs {
            file_path: args.file_path.clone(),
            expect: args.expect.clone(),
        };
        self.run(
            "undo",
            || naming(&args.file_path),
            |live| {
                live.bindings.filetools_core_tools().session().call_undo(
                    &mut live.store,
                    live.handle,
                    &wit_args,
                )
            },
        )
    }

    /// Tells the session that the outputs of its earlier calls left the
    /// model's context (the conversation was compacted or cut): no later
    /// read is answered with the "unchanged" stub for content shown before.
    pub fn forget_outputs(&mut self) -> Result<()> {
        self.arm();
        let live = &mut self.live;
        let done = live
            .bindings
            .filetools_core_tools()
            .session()
            .call_forget_outputs(&mut live.store, live.handle);
        match done {
            Ok(()) => {
                self.keep();
                Ok(())
            }
            Err(trap) => {
                self.restart();
                Err(trap.into())
            }
        }
    }

    /// The session's memory (ledger, dedup records, history) as versioned
    /// JSON; give it to [`Session::restore`] in another process. Refused
    /// once a trap cost the session its memory, so a saved state is never
    /// replaced by a poorer one.
    pub fn save(&mut self) -> Result<String> {
        if self.memory.lost {
            return Err(anyhow!(
                "the session lost its memory when a call stopped, so its state is not saved"
            ));
        }
        self.arm();
        let live = &mut self.live;
        let saved = live
            .bindings
            .filetools_core_tools()
            .session()
            .call_save(&mut live.store, live.handle);
        saved.map_err(|trap| {
            self.restart();
            trap.into()
        })
    }

    /// What changed in the session's memory since the last line this made
    /// (everything, the first time), as one line to append to a state log
    /// whose lines came from this session (see [`Session::save_log`]);
    /// `None` when nothing changed. It costs what the calls since changed,
    /// not what the session holds. Refused, like [`Session::save`], once a
    /// trap cost the session its memory.
    pub fn save_changes(&mut self) -> Result<Option<String>> {
        self.refuse_lost()?;
        if !self.memory.logging {
            self.memory.logging = true;
            self.memory.pending = Delta::default();
            return Ok(Some(self.memory.whole().line()));
        }
        let pending = std::mem::take(&mut self.memory.pending);
        Ok((!pending.is_empty()).then(|| pending.line()))
    }

    /// The session's whole memory as a state log: its first line and one
    /// line with everything; [`Session::save_changes`] then goes on from
    /// it. Give the log to [`Session::restore_log`] in another process.
    pub fn save_log(&mut self) -> Result<String> {
        self.refuse_lost()?;
        self.memory.pending = Delta::default();
        self.memory.logging = true;
        Ok(format!("{LOG_HEADER}\n{}", self.memory.whole().line()))
    }

    /// Replaces the session's memory with the one a state log describes;
    /// gives the bytes of `log` replayed (a last line cut short by a kill
    /// is left out: write after them) and the lines after the first.
    pub fn restore_log(&mut self, log: &str) -> Result<(usize, usize)> {
        let replayed = saved::replay(log)?;
        let mut memory = Memory {
            core: replayed.core,
            records: replayed.records,
            entries: replayed.entries,
            seq: replayed.seq,
            versions: replayed.versions,
            logging: true,
            ..Memory::default()
        };
        if let Some(core) = &memory.core {
            self.arm();
            let kept = memory.kept(core);
            let live = &mut self.live;
            let resumed = live.bindings.filetools_core_tools().session().call_resume(
                &mut live.store,
                live.handle,
                &kept,
            );
            match resumed {
                Ok(Ok(held)) => memory.held = held,
                Ok(Err(why)) => bail!("the state log cannot be resumed: {why}"),
                Err(trap) => {
                    self.restart();
                    bail!("the state log cannot be resumed: {trap}");
                }
            }
        }
        self.memory = memory;
        Ok((replayed.valid, replayed.lines))
    }

    /// Refuses to save once a trap cost the session its memory.
    fn refuse_lost(&self) -> Result<()> {
        if self.memory.lost {
            bail!("the session lost its memory when a call stopped, so its state is not saved");
        }
        Ok(())
    }

    /// Replaces the session's memory with a saved one; a state that is not
    /// JSON or from an incompatible version is refused with a message.
    pub fn restore(&mut self, state: &str) -> Result<()> {
        self.arm();
        let live = &mut self.live;
        let restored = live.bindings.filetools_core_tools().session().call_restore(
            &mut live.store,
            live.handle,
            state,
        );
        match restored {
            Ok(Ok(())) => {
                self.memory = Memory::default();
                self.keep();
                Ok(())
            }
            Ok(Err(message)) => Err(anyhow::Error::msg(message)),
            Err(trap) => {
                self.restart();
                Err(trap.into())
            }
        }
    }

    /// The tool definitions for this session's config (the MCP form's
    /// name, description and input schema).
    pub fn definitions(&mut self) -> Result<Vec<Definition>> {
        let tools = self.schema(Format::Mcp)?;
        Ok(tools
            .iter()
            .map(|tool| Definition {
                name: tool["name"].as_str().unwrap_or_default().to_owned(),
                description: tool["description"].as_str().unwrap_or_default().to_owned(),
                input_schema: tool["inputSchema"].to_string(),
            })
            .collect())
    }

    /// Runs one tool call: `call` on the live instance, then a checkpoint;
    /// on a trap, the instance's replacement answers for it. `arguments`
    /// gives the call's JSON arguments, for that answer only.
    fn run(
        &mut self,
        tool: &str,
        arguments: impl FnOnce() -> String,
        call: impl FnOnce(&mut Live) -> wasmtime::Result<wit::ToolResult>,
    ) -> ToolResult {
        self.arm();
        let outcome = call(&mut self.live);
        self.live.store.data().kept.clear();
        self.live.store.data_mut().call_over();
        match outcome {
            Ok(result) => {
                self.keep();
                result.into()
            }
            Err(trap) if trap.is::<Cancelled>() => {
                self.restart();
                ToolResult::failure(
                    format!(
                        "Cancelled: the {tool} call was stopped at the caller's request; no file was changed. Call it again to have its answer, with a smaller range if it took too long."
                    ),
                    "cancelled",
                )
            }
            Err(trap) => {
                let cause = self.cause(&trap);
                self.restart();
                self.trapped(tool, &arguments(), &cause)
            }
        }
    }

    /// Starts a call's clock: one deadline for guest code (checked every
    /// epoch tick) and for host work done on its behalf.
    fn arm(&mut self) {
        let store = &mut self.live.store;
        store.set_epoch_deadline(1);
        store.data_mut().deadline = Deadline::at(Instant::now() + self.inner.call_timeout);
        store.data_mut().limits.clear();
    }

    /// Bytes the session's instance grew its linear memory by since it
    /// was opened (a memory never shrinks, so this is its peak): what the
    /// files it handled cost to keep it resident, beyond what every
    /// session costs.
    pub fn memory_bytes(&self) -> usize {
        self.live.store.data().limits.grown()
    }

    /// What keeping the session's memory cost after the last call, when
    /// it was kept (see the README's *Benchmarks*).
    pub fn last_checkpoint(&self) -> Option<CheckpointCost> {
        self.last_checkpoint
    }

    /// Takes a checkpoint of the live instance's memory. One that traps
    /// leaves the previous checkpoint, and a fresh instance resumed from it.
    fn keep(&mut self) {
        let started = Instant::now();
        self.last_checkpoint = None;
        self.arm();
        let live = &mut self.live;
        let checkpoint = live
            .bindings
            .filetools_core_tools()
            .session()
            .call_checkpoint(&mut live.store, live.handle, self.memory.held);
        match checkpoint {
            Ok(checkpoint) => {
                let bytes = self.memory.take(checkpoint);
                self.last_checkpoint = Some(CheckpointCost {
                    time: started.elapsed(),
                    bytes,
                });
            }
            Err(_) => self.restart(),
        }
    }

    /// Why `trap` stopped the live instance.
    fn cause(&self, trap: &wasmtime::Error) -> wit::TrapCause {
        if self.live.store.data().limits.refused() {
            return wit::TrapCause::Memory(self.live.store.data().limits.limit() as u64);
        }
        match trap.downcast_ref::<Trap>() {
            Some(Trap::Interrupt) => wit::TrapCause::Time(
                u64::try_from(self.inner.call_timeout.as_millis()).unwrap_or(u64::MAX),
            ),
            Some(Trap::StackOverflow) => wit::TrapCause::Stack,
            Some(code) => wit::TrapCause::Fault(code.to_string()),
            None => wit::TrapCause::Fault(format!("{trap:#}")),
        }
    }

    /// Replaces the live instance with a fresh one resumed from the last
    /// checkpoint. When that fails, the session goes on with empty memory
    /// and [`Session::save`] refuses from then on; when no instance can be
    /// made, the dead one stays and the next call tries again.
    fn restart(&mut self) {
        let Ok(mut live) = Live::new(&self.inner) else {
            self.memory.lost = true;
            return;
        };
        if let Some(core) = &self.memory.core {
            let kept = self.memory.kept(core);
            let resumed = live.bindings.filetools_core_tools().session().call_resume(
                &mut live.store,
                live.handle,
                &kept,
            );
            if let Ok(Ok(held)) = resumed {
                self.memory.held = held;
            } else {
                self.memory = Memory {
                    lost: true,
                    ..Memory::default()
                };
                // A failed resume may have left the instance dead too.
                if let Ok(fresh) = Live::new(&self.inner) {
                    live = fresh;
                }
            }
        }
        self.live = live;
    }

    /// The answer to the call `tool` that trapped for `cause`, from the
    /// live instance (restarted after the trap).
    fn trapped(&mut self, tool: &str, arguments: &str, cause: &wit::TrapCause) -> ToolResult {
        self.arm();
        let kept = !self.memory.lost;
        let live = &mut self.live;
        let answer = live.bindings.filetools_core_tools().call_trapped(
            &mut live.store,
            tool,
            arguments,
            cause,
            kept,
        );
        match answer {
            Ok(result) => result.into(),
            Err(err) => {
                // The instance that could not answer may be dead too: the
                // next call gets a fresh one.
                self.restart();
                let again = err
                    .downcast_ref::<Trap>()
                    .map_or_else(|| "a fault".to_owned(), ToString::to_string);
                ToolResult::failure(
                    format!(
                        "Error: the {tool} call stopped ({}), and no new instance could answer for it ({again}); start a new session.",
                        cause_words(cause)
                    ),
                    "guest_trap",
                )
            }
        }
    }
}

/// What stopped a call, in words for the model.
fn cause_words(cause: &wit::TrapCause) -> String {
    match cause {
        wit::TrapCause::Memory(limit) => {
            format!("it needed more than its {} MiB of memory", limit >> 20)
        }
        wit::TrapCause::Time(ms) => format!("it ran past its {ms} ms"),
        wit::TrapCause::Stack => "it ran out of stack".to_owned(),
        wit::TrapCause::Fault(what) => {
            let first = what.lines().next().unwrap_or_default();
            let shown: String = first.chars().take(FAULT_CHARS).collect();
            format!("a fault: {shown}")
        }
    }
}

/// Characters of a fault's description a fallback answer shows.
const FAULT_CHARS: usize = 200;

/// Arguments longer than this reach a trapped call's answer as the file
/// they name only: the whole may be what did not fit.
const TRAPPED_ARGUMENTS_CAP: usize = 64 * 1024;

/// A raw call's arguments as far as its trapped answer needs them.
fn trapped_arguments(arguments: &str) -> String {
    if arguments.len() <= TRAPPED_ARGUMENTS_CAP {
        return arguments.to_owned();
    }
    let value: Option<serde_json::Value> = serde_json::from_str(arguments).ok();
    let path = value.as_ref().and_then(|v| {
        ["file_path", "path", "notebook_path"]
            .iter()
            .find_map(|key| v.get(key)?.as_str())
    });
    path.map_or_else(|| "{}".to_owned(), naming)
}

/// At each epoch tick of a call's store: the call stops if it was
/// cancelled (only before it began changing files) or ran past `deadline`.
pub(crate) fn tick(
    changing: bool,
    cancel: Option<&AtomicBool>,
    deadline: Deadline,
) -> wasmtime::Result<UpdateDeadline> {
    if !changing && cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        return Err(Cancelled.into());
    }
    if deadline.passed() {
        return Err(Trap::Interrupt.into());
    }
    Ok(UpdateDeadline::Continue(1))
}

/// The error a cancelled call stops with.
#[derive(Debug)]
struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the call was cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// A call's JSON arguments as far as a trapped call's answer needs them.
fn naming(file_path: &str) -> String {
    json!({ "file_path": file_path }).to_string()
}
