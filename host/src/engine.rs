//! The wasmtime engine and the compiled component (SPEC §1a, H1, S2).
//!
//! Compiling the component with Cranelift takes a second or two; loading a
//! precompiled one takes about a millisecond. The compiled artifact is cached
//! on disk, keyed by the component's SHA-256 (computed at build time for the
//! embedded component) and the engine's compatibility hash, and written
//! atomically so concurrent processes never see half a file. A cache file
//! that fails to load is recompiled.

use std::borrow::Cow;
use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use anyhow::{Context as _, Result};
use sha2::{Digest as _, Sha256};
use wasmtime::component::Component;
use wasmtime::{Config, Engine};

/// The component, built from `guest/` by `build.rs`.
pub(crate) static COMPONENT: &[u8] = include_bytes!(env!("FILETOOLS_COMPONENT_WASM"));

/// The embedded component's SHA-256 in hex, computed by `build.rs`.
const COMPONENT_SHA256: &str = env!("FILETOOLS_COMPONENT_SHA256");

/// Hex digits of the component's SHA-256 in a cache file's name.
const CACHE_KEY_HEX_DIGITS: usize = 24;

/// How often the epoch ticks; call deadlines are counted in these ticks.
pub(crate) const EPOCH_TICK: Duration = Duration::from_millis(10);

/// An engine with epoch interruption and a thread that advances the epoch
/// until the engine is dropped.
#[derive(Debug)]
pub(crate) struct TickingEngine {
    pub engine: Engine,
    stop: Arc<AtomicBool>,
}

impl TickingEngine {
    pub fn new() -> Result<Self> {
        let mut config = Config::new();
        config.epoch_interruption(true);
        let engine = Engine::new(&config)?;
        let stop = Arc::new(AtomicBool::new(false));
        let ticker_engine = engine.clone();
        let ticker_stop = Arc::clone(&stop);
        thread::Builder::new()
            .name("filetools-epoch".into())
            .spawn(move || {
                while !ticker_stop.load(Ordering::Relaxed) {
                    thread::sleep(EPOCH_TICK);
                    ticker_engine.increment_epoch();
                }
            })
            .context("starting the epoch thread")?;
        Ok(Self { engine, stop })
    }
}

impl Drop for TickingEngine {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// How the component was obtained, for benchmarks and diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadSource {
    /// Compiled now (and cached, if a cache directory was given).
    Compiled,
    /// Loaded from the on-disk cache.
    Cached,
}

/// Compiles `wasm`, or loads it from `cache_dir` when a matching precompiled
/// artifact is there.
pub(crate) fn load_component(
    engine: &Engine,
    wasm: &[u8],
    cache_dir: Option<&Path>,
) -> Result<(Component, LoadSource)> {
    let Some(dir) = cache_dir else {
        return Ok((Component::new(engine, wasm)?, LoadSource::Compiled));
    };
    let path = cache_path(engine, wasm, dir);
    // The file is mapped, not read: code and the memory image are then
    // used in place (about 1 ms for the 17 MB artifact, against 15 ms to
    // copy it in). A mapped file must not change while mapped; cache
    // files are only ever created whole under a temporary name and then
    // renamed into place, so a process replacing one leaves the mapping
    // on the old file.
    // SAFETY: the file was written by `Component::serialize` with this
    // engine configuration (its name carries the compatibility hash) into
    // a directory this host owns, and is never modified in place;
    // wasmtime also checks the header and version before using it.
    if let Ok(component) = unsafe { Component::deserialize_file(engine, &path) } {
        return Ok((component, LoadSource::Cached));
    }
    let component = Component::new(engine, wasm)?;
    // A cache that cannot be written only costs the next start a compile.
    let _ = store_atomically(&path, &component.serialize()?);
    Ok((component, LoadSource::Compiled))
}

fn cache_path(engine: &Engine, wasm: &[u8], dir: &Path) -> PathBuf {
    let mut hasher = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    let digest = sha256_hex(wasm);
    let short = &digest[..CACHE_KEY_HEX_DIGITS];
    dir.join(format!(
        "filetools-{}-{short}-{:016x}.cwasm",
        env!("CARGO_PKG_VERSION"),
        hasher.finish()
    ))
}

/// The component's SHA-256 in hex; the embedded component's was computed
/// when the host was built.
fn sha256_hex(wasm: &[u8]) -> Cow<'static, str> {
    if std::ptr::eq(wasm, COMPONENT) {
        Cow::Borrowed(COMPONENT_SHA256)
    } else {
        Cow::Owned(filetools_core::digest::hex(&Sha256::digest(wasm)))
    }
}

/// Writes `bytes` under a temporary name no other writer uses (this
/// process's id and a per-process counter, created exclusively), then renames
/// it over `path`: a reader, which maps the file, only ever sees whole files
/// that nobody writes to any more.
fn store_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static STORES: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let temp = path.with_extension(format!(
        "tmp{}-{}",
        std::process::id(),
        STORES.fetch_add(1, Ordering::Relaxed)
    ));
    let written = std::fs::File::create_new(&temp).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&temp, path)) {
        Ok(()) => Ok(()),
        Err(err) => {
            let _ = std::fs::remove_file(&temp);
            Err(err)
        }
    }
}

/// The default cache directory: `$FILETOOLS_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/filetools`, else `~/.cache/filetools`.
pub(crate) fn default_cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("FILETOOLS_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("filetools"));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache").join("filetools"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_time_digest_is_the_embedded_components_sha256() {
        let digest = filetools_core::digest::hex(&Sha256::digest(COMPONENT));
        assert_eq!(COMPONENT_SHA256, digest);
        assert_eq!(sha256_hex(COMPONENT), digest);
    }

    #[test]
    fn another_build_of_the_component_is_hashed_when_loaded() {
        let other = COMPONENT.to_vec();
        assert_eq!(sha256_hex(&other), COMPONENT_SHA256);
        assert_eq!(
            sha256_hex(b"not a component"),
            filetools_core::digest::hex(&Sha256::digest(b"not a component"))
        );
    }
}
