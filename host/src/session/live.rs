//! [`Live`]: an instance of the tools' component with its session open, in
//! a store of its own: the session's memory cap, and an epoch callback that
//! stops a call at its deadline or when it is cancelled (see
//! [`crate::limits`]).

use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use wasmtime::Store;
use wasmtime::component::{ResourceAny, ResourceTable};
use wasmtime_wasi::WasiCtx;

use crate::ahead::Ahead;
use crate::bindings::Filetools;
use crate::limits::{CallLimits, Deadline, MemoryCap, tick};
use crate::prefetch::Prefetch;
use crate::sandbox::KeptOpen;
use crate::scan::Scans;
use crate::shared::Shared;
use crate::store_state::StoreState;

/// An instance of the component with its session open.
pub(super) struct Live {
    pub store: Store<StoreState>,
    pub bindings: Filetools,
    pub handle: ResourceAny,
}

impl Live {
    pub(super) fn new(shared: &Shared) -> Result<Self> {
        let state = StoreState {
            wasi: WasiCtx::builder().build(),
            table: ResourceTable::new(),
            backend: shared.backend.clone(),
            limits: MemoryCap::new(shared.memory_limit),
            call: CallLimits::until(Deadline::at(Instant::now() + shared.call_timeout)),
            kept: KeptOpen::default(),
            journal: Arc::clone(&shared.journal),
            change: None,
            call_timeout: shared.call_timeout,
            grammars: Arc::clone(&shared.grammars),
            host_sha256: shared.host_sha256,
            scans: Scans::default(),
            prefetch: Prefetch::new(shared.backend.clone()),
            batch: None,
            ahead: Ahead::default(),
        };
        let mut store = Store::new(&shared.engine.engine, state);
        store.limiter(|s| &mut s.limits);
        // Every tick, the call stops if it was cancelled or ran past its
        // deadline — a cancel only before the call began changing files.
        store.epoch_deadline_callback(|ctx| tick(&ctx.data().call));
        store.set_epoch_deadline(1);
        let bindings = shared.pre.instantiate(&mut store)?;
        let handle = bindings
            .filetools_core_tools()
            .session()
            .call_open(&mut store, &shared.config_json)?
            .map_err(anyhow::Error::msg)?;
        store.data_mut().limits.ready();
        Ok(Self {
            store,
            bindings,
            handle,
        })
    }
}
