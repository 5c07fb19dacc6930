//! The grammars' component (`filetools-code`): tree-sitter's parse tables,
//! most of the tools' data, kept out of the instance every call pays for.
//! It is loaded (from the cache or the build-time machine code) and
//! instantiated, in a store of its own, the first time any session of a
//! [`Tools`](crate::Tools) parses code; tools whose sessions only read text
//! never hold the grammars in memory. The sessions share that instance, one
//! parse at a time, so a new session's first outline finds it warm (its
//! heap grown) instead of paying a fresh instance's page faults.
//!
//! Each parse runs under the calling session's limits: the memory cap of a
//! session (for the instance), the call's deadline and cancel. When it
//! traps, the error stops the session's call and the instance is dropped;
//! the next parse makes a new one.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Engine, Result, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::limiter::MemoryCap;
use crate::sandbox::Deadline;
use crate::session::tick;

mod generated {
    wasmtime::component::bindgen!({
        path: "wit",
        world: "filetools-code",
    });
}

pub(crate) use generated::exports::filetools::core::code::{Stopped, Symbol, SyntaxError};
use generated::{FiletoolsCode, FiletoolsCodePre};

/// Loads the component once per [`Tools`](crate::Tools), when first needed.
pub(crate) struct CodeComponent {
    engine: Engine,
    load: Box<dyn Fn() -> anyhow::Result<Component> + Send + Sync>,
    pre: OnceLock<Result<FiletoolsCodePre<CodeState>, String>>,
    /// The instance every session parses with, made at the first parse.
    instance: Mutex<Option<CodeInstance>>,
}

impl std::fmt::Debug for CodeComponent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeComponent")
            .field("loaded", &self.pre.get().is_some())
            .finish_non_exhaustive()
    }
}

impl CodeComponent {
    /// The component `load` gives, for `engine`, loaded at its first use.
    pub(crate) fn new(
        engine: Engine,
        load: impl Fn() -> anyhow::Result<Component> + Send + Sync + 'static,
    ) -> Self {
        Self {
            engine,
            load: Box::new(load),
            pre: OnceLock::new(),
            instance: Mutex::new(None),
        }
    }

    /// Runs `parse` on the shared instance (made first, capped at
    /// `memory_limit`, when there is none). When it fails, the instance is
    /// dropped, and the error comes with whether the instance had been
    /// refused memory.
    pub(crate) fn parse<T>(
        &self,
        memory_limit: usize,
        parse: impl FnOnce(&mut CodeInstance) -> Result<T>,
    ) -> std::result::Result<T, (wasmtime::Error, bool)> {
        let mut slot = self.instance.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(self.instantiate(memory_limit).map_err(|err| (err, false))?);
        }
        let instance = slot.as_mut().expect("made above");
        match parse(instance) {
            Ok(found) => Ok(found),
            Err(err) => {
                let refused = instance.refused_memory();
                *slot = None;
                Err((err, refused))
            }
        }
    }

    /// Whether it was loaded (a call parsed code).
    pub(crate) fn loaded(&self) -> bool {
        self.pre.get().is_some_and(Result::is_ok)
    }

    fn pre(&self) -> Result<&FiletoolsCodePre<CodeState>> {
        self.pre
            .get_or_init(|| {
                let prepare = || -> anyhow::Result<FiletoolsCodePre<CodeState>> {
                    let component = (self.load)()?;
                    let mut linker = Linker::<CodeState>::new(&self.engine);
                    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
                    Ok(FiletoolsCodePre::new(linker.instantiate_pre(&component)?)?)
                };
                prepare().map_err(|err| format!("{err:#}"))
            })
            .as_ref()
            .map_err(|why| {
                wasmtime::Error::msg(format!(
                    "the grammars' component could not be loaded: {why}"
                ))
            })
    }

    /// Its imports, as `name` strings (for the import check).
    pub(crate) fn imports(&self) -> Result<Vec<String>> {
        let component = self.pre()?.instance_pre().component();
        Ok(component
            .component_type()
            .imports(&self.engine)
            .map(|(name, _)| name.to_owned())
            .collect())
    }

    /// A new instance, in a store of its own capped at `memory_limit`.
    fn instantiate(&self, memory_limit: usize) -> Result<CodeInstance> {
        let state = CodeState {
            wasi: WasiCtx::builder().build(),
            table: ResourceTable::new(),
            limits: MemoryCap::new(memory_limit),
            call: ParseLimits {
                deadline: Deadline::NEVER,
                cancel: None,
                changing: false,
            },
        };
        let mut store = Store::new(&self.engine, state);
        store.limiter(|s| &mut s.limits);
        store.epoch_deadline_callback(|ctx| {
            let call = &ctx.data().call;
            tick(call.changing, call.cancel.as_deref(), call.deadline)
        });
        store.set_epoch_deadline(1);
        let code = self.pre()?.instantiate(&mut store)?;
        store.data_mut().limits.ready();
        Ok(CodeInstance { store, code })
    }
}

/// What the grammars' store holds.
pub(crate) struct CodeState {
    wasi: WasiCtx,
    table: ResourceTable,
    limits: MemoryCap,
    /// The limits of the call the current parse runs for.
    call: ParseLimits,
}

impl WasiView for CodeState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// The limits of the call a parse runs for: its deadline, its cancel flag
/// and whether it has begun changing files.
#[derive(Debug, Clone)]
pub(crate) struct ParseLimits {
    pub deadline: Deadline,
    pub cancel: Option<Arc<AtomicBool>>,
    pub changing: bool,
}

/// One session's instance of the grammars.
pub(crate) struct CodeInstance {
    store: Store<CodeState>,
    code: FiletoolsCode,
}

impl CodeInstance {
    fn limit(&mut self, call: ParseLimits) {
        let state = self.store.data_mut();
        state.call = call;
        state.limits.clear();
    }

    /// Whether the last parse went over the memory cap.
    pub(crate) fn refused_memory(&self) -> bool {
        self.store.data().limits.refused()
    }

    /// The outline of `text` in `language`.
    pub(crate) fn outline(
        &mut self,
        call: ParseLimits,
        language: &str,
        text: &str,
    ) -> Result<Result<Option<Vec<Symbol>>, Stopped>> {
        self.limit(call);
        self.code
            .filetools_core_code()
            .call_outline(&mut self.store, language, text)
    }

    /// The first `max` syntax errors of `text` in `language`.
    pub(crate) fn syntax_errors(
        &mut self,
        call: ParseLimits,
        language: &str,
        text: &str,
        max: u32,
    ) -> Result<Result<Option<Vec<SyntaxError>>, Stopped>> {
        self.limit(call);
        self.code
            .filetools_core_code()
            .call_syntax_errors(&mut self.store, language, text, max)
    }
}
