//! [`Builder`] and [`Tools`]: the component compiled (or loaded
//! precompiled) once, with its file system, config and limits, handing out
//! [`Session`]s.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use filetools_core::Definition as ToolDefinition;
use filetools_core::Format;
use filetools_core::{Config, HostFs};
use serde_json::{Map, Value};
use wasmtime::component::{Component, Linker};

use crate::backend::Backend;
use crate::bindings::{self, FiletoolsPre};
use crate::cache::Cache;
use crate::engine::{self, LoadSource, TickingEngine};
use crate::grammars::Grammars;
use crate::journal::Journal;
use crate::limits::{DEFAULT_CALL_TIMEOUT, DEFAULT_MEMORY_LIMIT};
use crate::private_dir;
use crate::sandbox::Sandbox;
use crate::session::{Definition, Session};
use crate::shared::Shared;
use crate::store_state::StoreState;

/// Configures a [`Tools`].
#[derive(Debug, Clone)]
pub struct Builder {
    root: Option<PathBuf>,
    fs: Option<Backend>,
    read_only: bool,
    config: Map<String, Value>,
    memory_limit: usize,
    call_timeout: Duration,
    cache_dir: Option<PathBuf>,
    use_cache: bool,
    state_dir: Option<PathBuf>,
    component: Option<Vec<u8>>,
    tuning: Tuning,
}

/// How the component is compiled and backend, for measurements.
#[derive(Debug, Clone, Copy)]
struct Tuning {
    /// Cranelift's inlining (see [`Builder::compiler_inlining`]).
    compiler_inlining: bool,
    /// Hashing in the host (see [`Builder::host_sha256`]).
    host_sha256: bool,
}

impl Default for Builder {
    fn default() -> Self {
        Self {
            root: None,
            fs: None,
            read_only: false,
            config: Map::new(),
            memory_limit: DEFAULT_MEMORY_LIMIT,
            call_timeout: DEFAULT_CALL_TIMEOUT,
            cache_dir: None,
            use_cache: true,
            state_dir: None,
            component: None,
            tuning: Tuning {
                compiler_inlining: false,
                host_sha256: true,
            },
        }
    }
}

impl Builder {
    /// The directory the tools may see (required).
    #[must_use]
    pub fn root(mut self, root: impl AsRef<Path>) -> Self {
        self.root = Some(root.as_ref().to_path_buf());
        self
    }

    /// Serve the sessions from `fs` instead of a root directory: any
    /// [`HostFs`] that is `Send + Sync`, such as `Mutex<MemFs>` (an
    /// in-memory workspace) or an [`Overlay`](crate::Overlay) (a directory whose changes
    /// stay in memory). `fs` keeps its own paths inside itself; the guest's
    /// rules (the ledger, staleness, atomic changes) apply as over a
    /// directory. [`Builder::read_only`] refuses changes before they reach
    /// it.
    #[must_use]
    pub fn fs(mut self, fs: impl HostFs + Send + Sync + 'static) -> Self {
        self.fs = Some(Backend::Custom {
            fs: Arc::new(fs),
            read_only: false,
        });
        self
    }

    /// The session config as a typed [`Config`]: the keys where it differs
    /// from the defaults replace those set before (so a default `root`
    /// leaves the sandbox's own in place).
    pub fn config(mut self, config: &Config) -> Result<Self> {
        let Value::Object(given) = serde_json::to_value(config)? else {
            bail!("session config must serialize as a JSON object");
        };
        let Value::Object(defaults) = serde_json::to_value(Config::default())? else {
            bail!("session config must serialize as a JSON object");
        };
        self.config.extend(
            given
                .into_iter()
                .filter(|(key, value)| defaults.get(key) != Some(value)),
        );
        Ok(self)
    }

    /// Refuse every write.
    #[must_use]
    pub fn read_only(mut self, read_only: bool) -> Self {
        self.read_only = read_only;
        self
    }

    /// Session config keys for the guest (`max_lines`, `max_output_tokens`,
    /// …), as a JSON object; later calls override earlier keys.
    pub fn config_json(mut self, json: &str) -> Result<Self> {
        let value: Value = serde_json::from_str(json).context("session config is not JSON")?;
        let Value::Object(map) = value else {
            bail!("session config must be a JSON object");
        };
        self.config.extend(map);
        Ok(self)
    }

    /// Memory limit of each session's guest, in bytes.
    #[must_use]
    pub fn memory_limit(mut self, bytes: usize) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// Deadline of one call.
    #[must_use]
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// Where precompiled components are cached (default: see docs/reliability.md, *The precompiled cache*); a
    /// directory others may write, or one inside the root, is refused.
    #[must_use]
    pub fn cache_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.cache_dir = Some(dir.as_ref().to_path_buf());
        self.use_cache = true;
        self
    }

    /// Where the records of changes under way are kept (default: see the
    /// docs/reliability.md, *Changes cut off*): a change of several files writes one
    /// there before its first step, so that a change a kill cut off is
    /// put back by the next process on the same root. A directory others
    /// may write, or one inside the root, is refused: the records are then
    /// kept in memory, and [`Tools::state_refusal`] says why. A file system
    /// given to [`Builder::fs`] always keeps them in memory.
    #[must_use]
    pub fn state_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.state_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Compile in memory only, never touching a cache.
    #[must_use]
    pub fn no_cache(mut self) -> Self {
        self.use_cache = false;
        self
    }

    /// Compile the component with Cranelift's inlining, within and across
    /// its core modules. Off by default: it does not pay (docs/performance.md
    /// has the figures), and the machine code built into the
    /// binary is for the default, so this compiles at the first start.
    #[must_use]
    pub fn compiler_inlining(mut self, on: bool) -> Self {
        self.tuning.compiler_inlining = on;
        self
    }

    /// Whether the host hashes large contents for the component (SHA-256
    /// with the CPU's instructions, about ten times faster than the
    /// component's own code). On by default; off only to measure it.
    #[must_use]
    pub fn host_sha256(mut self, on: bool) -> Self {
        self.tuning.host_sha256 = on;
        self
    }

    /// Run another build of the component instead of the embedded one.
    #[must_use]
    pub fn component(mut self, wasm: Vec<u8>) -> Self {
        self.component = Some(wasm);
        self
    }

    /// Compiles (or loads) the component and opens the sandbox (or takes
    /// the file system given to [`Builder::fs`]).
    pub fn build(self) -> Result<Tools> {
        let mut config = self.config;
        if self.read_only {
            // The guest tells the model: only the tools that can succeed
            // are listed, and a change is refused as read-only first.
            config.insert("read_only".into(), Value::Bool(true));
        }
        let backend = if let Some(Backend::Custom { fs, .. }) = self.fs {
            Backend::Custom {
                fs,
                read_only: self.read_only,
            }
        } else {
            let root = self
                .root
                .context("filetools needs a root directory (or a file system, Builder::fs)")?;
            rooted(
                &root,
                self.read_only,
                self.state_dir.as_deref(),
                &mut config,
            )?
        };
        let engine = Arc::new(TickingEngine::new(self.tuning.compiler_inlining)?);
        let wasm = self.component.as_deref().unwrap_or(engine::COMPONENT);
        let mut cache_refusal = None;
        let cache = if self.use_cache {
            Cache::choose(self.cache_dir, backend.root())
                .map_err(|why| cache_refusal = Some(why))
                .ok()
        } else {
            None
        };
        let cache = cache.map(Arc::new);
        let (component, load_source) =
            load_component(&engine.engine, cache.as_deref(), self.use_cache, wasm)?;
        let grammars = {
            let (engine, cache, use_cache) = (engine.engine.clone(), cache, self.use_cache);
            Grammars::new(engine.clone(), self.memory_limit, move || {
                load_component(&engine, cache.as_deref(), use_cache, engine::CODE_COMPONENT)
                    .map(|(component, _)| component)
            })
        };
        let (journal, journal_refusal) = match backend.root() {
            Some(root) => Journal::for_root(self.state_dir.as_deref(), root),
            None => (Journal::memory(), None),
        };
        let pre = prepare(&engine, &component)?;
        let tools = Tools {
            shared: Arc::new(Shared {
                engine,
                component,
                pre,
                grammars: Arc::new(grammars),
                host_sha256: self.tuning.host_sha256,
                backend,
                config_json: Value::Object(config).to_string(),
                memory_limit: self.memory_limit,
                call_timeout: self.call_timeout,
                load_source,
                cache_refusal,
                journal: Arc::new(journal),
                journal_refusal,
                state_dir: self.state_dir,
                read_only: self.read_only,
            }),
            spare: Arc::default(),
        };
        // Refuse a bad session config now, not at the first call.
        tools.open_spare()?;
        Ok(tools)
    }
}

/// The sandbox over `root`, and the config keys that name it: the guest
/// knows the root by its canonical path, and by the spelling it was given
/// (a symlink to it, say) when that differs.
fn rooted(
    root: &Path,
    read_only: bool,
    state_dir: Option<&Path>,
    config: &mut Map<String, Value>,
) -> Result<Backend> {
    let kernel_files = config.get("kernel_files") == Some(&Value::Bool(true));
    let sandbox = Sandbox::open(root, read_only)
        .with_context(|| format!("cannot open root directory {}", root.display()))?
        .kernel_files(kernel_files);
    // Where the records of changes cannot be kept, the journal says why.
    let turns = (!read_only)
        .then(|| private_dir::open_first(&private_dir::STATE, state_dir, "turns", sandbox.root()))
        .and_then(Result::ok);
    let sandbox = sandbox.turns(turns);
    if !config.contains_key("root") {
        let canonical = sandbox.root().to_string_lossy().into_owned();
        let aliases = sandbox.spellings().iter().filter(|s| **s != canonical);
        let aliases = aliases.cloned().map(Value::String).collect();
        config.insert("root".into(), Value::String(canonical));
        config
            .entry("root_aliases")
            .or_insert(Value::Array(aliases));
    }
    Ok(Backend::Sandbox(Arc::new(sandbox)))
}

/// The component `wasm` from the cache when there is one, else from the
/// machine code built into this binary, else compiled (always compiled
/// when no cache is wanted).
fn load_component(
    engine: &wasmtime::Engine,
    cache: Option<&Cache>,
    use_cache: bool,
    wasm: &[u8],
) -> Result<(Component, LoadSource)> {
    Ok(match cache {
        Some(cache) => cache.load(engine, wasm)?,
        None if !use_cache => (Component::new(engine, wasm)?, LoadSource::Compiled),
        None => match engine::precompiled(engine, wasm) {
            Some((component, _)) => (component, LoadSource::Precompiled),
            None => (Component::new(engine, wasm)?, LoadSource::Compiled),
        },
    })
}

fn prepare(engine: &TickingEngine, component: &Component) -> Result<FiletoolsPre<StoreState>> {
    let mut linker = Linker::<StoreState>::new(&engine.engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    bindings::Filetools::add_to_linker::<_, wasmtime::component::HasSelf<_>>(&mut linker, |s| s)?;
    Ok(FiletoolsPre::new(linker.instantiate_pre(component)?)?)
}

/// The compiled tools over one root; hands out [`Session`]s.
#[derive(Debug, Clone)]
pub struct Tools {
    shared: Arc<Shared>,
    /// The session opened when the tools were built, to refuse a bad
    /// config then; the first [`Tools::session`] takes it (a one-shot
    /// command instantiates the component once, not twice).
    spare: Arc<Mutex<Option<Session>>>,
}

impl Tools {
    /// A builder with the defaults.
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// The same tools — engine, compiled component, config, limits — over
    /// another root directory: a server's workspace costs its sandbox, not
    /// another engine and component. Refused for tools over a plugged-in
    /// file system.
    pub fn with_root(&self, root: impl AsRef<Path>) -> Result<Tools> {
        let shared = &self.shared;
        if !matches!(shared.backend, Backend::Sandbox(_)) {
            bail!("these tools serve a plugged-in file system, not a root directory");
        }
        let Ok(Value::Object(mut config)) = serde_json::from_str::<Value>(&shared.config_json)
        else {
            bail!("the tools' config is not a JSON object");
        };
        config.remove("root");
        config.remove("root_aliases");
        let backend = rooted(
            root.as_ref(),
            shared.read_only,
            shared.state_dir.as_deref(),
            &mut config,
        )?;
        let (journal, journal_refusal) = match backend.root() {
            Some(root) => Journal::for_root(shared.state_dir.as_deref(), root),
            None => (Journal::memory(), None),
        };
        let tools = Tools {
            shared: Arc::new(Shared {
                engine: Arc::clone(&shared.engine),
                component: shared.component.clone(),
                pre: shared.pre.clone(),
                grammars: Arc::clone(&shared.grammars),
                host_sha256: shared.host_sha256,
                backend,
                config_json: Value::Object(config).to_string(),
                memory_limit: shared.memory_limit,
                call_timeout: shared.call_timeout,
                load_source: shared.load_source,
                cache_refusal: shared.cache_refusal.clone(),
                journal: Arc::new(journal),
                journal_refusal,
                state_dir: shared.state_dir.clone(),
                read_only: shared.read_only,
            }),
            spare: Arc::default(),
        };
        tools.open_spare()?;
        Ok(tools)
    }

    /// A new session: a fresh store and instance with empty state.
    pub fn session(&self) -> Result<Session> {
        let spare = self
            .spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        match spare {
            Some(session) => Ok(session),
            None => Session::new(Arc::clone(&self.shared)),
        }
    }

    /// Opens the session the first [`Tools::session`] hands out: a bad
    /// session config is refused now, not at the first call.
    fn open_spare(&self) -> Result<()> {
        let session = Session::new(Arc::clone(&self.shared))?;
        *self.spare.lock().unwrap_or_else(PoisonError::into_inner) = Some(session);
        Ok(())
    }

    /// Whether a call of any session parsed code, so that the grammars'
    /// component was loaded; a read of a text file never loads it.
    pub fn grammars_loaded(&self) -> bool {
        self.shared.grammars.loaded()
    }

    /// Whether the component was compiled or loaded precompiled.
    pub fn load_source(&self) -> LoadSource {
        self.shared.load_source
    }

    /// Why no precompiled-component cache is used, when one was wanted and
    /// every place for it was refused (see docs/reliability.md, *The precompiled cache*):
    /// a sentence for the user, who should fix the directory.
    pub fn cache_refusal(&self) -> Option<&str> {
        self.shared.cache_refusal.as_deref()
    }

    /// Why the records of changes under way are kept in memory rather
    /// than in a state directory, when every place for one was refused.
    pub fn state_refusal(&self) -> Option<&str> {
        self.shared.journal_refusal.as_deref()
    }

    /// The canonical root directory, when the tools serve one (not a file
    /// system given to [`Builder::fs`]).
    pub fn root(&self) -> Option<&Path> {
        self.shared.backend.root()
    }

    /// The component's imports, as `name` strings (for the import check).
    pub fn component_imports(&self) -> Vec<String> {
        let ty = self.shared.component.component_type();
        ty.imports(&self.shared.engine.engine)
            .map(|(name, _)| name.to_owned())
            .collect()
    }

    /// The grammars' component's imports (loading it), for the import
    /// check.
    pub fn code_component_imports(&self) -> Result<Vec<String>> {
        Ok(self.shared.grammars.imports()?)
    }

    /// The tool definitions to give the model.
    pub fn definitions(&self) -> Result<Vec<Definition>> {
        self.session()?.definitions()
    }

    /// The tool definitions for this config, typed: name, description, the
    /// input and output JSON Schemas as values, and the annotations (read
    /// only, destructive, idempotent). Rendered by the same core the
    /// component runs, here natively.
    pub fn tool_definitions(&self) -> Result<Vec<ToolDefinition>> {
        let config = Config::from_json(&self.shared.config_json).map_err(anyhow::Error::msg)?;
        Ok(filetools_core::definitions(&config))
    }

    /// The tool definitions for this config in `format`, one JSON value per
    /// tool, as [`Session::schema`] gives them.
    pub fn schema(&self, format: Format) -> Result<Vec<Value>> {
        self.session()?.schema(format)
    }
}
