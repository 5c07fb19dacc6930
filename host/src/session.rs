//! [`Session`]: one conversation's instance of the component. Each session
//! has its own store (memory limit) and every call its own deadline (epoch
//! interruption). A trap — a guest bug, the memory limit, the deadline — never
//! takes the host down: the call answers with an error result and the
//! session is re-created with empty state (SPEC S2).

use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use wasmtime::component::{ResourceAny, ResourceTable};
use wasmtime::{Store, StoreLimitsBuilder};
use wasmtime_wasi::WasiCtx;

use crate::bindings::{Filetools, StoreState, wit};
use crate::sandbox::Deadline;
use crate::{Definition, Inner};
use filetools_core::ToolResult;
use filetools_core::args::{EditArgs, ReadArgs, UndoArgs, WriteArgs};

/// One conversation's tools.
pub struct Session {
    inner: Arc<Inner>,
    store: Store<StoreState>,
    bindings: Filetools,
    handle: ResourceAny,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").finish_non_exhaustive()
    }
}

impl Session {
    pub(crate) fn new(inner: Arc<Inner>) -> Result<Self> {
        let limits = StoreLimitsBuilder::new()
            .memory_size(inner.memory_limit)
            .instances(8)
            .build();
        let state = StoreState {
            wasi: WasiCtx::builder().build(),
            table: ResourceTable::new(),
            sandbox: Arc::clone(&inner.sandbox),
            limits,
            deadline: Deadline::NEVER,
        };
        let mut store = Store::new(&inner.engine.engine, state);
        store.limiter(|s| &mut s.limits);
        store.set_epoch_deadline(inner.deadline_ticks);
        let bindings = inner.pre.instantiate(&mut store)?;
        let handle = bindings
            .filetools_core_tools()
            .session()
            .call_open(&mut store, &inner.config_json)?
            .map_err(anyhow::Error::msg)?;
        Ok(Self {
            inner,
            store,
            bindings,
            handle,
        })
    }

    /// Runs `tool` with the model's raw JSON arguments.
    pub fn call(&mut self, tool: &str, arguments: &str) -> ToolResult {
        self.arm();
        let outcome = self.bindings.filetools_core_tools().session().call_call(
            &mut self.store,
            self.handle,
            tool,
            arguments,
        );
        self.finish(outcome)
    }

    /// `read` with typed arguments.
    pub fn read(&mut self, args: &ReadArgs) -> ToolResult {
        self.arm();
        let args = wit::ReadArgs {
            file_path: args.file_path.clone(),
            offset: args.offset,
            limit: args.limit,
            char_offset: args.char_offset,
            pages: args.pages.clone(),
        };
        let outcome = self.bindings.filetools_core_tools().session().call_read(
            &mut self.store,
            self.handle,
            &args,
        );
        self.finish(outcome)
    }

    /// `write` with typed arguments.
    pub fn write(&mut self, args: &WriteArgs) -> ToolResult {
        self.arm();
        let args = wit::WriteArgs {
            file_path: args.file_path.clone(),
            content: args.content.clone(),
        };
        let outcome = self.bindings.filetools_core_tools().session().call_write(
            &mut self.store,
            self.handle,
            &args,
        );
        self.finish(outcome)
    }

    /// `edit` with typed arguments.
    pub fn edit(&mut self, args: &EditArgs) -> ToolResult {
        self.arm();
        let args = wit::EditArgs {
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
        };
        let outcome = self.bindings.filetools_core_tools().session().call_edit(
            &mut self.store,
            self.handle,
            &args,
        );
        self.finish(outcome)
    }

    /// `undo` with typed arguments.
    pub fn undo(&mut self, args: &UndoArgs) -> ToolResult {
        self.arm();
        let args = wit::UndoArgs {
            file_path: args.file_path.clone(),
        };
        let outcome = self.bindings.filetools_core_tools().session().call_undo(
            &mut self.store,
            self.handle,
            &args,
        );
        self.finish(outcome)
    }

    /// The session's memory (ledger, dedup records, history) as versioned
    /// JSON; give it to [`Session::restore`] in another process.
    pub fn save(&mut self) -> Result<String> {
        self.arm();
        let saved = self
            .bindings
            .filetools_core_tools()
            .session()
            .call_save(&mut self.store, self.handle)?;
        Ok(saved)
    }

    /// Replaces the session's memory with a saved one; a state that is not
    /// JSON or from an incompatible version is refused with a message.
    pub fn restore(&mut self, state: &str) -> Result<()> {
        self.arm();
        self.bindings
            .filetools_core_tools()
            .session()
            .call_restore(&mut self.store, self.handle, state)?
            .map_err(anyhow::Error::msg)
    }

    /// The tool definitions.
    pub fn definitions(&mut self) -> Result<Vec<Definition>> {
        let defs = self
            .bindings
            .filetools_core_tools()
            .call_definitions(&mut self.store)?;
        Ok(defs
            .into_iter()
            .map(|d| Definition {
                name: d.name,
                description: d.description,
                input_schema: d.input_schema,
            })
            .collect())
    }

    /// Starts a call's clock: the epoch deadline for guest code, and the
    /// same deadline for host work done on its behalf.
    fn arm(&mut self) {
        self.store.set_epoch_deadline(self.inner.deadline_ticks);
        self.store.data_mut().deadline = Deadline::at(Instant::now() + self.inner.call_timeout);
    }

    fn finish(&mut self, outcome: wasmtime::Result<wit::ToolResult>) -> ToolResult {
        match outcome {
            Ok(result) => result.into(),
            Err(trap) => {
                let reason = match trap.downcast_ref::<wasmtime::Trap>() {
                    Some(wasmtime::Trap::Interrupt) => {
                        format!("it ran longer than {:?}", self.inner.call_timeout)
                    }
                    Some(code) => format!("{code}"),
                    None => format!("{trap:#}"),
                };
                let restarted = match Session::new(Arc::clone(&self.inner)) {
                    Ok(fresh) => {
                        *self = fresh;
                        "the session was restarted with empty state"
                    }
                    Err(_) => "the session could not be restarted",
                };
                ToolResult::failure(
                    format!(
                        "Error: the tool stopped because {reason}; {restarted}. Retry with a smaller request (a range or limit)."
                    ),
                    "guest_trap",
                )
            }
        }
    }
}
