//! [`Session`]: one conversation's instance of the component. Each session
//! has its own store (memory limit) and every call its own deadline (epoch
//! interruption). A trap — a guest bug, the memory limit, the deadline — never
//! takes the host down, nor the session's memory (SPEC S2): after every call
//! the host keeps a checkpoint of that memory (the ledger, dedup records and
//! repairs each time, the history only when it changed), and a trapped call
//! brings a fresh instance back with it and answers with the instance's own
//! account of what stopped, naming the file and the limit.

mod live;
mod memory;
mod trap;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use filetools_core::Format;
use filetools_core::ReadArgs;
use filetools_core::ToolResult;
use filetools_core::{
    EditArgs, FindArgs, GrepArgs, MarkArgs, ReplaceArgs, RewindArgs, SymbolEditArgs, UndoArgs,
    WriteArgs,
};

use crate::bindings::wit;
use crate::limits::{Cancelled, Deadline};
use crate::shared::Shared;
use crate::state_log::{self, Delta, LOG_HEADER};
use live::Live;
use memory::Memory;
use trap::{naming, trapped_arguments};

/// A tool definition for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// Tool name.
    pub name: String,
    /// Description for the model.
    pub description: String,
    /// JSON Schema of the arguments, as JSON text.
    pub input_schema: String,
}

/// One conversation's tools.
pub struct Session {
    shared: Arc<Shared>,
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

impl Session {
    pub(crate) fn new(shared: Arc<Shared>) -> Result<Self> {
        let live = Live::new(&shared)?;
        Ok(Self {
            shared,
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
        self.live.store.data_mut().call.cancel = Some(Arc::clone(cancel));
        let result = self.call(tool, arguments);
        self.live.store.data_mut().call.cancel = None;
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
        if args.block {
            // The contract's typed read has no block: the model's form has.
            return self.call("read", &args.to_json());
        }
        let wit_args = wit::ReadArgs::from(args);
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
        let wit_args = wit::WriteArgs::from(args);
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
        let wit_args = wit::EditArgs::from(args);
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

    /// Which files the model has seen changed on disk since its view, with
    /// their changed lines, numbered, under a quarter of the output budget:
    /// to put before the model at the start of a turn. The lines shown
    /// count as seen.
    pub fn changes(&mut self) -> ToolResult {
        self.call("changes", "{}")
    }

    /// Marks a turn: records what each file the session knows of holds
    /// now, with the files `args.changed` names as changed outside (a
    /// shell command's edits), for [`Session::rewind`]. The answer's
    /// metadata gives the mark's number (`mark`).
    pub fn mark(&mut self, args: &MarkArgs) -> ToolResult {
        self.call("mark", &args.to_json())
    }

    /// Rewinds the files to a marked turn, three-way: what holds a version
    /// the session knows is restored, what someone changed since is merged
    /// or listed and left as found. One change, which one `undo` takes
    /// back; with `dry_run`, only what it would do.
    pub fn rewind(&mut self, args: &RewindArgs) -> ToolResult {
        self.call("rewind", &args.to_json())
    }

    /// `replace` with typed arguments: a dry run, or the change of all or
    /// chosen occurrences across files.
    pub fn replace(&mut self, args: &ReplaceArgs) -> ToolResult {
        self.call("replace", &args.to_json())
    }

    /// `edit` of an outline entry by its name, with typed arguments.
    pub fn edit_symbol(&mut self, args: &SymbolEditArgs) -> ToolResult {
        self.call("edit", &args.to_json())
    }

    /// `undo` with typed arguments.
    pub fn undo(&mut self, args: &UndoArgs) -> ToolResult {
        let wit_args = wit::UndoArgs::from(args);
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

    /// `grep` with typed arguments.
    pub fn grep(&mut self, args: &GrepArgs) -> ToolResult {
        self.call("grep", &args.to_json())
    }

    /// `find` with typed arguments.
    pub fn find(&mut self, args: &FindArgs) -> ToolResult {
        self.call("find", &args.to_json())
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
        self.refuse_lost()?;
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
        let replayed = state_log::replay(log)?;
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
        let deadline = Deadline::at(Instant::now() + self.shared.call_timeout);
        store.data_mut().call_begins(deadline);
    }

    /// Bytes the session's instance grew its linear memory by since it
    /// was opened (a memory never shrinks, so this is its peak): what the
    /// files it handled cost to keep it resident, beyond what every
    /// session costs.
    pub fn memory_bytes(&self) -> usize {
        self.live.store.data().limits.grown()
    }

    /// What keeping the session's memory cost after the last call, when
    /// it was kept (see docs/performance.md, *Benchmarks*).
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
}
