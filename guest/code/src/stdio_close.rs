//! Keeps the code component from importing `wasi:filesystem` (wasm only).
//!
//! tree-sitter's C runtime writes to `stderr` when an allocation fails. In
//! wasi-libc the `stderr` stream carries a close hook whose `close` pulls in
//! the file-descriptor table, and with it imports of `wasi:filesystem`
//! (preopened directories, descriptors). Nothing in the component ever
//! closes `stderr`, so the hook is defined here, doing nothing: the linker
//! then takes this one and leaves libc's out, and files stay reachable only
//! through `host-fs`. `cargo xtask imports` checks that this holds.

/// The close hook of libc's standard streams; never called.
#[unsafe(no_mangle)]
pub extern "C" fn __stdio_close(_file: *mut core::ffi::c_void) -> core::ffi::c_int {
    0
}
