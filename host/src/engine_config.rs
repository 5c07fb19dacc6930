//! The wasmtime configuration of the engine that runs the component. The
//! build script includes this file too: the machine code it precompiles is
//! only loadable by an engine configured the same way.

/// The engine's configuration: epoch interruption bounds every call.
pub(crate) fn engine_config() -> wasmtime::Config {
    let mut config = wasmtime::Config::new();
    config.epoch_interruption(true);
    config
}
