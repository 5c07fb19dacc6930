//! [`Shared`]: what every session of one [`Tools`](crate::Tools) holds in
//! common, made once by [`Builder::build`](crate::Builder::build) (or
//! [`Tools::with_root`](crate::Tools::with_root), which shares all of it but
//! the file system).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use wasmtime::component::Component;

use crate::backend::Backend;
use crate::bindings::FiletoolsPre;
use crate::engine::{LoadSource, TickingEngine};
use crate::grammars::Grammars;
use crate::journal::Journal;
use crate::store_state::StoreState;

/// What every session of one [`Tools`](crate::Tools) shares: the engine
/// and the compiled component, the grammars, the file system, the config
/// and the limits.
pub(crate) struct Shared {
    /// Shared by every [`Tools::with_root`] of one build.
    pub engine: Arc<TickingEngine>,
    /// The tools' component, compiled.
    pub component: Component,
    /// Its imports linked, ready to instantiate.
    pub pre: FiletoolsPre<StoreState>,
    /// The grammars, loaded at the first call that parses code.
    pub grammars: Arc<Grammars>,
    /// Whether the host hashes for the component.
    pub host_sha256: bool,
    /// The file system the sessions are served from.
    pub backend: Backend,
    /// The sessions' config, as JSON.
    pub config_json: String,
    /// The cap of a session's memory, in bytes.
    pub memory_limit: usize,
    /// The time one call may take.
    pub call_timeout: Duration,
    /// Where the compiled component came from.
    pub load_source: LoadSource,
    /// Why no cache of compiled components is used, when one was wanted.
    pub cache_refusal: Option<String>,
    /// Where intent records of changes of several files are kept.
    pub journal: Arc<Journal>,
    /// Why those records are kept in memory, when a directory was refused.
    pub journal_refusal: Option<String>,
    /// The directory for those records, when one was given.
    pub state_dir: Option<PathBuf>,
    /// Whether every change is refused.
    pub read_only: bool,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("backend", &self.backend)
            .field("load_source", &self.load_source)
            .finish_non_exhaustive()
    }
}
