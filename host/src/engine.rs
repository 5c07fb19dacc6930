//! The wasmtime engine, its epoch ticker, and the embedded component with
//! its SHA-256 (computed at build time, the key of its precompiled form in
//! the on-disk cache) and its machine code, precompiled at build
//! time for the machine that built it.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use anyhow::{Context as _, Result};
use sha2::{Digest as _, Sha256};
use wasmtime::Engine;

use crate::engine_config::engine_config;
use crate::limits::EPOCH_TICK;

/// The component, built from `guest/` by `build.rs`.
pub(crate) static COMPONENT: &[u8] = include_bytes!(env!("FILETOOLS_COMPONENT_WASM"));

/// The component's machine code, precompiled by `build.rs` for the machine
/// that built it with this engine's configuration; empty when the build did
/// not precompile it. The first start after an install loads it instead of
/// compiling (about 1–3 s).
pub(crate) static PRECOMPILED: &[u8] = include_bytes!(env!("FILETOOLS_COMPONENT_CWASM"));

/// The embedded component's SHA-256 in hex, computed by `build.rs`.
const COMPONENT_SHA256: &str = env!("FILETOOLS_COMPONENT_SHA256");

/// The grammars' component, built from `guest/code/` by `build.rs`: a
/// session instantiates it on the first call that parses code.
pub(crate) static CODE_COMPONENT: &[u8] = include_bytes!(env!("FILETOOLS_CODE_COMPONENT_WASM"));

/// Its machine code, as [`PRECOMPILED`] is the component's.
pub(crate) static PRECOMPILED_CODE: &[u8] = include_bytes!(env!("FILETOOLS_CODE_COMPONENT_CWASM"));

/// Its SHA-256 in hex.
const CODE_COMPONENT_SHA256: &str = env!("FILETOOLS_CODE_COMPONENT_SHA256");

/// The embedded components, each with its machine code and SHA-256.
const EMBEDDED: [(&[u8], &[u8], &str); 2] = [
    (COMPONENT, PRECOMPILED, COMPONENT_SHA256),
    (CODE_COMPONENT, PRECOMPILED_CODE, CODE_COMPONENT_SHA256),
];

/// The machine code and SHA-256 of `wasm` when it is an embedded component.
fn embedded(wasm: &[u8]) -> Option<(&'static [u8], &'static str)> {
    EMBEDDED
        .iter()
        .find(|(component, _, _)| std::ptr::eq(wasm, *component))
        .map(|&(_, precompiled, sha256)| (precompiled, sha256))
}

/// An engine with epoch interruption and a thread that advances the epoch
/// until the engine is dropped.
#[derive(Debug)]
pub(crate) struct TickingEngine {
    pub engine: Engine,
    stop: Arc<AtomicBool>,
}

impl TickingEngine {
    /// With Cranelift's inlining when `inlining` (see
    /// [`Builder::compiler_inlining`](crate::Builder::compiler_inlining)).
    pub fn new(inlining: bool) -> Result<Self> {
        let mut config = engine_config();
        if inlining {
            config.compiler_inlining(wasmtime::Inlining::Yes);
        }
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
    /// Loaded from the machine code precompiled when the host was built (and
    /// cached, if a cache directory was given): the first start after an
    /// install, or any start without a usable cache.
    Precompiled,
}

/// The component precompiled at build time, when `wasm` is an embedded
/// component and the machine code suits this engine (same wasmtime, same
/// configuration, a CPU with the features it was compiled for).
/// Also gives the machine code, to store in a cache.
pub(crate) fn precompiled(
    engine: &Engine,
    wasm: &[u8],
) -> Option<(wasmtime::component::Component, &'static [u8])> {
    let (precompiled, _) = embedded(wasm)?;
    if precompiled.is_empty() {
        return None;
    }
    // SAFETY: the bytes were made by `Engine::precompile_component` in this
    // crate's build script, from the component embedded beside them, and
    // are part of this binary, as trusted as its own code; wasmtime checks
    // their header, version, configuration and CPU features, and refuses
    // what does not suit this engine.
    unsafe { wasmtime::component::Component::deserialize(engine, precompiled) }
        .ok()
        .map(|component| (component, precompiled))
}

/// The component's SHA-256 in hex; the embedded components' were computed
/// when the host was built.
pub(crate) fn sha256_hex(wasm: &[u8]) -> Cow<'static, str> {
    match embedded(wasm) {
        Some((_, sha256)) => Cow::Borrowed(sha256),
        None => Cow::Owned(filetools_core::hex(&Sha256::digest(wasm))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_time_digest_is_the_embedded_components_sha256() {
        let digest = filetools_core::hex(&Sha256::digest(COMPONENT));
        assert_eq!(COMPONENT_SHA256, digest);
        assert_eq!(sha256_hex(COMPONENT), digest);
        let code = filetools_core::hex(&Sha256::digest(CODE_COMPONENT));
        assert_eq!(sha256_hex(CODE_COMPONENT), code);
    }

    #[test]
    fn another_build_of_the_component_is_hashed_when_loaded() {
        let other = COMPONENT.to_vec();
        assert_eq!(sha256_hex(&other), COMPONENT_SHA256);
        assert_eq!(
            sha256_hex(b"not a component"),
            filetools_core::hex(&Sha256::digest(b"not a component"))
        );
    }
}
