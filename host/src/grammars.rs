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
//! session (for the instance), the call's deadline and cancel
//! ([`CallLimits`]). When it traps, the error stops the session's call and
//! the instance is dropped; the next parse makes a new one. What passes
//! between the two instances needs no conversion: the grammars' bindings
//! take the `code-types` types from the tools' (see [`crate::bindings`]).

use std::sync::{Mutex, OnceLock, PoisonError};

use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Engine, Result, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::bindings::filetools::core::code_types::{Grammar, OutlineEntry, Stopped, SyntaxError};
use crate::bindings::grammars::{FiletoolsCode, FiletoolsCodePre};
use crate::limits::{CallLimits, Deadline, MemoryCap, tick};

/// Loads the component once per [`Tools`](crate::Tools), when first needed.
pub(crate) struct Grammars {
    engine: Engine,
    load: Box<dyn Fn() -> anyhow::Result<Component> + Send + Sync>,
    pre: OnceLock<Result<FiletoolsCodePre<GrammarsState>, String>>,
    /// The cap of the instance's memory: a session's.
    memory_limit: usize,
    /// The instance every session parses with, made at the first parse.
    instance: Mutex<Option<GrammarsInstance>>,
}

impl std::fmt::Debug for Grammars {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grammars")
            .field("loaded", &self.pre.get().is_some())
            .finish_non_exhaustive()
    }
}

impl Grammars {
    /// The component `load` gives, for `engine`, loaded at its first use;
    /// its instance's memory capped at `memory_limit`.
    pub(crate) fn new(
        engine: Engine,
        memory_limit: usize,
        load: impl Fn() -> anyhow::Result<Component> + Send + Sync + 'static,
    ) -> Self {
        Self {
            engine,
            load: Box::new(load),
            pre: OnceLock::new(),
            memory_limit,
            instance: Mutex::new(None),
        }
    }

    /// Runs `parse` on the shared instance (made first when there is none)
    /// within the limits of the `call` that asked. When it fails, the
    /// instance is dropped, and the error comes with whether the instance
    /// had been refused memory.
    pub(crate) fn parse<T>(
        &self,
        call: CallLimits,
        parse: impl FnOnce(&mut GrammarsInstance) -> Result<T>,
    ) -> std::result::Result<T, (wasmtime::Error, bool)> {
        let mut slot = self.instance.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(self.instantiate().map_err(|err| (err, false))?);
        }
        let instance = slot.as_mut().expect("made above");
        instance.limit(call);
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

    fn pre(&self) -> Result<&FiletoolsCodePre<GrammarsState>> {
        self.pre
            .get_or_init(|| {
                let prepare = || -> anyhow::Result<FiletoolsCodePre<GrammarsState>> {
                    let component = (self.load)()?;
                    let mut linker = Linker::<GrammarsState>::new(&self.engine);
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

    /// A new instance, in a store of its own.
    fn instantiate(&self) -> Result<GrammarsInstance> {
        let state = GrammarsState {
            wasi: WasiCtx::builder().build(),
            table: ResourceTable::new(),
            limits: MemoryCap::new(self.memory_limit),
            call: CallLimits::until(Deadline::NEVER),
        };
        let mut store = Store::new(&self.engine, state);
        store.limiter(|s| &mut s.limits);
        store.epoch_deadline_callback(|ctx| tick(&ctx.data().call));
        store.set_epoch_deadline(1);
        let code = self.pre()?.instantiate(&mut store)?;
        store.data_mut().limits.ready();
        Ok(GrammarsInstance { store, code })
    }
}

/// What the grammars' store holds.
pub(crate) struct GrammarsState {
    wasi: WasiCtx,
    table: ResourceTable,
    limits: MemoryCap,
    /// The limits of the call the current parse runs for.
    call: CallLimits,
}

impl WasiView for GrammarsState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl crate::bindings::filetools::core::code_types::Host for GrammarsState {}

/// The instance of the grammars the sessions of one `Tools` share.
pub(crate) struct GrammarsInstance {
    store: Store<GrammarsState>,
    code: FiletoolsCode,
}

impl GrammarsInstance {
    /// Puts the next parse under the limits of `call`.
    fn limit(&mut self, call: CallLimits) {
        let state = self.store.data_mut();
        state.call = call;
        state.limits.clear();
    }

    /// Whether the last parse went over the memory cap.
    fn refused_memory(&self) -> bool {
        self.store.data().limits.refused()
    }

    /// The outline of `text` in `grammar`.
    pub(crate) fn outline(
        &mut self,
        grammar: Grammar,
        text: &str,
    ) -> Result<Result<Option<Vec<OutlineEntry>>, Stopped>> {
        self.code
            .filetools_core_code()
            .call_outline(&mut self.store, grammar, text)
    }

    /// The first `max` syntax errors of `text` in `grammar`.
    pub(crate) fn syntax_errors(
        &mut self,
        grammar: Grammar,
        text: &str,
        max: u32,
    ) -> Result<Result<Option<Vec<SyntaxError>>, Stopped>> {
        self.code
            .filetools_core_code()
            .call_syntax_errors(&mut self.store, grammar, text, max)
    }
}
